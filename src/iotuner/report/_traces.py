"""The traced-run section: per log, the hints requested against those MPI reported in
effect, the keys it did not honour, and the bandwidth per size group; with a default and
a tuned trace of the same program, the two side by side."""

from typing import Any

from iotuner._units import format_size
from iotuner.formats import size_groups
from iotuner.gains import earned_gain
from iotuner.report import _plots
from iotuner.summary import MIB, summarize
from iotuner.tracelog import TraceLog

__all__ = ["comparison_section", "log_section"]


def _group_range(number: int) -> str:
    group = next((g for g in size_groups() if g.number == number), None)
    if group is None:
        return f"group {number}"
    end = format_size(group.end) if group.end is not None else "more"
    return f"{format_size(group.first)} to {end}"


def bandwidth_by_group(log: TraceLog) -> dict[tuple[str, int], dict[str, float]]:
    """(read or write, size group) -> bytes, seconds, calls and MiB/s over the log's op
    rows of that kind and group (all files)."""
    sums: dict[tuple[str, int], dict[str, float]] = {}
    for op in log.ops:
        key = (str(op["kind"]), int(op["group"]))
        seen = sums.setdefault(key, {"bytes": 0.0, "seconds": 0.0, "calls": 0.0})
        seen["bytes"] += op["bytes"]
        seen["seconds"] += op["duration"]
        seen["calls"] += op["calls"]
    for seen in sums.values():
        seen["bandwidth"] = seen["bytes"] / seen["seconds"] / MIB if seen["seconds"] > 0 else 0.0
    return dict(sorted(sums.items()))


def _group_label(kind: str, group: int) -> str:
    return f"{kind}, group {group} ({_group_range(group)} per rank)"


def log_section(log: TraceLog) -> dict[str, Any]:
    summary = summarize(log)
    groups = bandwidth_by_group(log)
    unhonoured = [
        {"file": f.file, "at": h.at, "key": row.key, "reason": row.unhonoured}
        for f in summary.files
        for h in f.hint_sets
        for row in h.rows
        if row.unhonoured
    ]
    rows: list[dict[str, Any]] = [
        {"label": _group_label(kind, group), **figures} for (kind, group), figures in groups.items()
    ]
    plot = (
        _plots.bars(
            {r["label"]: r["bandwidth"] for r in rows},
            "MiB/s (bytes over the summed call durations, all ranks)",
            f"bandwidth per size group of {log.path.name}",
        )
        if rows
        else None
    )
    return {
        "path": str(log.path),
        "name": log.path.name,
        "job": summary.job,
        "files": [f for f in summary.files if f.hint_sets or f.untuned],
        "unhonoured": unhonoured,
        "requested": sum(
            row.requested is not None for f in summary.files for h in f.hint_sets for row in h.rows
        ),
        "groups": rows,
        "plot": plot,
        "warnings": summary.warnings,
    }


def _total_bandwidth(log: TraceLog) -> float:
    seconds = sum(op["duration"] for op in log.ops)
    return sum(op["bytes"] for op in log.ops) / seconds / MIB if seconds > 0 else 0.0


def _table_hints(log: TraceLog) -> dict[str, str]:
    """The hints the tuning table made the interposer request, with MPI's value in effect."""
    applied: dict[str, str] = {}
    for record in log.hints:
        for key, value in record["table"].items():
            applied[key] = str(record["effective"].get(key, value))
    return applied


def comparison_section(default: TraceLog, tuned: TraceLog) -> dict[str, Any]:
    before, after = bandwidth_by_group(default), bandwidth_by_group(tuned)
    keys = sorted(set(before) | set(after))
    rows: list[dict[str, Any]] = [
        {
            "label": _group_label(kind, group),
            "default": before.get((kind, group), {}).get("bandwidth"),
            "tuned": after.get((kind, group), {}).get("bandwidth"),
        }
        for kind, group in keys
    ]
    plot = (
        _plots.bar_pairs(
            [r["label"] for r in rows],
            {
                "default": [r["default"] or 0.0 for r in rows],
                "tuned": [r["tuned"] or 0.0 for r in rows],
            },
            "MiB/s",
            "bandwidth per size group, default against tuned",
        )
        if rows
        else None
    )
    total_default, total_tuned = _total_bandwidth(default), _total_bandwidth(tuned)
    return {
        "default": str(default.path),
        "tuned": str(tuned.path),
        "default_program": default.job.get("program"),
        "tuned_program": tuned.job.get("program"),
        "tuned_mode": tuned.job.get("mode"),
        "rows": rows,
        "plot": plot,
        "total_default": total_default,
        "total_tuned": total_tuned,
        "ratio": total_tuned / total_default if total_default > 0 else None,
        "gain_text": earned_gain(
            measured=total_tuned / total_default if total_default > 0 else None
        ).figure,
        "applied": _table_hints(tuned),
    }
