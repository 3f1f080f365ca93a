"""Where and when the interposer decides (formats/README.md, "Decision points"), seen through
programs/steps, which places each collective access, independent access, set_view and
set_info where a test wants it; the trace's op records say which hints were in force at
every collective call."""

import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from iotuner.formats import size_group
from iotuner.summary import summarize
from iotuner.tracelog import TraceLog

from .conftest import Mpi, one_log, warnings_in, write_table

SMALL, LARGE = 4096, 65536


def hint_sets_of_collective_calls(log: TraceLog) -> list[int]:
    return [
        op["hint_set"]
        for op in log.ops
        if op["pattern"] == "collective" and op["operation"] != "MPI_File_open"
    ]


def hints_record(log: TraceLog, seq: int) -> dict[str, object]:
    return next(h for h in log.hints if h["seq"] == seq)


def size_tables(tmp_path: Path, *extra: dict[str, object]) -> Path:
    return write_table(
        tmp_path / "table.jsonl",
        {"group": size_group(SMALL), "hints": {"romio_cb_write": "disable"}},
        {"group": size_group(LARGE), "hints": {"romio_cb_write": "enable"}},
        *extra,
    )


def test_collective_decisions_follow_the_call_count_schedule(mpi: Mpi, tmp_path: Path) -> None:
    """Decisions at the 1st, 2nd, 4th, 8th ... collective call: the size change at call 6
    takes effect at call 8, and a set_view starts the count again."""
    table = size_tables(tmp_path)
    steps = [f"coll={SMALL}x5", f"coll={LARGE}x10", "view=contiguous", f"coll={SMALL}x2"]
    log = one_log(
        mpi.run(
            2,
            "steps",
            str(tmp_path / "data"),
            *steps,
            mode="tune,trace",
            table=table,
            call_rows=True,
        )
    )
    sets = hint_sets_of_collective_calls(log)
    assert len(sets) == 17
    small, large = sets[0], sets[7]
    assert hints_record(log, small)["table"] == {"romio_cb_write": "disable"}
    assert hints_record(log, large)["table"] == {"romio_cb_write": "enable"}
    assert sets[:7] == [small] * 7  # calls 6 and 7 are large but run on the small choice
    assert sets[7:15] == [large] * 8
    after_view = hints_record(log, sets[15])
    assert after_view["at"] == "access" and after_view["table"] == {"romio_cb_write": "disable"}
    assert after_view["effective"]["romio_cb_write"] == "disable"


def test_a_table_without_access_entries_makes_no_access_decision(mpi: Mpi, tmp_path: Path) -> None:
    table = write_table(
        tmp_path / "table.jsonl", {"at": "open", "hints": {"romio_cb_write": "disable"}}
    )
    log = one_log(
        mpi.run(
            2, "steps", str(tmp_path / "data"), f"coll={SMALL}x4", mode="tune,trace", table=table
        )
    )
    assert [h["at"] for h in log.hints] == ["open"]
    assert log.no_entries == []  # no access entries: nothing was looked for
    assert log.hints[0]["effective"]["romio_cb_write"] == "disable"


def test_view_entries_tune_independent_access_by_layout(mpi: Mpi, tmp_path: Path) -> None:
    """(At 2 ranks: at 1, steps' interleaved view has no holes, so it is contiguous.)"""
    table = write_table(
        tmp_path / "table.jsonl",
        {"at": "view", "layout": "strided", "hints": {"romio_ds_write": "disable"}},
        {"at": "view", "layout": "contiguous", "hints": {"ind_wr_buffer_size": "1048576"}},
    )
    steps = ["view=strided", f"ind={SMALL}x3", "view=contiguous", f"ind={SMALL}x2"]
    log = one_log(
        mpi.run(2, "steps", str(tmp_path / "data"), *steps, mode="tune,trace", table=table)
    )
    views = [h for h in log.hints if h["at"] == "set_view"]
    assert [v["table"] for v in views] == [
        {"romio_ds_write": "disable"},
        # The strided entry's key goes back to its value before iotuner set it.
        {"ind_wr_buffer_size": "1048576", "romio_ds_write": "automatic"},
    ]
    assert views[0]["effective"]["romio_ds_write"] == "disable"
    assert views[1]["effective"]["romio_ds_write"] == "automatic"
    assert views[1]["effective"]["ind_wr_buffer_size"] == "1048576"
    independent = [op for op in log.ops if op["pattern"] == "independent"]
    assert independent and all(op["hint_set"] >= 0 for op in independent)


