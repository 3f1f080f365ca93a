"""Progress bars (issue 13, item 4): at 80 columns the counts and times stay whole (bench
showed "168/… 0:00:… eta 0:00:…"), phases of train and evaluate each get a bar, and in a
log the last state is written once."""

import io
import re
import time

import pytest
from rich.console import Console

from iotuner._progress import INTERVAL_VARIABLE, log_interval, progress_bar, steps_bar
from iotuner.errors import ConfigError

LABEL = "n2-independent-write-strided-b4096-f0.5-s65536-c16"


def test_counts_and_times_stay_whole_at_80_columns() -> None:
    out = io.StringIO()
    console = Console(file=out, width=80, force_terminal=False)
    with progress_bar(console, transient=False) as bar:
        task = bar.add_task(LABEL, total=8820)
        bar.advance(task, 168)
    text = out.getvalue()
    assert "…" not in text
    assert "168/8820" in text
    assert re.search(r"\d+:\d\d:\d\d eta (\d+:\d\d:\d\d|-:--:--)", text), text
    assert all(len(line) <= 80 for line in text.splitlines())


def test_steps_bar_draws_one_bar_per_phase() -> None:
    out = io.StringIO()
    console = Console(file=out, width=80, force_terminal=False)
    with steps_bar(console, "train") as steps:
        assert steps is not None
        for done in range(4):
            steps(f"mlp, split {done + 1}/4", done, 4)
        for done in range(2):
            steps(f"mlp, workload {done + 1}/2", done, 2)
    lines = [line for line in out.getvalue().splitlines() if line.strip()]
    assert len(lines) == 2, lines
    assert "train: mlp, split 4/4" in lines[0] and "4/4" in lines[0]
    assert "train: mlp, workload 2/2" in lines[1] and "2/2" in lines[1]
    with steps_bar(None, "train") as none:
        assert none is None


def test_where_no_bar_is_drawn_the_state_is_a_line_at_each_interval(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Issue 32, item 7: rich draws nothing live in a file or a pipe, so the demo and
    bench said nothing for minutes there; now the state is a line every interval
    (IOTUNER_PROGRESS_SECONDS; a minute unless set), and on a terminal the bar alone."""
    monkeypatch.setenv(INTERVAL_VARIABLE, "0.1")
    out = io.StringIO()
    with progress_bar(Console(file=out, width=80, force_terminal=False), transient=False) as bar:
        task = bar.add_task("bench", total=10)
        for _ in range(3):
            time.sleep(0.25)
            bar.advance(task)
    lines = [line for line in out.getvalue().splitlines() if line.startswith("bench")]
    assert len(lines) >= 3, lines  # at least two while it ran, and the last state
    assert re.search(r"\b[0-3]/10\b", lines[0]), lines

    terminal = io.StringIO()
    with progress_bar(Console(file=terminal, width=80, force_terminal=True)) as bar:
        bar.add_task("bench", total=10)
        assert bar._writer is None  # the live bar says it; no line is added
        time.sleep(0.25)
    assert log_interval() == 0.1


def test_the_interval_is_a_number_of_seconds(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(INTERVAL_VARIABLE, raising=False)
    assert log_interval() == 60
    for bad in ("soon", "0", "-1", "nan", "inf"):
        monkeypatch.setenv(INTERVAL_VARIABLE, bad)
        with pytest.raises(ConfigError, match=f"{INTERVAL_VARIABLE} must be a number of seconds"):
            log_interval()
