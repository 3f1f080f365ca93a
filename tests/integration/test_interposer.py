"""The interposer under real MPI at 1, 2 and 4 ranks: hints, policy, trace figures, safety."""

import hashlib
import os
from pathlib import Path

import pytest

from iotuner.formats import size_group
from iotuner.runner import interposer_env
from iotuner.table import match, read_table
from iotuner.tracelog import read_tracelog

from .conftest import (
    Mpi,
    nonblocking_collectives_work,
    one_log,
    printed_info,
    warnings_in,
    write_table,
)

NPROCS = [pytest.param(1, marks=pytest.mark.slow), 2, pytest.param(4, marks=pytest.mark.slow)]
"""2 ranks in the README's run; 1 and 4 (4 on 2 cores: several seconds a case) are CI's:
its slow stage and -m never_harm on every stack."""
MODES = ["off", "trace", "tune", "tune,trace"]


def digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


# ------------------------------------------------------------------ hints


@pytest.mark.parametrize("nprocs", NPROCS)
def test_open_hints_reach_get_info(mpi: Mpi, tmp_path: Path, nprocs: int) -> None:
    table = write_table(
        tmp_path / "table.jsonl",
        {"at": "open", "hints": {"cb_buffer_size": "1048576", "romio_ds_write": "disable"}},
        {"at": "open", "nprocs": 999, "hints": {"cb_buffer_size": "2097152"}},
    )
    args = ("--file", str(tmp_path / "data"), "--print-info")
    tuned = printed_info(mpi.run(nprocs, "iokernel", *args, mode="tune", table=table).stdout)
    plain = printed_info(mpi.run_plain(nprocs, "iokernel", *args).stdout)
    assert tuned["cb_buffer_size"] == "1048576"
    assert tuned["romio_ds_write"] == "disable"
    assert plain["cb_buffer_size"] != "1048576"
    assert plain["romio_ds_write"] != "disable"


def test_open_entry_for_program_and_file_beats_scale_default(mpi: Mpi, tmp_path: Path) -> None:
    table = write_table(
        tmp_path / "table.jsonl",
        {"at": "open", "nprocs": 2, "hints": {"cb_buffer_size": "1048576"}},
        {
            "at": "open",
            "program": "iokernel",
            "file": "*.chk",
            "hints": {"cb_buffer_size": "65536"},
        },
        {"at": "open", "program": "other", "hints": {"cb_buffer_size": "131072"}},
    )
    chk = mpi.run(
        2, "iokernel", "--file", str(tmp_path / "a.chk"), "--print-info", mode="tune", table=table
    )
    dat = mpi.run(
        2, "iokernel", "--file", str(tmp_path / "a.dat"), "--print-info", mode="tune", table=table
    )
    assert printed_info(chk.stdout)["cb_buffer_size"] == "65536"
    assert printed_info(dat.stdout)["cb_buffer_size"] == "1048576"


ACCESS_TABLE = [
    {"pattern": "collective", "op": "write", "group": 11, "hints": {"romio_cb_write": "disable"}},
    {
        "pattern": "collective",
        "op": "write",
        "group": 35,
        "hints": {"romio_cb_write": "enable", "cb_buffer_size": "4194304"},
    },
    {
        "pattern": "collective",
        "op": "write",
        "nprocs": 2,
        "group": 35,
        "hints": {"romio_cb_write": "enable", "cb_buffer_size": "2097152"},
    },
    {"pattern": "collective", "op": "read", "hints": {"romio_cb_read": "disable"}},
    {"at": "view", "layout": "strided", "hints": {"romio_ds_write": "disable"}},
]


