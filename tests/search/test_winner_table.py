"""A search's winner written into a tuning table beats the table's generic entries for its
program at every decision point (open, set_view, collective access): a real run of the
kernel at 2 ranks under the interposer, traced, with a table that also holds generic
entries setting the opposite value."""

import json
import subprocess
import sys
from pathlib import Path

from iotuner.formats import size_group
from iotuner.runner import build_config, find_program
from iotuner.search import (
    OfflineObjective,
    OfflineTable,
    SearchSettings,
    merge_winner,
    run_search,
    searched_keys,
    winner_entries,
)
from iotuner.table import TableEntry, match, read_table, write_table
from iotuner.tracelog import read_tracelog

from .conftest import write_csv

SIZE = 65536


def generic_entries() -> list[TableEntry]:
    """What `iotuner tune` writes for the scale: no program named, romio_cb_write off."""
    off = {"romio_cb_write": "disable"}
    return [
        TableEntry(at="open", nprocs=2, hints=off),
        TableEntry(at="view", nprocs=2, layout="contiguous", hints=off),
        TableEntry(
            nprocs=2,
            group=size_group(SIZE),
            pattern="collective",
            op="write",
            layout="contiguous",
            hints=off,
        ),
    ]


def test_a_search_winner_beats_the_generic_entries_in_a_real_run(tmp_path: Path) -> None:
    measured = write_csv(
        tmp_path / "measured.csv",
        ["romio_cb_write", "bandwidth"],
        [["automatic", 100], ["disable", 80], ["enable", 150]],
    )
    result = run_search(OfflineObjective(OfflineTable(measured)), SearchSettings("grid"))
    assert result.winner == {"romio_cb_write": "enable"}
    table = tmp_path / "table.jsonl"
    write_table(table, generic_entries())
    merge_winner(table, winner_entries(result, "/bin/dir/iokernel", 2))
    entries = read_table(table)
    # What the Python matcher says the interposer picks at each decision point.
    access = {"group": size_group(SIZE), "pattern": "collective", "op": "write"}
    for at, extra in (
        ("open", {}),
        ("view", {"layout": "contiguous"}),
        ("access", {**access, "layout": "contiguous"}),
    ):
        chosen = match(entries, at=at, program="iokernel", file="/x/data", nprocs=2, **extra)
        assert chosen is not None and chosen.hints == {"romio_cb_write": "enable"}, (at, chosen)
        other = match(entries, at=at, program="ior", file="/x/data", nprocs=2, **extra)
        assert other is not None and other.hints == {"romio_cb_write": "disable"}

    logs = tmp_path / "logs"
    iotuner = str(Path(sys.executable).parent / "iotuner")
    command = [
        iotuner, "run", "--mode", "tune,trace", "--table", str(table), "--log-dir", str(logs),
        "--", build_config().mpiexec, "-n", "2", str(find_program("iokernel")),
        "--file", str(tmp_path / "data.dat"), "--size", "128k", "--calls", "2", "--delete",
    ]  # fmt: skip
    completed = subprocess.run(command, capture_output=True, text=True, timeout=180, check=False)
    assert completed.returncode == 0, completed.stdout + completed.stderr
    (path,) = logs.glob("**/*.jsonl")
    log = read_tracelog(path)
    decisions = [(h["at"], h["effective"].get("romio_cb_write")) for h in log.hints]
    assert "access" in {at for at, _ in decisions}, json.dumps(log.hints)
    assert all(value == "enable" for _, value in decisions), decisions


def test_a_search_that_found_nothing_better_leaves_the_table(tmp_path: Path) -> None:
    """The default measured best: the winner sets no hint, and the table's entries for the
    program (`tune`'s generic ones) still decide every decision point. Such a winner used
    to be written as entries naming the program with no hints, which outrank the generic
    ones and so unset romio_cb_write for the program."""
    measured = write_csv(
        tmp_path / "measured.csv",
        ["romio_cb_write", "bandwidth"],
        [["automatic", 150], ["disable", 80], ["enable", 100]],
    )
    result = run_search(OfflineObjective(OfflineTable(measured)), SearchSettings("grid"))
    assert result.winner == {"romio_cb_write": "automatic"}
    table = tmp_path / "table.jsonl"
    write_table(table, generic_entries())
    before = table.read_text()
    assert winner_entries(result, "/bin/dir/iokernel", 2) == []
    merge_winner(table, winner_entries(result, "/bin/dir/iokernel", 2))
    assert table.read_text() == before
    entries = read_table(table)
    access = {"group": size_group(SIZE), "pattern": "collective", "op": "write"}
    chosen = match(
        entries,
        at="access",
        program="iokernel",
        file="/x/d",
        nprocs=2,
        layout="contiguous",
        **access,
    )
    assert chosen is not None and chosen.hints == {"romio_cb_write": "disable"}


def test_a_winner_keeps_the_tables_values_of_the_keys_it_did_not_search(tmp_path: Path) -> None:
    """tune set romio_cb_write and cb_buffer_size for the scale; a search of romio_cb_write
    alone finds enable. The program gets enable and keeps tune's cb_buffer_size at every
    decision point (its entries name the program, so they used to mask tune's for it)."""
    measured = write_csv(
        tmp_path / "measured.csv",
        ["romio_cb_write", "bandwidth"],
        [["automatic", 100], ["disable", 80], ["enable", 150]],
    )
    result = run_search(OfflineObjective(OfflineTable(measured)), SearchSettings("grid"))
    assert searched_keys(result) == {"romio_cb_write"}
    tuned = {"romio_cb_write": "disable", "cb_buffer_size": "8388608"}
    table = tmp_path / "table.jsonl"
    write_table(
        table,
        [
            TableEntry(at="open", nprocs=2, hints=tuned),
            TableEntry(at="view", nprocs=2, layout="contiguous", hints=tuned),
            TableEntry(nprocs=2, group=size_group(SIZE), pattern="collective", op="write",
                       layout="contiguous", hints=tuned),
        ],
    )  # fmt: skip
    merge_winner(table, winner_entries(result, "iokernel", 2), searched_keys(result))
    entries = read_table(table)
    access = {"group": size_group(SIZE), "pattern": "collective", "op": "write"}
    wanted = {"romio_cb_write": "enable", "cb_buffer_size": "8388608"}
    for at, extra in (
        ("open", {}),
        ("view", {"layout": "contiguous"}),
        ("access", {**access, "layout": "contiguous"}),
    ):
        chosen = match(entries, at=at, program="iokernel", file="/x/d", nprocs=2, **extra)
        assert chosen is not None and chosen.hints == wanted, (at, chosen)
        other = match(entries, at=at, program="ior", file="/x/d", nprocs=2, **extra)
        assert other is not None and other.hints == tuned
    # Another size group, with no entry of tune's: the winner's hints alone.
    chosen = match(entries, at="access", program="iokernel", file="/x/d", nprocs=2,
                   group=size_group(SIZE) + 3, pattern="collective", op="write",
                   layout="contiguous")  # fmt: skip
    assert chosen is not None and chosen.hints == {"romio_cb_write": "enable"}
