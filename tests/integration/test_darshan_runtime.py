"""Darshan's runtime beside the interposer: many sites preload libdarshan.so in every job.

Darshan 3.5.0's runtime is built once per session from third_party/darshan (build.sh, with
the MPI compiler iotuner was built with); the tests skip when it cannot be built (no
compiler, make or zlib header; the `darshan` reader not installed), and fail instead when
IOTUNER_REQUIRE_DARSHAN=1 (CI).

iokernel runs at 2 ranks plain, under Darshan alone, and under both with a table that
changes hints at open and at every collective access, in both LD_PRELOAD orders. Both
libraries are PMPI interposers that define MPI_x and PMPI_x and reach MPI through
dlsym(RTLD_NEXT, "PMPI_x"), so the first one in LD_PRELOAD gets the program's call and the
second one the first one's; each must see the kernel's I/O and leave the bytes alone.

Both orders give both logs. Darshan first used to crash the job at MPI_Init: Darshan's
MPI_Init calls the next PMPI_Init, iotuner's, which called MPI_Init through the PLT, which
is Darshan's again, until the stack overflowed (SIGSEGV). The interposer's MPI_ and PMPI_
entry points of MPI_Init, MPI_Init_thread and MPI_Finalize now call one static function
each, as its file routines do (third_party/darshan/README.md has the evidence).
"""

import importlib
import os
import shutil
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from iotuner.runner import build_config, find_library, interposer_env
from iotuner.tracelog import read_tracelog

from .conftest import TIMEOUT, Mpi, write_table
from .test_never_harm import FORCE, SIZE_CHANGES

ROOT = Path(__file__).resolve().parents[2]
BUILD_SCRIPT = ROOT / "third_party" / "darshan" / "build.sh"
IOTUNER = str(Path(sys.executable).parent / "iotuner")

NPROCS = 2
SIZE = 4 * 1024 * 1024
ARGS = ("--size", "4m", "--op", "both")
"""Each rank writes SIZE bytes collectively, then reads them back and checks them."""
WRITTEN = NPROCS * SIZE


def _unavailable(reason: str) -> None:
    if os.environ.get("IOTUNER_REQUIRE_DARSHAN") == "1":
        pytest.fail(f"IOTUNER_REQUIRE_DARSHAN=1 but {reason}")
    pytest.skip(reason)


# Darshan's runtime is built once (about 20 s on 2 cores): CI runs these (its slow stage).
pytestmark = pytest.mark.slow


@pytest.fixture(scope="session")
def libdarshan() -> Path:
    """libdarshan.so built from third_party/darshan with our MPI compiler (once: build.sh
    reuses a finished build of the same source and compiler)."""
    if not (ROOT / "third_party" / "darshan" / "darshan-runtime" / "configure").exists():
        _unavailable("the vendored Darshan source (third_party/darshan) is missing")
    if shutil.which("make") is None:
        _unavailable("no make to build Darshan's runtime")
    try:
        importlib.import_module("darshan")
    except ImportError:
        _unavailable("the Darshan log reader is not installed (pip install darshan)")
    mpicc = build_config().mpicc or "mpicc"
    built = subprocess.run(
        [str(BUILD_SCRIPT), mpicc], capture_output=True, text=True, timeout=900, check=False
    )
    if built.returncode != 0:
        _unavailable(f"Darshan's runtime did not build with {mpicc}:\n{built.stderr[-3000:]}")
    library = Path(built.stdout.strip().splitlines()[-1]) / "lib" / "libdarshan.so"
    assert library.is_file(), built.stdout + built.stderr
    return library


def darshan_records(log_dir: Path, data: Path) -> dict[str, Any]:
    """The single Darshan log in log_dir: its MPI-IO counters of `data`, summed over the
    ranks, and the names of every file it has a POSIX record of."""
    logs = sorted(log_dir.glob("*.darshan"))
    assert len(logs) == 1, f"expected one Darshan log in {log_dir}, got {logs}"
    darshan = importlib.import_module("darshan")
    with darshan.DarshanReport(str(logs[0]), read_all=True) as report:
        names = report.name_records
        assert "MPI-IO" in report.records, f"no MPI-IO module in {logs[0]}: {report.modules}"
        counters = report.records["MPI-IO"].to_df()["counters"]
        mine = counters[counters["id"].map(names) == str(data)]
        posix = report.records["POSIX"].to_df()["counters"] if "POSIX" in report.records else None
        return {
            "mpiio": {k: int(v) for k, v in mine.drop(columns=["id", "rank"]).sum().items()},
            "mpiio_records": len(mine),
            "posix_files": set() if posix is None else {names[i] for i in posix["id"]},
        }


def iotuner_ops(log_dir: Path) -> dict[str, Any]:
    """The single trace log in log_dir: bytes of its data-access ops per file and kind, and
    its hint records."""
    logs = sorted(log_dir.glob("*.iotrace.jsonl"))
    assert len(logs) == 1, f"expected one iotuner trace log in {log_dir}, got {logs}"
    log = read_tracelog(logs[0])
    moved: dict[tuple[str, str], int] = {}
    for op in log.ops:
        key = (op["file"], op["kind"])
        moved[key] = moved.get(key, 0) + int(op["bytes"])
    return {"bytes": moved, "hints": log.hints}


