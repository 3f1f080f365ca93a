"""A search's result as text on a rich console, or as one JSON-ready record (`search
--json`); the data is SearchResult's."""

import dataclasses
import math
from typing import Any

from rich.console import Console
from rich.table import Table
from rich.text import Text

from iotuner._printable import markup_safe, printable
from iotuner._tables import breakable, print_table, whole
from iotuner.gains import EarnedGain, earned_gain, outside
from iotuner.search._result import OfflineSummary, SearchResult, Spent
from iotuner.space import Configuration, config_key

__all__ = ["print_result", "result_record"]

RECORD_FORMAT = "iotuner-search-result"
"""The `format` key of result_record (with `version` 1): what `search --json` prints."""


def _num(value: float | None) -> str:
    return "-" if value is None else f"{value:.4g}"


def print_result(result: SearchResult, console: Console, *, show: int = 5) -> None:
    """Print what the search did, its best trials (with what the objective adds about each),
    why trials failed (with the end of a failed run's output), the noise step and the
    winner."""
    _print_setting(result, console)
    _print_counts(result, console, show)
    _print_best_trials(result, console, show)
    _print_failures(result, console)
    if result.offline is not None:
        _print_offline(result.offline, len(result.trials), console)
    if result.remeasured:
        _print_remeasured(result, console)
    _print_winner(result, console)


def _print_setting(result: SearchResult, console: Console) -> None:
    """The study, its storage, strategy, space and objective; the parameters fixed at their
    defaults; how trials run (the interposer's mode)."""
    kept = result.storage or "memory (not kept: --storage keeps it)"
    # Names are data (_printable): the study's is the program's or the table's.
    console.print(
        markup_safe(
            f"study {result.study} in {kept}: {result.strategy} over {result.space.name} "
            f"({result.space.size} configurations), {result.direction} {result.objective}"
        )
    )
    if result.relevance_note:
        console.print(result.relevance_note)
    for name, why in result.fixed.items():
        default = result.space.parameter(name).default
        console.print(f"fixed {name}={default} (its default): {why}")
    if result.trial_mode is not None:
        traced = (
            "traced: the objective reads the trace"
            if "trace" in result.trial_mode
            else ("not traced: the objective does not need it")
        )
        console.print(
            f"trials run with the interposer in mode {result.trial_mode} ({traced}), the "
            "hints in one open entry"
        )


def _print_counts(result: SearchResult, console: Console, show: int) -> None:
    """The trials measured against the budget, why the search stopped, the candidates
    skipped (the first `show`), replaced and recovered proposals, the core-hours spent and
    the notes."""
    failed = sum(1 for t in result.trials if t.failed)
    new = sum(1 for t in result.trials if t.new)
    console.print(
        f"{len(result.trials)} trials measured ({new} in this run, {failed} failed) of a "
        f"budget of {result.budget} runs; {result.duplicates} proposals answered from the "
        f"cache and {len(result.skipped)} candidates skipped by the model, neither run nor "
        f"counted; stopped: {result.stopped}"
    )
    for skipped in result.skipped[:show]:
        console.print(f"skipped {config_key(skipped.config)}: {skipped.reason}")
    if len(result.skipped) > show:
        console.print(f"... and {len(result.skipped) - show} more skipped")
    if result.replaced:
        console.print(
            f"{result.replaced} proposals named configurations the objective does not measure "
            "(not in the table): no trials; the nearest one it measures, not tried yet, was "
            "measured instead"
        )
    if result.recovered:
        console.print(f"{result.recovered} trial(s) interrupted earlier were marked and skipped")
    if result.spent is not None:
        console.print(_spent_line(result.spent))
    for note in result.notes:
        console.print(f"note: {markup_safe(note)}")


