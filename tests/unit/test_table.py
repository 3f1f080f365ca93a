"""iotuner.table: verdicts per line, the strict reader, writing, and the matching rule.

A line that breaks a LINE rule of formats/table_rules.def is dropped with that rule and the
rest of the table applies; a FILE rule refuses the whole table. check_table reports the
verdicts; read_table is the strict reader for tools that need every line. The line by line
comparison with the interposer's C reader is in test_table_readers_agree.py.
"""

import json
import os
from pathlib import Path

import pytest

from iotuner.errors import TableError
from iotuner.formats import table_fields, table_rules
from iotuner.table import (
    HEADER,
    TableEntry,
    check_table,
    match,
    merge_entries,
    read_table,
    specificity,
    table_problems,
    write_table,
)


def _table(tmp_path: Path, *entries: str, header: str = json.dumps(HEADER)) -> Path:
    path = tmp_path / "table.jsonl"
    path.write_text("\n".join([header, *entries]) + "\n")
    return path


def _dropped(tmp_path: Path, line: str) -> tuple[str, str]:
    """The (rule, message) of a table whose one entry line is `line`, which must be dropped."""
    checked = check_table(_table(tmp_path, line))
    assert checked.refused is None
    (verdict,) = checked.verdicts
    assert verdict.line == 2
    assert verdict.entry is None, f"{line} was accepted"
    assert verdict.rule is not None
    return verdict.rule, verdict.message


def test_reads_the_readme_example(sample_table: Path) -> None:
    entries = read_table(sample_table)
    assert [e.line for e in entries] == [3, 4, 6]
    assert entries[0] == TableEntry(
        at="open", nprocs=4, hints={"cb_nodes": "2", "cb_config_list": "*:*"}
    )
    assert entries[2].at == "access"  # the default
    assert entries[2].note == "predicted +20%"


# ----------------------------------------------------------------- line verdicts


