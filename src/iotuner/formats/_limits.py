"""limits.def: the sizes and counts both readers bound their inputs by, by name."""

import functools
from pathlib import Path

from iotuner.errors import FormatError
from iotuner.formats._reader import formats_dir, invocations


@functools.cache
def limits() -> dict[str, int]:
    """The limits of limits.def, by name (e.g. "TABLE_MAX_BYTES")."""
    return parse_limits(formats_dir() / "limits.def")


def parse_limits(path: Path) -> dict[str, int]:
    """Parse and check a limits.def file (unique names, positive values)."""
    found: dict[str, int] = {}
    for line, args in invocations(path, "IOT_LIMIT", "wis"):
        name, value = str(args[0]), int(args[1])
        if value <= 0 or name in found:
            raise FormatError(f"{path} line {line}: limit {name} must be unique and > 0")
        found[name] = value
    return found
