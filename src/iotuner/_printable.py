"""Names as the terminal may show them: program, file and glob names are data.

A name read from a tuning table, a trace log or a knowledge base may hold control
characters (an ESC sequence that recolours, retitles or clears the terminal) or rich
markup ("[bold]x"). Every command that prints such a name passes it through printable
(plain output) or markup_safe (rich output).

RATIONALE: the characters are shown escaped (\\x1b), not dropped, so that two names that
differ only in them stay told apart and the reader sees that something is there. Escaped:
C0 (U+0000-U+001F), DEL (U+007F) and C1 (U+0080-U+009F), plus the Unicode line and
paragraph separators and the bidirectional overrides and isolates (U+2028-U+202E,
U+2066-U+2069), which reorder or break what follows them on the line. A backslash is not
doubled: names print as they are unless they hold one of these.
"""

import re
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from rich.console import Console

__all__ = ["CONTROL", "markup_safe", "printable", "terminal"]

CONTROL = re.compile("[\x00-\x1f\x7f-\x9f\u2028-\u202e\u2066-\u2069]")
"""The characters printable escapes."""


def printable(text: object) -> str:
    """`text` (str() of it) with each control character as \\xNN or \\uNNNN."""
    return CONTROL.sub(_escaped, str(text))


def markup_safe(text: object) -> str:
    """printable(text) for a rich console: its square brackets print as they are."""
    from rich.markup import escape

    return escape(printable(text))


def terminal(**options: Any) -> "Console":
    """A rich console for iotuner's output (`options` as rich.console.Console takes them),
    with emoji codes off: a workload written strided:100:0.98 printed as "strided💯0.98"
    (rich reads ":100:" as an emoji code, with or without markup)."""
    from rich.console import Console

    return Console(emoji=False, **options)


def _escaped(match: re.Match[str]) -> str:
    code = ord(match.group(0))
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"