def test_an_access_entry_gives_way_to_the_view_entry_not_to_the_default(
    mpi: Mpi, tmp_path: Path
) -> None:
    """Keys an access entry set and the next decision does not name go back to what the
    view entry set, not to the library's default."""
    table = write_table(
        tmp_path / "table.jsonl",
        {"at": "view", "layout": "strided", "hints": {"romio_cb_write": "disable"}},
        {"group": size_group(SMALL), "hints": {"romio_cb_write": "enable"}},
    )
    steps = ["view=strided", f"coll={SMALL}x1", f"coll={LARGE}x1"]
    log = one_log(
        mpi.run(2, "steps", str(tmp_path / "data"), *steps, mode="tune,trace", table=table)
    )
    sets = hint_sets_of_collective_calls(log)
    assert hints_record(log, sets[0])["effective"]["romio_cb_write"] == "enable"
    second = hints_record(log, sets[1])
    assert second["at"] == "access" and second["requested"] == {"romio_cb_write": "disable"}
    assert second["effective"]["romio_cb_write"] == "disable"


def test_a_view_entry_never_raises_a_buffer_sized_at_open(mpi: Mpi, tmp_path: Path) -> None:
    table = write_table(
        tmp_path / "table.jsonl",
        {"at": "view", "layout": "strided", "hints": {"cb_buffer_size": str(1 << 30)}},
    )
    log = one_log(
        mpi.run(
            2,
            "steps",
            str(tmp_path / "data"),
            "view=strided",
            f"coll={SMALL}x2",
            mode="tune,trace",
            table=table,
        )
    )
    view = next(h for h in log.hints if h["at"] == "set_view")
    assert view["requested"] == {}
    assert [u["key"] for u in view["unhonoured"]] == ["cb_buffer_size"]
    assert view["effective"]["cb_buffer_size"] == log.hints[0]["effective"]["cb_buffer_size"]


def test_a_table_changing_every_size_key_after_open_keeps_the_bytes(
    mpi: Mpi, tmp_path: Path
) -> None:
    """The open entry sets every buffer-size key; the access entries change each of them:
    the write's raise of the collective buffer is held (it was sized at open), its lower
    ones apply, and the file and the verified read-back are those of a plain run."""
    table = write_table(
        tmp_path / "table.jsonl",
        {
            "at": "open",
            "hints": {
                "cb_buffer_size": "4194304",
                "ind_wr_buffer_size": "1048576",
                "ind_rd_buffer_size": "8388608",
                "romio_lustre_coll_threshold": "0",
            },
        },
        {
            "op": "write",
            "hints": {
                "cb_buffer_size": "16777216",
                "ind_wr_buffer_size": "65536",
                "romio_lustre_coll_threshold": "65536",
            },
        },
        {"op": "read", "hints": {"cb_buffer_size": "1048576", "ind_rd_buffer_size": "131072"}},
    )
    kernel = ("--layout", "strided", "--block", "16k", "--fill", "0.5", "--size", "1m")
    kernel += ("--repeat", "3")
    plain, tuned = tmp_path / "plain.dat", tmp_path / "tuned.dat"
    mpi.run_plain(2, "iokernel", "--file", str(plain), *kernel)
    log = one_log(
        mpi.run(2, "iokernel", "--file", str(tuned), *kernel, mode="tune,trace", table=table)
    )
    assert tuned.read_bytes() == plain.read_bytes()
    read = mpi.run(
        2, "iokernel", "--file", str(tuned), "--op", "read", *kernel, mode="tune,trace", table=table
    )
    assert warnings_in(read.stderr) == []
    write_access = next(h for h in log.hints if h["at"] == "access")
    assert "cb_buffer_size" in [u["key"] for u in write_access["unhonoured"]]
    assert write_access["effective"]["cb_buffer_size"] == "4194304"
    assert write_access["effective"]["ind_wr_buffer_size"] == "65536"
    read_access = next(h for h in one_log(read).hints if h["at"] == "access")
    assert read_access["effective"]["cb_buffer_size"] == "1048576"
    assert read_access["effective"]["ind_rd_buffer_size"] == "131072"


def test_sizes_without_an_entry_are_named_in_the_trace(mpi: Mpi, tmp_path: Path) -> None:
    table = write_table(
        tmp_path / "table.jsonl",
        {"group": size_group(LARGE), "hints": {"romio_cb_write": "enable"}},
    )
    steps = [f"coll={SMALL}x3", f"coll={LARGE}x2", "view=strided", f"coll={SMALL}x2"]
    log = one_log(
        mpi.run(2, "steps", str(tmp_path / "data"), *steps, mode="tune,trace", table=table)
    )
    assert [(n["group"], n["op"], n["layout"]) for n in log.no_entries] == [
        (size_group(SMALL), "write", "contiguous"),  # once, although decided twice
        (size_group(SMALL), "write", "strided"),
    ]
    assert all(n["nprocs"] == 2 and n["pattern"] == "collective" for n in log.no_entries)
    (data,) = summarize(log).files  # what `iotuner show` prints
    assert data.untuned == [
        f"write contiguous, size group {size_group(SMALL)} (4096-5120 bytes per rank)",
        f"write strided, size group {size_group(SMALL)} (4096-5120 bytes per rank)",
    ]


