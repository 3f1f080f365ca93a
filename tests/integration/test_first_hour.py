"""A long command in a pipe or a log shows it is alive, and warns when the machine is busy
(issue 32, item 7): rich draws no bar where stdout or stderr is not a terminal, so bench
and the demo said nothing for minutes there; and nothing said that a load above the cores
makes every measurement noise."""

import os
import re
import subprocess
import sys
from pathlib import Path

IOTUNER = str(Path(sys.executable).parent / "iotuner")
SWEEP = ("--space", "demo-small", "--nprocs", "2", "--patterns", "collective", "--layouts",
         "contiguous", "--ops", "write", "--sizes", "64k", "--open-size", "1m", "--repeats",
         "2", "--no-db")  # fmt: skip
"""One workload, 18 configurations (+3 of other behaviours) twice: a job of seconds."""


def test_bench_in_a_pipe_says_its_progress_and_that_the_machine_is_busy(tmp_path: Path) -> None:
    (tmp_path / "data").mkdir()
    # A line every 20 ms: the MPI job alone (the launch, MPI_Init, synced writes) takes
    # longer on any machine, and the test must not rest on how much longer.
    env = {**os.environ, "IOTUNER_PROGRESS_SECONDS": "0.02", "IOTUNER_TEST_LOADAVG": "64"}
    done = subprocess.run(
        [IOTUNER, "bench", *SWEEP, "--dir", str(tmp_path / "data"), "--results",
         str(tmp_path / "r.bench.jsonl")],
        env=env, capture_output=True, text=True, timeout=600, check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stdout + done.stderr
    assert done.stderr.count("iotuner: warning: the machine is busy") == 1, done.stderr
    warning = next(line for line in done.stderr.splitlines() if "machine is busy" in line)
    assert "load average 64.0" in warning and "noise" in warning
    # The bar's state as lines on stderr while it ran, and the last one at its end: the
    # counts rise.
    counts = [int(n) for n in re.findall(r"━* *(\d+)/\d+ \d+:\d\d:\d\d", done.stderr)]
    assert len(counts) >= 2 and counts == sorted(counts), done.stderr
    assert "━" not in done.stdout  # the plan and results alone on stdout
