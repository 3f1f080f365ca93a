"""The choices that differ from the default, as tune prints them."""

from rich.console import Console
from rich.table import Table

from iotuner._printable import markup_safe
from iotuner._tables import print_table, whole
from iotuner.gains import stated_gain
from iotuner.tune._result import TuneResult

__all__ = [
    "render_choices",
]


def render_choices(result: TuneResult, console: Console, limit: int = 30) -> None:
    """The cases whose configuration differs from the default, best predicted gain first."""
    changed = sorted(
        (c for c in result.choices if not c.kept_default),
        key=lambda c: c.predicted / max(c.default_predicted, 1e-9),
        reverse=True,
    )
    if not changed:
        # An empty table says less than a sentence.
        console.print(
            f"every case keeps the default: no configuration is predicted to beat it by "
            f"more than the noise ({result.noise:.0%})"
        )
        return
    table = Table(title=f"configurations chosen over the default (noise {result.noise:.0%})")
    for column in (
        "scale",
        "group",
        "pattern",
        "op",
        "layout",
        "hints",
        "predicted MiB/s",
        "default MiB/s",
        "gain [10-90 %]",
    ):
        table.add_column(column)
    for c in changed[:limit]:
        gain = stated_gain(c.gain_basis, c.gain, c.gain_interval)
        table.add_row(
            whole(str(c.nprocs)),
            whole(str(c.group)),
            c.pattern,
            c.op,
            c.layout,
            # Hint values come from the knowledge base: data, not markup.
            markup_safe(", ".join(f"{k}={v}" for k, v in c.hints.items()) or "(default)")
            + (f" (nearest trained size's, x{2**c.extrapolated} away)" if c.extrapolated else ""),
            whole(f"{c.predicted:.1f} [{c.low:.1f}, {c.high:.1f}]"),
            whole(f"{c.default_predicted:.1f}"),
            # The earned gain (iotuner.gains), as the table's note and the report say it:
            # the ratio of the two predictions beside it is no gain.
            markup_safe(f"{gain.figure} {gain.basis}" if gain.value is not None else gain.figure),
        )
    if len(changed) > limit:
        table.caption = f"{len(changed) - limit} more in the table's notes"
    print_table(console, [(table, None)])
