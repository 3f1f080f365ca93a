"""The contract every check of iotuner.diagnose keeps (iotuner.diagnose.checks.CHECKS): on
every Darshan log the `darshan` package ships, and on synthetic logs of each Darshan module
the checks read (built from the table of counters they read, iotuner.diagnose._counters),
each registered check returns findings of its declared codes only, and never raises. Also:
each check module opens with its template (what it reads, finds, and the codes it can
raise), the table of counters is true to the checks and to Darshan, and
docs/finding-codes.md is what the registry generates."""

import ast
import functools
import importlib
import re
import sys
from pathlib import Path
from typing import Any

import darshan
import numpy as np
import pandas as pd
import pytest

from iotuner.diagnose import LEVELS, Finding
from iotuner.diagnose._counters import COUNTERS, MODULES, SPELLINGS
from iotuner.diagnose._counters import names as counter_names
from iotuner.diagnose.checks import CHECKS, UNREADABLE, Check, Log, codes_page
from iotuner.ingest import read_darshan

ROOT = Path(__file__).resolve().parents[2]
PACKAGE = Path(darshan.__file__).resolve().parent
SHIPPED = sorted({p.name: p for p in PACKAGE.rglob("*.darshan")}.values(), key=lambda p: p.name)
CHECK_MODULES = sorted({c.run.__module__ for c in CHECKS})
PREFIXES = ("POSIX", "MPIIO", "STDIO", "H5D", "H5F", "PNETCDF_VAR", "PNETCDF_FILE", "DAOS", "DFS")
"""The prefixes of the counters of COUNTERS' modules."""
SUMS = {"POSIX_BYTES", "STDIO_BYTES"}
"""Names the findings give sums of counters (interface.no_mpiio: POSIX_BYTES_READ and
POSIX_BYTES_WRITTEN), not counters read."""


def synthetic_log(modules: tuple[str, ...], nprocs: int, seed: int, fill: str) -> dict[str, Any]:
    """The reader's plain data (_darshan_worker.read_log) of a log with records of
    `modules`, made of every counter the checks read (iotuner.diagnose._counters): files
    all ranks share (rank -1), files of one rank, a system file and a stream; the counters
    random (`fill` "random"), random in the patterns of _patterned ("patterned"), 0
    ("zeros") or Darshan's -1 for a counter not kept ("unkept"); with Lustre stripes and
    targets, and a DXT trace, when `modules` names them."""
    rng = np.random.default_rng(seed)
    names = {1: "/lus/out/shared.h5", 2: "/lus/out/input.dat", 3: "/usr/lib/libm.so.6"}
    names |= {4: "<STDOUT>"} | {10 + r: f"/lus/out/rank{r}.dat" for r in range(min(nprocs, 4))}
    keys = [(-1, i) for i in (1, 2, 3, 4)] + [(r, 10 + r) for r in range(min(nprocs, 4))]
    keys += [(r, 2) for r in range(min(nprocs, 3))]
    frames = {}
    for module in modules:
        if module not in COUNTERS:
            continue
        rows = []
        for rank, ident in keys:
            row: dict[str, Any] = {"rank": rank, "id": ident}
            for name in counter_names(module):
                row[name] = _value(name, rng, nprocs, fill)
            rows.append(row)
        frames[module] = pd.DataFrame(rows)
    if fill == "patterned":
        _patterned(frames)
    log: dict[str, Any] = {
        "job": {"nprocs": nprocs, "run_time": float(rng.uniform(1, 5000))},
        "exe": "",
        "modules": {m: bool(rng.integers(0, 2)) for m in frames},
        "names": names,
        "mounts": [],
        "frames": frames,
        "stripes": {},
        "osts": {},
        "dxt": {},
    }
    if "LUSTRE" in modules:
        count = (lambda: 2) if fill == "patterned" else (lambda: int(rng.integers(1, 9)))
        log["stripes"] = {i: (count(), 1 << 20) for i in names}
        log["osts"] = {i: tuple(sorted({int(t) for t in rng.integers(0, 6, 1 + i % 2)}))
                       for i in names}  # fmt: skip
    for module in ("DXT_POSIX", "DXT_MPIIO"):
        if module in modules:
            log["dxt"][module] = _trace(rng, nprocs)
    return log


