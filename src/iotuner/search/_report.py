"""A search's result as text on a rich console (the data is SearchResult's)."""

from rich.console import Console
from rich.table import Table
from rich.text import Text

from iotuner.search._result import SearchResult
from iotuner.space import config_key

__all__ = ["print_result"]


def _num(value: float | None) -> str:
    return "-" if value is None else f"{value:.4g}"


def print_result(result: SearchResult, console: Console, *, show: int = 5) -> None:
    """Print what the search did, its best trials (with what the objective adds about each),
    why trials failed (with the end of a failed run's output), the noise step and the
    winner."""
    failed = sum(1 for t in result.trials if t.failed)
    new = sum(1 for t in result.trials if t.new)
    console.print(
        f"study {result.study}: {result.strategy} over {result.space.name} "
        f"({result.space.size} configurations), {result.direction} {result.objective}"
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
    if result.recovered:
        console.print(f"{result.recovered} trial(s) interrupted earlier were marked and skipped")
    for note in result.notes:
        console.print(f"note: {note}")
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
            label = config_key(t.config) + (f" {t.note}" if t.note else "")
            table.add_row(str(t.number), _num(t.value), label)
        console.print(table)
    failures: dict[str, str] = {}  # each reason, with the output of its first trial
    for t in result.trials:
        if t.failed:
            reason = t.outcome.reason or ""
            failures[reason] = failures.get(reason) or t.outcome.stdout_tail
    for reason in sorted(failures)[:3]:
        console.print(f"failed trials: {reason}")
        if failures[reason]:
            shown = "".join(f"\n  | {line}" for line in failures[reason].splitlines())
            console.print(Text(f"  its output ended with:{shown}"))
    if result.offline is not None:
        o = result.offline
        console.print(
            f"table: {o.rows} rows, {o.configurations} configurations ({o.repeated} measured "
            f"more than once, summarised by their median); best {_num(o.table_best)} "
            f"({config_key(o.table_best_config)})"
        )
        reached = (
            f"reached after {o.trials_to_target} trials"
            if o.trials_to_target is not None
            else f"not reached in {len(result.trials)} trials"
        )
        console.print(
            f"{o.target_fraction:.0%} of the table's best ({_num(o.target)}): {reached}; "
            f"{o.nearest_answers} of {len(result.trials)} trials answered by the nearest "
            "measured configuration"
        )
    if result.remeasured:
        table = Table(title="re-measured for the verdict (interleaved with the default)")
        columns = ("configuration", "search", "median", "min", "max", "spread", "n", "failed")
        for column in columns:
            table.add_column(column, justify="left" if column == "configuration" else "right")
        for r in result.remeasured:
            label = config_key(r.config) + (" (default)" if r.is_default else "")
            table.add_row(
                label,
                _num(r.search_value),
                _num(r.median),
                _num(min(r.values) if r.values else None),
                _num(max(r.values) if r.values else None),
                "-" if r.spread is None else f"{r.spread:.0%}",
                str(len(r.values)),
                str(len(r.failures)),
            )
        console.print(table)
    if result.winner is not None and result.offline is not None:
        console.print(f"winner: {config_key(result.winner)}")
    elif result.winner is not None:
        hints = result.space.hints(result.winner)
        line = f"winner: {config_key(result.winner)} -> hints {hints or '{} (none)'}"
        app = result.space.app_values(result.winner)
        if app:
            shown = ", ".join(f"{name}={value}" for name, value in app.items())
            line += f"; application parameters {shown} (the command or environment sets them)"
        console.print(line)
    console.print(result.winner_reason)