def _print_best_trials(result: SearchResult, console: Console, show: int) -> None:
    """The table of the `show` best trials with a value, best first."""
    sign = 1.0 if result.direction == "maximize" else -1.0
    ranked = sorted(
        (t for t in result.trials if t.value is not None), key=lambda t: -sign * (t.value or 0.0)
    )
    if ranked:
        table = Table(title=f"best {min(show, len(ranked))} trials")
        table.add_column("trial", justify="right")
        table.add_column("value", justify="right")
        table.add_column("configuration")
        for t in ranked[:show]:
            label = breakable(config_key(t.config)) + (f" {t.note}" if t.note else "")
            table.add_row(str(t.number), whole(_num(t.value)), markup_safe(label))
        print_table(console, [(table, None)])


def _print_failures(result: SearchResult, console: Console) -> None:
    """Why trials failed (the first three reasons, sorted), each with the end of the output
    of its first failed trial."""
    failures: dict[str, str] = {}  # each reason, with the output of its first trial
    for t in result.trials:
        if t.failed:
            reason = t.outcome.reason or ""
            failures[reason] = failures.get(reason) or t.outcome.stdout_tail
    for reason in sorted(failures)[:3]:
        console.print(f"failed trials: {markup_safe(reason)}")
        if failures[reason]:
            # The program's own output: its colours and titles are not ours to pass on.
            shown = "".join(f"\n  | {printable(line)}" for line in failures[reason].splitlines())
            console.print(Text(f"  its output ended with:{shown}"))


def _print_offline(o: OfflineSummary, trials: int, console: Console) -> None:
    """An offline search's table (its rows, configurations and best) and whether the target
    share of its best was reached in its `trials`."""
    console.print(
        f"table: {o.rows} rows, {o.configurations} configurations ({o.repeated} measured "
        f"more than once, summarised by their median); best {_num(o.table_best)} "
        f"({config_key(o.table_best_config)})"
    )
    reached = (
        f"reached after {o.trials_to_target} trials"
        if o.trials_to_target is not None
        else f"not reached in {trials} trials"
    )
    answered = (
        f"{o.nearest_answers} of {trials} trials answered by the nearest measured configuration"
        if o.nearest_answers
        else "every trial a configuration the table measured"
    )
    console.print(
        f"{o.target_fraction:.0%} of the table's best ({_num(o.target)}): {reached}; {answered}"
    )


def _print_remeasured(result: SearchResult, console: Console) -> None:
    """The table of the verdict's re-measures, the default's among them."""
    table = Table(title="re-measured for the verdict (interleaved with the default)")
    columns = ("configuration", "search", "median", "min", "max", "spread", "n", "failed")
    for column in columns:
        table.add_column(column, justify="left" if column == "configuration" else "right")
    for r in result.remeasured:
        label = breakable(config_key(r.config)) + (" (default)" if r.is_default else "")
        table.add_row(
            markup_safe(label),
            *map(
                whole,
                (
                    _num(r.search_value),
                    _num(r.median),
                    _num(min(r.values) if r.values else None),
                    _num(max(r.values) if r.values else None),
                    "-" if r.spread is None else f"{r.spread:.0%}",
                    str(len(r.values)),
                    str(len(r.failures)),
                ),
            ),
        )
    print_table(console, [(table, None)])


def _print_winner(result: SearchResult, console: Console) -> None:
    """The winner (with its hints and application parameters unless offline), why it won,
    and the gain lines."""
    if result.winner is not None and result.offline is not None:
        console.print(f"winner: {markup_safe(config_key(result.winner))}")
    elif result.winner is not None:
        hints = result.space.hints(result.winner)
        line = f"winner: {config_key(result.winner)} -> hints {hints or '{} (none)'}"
        app = result.space.app_values(result.winner)
        if app:
            shown = ", ".join(f"{name}={value}" for name, value in app.items())
            line += f"; application parameters {shown} (the command or environment sets them)"
        console.print(markup_safe(line))
    console.print(markup_safe(result.winner_reason))
    for line in gain_lines(result):
        console.print(markup_safe(line))


