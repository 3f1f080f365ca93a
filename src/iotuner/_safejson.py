"""JSON written by other programs, decoded without deep recursion.

json.loads recurses once per nesting level, so a line such as '[' * 100000 raises
RecursionError: a traceback instead of a message. Every reader of a file that something
else wrote decodes through loads_json, which refuses JSON nested deeper than
MAX_JSON_DEPTH with a json.JSONDecodeError: the error the readers already turn into
"<file> line N: not valid JSON (...)".
"""

import json
from collections.abc import Callable
from typing import Any

__all__ = ["MAX_JSON_DEPTH", "JsonTooDeepError", "loads_json", "too_deep"]

MAX_JSON_DEPTH = 64
"""The most levels of arrays and objects inside one another that loads_json accepts.

RATIONALE: our files nest a few levels (a trace record's hints, a model's metadata); 64
leaves room for other tools' files and stays far below Python's recursion limit (1000
frames, shared with the caller's stack and with whatever walks the value later, such as
json.dumps in an error message).
"""


class JsonTooDeepError(json.JSONDecodeError):
    """JSON nested deeper than MAX_JSON_DEPTH; `pos` is where the first level too many opens."""


def loads_json(
    text: str, *, object_pairs_hook: Callable[[list[tuple[str, Any]]], Any] | None = None
) -> Any:
    """json.loads(text, object_pairs_hook=...), refusing nesting deeper than MAX_JSON_DEPTH.

    Raises json.JSONDecodeError for text that is not JSON, and its subclass
    JsonTooDeepError (msg "expected at most 64 nested levels, got more", with the line and
    column where the 65th opens) for text nested too deep, so a caller that handles the
    one handles the other.
    """
    _check_depth(text)
    return json.loads(text, object_pairs_hook=object_pairs_hook)


def _check_depth(text: str) -> None:
    position = _too_deep_at(text, MAX_JSON_DEPTH)
    if position is not None:
        raise JsonTooDeepError(
            f"expected at most {MAX_JSON_DEPTH} nested levels, got more", text, position
        )


def too_deep(text: str, max_depth: int) -> bool:
    """Whether objects and arrays nest deeper than max_depth, counting brackets outside
    strings exactly as the interposer's C reader does (iot__json_too_deep), so the table
    readers call the same lines too deep whether or not they are otherwise valid JSON."""
    return _too_deep_at(text, max_depth) is not None


def _too_deep_at(text: str, max_depth: int) -> int | None:
    """Where the first level too many opens, or None."""
    # Cheap bound first: text with few brackets cannot nest deep, and that is nearly every
    # line of a log or table, so the scan below rarely runs.
    if text.count("[") + text.count("{") <= max_depth:
        return None
    depth, in_string, i = 0, False, 0
    while i < len(text):
        c = text[i]
        if in_string:
            if c == "\\":
                i += 1
            elif c == '"':
                in_string = False
        elif c == '"':
            in_string = True
        elif c in "[{":
            depth += 1
            if depth > max_depth:
                return i
        elif c in "]}" and depth > 0:
            depth -= 1
        i += 1
    return None