@pytest.mark.parametrize(
    ("line", "rule", "message"),
    [
        (
            '{"group": "big", "hints": {}}',
            "field_value",
            "'group' must be an integer 1-56, got 'big'",
        ),
        ('{"group": 57, "hints": {}}', "field_value", "'group' must be an integer 1-56, got 57"),
        ('{"group": 0, "hints": {}}', "field_value", "'group' must be an integer 1-56, got 0"),
        ('{"group": 3.0, "hints": {}}', "field_value", "'group' must be an integer 1-56, got 3.0"),
        ('{"nprocs": 0, "hints": {}}', "field_value", "'nprocs' must be an integer 1-16777216"),
        ('{"nprocs": true, "hints": {}}', "field_value", "got true"),
        ('{"nprocs": 16777217, "hints": {}}', "field_value", "got 16777217"),
        (
            '{"at": "close", "hints": {}}',
            "field_value",
            "'at' must be one of open, access, view, got 'close'",
        ),
        (
            '{"op": "Write", "hints": {}}',
            "field_value",
            "'op' must be one of read, write, got 'Write'",
        ),
        (
            '{"pattern": null, "hints": {}}',
            "field_value",
            "one of collective, independent, got null",
        ),
        (
            '{"layout": "holes", "hints": {}}',
            "field_value",
            "one of contiguous, strided, got 'holes'",
        ),
        (
            '{"program": 7, "hints": {}}',
            "field_value",
            "'program' must be a string of at most 4096",
        ),
        ('{"note": ["x"], "hints": {}}', "field_value", "'note' must be a string"),
        ('{"hints": ["cb_nodes"]}', "field_value", "'hints' must be an object of MPI info keys"),
        (
            '{"colour": "red", "hints": {}}',
            "unknown_field",
            "unknown key 'colour' (expected at, prog",
        ),
        ('{"nprocs": 4}', "hints_missing", "'hints' is required"),
        (
            '{"at": "open", "op": "write", "hints": {}}',
            "open_with_access_field",
            "not known at open",
        ),
        (
            '{"at": "view", "group": 3, "hints": {}}',
            "open_with_access_field",
            "not known at set_view",
        ),
        (
            '{"pattern": "independent", "hints": {"romio_ds_write": "disable"}}',
            "unreachable",
            'give its hints in an "at": "open" or "view" entry',
        ),
        ('{"at": "view", "hints": {"cb_nodes": "2"}}', "hint_when", 'an "at": "open" entry'),
        (
            '{"hints": {"cb_nodez": "2"}}',
            "hint_unknown",
            "hint 'cb_nodez' is not in the hint vocab",
        ),
        ('{"hints": {"": "1"}}', "hint_unknown", "hint '' is not in the hint vocabulary"),
        ('{"hints": {"cb_buffer_size": 2.5}}', "hint_value", "must be a string or an integer"),
        ('{"hints": {"romio_cb_write": true}}', "hint_value", "must be a string or an integer"),
        (
            '{"hints": {"romio_cb_write": "on"}}',
            "hint_value",
            "hint romio_cb_write must be one of automatic|enable|disable, got 'on'",
        ),
        (
            '{"hints": {"cb_buffer_size": "4k"}}',
            "hint_value",
            "hint cb_buffer_size must be a byte count 65536-1073741824 (decimal digits only), "
            "got '4k'",
        ),
        ('{"hints": {"cb_buffer_size": 65535}}', "hint_value", "65536-1073741824"),
        ('{"hints": {"cb_buffer_size": "065536"}}', "hint_value", "got '065536'"),
        (
            '{"at": "open", "hints": {"striping_unit": "100000"}}',
            "hint_value",
            "and a multiple of 65536",
        ),
        ('{"hints": {"romio_cb_read": "enable "}}', "hint_value", "got 'enable '"),
        ('{"hints": {"cb_nodes": "2"}}', "hint_when", 'put it in an "at": "open" entry'),
        ('{"group": 3, "group": 4, "hints": {}}', "duplicate_key", "same key twice"),
        ('{"hints": {"cb_nodes": "1", "cb_nodes": "2"}}', "duplicate_key", "same key twice"),
        ('{"hints": {}', "json", "not valid JSON"),
        ('{"hints": {"romio_cb_write": NaN}}', "json", "not valid JSON"),
        ('{"note": "\\u0000", "hints": {}}', "json", "not valid JSON"),
        ('{"note": "\\ud800", "hints": {}}', "json", "not valid JSON"),
        (" # a comment must start the line", "json", "not valid JSON"),
        ('{"note": ' + "[" * 16 + "]" * 16 + ', "hints": {}}', "json", "nested deeper than 16"),
        ("[1, 2]", "not_object", "an entry must be a JSON object"),
        ('"hints"', "not_object", "an entry must be a JSON object"),
    ],
)
def test_a_bad_line_is_dropped_with_its_rule_and_what_was_expected(
    tmp_path: Path, line: str, rule: str, message: str
) -> None:
    assert _dropped(tmp_path, line)[0] == rule
    assert message in _dropped(tmp_path, line)[1]


def test_every_line_rule_is_tested_above() -> None:
    """The table above names every LINE rule but the two that need bytes (see below)."""
    named = {
        "field_value",
        "unknown_field",
        "hints_missing",
        "open_with_access_field",
        "unreachable",
        "hint_unknown",
        "hint_value",
        "hint_when",
        "duplicate_key",
        "json",
        "not_object",
    }
    line_rules = {r.name for r in table_rules() if r.scope == "LINE"}
    assert line_rules - named == {"encoding", "line_too_long"}


def test_bytes_that_are_not_utf8_and_over_long_lines(tmp_path: Path) -> None:
    path = tmp_path / "table.jsonl"
    long_note = "x" * 65536
    path.write_bytes(
        json.dumps(HEADER).encode()
        + b'\n{"note": "caf\xe9", "hints": {}}'
        + b'\n{"note": "caf\xc3\xa9", "hints": {}}'
        + f'\n{{"note": "{long_note}", "hints": {{}}}}\n'.encode()
    )
    checked = check_table(path)
    assert [(v.line, v.rule) for v in checked.verdicts] == [
        (2, "encoding"),
        (3, None),
        (4, "line_too_long"),
    ]
    assert checked.entries[0].note == "café"