def test_an_access_entry_for_independent_access_is_dropped_as_unreachable(
    mpi: Mpi, tmp_path: Path
) -> None:
    table = write_table(
        tmp_path / "table.jsonl",
        {"pattern": "independent", "hints": {"romio_ds_write": "disable"}},
        {"at": "view", "layout": "strided", "hints": {"romio_ds_write": "disable"}},
    )
    result = mpi.run(
        2,
        "steps",
        str(tmp_path / "data"),
        "view=strided",
        f"ind={SMALL}x2",
        mode="tune,trace",
        table=table,
    )
    (warning,) = warnings_in(result.stderr)
    assert "line 2" in warning and "unreachable" in warning
    view = next(h for h in one_log(result).hints if h["at"] == "set_view")
    assert view["effective"]["romio_ds_write"] == "disable"  # the rest of the table applies


STEPS = [
    f"coll={SMALL}x5",
    f"ind={SMALL}x2",
    "view=strided",
    f"ind={SMALL}x3",
    f"coll={LARGE}x3",
    "info=romio_cb_write:automatic",
    f"coll={SMALL}x2",
    "view=contiguous",
    f"coll={LARGE}x2",
]


@pytest.mark.never_harm
@pytest.mark.parametrize("nprocs", [1, 2])
@pytest.mark.parametrize("mode", ["tune", "tune,trace"])
def test_every_decision_point_writes_the_same_bytes(
    mpi: Mpi, tmp_path: Path, nprocs: int, mode: str
) -> None:
    table = size_tables(
        tmp_path,
        {"at": "open", "hints": {"cb_nodes": "1", "romio_ds_write": "enable"}},
        {"at": "view", "layout": "strided", "hints": {"romio_ds_write": "disable"}},
        {"at": "view", "layout": "contiguous", "hints": {"ind_wr_buffer_size": "65536"}},
    )
    reference, produced = tmp_path / "reference", tmp_path / "produced"
    plain = mpi.run_plain(nprocs, "steps", str(reference), *STEPS)
    tuned = mpi.run(nprocs, "steps", str(produced), *STEPS, mode=mode, table=table)
    assert plain.stdout == tuned.stdout == "steps: ok 17\n"
    assert warnings_in(tuned.stderr) == []
    assert produced.read_bytes() == reference.read_bytes()
    # Every byte is written (steps fills the file), each with its value.
    offsets = np.arange(reference.stat().st_size, dtype=np.uint64)
    expected = ((offsets * np.uint64(131) + np.uint64(7)) ^ (offsets >> np.uint64(9))) & 0xFF
    assert np.array_equal(np.frombuffer(produced.read_bytes(), dtype=np.uint8), expected)


def test_show_says_which_entry_applied_and_why_the_defaults_stayed(
    mpi: Mpi, tmp_path: Path
) -> None:
    """`iotuner show` on a tuned run: per file and size group, the entry that applied with
    its note, the entry that kept the defaults with its reason, and a case with no entry."""
    from iotuner.decisions import table_decisions

    table = write_table(
        tmp_path / "table.jsonl",
        {
            "group": size_group(SMALL),
            "hints": {"romio_cb_write": "disable"},
            "note": "measured gain +80%",
        },
        {"group": size_group(LARGE), "hints": {}, "note": "no evidence beyond the noise"},
    )
    # A set_view starts the decision schedule again: each size is decided at its first call.
    steps = [f"coll={SMALL}x2", "view=contiguous", f"coll={LARGE}x2", "view=contiguous"]
    steps.append(f"coll={1 << 20}x2")
    result = mpi.run(2, "steps", str(tmp_path / "data"), *steps, mode="tune,trace", table=table)
    decisions, note = table_decisions(one_log(result))
    assert note == f"table {table}"
    by_group = {d.group: d for d in decisions if d.at == "access"}
    small, large, huge = (by_group[size_group(s)] for s in (SMALL, LARGE, 1 << 20))
    assert small.applied == {"romio_cb_write": "disable"} and small.why == "measured gain +80%"
    assert large.applied == {} and large.why.startswith("the entry keeps the defaults")
    assert "no evidence beyond the noise" in large.why
    assert huge.entry is None and huge.why.startswith("no entry for this case")
    shown = subprocess.run(
        [str(Path(sys.executable).parent / "iotuner"), "show", str(result.logs[0])],
        capture_output=True,
        text=True,
        check=True,
        env={**os.environ, "COLUMNS": "200"},
    ).stdout
    assert "what the table decided" in shown
    assert f"group {size_group(SMALL)}, collective, write" in shown
    assert "applied romio_cb_write=disable; measured gain +80%" in shown