@pytest.mark.parametrize("nprocs", NPROCS)
@pytest.mark.parametrize(
    ("size", "pattern"), [("4096", "collective"), ("1m", "collective"), ("1m", "independent")]
)
def test_access_choice_follows_size_group_and_pattern(
    mpi: Mpi, tmp_path: Path, nprocs: int, size: str, pattern: str
) -> None:
    table = write_table(tmp_path / "table.jsonl", *ACCESS_TABLE)
    result = mpi.run(
        nprocs,
        "iokernel",
        "--file",
        str(tmp_path / "data"),
        "--size",
        size,
        "--pattern",
        pattern,
        "--op",
        "both",
        mode="tune,trace",
        table=table,
    )
    log = one_log(result)
    access = [h for h in log.hints if h["at"] == "access"]
    per_rank = 4096 if size == "4096" else 1 << 20
    if pattern == "independent":
        # Independent calls never carry a decision (it would need a collective call).
        assert access == []
        return
    entries = read_table(table)
    expected = [
        match(
            entries,
            at="access",
            program="iokernel",
            file=str(tmp_path / "data"),
            nprocs=nprocs,
            group=size_group(per_rank),
            pattern="collective",
            op=op,
        )
        for op in ("write", "read")
    ]
    # One decision for the write, one for the read, each the entry Python's matcher picks.
    assert [h["table"] for h in access] == [
        {k: str(v) for k, v in e.hints.items()} for e in expected if e is not None
    ]
    write_decision = access[0]
    for key, value in write_decision["table"].items():
        assert write_decision["effective"][key] == value


@pytest.mark.parametrize("nprocs", NPROCS)
@pytest.mark.parametrize("policy", ["table", "app"])
@pytest.mark.parametrize("program", ["iokernel", None])
def test_application_hints_policy(
    mpi: Mpi, tmp_path: Path, nprocs: int, policy: str, program: str | None
) -> None:
    """Under `table`, an entry that names the program wins over the program's own value;
    an entry for every program (no `program`) gives way to it, as under `app`."""
    entry: dict[str, object] = {
        "at": "open",
        "hints": {"romio_cb_write": "enable", "cb_buffer_size": "1048576"},
    }
    if program:
        entry["program"] = program
    table = write_table(tmp_path / "table.jsonl", entry)
    result = mpi.run(
        nprocs,
        "iokernel",
        "--file",
        str(tmp_path / "data"),
        "--print-info",
        "--hint",
        "romio_cb_write=disable",
        "--hint",
        "romio_ds_read=disable",
        mode="tune",
        table=table,
        policy=policy,
    )
    info = printed_info(result.stdout)
    assert info["romio_cb_write"] == ("enable" if policy == "table" and program else "disable")
    assert info["romio_ds_read"] == "disable"  # the application's other keys stay
    assert info["cb_buffer_size"] == "1048576"  # the table's other keys apply either way


def test_unhonoured_striping_is_flagged(mpi: Mpi, tmp_path: Path) -> None:
    table = write_table(
        tmp_path / "table.jsonl",
        {"at": "open", "hints": {"striping_factor": "4", "striping_unit": "1048576"}},
    )
    log = one_log(
        mpi.run(2, "iokernel", "--file", str(tmp_path / "data"), mode="tune,trace", table=table)
    )
    opened = next(h for h in log.hints if h["at"] == "open")
    assert opened["driver"] in ("ufs", "nfs")
    flagged = {u["key"] for u in opened["unhonoured"]}
    assert flagged == {"striping_factor", "striping_unit"}


# ------------------------------------------------------------------ trace


def ops_of(log, operation: str) -> list[dict]:  # type: ignore[no-untyped-def]
    return [op for op in log.ops if op["operation"] == operation]


@pytest.mark.parametrize("nprocs", NPROCS)
def test_trace_collective_rows(mpi: Mpi, tmp_path: Path, nprocs: int) -> None:
    """With call_rows (iotuner run --call-rows), one row per collective call."""
    kernel = ("--file", str(tmp_path / "data"), "--size", "64k", "--repeat", "3")
    log = one_log(mpi.run(nprocs, "iokernel", *kernel, call_rows=True))
    rows = ops_of(log, "MPI_File_write_at_all")
    assert len(rows) == 3
    for row in rows:
        assert row["bytes"] == nprocs * 65536
        assert row["bytes_per_rank"] == 65536
        assert row["group"] == size_group(65536) == 22
        assert row["ranks"] == nprocs
        assert row["calls"] == nprocs and row["summary"] == 0
        assert row["pattern"] == "collective" and row["kind"] == "write"
        assert row["duration"] > 0
        assert row["bandwidth"] == pytest.approx(row["bytes"] / row["duration"] / 2**20, rel=1e-6)
    (record,) = log.files
    assert record["bytes_written"] == 3 * nprocs * 65536
    pattern = record["pattern"]
    assert pattern["ranks_with_io"] == nprocs
    assert pattern["burst_bytes"] == 65536
    assert pattern["first_offset"] == 0
    assert pattern["contiguous"] is True
    assert pattern["nodes"] == 1 and pattern["ranks_per_node"] == nprocs
    operations = [m["operation"] for m in log.metas]
    assert operations.count("MPI_File_open") == 1
    assert operations.count("MPI_File_sync") == 1
    assert operations.count("MPI_File_close") == 1