def test_one_rule_per_line_the_first_in_the_readers_order(tmp_path: Path) -> None:
    """Each bad line gets exactly one verdict; the good lines around it still apply."""
    path = _table(
        tmp_path,
        '{"at": "open", "nprocs": 4, "hints": {"cb_nodes": "2"}}',
        '{"group": 0, "op": "x", "hints": {}}',  # field_value, once
        "",
        '{"nprocs": 4}',  # hints_missing
        '{"at": "open", "group": 3, "hints": {"bogus": "1"}}',  # open_with_access_field first
        '{"hints": {"cb_buffer_size": "1"}, "colour": 1}',  # unknown_field before any hint rule
        '{"nprocs": 8, "hints": {"romio_cb_read": "disable"}}',
    )
    checked = check_table(path)
    assert checked.refused is None
    assert [(v.line, v.rule) for v in checked.verdicts] == [
        (2, None),
        (3, "field_value"),
        (5, "hints_missing"),
        (6, "open_with_access_field"),
        (7, "unknown_field"),
        (8, None),
    ]
    assert [e.line for e in checked.entries] == [2, 8]
    assert [v.line for v in checked.dropped] == [3, 5, 6, 7]


def test_comments_and_blank_lines_hold_no_entry(tmp_path: Path) -> None:
    path = _table(tmp_path, "# a comment", "", " \t\r", "#{not json", '{"hints": {}}')
    checked = check_table(path)
    assert [(v.line, v.rule) for v in checked.verdicts] == [(6, None)]


def test_lines_end_at_newlines_only(tmp_path: Path) -> None:
    """U+2028, a form feed or a lone carriage return do not end a line (str.splitlines would
    split at each); a carriage return before the newline is white space."""
    path = tmp_path / "table.jsonl"
    path.write_bytes(
        json.dumps(HEADER).encode()
        + '\n{"note": "a\u2028b", "hints": {}}\r\n{"hints": {}}\x0c{"hints": {}}'.encode()
        + b'\n{"hints": {}}\r{"hints": {}}\n{"nprocs": 2, "hints": {}}\n'
    )
    checked = check_table(path)
    assert [(v.line, v.rule) for v in checked.verdicts] == [
        (2, None),
        (3, "json"),
        (4, "json"),
        (5, None),
    ]
    assert checked.entries[0].note == "a\u2028b"
    assert checked.entries[1].nprocs == 2


def test_hint_values_are_kept_as_mpi_receives_them(tmp_path: Path) -> None:
    path = _table(
        tmp_path,
        '{"at": "open", "hints": {"cb_nodes": 4, "striping_unit": "1048576", '
        '"start_iodevice": -0, "cb_config_list": "*:2"}}',
    )
    (entry,) = check_table(path).entries
    assert entry.hints == {
        "cb_nodes": 4,
        "striping_unit": "1048576",
        "start_iodevice": 0,
        "cb_config_list": "*:2",
    }
    (record,) = check_table(path).as_records()
    assert record["entry"]["hints"] == {
        "cb_nodes": "4",
        "striping_unit": "1048576",
        "start_iodevice": "0",
        "cb_config_list": "*:2",
    }


def test_as_records_has_the_c_checkers_shape(sample_table: Path, tmp_path: Path) -> None:
    records = check_table(sample_table).as_records()
    assert records[2] == {
        "line": 6,
        "verdict": "ok",
        "entry": {
            "at": "access",
            "nprocs": 4,
            "group": 35,
            "pattern": "collective",
            "op": "write",
            "hints": {"romio_cb_write": "enable"},
            "specificity": 5,
        },
    }
    dropped = check_table(_table(tmp_path, '{"nprocs": 4}')).as_records()
    assert dropped == [
        {
            "line": 2,
            "verdict": "dropped",
            "rule": "hints_missing",
            "message": "'hints' is required (an object of MPI info keys and values)",
        }
    ]


# ----------------------------------------------------------------- whole table


@pytest.mark.parametrize(
    ("header", "message"),
    [
        ('{"at": "open", "hints": {}}', 'line 1: expected the header {"format": "iotuner-table"'),
        ("# comment", "line 1: expected the header"),
        ("", "line 1: expected the header"),
        ('{"format": "iotuner-table", "version": 2}', "reads table version 1, got version 2"),
        ('{"format": "iotuner-table", "version": 1.0}', "reads table version 1, got version 1.0"),
        ('{"format": "iotuner-table", "version": true}', "line 1: expected the header"),
        ('{"format": "iotuner-table"}', "line 1: expected the header"),
        ('{"format": "iotuner-table", "version": 1, "x": 1}', "line 1: expected the header"),
        ('{"x": 1, "format": "iotuner-table", "version": 1}', "line 1: expected the header"),
        ('{"format": "iotuner-table", "version": 1, "version": 1}', "expected the header"),
    ],
)
def test_a_bad_header_refuses_the_table(tmp_path: Path, header: str, message: str) -> None:
    checked = check_table(_table(tmp_path, '{"hints": {}}', header=header))
    assert checked.refused is not None
    assert checked.refused[0] == "header"
    assert message in checked.refused[1]
    assert checked.verdicts == ()
    assert checked.as_records() == [
        {"verdict": "refused", "rule": "header", "message": checked.refused[1]}
    ]


