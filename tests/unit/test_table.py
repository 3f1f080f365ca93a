"""iotuner.table: validation messages, the matching rule and atomic writing."""

import json
import os
from pathlib import Path

import pytest

from iotuner.errors import TableError
from iotuner.table import HEADER, TableEntry, match, read_table, specificity, write_table


def _table(tmp_path: Path, *entries: str, header: str = json.dumps(HEADER)) -> Path:
    path = tmp_path / "table.jsonl"
    path.write_text("\n".join([header, *entries]) + "\n")
    return path


def _problems(path: Path) -> str:
    with pytest.raises(TableError) as info:
        read_table(path)
    return str(info.value)


def test_reads_the_readme_example(sample_table: Path) -> None:
    entries = read_table(sample_table)
    assert [e.line for e in entries] == [3, 4, 6]
    assert entries[0] == TableEntry(
        at="open", nprocs=4, hints={"cb_nodes": "2", "cb_config_list": "*:*"}
    )
    assert entries[2].at == "access"  # the default
    assert entries[2].note == "predicted +20%"


@pytest.mark.parametrize(
    ("line", "message"),
    [
        ('{"group": "big", "hints": {}}', "'group' must be an integer 1-56, got 'big'"),
        ('{"group": 57, "hints": {}}', "'group' must be an integer 1-56, got 57"),
        ('{"group": 3.0, "hints": {}}', "'group' must be an integer 1-56, got 3.0"),
        ('{"nprocs": 0, "hints": {}}', "'nprocs' must be an integer >= 1, got 0"),
        ('{"nprocs": true, "hints": {}}', "'nprocs' must be an integer >= 1, got true"),
        ('{"at": "close", "hints": {}}', "'at' must be one of open, access, got 'close'"),
        ('{"op": "Write", "hints": {}}', "'op' must be one of read, write, got 'Write'"),
        ('{"pattern": null, "hints": {}}', "'pattern' must be one of collective, independent"),
        ('{"program": 7, "hints": {}}', "'program' must be a string, got 7"),
        ('{"colour": "red", "hints": {}}', "unknown key 'colour' (expected one of at, program"),
        ('{"nprocs": 4}', "'hints' is required"),
        ('{"hints": ["cb_nodes"]}', "'hints' must be an object of MPI info keys and values"),
        ('{"hints": {"cb_nodes": 2.5}}', "hint 'cb_nodes' must be a string or an integer, got 2.5"),
        ('{"hints": {"cb_nodes": true}}', "hint 'cb_nodes' must be a string or an integer"),
        ('{"hints": {"": "1"}}', "hint keys must be strings of 1-255 characters, got ''"),
        ('{"hints": {"' + "k" * 256 + '": "1"}}', "hint keys must be strings of 1-255 characters"),
        ('{"group": 3, "group": 4, "hints": {}}', "key 'group' appears twice"),
        ('{"hints": {"a": "1", "a": "2"}}', "key 'a' appears twice"),
        ('{"hints": {}', "not valid JSON"),
        ("[1, 2]", "an entry must be a JSON object, got [1, 2]"),
        (" # a comment must start the line", "not valid JSON"),
    ],
)
def test_a_bad_line_is_named_with_what_was_expected(
    tmp_path: Path, line: str, message: str
) -> None:
    path = _table(tmp_path, '{"hints": {"cb_nodes": 2}}', line)
    problems = _problems(path)
    assert problems.startswith(f"{path} line 3: ")
    assert message in problems


def test_every_problem_is_reported(tmp_path: Path) -> None:
    path = _table(tmp_path, '{"group": 0, "op": "x", "hints": {}}', "", '{"nprocs": 4}')
    assert _problems(path).splitlines() == [
        f"{path} line 2: 'group' must be an integer 1-56, got 0",
        f"{path} line 2: 'op' must be one of read, write, got 'x'",
        f"{path} line 4: 'hints' is required (an object of MPI info keys and values)",
    ]


@pytest.mark.parametrize(
    ("header", "message"),
    [
        ('{"at": "open", "hints": {}}', 'line 1: expected the header {"format": "iotuner-table"'),
        ("# comment", "line 1: expected the header"),
        ('{"format": "iotuner-table", "version": 2}', "line 1: unsupported table version 2"),
        ('{"format": "iotuner-table"}', "line 1: unsupported table version null"),
        ('{"format": "iotuner-table", "version": 1, "x": 1}', "only 'format' and 'version'"),
    ],
)
def test_the_header_is_checked(tmp_path: Path, header: str, message: str) -> None:
    assert message in _problems(_table(tmp_path, header=header))


def test_an_empty_or_missing_file_is_an_error(tmp_path: Path) -> None:
    empty = tmp_path / "empty.jsonl"
    empty.write_text("")
    assert "empty file, expected the header" in _problems(empty)
    assert "cannot read" in _problems(tmp_path / "absent.jsonl")


