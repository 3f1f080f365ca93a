"""Open-time entries from trace history: what a program did to a file before.

The hints that matter most (`cb_nodes`, `cb_config_list`, striping) are read at open, before
the program has written a byte, and independent access makes no decision of its own (that
would need a collective call inside an independent one). So the interposer looks up
`"at": "open"` entries by program and file-name pattern; this module writes them. For each
(program, file pattern, scale) seen in traces it finds the access the file mostly had
(pattern, read or write, size group, layout, weighted by bytes), asks the table which hints
that access wants (the access entry for collective access, the view entry for independent
access to a strided view), keeps those that fit the file's other accesses too, and turns
them into an open entry for that program and pattern, laid over the scale's own open
entry, whose keys it would otherwise hide (the most specific open entry wins whole).
"""

import re
from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path

from iotuner.formats import acting_hints
from iotuner.table import TableEntry, match, merge_entries
from iotuner.tracelog import TraceLog, read_tracelog

__all__ = [
    "Access",
    "derive_open_entries",
    "file_pattern",
    "merge_tables",
    "program_coverage",
    "read_logs",
]

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


@dataclass
class FileAccesses:
    """What a (program, file pattern, nprocs) saw in traces: bytes moved per access, the
    hosts the ranks ran on, and the name of a file it was seen on (for the table's globs)."""

    moved: dict[Access, int]
    nodes: int
    name: str

    @property
    def dominant(self) -> Access:
        """The access that moved the most bytes."""
        return max(self.moved, key=lambda a: self.moved[a])


def file_accesses(logs: Sequence[TraceLog]) -> dict[tuple[str, str, int], FileAccesses]:
    """Every access each (program, file pattern, nprocs) had in the logs."""
    found: dict[tuple[str, str, int], FileAccesses] = {}
    for log in logs:
        for index, op in enumerate(log.ops):
            workload = log.workload_of(index)
            key = (log.job["program"], file_pattern(op["file"]), workload.nprocs)
            seen = found.setdefault(key, FileAccesses(defaultdict(int), workload.nodes, op["file"]))
            access = Access(workload.pattern, workload.op, workload.group, workload.layout)
            seen.moved[access] += op["bytes"]
            seen.nodes = max(seen.nodes, workload.nodes)
    return found


def _table_choice(
    table: Sequence[TableEntry], program: str, name: str, nprocs: int, access: Access
) -> TableEntry | None:
    """The table's entry for an access: the access entry for collective access, the view
    entry for independent access to a strided view (independent access makes no decision
    of its own), None otherwise."""
    if access.pattern == "collective":
        return match(table, at="access", program=program, file=name, nprocs=nprocs,
                     group=access.group, pattern=access.pattern, op=access.op,
                     layout=access.layout)  # fmt: skip
    if access.layout == "strided":
        return match(table, at="view", program=program, file=name, nprocs=nprocs, layout="strided")
    return None


def _fits_every_access(
    key: str, value: str, table: Sequence[TableEntry], program: str, nprocs: int,
    seen: FileAccesses,
) -> bool:  # fmt: skip
    """Whether an open entry may set `key` for the whole file: on every other access the
    file's traces show, the key cannot act (formats.acting_hints), or the table's entry for
    that access sets the same value.

    RATIONALE: an open entry holds for every access to the file. IOR's collective-write
    hints, written for its file whose other runs made 4 KiB independent writes, slowed
    those (bench/real_programs.py, 2 of 12 cells below the default)."""
    for access in seen.moved:
        acts = acting_hints({key: value}, pattern=access.pattern, op=access.op,
                            nprocs=nprocs, nodes=seen.nodes)  # fmt: skip
        if not acts:
            continue
        wanted = _table_choice(table, program, seen.name, nprocs, access)
        if wanted is None or str(wanted.hints.get(key)) != str(value):
            return False
    return True


def derive_open_entries(logs: Sequence[TraceLog], table: Sequence[TableEntry]) -> list[TableEntry]:
    """The open entries trace history calls for, given a table of access entries.

    An entry is made only where the table has hints for the dominant access, and holds
    only the keys that fit every access of the file (_fits_every_access); its note says
    where it came from and what was left out. The result goes before the table's own
    entries (order does not decide: a program and file entry is the most specific there
    is).
    """
    derived = []
    for (program, pattern, nprocs), seen in sorted(file_accesses(logs).items()):
        access = seen.dominant
        chosen = _table_choice(table, program, seen.name, nprocs, access)
        if chosen is None or not chosen.hints:
            continue
        fitting = {
            k: v for k, v in chosen.hints.items()
            if _fits_every_access(k, str(v), table, program, nprocs, seen)
        }  # fmt: skip
        if not fitting:
            continue
        generic = [e for e in table if e.at == "open" and e.program is None and e.file is None]
        scale = match(generic, at="open", program=program, file=seen.name, nprocs=nprocs)
        note = (
            f"from trace history: mostly {access.layout} {access.pattern} {access.op}s "
            f"in size group {access.group}; hints of table line {chosen.line}"
        )
        left = sorted(set(chosen.hints) - set(fitting))
        if left:
            note += f"; left out (the file's other accesses want otherwise): {', '.join(left)}"
        derived.append(
            TableEntry(
                at="open",
                program=program,
                file=pattern,
                nprocs=nprocs,
                hints={**(scale.hints if scale else {}), **fitting},
                note=note,
            )
        )
    return derived


