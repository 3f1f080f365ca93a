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


def test_derive_keeps_only_the_keys_that_fit_every_access_of_the_file(
    sample_log: Path, tmp_path: Path
) -> None:
    """Issue 31: the open entry copied the dominant access's hints, and an open entry holds
    for every access to the file. A key that acts on the file's other accesses too (data
    sieving on its independent writes) is left out unless their own entry wants it."""
    text = sample_log.read_text()
    text = text.replace('"MPI_File_read_at", "bytes": 80', '"MPI_File_write_at", "bytes": 80')
    text = text.replace('"independent", "kind": "read"', '"independent", "kind": "write"')
    log = tmp_path / sample_log.name
    log.write_text(text)
    collective = {"romio_cb_write": "enable", "romio_ds_write": "disable"}
    table = [TableEntry(pattern="collective", op="write", group=35, hints=collective, line=1)]
    (out,) = [e for e in derive_open_entries(read_logs([log]), table) if e.file == "out.dat"]
    # romio_cb_write cannot act on independent writes; data sieving can, and nothing asks it.
    assert out.hints == {"romio_cb_write": "enable"}
    assert "left out" in (out.note or "") and "romio_ds_write" in (out.note or "")
    # With the original log (independent reads), data sieving for writes cannot act on them.
    (out,) = [e for e in derive_open_entries(read_logs([sample_log]), table) if e.file == "out.dat"]
    assert out.hints == collective


def test_coverage_says_why_independent_contiguous_access_has_no_entry() -> None:
    # tune writes no entry for independent contiguous access (only open keys act on it):
    # "no entry applies" read as a table that forgot the case (issue 41).
    from iotuner.history import Access, _coverage_of

    contiguous = Access("independent", "write", 11, "contiguous")
    text = _coverage_of([], "ior", "f.dat", 2, contiguous)
    assert (
        text
        == "independent contiguous access, which only open entries tune: none, the defaults stay"
    )
    strided = Access("independent", "write", 11, "strided")
    assert _coverage_of([], "ior", "f.dat", 2, strided) == "no entry applies, the defaults stay"


def test_coverage_gives_the_reason_of_an_open_entry_that_keeps_the_defaults() -> None:
    # tune writes an open entry with no hints where the open-only keys stay: the line says
    # that this entry applies and why, not that nothing does.
    from iotuner.history import Access, _coverage_of

    note = "open-only hints: the defaults stay at this scale; of 3 other assignments, ..."
    table = [TableEntry(at="open", nprocs=2, hints={}, note=note, line=1)]
    contiguous = Access("independent", "write", 11, "contiguous")
    text = _coverage_of(table, "ior", "f.dat", 2, contiguous)
    assert text == f"open entry: {note}: the defaults stay"
