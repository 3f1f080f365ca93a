"""A CSV cell's text as the value of one of our fields (ingest._csv): the checks of each
field, with _Bad saying what was expected."""

import math
from collections.abc import Callable, Sequence
from typing import Any

from iotuner.measurement import CONFIG_PREFIX, LAYOUTS, OPS, PATTERNS
from iotuner.store import canonical_config

_WHOLE_BYTES = ("block", "bytes_per_rank", "stripe_size", "bytes")
"""Scaled fields that are byte counts: the scaled value is rounded to a whole byte."""
LARGEST_INTEGER = 2**63 - 1
"""The largest integer a field may hold: what the knowledge base's INTEGER columns take
(SQLite's and PostgreSQL's BIGINT)."""


class _Bad(ValueError):
    """A value that is not what a field expects; the message says what was expected."""


def _integer(text: str, minimum: int) -> int:
    try:
        number = float(text)
        value = int(number)
        if value != number:
            raise ValueError
    except (ValueError, OverflowError):
        raise _Bad(f"an integer >= {minimum}") from None
    if value < minimum:
        raise _Bad(f"an integer >= {minimum}")
    if value > LARGEST_INTEGER:
        raise _Bad(f"an integer >= {minimum} that fits in 64 bits (<= {LARGEST_INTEGER})")
    return value


def _number(text: str, minimum: float, inclusive: bool, maximum: float | None = None) -> float:
    relation = ">=" if inclusive else ">"
    expected = f"a number {relation} {minimum:g}" + (f" and <= {maximum:g}" if maximum else "")
    try:
        value = float(text)
    except ValueError:
        raise _Bad(expected) from None
    if (
        not math.isfinite(value)
        or value < minimum
        or (value == minimum and not inclusive)
        or (maximum is not None and value > maximum)
    ):
        raise _Bad(expected)
    return value


_TRUE = ("true", "yes", "1")
_FALSE = ("false", "no", "0")


def _flag(text: str) -> bool:
    word = text.strip().lower()
    if word not in _TRUE + _FALSE:
        raise _Bad("true or false (yes, no, 1, 0)")
    return word in _TRUE


def _program(text: str) -> str:
    if not text or text.split() != [text]:
        raise _Bad("a program name: one word")
    return text


def _word(choices: Sequence[str]) -> Callable[[str], str]:
    def convert(text: str) -> str:
        if text not in choices:
            raise _Bad(" or ".join(choices))
        return text

    return convert


_CONVERTERS: dict[str, Callable[[str], Any]] = {
    "nprocs": lambda t: _integer(t, 1),
    "nodes": lambda t: _integer(t, 1),
    "pattern": _word(PATTERNS),
    "op": _word(OPS),
    "layout": _word(LAYOUTS),
    "block": lambda t: _integer(t, 0),
    "fill": lambda t: _number(t, 0, False, 1),
    "bytes_per_rank": lambda t: _integer(t, 0),
    "calls_per_open": lambda t: _integer(t, 1),
    "ranks_per_node": lambda t: _integer(t, 1),
    "files": lambda t: _integer(t, 1),
    "interleaved": _flag,
    "stripe_count": lambda t: _integer(t, 1),
    "stripe_size": lambda t: _integer(t, 1),
    "program": _program,
    "memory_block": lambda t: _integer(t, 0),
    "bandwidth": lambda t: _number(t, 0, False),
    "seconds": lambda t: _number(t, 0, False),
    "bytes": lambda t: _integer(t, 0),
    "repeat": lambda t: _integer(t, 0),
}


def _is_cfg(name: str) -> bool:
    return name.startswith(CONFIG_PREFIX) and len(name) > len(CONFIG_PREFIX)


def _convert(name: str, text: str, scale: float | None = None) -> Any:
    """The value of field `name` from its text; _Bad says what was expected."""
    if _is_cfg(name):
        return canonical_config({name: text})[name]
    if scale is not None and name in _WHOLE_BYTES:
        scaled = round(_number(text, 0, True) * scale)
        if scaled > LARGEST_INTEGER:
            raise _Bad(f"a number whose scaled value is <= {LARGEST_INTEGER}")
        return scaled
    value = _CONVERTERS[name](text)
    return value * scale if scale is not None else value


def _expected(name: str) -> str:
    """What field `name` expects, for messages."""
    try:
        _convert(name, "")
    except _Bad as exc:
        return str(exc)
    return "a value"
