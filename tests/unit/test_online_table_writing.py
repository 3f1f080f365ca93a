"""The learner's writes to the table (iotuner.online.table_writing): a rollback puts back
the entries that were in force before the change, not the old hints in every entry."""

from pathlib import Path

from iotuner.measurement import Workload
from iotuner.online.table_writing import Scope, restore_entries, scope_lines, write_entries
from iotuner.table import TableEntry, match, read_table, write_table

READ = Workload(nprocs=2, nodes=1, pattern="collective", op="read", layout="strided",
                bytes_per_rank=32 << 20, block=32768, fill=0.5)  # fmt: skip
GENERIC_READ = TableEntry(nprocs=2, group=READ.group, pattern="collective", op="read",
                          layout="strided", hints={"romio_cb_read": "disable"})  # fmt: skip
DERIVED = TableEntry(at="open", program="ior", file="view-*.dat", nprocs=2,
                     hints={"romio_ds_write": "disable"})  # fmt: skip


def _at_access(table: Path) -> dict[str, str | int]:
    found = match(read_table(table), at="access", program="ior", file="view-1.dat", nprocs=2,
                  group=READ.group, pattern="collective", op="read", layout="strided")  # fmt: skip
    return dict(found.hints) if found is not None else {}


def test_a_rollback_puts_back_what_was_in_force(tmp_path: Path) -> None:
    """Seen in bench/real_programs.py: after a rollback, IOR's strided-view reads ran
    without the table's romio_cb_read=disable (the old open entry's hints had been written
    into the program's access entry too) and fell to 0.4-0.5 of the best."""
    table = tmp_path / "table.jsonl"
    write_table(table, [DERIVED, GENERIC_READ])
    scope = Scope(program="ior", file="view-*.dat", nprocs=2, workload=READ)
    before = read_table(table)
    lines = scope_lines(table, scope)
    assert lines == [DERIVED.to_json()]
    write_entries(table, scope, {"romio_cb_read": "enable"}, "a try")
    assert _at_access(table) == {"romio_cb_read": "enable"}
    assert restore_entries(table, scope, lines)
    assert _at_access(table) == {"romio_cb_read": "disable"}
    assert sorted(map(str, read_table(table))) == sorted(map(str, before))
    # What the rollback wrote before: the old hints into every entry of the scope, which
    # hid the generic access entry.
    write_entries(table, scope, dict(DERIVED.hints), "old rollback")
    assert _at_access(table) == {"romio_ds_write": "disable"}
    # A history line that is no table entry restores nothing.
    assert not restore_entries(table, scope, [{"at": "sometimes"}])
