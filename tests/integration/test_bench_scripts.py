"""The benches that read bench/overhead.c's result line run end to end, one small repeat.

They check that each bench finds and reads its program's figures for every configuration,
never what the figures are: a change to the program's output once left bench/overhead.py
unable to read any of its runs.
"""

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
TIMEOUT = 120


def run_bench(name: str, *args: str) -> str:
    done = subprocess.run(
        [sys.executable, str(ROOT / "bench" / name), *args],
        capture_output=True,
        text=True,
        timeout=TIMEOUT,
    )
    assert done.returncode == 0, f"{name} exited {done.returncode}:\n{done.stdout}\n{done.stderr}"
    return done.stdout


def test_overhead_reads_every_configuration(tmp_path: Path) -> None:
    configs = ("baseline", "trace", "tune,trace")
    out = run_bench(
        "overhead.py", "--ops", "2000", "--repeats", "1", "--dir", str(tmp_path), "--configs",
        *configs,
    )  # fmt: skip
    rows = [
        line.split()[0] for line in out.splitlines() if line.split()[:1] in ([c] for c in configs)
    ]
    assert all(rows.count(c) == 3 for c in configs), out  # loop wall, loop CPU, whole job


def test_trace_cost_reads_the_phase_cells(tmp_path: Path) -> None:
    out = run_bench("trace_cost.py", "--repeats", "1", "--only", "phase/*", "--dirs", str(tmp_path))
    cells = [line for line in out.splitlines() if line.startswith("phase/")]
    assert len(cells) == 2, out
    modes = [line.split()[0] for line in out.splitlines() if line.startswith("  ")]
    assert modes.count("learn") == 2 and modes.count("plain") == 2, out
