"""iotuner.models rendering: each report prints its figures on a rich console."""

from pathlib import Path

import pandas as pd
from rich.console import Console

from iotuner.models import (
    analyze,
    kunkel_report,
    render_analyze,
    render_kunkel,
    render_train_report,
    train_command,
)
from iotuner.space import Space

from .conftest import GOOD


def _console() -> Console:
    return Console(record=True, width=240, color_system=None)


def test_train_report(summary: pd.DataFrame, space: Space, tmp_path: Path) -> None:
    report = train_command(summary, space, tmp_path, seeds=2, quick=True, models=["decision_tree"])
    console = _console()
    render_train_report(report, console)
    text = console.export_text()
    assert "70/30 split, 2 seed(s)" in text
    assert "leave-one-group-out over all 3 scales (nprocs)" in text
    assert "random_forest (baseline)" in text and "decision_tree" in text
    assert f"★ {report.chosen}" in text and str(tmp_path) in text
    assert " ± " in text


def test_kunkel(summary: pd.DataFrame, space: Space) -> None:
    console = _console()
    render_kunkel(kunkel_report(summary, space), console)
    text = console.export_text()
    assert "performance model: depth 4" in text and f"choose {GOOD}" in text
    assert "default configuration" in text and "best per workload" in text


def test_analyze(summary: pd.DataFrame, space: Space) -> None:
    console = _console()
    render_analyze(analyze(summary, space), console, limit=3)
    text = console.export_text()
    assert "36 patterns" in text and "consistently good" in text and GOOD.replace(",", ", ") in text
    assert "(default)" in text and "default: rank" in text
