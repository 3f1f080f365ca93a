"""Writing the program's entries: what the table gives the program now, the entry a chosen
configuration becomes, and the write (at open, view and collective access, as search
writes a winner)."""

from collections.abc import Collection
from pathlib import Path
from typing import Any

from iotuner.formats import hint_vocabulary
from iotuner.space import Space
from iotuner.table import TableEntry, merge_entries, read_table, write_table

__all__ = ["entry_for", "program_entries", "repair_event", "write_program"]

ACCESSES = (
    ("write", "contiguous"),
    ("write", "strided"),
    ("read", "contiguous"),
    ("read", "strided"),
)
"""The collective accesses the program's entries cover (as search's winner entries)."""


def program_entries(table: Path, program: str, nprocs: int) -> dict[str, str | int]:
    """The hints the table gives the program at open (its own entry), {} for none."""
    if not table.exists():
        return {}
    for entry in read_table(table):
        if entry.at == "open" and entry.program == program and entry.nprocs == nprocs:
            return dict(entry.hints)
    return {}


def write_program(table: Path, program: str, nprocs: int, hints: dict[str, str | int],
                  note: str) -> None:  # fmt: skip
    """The program's entries at every decision point (as search writes a winner), in front;
    {} removes them (the program gets the table's other entries again)."""
    existing = read_table(table) if table.exists() else []
    kept = [e for e in existing if not (e.program == program and e.nprocs == nprocs)]
    if not hints:
        write_table(table, kept)
        return
    vocabulary = hint_vocabulary()
    later = {k: v for k, v in hints.items() if k not in vocabulary or vocabulary[k].when != "OPEN"}
    entries = [TableEntry(at="open", program=program, nprocs=nprocs, hints=hints, note=note)]
    entries += [
        TableEntry(at="view", program=program, nprocs=nprocs, layout=layout, hints=later)
        for layout in ("contiguous", "strided")
    ]
    entries += [
        TableEntry(
            program=program, nprocs=nprocs, pattern="collective", op=op, layout=layout, hints=later
        )
        for op, layout in ACCESSES
    ]
    write_table(table, merge_entries(kept, entries, in_front=True))


def entry_for(
    space: Space,
    config: dict[str, Any],
    current: dict[str, str | int],
    in_force: dict[str, str],
    app_keys: Collection[str],
) -> dict[str, str | int]:
    """The program's entry that gives it `config`.

    Keys of `current` outside the space are not the space's to choose: the entry keeps
    them. The program's entries win over the table's generic ones, so a key those set (it
    is `in_force`) and the choice leaves at its default is written with the default's
    value, when the default is a value MPI takes: cb_nodes' "default" means "not set",
    which no entry can say. A key the program passes itself (`app_keys`) has the
    program's value as its default and is not written back to the space's: pio_noncontig
    sets its own cb_buffer_size, and an entry "back to the default" of 16 MiB made its
    writes 35 % slower than the program as it is.
    """
    names = {p.name for p in space.parameters}
    hints: dict[str, str | int] = {k: v for k, v in current.items() if k not in names}
    hints.update(space.hints(config))
    vocabulary = hint_vocabulary()
    for name in names - set(hints):
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
