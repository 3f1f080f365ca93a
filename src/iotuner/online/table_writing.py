"""Writing the program's entries for the workload a run measured: what the table gives it
now, the entry a chosen configuration becomes, and the write."""

from collections.abc import Collection
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from typing import Any

from iotuner.formats import hint_vocabulary
from iotuner.history import file_pattern
from iotuner.measurement import Workload
from iotuner.online.runs import RunSummary
from iotuner.space import Space
from iotuner.table import (
    TableEntry,
    match,
    merge_entries,
    read_table,
    table_fs_type,
    table_problems,
    write_table,
)

__all__ = [
    "Scope",
    "entry_for",
    "program_entry",
    "repair_event",
    "restore_entries",
    "scope_lines",
    "table_entries",
    "write_entries",
]


@dataclass(frozen=True)
class Scope:
    """The entries the learner owns for one run's main workload: the program's entries for
    the file pattern of its file at its scale, at open, at set_view for its layout and, for
    collective access, at its size group, operation and layout. Nothing else of the table
    is rewritten: the program's other files and size groups keep their entries."""

    program: str
    file: str
    """A glob on the file's base name (as `table derive` writes them)."""
    nprocs: int
    workload: Workload

    @property
    def stream(self) -> tuple[str, int, str]:
        """The history events about these entries have this program, nprocs and file."""
        return self.program, self.nprocs, self.file

    def entries(self, hints: dict[str, str | int], note: str) -> list[TableEntry]:
        """The entries that give the workload `hints` (at set_view and access, the keys
        not read at open only)."""
        w, vocabulary = self.workload, hint_vocabulary()
        later = {
            k: v for k, v in hints.items() if k not in vocabulary or vocabulary[k].when != "OPEN"
        }
        mine = partial(TableEntry, program=self.program, file=self.file, nprocs=self.nprocs)
        entries = [
            mine(at="open", hints=hints, note=note),
            mine(at="view", layout=w.layout, hints=later),
        ]
        if w.pattern == "collective":
            entries.append(
                mine(group=w.group, pattern=w.pattern, op=w.op, layout=w.layout, hints=later)
            )
        return entries


def table_entries(table: Path) -> list[TableEntry]:
    """The table's entries; none when it does not exist or is empty (a first run)."""
    if not table.exists() or not table.read_text(encoding="utf-8").strip():
        return []
    return read_table(table)


def program_entry(table: Path, run: RunSummary) -> tuple[Scope, dict[str, str | int]]:
    """The learner's scope for the run, and the hints the program's own open entry gives
    its file ({}: the program has none; the table's generic entries, if any, apply).

    The file pattern is the matching program entry's when it names one (`table derive`'s
    ckpt_*.h5), else the file's own (digits as '*', as derive makes them)."""
    found = match(
        table_entries(table), at="open", program=run.program, file=run.file, nprocs=run.nprocs
    )
    own = found is not None and found.program is not None
    glob = found.file if own and found is not None and found.file else file_pattern(run.file)
    scope = Scope(program=run.program, file=glob, nprocs=run.nprocs, workload=run.workload)
    return scope, dict(found.hints) if own and found is not None else {}


def write_entries(table: Path, scope: Scope, hints: dict[str, str | int], note: str) -> None:
    """The scope's entries with `hints`, in front of the table (write-then-rename); {}
    removes them (the program's other entries, or the table's generic ones, apply again)."""
    existing = table_entries(table)
    fs_type = table_fs_type(table)  # the header stays: the learner measures on its system
    ours = scope.entries(hints, note)
    if hints:
        write_table(table, merge_entries(existing, ours, in_front=True), fs_type=fs_type)
    else:
        cases = {e.case for e in ours}
        write_table(table, [e for e in existing if e.case not in cases], fs_type=fs_type)


