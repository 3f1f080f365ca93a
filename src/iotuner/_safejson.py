"""JSON written by other programs, decoded without deep recursion.

json.loads recurses once per nesting level, so a line such as '[' * 100000 raises
RecursionError: a traceback instead of a message. Every reader of a file that something
else wrote decodes through loads_json, which refuses JSON nested deeper than
MAX_JSON_DEPTH with a json.JSONDecodeError: the error the readers already turn into
"<file> line N: not valid JSON (...)".
"""

import json
import re
from collections.abc import Callable
from typing import Any

__all__ = ["MAX_JSON_DEPTH", "JsonTooDeepError", "loads_json"]

MAX_JSON_DEPTH = 64
"""The most levels of arrays and objects inside one another that loads_json accepts.

RATIONALE: our files nest a few levels (a trace record's hints, a model's metadata); 64
leaves room for other tools' files and stays far below Python's recursion limit (1000
frames, shared with the caller's stack and with whatever walks the value later, such as
json.dumps in an error message).
"""

# A JSON string (brackets inside it are text; an unterminated one runs to the end of the
# text) or a bracket. Strings come first so their brackets are never counted.
_TOKEN = re.compile(r'"(?:[^"\\]|\\.)*"?|[\[\]{}]')


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
    # Cheap bound first: text with few brackets cannot nest deep, and that is nearly every
    # line of a trace log or results file, so the token scan below rarely runs.
    if text.count("[") + text.count("{") <= MAX_JSON_DEPTH:
        return
    depth = 0
    for token in _TOKEN.finditer(text):
        if token.group() in ("[", "{"):
            depth += 1
            if depth > MAX_JSON_DEPTH:
                raise JsonTooDeepError(
                    f"expected at most {MAX_JSON_DEPTH} nested levels, got more",
                    text,
                    token.start(),
                )
        elif token.group() in ("]", "}"):
            depth -= 1