def _patterned(frames: dict[str, pd.DataFrame]) -> None:
    """Random counters in the patterns the checks look for, which independent random
    values rarely make: reads in random order, strided writes, holes past the bytes moved,
    files of one rank smaller than shared ones, independent MPI-IO calls and no
    nonblocking ones, and shared files whose uneven POSIX bytes collective buffering's
    aggregators explain (even bytes at MPI-IO, even times at POSIX)."""
    if (posix := frames.get("POSIX")) is not None:
        posix["POSIX_SEQ_READS"] = posix["POSIX_READS"] * 0.3
        posix["POSIX_SEQ_WRITES"] = posix["POSIX_WRITES"] * 0.9
        for ops in ("READS", "WRITES"):
            posix[f"POSIX_CONSEC_{ops}"] = posix[f"POSIX_SEQ_{ops}"] * 0.1
        for past in ("READ", "WRITTEN"):
            posix.loc[posix["rank"] >= 0, f"POSIX_BYTES_{past}"] //= 100
            posix[f"POSIX_MAX_BYTE_{past}"] = posix[f"POSIX_BYTES_{past}"] * 3
        moved = posix["POSIX_BYTES_READ"] + posix["POSIX_BYTES_WRITTEN"]
        posix["POSIX_SLOWEST_RANK_BYTES"], posix["POSIX_FASTEST_RANK_BYTES"] = moved // 2, 0
        posix["POSIX_F_FASTEST_RANK_TIME"] = posix["POSIX_F_SLOWEST_RANK_TIME"]
        posix["POSIX_F_VARIANCE_RANK_TIME"] = 0.0
    if (mpiio := frames.get("MPI-IO")) is not None:
        for ops in ("READS", "WRITES"):
            mpiio[f"MPIIO_INDEP_{ops}"] = mpiio[f"MPIIO_COLL_{ops}"] * 10
            mpiio[f"MPIIO_NB_{ops}"] = 0
        mpiio["MPIIO_FASTEST_RANK_BYTES"] = mpiio["MPIIO_SLOWEST_RANK_BYTES"]


def _value(name: str, rng: np.random.Generator, nprocs: int, fill: str) -> float:
    if fill == "zeros":
        return 0
    if fill == "unkept":
        return -1
    if name.endswith(("SLOWEST_RANK", "FASTEST_RANK")):
        return int(rng.integers(0, nprocs))
    if name.endswith("ALIGNMENT"):
        return 4096
    if "USE_MPIIO" in name:
        return int(rng.integers(0, 2))
    if "TIME" in name:
        return float(rng.uniform(0, 300))
    if "BYTE" in name:
        return int(rng.integers(0, 4 << 30))
    return int(rng.integers(0, 40000))


def _trace(rng: np.random.Generator, nprocs: int) -> dict[str, Any]:
    """A DXT summary as the reader's _dxt makes it."""
    kept = int(rng.integers(0, 300))
    segments = np.zeros(kept, dtype=[("rank", "<i8"), ("id", "<u8"), ("write", "?"),
                                     ("offset", "<i8"), ("length", "<i8"), ("start", "<f8"),
                                     ("end", "<f8")])  # fmt: skip
    segments["rank"] = rng.integers(0, nprocs, kept)
    segments["id"] = 1
    segments["offset"] = rng.integers(0, 1 << 32, kept) // int(rng.choice([1, 4096]))
    segments["length"] = rng.integers(1, 4 << 20, kept)
    segments["start"] = rng.uniform(0, 10, kept)
    segments["end"] = segments["start"] + rng.uniform(0, 1, kept)
    ranks = {r: [10.0, 1e6, float(rng.uniform(0, 100)), 0.0, 10.0]
             for r in range(min(nprocs, 8))}  # fmt: skip
    total = kept + int(rng.integers(0, 2)) * 1000
    return {"segments": segments, "total": total, "capped": total > kept, "ranks": ranks,
            "hosts": {r: f"nid{r % 3}" for r in ranks}}  # fmt: skip


SYNTHETIC = [
    (modules, nprocs, seed, fill)
    for modules in [(m,) for m in COUNTERS] + [(*COUNTERS, "LUSTRE", "DXT_POSIX", "DXT_MPIIO"),
                                             ("POSIX", "LUSTRE"), ("POSIX", "DXT_POSIX"),
                                             ("POSIX", "MPI-IO"), ("DXT_POSIX",), ("DXT_MPIIO",)]
    for nprocs, seed, fill in [(4, 0, "random"), (1, 1, "random"), (2048, 2, "random"),
                               (8, 5, "patterned"), (4, 3, "zeros"), (4, 4, "unkept")]
]  # fmt: skip


@functools.cache
def shipped_log(path: Path) -> dict[str, Any]:
    log = read_darshan(path).log
    assert log is not None
    return log


def run(check: Check, log: dict[str, Any]) -> list[Finding]:
    """The check's findings of the log; any exception fails the test that calls it."""
    findings = list(check.run(Log.read(log)))
    for f in findings:
        assert isinstance(f, Finding) and f.level in LEVELS, f
        assert f.code in check.codes, f"{check.name} raised {f.code}, not one of {check.codes}"
    return findings


@pytest.mark.parametrize("path", SHIPPED, ids=lambda p: p.name[:32])
def test_every_check_on_every_shipped_log(path: Path) -> None:
    assert SHIPPED, "the darshan package ships its example logs"
    for check in CHECKS:
        run(check, shipped_log(path))


