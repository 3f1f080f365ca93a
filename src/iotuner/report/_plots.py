"""The report's figures: matplotlib figures drawn without pyplot and embedded as PNG data
URIs, so the page needs no network and no second file at viewing time.

RATIONALE: matplotlib.figure.Figure with its Agg canvas, not pyplot: pyplot keeps global
state (the current figure, a GUI backend chosen from the environment), which a library
called from a CLI, a test or the demo should not touch.
"""

import base64
import io
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from matplotlib.axes import Axes
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure
from matplotlib.ticker import FuncFormatter, LogLocator, MaxNLocator, NullFormatter

__all__ = [
    "Plot",
    "bar_pairs",
    "bars",
    "convergence",
    "five_numbers",
    "gain_intervals",
    "log_bars",
    "log_bars_figure",
    "predicted_vs_measured",
    "spread_boxes",
]

WIDTH = 9.0
"""Inches; at DPI this fills a page column of about 900 px."""
DPI = 100
PALETTE = ("#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd", "#8c564b", "#e377c2")


@dataclass(frozen=True)
class Plot:
    """One embedded figure: its data URI and the text a reader without images gets."""

    uri: str
    alt: str


def _embed(figure: Figure, alt: str) -> Plot:
    FigureCanvasAgg(figure)
    buffer = io.BytesIO()
    figure.savefig(buffer, format="png", dpi=DPI, bbox_inches="tight")
    encoded = base64.b64encode(buffer.getvalue()).decode("ascii")
    return Plot(f"data:image/png;base64,{encoded}", alt)


def _height(rows: int, per_row: float = 0.28, least: float = 2.5) -> float:
    return max(least, 1.0 + per_row * rows)


def spread_boxes(spreads: Mapping[str, Sequence[float]], noise: float) -> Plot:
    """One horizontal box per configuration of its rows' relative quartile spreads, with
    the knowledge base's noise (their median over all rows) as a line."""
    labels = list(spreads)
    figure = Figure(figsize=(WIDTH, _height(len(labels))))
    axes = figure.add_subplot()
    axes.boxplot([list(spreads[k]) for k in labels], orientation="horizontal", tick_labels=labels)
    axes.axvline(noise, color=PALETTE[3], linestyle="--", label=f"noise (median) {noise:.0%}")
    axes.set_xlabel("relative spread of the repeats: (upper - lower quartile) / median")
    axes.legend(loc="lower right")
    axes.tick_params(axis="y", labelsize=7)
    return _embed(figure, f"repeat spread per configuration; the noise is {noise:.0%}")


def bars(values: Mapping[str, float], xlabel: str, alt: str) -> Plot:
    """Horizontal bars, largest at the top."""
    labels = list(values)[::-1]
    figure = Figure(figsize=(WIDTH, _height(len(labels), least=2.0)))
    axes = figure.add_subplot()
    axes.barh(labels, [values[k] for k in labels], color=PALETTE[0])
    axes.set_xlabel(xlabel)
    axes.tick_params(axis="y", labelsize=8)
    return _embed(figure, alt)


def log_bars(values: Mapping[str, float], xlabel: str, alt: str) -> Plot:
    """Horizontal bars on a log axis, largest at the top, each labelled with its value
    (log_bars_figure)."""
    return _embed(log_bars_figure(values, xlabel), alt)


