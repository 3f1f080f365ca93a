"""A search trial that runs past its timeout is a failed trial, and the MPI job is stopped
whole: the launcher and every rank, so no rank goes on writing into the next trial."""

import time
from pathlib import Path

from iotuner.runner import build_config
from iotuner.search import RunObjective
from iotuner.space import parse_space

SPACE = """
name = "one-hint"
description = "one hint, nothing for the program"

[hints.romio_cb_write]
values = ["automatic", "enable"]
default = "automatic"
"""


def _alive(pid: int) -> bool:
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except FileNotFoundError:
        return False
    return stat.rsplit(")", 1)[1].split()[0] != "Z"


def test_a_timed_out_trial_stops_every_rank(tmp_path: Path) -> None:
    pids, written = tmp_path / "pids", tmp_path / "written"
    rank = f"echo $$ >> {pids}; while :; do echo x >> {written}; sleep 0.02; done"
    command = [build_config().mpiexec, "-n", "2", "sh", "-c", rank]
    space = parse_space(SPACE, "one-hint space")
    objective = RunObjective(
        command, space, measure="walltime", log_dir=tmp_path / "logs", timeout=3
    )
    outcome = objective.evaluate(space.default(), "1")
    assert outcome.value is None
    assert "did not finish within 3 s" in (outcome.reason or "")
    ranks = [int(pid) for pid in pids.read_text().split()]
    assert len(ranks) == 2
    deadline = time.monotonic() + 10
    while any(map(_alive, ranks)) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert not any(map(_alive, ranks)), "a rank of the timed-out trial is still running"
    size = written.stat().st_size
    time.sleep(0.3)
    assert written.stat().st_size == size  # nothing writes into the next trial
