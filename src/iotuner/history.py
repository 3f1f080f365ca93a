"""Open-time entries from trace history: what a program did to a file before.

The hints that matter most (`cb_nodes`, `cb_config_list`, striping) are read at open, before
the program has written a byte, and independent access makes no decision of its own (that
would need a collective call inside an independent one). So the interposer looks up
`"at": "open"` entries by program and file-name pattern; this module writes them. For each
(program, file pattern, scale) seen in traces it finds the access the file mostly had
(pattern, read or write, size group, layout, weighted by bytes), asks the table which hints
that access wants (the access entry for collective access, the view entry for independent
access to a strided view), and turns them into an open entry for that program and pattern,
laid over the scale's own open entry, whose keys it would otherwise hide (the most specific
open entry wins whole).
"""

import re
from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path

from iotuner.table import TableEntry, match, merge_entries
from iotuner.tracelog import TraceLog, read_tracelog

__all__ = ["Access", "derive_open_entries", "file_pattern", "merge_tables", "read_logs"]

_DIGITS = re.compile(r"\d+")


def file_pattern(name: str) -> str:
    """A glob for the files a program writes one after another: the base name with every
    run of digits before the suffix replaced by '*' (ckpt_0007.h5 -> ckpt_*.h5), so step 8
    matches step 7.
    """
    path = Path(name)
    return _DIGITS.sub("*", path.name.removesuffix(path.suffix)) + path.suffix


@dataclass(frozen=True)
class Access:
    """The access a file mostly had: pattern, read or write, and size group."""

    pattern: str
    op: str
    group: int
    layout: str


def read_logs(paths: Iterable[Path]) -> list[TraceLog]:
    """Trace logs from files and directories (every *.iotrace.jsonl directly inside)."""
    logs: list[TraceLog] = []
    for path in paths:
        files = sorted(path.glob("*.iotrace.jsonl")) if path.is_dir() else [path]
        logs.extend(read_tracelog(file) for file in files)
    return logs


def dominant_accesses(
    logs: Sequence[TraceLog],
) -> dict[tuple[str, str, int], tuple[Access, str]]:
    """For each (program, file pattern, nprocs): the access that moved the most bytes, and
    the name of a file it was seen on (for the table's file globs)."""
    moved: dict[tuple[str, str, int], dict[Access, int]] = defaultdict(lambda: defaultdict(int))
    seen_name: dict[tuple[str, str, int], str] = {}
    for log in logs:
        for index, op in enumerate(log.ops):
            workload = log.workload_of(index)
            key = (log.job["program"], file_pattern(op["file"]), workload.nprocs)
            access = Access(workload.pattern, workload.op, workload.group, workload.layout)
            moved[key][access] += op["bytes"]
            seen_name[key] = op["file"]
    return {
        key: (max(by_access, key=lambda a: by_access[a]), seen_name[key])
        for key, by_access in moved.items()
    }


def derive_open_entries(logs: Sequence[TraceLog], table: Sequence[TableEntry]) -> list[TableEntry]:
    """The open entries trace history calls for, given a table of access entries.

    An entry is made only where the table has hints for the dominant access; its note says
    where it came from. The result goes before the table's own entries (order does not
    decide: a program and file entry is the most specific there is).
    """
    derived = []
    for (program, pattern, nprocs), (access, name) in sorted(dominant_accesses(logs).items()):
        chosen = None
        if access.pattern == "collective":
            chosen = match(
                table,
                at="access",
                program=program,
                file=name,
                nprocs=nprocs,
                group=access.group,
                pattern=access.pattern,
                op=access.op,
                layout=access.layout,
            )
        elif access.layout == "strided":
            chosen = match(
                table, at="view", program=program, file=name, nprocs=nprocs, layout="strided"
            )
        if chosen is None or not chosen.hints:
            continue
        generic = [e for e in table if e.at == "open" and e.program is None and e.file is None]
        scale = match(generic, at="open", program=program, file=name, nprocs=nprocs)
        derived.append(
            TableEntry(
                at="open",
                program=program,
                file=pattern,
                nprocs=nprocs,
                hints={**(scale.hints if scale else {}), **chosen.hints},
                note=(
                    f"from trace history: mostly {access.layout} {access.pattern} {access.op}s "
                    f"in size group {access.group}; hints of table line {chosen.line}"
                ),
            )
        )
    return derived


def merge_tables(derived: Sequence[TableEntry], table: Sequence[TableEntry]) -> list[TableEntry]:
    """The table with derived open entries in front, replacing older ones for the same
    program, file pattern and scale (table.merge_entries)."""
    return merge_entries(table, derived, in_front=True)