@pytest.mark.parametrize("nprocs", [2])
def test_collective_calls_are_summed_by_default(mpi: Mpi, tmp_path: Path, nprocs: int) -> None:
    """Without call_rows, a file's collective calls of one routine and size group are one
    summed row (what the learner reads; rows per call cost a short I/O phase up to 4 %),
    naming the hints in force and the same bytes as the rows per call would."""
    log = one_log(
        mpi.run(
            nprocs, "iokernel", "--file", str(tmp_path / "data"), "--size", "64k", "--repeat", "3"
        )
    )
    (row,) = ops_of(log, "MPI_File_write_at_all")
    assert row["summary"] == 1 and row["pattern"] == "collective" and row["kind"] == "write"
    assert row["calls"] == 3 * nprocs and row["ranks"] == nprocs
    assert row["bytes"] == 3 * nprocs * 65536 and row["bytes_per_rank"] == 65536
    assert row["group"] == size_group(65536)
    assert row["duration"] > 0 and row["hint_set"] == log.hints[0]["seq"]
    (record,) = log.files
    assert record["bytes_written"] == 3 * nprocs * 65536 and record["complete"] is True
    operations = [m["operation"] for m in log.metas]
    assert operations.count("MPI_File_close") == 1


@pytest.mark.parametrize("nprocs", NPROCS)
def test_trace_independent_summary(mpi: Mpi, tmp_path: Path, nprocs: int) -> None:
    log = one_log(
        mpi.run(
            nprocs,
            "iokernel",
            "--file",
            str(tmp_path / "data"),
            "--size",
            "64k",
            "--calls",
            "4",
            "--repeat",
            "2",
            "--pattern",
            "independent",
            "--op",
            "both",
        )
    )
    (written,) = ops_of(log, "MPI_File_write_at")
    assert written["summary"] == 1
    assert written["calls"] == 4 * 2 * nprocs
    assert written["bytes"] == 2 * nprocs * 65536
    assert written["bytes_per_rank"] == 16384
    assert written["group"] == size_group(16384) == 17
    assert written["ranks"] == nprocs
    (read,) = ops_of(log, "MPI_File_read_at")
    assert read["bytes"] == written["bytes"] and read["kind"] == "read"


@pytest.mark.parametrize("below_us", ["1000000", "0"])
def test_short_calls_are_timed_by_sample(mpi: Mpi, tmp_path: Path, below_us: str) -> None:
    """A summed row whose first 64 calls on a rank were short times only a sample of the
    later ones: its duration is an estimate and its summary 2, while calls and bytes stay
    exact. IOTUNER_TRACE_SAMPLE_BELOW_US sets "short" (here every call, or none: 0 times
    them all, as --call-rows does)."""
    calls = 300
    kernel = ("--size", str(calls * 512), "--calls", str(calls), "--pattern", "independent")
    data = str(tmp_path / "data")
    sampled = {"IOTUNER_TRACE_SAMPLE_BELOW_US": below_us}
    log = one_log(mpi.run(2, "iokernel", "--file", data, *kernel, extra_env=sampled))
    (row,) = ops_of(log, "MPI_File_write_at")
    assert row["summary"] == (2 if below_us != "0" else 1)
    assert row["calls"] == 2 * calls and row["ranks"] == 2
    assert row["bytes"] == 2 * calls * 512 and row["bytes_per_rank"] == 512
    assert row["duration"] > 0
    (record,) = log.files
    assert record["bytes_written"] == 2 * calls * 512 and record["complete"] is True


def test_split_collectives_are_always_timed(mpi: Mpi, tmp_path: Path) -> None:
    """A split collective is timed from its begin to its end call, so none goes untimed,
    however short: its row is measured (summary 1), every call counted once."""
    calls = 100
    kernel = ("--api", "ordered", "--split", "--size", str(calls * 256), "--calls", str(calls))
    data = str(tmp_path / "data")
    every = {"IOTUNER_TRACE_SAMPLE_BELOW_US": "1000000"}
    log = one_log(mpi.run(2, "iokernel", "--file", data, *kernel, extra_env=every))
    (row,) = ops_of(log, "MPI_File_write_ordered_begin")
    assert row["summary"] == 1 and row["calls"] == 2 * calls
    assert row["bytes"] == 2 * calls * 256


