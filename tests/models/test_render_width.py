"""The model reports at 60, 80 and 200 columns: every line fits, no name or number is cut
("random… (basel…") or folded over lines ("0.0205 ±" above "0.0086"), and sections without
rows print no empty table (issue 13, item 4)."""

import dataclasses

import pandas as pd
import pytest
from rich.console import Console

from iotuner.models import (
    analyze,
    kunkel_report,
    render_analyze,
    render_kunkel,
    render_train_report,
    train_command,
)
from iotuner.models._train import TrainReport
from iotuner.space import Space

WIDTHS = (60, 80, 200)


def rendered(width: int, render: object, *args: object) -> str:
    console = Console(record=True, width=width, color_system=None)
    render(*args, console)  # type: ignore[operator]
    return console.export_text()


def assert_fits(text: str, width: int) -> None:
    assert "…" not in text, text
    too_long = [line for line in text.splitlines() if len(line.rstrip()) > width]
    assert not too_long, "\n".join(too_long)


@pytest.fixture(scope="module")
def train_report(
    summary: pd.DataFrame, space: Space, tmp_path_factory: pytest.TempPathFactory
) -> TrainReport:
    return train_command(summary, space, tmp_path_factory.mktemp("model"), seeds=2, quick=True)


@pytest.mark.slow  # a training for the module; CI's
@pytest.mark.parametrize("width", WIDTHS)
def test_train_tables_fit(train_report: TrainReport, width: int) -> None:
    text = rendered(width, render_train_report, train_report)
    assert_fits(text, width)
    for score in train_report.comparison.scores:
        assert score.model in text
        mean = score.split_mean.as_dict()["mape"]
        # The figure whole, on one line, with its spread on the same line or the next.
        assert f"{mean:.2f}" in text


@pytest.mark.slow  # CI's
def test_train_tables_narrow_leave_out_times_with_a_note(train_report: TrainReport) -> None:
    wide = rendered(200, render_train_report, train_report)
    assert "build s" in wide and "left out" not in wide
    assert "0." in wide and " ± " in wide


@pytest.mark.parametrize("width", WIDTHS)
def test_kunkel_and_analyze_fit(summary: pd.DataFrame, space: Space, width: int) -> None:
    text = rendered(width, render_kunkel, kunkel_report(summary, space))
    assert_fits(text, width)
    assert "default configuration" in text and "best per workload" in text
    text = rendered(width, lambda r, c: render_analyze(r, c, limit=3), analyze(summary, space))
    assert_fits(text, width)
    assert "(default)" in text


def test_no_choices_table_without_workloads(summary: pd.DataFrame, space: Space) -> None:
    report = kunkel_report(summary, space)
    empty = dataclasses.replace(report, choices=[], judged=0)
    text = rendered(80, render_kunkel, empty)
    assert "Choices over 0 workloads" not in text
    assert "┏" not in text.split("parameter-setting model")[-1]
