"""Never harm: no table the readers accept, and no failure inside iotuner, may change what
a program computes or writes, crash it or hang it (real MPI at 1, 2 and 4 ranks).

Each scenario here once broke a program: a buffer size raised after open corrupted data,
an allocation failing on one rank hung the others, a FIFO as the table hung MPI_Init.
"""

import hashlib
import os
import stat
from pathlib import Path

import pytest

from iotuner.runner import interposer_env
from iotuner.tracelog import read_tracelog

from .conftest import Mpi, mpi_library, one_log, warnings_in, write_table

MODES = ["off", "trace", "tune", "tune,trace"]

# Every buffer size a table may set, changed between open and access and forced into use:
# collective buffering for cb_buffer_size (hints.def: LOWER, never raised after open),
# data sieving for the independent buffers (ANY: ROMIO allocates them per call).
FORCE = {
    "romio_cb_write": "enable",
    "romio_cb_read": "enable",
    "romio_ds_write": "enable",
    "romio_ds_read": "enable",
}
SMALL = {"cb_buffer_size": "65536", "ind_wr_buffer_size": "4096", "ind_rd_buffer_size": "4096"}
LARGE = {
    "cb_buffer_size": "16777216",
    "ind_wr_buffer_size": "4194304",
    "ind_rd_buffer_size": "16777216",
}
# name: (hints at open, hints at every collective access)
SIZE_CHANGES = {"raised-after-open": (SMALL, LARGE), "lowered-after-open": (LARGE, SMALL)}

WORKLOADS = {
    "collective": ("--size", "4m", "--op", "both"),
    "collective-strided": (
        "--layout", "strided", "--block", "4k", "--fill", "0.5", "--size", "1m",
        "--api", "individual", "--op", "both",
    ),
    "independent-strided": (
        "--layout", "strided", "--block", "512", "--fill", "0.5", "--size", "256k",
        "--pattern", "independent", "--api", "individual", "--op", "both",
    ),
}  # fmt: skip


def ompio_from_5() -> bool:
    """Open MPI 5's own I/O component serves the files (OMPI_MCA_io names no ROMIO)."""
    selection = os.environ.get("OMPI_MCA_io", "")  # noqa: SIM112 (Open MPI spells it so)
    romio = selection.startswith("romio") or (selection.startswith("^") and "ompio" in selection)
    return mpi_library().startswith("Open MPI v5.") and not romio


def written_bytes(path: Path, holes: tuple[int, int] | None) -> str:
    """Digest of the bytes the program wrote (the holes of a strided layout left out: data
    sieving fills them with whatever its buffer held, which follows the hints)."""
    data = path.read_bytes()
    if holes is not None:
        block, slot = holes
        data = b"".join(data[start : start + block] for start in range(0, len(data), slot))
    return hashlib.sha256(data).hexdigest()


HOLES = {"collective": None, "collective-strided": (4096, 8192), "independent-strided": (512, 1024)}


@pytest.mark.never_harm
@pytest.mark.parametrize(
    ("nprocs", "workload"),
    [
        (1, "collective"),
        (2, "collective"),
        pytest.param(4, "collective", marks=pytest.mark.slow),  # 4 ranks on 2 cores: CI's
        (2, "collective-strided"),
        (2, "independent-strided"),
        pytest.param(4, "independent-strided", marks=pytest.mark.slow),
    ],
)
@pytest.mark.parametrize("change", sorted(SIZE_CHANGES))
def test_size_keys_changed_between_open_and_access_keep_the_data_exact(
    mpi: Mpi, tmp_path: Path, nprocs: int, workload: str, change: str
) -> None:
    at_open, at_access = SIZE_CHANGES[change]
    table = write_table(
        tmp_path / "table.jsonl",
        {"at": "open", "hints": {**FORCE, **at_open}},
        {"pattern": "collective", "hints": at_access},
    )
    args = WORKLOADS[workload]
    reference = tmp_path / "plain.dat"
    # iokernel verifies every byte it reads back and exits 1 when one is wrong.
    mpi.run_plain(nprocs, "iokernel", "--file", str(reference), *args)
    for mode in MODES:
        produced = tmp_path / f"{mode}.dat"
        result = mpi.run(nprocs, "iokernel", "--file", str(produced), *args, mode=mode, table=table)
        assert produced.stat().st_size == reference.stat().st_size, mode
        assert written_bytes(produced, HOLES[workload]) == written_bytes(
            reference, HOLES[workload]
        ), mode
        assert warnings_in(result.stderr) == [], mode
        if mode != "tune,trace" or workload == "independent-strided":
            continue
        # What the trace says was done (one decision per open: the write, then the read):
        # raised keys held back and why, lowered ones set.
        decisions = [h for h in one_log(result).hints if h["at"] == "access"]
        assert len(decisions) == 2
        for decision in decisions:
            held = {u["key"] for u in decision["unhonoured"] if "not raised" in u["reason"]}
            assert held == ({"cb_buffer_size"} if change == "raised-after-open" else set())
            effective = decision["effective"]
            if mpi_library().startswith("Open MPI v4.") or ompio_from_5():
                # Open MPI 4.1 (OMPIO and romio321): MPI_File_set_info returns MPI_SUCCESS
                # and drops every key it was given from the file's info; none is applied.
                # Open MPI 5's OMPIO: get_info lists no key at all after set_info, which
                # counts from the next set_view only (formats/hint_safety.md). The record
                # must not claim a key in effect, and says why.
                requested = set(decision["requested"])
                assert not requested & set(effective), decision
                assert requested <= {u["key"] for u in decision["unhonoured"]}, decision
                if held and not ompio_from_5():  # still the value of the open
                    assert effective["cb_buffer_size"] == "65536"
                continue
            assert effective["cb_buffer_size"] == "65536"
            assert effective["ind_wr_buffer_size"] == at_access["ind_wr_buffer_size"]


