"""The budget in core-hours and the trial time limit (no Slurm needed: the local launcher)."""

import math
import subprocess
import sys
from pathlib import Path

import pytest

from iotuner.cli import main
from iotuner.search import RunObjective, SearchError, SearchSettings, run_search
from iotuner.space import parse_space

pytestmark = pytest.mark.slow  # CI's slow stage (.ci/run)

SPACE = """
name = "cb-write"
description = "collective buffering for writes: 3 configurations"

[hints.romio_cb_write]
values = ["automatic", "disable", "enable"]
default = "automatic"
"""
IOTUNER = str(Path(sys.executable).parent / "iotuner")


def test_the_search_stops_before_a_trial_that_would_pass_the_budget(tmp_path: Path) -> None:
    space = parse_space(SPACE, "test space")
    # One core (no launcher's -n), about 0.4 s a trial: a budget of one core-second has
    # room for two trials at most (the second only when the first took under 0.5 s).
    objective = RunObjective(
        ["sleep", "0.4"], space, measure="walltime", log_dir=tmp_path / "logs", timeout=30
    )
    budget = 1 / 3600
    settings = SearchSettings("grid", repeats=0, all_parameters=True, core_hours=budget)
    result = run_search(objective, settings)
    assert 1 <= len(result.trials) <= 2
    assert result.stopped.startswith("the core-hour budget"), result.stopped
    assert result.spent is not None and result.spent.cores == 1
    seconds = sum(t.outcome.seconds for t in result.trials)
    assert result.spent.trials == pytest.approx(seconds / 3600)
    assert result.spent.trials <= budget
    assert result.spent.budget == budget


@pytest.mark.parametrize("hours", [0, -1, math.nan, math.inf])
def test_a_budget_that_is_no_positive_number_is_refused(hours: float) -> None:
    with pytest.raises(SearchError, match="--budget-core-hours must be a positive number"):
        SearchSettings(core_hours=hours)


@pytest.mark.parametrize(
    ("options", "message"),
    [
        (["--budget-core-hours", "lots"], "--budget-core-hours must be a positive number"),
        (["--trial-time-limit", "5 min"], "--trial-time-limit must be a positive time"),
        (["--trial-time-limit", "1m", "--timeout", "9"], "the same limit: give one"),
        (["--nprocs", "2"], "are for --launcher slurm"),
    ],
)
def test_bad_budget_and_limit_options_are_refused(
    tmp_path: Path, options: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    args = ["search", "--storage", str(tmp_path / "s.db"), *options, "--", "sleep", "0"]
    assert main(args) != 0
    assert message in capsys.readouterr().err


def test_the_trial_time_limit_stops_a_local_trial(tmp_path: Path) -> None:
    (tmp_path / "space.toml").write_text(SPACE)
    done = subprocess.run(
        [
            IOTUNER, "search", "--space", str(tmp_path / "space.toml"), "--strategy", "grid",
            "--budget", "1", "--repeats", "0", "--all-parameters", "--objective", "walltime",
            "--storage", str(tmp_path / "s.db"), "--no-db", "--trial-time-limit", "0:01",
            "--", "sleep", "30",
        ],
        capture_output=True,
        text=True,
        timeout=60,
        cwd=tmp_path,
    )  # fmt: skip
    assert "did not finish within 1.0 s" in done.stdout + done.stderr
