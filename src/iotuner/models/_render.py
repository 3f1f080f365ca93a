"""Rendering of the model reports on a terminal with rich; the reports themselves are plain
records (iotuner.models), so a test or an HTML report can use the figures directly."""

import math
from collections.abc import Sequence

from rich.console import Console
from rich.markup import escape
from rich.table import Table
from rich.text import Text

from iotuner._printable import markup_safe
from iotuner._tables import breakable, print_table, whole
from iotuner.models._analyze import AnalyzeReport, ConfigSummary
from iotuner.models._compare import Comparison
from iotuner.models._kunkel import KunkelReport, TreeRules
from iotuner.models._metrics import Metrics
from iotuner.models._train import TrainReport

__all__ = [
    "DIVERGED_MAPE",
    "diverged",
    "render_analyze",
    "render_comparison",
    "render_kunkel",
    "render_train_report",
    "render_train_summary",
]

DIVERGED_MAPE = 1e5
"""A mean absolute percentage error (%) above this, or an infinite one, is a fit that
diverged: predictions a thousand times the measured bandwidth on average are no figure
of how good the model is (an MLP's reached 6e22 %), and are shown as "diverged"."""


def diverged(metrics: Metrics) -> bool:
    """Whether the fit the metrics describe diverged (DIVERGED_MAPE)."""
    return math.isinf(metrics.mape) or metrics.mape > DIVERGED_MAPE


def render_comparison(comparison: Comparison, console: Console, chosen: str | None = None) -> None:
    """One table per scheme: each model's metrics as mean ± std (a fit that diverged says
    so instead); the chosen one starred."""
    _target_line(comparison, console)
    schemes = [("split", f"70/30 split, {comparison.seeds} seed(s)")]
    if comparison.group_by is not None:
        schemes.append(("group", comparison.group_note))
    else:
        console.print(f"[yellow]{escape(comparison.group_note)}[/]")
    for scheme, title in schemes:
        rows = []
        for score in comparison.scores:
            mean = score.split_mean if scheme == "split" else score.group_mean
            std = score.split_std if scheme == "split" else score.group_std
            if mean is None or std is None:
                continue
            rows.append((_model_name(score.model, score.baseline, chosen), _figures(mean, std)))
        # Widest first: one line per figure; the spread under the mean; without the
        # times, which say nothing of how good a model is (--json keeps them).
        layouts = []
        for stacked, timed in ((False, True), (True, True), (True, False)):
            headers = _HEADERS if timed else _HEADERS[:-2]
            table = Table("model", *headers, title=escape(title), title_justify="left")
            for name, figures in rows:
                shown = figures if timed else figures[:-2]
                table.add_row(name, *(_pm(m, s, stacked) for m, s in shown))
            note = (
                None if timed else "build and test seconds left out at this width (--json has them)"
            )
            layouts.append((table, note))
        print_table(console, layouts)


def render_train_summary(report: TrainReport, console: Console) -> None:
    """What `train` says unless --verbose, in a few dozen lines: each model's zero-trial
    pick on the held-out workloads and its MAPE under each scheme (or that its fit
    diverged) in one table, the choice and why, the calibration and where the model went."""
    comparison, selection = report.comparison, report.selection
    _target_line(comparison, console)
    if comparison.group_by is None:
        console.print(f"[yellow]{escape(comparison.group_note)}[/]")
    group = comparison.group_by is not None
    table = Table(
        "model",
        "pick\nmean",
        "pick\nworst",
        "MAPE %\n70/30",
        *((f"MAPE %\nby {comparison.group_by}",) if group else ()),
        title=(
            f"pick: zero-trial, on {selection.workloads} held-out workloads (1 = their best); "
            f"MAPE: {comparison.seeds} 70/30 split(s)"
            + (f", each {comparison.group_by} held out" if group else "")
        ),
        title_justify="left",
    )
    for score in comparison.scores:
        pick = selection.picks.get(score.model)
        schemes = [score.split_mean, *((score.group_mean,) if group else ())]
        table.add_row(
            _model_name(score.model, score.baseline, report.chosen),
            whole("-" if pick is None else f"{pick.mean:.3f}"),
            whole("-" if pick is None else f"{pick.worst:.3f}"),
            *(whole(_mape(metrics)) for metrics in schemes),
        )
    print_table(console, [(table, None)])
    _choice_lines(report, console, why=False)
    console.print(
        "[dim]iotuner train --verbose: why by the rule, every figure, Kunkel et al.'s rules[/]"
    )