# A collective buffer above the MPI's own default, asked for at open. Open MPI 5.0.11's
# ROMIO ignores hints given at open and sizes its buffer from its default (16 MiB); iotuner
# gives the table's open hints again with MPI_File_set_info there, and cb_buffer_size
# raised that way crashed the write of 24 MiB through one aggregator (SIGSEGV, or heap
# corruption and a hang; formats/hint_safety.md). The open takes the value elsewhere.
ABOVE_DEFAULT = {**FORCE, "cb_buffer_size": "33554432"}


@pytest.mark.never_harm
def test_open_buffer_above_the_mpi_default_keeps_the_data_exact(mpi: Mpi, tmp_path: Path) -> None:
    table = write_table(tmp_path / "table.jsonl", {"at": "open", "hints": ABOVE_DEFAULT})
    args = ("--size", "24m", "--op", "both")
    reference = tmp_path / "plain.dat"
    mpi.run_plain(1, "iokernel", "--file", str(reference), *args)
    for mode in ("tune", "tune,trace"):
        produced = tmp_path / f"{mode}.dat"
        result = mpi.run(1, "iokernel", "--file", str(produced), *args, mode=mode, table=table)
        assert written_bytes(produced, None) == written_bytes(reference, None), mode
        assert warnings_in(result.stderr) == [], mode
    # Where the open hints are given again (Open MPI 5's ROMIO), the buffer size is held
    # at the value the open left, and the record says so.
    for record in one_log(result).hints:
        if record["at"] != "set_info":
            continue
        assert "cb_buffer_size" not in record["requested"], record
        held = [u for u in record["unhonoured"] if u["key"] == "cb_buffer_size"]
        assert held and "not raised" in held[0]["reason"], record
        assert int(record["effective"]["cb_buffer_size"]) < int(ABOVE_DEFAULT["cb_buffer_size"])


FAULT_TABLE = [
    {"at": "open", "hints": {"romio_ds_write": "disable", "cb_buffer_size": "4194304"}},
    {"pattern": "collective", "op": "write", "hints": {"romio_cb_write": "enable"}},
    {"pattern": "collective", "op": "read", "hints": {"cb_buffer_size": "1048576"}},
]
FAULT_ARGS = (
    "--layout", "strided", "--block", "4k", "--fill", "0.5", "--size", "256k",
    "--api", "individual", "--op", "both", "--repeat", "3",
)  # fmt: skip


FAULT_POINTS = 14
"""Allocations to fail at, spread over one run (each run fails that one and all later)."""