def test_a_split_collective_s_row_stays_measured_on_a_busy_machine(
    mpi: Mpi, tmp_path: Path, hogs: None
) -> None:
    """Was: a split collective slowed by a preemption ended its cell's sampling, which
    marked the row an estimate (summary 2) although every one of its calls was timed."""
    calls = 2000
    kernel = ("--api", "ordered", "--split", "--size", str(calls * 256), "--calls", str(calls))
    every = {"IOTUNER_TRACE_SAMPLE_BELOW_US": "1000000"}
    for run in range(3):
        data = str(tmp_path / f"data{run}")
        log = one_log(mpi.run(2, "iokernel", "--file", data, *kernel, extra_env=every,
                              log_dir=tmp_path / f"logs{run}"))  # fmt: skip
        (row,) = ops_of(log, "MPI_File_write_ordered_begin")
        assert (row["summary"], row["duration_error"]) == (1, 0), run
        assert row["calls"] == 2 * calls


def test_call_rows_time_every_call(tmp_path: Path) -> None:
    """`iotuner run --call-rows` asks for every call timed, besides rows per call."""
    from iotuner.runner import run

    seen = tmp_path / "env"
    run(
        ["sh", "-c", f"env > {seen}"],
        mode="trace",
        log_dir=tmp_path / "logs",
        call_rows=True,
        timeout=60,
    )
    env = dict(line.split("=", 1) for line in seen.read_text().splitlines() if "=" in line)
    assert env["IOTUNER_TRACE_SAMPLE_BELOW_US"] == "0"
    assert env["IOTUNER_TRACE_MAX_RECORDS"] == "4096"


@pytest.mark.parametrize("nprocs", [2, 4])
def test_trace_pattern_fields(mpi: Mpi, tmp_path: Path, nprocs: int) -> None:
    strided = one_log(
        mpi.run(
            nprocs,
            "iokernel",
            "--file",
            str(tmp_path / "s"),
            "--size",
            "32k",
            "--layout",
            "strided",
            "--block",
            "4k",
            "--api",
            "individual",
        )
    )
    assert strided.files[0]["pattern"]["contiguous"] is False
    root_only = one_log(
        mpi.run(
            nprocs,
            "iokernel",
            "--file",
            str(tmp_path / "r"),
            "--size",
            "32k",
            "--pattern",
            "independent",
            "--writers",
            "root",
        )
    )
    assert root_only.files[0]["pattern"]["ranks_with_io"] == 1
    (row,) = ops_of(root_only, "MPI_File_write_at")
    assert row["ranks"] == 1 and row["bytes"] == 32768


@pytest.mark.parametrize(
    ("args", "operation"),
    [
        (("--nonblocking",), "MPI_File_iwrite_at_all"),
        (("--split",), "MPI_File_write_at_all_begin"),
        (("--api", "individual", "--split"), "MPI_File_write_all_begin"),
        (("--api", "ordered"), "MPI_File_write_ordered"),
        (("--api", "shared", "--pattern", "independent"), "MPI_File_write_shared"),
    ],
)
def test_trace_names_the_routine(
    mpi: Mpi, tmp_path: Path, args: tuple[str, ...], operation: str
) -> None:
    log = one_log(mpi.run(2, "iokernel", "--file", str(tmp_path / "data"), "--size", "16k", *args))
    rows = ops_of(log, operation)
    assert sum(row["bytes"] for row in rows) == 2 * 16384


@pytest.mark.parametrize(("operation", "ops", "extra"), [
    ("MPI_File_write_at", 200_000, ()),
    ("MPI_File_write_at_all", 6_000, ("--collective",)),
])  # fmt: skip
def test_many_operations_keep_the_log_bounded(
    mpi: Mpi, tmp_path: Path, operation: str, ops: int, extra: tuple[str, ...]
) -> None:
    log = one_log(mpi.run(2, "overhead", str(tmp_path / "data"), "--ops", str(ops), *extra))
    rows = ops_of(log, operation)
    assert sum(row["calls"] for row in rows) == 2 * ops
    assert sum(row["bytes"] for row in rows) == 2 * ops * 8
    assert len(log.ops) <= 4096 + 2 * 56  # the record cap, plus one summary row per group
    assert log.files[0]["complete"] is True