def measured_gain(result: SearchResult, config: Configuration) -> float | None:
    """The measured gain of `config` over the default on the search's workload: the
    verdict's re-measured medians when both were re-measured, else their trials' values;
    None when either was not measured (a gain over the default is then not known here)."""

    def value(wanted: Configuration) -> float | None:
        key = config_key(wanted)
        for r in result.remeasured:
            if config_key(r.config) == key and r.median:
                return r.median
        return next(
            (t.value for t in result.trials if config_key(t.config) == key and t.value), None
        )

    best, default = value(config), value(result.space.default())
    if best is None or default is None:
        return None
    return best / default if result.direction == "maximize" else default / best


def gain_lines(result: SearchResult) -> list[str]:
    """The best's gain over the default, as measured (iotuner.gains), and a flag when the
    model's zero-trial pick measured outside the gain interval it was promised."""
    lines = []
    best = (
        result.winner
        if result.winner is not None
        else (result.best.config if result.best else None)
    )
    if best is not None and config_key(best) != config_key(result.space.default()):
        gain = earned_gain(measured=measured_gain(result, best))
        lines.append(f"gain of {config_key(best)} over the default: {gain.words}")
    pick = result.recommendation
    if pick is not None:
        promised = pick.earned().interval
        flag = outside(measured_gain(result, pick.config), promised)
        if flag is not None:
            lines.append(
                f"the model's zero-trial pick {config_key(pick.config)} missed its calibrated "
                f"gain: {flag}"
            )
    return lines


def _spent_line(spent: Spent) -> str:
    """'spent 0.012 core-hours (...)': the runs' cores x wall time, against the budget."""
    budget = f" of a budget of {spent.budget:g}" if spent.budget is not None else ""
    return (
        f"spent {spent.total:.3g} core-hours{budget} ({spent.cores} cores per run: trials "
        f"{spent.trials:.3g}, re-measures {spent.remeasures:.3g})"
    )


def _finite(value: float | None) -> float | None:
    """A value JSON can hold (RFC 8259 has no NaN or Infinity): None for those."""
    return value if value is not None and math.isfinite(value) else None


def _plain(value: Any) -> Any:
    """A dataclass, path or container of them as JSON-ready values (for fields the record
    does not spell out, e.g. the workload)."""
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {f.name: _plain(getattr(value, f.name)) for f in dataclasses.fields(value)}
    if isinstance(value, dict):
        return {str(k): _plain(v) for k, v in value.items()}
    if isinstance(value, list | tuple | set | frozenset):
        return [_plain(v) for v in value]
    if isinstance(value, float):
        return _finite(value)
    if value is None or isinstance(value, str | int | bool):
        return value
    return str(value)


SPELLED_OUT = {
    "study", "storage", "strategy", "objective", "direction", "space", "command",
    "budget", "trials", "proposals", "duplicates", "vetoed", "replaced", "recovered",
    "stopped",
    "notes", "remeasured", "verdict", "winner", "winner_reason", "offline", "program",
    "nprocs", "workload", "fixed", "searched_size", "relevance_note", "probe_logs",
    "skipped", "trial_mode", "spent",
}  # fmt: skip
"""The fields of SearchResult result_record writes its own way (or leaves out); any other
field is written as plain values under its name."""


