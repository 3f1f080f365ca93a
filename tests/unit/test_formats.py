"""iotuner.formats: the .def files are found, parsed and checked."""

import itertools
import re
import shutil
from collections.abc import Callable
from dataclasses import fields
from pathlib import Path

import pytest

from iotuner import formats
from iotuner.errors import FormatError
from iotuner.table import TableEntry


def test_there_are_56_contiguous_groups() -> None:
    groups = formats.size_groups()
    assert len(groups) == formats.NUM_SIZE_GROUPS == 56
    assert [g.number for g in groups] == list(range(1, 57))
    assert groups[0].first == 0
    assert all(a.end == b.first for a, b in itertools.pairwise(groups))
    assert groups[-1].end is None


@pytest.mark.parametrize(
    ("nbytes", "group"),
    [
        (20, 1),  # thesis Table 6.6: 3-20 B per rank were logged as group 1
        (1_607_876, 35),  # thesis Table 6.6
        (204_800_000, 56),  # above 195.31 MiB: the last group
        (0, 1),
        (255, 1),
        (256, 2),
        (1023, 7),
        (1024, 8),
        (102_399, 25),
        (102_400, 26),
        (102_399_999, 52),
        (102_400_000, 53),
        (204_799_999, 55),
        (10**15, 56),
    ],
)
def test_size_group(nbytes: int, group: int) -> None:
    assert formats.size_group(nbytes) == group


def test_size_group_of_every_boundary() -> None:
    for g in formats.size_groups():
        assert formats.size_group(g.first) == g.number
        if g.end is not None:
            assert formats.size_group(g.end - 1) == g.number


def test_size_group_refuses_negative_counts() -> None:
    with pytest.raises(ValueError, match="must be >= 0, got -1"):
        formats.size_group(-1)


def test_op_fields_start_with_the_thesis_columns() -> None:
    names = [f.name for f in formats.op_fields()]
    assert names[:6] == ["group", "time_stamp", "operation", "bytes", "duration", "bandwidth"]
    assert "hint_set" in names
    assert {f.type for f in formats.op_fields()} <= {"INT", "REAL", "TEXT"}


def test_table_fields_keep_commas_and_parentheses_of_strings() -> None:
    at = next(f for f in formats.table_fields() if f.name == "at")
    assert at.choices == ("open", "access", "view")
    assert at.description.startswith("decision point: open (hints read at open: cb_nodes, ")
    group = next(f for f in formats.table_fields() if f.name == "group")
    assert group.int_range == (1, 56)
    nprocs = next(f for f in formats.table_fields() if f.name == "nprocs")
    assert nprocs.int_range == (1, 16777216)


def test_table_entry_has_the_keys_of_table_fields_def() -> None:
    """TableEntry mirrors table_fields.def by hand: this keeps the two from drifting."""
    entry_fields = [f.name for f in fields(TableEntry) if f.name != "line"]
    assert entry_fields == [f.name for f in formats.table_fields()]


def _groups_def(tmp_path: Path, lines: list[str]) -> Path:
    path = tmp_path / "size_groups.def"
    path.write_text("/* test */\n" + "\n".join(lines) + "\n")
    return path


def _good_lines() -> list[str]:
    return [
        f"IOT_SIZE_GROUP({g.number}, {g.first}, {-1 if g.end is None else g.end})"
        for g in formats.size_groups()
    ]


def test_parse_size_groups_accepts_the_real_list(tmp_path: Path) -> None:
    assert formats.parse_size_groups(_groups_def(tmp_path, _good_lines())) == (
        formats.size_groups()
    )


