"""`iotuner bench --time-budget` with the real kernel (issue 23, item 5): a sweep far
larger than its budget stops in time, says why and how much of the plan it measured, and
the same command again goes on where it stopped, with a fresh budget, measuring nothing
twice."""

import json
import re
from pathlib import Path

from .test_cli import iotuner

BUDGET = 6.0
SWEEP = ("--space", "demo-small", "--nprocs", "2", "--patterns", "collective,independent",
         "--layouts", "contiguous", "--ops", "write", "--sizes", "1m", "--open-size", "256m",
         "--repeats", "4", "--time-budget", f"{BUDGET:g}s", "--no-db")  # fmt: skip
"""2 workloads x (18 + 3) configurations x 4 repeats of 512 MiB written and synced each:
minutes of work; the first round alone (6 configurations x 4) is more than the budget."""


def test_a_budget_stops_the_sweep_and_the_same_command_goes_on(tmp_path: Path) -> None:
    data = tmp_path / "data"
    data.mkdir()
    results = tmp_path / "r.bench.jsonl"
    args = (*SWEEP, "--dir", str(data), "--results", str(results))

    first = iotuner("bench", *args).stdout
    said = " ".join(first.split())
    assert "time budget 6.0 s; the time it takes is estimated after the first" in said
    assert re.search(r"stopped after 1 round\(s\) and \d+\.\d s: the time budget \(6\.0 s\)", said)
    made = len(results.read_text().splitlines())
    assert 0 < made < 24  # within the first round
    assert f"{made} of 84 planned measurements are in {results}" in said
    assert "run the same command again to go on" in said
    # That it stopped in time is what the stop line and the count above say (a test
    # asserts no wall time: the machine's speed is not the code's).
    first_uids = [json.loads(line)["uid"] for line in results.read_text().splitlines()]
    assert all(json.loads(line)["provenance"]["wall_seconds"] > 0 for line in results.open())

    second = " ".join(iotuner("bench", *args).stdout.split())
    assert f"{made} of 84 measured already; at their pace the rest takes about" in second
    lines = results.read_text().splitlines()
    uids = [json.loads(line)["uid"] for line in lines]
    assert uids[:made] == first_uids  # appended to, not rewritten
    assert len(uids) == len(set(uids)) > made  # nothing measured twice, something new
    assert f"{len(uids) - made} new measurements in {results}" in second
    assert list(data.iterdir()) == []  # the stopped job's file is removed too