def merge_tables(derived: Sequence[TableEntry], table: Sequence[TableEntry]) -> list[TableEntry]:
    """The table with derived open entries in front, replacing older ones for the same
    program, file pattern and scale (table.merge_entries)."""
    return merge_entries(table, derived, in_front=True)


def program_coverage(logs: Sequence[TraceLog], table: Sequence[TableEntry]) -> list[str]:
    """One line per traced program: what the table will do to each of its accesses (the
    entries that apply and what each rests on), or why nothing will, the access with the
    most I/O time first. RATIONALE: a table that tunes none of the traced programs once
    said nothing of it; the README's path ends with what it achieved for each program.

    An access is tuned by the entry the interposer will apply: for collective access its
    access entry, for independent access the view entry of a strided view or the open
    entry of the program's file (_coverage_entry). What an entry rests on is its note's
    basis (measured against the default on that case, calibrated on held-out workloads,
    else a prediction or the trace history it was derived from)."""
    seconds: dict[str, dict[tuple[str, int, Access], float]] = defaultdict(
        lambda: defaultdict(float)
    )
    for log in logs:
        program = log.job["program"]
        for index, op in enumerate(log.ops):
            workload = log.workload_of(index)
            access = Access(workload.pattern, workload.op, workload.group, workload.layout)
            seconds[program][(op["file"], workload.nprocs, access)] += float(op["duration"])
    lines = []
    for program, accesses in seconds.items():
        # One line per access kind (a file name and scale stand for their like).
        said: dict[tuple[int, Access], str] = {}
        for (name, nprocs, access), _ in sorted(accesses.items(), key=lambda kv: -kv[1]):
            if (nprocs, access) not in said:
                said[nprocs, access] = _coverage_of(table, program, name, nprocs, access)
        tuned = sum(1 for text in said.values() if not text.endswith(_NOTHING))
        parts = "; ".join(
            f"{nprocs} ranks {a.pattern} {a.op} {a.layout} group {a.group}: {text}"
            for (nprocs, a), text in said.items()
        )
        lines.append(f"{program}: {tuned} of {len(said)} accesses get hints ({parts})")
    return lines


_NOTHING = "the defaults stay"


def _coverage_of(
    table: Sequence[TableEntry], program: str, name: str, nprocs: int, access: Access
) -> str:
    """What the table does to one access of a program, in words."""
    entry = _table_choice(table, program, name, nprocs, access)
    if entry is None or not entry.hints:
        entry = match(table, at="open", program=program, file=name, nprocs=nprocs) or entry
    if entry is None and access.pattern == "independent" and access.layout == "contiguous":
        # No entry is what tune writes there: only an open entry's keys could act.
        return f"independent contiguous access, which only open entries tune: none, {_NOTHING}"
    if entry is None:
        return f"no entry applies, {_NOTHING}"
    if not entry.hints:
        return f"{_rests_on(entry)}: {_NOTHING}"
    hints = acting_hints(
        {k: str(v) for k, v in entry.hints.items()},
        pattern=access.pattern,
        op=access.op,
        nprocs=nprocs,
        nodes=1,
    )
    if not hints:
        return f"its {entry.at} entry sets nothing that acts here, {_NOTHING}"
    return f"{', '.join(f'{k}={v}' for k, v in hints.items())} ({_rests_on(entry)})"


def _rests_on(entry: TableEntry) -> str:
    """What an entry's choice rests on, from its note."""
    from iotuner.tune import note_figures

    figures = note_figures(entry.note)
    if figures is not None and figures.basis in ("measured", "calibrated"):
        return f"{entry.at} entry, gain x{figures.gain:.2f} {figures.basis}"
    if figures is not None:
        return f"{entry.at} entry, a prediction: no gain measured or calibrated"
    return f"{entry.at} entry: {entry.note}" if entry.note else f"{entry.at} entry"
