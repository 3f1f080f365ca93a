"""Progress bars (issue 13, item 4): at 80 columns the counts and times stay whole (bench
showed "168/… 0:00:… eta 0:00:…"), phases of train and evaluate each get a bar, and in a
log the last state is written once."""

import io
import re

from rich.console import Console

from iotuner._progress import progress_bar, steps_bar

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
