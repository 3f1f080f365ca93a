"""iotuner.models rendering: each report prints its figures on a rich console."""

import dataclasses
from pathlib import Path

import pandas as pd
from rich.console import Console

from iotuner.models import (
    analyze,
    kunkel_report,
    render_analyze,
    render_kunkel,
    render_train_report,
    render_train_summary,
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


def test_train_summary_is_short_and_a_diverged_fit_says_so(
    summary: pd.DataFrame, space: Space, tmp_path: Path
) -> None:
    """Issue 32, item 7: train printed 254 lines, among them an MLP's "MAPE 6.0e22 %". The
    summary is one table and a few lines; a fit whose MAPE is beyond DIVERGED_MAPE (or
    infinite) is "diverged", there and in --verbose's tables, with none of its figures."""
    report = train_command(summary, space, tmp_path, seeds=2, quick=True, models=["decision_tree"])
    score = report.comparison.score("decision_tree")
    wild = dataclasses.replace(score.split_mean, mape=6.0e22, rmspe=1e23, mae=3e20, rmse=1e21)
    scores = [
        dataclasses.replace(s, split_mean=wild) if s.model == "decision_tree" else s
        for s in report.comparison.scores
    ]
    report = dataclasses.replace(
        report, comparison=dataclasses.replace(report.comparison, scores=scores)
    )
    console = Console(record=True, width=80, color_system=None)
    render_train_summary(report, console)
    text = console.export_text()
    assert len(text.splitlines()) <= 40, text
    assert all(len(line) <= 80 for line in text.splitlines())
    assert f"★ {report.chosen}" in text and "iotuner train --verbose" in text
    row = next(line for line in text.splitlines() if "decision_tree" in line)
    assert "diverged" in row and "e+" not in row and "e22" not in text
    verbose = _console()
    render_train_report(report, verbose)
    rows = [line for line in verbose.export_text().splitlines() if "decision_tree" in line]
    assert rows and "diverged" in rows[0] and "e+2" not in verbose.export_text()
