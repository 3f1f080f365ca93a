"""What the knowledge base takes: its error, a record's shape, and the checks its values
pass before they are written (configurations, finite figures, JSON text)."""

import json
import math
import re
from collections.abc import Mapping
from typing import Any

from iotuner.errors import IotunerError
from iotuner.measurement import Measurement, System

__all__ = ["Record", "StoreError", "canonical_config", "finite", "json_text"]

Record = tuple[Measurement, System, str]
"""A measurement with the system it was made on and the name of its parameter space."""

_INTEGER_TEXT = re.compile(r"-?[1-9][0-9]*|0")


class StoreError(IotunerError):
    """The knowledge base cannot be opened, or was given something it cannot hold."""


def canonical_config(config: Mapping[str, Any], uid: str = "") -> dict[str, str | int]:
    """A configuration with every value a string or an int, and integer text as int (so
    "2" from a trace and 2 from a space are one configuration); StoreError otherwise."""
    canonical: dict[str, str | int] = {}
    for name, value in config.items():
        if not isinstance(name, str) or not name:
            raise StoreError(f"configuration names must be non-empty strings, got {name!r}")
        if isinstance(value, str):
            canonical[name] = int(value) if _INTEGER_TEXT.fullmatch(value) else value
        elif isinstance(value, int) and not isinstance(value, bool):
            canonical[name] = value
        else:
            where = f" in measurement {uid}" if uid else ""
            raise StoreError(
                f"configuration values must be strings or integers, got {name}={value!r}{where}"
            )
    return canonical


def finite(value: float, name: str, uid: str) -> float:
    """`value`, a measurement's `name` figure, when it is finite and not negative."""
    if not math.isfinite(value) or value < 0:
        raise StoreError(f"{name} must be a finite number >= 0, got {value!r} in measurement {uid}")
    return value


def json_text(value: Mapping[str, Any], what: str) -> str:
    """`value` as JSON text, keys sorted (`what`: the words an error names it by)."""
    try:
        return json.dumps(value, sort_keys=True)
    except (TypeError, ValueError) as exc:
        raise StoreError(f"{what} must be JSON-serialisable ({exc})") from None