def test_files_reduced_at_finalize_keep_their_figures_and_order(mpi: Mpi, tmp_path: Path) -> None:
    # 140 opens of the world's group: each 64th close finds 64 waiting and reduces them,
    # and MPI_Finalize the last twelve (trace.c, DEFER_MAX). Each phase writes 3 calls of
    # 1 KiB; after each, every rank writes a file of its own (MPI_COMM_SELF), reduced at
    # its close. Rank 0 makes 280 hints records: 256 are written when the 256th waits
    # (decide.c, HINTS_WAITING_MAX), the rest at MPI_Finalize.
    phases = 140
    data = tmp_path / "data"
    log = one_log(
        mpi.run(
            2,
            "overhead",
            str(data),
            "--ops",
            "3",
            "--size",
            "1024",
            "--collective",
            "--phases",
            str(phases),
            "--own-files",
        )
    )
    shared = [f for f in log.files if f["file"] == str(data)]
    own = {rank: [f for f in log.files if f["file"] == f"{data}.r{rank}"] for rank in (0, 1)}
    assert len(shared) == phases and all(len(files) == phases for files in own.values())
    assert all(f["bytes_written"] == 8 and f["nprocs"] == 1 for f in own[0] + own[1])
    # Rank 0's rows come first in the log, in the order its files closed: the waiting
    # files' rows among those of its own files closed after them.
    rank0 = [f["closed_at"] for f in log.files if f["file"] != f"{data}.r1"]
    assert rank0 == sorted(rank0)
    assert [f["file"] for f in log.files[:4]] == [str(data), f"{data}.r0"] * 2
    assert all(f["bytes_written"] == 2 * 3 * 1024 and f["complete"] for f in shared)
    closes = [f["closed_at"] for f in shared]
    opens = [f["opened_at"] for f in shared]
    assert closes == sorted(closes)
    assert all(o < c for o, c in zip(opens, closes, strict=True))
    assert all(c < o for c, o in zip(closes, opens[1:], strict=False))  # one open at a time
    rows = ops_of(log, "MPI_File_write_at_all")
    assert sum(r["calls"] for r in rows) == phases * 2 * 3
    # Every open has its hints record, stamped while its file was open, in the order the
    # opens came, those written early and those written at MPI_Finalize alike.
    opened = {
        name: [h for h in log.hints if h["at"] == "open" and h["file"] == name]
        for name in (str(data), f"{data}.r0", f"{data}.r1")
    }
    assert all(len(records) == phases for records in opened.values())
    stamps = [h["time_stamp"] for h in opened[str(data)]]
    assert all(o <= t <= c for o, t, c in zip(opens, stamps, closes, strict=True))
    # Rank 0's, in order: its count of records times the world's size (2) plus its rank;
    # rank 1's own files' records are odd.
    seqs = [h["seq"] for h in log.hints if h["file"] != f"{data}.r1"]
    assert seqs == list(range(seqs[0], seqs[0] + 2 * len(seqs), 2)) and seqs[0] % 2 == 0
    assert all(h["seq"] % 2 == 1 for h in log.hints if h["file"] == f"{data}.r1")


def test_record_cap_bounds_rows(mpi: Mpi, tmp_path: Path) -> None:
    log = one_log(
        mpi.run(
            2,
            "iokernel",
            "--file",
            str(tmp_path / "data"),
            "--size",
            "4k",
            "--repeat",
            "50",
            extra_env={"IOTUNER_TRACE_MAX_RECORDS": "10"},
        )
    )
    rows = ops_of(log, "MPI_File_write_at_all")
    single = [r for r in rows if r["summary"] == 0]
    summed = [r for r in rows if r["summary"] == 1]
    assert len(single) == 10 - 1  # the open is the first collective record
    assert sum(r["calls"] for r in summed) == 2 * (50 - 9)
    assert sum(r["bytes"] for r in rows) == 50 * 2 * 4096


# ------------------------------------------------------------ never harm