def log_bars_figure(values: Mapping[str, float], xlabel: str) -> Figure:
    """The figure of log_bars. RATIONALE: values that span decades (an archive's
    core-hours) leave all but the largest bar invisible on a linear axis; on a log axis
    from a decade below the smallest value every positive one is a bar. A zero or negative
    value has no place on it: its label says 0."""
    labels = list(values)[::-1]
    figure = Figure(figsize=(WIDTH, _height(len(labels), least=2.0)))
    axes = figure.add_subplot()
    shown = [values[k] if values[k] > 0 else math.nan for k in labels]
    positive = [v for v in shown if v > 0]
    low = min(positive, default=1.0) / 10
    high = max(positive, default=1.0) * 10
    axes.set_xscale("log")
    # Bars start at the axis' left end: a log axis has no zero to start from.
    axes.barh(labels, [v - low if v > 0 else 0.0 for v in shown], left=low, color=PALETTE[0])
    axes.set_xlim(low, high)
    for y, value in enumerate(shown):
        text = f"{values[labels[y]]:.3g}" if value > 0 else "0"
        axes.text(value if value > 0 else low, y, f" {text}", va="center", fontsize=7)
    axes.set_xlabel(xlabel)
    axes.tick_params(axis="y", labelsize=8)
    axes.xaxis.set_minor_formatter(NullFormatter())
    return figure


def five_numbers(
    rows: Sequence[tuple[str, float, float, float, float, float, int]], alt: str
) -> Plot:
    """SCTuner's five-number summaries (label, min, q1, median, q3, max, cluster) drawn as
    boxes from the five numbers themselves, coloured by cluster."""
    stats = [
        {"label": label, "whislo": lo, "q1": q1, "med": med, "q3": q3, "whishi": hi}
        for label, lo, q1, med, q3, hi, _ in rows
    ][::-1]
    clusters = [cluster for *_, cluster in rows][::-1]
    figure = Figure(figsize=(WIDTH, _height(len(rows))))
    axes = figure.add_subplot()
    boxes = axes.bxp(stats, orientation="horizontal", showfliers=False, patch_artist=True)
    for box, cluster in zip(boxes["boxes"], clusters, strict=True):
        box.set_facecolor(PALETTE[(cluster - 1) % len(PALETTE)])
        box.set_alpha(0.6)
    axes.set_xlabel("bandwidth / the best of its workload (1 = the best)")
    axes.set_xlim(0, 1.05)
    axes.tick_params(axis="y", labelsize=7)
    handles = sorted(set(clusters))
    for cluster in handles:
        axes.plot([], [], "s", color=PALETTE[(cluster - 1) % len(PALETTE)], label=f"{cluster}")
    axes.legend(title="cluster", loc="lower left", fontsize=7)
    return _embed(figure, alt)


def predicted_vs_measured(
    families: Mapping[str, tuple[Sequence[float], Sequence[float]]], alt: str
) -> Plot:
    """One log-log scatter per workload family of (measured, predicted), with y = x."""
    count = max(1, len(families))
    columns = min(3, count)
    rows = math.ceil(count / columns)
    figure = Figure(figsize=(WIDTH, 3.0 * rows + 0.5))
    values = [v for measured, predicted in families.values() for v in (*measured, *predicted)]
    low = min(values) / 1.5 if values else 1.0
    high = max(values) * 1.5 if values else 10.0
    for index, (family, (measured, predicted)) in enumerate(families.items()):
        axes = figure.add_subplot(rows, columns, index + 1)
        axes.scatter(measured, predicted, s=10, alpha=0.6, color=PALETTE[index % len(PALETTE)])
        axes.plot([low, high], [low, high], color="grey", linewidth=0.8)
        axes.set_xscale("log")
        axes.set_yscale("log")
        axes.set_xlim(low, high)
        axes.set_ylim(low, high)
        axes.set_title(family, fontsize=9)
        axes.set_xlabel("measured MiB/s", fontsize=8)
        axes.set_ylabel("predicted MiB/s", fontsize=8)
        axes.tick_params(labelsize=7)
        # Unlabelled minor ticks: labelling every one of a log axis costs most of the drawing.
        axes.xaxis.set_minor_formatter(NullFormatter())
        axes.yaxis.set_minor_formatter(NullFormatter())
    figure.subplots_adjust(hspace=0.45, wspace=0.35)
    return _embed(figure, alt)


