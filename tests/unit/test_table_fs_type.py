"""A table's header names the file system it was measured on (fs_type), and every writer
keeps it: tune writes its knowledge base's, derive, the learner and a search winner's merge
keep the table's (issue 32). The interposer's side is tests/integration/test_table_fs_type.py;
both readers' verdicts on bad values are in the corpus (tests/data/tables/header-fs-type*)."""

import json
from pathlib import Path

import pytest

from iotuner.cli import main
from iotuner.errors import TableError
from iotuner.search import (
    OfflineObjective,
    OfflineTable,
    SearchSettings,
    merge_winner,
    run_search,
    winner_entries,
)
from iotuner.table import TableEntry, check_table, read_table, table_fs_type, write_table

DATA = Path(__file__).resolve().parents[1] / "data"
SAMPLE_LOG = DATA / "ior-20250101-120000-4242-0123456789ab.iotrace.jsonl"
ENTRY = TableEntry(at="open", hints={"romio_ds_write": "disable"})


def header(path: Path) -> dict[str, object]:
    return dict(json.loads(path.read_text().split("\n", 1)[0]))


def test_write_table_writes_the_file_system_into_the_header(tmp_path: Path) -> None:
    table = tmp_path / "t.jsonl"
    write_table(table, [ENTRY], fs_type="fuse.glusterfs")
    assert header(table) == {"format": "iotuner-table", "version": 1, "fs_type": "fuse.glusterfs"}
    assert check_table(table).fs_type == "fuse.glusterfs"
    assert read_table(table) == [ENTRY]
    # What the knowledge base records when it could not tell names none: applies everywhere.
    write_table(table, [ENTRY], fs_type="unknown")
    assert header(table) == {"format": "iotuner-table", "version": 1}
    assert table_fs_type(table) is None


def test_write_table_refuses_a_bad_file_system(tmp_path: Path) -> None:
    with pytest.raises(TableError, match=r"fs_type must be a file system type .* got 'Ext 4'"):
        write_table(tmp_path / "t.jsonl", [ENTRY], fs_type="Ext 4")
    assert not (tmp_path / "t.jsonl").exists()


def test_table_check_says_where_the_table_was_measured(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    table = tmp_path / "t.jsonl"
    write_table(table, [ENTRY], fs_type="lustre")
    assert main(["table", "check", str(table)]) == 0
    assert "measured on lustre: files on other file systems stay untuned" in capsys.readouterr().out


def test_derive_keeps_the_table_s_file_system(tmp_path: Path) -> None:
    table, out = tmp_path / "t.jsonl", tmp_path / "d.jsonl"
    write_table(table, [ENTRY], fs_type="lustre")
    assert main(["table", "derive", str(table), str(SAMPLE_LOG), "-o", str(out)]) == 0
    assert table_fs_type(out) == "lustre"


def test_a_search_winner_keeps_the_table_s_header_or_gives_a_new_one_its_own(
    tmp_path: Path,
) -> None:
    measured = tmp_path / "measured.csv"
    measured.write_text("romio_cb_write,bandwidth\nautomatic,100\ndisable,80\nenable,150\n")
    result = run_search(OfflineObjective(OfflineTable(measured)), SearchSettings("grid"))
    existing, new = tmp_path / "existing.jsonl", tmp_path / "new.jsonl"
    write_table(existing, [ENTRY], fs_type="lustre")
    merge_winner(existing, winner_entries(result, "iokernel", 2), fs_type="ext4")
    assert table_fs_type(existing) == "lustre"
    merge_winner(new, winner_entries(result, "iokernel", 2), fs_type="ext4")
    assert table_fs_type(new) == "ext4"