def test_show_says_which_hints_in_force_cannot_act_on_the_accesses(
    mpi: Mpi, tmp_path: Path
) -> None:
    """Issue 31: a hint in force that cannot act on the program's accesses (a read key on
    a program that only writes; cb_nodes=2 on 2 ranks of one host with one aggregator per
    host, formats/hint_scale.def) is said to act as the default does."""
    from iotuner.decisions import table_decisions

    table = write_table(
        tmp_path / "table.jsonl",
        {"at": "open", "hints": {"romio_cb_read": "enable", "cb_nodes": "2"}},
        {"hints": {"romio_cb_write": "disable", "romio_ds_read": "disable"}, "note": "n"},
    )
    result = mpi.run(
        2, "steps", str(tmp_path / "data"), f"coll={SMALL}x2", mode="tune,trace", table=table
    )
    decisions, _ = table_decisions(one_log(result))
    opening = next(d for d in decisions if d.at == "open")
    access = next(d for d in decisions if d.at == "access")
    assert (
        "romio_cb_read=enable, cb_nodes=2 cannot act on its collective writes at open on 2 "
        "rank(s) of 1 host(s)" in opening.why
    )
    assert access.why.startswith("n; romio_ds_read=disable cannot act on its collective writes")
    assert "romio_cb_write" not in access.why


@pytest.mark.slow  # CI's
def test_show_and_the_report_print_one_earned_gain(mpi: Mpi, tmp_path: Path) -> None:
    """The same table and tuned run: `show` and the report's index and program page give
    the same gain string, and only an earned one: the calibrated figure of the entry that
    says it, "unknown" for the entry whose note holds only the ratio of two raw
    predictions (x3.00 here, which `show` used to print in its note and the report as
    its gain). A run far below the bandwidth a note predicted (30 TB/s here) is flagged."""
    import dataclasses

    from iotuner.tune import Choice, choice_note

    raw = Choice(
        nprocs=2, group=size_group(LARGE), pattern="collective", op="write",
        layout="contiguous", config={}, hints={}, kept_default=False, predicted=3e7,
        low=2.5e7, high=3.5e7, default_predicted=1e7, default_low=0.9e7,
        reason="lower bound beats the default's upper bound",
    )  # fmt: skip
    calibrated = dataclasses.replace(
        raw, group=size_group(SMALL), gain=1.3, gain_interval=(1.1, 1.6), gain_basis="calibrated"
    )
    table = write_table(
        tmp_path / "table.jsonl",
        {"group": size_group(SMALL), "hints": {"romio_cb_write": "disable"},
         "note": choice_note(calibrated), "nprocs": 2, "pattern": "collective", "op": "write",
         "layout": "contiguous"},
        {"group": size_group(LARGE), "hints": {"romio_cb_write": "enable"},
         "note": choice_note(raw), "nprocs": 2, "pattern": "collective", "op": "write",
         "layout": "contiguous"},
    )  # fmt: skip
    steps = [f"coll={SMALL}x2", "view=contiguous", f"coll={LARGE}x2"]
    result = mpi.run(2, "steps", str(tmp_path / "data"), *steps, mode="tune,trace", table=table)
    iotuner = str(Path(sys.executable).parent / "iotuner")
    shown = subprocess.run(
        [iotuner, "show", str(result.logs[0])],
        capture_output=True,
        text=True,
        check=True,
        env={**os.environ, "COLUMNS": "300"},
    ).stdout
    page = tmp_path / "report.html"
    subprocess.run(
        [iotuner, "report", "--table", str(table), "--logs", str(result.logs[0]), "-o", str(page)],
        capture_output=True,
        check=True,
    )
    pages = [page.read_text(), *(p.read_text() for p in tmp_path.glob("report.*.html"))]
    assert len(pages) == 2
    figure = "x1.30 [x1.10-x1.60]"
    assert f"gain over the default {figure} calibrated on held-out workloads" in shown
    assert "gain over the default unknown (neither measured nor calibrated" in shown
    assert "below the [25000000.0, 35000000.0] MiB/s the note predicted" in shown
    for text in (shown, *pages):
        assert figure in text
        # The raw ratio as a gain ("x3.00"); a bare "3.00" may be a measured time or rate.
        assert "x3.00" not in text
    for html in pages:
        assert f'<td class="n">{figure}</td><td>calibrated</td>' in html
        assert '<td class="n">unknown</td>' in html