def gain_intervals(rows: Sequence[tuple[str, float, float, float, bool]], alt: str) -> Plot:
    """Per case (label, gain, low, high, kept the default): the predicted gain over the
    default with its interval; kept defaults in grey."""
    rows = list(rows)[::-1]
    figure = Figure(figsize=(WIDTH, _height(len(rows))))
    axes = figure.add_subplot()
    for y, (_, gain, low, high, kept) in enumerate(rows):
        color = "grey" if kept else PALETTE[2]
        axes.plot([low, high], [y, y], color=color, linewidth=2, alpha=0.6)
        axes.plot([gain], [y], "o", color=color)
    axes.axvline(1.0, color="black", linewidth=0.8)
    axes.set_yticks(range(len(rows)), [label for label, *_ in rows], fontsize=7)
    values = [v for _, gain, low, high, _ in rows for v in (gain, low, high, 1.0) if v > 0]
    ratio_axis(axes, min(values), max(values))
    axes.set_xlabel("gain over the default (interval: measured or calibrated)")
    axes.plot([], [], "o", color=PALETTE[2], label="changed")
    axes.plot([], [], "o", color="grey", label="kept the default")
    axes.legend(loc="lower right", fontsize=7)
    return _embed(figure, alt)


TIMES = "\u00d7"
"""The multiplication sign that labels ratios."""
MIN_TICKS = 4
"""Labelled ticks a ratio axis shows at least (ratio_axis)."""


def ratio_axis(axes: Axes, low: float, high: float) -> None:
    """The x axis of `axes` as a log-scaled axis of ratios (gains) from `low` to `high`
    with several labelled ticks (x0.8, x1, x1.5 ... with the multiplication sign).
    RATIONALE: matplotlib's default log locator labels decades only, so gains between x0.7
    and x3 got a single tick; within a decade the ticks are round values (MaxNLocator),
    beyond it 1-2-5 steps of each decade."""
    low, high = low / 1.15, high * 1.15  # room for the markers at the ends
    axes.set_xscale("log")
    axes.set_xlim(low, high)
    if high / low < 10:
        axes.xaxis.set_major_locator(MaxNLocator(nbins=MIN_TICKS + 3, steps=[1, 2, 2.5, 5, 10]))
    else:
        axes.xaxis.set_major_locator(LogLocator(base=10, subs=(1.0, 2.0, 5.0)))
    axes.xaxis.set_major_formatter(FuncFormatter(lambda value, _: f"{TIMES}{value:g}"))
    axes.xaxis.set_minor_formatter(NullFormatter())


def convergence(series: Mapping[str, Sequence[float]], ylabel: str, alt: str) -> Plot:
    """Best value so far after each trial, one step line per strategy (study)."""
    figure = Figure(figsize=(WIDTH, 4.0))
    axes = figure.add_subplot()
    for index, (label, values) in enumerate(series.items()):
        axes.step(
            range(1, len(values) + 1),
            values,
            where="post",
            label=label,
            color=PALETTE[index % len(PALETTE)],
            marker="." if len(values) < 60 else None,
        )
    axes.set_xlabel("trial")
    axes.set_ylabel(ylabel)
    axes.legend(fontsize=8)
    axes.grid(alpha=0.3)
    return _embed(figure, alt)


def bar_pairs(
    labels: Sequence[str], series: Mapping[str, Sequence[float]], xlabel: str, alt: str
) -> Plot:
    """Grouped horizontal bars: one bar per series (e.g. default, tuned) for each label."""
    count = max(1, len(series))
    height = 0.8 / count
    figure = Figure(figsize=(WIDTH, _height(len(labels) * count, per_row=0.22, least=2.0)))
    axes = figure.add_subplot()
    positions = range(len(labels))
    for index, (name, values) in enumerate(series.items()):
        axes.barh(
            [p + index * height for p in positions],
            values,
            height=height,
            label=name,
            color=PALETTE[index % len(PALETTE)],
        )
    axes.set_yticks([p + height * (count - 1) / 2 for p in positions], list(labels), fontsize=8)
    axes.invert_yaxis()
    axes.set_xlabel(xlabel)
    if count > 1:
        axes.legend(fontsize=8)
    return _embed(figure, alt)