def test_files_that_are_not_tables_are_refused(tmp_path: Path) -> None:
    empty = tmp_path / "empty.jsonl"
    empty.write_text("")
    assert check_table(empty).refused == (
        "header",
        'line 1: expected the header {"format": "iotuner-table", "version": 1}',
    )
    absent = check_table(tmp_path / "absent.jsonl").refused
    assert absent is not None and absent[0] == "unreadable" and "cannot read" in absent[1]
    assert check_table(tmp_path).refused == ("not_regular", f"{tmp_path} is not a regular file")
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    assert check_table(fifo).refused == ("not_regular", f"{fifo} is not a regular file")
    big = tmp_path / "big.jsonl"
    with big.open("wb") as out:
        out.truncate(4194305)
    too_large = check_table(big).refused
    assert too_large is not None and too_large[0] == "too_large"
    assert "4194305 bytes, more than the 4194304" in too_large[1]


def test_every_file_rule_is_tested_above() -> None:
    file_rules = {r.name for r in table_rules() if r.scope == "FILE"}
    assert file_rules == {"unreadable", "not_regular", "too_large", "header"}


# ----------------------------------------------------------------- read_table


def test_read_table_lists_every_dropped_line_with_its_rule(tmp_path: Path) -> None:
    path = _table(
        tmp_path,
        '{"hints": {}}',
        '{"group": 0, "op": "x", "hints": {}}',
        "",
        '{"nprocs": 4}',
        '{"hints": {"cb_nodes": "2"}}',
    )
    with pytest.raises(TableError) as raised:
        read_table(path)
    assert str(raised.value).splitlines() == [
        f"{path} line 3 (field_value): 'group' must be an integer 1-56, got 0",
        f"{path} line 5 (hints_missing): 'hints' is required (an object of MPI info keys and "
        "values)",
        f"{path} line 6 (hint_when): hint cb_nodes is only read when a file is opened: put it "
        'in an "at": "open" entry',
    ]


def test_read_table_names_the_rule_that_refused_the_table(tmp_path: Path) -> None:
    path = _table(tmp_path, header='{"format": "iotuner-table", "version": 2}')
    with pytest.raises(TableError) as raised:
        read_table(path)
    assert str(raised.value) == (
        f'{path}: refused (header): line 1: expected the header {{"format": "iotuner-table", '
        '"version": 1}: this interposer reads table version 1, got version 2'
    )
    with pytest.raises(TableError, match=r"absent.jsonl: refused \(unreadable\): cannot read"):
        read_table(tmp_path / "absent.jsonl")


# ----------------------------------------------------------------- writing


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


@pytest.mark.parametrize(
    ("entry", "message"),
    [
        (TableEntry(group=99), "entry 2: 'group' must be an integer 1-56, got 99"),
        (TableEntry(hints={"cb_nodes": "2"}), "entry 2: hint cb_nodes is only read when a file"),
        (TableEntry(hints={"colour": "red"}), "entry 2: hint 'colour' is not in the hint vocab"),
        (
            TableEntry(at="open", hints={"cb_buffer_size": "1024"}),
            "entry 2: hint cb_buffer_size must be a byte count 65536-1073741824",
        ),
        (TableEntry(at="open", op="write"), 'entry 2: an entry with "at": "open" cannot name'),
    ],
)
def test_write_table_refuses_an_invalid_entry(
    tmp_path: Path, entry: TableEntry, message: str
) -> None:
    path = _table(tmp_path)
    before = path.read_text()
    with pytest.raises(TableError, match=message):
        write_table(path, [TableEntry(), entry])
    assert path.read_text() == before
    assert os.listdir(tmp_path) == ["table.jsonl"]