class Runs:
    """Runs iokernel with one environment each into its own directory."""

    def __init__(self, mpi: Mpi, base: Path) -> None:
        self.mpi = mpi
        self.base = base
        self.table = write_table(
            base / "table.jsonl",
            {"at": "open", "hints": {**FORCE, **SIZE_CHANGES["lowered-after-open"][0]}},
            {"pattern": "collective", "hints": SIZE_CHANGES["lowered-after-open"][1]},
        )

    def dirs(self, name: str) -> tuple[Path, Path, Path]:
        """The data file, Darshan's log directory and iotuner's of a run."""
        work = self.base / name
        (work / "darshan").mkdir(parents=True)
        (work / "iotuner").mkdir()
        return work / "out.dat", work / "darshan", work / "iotuner"

    @staticmethod
    def clean_env() -> dict[str, str]:
        env = {k: v for k, v in os.environ.items() if not k.startswith(("IOTUNER_", "DARSHAN"))}
        env.pop("LD_PRELOAD", None)
        return env

    def run(self, env: dict[str, str], data: Path) -> subprocess.CompletedProcess[str]:
        return self.mpi.run_env(env, NPROCS, "iokernel", "--file", str(data), *ARGS, check=False)


@pytest.fixture
def runs(mpi: Mpi, tmp_path: Path) -> Iterator[Runs]:
    yield Runs(mpi, tmp_path)


def plain_run(runs: Runs) -> tuple[int, bytes]:
    data, _, _ = runs.dirs("plain")
    done = runs.run(runs.clean_env(), data)
    assert done.returncode == 0, done.stdout + done.stderr
    return done.returncode, data.read_bytes()


def test_darshan_alone_records_the_kernel(libdarshan: Path, runs: Runs) -> None:
    status, reference = plain_run(runs)
    data, darshan_logs, _ = runs.dirs("darshan")
    env = {**runs.clean_env(), "LD_PRELOAD": str(libdarshan), "DARSHAN_LOGPATH": str(darshan_logs)}
    done = runs.run(env, data)
    assert done.returncode == status, done.stdout + done.stderr
    assert data.read_bytes() == reference
    seen = darshan_records(darshan_logs, data)
    assert seen["mpiio"]["MPIIO_BYTES_WRITTEN"] == WRITTEN
    assert seen["mpiio"]["MPIIO_BYTES_READ"] == WRITTEN
    assert seen["mpiio"]["MPIIO_COLL_WRITES"] == NPROCS
    assert seen["mpiio"]["MPIIO_HINTS"] == 0  # iokernel opens with MPI_INFO_NULL


def check_both(runs: Runs, name: str, done: subprocess.CompletedProcess[str]) -> dict[str, Any]:
    """The checks every order must pass: the same exit status and bytes as plain, Darshan's
    MPI-IO counters of the data file and iotuner's trace of it, with the table's hints."""
    status, reference = plain_run(runs)
    data = runs.base / name / "out.dat"
    assert done.returncode == status, f"exit {done.returncode}\n{done.stdout}\n{done.stderr}"
    assert data.read_bytes() == reference
    seen = darshan_records(runs.base / name / "darshan", data)
    assert seen["mpiio"]["MPIIO_BYTES_WRITTEN"] == WRITTEN, seen
    assert seen["mpiio"]["MPIIO_BYTES_READ"] == WRITTEN, seen
    traced = iotuner_ops(runs.base / name / "iotuner")
    assert traced["bytes"][(str(data), "write")] == WRITTEN, traced["bytes"]
    assert traced["bytes"][(str(data), "read")] == WRITTEN, traced["bytes"]
    at_open, at_access = SIZE_CHANGES["lowered-after-open"]
    mine = [h for h in traced["hints"] if h["file"] == str(data)]
    assert [h["requested"] for h in mine if h["at"] == "open"] == [{**FORCE, **at_open}] * 2
    assert [h["requested"] for h in mine if h["at"] == "access"] == [at_access] * 2
    return {"darshan": seen, "iotuner": traced}


def test_iotuner_run_with_darshan_preloaded_gives_both_logs(libdarshan: Path, runs: Runs) -> None:
    """Darshan in the caller's LD_PRELOAD, as at a site that always preloads it; `iotuner
    run` puts the interposer in front: LD_PRELOAD=libiotuner.so:libdarshan.so for the ranks."""
    data, darshan_logs, iotuner_logs = runs.dirs("iotuner-first")
    env = {**runs.clean_env(), "LD_PRELOAD": str(libdarshan), "DARSHAN_LOGPATH": str(darshan_logs)}
    command = runs.mpi.command(NPROCS, "iokernel", "--file", str(data), *ARGS)
    done = subprocess.run(
        [IOTUNER, "run", "--mode", "tune,trace", "--table", str(runs.table),
         "--log-dir", str(iotuner_logs), "--", *command],
        env=env, capture_output=True, text=True, timeout=TIMEOUT, check=False,
    )  # fmt: skip
    seen = check_both(runs, "iotuner-first", done)
    # Darshan sits below iotuner: it sees the opens with the info iotuner gave them (one per
    # rank and open), and iotuner's own files (table, trace log) through its POSIX module.
    assert seen["darshan"]["mpiio"]["MPIIO_HINTS"] == 2 * NPROCS
    assert str(runs.table) in seen["darshan"]["posix_files"]


def test_darshan_first_gives_both_logs(libdarshan: Path, runs: Runs) -> None:
    data, darshan_logs, iotuner_logs = runs.dirs("darshan-first")
    env = interposer_env(
        "tune,trace", runs.table, iotuner_logs, "table", "darshanfirst", base=runs.clean_env()
    )
    env["LD_PRELOAD"] = f"{libdarshan}:{find_library()}"
    env["DARSHAN_LOGPATH"] = str(darshan_logs)
    done = runs.run(env, data)
    seen = check_both(runs, "darshan-first", done)
    # Darshan sits above iotuner: it sees the program's opens (no info), and iotuner sees
    # Darshan's log written at MPI_Finalize, before iotuner's own MPI_Finalize.
    assert seen["darshan"]["mpiio"]["MPIIO_HINTS"] == 0
