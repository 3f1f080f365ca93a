"""The iotuner table itself: every entry that applies, each line checked as the readers
check it (table.table_problems), for the interposer to choose among at run time."""

import json
import shlex
from collections.abc import Sequence

from iotuner.errors import TableError
from iotuner.hint_exports._results import Built
from iotuner.hint_exports._selection import describe
from iotuner.table import HEADER, TableEntry, table_problems


def build_iotuner(entries: Sequence[TableEntry], where: str, **_: object) -> Built:
    lines = [json.dumps(HEADER)]
    for entry in entries:
        obj = entry.to_json()
        problems = table_problems(obj)
        if problems:
            raise TableError(f"{describe(entry)}: {problems[0]}")
        lines.append(json.dumps(obj))
    kept = [
        f"all {len(entries)} entries that apply: the interposer chooses among them per "
        "file, scale, size group, op and layout at run time"
    ]
    usage = [
        f"iotuner run --mode tune --table {shlex.quote(where)} -- mpiexec -n NPROCS PROGRAM ...",
        f"export IOTUNER_MODE=tune IOTUNER_TABLE={shlex.quote(where)}"
        "  # with the interposer preloaded",
    ]
    return Built("\n".join(lines) + "\n", usage, kept, [])