@pytest.mark.parametrize(
    ("edit", "message"),
    [
        (lambda ls: ls[:-1], "expected 56 groups, got 55"),
        (lambda ls: [*ls[:-1], "IOT_SIZE_GROUP(56, 204800000, 300000000)"], "open-ended"),
        (lambda ls: [ls[0], ls[2], *ls[3:]], "line 3: expected group 2, got group 3"),
        (lambda ls: [ls[0], "IOT_SIZE_GROUP(2, 300, 384)", *ls[2:]], "must start at 256"),
        (lambda ls: [ls[0], "IOT_SIZE_GROUP(2, 256, 200)", *ls[2:]], "must end after 256"),
        (lambda ls: [*ls[:10], "IOT_SIZE_GROUP(11, 4096, -1)", *ls[11:]], "open-ended group"),
        (lambda ls: ["#define X 1", *ls], "line 2: expected IOT_SIZE_GROUP(...)"),
        (lambda ls: ["IOT_SIZE_GROUP(1, 0)", *ls[1:]], "takes 3 arguments"),
        (lambda ls: ["IOT_SIZE_GROUP(1, zero, 256)", *ls[1:]], "must be an integer, got zero"),
    ],
)
def test_parse_size_groups_says_what_is_wrong(
    tmp_path: Path, edit: Callable[[list[str]], list[str]], message: str
) -> None:
    with pytest.raises(FormatError, match=re.escape(message)):
        formats.parse_size_groups(_groups_def(tmp_path, edit(_good_lines())))


def test_parse_table_fields_checks_types_and_ranges(tmp_path: Path) -> None:
    path = tmp_path / "table_fields.def"
    path.write_text('IOT_TABLE_FIELD(x, FLOAT, "", 0, "d")\n')
    with pytest.raises(FormatError, match=r"type of 'x' must be one of .*, got FLOAT"):
        formats.parse_table_fields(path)
    path.write_text('IOT_TABLE_FIELD(x, INT, "many", 0, "d")\n')
    with pytest.raises(FormatError, match='needs a range like "1-" or "1-56", got "many"'):
        formats.parse_table_fields(path)
    path.write_text('IOT_TABLE_FIELD(x, TEXT, "", 0, "a")\nIOT_TABLE_FIELD(x, TEXT, "", 0, "b")\n')
    with pytest.raises(FormatError, match="'x' is defined twice"):
        formats.parse_table_fields(path)