def test_an_access_entry_holding_the_open_entry_s_values_passes_nothing_to_mpi(
    mpi: Mpi, tmp_path: Path
) -> None:
    """Issue 33: an access entry whose keys already hold their values (the usual table: the
    open entry sets them) calls no MPI_File_set_info; its hints record says which entry
    applied (`table`) and that nothing was passed (`requested` empty). A value that
    differs is still passed, and the bytes are the plain run's either way."""
    same = {"romio_cb_write": "disable", "cb_buffer_size": "1048576"}
    table = write_table(
        tmp_path / "table.jsonl",
        {"at": "open", "hints": same},
        {"group": size_group(SMALL), "hints": same},
        {"group": size_group(LARGE), "hints": {**same, "romio_cb_write": "enable"}},
    )
    steps = [f"coll={SMALL}x4", f"coll={LARGE}x4"]
    log = one_log(
        mpi.run(2, "steps", str(tmp_path / "tuned"), *steps, mode="tune,trace", table=table)
    )
    access = [h for h in log.hints if h["at"] == "access"]
    assert [h["table"] for h in access] == [same, {**same, "romio_cb_write": "enable"}], access
    assert access[0]["requested"] == {}, access[0]
    assert access[1]["requested"] == {"romio_cb_write": "enable", "cb_buffer_size": "1048576"}
    assert access[1]["effective"]["romio_cb_write"] == "enable"
    mpi.run(2, "steps", str(tmp_path / "plain"), *steps, mode="off")
    assert (tmp_path / "tuned").read_bytes() == (tmp_path / "plain").read_bytes()


def test_show_makes_one_statement_per_file_and_scale(mpi: Mpi, tmp_path: Path) -> None:
    """Issue 41: a file reopened by one rank was listed under the two-rank open as both
    "applied ..." and "(the defaults stay)", once per open. Now each scale of a file has
    its own statements, each true for every open at that scale, and none twice."""
    from iotuner.decisions import table_decisions

    table = write_table(
        tmp_path / "table.jsonl",
        {"nprocs": 2, "group": size_group(SMALL), "hints": {"romio_cb_write": "disable"},
         "note": "measured gain +80%"},
    )  # fmt: skip
    steps = [f"coll={SMALL}x2", f"self={SMALL}x2", f"coll={SMALL}x2", f"self={SMALL}x1"]
    result = mpi.run(2, "steps", str(tmp_path / "data"), *steps, mode="tune,trace", table=table)
    decisions, _ = table_decisions(one_log(result))
    access = [d for d in decisions if d.at == "access"]
    assert sorted(d.case for d in access) == [
        f"1 rank, group {size_group(SMALL)}, collective, write, contiguous",
        f"2 ranks, group {size_group(SMALL)}, collective, write, contiguous",
    ]
    two, one = sorted(access, key=lambda d: -(d.nprocs or 0))
    assert two.applied == {"romio_cb_write": "disable"} and two.why == "measured gain +80%"
    assert one.applied == {} and one.entry is None and "defaults stay" in one.why


def test_a_view_entry_keeping_the_defaults_changes_nothing(mpi: Mpi, tmp_path: Path) -> None:
    """tune writes a view entry without hints where independent strided access keeps the
    defaults (issue 41): at set_view it sets nothing, warns of nothing, and the program
    writes the same bytes as without iotuner."""
    table = write_table(
        tmp_path / "table.jsonl",
        {"at": "view", "nprocs": 2, "layout": "strided", "hints": {},
         "note": "independent access to strided views: the defaults stay"},
    )  # fmt: skip
    steps = ["view=strided", f"ind={SMALL}x3", f"coll={SMALL}x2", "view=contiguous"]
    steps.append(f"ind={SMALL}x2")
    reference, produced = tmp_path / "reference", tmp_path / "produced"
    plain = mpi.run_plain(2, "steps", str(reference), *steps)
    tuned = mpi.run(2, "steps", str(produced), *steps, mode="tune,trace", table=table)
    assert plain.stdout == tuned.stdout and warnings_in(tuned.stderr) == []
    assert produced.read_bytes() == reference.read_bytes()
    views = [h for h in one_log(tuned).hints if h["at"] == "set_view"]
    assert all(not v["table"] for v in views)  # no set_view record sets a key