def test_table_problems_gives_the_first_broken_rule() -> None:
    assert table_problems({"hints": {}}) == []
    assert table_problems({"nprocs": 0}) == ["'nprocs' must be an integer 1-16777216, got 0"]
    assert table_problems([]) == ["an entry must be a JSON object"]


def test_a_failed_write_keeps_the_old_table_and_no_temporary_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = _table(tmp_path)
    before = path.read_text()

    def fail(src: object, dst: object) -> None:
        raise OSError("disk full")

    monkeypatch.setattr(os, "replace", fail)
    with pytest.raises(OSError, match="disk full"):
        write_table(path, [TableEntry(at="open", hints={"cb_nodes": "2"})])
    assert os.listdir(tmp_path) == ["table.jsonl"]
    assert path.read_text() == before


# Matching (formats/README.md): program and file count 4, nprocs 2, group, pattern, op and
# layout 1; a tie goes to the earlier entry.

ACCESS = {"at": "access", "program": "ior", "file": "/scratch/out.dat", "nprocs": 4}
ACCESS_OP = {**ACCESS, "group": 35, "pattern": "collective", "op": "write", "layout": "contiguous"}


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


def test_the_weights_are_those_of_table_fields_def() -> None:
    weights = {f.name: f.weight for f in table_fields()}
    assert weights == {
        "at": 0,
        "program": 4,
        "file": 4,
        "nprocs": 2,
        "group": 1,
        "pattern": 1,
        "op": 1,
        "layout": 1,
        "hints": 0,
        "note": 0,
    }
    everything = TableEntry(
        program="ior",
        file="*.dat",
        nprocs=4,
        group=35,
        pattern="collective",
        op="write",
        layout="strided",
        hints={"romio_cb_write": "enable"},
        note="n",
    )
    assert specificity(everything) == 14
    assert specificity(TableEntry(at="open", hints={"cb_nodes": "2"}, note="n")) == 0


def test_the_weights_of_the_keys() -> None:
    program = TableEntry(program="ior")
    file = TableEntry(file="*.dat")
    nprocs_op = TableEntry(nprocs=4, pattern="collective", op="write")  # 2 + 1 + 1 = 4
    everything_else = TableEntry(
        nprocs=4, group=35, pattern="collective", op="write", layout="contiguous"
    )  # 6
    assert [specificity(e) for e in (program, file, nprocs_op, everything_else)] == [4, 4, 4, 6]
    assert match([program, everything_else], **ACCESS_OP) is everything_else
    assert match([everything_else, TableEntry(program="ior", file="*.dat")], **ACCESS_OP) == (
        TableEntry(program="ior", file="*.dat")
    )


def test_a_tie_goes_to_the_earlier_entry() -> None:
    program, file = TableEntry(program="ior"), TableEntry(file="*.dat")
    assert match([program, file], **ACCESS_OP) is program
    assert match([file, program], **ACCESS_OP) is file


def test_layout_must_match_when_the_entry_names_it() -> None:
    strided = TableEntry(layout="strided")
    assert match([strided], **ACCESS_OP) is None
    assert match([strided], **{**ACCESS_OP, "layout": "strided"}) is strided


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


def test_merging_entries_replaces_those_of_the_same_case() -> None:
    old_open = TableEntry(at="open", program="ior", nprocs=4, hints={"cb_nodes": 2})
    access = TableEntry(group=20, pattern="collective", op="write", hints={"cb_nodes": 1})
    twin = TableEntry(at="open", program="ior", nprocs=4, hints={"cb_nodes": 8}, note="older")
    other_scale = TableEntry(at="open", program="ior", nprocs=8, hints={"cb_nodes": 4})
    table = [old_open, access, twin, other_scale]
    new = TableEntry(at="open", program="ior", nprocs=4, hints={"cb_nodes": 3}, note="search")
    assert new.case == old_open.case != other_scale.case
    assert merge_entries(table, [new]) == [new, access, other_scale]
    fresh = TableEntry(at="open", program="wrf", hints={"striping_factor": 4})
    assert merge_entries(table, [fresh]) == [*table, fresh]
    assert merge_entries(table, [fresh, new], in_front=True) == [fresh, new, access, other_scale]