def result_record(result: SearchResult) -> dict[str, Any]:
    """What the search found and did as one JSON-ready record: the study and its storage
    (None: in memory), every measured trial, the best, the winner (its configuration,
    hints and application parameters, and why it won), the verdict and its re-measures,
    the notes and the candidates the model skipped, the offline summary, and any further
    field of the result (e.g. a model's recommendation) as plain values. Keys do not depend
    on the strategy: absent things are None or empty."""
    best = result.best
    record: dict[str, Any] = {
        "format": RECORD_FORMAT,
        "version": 1,
        "study": result.study,
        "storage": result.storage,
        "strategy": result.strategy,
        "objective": result.objective,
        "direction": result.direction,
        "space": result.space.name,
        "space_size": result.space.size,
        "searched_size": result.searched_size,
        "command": result.command,
        "program": result.program,
        "nprocs": result.nprocs,
        "workload": _plain(result.workload),
        "budget": result.budget,
        "stopped": result.stopped,
        "proposals": result.proposals,
        "duplicates": result.duplicates,
        "vetoed": result.vetoed,
        "replaced": result.replaced,
        "recovered": result.recovered,
        "fixed": dict(result.fixed),
        "relevance": result.relevance_note,
        "trial_mode": result.trial_mode,
        "trials": _trial_records(result),
        "best": None
        if best is None
        else {"number": best.number, "config": dict(best.config), "value": _finite(best.value)},
        "winner": _winner_record(result),
        "winner_reason": result.winner_reason,
        "verdict": _verdict_record(result),
        "remeasured": _remeasured_records(result),
        "notes": list(result.notes),
        "skipped": [{"config": dict(s.config), "reason": s.reason} for s in result.skipped],
        "offline": _plain(result.offline),
        "spent": None if result.spent is None else _spent_record(result.spent),
    }
    for f in dataclasses.fields(result):
        if f.name not in SPELLED_OUT:  # fields added later (a model's recommendation, ...)
            record[f.name] = _plain(getattr(result, f.name))
    if result.recommendation is not None:
        _restate_recommendation_gain(record["recommendation"], result.recommendation.earned())
    record["gains"] = gain_lines(result)
    return record


def _trial_records(result: SearchResult) -> list[dict[str, Any]]:
    """Every measured trial: its configuration, value, failure, and what answered it."""
    return [
        {
            "number": t.number,
            "config": dict(t.config),
            "value": _finite(t.value),
            "failed": t.failed,
            "reason": t.outcome.reason,
            "new": t.new,
            "seconds": _finite(t.outcome.seconds),
            "answered_by": t.outcome.answered_by,
            "rows": t.outcome.repeats,
            "logs": [str(p) for p in t.outcome.logs],
        }
        for t in result.trials
    ]


def _winner_record(result: SearchResult) -> dict[str, Any] | None:
    """The winner's configuration, hints, application parameters and why it won."""
    if result.winner is None:
        return None
    return {
        "config": dict(result.winner),
        "hints": result.space.hints(result.winner),
        "application": result.space.app_values(result.winner),
        "reason": result.winner_reason,
    }


def _verdict_record(result: SearchResult) -> dict[str, Any] | None:
    """The verdict's best, its significance and its message."""
    verdict = result.verdict
    if verdict is None:
        return None
    return {
        "config": dict(verdict.best),
        "significant": verdict.significant,
        "p_value": _finite(verdict.p_value),
        "level": _finite(verdict.level),
        "ratio": _finite(verdict.ratio),
        "message": verdict.message,
    }


def _remeasured_records(result: SearchResult) -> list[dict[str, Any]]:
    """The verdict's re-measures, the default's among them."""
    return [
        {
            "config": dict(r.config),
            "is_default": r.is_default,
            "search_value": _finite(r.search_value),
            "values": [_finite(v) for v in r.values],
            "failures": list(r.failures),
            "median": _finite(r.median),
            "spread": _finite(r.spread),
        }
        for r in result.remeasured
    ]


def _spent_record(spent: Spent) -> dict[str, Any]:
    """The core-hours spent, by trials and re-measures, against the budget."""
    return {
        "cores_per_trial": spent.cores,
        "core_hours": _finite(spent.total),
        "trials_core_hours": _finite(spent.trials),
        "remeasures_core_hours": _finite(spent.remeasures),
        "budget_core_hours": spent.budget,
        "collected": list(spent.collected),
    }


def _restate_recommendation_gain(plain: dict[str, Any], earned: EarnedGain) -> None:
    """Rewrite the plain record of the model's recommendation: its ratios kept as
    `predicted_ratio`, its gain the one printed (`earned`)."""
    # The model's own ratio of two predictions is no gain (iotuner.gains): the record
    # keeps it as a ratio, and its gain is the one printed (calibrated or unknown).
    plain["predicted_ratio"] = [plain.pop(k) for k in ("gain_low", "gain", "gain_high")]
    plain["gain"] = {"basis": earned.basis, "value": earned.value,
                     "interval": earned.interval, "figure": earned.figure}  # fmt: skip