@pytest.mark.never_harm
@pytest.mark.parametrize(
    ("nprocs", "rank"), [(2, 1), (2, 0), pytest.param(4, 3, marks=pytest.mark.slow)]
)
def test_allocation_failing_on_one_rank_neither_hangs_nor_harms(
    mpi: Mpi, tmp_path: Path, nprocs: int, rank: int
) -> None:
    table = write_table(tmp_path / "table.jsonl", *FAULT_TABLE)
    reference = tmp_path / "plain.dat"
    mpi.run_plain(nprocs, "iokernel", "--file", str(reference), *FAULT_ARGS)
    expected = written_bytes(reference, (4096, 8192))

    def faulty_run(allocation: int) -> list[str]:
        produced = tmp_path / f"faulty-{allocation}.dat"
        # A hang fails the test through the runner's timeout; a crash or a changed result
        # through the exit status and the bytes.
        result = mpi.run(
            nprocs,
            "iokernel",
            "--file",
            str(produced),
            *FAULT_ARGS,
            mode="tune,trace",
            table=table,
            extra_env={"IOTUNER_FAULT_ALLOC": f"{rank}:{allocation}"},
        )
        assert written_bytes(produced, (4096, 8192)) == expected, allocation
        for log in result.logs:
            read_tracelog(log)  # whatever was logged is a valid log
        return result.stderr.splitlines()

    # N = 0 only counts this rank's allocations in a whole run.
    (counted,) = [line for line in faulty_run(0) if line.startswith("iotuner: test: rank")]
    total = int(counted.split()[-2])
    points = sorted({1 + (total - 1) * i // (FAULT_POINTS - 1) for i in range(FAULT_POINTS)})
    warned = 0
    for allocation in points:
        warnings = [line for line in faulty_run(allocation) if line.startswith("iotuner: warn")]
        assert len(warnings) == len(set(warnings)), f"a warning printed twice: {warnings}"
        warned += bool(warnings)
    assert warned > 0, "no injected failure was noticed: the switch did nothing"


@pytest.mark.never_harm
def test_a_job_tag_that_is_not_a_plain_name_is_refused(mpi: Mpi, tmp_path: Path) -> None:
    env = interposer_env("trace", None, tmp_path / "logs", "table", "ok")
    env["IOTUNER_JOB_TAG"] = "../../escaped"  # by hand: `iotuner run` refuses it too
    completed = mpi.run_env(env, 2, "iokernel", "--file", str(tmp_path / "data"))
    (warning,) = warnings_in(completed.stderr)
    assert "IOTUNER_JOB_TAG" in warning
    assert not list(tmp_path.rglob("*.iotrace.jsonl"))


@pytest.mark.never_harm
def test_an_overlong_table_path_is_refused_not_cut(mpi: Mpi, tmp_path: Path) -> None:
    long_dir = tmp_path / ("d" * 200)
    long_dir.mkdir()
    table = write_table(long_dir / "table.jsonl", *FAULT_TABLE)
    # 2,100 characters naming the same file: cut at 2,048 it would name another one.
    padded = str(long_dir) + "/." * ((2100 - len(str(table))) // 2) + "/table.jsonl"
    env = interposer_env("tune", table, tmp_path / "logs", "table", "long")
    env["IOTUNER_TABLE"] = padded  # by hand: pathlib would fold the "/." away
    completed = mpi.run_env(env, 1, "iokernel", "--file", str(tmp_path / "data"))
    (warning,) = warnings_in(completed.stderr)
    assert "IOTUNER_TABLE is longer than" in warning


@pytest.mark.never_harm
@pytest.mark.parametrize("nprocs", [1, 2])
def test_logs_are_private_whoever_makes_the_directory(
    mpi: Mpi, tmp_path: Path, nprocs: int
) -> None:
    # The interposer makes the directory here (no `iotuner run` in between).
    log_dir = tmp_path / "new" / "logs"
    env = interposer_env("trace", None, log_dir, "table", "private")
    old_umask = os.umask(0o022)
    try:
        mpi.run_env(env, nprocs, "iokernel", "--file", str(tmp_path / "data"))
    finally:
        os.umask(old_umask)
    (log,) = log_dir.glob("*.iotrace.jsonl")
    assert stat.S_IMODE(log.stat().st_mode) == 0o600
    assert stat.S_IMODE(log_dir.stat().st_mode) == 0o700
    # ... and through `iotuner run`, which makes it first.
    other = tmp_path / "other" / "logs"
    result = mpi.run(nprocs, "iokernel", "--file", str(tmp_path / "data2"), log_dir=other)
    assert stat.S_IMODE(result.logs[0].stat().st_mode) == 0o600
    assert stat.S_IMODE(other.stat().st_mode) == 0o700


@pytest.mark.never_harm
def test_the_job_record_names_the_mpi_library_by_its_first_line(mpi: Mpi, tmp_path: Path) -> None:
    # The wheel's version string is short; the overflow a 2,000-character one caused is
    # tested with Debian's MPICH (test_debian_mpich.py).
    log = one_log(mpi.run(2, "iokernel", "--file", str(tmp_path / "data")))
    # The first line as the library says it without iotuner ("MPICH Version:\t...", "Open
    # MPI v4.1.4, package: ..."): the one the installation was built with, whichever it is.
    assert log.job["mpi_library"] == mpi_library()
    assert log.job["mpi_library"].strip()
    assert "\n" not in log.job["mpi_library"]
    assert log.path.parent == tmp_path / "logs"
