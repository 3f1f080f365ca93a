"""iotuner: MPI-IO tuning through an LD_PRELOAD interposer, driven from Python.

The names below are the package's public interface; the command line is iotuner.cli.
"""

from typing import TYPE_CHECKING

from iotuner._lazy import lazy_names
from iotuner.errors import IotunerError

if TYPE_CHECKING:
    from iotuner.formats import size_group
    from iotuner.table import TableEntry, match, read_table, write_table
    from iotuner.tracelog import TraceLog, read_tracelog

__version__ = "0.1.0"

__all__ = [
    "IotunerError",
    "TableEntry",
    "TraceLog",
    "__version__",
    "match",
    "read_table",
    "read_tracelog",
    "size_group",
    "write_table",
]

# RATIONALE: every `iotuner` command imports this package, and `iotuner run` and
# `iotuner --version` need none of these modules; so they are imported on first use.
_LAZY = {
    "TableEntry": "iotuner.table",
    "TraceLog": "iotuner.tracelog",
    "match": "iotuner.table",
    "read_table": "iotuner.table",
    "read_tracelog": "iotuner.tracelog",
    "size_group": "iotuner.formats",
    "write_table": "iotuner.table",
}


__getattr__ = lazy_names(__name__, globals(), _LAZY)


def __dir__() -> list[str]:
    return sorted({*globals(), *_LAZY})
