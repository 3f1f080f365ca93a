"""iotuner: MPI-IO tuning through an LD_PRELOAD interposer, driven from Python.

The names below are the package's public interface; the command line is iotuner.cli.
"""

from iotuner.errors import IotunerError
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