def scope_lines(table: Path, scope: Scope) -> list[dict[str, Any]]:
    """The scope's entries as the table has them now (table lines), for a change event:
    what a rollback puts back."""
    cases = {e.case for e in scope.entries({}, "")}
    return [e.to_json() for e in table_entries(table) if e.case in cases]


def restore_entries(table: Path, scope: Scope, lines: list[dict[str, Any]]) -> bool:
    """The scope's entries put back as they were before a change (`lines`: scope_lines
    then), in front of the table, the rest untouched. False, and nothing written, when a
    line is not a table entry (a history edited by hand).

    RATIONALE: a rollback that rewrote the old open entry's hints into all of the scope's
    entries masked the table's generic access entry (IOR's strided-view reads lost
    romio_cb_read=disable after a rollback, and their runs fell to 0.4-0.5 of the best,
    bench/real_programs.py); what was in force before the change is what comes back."""
    if any(table_problems(line) for line in lines):
        return False
    cases = {e.case for e in scope.entries({}, "")}
    restored = [TableEntry(**line) for line in lines]
    kept = [e for e in table_entries(table) if e.case not in cases]
    write_table(table, [*restored, *kept], fs_type=table_fs_type(table))
    return True


def entry_for(
    space: Space,
    config: dict[str, Any],
    current: dict[str, str | int],
    in_force: dict[str, str],
    app_keys: Collection[str],
    workload: Workload | None = None,
) -> dict[str, str | int]:
    """The program's entry that gives `workload` the configuration `config`.

    Keys of `current` outside the space are not the space's to choose: the entry keeps
    them. The program's entries win over the table's generic ones, so a key those set (it
    is `in_force`) and the choice leaves at its default is written with the default's
    value, when the default is a value MPI takes: cb_nodes' "default" means "not set",
    which no entry can say. A key the program passes itself (`app_keys`) has the
    program's value as its default and is not written back to the space's: pio_noncontig
    sets its own cb_buffer_size, and an entry "back to the default" of 16 MiB made its
    writes 35 % slower than the program as it is.

    Keys that cannot act on `workload` (hints.def's `ops`) are not the run's to choose
    either: the entry keeps `current`'s values for them. A file written by one run and
    read by another shares its open entry; a read run that reset the write keys undid
    what the write runs had learned (IOR's contig-*m-coll.dat, bench/real_programs.py).
    """
    vocabulary = hint_vocabulary()
    names = {p.name for p in space.parameters}
    idle = {
        name
        for name in names
        if workload is not None
        and name in vocabulary
        and not vocabulary[name].acts_on(workload.pattern, workload.op)
    }
    hints: dict[str, str | int] = {k: v for k, v in current.items() if k not in names or k in idle}
    hints.update({k: v for k, v in space.hints(config).items() if k not in idle})
    for name in names - set(hints) - idle:
        parameter = space.parameter(name)
        value = str(parameter.default)
        if (
            name in in_force
            and name not in app_keys
            and parameter.kind == "hint"
            and name in vocabulary
            and vocabulary[name].problem(value) is None
        ):
            hints[name] = value
    return hints


def repair_event(space: Space, hints: dict[str, str | int]) -> dict[str, Any] | None:
    """The repair event of an entry holding values of the space's knobs that the space
    does not hold (an entry written by hand or for another space, e.g. cb_buffer_size
    65536 where the space lists 4 MiB and 16 MiB): those keys go back to the default, the
    rest stays; None when the space can read every value."""
    names = {p.name for p in space.parameters}
    foreign = {
        k: v for k, v in hints.items() if k in names and space.parameter(k).value_of(v) is None
    }
    if not foreign:
        return None
    listed = ", ".join(f"{k}={v}" for k, v in sorted(foreign.items()))
    return {
        "event": "repair",
        "old": dict(hints),
        "new": {k: v for k, v in hints.items() if k not in foreign},
        "reason": f"{listed} not among the values of space {space.name!r}: the default kept for "
        f"{'it' if len(foreign) == 1 else 'them'}",
    }