def test_formats_dir_follows_the_environment(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    for name in formats._DEF_FILES:
        shutil.copy(formats.formats_dir() / name, tmp_path / name)
    monkeypatch.setenv("IOTUNER_FORMATS_DIR", str(tmp_path))
    assert formats.formats_dir() == tmp_path
    (tmp_path / "table_fields.def").unlink()
    with pytest.raises(FormatError, match="not found; looked in"):
        formats.formats_dir()


def test_hint_vocabulary_is_read_whole() -> None:
    vocabulary = formats.hint_vocabulary()
    cb_buffer_size = vocabulary["cb_buffer_size"]
    assert (cb_buffer_size.type, cb_buffer_size.when) == ("SIZE", "LOWER")
    assert cb_buffer_size.range == (65536, 1073741824)
    assert cb_buffer_size.problem("16777216") is None
    assert "decimal digits only" in (cb_buffer_size.problem(" 4096") or "")
    assert vocabulary["striping_unit"].problem("65537") is not None  # not a multiple of 64 KiB
    assert vocabulary["romio_no_indep_rw"].choices == ("false",)
    assert vocabulary["cb_nodes"].when == "OPEN"
    assert [r.name for r in formats.table_rules()][:4] == [
        "unreadable",
        "not_regular",
        "too_large",
        "header",
    ]
    assert formats.limits()["JSON_MAX_DEPTH"] == 16


def test_parse_hints_refuses_what_the_readers_cannot_apply(tmp_path: Path) -> None:
    path = tmp_path / "hints.def"
    path.write_text('IOT_HINT(k, SIZE, "many", 1, ANY, "romio", "d", COLL_WRITE)\n')
    with pytest.raises(FormatError, match="needs a range"):
        formats.parse_hints(path)
    path.write_text('IOT_HINT(k, ENUM, "a|b", 1, SOMETIMES, "romio", "d", COLL_WRITE)\n')
    with pytest.raises(FormatError, match="SOMETIMES"):
        formats.parse_hints(path)


def test_acting_hints_keeps_the_keys_that_can_act_on_the_workload() -> None:
    """hints.def's ops and when, and hint_scale.def's aggregators (issue 31, item 1)."""
    hints = {
        "romio_cb_write": "enable",
        "romio_cb_read": "enable",
        "romio_ds_read": "disable",
        "cb_nodes": "2",
        "striping_factor": "4",
        "not_a_known_key": "x",
    }
    one_host = {"nprocs": 2, "nodes": 1}
    write = formats.acting_hints(hints, pattern="collective", op="write", **one_host)
    # cb_nodes=2 with one aggregator per host (the default *:1) on one host: one aggregator.
    assert write == {"romio_cb_write": "enable", "striping_factor": "4", "not_a_known_key": "x"}
    read = formats.acting_hints(hints, pattern="independent", op="read", **one_host)
    assert read == {"romio_ds_read": "disable", "not_a_known_key": "x"}
    # At access, a key read at open only acts no more.
    at_access = formats.acting_hints(
        hints, pattern="collective", op="write", phase="access", nprocs=4, nodes=4
    )
    assert "cb_nodes" not in at_access and "striping_factor" not in at_access
    # Two aggregators per host allowed: cb_nodes=2 is two aggregators, both keys act.
    spread = {"cb_nodes": "2", "cb_config_list": "*:*"}
    assert formats.acting_hints(spread, pattern="collective", op="write", **one_host) == spread
    # cb_nodes equal to the hosts, and *:* alone on one host, are the default.
    for given, scale in (
        ({"cb_nodes": "4"}, {"nprocs": 8, "nodes": 4}),
        ({"cb_config_list": "*:*"}, one_host),
        ({"cb_nodes": "4", "cb_config_list": "*:*"}, {"nprocs": 1, "nodes": 1}),
    ):
        assert formats.acting_hints(given, pattern="collective", op="write", **scale) == {}
    assert formats.hint_quantities(
        {"cb_nodes": "4", "cb_config_list": "*:*"}, nprocs=2, nodes=1
    ) == {"AGGREGATORS": 2}
    with pytest.raises(ValueError, match="a phase must be one of open, view, access"):
        formats.acting_hints(hints, pattern="collective", op="write", phase="close", **one_host)


def test_every_key_says_where_it_acts() -> None:
    vocabulary = formats.hint_vocabulary()
    assert vocabulary["cb_nodes"].phases == ("open",)
    assert vocabulary["cb_buffer_size"].phases == ("open", "view", "access")
    assert {row.key for row in formats.hint_scale()} <= set(vocabulary)


@pytest.mark.parametrize(
    ("line", "problem"),
    [
        (
            'IOT_HINT_SCALE(no_such_key, AGGREGATORS, "VALUE", "HOSTS", "")',
            "not a key of hints.def",
        ),
        ('IOT_HINT_SCALE(cb_nodes, AGGREGATORS, "VALUE+1", "HOSTS", "")', "got 'VALUE+1'"),
        ('IOT_HINT_SCALE(cb_nodes, AGGREGATORS, "VALUE", "HOSTS")', "takes 5 arguments"),
    ],
)
def test_parse_hint_scale_says_what_is_wrong(tmp_path: Path, line: str, problem: str) -> None:
    path = tmp_path / "hint_scale.def"
    path.write_text(line + "\n")
    with pytest.raises(FormatError, match=re.escape(problem)):
        formats.parse_hint_scale(path)


def test_a_wheel_carries_every_definition_file() -> None:
    """An installed iotuner reads the .def files from iotuner/_formats/ (formats_dir): the
    wheel must carry each one (ompio_map.def and ompio_job.def were once left out)."""
    import tomllib

    pyproject = Path(__file__).resolve().parents[2] / "pyproject.toml"
    carried = tomllib.loads(pyproject.read_text())["tool"]["hatch"]["build"]["targets"]["wheel"][
        "force-include"
    ]
    for name in formats._DEF_FILES:
        assert carried.get(f"formats/{name}") == f"iotuner/_formats/{name}", name