# name: (iokernel arguments, (block, slot) of a strided layout with holes, else None)
WORKLOADS: dict[str, tuple[tuple[str, ...], tuple[int, int] | None]] = {
    "collective-strided": (
        ("--layout", "strided", "--block", "1k", "--fill", "0.5", "--size", "64k",
         "--api", "individual"),
        (1024, 2048),
    ),
    "independent-strided": (
        ("--layout", "strided", "--block", "512", "--size", "32k", "--pattern", "independent"),
        None,
    ),
    "nonblocking": (("--nonblocking", "--size", "64k", "--calls", "3"), None),
    "split-ordered": (("--api", "ordered", "--split", "--size", "16k"), None),
    "shared": (("--api", "shared", "--pattern", "independent", "--size", "16k"), None),
    # Past 64 short calls a rank times only a sample of them (formats/README.md).
    "independent-many-short": (
        ("--pattern", "independent", "--size", "64k", "--calls", "256"),
        None,
    ),
}  # fmt: skip


def written_bytes(path: Path, holes: tuple[int, int] | None) -> str:
    """Digest of the bytes the program wrote. The holes of a strided layout are left out:
    ROMIO's data sieving fills them with whatever its buffer held (seen: 0xff on a new
    file), so their content follows the hints, not the program."""
    data = path.read_bytes()
    if holes is not None:
        block, slot = holes
        data = b"".join(data[start : start + block] for start in range(0, len(data), slot))
    return hashlib.sha256(data).hexdigest()


HARMLESS_TABLE = [
    {
        "at": "open",
        "hints": {"cb_buffer_size": "65536", "cb_nodes": "1", "romio_ds_write": "disable"},
    },
    {"pattern": "collective", "op": "write", "hints": {"romio_cb_write": "disable"}},
    {"pattern": "collective", "op": "write", "group": 17, "hints": {"romio_cb_write": "enable"}},
]


@pytest.mark.never_harm
@pytest.mark.parametrize("nprocs", NPROCS)
@pytest.mark.parametrize("workload", sorted(WORKLOADS))
def test_files_identical_in_every_mode(
    mpi: Mpi, tmp_path: Path, nprocs: int, workload: str
) -> None:
    workload_args, holes = WORKLOADS[workload]
    if workload == "nonblocking" and not nonblocking_collectives_work():
        # Open MPI 4.1's romio321 crashes in MPI_File_iwrite_at_all without iotuner
        # (conftest): the independent nonblocking routines there.
        workload_args = (*workload_args, "--pattern", "independent")
    args = ("--op", "both", *workload_args)
    table = write_table(tmp_path / "table.jsonl", *HARMLESS_TABLE)
    reference = tmp_path / "plain.dat"
    mpi.run_plain(nprocs, "iokernel", "--file", str(reference), *args)
    # Every summed row samples its calls past the 64th, whatever their speed here.
    sampled = {"IOTUNER_TRACE_SAMPLE_BELOW_US": "1000000"}
    for mode in MODES:
        produced = tmp_path / f"{mode}.dat"
        mpi.run(
            nprocs,
            "iokernel",
            "--file",
            str(produced),
            *args,
            mode=mode,
            table=table,
            extra_env=sampled,
        )
        assert produced.stat().st_size == reference.stat().st_size, mode
        assert written_bytes(produced, holes) == written_bytes(reference, holes), mode


@pytest.mark.never_harm
@pytest.mark.parametrize("nprocs", NPROCS)
def test_every_routine_passes_through(mpi: Mpi, tmp_path: Path, nprocs: int) -> None:
    table = write_table(tmp_path / "table.jsonl", *HARMLESS_TABLE)
    reference = tmp_path / "plain.dat"
    # Where MPI crashes in a nonblocking collective without iotuner (Open MPI 4.1's
    # romio321, conftest), the blocking ones in their place and every other routine.
    flags = () if nonblocking_collectives_work() else ("--blocking-collectives",)
    plain = mpi.run_plain(nprocs, "allroutines", str(reference), *flags)
    assert "allroutines: ok" in plain.stdout
    for mode in MODES:
        produced = tmp_path / f"{mode.replace(',', '-')}.dat"
        result = mpi.run(nprocs, "allroutines", str(produced), *flags, mode=mode, table=table)
        assert "allroutines: ok" in result.stdout, result.stdout + result.stderr
        assert produced.stat().st_size == reference.stat().st_size, mode
        assert warnings_in(result.stderr) == []


@pytest.mark.never_harm
@pytest.mark.parametrize("nprocs", [2, 4])
@pytest.mark.parametrize("mode", MODES)
def test_rank_zero_alone_writing_finishes(mpi: Mpi, tmp_path: Path, nprocs: int, mode: str) -> None:
    table = write_table(tmp_path / "table.jsonl", *ACCESS_TABLE)
    result = mpi.run(
        nprocs,
        "iokernel",
        "--file",
        str(tmp_path / "data"),
        "--size",
        "1m",
        "--calls",
        "8",
        "--pattern",
        "independent",
        "--writers",
        "root",
        mode=mode,
        table=table,
    )
    assert "op=write" in result.stdout


