"""Open-time entries derived from trace history."""

from pathlib import Path

from iotuner.history import derive_open_entries, file_pattern, merge_tables, read_logs
from iotuner.table import TableEntry


def test_file_pattern_generalises_step_numbers() -> None:
    assert file_pattern("/scratch/run/ckpt_0007.h5") == "ckpt_*.h5"
    assert file_pattern("out.dat") == "out.dat"
    assert file_pattern("t12_s3.bin") == "t*_s*.bin"


def test_derive_uses_the_dominant_access(sample_log: Path) -> None:
    logs = read_logs([sample_log])
    table = [
        TableEntry(at="open", nprocs=4, hints={"cb_nodes": "2"}, line=1),
        TableEntry(pattern="collective", op="write", group=35, hints={"romio_cb_write": "enable"},
                   line=2),
        TableEntry(at="view", layout="strided", hints={"romio_ds_write": "disable"}, line=3),
    ]  # fmt: skip
    derived = derive_open_entries(logs, table)
    by_file = {entry.file: entry for entry in derived}
    out = by_file["out.dat"]
    assert (out.at, out.program, out.nprocs) == ("open", "ior", 4)
    # The scale's open keys stay: the derived entry replaces the scale's entry whole.
    assert out.hints == {"cb_nodes": "2", "romio_cb_write": "enable"}
    assert "collective writes in size group 35" in (out.note or "")


def test_derive_skips_accesses_the_table_has_nothing_for(sample_log: Path) -> None:
    table = [TableEntry(pattern="collective", op="read", hints={"romio_cb_read": "enable"})]
    assert derive_open_entries(read_logs([sample_log]), table) == []


def test_read_logs_takes_directories(sample_log: Path) -> None:
    assert [log.path for log in read_logs([sample_log.parent])] == [sample_log]


def test_merge_replaces_older_entries_for_the_same_program_and_pattern() -> None:
    old = TableEntry(at="open", program="ior", file="out.dat", nprocs=4, hints={"cb_nodes": "1"})
    default = TableEntry(at="open", nprocs=4, hints={"cb_nodes": "2"})
    new = TableEntry(at="open", program="ior", file="out.dat", nprocs=4, hints={"cb_nodes": "4"})
    assert merge_tables([new], [old, default]) == [new, default]
