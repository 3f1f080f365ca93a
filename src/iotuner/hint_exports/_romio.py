"""ROMIO_HINTS: a file of `key value` lines, one configuration for every file and access.

ROMIO reads the file at every MPI_File_open (adio/common/system_hints.c,
ADIOI_process_system_hints): lines split at '\\n', '#' in column 1 a comment, a line of
exactly two tokens split at blanks and tabs is `key value`, and a key the program's own
info sets is left alone (the ROMIO Users Guide, "Systemwide Hints",
ftp.mcs.anl.gov/pub/romio/users-guide/node11.html). A value with a blank or tab cannot be
written; keys only OMPIO reads are dropped.
"""

import re
import shlex
from collections.abc import Sequence

from iotuner.formats import hint_vocabulary
from iotuner.hint_exports._results import Built, drop_keys
from iotuner.hint_exports._selection import one_configuration
from iotuner.table import TableEntry

_ROMIO_FORBIDDEN = re.compile(r"[\s\x00-\x1f\x7f-\x9f]")


def not_romio(key: str, value: str) -> str | None:
    hint = hint_vocabulary().get(key)
    if hint is not None and "romio" not in hint.implementations:
        return "only Open MPI's OMPIO reads it (formats/hints.def); ROMIO ignores it"
    return None


def _romio_value(key: str, value: str) -> str | None:
    if _ROMIO_FORBIDDEN.search(key) or _ROMIO_FORBIDDEN.search(value):
        return (
            "ROMIO's hints file splits a line at blanks and tabs: a value cannot hold one "
            "(nor a control character)"
        )
    return not_romio(key, value)


def build_romio(entries: Sequence[TableEntry], where: str, **_: object) -> Built:
    config = one_configuration(
        entries, "a ROMIO_HINTS file holds one configuration for every file and access"
    )
    carried, dropped_keys = drop_keys(config.hints, _romio_value)
    lines = [
        "# MPI-IO hints for ROMIO (ROMIO_HINTS), written by iotuner export;",
        "# a program's own hints win over these.",
        *(f"{k} {v}" for k, v in carried.items()),
    ]
    usage = [f"export ROMIO_HINTS={shlex.quote(where)}"] if carried else []
    return Built("\n".join(lines) + "\n", usage, config.kept, config.dropped + dropped_keys)