@pytest.mark.parametrize("case", SYNTHETIC, ids=lambda c: f"{'+'.join(c[0])}-{c[1]}-{c[3]}")
def test_every_check_on_a_synthetic_log(case: tuple[tuple[str, ...], int, int, str]) -> None:
    log = synthetic_log(*case)
    for check in CHECKS:
        run(check, log)


def test_the_synthetic_logs_raise_most_codes() -> None:
    """The synthetic logs reach the checks' findings, not only their early returns."""
    logs = [synthetic_log(*case) for case in SYNTHETIC]
    raised = {f.code for log in logs for c in CHECKS for f in run(c, log)}
    declared = {code for c in CHECKS for code in c.codes}
    assert len(raised) >= 0.9 * len(declared), sorted(declared - raised)


def test_the_registry_names_each_check_and_code_once() -> None:
    names = [c.name for c in CHECKS]
    assert len(set(names)) == len(names), names
    codes = [code for c in CHECKS for code in c.codes] + list(UNREADABLE)
    assert len(set(codes)) == len(codes), codes
    assert all(c.codes and all(m.strip() for m in c.codes.values()) for c in CHECKS)


@pytest.mark.parametrize("module", CHECK_MODULES)
def test_each_check_module_opens_with_its_template(module: str) -> None:
    doc = importlib.import_module(module).__doc__ or ""
    for part in ("Reads:", "Finds:", "Codes:"):
        assert part in doc, f"{module}'s docstring lacks {part!r}"
    listed = set(re.findall(r"[a-z0-9]+\.[a-z_]+", doc.split("Codes:", 1)[1]))
    declared = {code for c in CHECKS if c.run.__module__ == module for code in c.codes}
    assert listed == declared, (module, listed ^ declared)


def _spelt_counters(module: str) -> set[str]:
    """The whole counter names the module's code spells (its docstrings left out)."""
    tree = ast.parse(Path(sys.modules[module].__file__ or "").read_text())
    docstrings = {
        id(node.body[0].value)
        for node in ast.walk(tree)
        if isinstance(node, ast.Module | ast.FunctionDef | ast.ClassDef)
        and node.body
        and isinstance(node.body[0], ast.Expr)
        and isinstance(node.body[0].value, ast.Constant)
    }
    prefixes = "|".join(PREFIXES)
    spelt = set()
    for node in ast.walk(tree):
        if (
            isinstance(node, ast.Constant)
            and isinstance(node.value, str)
            and id(node) not in docstrings
        ):
            spelt |= set(re.findall(rf"\b(?:{prefixes})_[A-Z0-9_]*[A-Z0-9]\b", node.value))
    return spelt


def test_the_counters_table_holds_every_counter_the_checks_spell() -> None:
    described = {n for m in COUNTERS for n in counter_names(m)}
    for module in [*CHECK_MODULES, "iotuner.diagnose.checks._helpers"]:
        missing = _spelt_counters(module) - described - SUMS
        assert not missing, f"{module} reads {sorted(missing)}, not in _counters.COUNTERS"


def test_the_modules_table_names_counters_of_the_counters_table() -> None:
    for m in MODULES:
        described = set(counter_names(m.name))
        spelt = {m.time(k) for k in SPELLINGS["KIND"]} | {m.moved(p) for p in SPELLINGS["PAST"]}
        for ops in SPELLINGS["OPS"]:
            for pattern in filter(None, (m.calls, m.independent, *m.collective, *m.nonblocking)):
                spelt.add(pattern.format(ops=ops))
            if m.sizes:
                op = ops.removesuffix("S")
                spelt |= {m.sizes.format(op=op, b=b) for b in SPELLINGS["BIN"]}
        assert spelt <= described, (m.name, sorted(spelt - described))


def test_the_counters_table_is_darshans() -> None:
    """Every counter named is one of the Darshan module's own (PyDarshan's names)."""
    backend = pytest.importorskip("darshan.backend.cffi_backend")
    for module in COUNTERS:
        known = set(backend.counter_names(module)) | set(backend.fcounter_names(module))
        assert set(counter_names(module)) <= known, (module, set(counter_names(module)) - known)


def test_finding_codes_page_is_the_registrys() -> None:
    """docs/finding-codes.md is generated: `python -m iotuner.diagnose.checks
    docs/finding-codes.md` after changing a check's codes."""
    committed = (ROOT / "docs" / "finding-codes.md").read_text(encoding="utf-8")
    assert committed == codes_page(), "run: python -m iotuner.diagnose.checks docs/finding-codes.md"


def test_the_diagnosis_modules_stay_small() -> None:
    """No module of iotuner.diagnose over 600 lines, no function over 80 (house style)."""
    folder = Path(sys.modules["iotuner.diagnose"].__file__ or "").parent
    for path in sorted(folder.rglob("*.py")):
        text = path.read_text()
        assert text.count("\n") <= 600, path
        for node in ast.walk(ast.parse(text)):
            if isinstance(node, ast.FunctionDef):
                assert (node.end_lineno or 0) - node.lineno < 80, (path.name, node.name)