def _target_line(comparison: Comparison, console: Console) -> None:
    console.print(
        f"[bold]target[/] {comparison.target} (modelled as log), {comparison.rows} rows"
        + (f", {comparison.dropped} dropped (no positive bandwidth)" if comparison.dropped else "")
        + (", quick zoo" if comparison.quick else "")
    )


def _model_name(model: str, baseline: bool, chosen: str | None) -> str:
    name = markup_safe(model) + (" [dim](baseline)[/]" if baseline else "")
    return f"[bold green]★ {name}[/]" if model == chosen else name


def _mape(metrics: Metrics | None) -> str:
    if metrics is None or math.isnan(metrics.mape):
        return "-"
    return "diverged" if diverged(metrics) else f"{metrics.mape:.1f}"


def render_train_report(report: TrainReport, console: Console) -> None:
    """The comparison tables, the choice and its reason, what the choice compared (the
    baselines' mean pick beside the chosen model's), and where the model was saved."""
    render_comparison(report.comparison, console, chosen=report.chosen)
    _choice_lines(report, console, why=True)


def _choice_lines(report: TrainReport, console: Console, why: bool) -> None:
    """The choice and (with `why`) the rule's reason, what it compared, the calibration
    and where the model was saved."""
    selection = report.selection
    if why:
        console.print(f"[bold]chosen[/] {escape(report.reason)}")
    console.print(f"[bold]compared[/] {escape(selection.compared_text())}")
    if selection.candidates_lost:
        console.print(
            f"[yellow]⚠ no candidate picked as well as the baselines: {escape(selection.chosen)}"
            " (a baseline) is shipped[/]"
        )
    calibration = report.metadata.get("calibration")
    if isinstance(calibration, dict):
        coverage = calibration.get("coverage") or {}
        figures = (
            f"; 10-90 % interval held {coverage['rows']:.0%} of held-out rows and "
            f"{coverage['gains']:.0%} of held-out gains (worst workload "
            f"{coverage['worst_workload']:.0%})"
            if coverage.get("rows") is not None and coverage.get("gains") is not None
            else ""
        )
        console.print(
            f"[bold]calibrated[/] on {calibration['workloads']} held-out workloads{figures}"
        )
    console.print(f"[bold]saved[/] {escape(str(report.path))}")


def render_kunkel(report: KunkelReport, console: Console) -> None:
    """The PM and PSM rules, their accuracy, and the table of choices."""
    console.print(
        f"[bold]{report.workloads} workloads[/], {report.configurations} configurations, "
        f"{report.rows} rows; bandwidth statistic {report.stat}"
    )
    _rules(report.pm, f"5-fold cross-validated MAPE {report.pm_cv_mape:.1f} %", console)
    _rules(
        report.psm,
        f"{report.folds}-fold: the learned choice is a best one for "
        f"{_percent(report.psm_cv_best_fraction)} of the workloads",
        console,
    )
    table = Table(
        "choice",
        "arith. mean MiB/s",
        "of best",
        "harm. mean MiB/s",
        "of best",
        "mean fraction of best",
        "best in",
        title=f"Choices over {report.judged} workloads",
        title_justify="left",
    )
    for c in report.choices:
        table.add_row(
            markup_safe(breakable(c.choice)),
            whole(f"{c.arithmetic:.1f}"),
            whole(_percent(c.arithmetic_of_best)),
            whole(f"{c.harmonic:.1f}"),
            whole(_percent(c.harmonic_of_best)),
            whole(_percent(c.fraction_of_best)),
            whole(str(c.best_count)),
        )
    print_table(console, [(table, None)])
    for note in report.notes:
        console.print(f"[yellow]⚠ {escape(note)}[/]")


def render_analyze(report: AnalyzeReport, console: Console, limit: int = 20) -> None:
    """Clusters, the configurations by rank (the first `limit`), good, bad and default."""
    console.print(
        f"[bold]{report.patterns} patterns[/], {len(report.configs)} configurations, "
        f"{report.rows} rows; {report.stat} normalised to the best of each pattern"
    )
    if report.dropped:
        console.print(f"{report.dropped} rows without a positive {report.stat} were left out")
    if report.lone:
        console.print(
            f"{report.lone} patterns left out: a single configuration was measured in each "
            "(nothing to compare it with)"
        )
    if report.filled:
        console.print(f"{report.filled} missing cells filled with the configuration's mean")
    console.print(f"clusters (Ward, Euclidean): {escape(report.cluster_rule)}")
    clusters = Table("cluster", "configurations", "mean", "min", "median", "max")
    for c in report.clusters:
        clusters.add_row(
            str(c.cluster),
            str(len(c.configs)),
            f"{c.mean:.2f}",
            f"{c.minimum:.2f}",
            f"{c.median:.2f}",
            f"{c.maximum:.2f}",
        )
    print_table(console, [(clusters, None)])
    shown = report.configs[:limit]
    if report.default is not None and report.default not in shown:
        shown = [*shown, report.default]
    print_table(console, _config_layouts(shown))
    _print_verdict(report, console)


