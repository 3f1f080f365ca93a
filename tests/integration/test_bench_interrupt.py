"""Ctrl-C on `iotuner bench` (issue 41, item 3): one line, no traceback, the kernel's
ranks stopped with it, and the same command goes on from the measurements kept.

The terminal's Ctrl-C is SIGINT to the foreground process group: here bench runs in a
session of its own and the test sends SIGINT to that group, as the terminal would, while
a measurement is under way."""

import os
import signal
import subprocess
import time
from pathlib import Path

from iotuner.bench import read_results
from iotuner.runner import find_program

from .conftest import TIMEOUT

SWEEP = ("--space", "demo-small", "--nprocs", "2", "--layouts", "contiguous", "--ops", "write",
         "--sizes", "1m", "--open-size", "64m", "--no-db", "--patterns", "collective",
         "--repeats", "2")  # fmt: skip


def _bench(data: Path, results: Path) -> subprocess.Popen[str]:
    iotuner = Path(find_program("iokernel")).parents[2] / "bin" / "iotuner"
    return subprocess.Popen(
        [str(iotuner), "bench", *SWEEP, "--dir", str(data), "--results", str(results)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
        # A shell's background job inherits SIGINT ignored; a terminal's command does not.
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
    )


def _kernels_of(data: Path) -> list[str]:
    """The command lines of processes still working on files under `data`."""
    found = []
    for entry in Path("/proc").iterdir():
        try:
            line = (entry / "cmdline").read_bytes().replace(b"\0", b" ").decode()
        except OSError:
            continue
        if str(data) in line and "iokernel" in line:
            found.append(line)
    return found


def test_ctrl_c_says_one_line_and_leaves_no_rank(tmp_path: Path) -> None:
    data, results = tmp_path / "data", tmp_path / "r.bench.jsonl"
    data.mkdir()
    job = _bench(data, results)
    deadline = time.monotonic() + TIMEOUT
    while not (results.exists() and results.read_text().count("\n") >= 2):
        assert job.poll() is None, job.communicate()
        assert time.monotonic() < deadline, "no measurement in time"
        time.sleep(0.1)
    os.killpg(job.pid, signal.SIGINT)
    _, stderr = job.communicate(timeout=TIMEOUT)
    assert job.returncode == 130, stderr
    assert stderr.strip().splitlines()[-1] == "iotuner: interrupted; the same command resumes"
    assert "Traceback" not in stderr, stderr
    assert _kernels_of(data) == []
    kept = len(read_results(results))
    assert kept >= 2

    again = _bench(data, results)
    stdout, stderr = again.communicate(timeout=TIMEOUT)
    assert again.returncode == 0, stderr
    said = " ".join(stdout.split())
    assert len(read_results(results)) == 36, said  # 18 configurations x 2 repeats, none twice
    assert f"{36 - kept} new measurements" in said, said