def test_write_table_round_trips_and_leaves_no_temporary_file(
    tmp_path: Path, sample_table: Path
) -> None:
    entries = read_table(sample_table)
    path = tmp_path / "out.jsonl"
    write_table(path, entries)
    assert os.listdir(tmp_path) == ["out.jsonl"]
    assert read_table(path) == entries
    lines = path.read_text().splitlines()
    assert json.loads(lines[0]) == HEADER
    # Keys in table_fields.def order, absent ones left out, the default `at` written out.
    assert list(json.loads(lines[3])) == ["at", "nprocs", "group", "pattern", "op", "hints", "note"]


def test_write_table_refuses_an_invalid_entry(tmp_path: Path) -> None:
    path = _table(tmp_path)
    before = path.read_text()
    with pytest.raises(TableError, match="entry 2: 'group' must be an integer 1-56, got 99"):
        write_table(path, [TableEntry(), TableEntry(group=99)])
    assert path.read_text() == before


def test_a_failed_write_keeps_the_old_table_and_no_temporary_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = _table(tmp_path)
    before = path.read_text()

    def fail(src: object, dst: object) -> None:
        raise OSError("disk full")

    monkeypatch.setattr(os, "replace", fail)
    with pytest.raises(OSError, match="disk full"):
        write_table(path, [TableEntry(hints={"cb_nodes": "2"})])
    assert os.listdir(tmp_path) == ["table.jsonl"]
    assert path.read_text() == before


# Matching (formats/README.md): program and file count 4, nprocs 2, group, pattern, op 1;
# a tie goes to the earlier entry.

ACCESS = {"at": "access", "program": "ior", "file": "/scratch/out.dat", "nprocs": 4}
ACCESS_OP = {**ACCESS, "group": 35, "pattern": "collective", "op": "write"}


def test_no_entry_applies() -> None:
    assert match([TableEntry(nprocs=8)], **ACCESS_OP) is None
    assert match([], **ACCESS_OP) is None


def test_absent_keys_match_anything() -> None:
    default = TableEntry()
    assert match([default], **ACCESS_OP) is default


def test_the_decision_point_must_be_the_entrys() -> None:
    at_open, at_access = TableEntry(at="open", nprocs=4), TableEntry(nprocs=4)
    assert match([at_open, at_access], **ACCESS_OP) is at_access
    assert match([at_access, at_open], **{**ACCESS, "at": "open"}) is at_open


def test_the_most_specific_entry_wins_whatever_its_place() -> None:
    scale = TableEntry(nprocs=4)
    size = TableEntry(nprocs=4, group=35)
    assert match([scale, size], **ACCESS_OP) is size
    assert match([size, scale], **ACCESS_OP) is size


def test_the_weights_of_the_keys() -> None:
    program = TableEntry(program="ior")
    file = TableEntry(file="*.dat")
    nprocs_op = TableEntry(nprocs=4, pattern="collective", op="write")  # 2 + 1 + 1 = 4
    everything_else = TableEntry(nprocs=4, group=35, pattern="collective", op="write")  # 5
    assert [specificity(e) for e in (program, file, nprocs_op, everything_else)] == [4, 4, 4, 5]
    assert match([program, everything_else], **ACCESS_OP) is everything_else
    assert match([everything_else, TableEntry(program="ior", file="*.dat")], **ACCESS_OP) == (
        TableEntry(program="ior", file="*.dat")
    )


def test_a_tie_goes_to_the_earlier_entry() -> None:
    program, file = TableEntry(program="ior"), TableEntry(file="*.dat")
    assert match([program, file], **ACCESS_OP) is program
    assert match([file, program], **ACCESS_OP) is file


def test_globs_on_program_and_file() -> None:
    at_open = {"at": "open", "nprocs": 4}
    restart = TableEntry(at="open", program="ls1-*", file="*.restart.mpio")
    cases = [
        ("/opt/bin/ls1-mardyn", "/scratch/run/x.restart.mpio", True),  # paths: base names
        ("ls1-mardyn", "x.restart.mpio", True),
        ("ior", "x.restart.mpio", False),
        ("ls1-mardyn", "x.restart.mpio.bak", False),
        ("LS1-mardyn", "x.restart.mpio", False),  # case matters, as in fnmatch(3)
    ]
    for program, file, applies in cases:
        found = match([restart], **at_open, program=program, file=file)
        assert (found is restart) == applies, (program, file)


def test_a_file_glob_with_a_slash_is_matched_against_the_whole_name() -> None:
    under = TableEntry(file="/scratch/*")
    relative = TableEntry(file="run/*.dat")
    assert match([under], **{**ACCESS_OP, "file": "/scratch/run/out.dat"}) is under
    assert match([under], **{**ACCESS_OP, "file": "out.dat"}) is None
    assert match([relative], **{**ACCESS_OP, "file": "/scratch/run/out.dat"}) is None
    assert match([relative], **{**ACCESS_OP, "file": "run/out.dat"}) is relative


def test_keys_unknown_at_the_decision_point_match_no_entry_that_has_them() -> None:
    sized = TableEntry(at="open", group=35)
    assert match([sized], at="open", program="ior", file="f", nprocs=4) is None