def open_errors(stdout: str) -> list[str]:
    """iokernel's open-error lines, up to MPICH's error stack (which shows addresses)."""
    return [
        line.split(", error stack")[0]
        for line in stdout.splitlines()
        if line.startswith("open-error")
    ]


@pytest.mark.never_harm
@pytest.mark.parametrize("nprocs", NPROCS)
def test_error_codes_unchanged(mpi: Mpi, tmp_path: Path, nprocs: int) -> None:
    table = write_table(tmp_path / "table.jsonl", *HARMLESS_TABLE)
    args = ("--file", str(tmp_path / "missing"), "--expect-missing")
    reference = open_errors(mpi.run_plain(nprocs, "iokernel", *args).stdout)
    assert reference and "class=" in reference[0], "the program should report the failed open"
    for mode in MODES:
        result = mpi.run(nprocs, "iokernel", *args, mode=mode, table=table)
        assert open_errors(result.stdout) == reference, mode
        assert warnings_in(result.stderr) == [], mode


# -------------------------------------------------- failures inside iotuner


HEADER_LINE = '{"format": "iotuner-table", "version": 1}\n'
GOOD_LINE = '{"at": "open", "hints": {"cb_buffer_size": "1048576"}}\n'

# Lines the readers drop (the rest of the table applies), with the rule each breaks.
BAD_LINES = {
    "not-json": ('{"hints": {"cb_buffer_size": 2\n', "json"),
    "bad-group": ('{"group": 99, "hints": {}}\n', "field_value"),
    "open-with-op": ('{"at": "open", "op": "write", "hints": {}}\n', "open_with_access_field"),
    "unknown-key": ('{"grup": 3, "hints": {}}\n', "unknown_field"),
    "unknown-hint": ('{"hints": {"romio_go_faster": "enable"}}\n', "hint_unknown"),
    "sigfpe-value": ('{"at": "open", "hints": {"cb_buffer_size": "abc"}}\n', "hint_value"),
    "negative": ('{"at": "open", "hints": {"cb_buffer_size": "-4"}}\n', "hint_value"),
    "huge": ('{"hints": {"cb_buffer_size": "9000000000000000000"}}\n', "hint_value"),
    "hang-value": ('{"hints": {"ind_rd_buffer_size": 0}}\n', "hint_value"),
    "open-only-at-access": ('{"hints": {"cb_nodes": "1"}}\n', "hint_when"),
    "nul-byte": ('{"hints": {"romio_ds_write": "dis\x00able"}}\n', "json"),
}


@pytest.mark.never_harm
@pytest.mark.parametrize("nprocs", [1, 4])
@pytest.mark.parametrize("bad", sorted(BAD_LINES))
def test_a_bad_line_is_dropped_with_one_warning_and_the_rest_applies(
    mpi: Mpi, tmp_path: Path, nprocs: int, bad: str
) -> None:
    line, rule = BAD_LINES[bad]
    table = tmp_path / "bad.jsonl"
    table.write_text(HEADER_LINE + line + GOOD_LINE)
    env = interposer_env("tune,trace", table, tmp_path / "logs", "table", "bad")
    data = tmp_path / "data"
    completed = mpi.run_env(
        env, nprocs, "iokernel", "--file", str(data), "--op", "both", "--print-info"
    )
    (warning,) = warnings_in(completed.stderr)  # once per job, not once per rank
    assert f"line 2 dropped ({rule})" in warning, warning
    assert printed_info(completed.stdout)["cb_buffer_size"] == "1048576"  # line 3 applies
    (log,) = (tmp_path / "logs").glob("*.iotrace.jsonl")
    assert any(f"line 2 dropped ({rule})" in w for w in read_tracelog(log).end["warnings"])


REFUSED_TABLES = {
    "no-header": '{"hints": {"cb_nodes": "2"}}\n',
    "version-2": '{"format": "iotuner-table", "version": 2}\n' + GOOD_LINE,
    "empty": "",
}


