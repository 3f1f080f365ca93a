"""bench/real_programs.py builds the vendored public programs (third_party/) and runs them.

It checks that the programs ran and moved their bytes, never how fast. The build from
scratch (once per module) takes some 10 s on the 2-core machine, the smoke run (--quick:
one small cell of each program, one repeat, a grid of two) some 15 s; every step has a
timeout, so a hang fails the test instead of stalling it.
"""

import importlib.util
import json
import subprocess
import sys
from pathlib import Path

import pytest

from iotuner.store import open_store

from .conftest import write_table

pytestmark = pytest.mark.slow  # CI's slow stage (.ci/run)

ROOT = Path(__file__).resolve().parents[2]
BENCH = ROOT / "bench" / "real_programs.py"
BUDGET = 55
"""Seconds a step may take."""


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The programs, built once from third_party/ by the bench's own build step."""
    spec = importlib.util.spec_from_file_location("real_programs", BENCH)
    assert spec is not None and spec.loader is not None
    bench = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(bench)
    bin_dir = tmp_path_factory.mktemp("bin")
    binaries = bench.build_programs(bench.tools()["mpicc"], bin_dir)
    assert set(binaries) == {"ior", "pio_noncontig", "nvars", "ghost_cell", "large_dtype"}
    return bin_dir


def test_quick_run_runs_every_program(built: Path, tmp_path: Path) -> None:
    table = write_table(
        tmp_path / "table.jsonl",
        {"at": "open", "nprocs": 2, "hints": {"romio_cb_write": "enable"}},
    )
    raw = tmp_path / "raw.json"
    done = subprocess.run(
        [sys.executable, str(BENCH), "--table", str(table), "--quick", "--dir", str(tmp_path),
         "--build-dir", str(built), "--json", str(raw)],
        capture_output=True, text=True, timeout=BUDGET, check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stdout + done.stderr

    # The count comes first, whatever it is.
    first = done.stdout.splitlines()[0]
    assert first.startswith("tuned slower than default beyond noise: ")
    assert first.endswith(" of 5 cells")

    cells = json.loads(raw.read_text())["cells"]
    ops = {c["cell"].split("/")[0]: c["cell"].split("/")[2] for c in cells}
    assert ops == {"ior": "write", "pio_noncontig": "read", "nvars": "write",
                   "ghost_cell": "write", "large_dtype": "read"}  # fmt: skip
    for cell in cells:
        names = [v["name"] for v in cell["variants"]]
        assert names[:2] == ["default", "tuned"]
        assert len(names) == 3  # --quick: a grid of the default and one other
        assert names[2].startswith("grid:")
        for variant in cell["variants"]:
            (run,) = variant["runs"]
            assert run["bytes"] > 0
            assert run["seconds"] > 0
        # The grid configuration reached MPI through ROMIO_HINTS: it has hints to give.
        assert cell["variants"][2]["hints"]
    ior = next(c for c in cells if c["cell"].startswith("ior/"))
    # IOR printed its own result row for every run (the bench parses it).
    assert all(v["runs"][0]["own_mib_s"] > 0 for v in ior["variants"])


@pytest.mark.slow  # CI's
def test_learning_runs_after_the_repeats(built: Path, tmp_path: Path) -> None:
    """--learn-runs: each cell's program runs again as `run --learn` runs it, learning into
    its own copy of the knowledge base (here an empty one: too little for a model, so each
    refit keeps the entry and says why); every run is printed beside default and best, and
    the table run 3 had runs again --repeats times."""
    table = write_table(tmp_path / "table.jsonl", {"at": "open", "nprocs": 2, "hints": {}})
    open_store(tmp_path / "kb.sqlite").close()
    raw = tmp_path / "raw.json"
    done = subprocess.run(
        [sys.executable, str(BENCH), "--table", str(table), "--quick", "--dir", str(tmp_path),
         "--build-dir", str(built), "--json", str(raw), "--only", "ior/interleaved-4k-coll/write",
         "--db", str(tmp_path / "kb.sqlite"), "--learn-runs", "3"],
        capture_output=True, text=True, timeout=BUDGET, check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stdout + done.stderr
    assert "learning runs slower than every default run: " in done.stdout
    assert "run 1    run 2    run 3" in done.stdout
    (cell,) = json.loads(raw.read_text())["cells"]
    assert [r["run"] for r in cell["learning"]] == [1, 2, 3]
    # The table run 3 had, run again (--quick: one repeat) beside a default run.
    assert len(cell["judged"]) == 1 and len(cell["judged_beside"]) == 1
    assert cell["judged_over_best"] > 0
    assert "the table learning run 3 had, run 1 more times" in done.stdout
    assert all(r["bytes"] > 0 and r["seconds"] > 0 for r in cell["learning"])
    assert all(r["learned"] for r in cell["learning"])  # each refit said what it did
    assert not any("failed" in line for r in cell["learning"] for line in r["learned"])


def test_vendored_ior_writes_the_bytes_it_says(built: Path, mpiexec: str, tmp_path: Path) -> None:
    """The built IOR, run by hand once: 2 ranks x 8 segments x 4 KiB interleaved, synced."""
    target = tmp_path / "ior.dat"
    done = subprocess.run(
        [mpiexec, "-n", "2", str(built / "ior"), "-a", "MPIIO", "-c", "-t", "4k", "-b", "4k",
         "-s", "8", "-w", "-e", "-k", "-o", str(target)],
        capture_output=True, text=True, timeout=BUDGET, check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stdout + done.stderr
    assert target.stat().st_size == 2 * 8 * 4096
    assert any(line.split()[:1] == ["write"] for line in done.stdout.splitlines())


def test_the_new_programs_are_traced_in_their_own_shapes(
    built: Path, mpiexec: str, tmp_path: Path
) -> None:
    """Issue 41's programs unlike IOR's, traced as `iotuner run` traces them: the trace
    sees nvars' memory in 100-byte pieces (ghost cells left out) and large_dtype's
    100-byte file pieces with holes, collective and independent."""
    from iotuner.summary import summarize
    from iotuner.tracelog import read_tracelog

    iotuner = Path(sys.executable).parent / "iotuner"
    runs = {
        "nvars": ["-n", "16", "-l", "25", "-f", str(tmp_path / "nv.dat")],
        "large_dtype": ["-n", "8", "-l", "101", "-g", "1", "-w", "-f", str(tmp_path / "ld.dat")],
    }
    shapes = {}
    for name, args in runs.items():
        done = subprocess.run(
            [str(iotuner), "run", "--log-dir", str(tmp_path / name), "--", mpiexec, "-n", "2",
             str(built / name), *args],
            capture_output=True, text=True, timeout=BUDGET, check=False,
        )  # fmt: skip
        assert done.returncode == 0, done.stdout + done.stderr
        (log,) = (tmp_path / name).glob("*.iotrace.jsonl")
        trace = read_tracelog(log)
        shapes[name] = {op["operation"]: (op["file_piece"], op["mem_piece"]) for op in trace.ops}
        assert summarize(trace).files  # show can summarize it
    assert shapes["nvars"]["MPI_File_write_all"][1] == 100
    assert shapes["large_dtype"]["MPI_File_write"] == (100, 100)
    assert shapes["large_dtype"]["MPI_File_write_all"] == (100, 100)