def _config_layouts(shown: Sequence[ConfigSummary]) -> list[tuple[Table, str | None]]:
    """The table of configurations by rank in two widths, for print_table to fit."""
    # Widest first; then the median and mean alone, the five numbers' centre.
    layouts = []
    for full in (True, False):
        figures = ("min", "q1", "median", "q3", "max", "mean") if full else ("median", "mean")
        table = Table(
            "rank",
            "configuration",
            "cluster",
            *(("patterns",) if full else ()),
            *figures,
            title="Normalised bandwidth per configuration (1 = best of its pattern)",
            title_justify="left",
        )
        for s in shown:
            name = markup_safe(breakable(s.config)) + (
                " [bold](default)[/]" if s.is_default else ""
            )
            values = {
                "min": s.minimum,
                "q1": s.q1,
                "median": s.median,
                "q3": s.q3,
                "max": s.maximum,
                "mean": s.mean,
            }
            table.add_row(
                str(s.rank),
                name,
                str(s.cluster),
                *((str(s.patterns),) if full else ()),
                *(f"{values[f]:.2f}" for f in figures),
            )
        note = None if full else "patterns, min, q1, q3 and max left out at this width"
        layouts.append((table, note))
    return layouts


def _print_verdict(report: AnalyzeReport, console: Console) -> None:
    """The consistently good and bad configurations (or why none is named) and the
    default's standing."""
    if report.withheld:
        console.print(
            f"[yellow]⚠ nothing is called consistently good or bad: {escape(report.withheld)}[/]"
        )
    else:
        good = markup_safe("; ".join(map(breakable, report.good)))
        console.print(f"[bold green]consistently good[/]: {good}")
    if report.bad:
        console.print(
            f"[bold red]consistently bad[/]: {markup_safe('; '.join(map(breakable, report.bad)))}"
        )
    if report.default is not None:
        d = report.default
        console.print(
            f"[bold]default[/]: rank {d.rank} of {len(report.configs)}, cluster {d.cluster}, "
            f"median {d.median:.2f} of the best"
        )
    else:
        console.print("[yellow]⚠ the default configuration was not measured[/]")


def _rules(rules: TreeRules, accuracy: str, console: Console) -> None:
    console.print()
    console.rule(
        f"[bold]{markup_safe(rules.model)}[/]: depth {rules.depth}, {rules.leaves} leaves",
        align="left",
    )
    console.print(escape(rules.text), highlight=False)
    console.print(f"[dim]{escape(accuracy)}[/]")


_HEADERS = ("R", "MAPE %", "RMSPE %", "MAE MiB/s", "RMSE MiB/s", "build s", "test s")


def _figures(mean: Metrics, std: Metrics) -> list[tuple[str, str]]:
    """Each metric's mean and standard deviation as texts, in the order of _HEADERS; a fit
    that diverged is "diverged" under MAPE, and no figure elsewhere."""
    if diverged(mean):
        return [("-", "-"), ("diverged", ""), *[("-", "-")] * (len(_HEADERS) - 2)]
    m, s = mean.as_dict(), std.as_dict()
    formats = {
        "r": ".3f",
        "mape": ".2f",
        "rmspe": ".2f",
        "mae": ".4g",
        "rmse": ".4g",
        "build_seconds": ".3f",
        "test_seconds": ".4f",
    }
    return [
        ("-", "-") if math.isnan(m[k]) else (f"{m[k]:{f}}", f"{s[k]:{f}}")
        for k, f in formats.items()
    ]


def _pm(mean: str, std: str, stacked: bool) -> Text:
    if mean == "-" or not std:
        return whole(mean)
    return whole(f"{mean}\n± {std}" if stacked else f"{mean} ± {std}")


def _percent(value: float) -> str:
    return "-" if math.isnan(value) else f"{value * 100:.1f} %"