@pytest.mark.never_harm
@pytest.mark.parametrize("nprocs", [1, 4])
@pytest.mark.parametrize("bad", [*sorted(REFUSED_TABLES), "dev-zero", "fifo", "directory", "5mb"])
def test_a_refused_table_runs_untuned_with_one_warning(
    mpi: Mpi, tmp_path: Path, nprocs: int, bad: str
) -> None:
    table = tmp_path / "bad.jsonl"
    if bad == "dev-zero":
        table = Path("/dev/zero")  # used to hang MPI_Init forever
    elif bad == "fifo":
        os.mkfifo(table)  # nobody writes: a blocking open would never return
    elif bad == "directory":
        table.mkdir()
    elif bad == "5mb":
        table.write_text(HEADER_LINE + GOOD_LINE * (5 * 2**20 // len(GOOD_LINE)))
    else:
        table.write_text(REFUSED_TABLES[bad])
    env = interposer_env("tune,trace", table, tmp_path / "logs", "table", "bad")
    data = tmp_path / "data"
    completed = mpi.run_env(
        env, nprocs, "iokernel", "--file", str(data), "--op", "both", "--print-info"
    )
    (warning,) = warnings_in(completed.stderr)
    assert "tuning table" in warning and "untuned" in warning
    # Untuned: MPI reports what it reports without iotuner (MPICH: ROMIO's defaults, such as
    # cb_buffer_size=16777216; Open MPI 4.1 echoes only the keys it was given: none), where
    # the good line would have shown cb_buffer_size=1048576 on either.
    plain = mpi.run_plain(
        nprocs, "iokernel", "--file", str(tmp_path / "plain"), "--op", "both", "--print-info"
    )
    assert printed_info(completed.stdout) == printed_info(plain.stdout)
    assert not list((tmp_path / "logs").glob("*.iotrace.jsonl"))  # untraced too


@pytest.mark.never_harm
@pytest.mark.parametrize("nprocs", [1, 4])
def test_unwritable_log_dir_runs_with_one_warning(mpi: Mpi, tmp_path: Path, nprocs: int) -> None:
    blocker = tmp_path / "a-file"
    blocker.write_text("not a directory")
    env = interposer_env("trace", None, blocker / "logs", "table", "unwritable")
    completed = mpi.run_env(
        env, nprocs, "iokernel", "--file", str(tmp_path / "data"), "--op", "both"
    )
    (warning,) = warnings_in(completed.stderr)
    assert "log directory" in warning


@pytest.mark.never_harm
def test_off_writes_no_log_and_no_warning(mpi: Mpi, tmp_path: Path) -> None:
    result = mpi.run(2, "iokernel", "--file", str(tmp_path / "data"), mode="off")
    assert result.logs == [] and warnings_in(result.stderr) == []
    assert not (tmp_path / "logs").exists() or not any((tmp_path / "logs").iterdir())


@pytest.mark.never_harm
def test_bad_mode_is_one_warning(mpi: Mpi, tmp_path: Path) -> None:
    env = interposer_env("trace", None, tmp_path / "logs", "table", "mode")
    env["IOTUNER_MODE"] = "fast"
    completed = mpi.run_env(env, 2, "iokernel", "--file", str(tmp_path / "data"))
    (warning,) = warnings_in(completed.stderr)
    assert "IOTUNER_MODE" in warning and "'fast'" in warning
    assert os.path.exists(tmp_path / "data")


@pytest.mark.parametrize("nprocs", [1, 4])
@pytest.mark.parametrize("layout", ["contiguous", "strided"])
def test_access_choice_follows_the_layout(
    mpi: Mpi, tmp_path: Path, nprocs: int, layout: str
) -> None:
    table = write_table(
        tmp_path / "table.jsonl",
        {"pattern": "collective", "layout": "strided", "hints": {"romio_cb_write": "enable"}},
        {"pattern": "collective", "layout": "contiguous", "hints": {"romio_cb_write": "disable"}},
    )
    # Fill 0.5: with one rank and fill 1, a strided view has no holes at all.
    shape = ("--layout", "strided", "--fill", "0.5") if layout == "strided" else ()
    args = ("--file", str(tmp_path / "data"), "--size", "64k", *shape, "--api", "individual")
    log = one_log(mpi.run(nprocs, "iokernel", *args, mode="tune,trace", table=table))
    (decision,) = [h for h in log.hints if h["at"] == "access"]
    expected = "enable" if layout == "strided" else "disable"
    assert decision["effective"]["romio_cb_write"] == expected
