"""Rich tables that respect the terminal: a table is printed only at a width where no cell
is cut (rich's own layout shrinks columns below their longest word and ends names and
numbers with "…"), else a narrower layout, else each row as a short block of
"column: value" lines that wrap at whole words. Nothing is printed for a table without
rows: the caller says what the empty section means in a sentence."""

import re
from collections.abc import Sequence

from rich.console import Console, RenderableType
from rich.measure import Measurement
from rich.table import Table
from rich.text import Text

from iotuner._printable import printable, terminal

__all__ = ["breakable", "fit_table", "print_table", "say", "whole"]


def say(text: str) -> None:
    """Print plain `text` (no markup) to the current sys.stdout, wrapped at words to the
    terminal's width (a long line is otherwise broken inside a word by the terminal).
    Control characters in it (a name's ESC sequence) are shown escaped (_printable)."""
    shown = "\n".join(printable(line) for line in text.split("\n"))
    terminal(highlight=False).print(shown, markup=False)


def whole(text: str, style: str = "") -> Text:
    """A cell that is never broken ("0.647 ± 0.046", "62.0 %"): a number folded over
    lines, or split at its "±", reads as two numbers."""
    return Text(text, style=style, no_wrap=True)


def breakable(config: str) -> str:
    """A configuration ("a=1,b=2") with a space after each comma, so that a narrow column
    wraps it between settings instead of cutting it inside one."""
    return re.sub(r",(?=\S)", ", ", config)


def fit_table(console: Console, table: Table) -> bool:
    """Give each column of `table` a width at which every word, and every `whole` cell,
    fits on one line; False when the console is too narrow for that.

    The spare width goes to the columns that would otherwise wrap, in proportion to what
    they lack, so a table that fits unwrapped is laid out as rich would."""
    options = console.options
    available = options.max_width - table._extra_width
    least: list[int] = []
    most: list[int] = []
    for index, column in enumerate(table.columns):
        pad = table._get_padding_width(index)
        low = high = 1
        for cell in (column.header, *column._cells):
            renderable: RenderableType = console.render_str(cell) if isinstance(cell, str) else cell
            measured = Measurement.get(console, options.update_width(10**6), renderable)
            unbreakable = column.no_wrap or (isinstance(cell, Text) and cell.no_wrap)
            low = max(low, measured.maximum if unbreakable else measured.minimum)
            high = max(high, measured.maximum)
        least.append(low + pad)
        most.append(high + pad)
    if sum(least) > available:
        return False
    if sum(most) <= available:
        return True
    spare = available - sum(least)
    lacking = [m - lo for lo, m in zip(least, most, strict=True)]
    total = sum(lacking)
    for index, column in enumerate(table.columns):
        extra = min(lacking[index], spare * lacking[index] // total) if total else 0
        column.width = least[index] + extra - table._get_padding_width(index)
    return True


def print_table(
    console: Console,
    layouts: Sequence[tuple[Table, str | None]],
) -> None:
    """Print the first of `layouts` (widest first, each with the note it needs, such as
    which columns it leaves out) that fits the console; when none fits, the rows of the
    first one as blocks of "column: value" lines. A table without rows prints nothing."""
    if not layouts or not layouts[0][0].rows:
        return
    for table, note in layouts:
        # Each layout as given, then without the outer border and edge padding (4
        # columns fewer), before a narrower layout leaves anything out.
        for edge in (True, False):
            table.show_edge = table.pad_edge = edge
            if fit_table(console, table):
                console.print(table)
                if note:
                    console.print(f"[dim]{note}[/]")
                return
    layouts[0][0].show_edge = layouts[0][0].pad_edge = True
    _print_records(console, layouts[0][0])


def _print_records(console: Console, table: Table) -> None:
    """Each row as its first cell, then one "column: value" line per other column: at any
    width a line is at most one value long, and text wraps at its words."""
    if table.title:
        console.print(table.title)
    headers = [_plain(console, c.header) for c in table.columns]
    for row in range(len(table.rows)):
        cells = [c._cells[row] for c in table.columns]
        console.print(cells[0])
        for header, cell in zip(headers[1:], cells[1:], strict=True):
            value = _plain(console, cell)
            if value and value != "-":
                console.print(Text("  " + header + ": ") + _text(console, cell).copy())
    if table.caption:
        console.print(table.caption)


def _text(console: Console, cell: RenderableType) -> Text:
    if isinstance(cell, Text):
        flat = cell.copy()
        flat.no_wrap = False
        flat.plain = flat.plain.replace("\n", " ")
        return flat
    if isinstance(cell, str):
        return console.render_str(cell.replace("\n", " "))
    return Text(str(cell))


def _plain(console: Console, cell: RenderableType) -> str:
    return " ".join(_text(console, cell).plain.split())
