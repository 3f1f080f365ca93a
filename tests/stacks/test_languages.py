"""Programs in other languages and libraries (programs/lang/), traced and tuned.

Each program writes a shared file collectively at 2 ranks and reads it back: a C++
program (mpicxx), Fortran with `use mpi` and with `use mpi_f08` (MPICH's Fortran bindings
call the C MPI_ routines, Open MPI's the PMPI_ ones: the interposer wraps both), mpi4py,
and a parallel-HDF5 program (collective transfers). Each runs once without iotuner and
once tuned and traced, with the MPI the interposer was built with (conftest.Stack), and
the test checks that

* its operations are in the trace log (the collective write and read, the file's bytes);
* the table's hints were applied: the log's `hints` records request them, and under
  ROMIO (MPICH) MPI reports them, in the record's `effective` and in what the program
  printed from MPI_File_get_info. Open MPI 4.1's get_info only echoes the keys given at
  open (OMPIO and romio321 alike): there the table has keys both components read by that
  name (cb_*; OMPIO ignores romio_*), and every requested key must be reported with its
  value or listed as unhonoured;
* the output is the same: the files byte for byte, for HDF5 the dataset's values (its
  header holds timestamps), read back by the same program.

Run them for another MPI with IOTUNER_PREFIX (see conftest.py); with
IOTUNER_REQUIRE_STACKS=1 a missing compiler or library fails instead of skipping.
"""

import sys
from pathlib import Path

import pytest

from iotuner.tracelog import TraceLog

from ..integration.conftest import one_log, printed_info, warnings_in, write_table
from .conftest import SOURCES, Stack, run_plain, run_tuned

pytestmark = pytest.mark.stacks

ROMIO_OPEN = {"cb_buffer_size": "1048576", "romio_cb_read": "disable", "cb_nodes": "1"}
"""Not ROMIO's defaults (16 MiB, automatic)."""
ROMIO_ACCESS = {"romio_cb_write": "enable"}
"""For every collective access: the write's decision sets it, the read's keeps it."""
OPEN_MPI_OPEN = {"cb_buffer_size": "1048576", "cb_nodes": "1"}
OPEN_MPI_ACCESS = {"cb_buffer_size": "524288"}
"""Open MPI: keys both of its I/O components take by these names (OMPIO ignores romio_*)."""


def hints_for(stack: Stack) -> tuple[dict[str, str], dict[str, str]]:
    """The table's hints at open and at collective access for this stack."""
    return (ROMIO_OPEN, ROMIO_ACCESS) if stack.romio else (OPEN_MPI_OPEN, OPEN_MPI_ACCESS)


def tuning_table(stack: Stack, path: Path) -> Path:
    at_open, at_access = hints_for(stack)
    return write_table(
        path,
        {"at": "open", "hints": at_open},
        {"pattern": "collective", "hints": at_access},
    )


def check_traced(log: TraceLog, data: str, *, exact_bytes: int | None) -> None:
    """The log holds the collective write and read of `data` and its file record."""
    assert log.job["nprocs"] == 2
    ops = [op for op in log.ops if op["file"] == data]
    names = {op["operation"] for op in ops}
    assert {"MPI_File_write_at_all", "MPI_File_read_at_all"} <= names, names
    collective = [op for op in ops if op["operation"].endswith("_all")]
    assert all(op["ranks"] == 2 and op["pattern"] == "collective" for op in collective)
    [closed] = [f for f in log.files if f["file"] == data]
    if exact_bytes is not None:
        assert closed["bytes_written"] == closed["bytes_read"] == exact_bytes
    else:  # HDF5 also writes its metadata, independently
        assert closed["bytes_written"] > 0 and closed["bytes_read"] > 0
    assert {m["operation"] for m in log.metas if m["file"] == data} >= {
        "MPI_File_open",
        "MPI_File_close",
    }


def check_tuned(stack: Stack, log: TraceLog, data: str, tuned: str, plain: str) -> None:
    """The table's hints were requested, and applied as far as MPI can tell."""
    at_open, at_access = hints_for(stack)
    records = [h for h in log.hints if h["file"] == data]
    opened = [h for h in records if h["at"] == "open"]
    accessed = [h for h in records if h["at"] == "access"]
    assert len(opened) == 1, records
    assert opened[0]["requested"] == at_open
    assert accessed and accessed[0]["requested"] == at_access, records
    for record in (opened[0], accessed[0]):
        unhonoured = {u["key"] for u in record["unhonoured"]}
        for key, value in record["requested"].items():
            assert record["effective"].get(key) == value or key in unhonoured, (key, record)
    reported, reference = printed_info(tuned), printed_info(plain)
    if stack.romio:
        # ROMIO reports the values it uses: the table's, where the plain run had its own.
        assert opened[0]["driver"] == "ufs"
        assert opened[0]["unhonoured"] == [] and accessed[0]["unhonoured"] == []
        for key, value in {**at_open, **at_access}.items():
            assert reported[key] == value, (key, reported)
        assert reference["cb_buffer_size"] != at_open["cb_buffer_size"]
        assert reference["romio_cb_write"] != at_access["romio_cb_write"]
    elif log.job["mpi_library"].startswith("Open MPI v4."):
        # Open MPI 4.1 reports the keys given at open, and none without the interposer;
        # a key given again by MPI_File_set_info it no longer reports at all.
        assert opened[0]["effective"] == at_open
        assert reported["cb_nodes"] == at_open["cb_nodes"], reported
        assert "cb_nodes" not in reference
    else:
        # Open MPI 5: its ROMIO reports every value it uses (the table's, given again by
        # set_info after the open it ignores; at the end, the access's), its OMPIO the
        # given keys it reads, and none after a set_info (formats/hint_safety.md).
        assert at_open.items() <= opened[0]["effective"].items(), opened[0]
        if log.job["io_component"].startswith("romio"):
            assert reported["cb_buffer_size"] == at_access["cb_buffer_size"], reported
            assert reference["cb_buffer_size"] not in {*at_open.values(), *at_access.values()}


def run_both(
    stack: Stack, tmp_path: Path, command: list[str], env: dict[str, str] | None = None
) -> tuple[Path, Path, str, str, TraceLog]:
    """`command` + FILE without iotuner (plain.dat) and tuned and traced (tuned.dat):
    both files, both outputs, and the tuned run's log."""
    plain_file, tuned_file = tmp_path / "plain.dat", tmp_path / "tuned.dat"
    plain = run_plain(stack, [*command, str(plain_file)], env)
    table = tuning_table(stack, tmp_path / "table.jsonl")
    result = run_tuned(stack, [*command, str(tuned_file)], table, tmp_path / "logs", env)
    assert warnings_in(result.stderr) == []
    for out in (plain, result.stdout):
        assert "checked " in out and "errors" not in out, out
    return plain_file, tuned_file, plain, result.stdout, one_log(result)


@pytest.mark.never_harm
@pytest.mark.parametrize(
    ("wrapper", "source"),
    [("mpicxx", "shared_rw.cpp"), ("mpif90", "rw_mpi.f90"), ("mpif90", "rw_mpi_f08.f90")],
)
def test_compiled_program(stack: Stack, tmp_path: Path, wrapper: str, source: str) -> None:
    """C++, and Fortran with `use mpi` and `use mpi_f08`."""
    program = stack.compile(wrapper, source)
    plain_file, tuned_file, plain, tuned, log = run_both(stack, tmp_path, [str(program)])
    assert tuned_file.read_bytes() == plain_file.read_bytes()
    assert plain_file.stat().st_size == 2 * 32768 * 8
    check_traced(log, str(tuned_file), exact_bytes=2 * 32768 * 8)
    check_tuned(stack, log, str(tuned_file), tuned, plain)


@pytest.mark.never_harm
def test_mpi4py(stack: Stack, mpi4py_env: dict[str, str], tmp_path: Path) -> None:
    command = [sys.executable, str(SOURCES / "rw_mpi4py.py")]
    plain_file, tuned_file, plain, tuned, log = run_both(stack, tmp_path, command, mpi4py_env)
    assert log.job["program"] == "rw_mpi4py.py"  # the script's name, not python's
    assert tuned_file.read_bytes() == plain_file.read_bytes()
    assert plain_file.stat().st_size == 2 * 32768 * 8
    check_traced(log, str(tuned_file), exact_bytes=2 * 32768 * 8)
    check_tuned(stack, log, str(tuned_file), tuned, plain)


@pytest.mark.never_harm
def test_parallel_hdf5(stack: Stack, tmp_path: Path) -> None:
    program = stack.compile("h5pcc", "rw_hdf5.c")
    plain_file, tuned_file, plain, tuned, log = run_both(stack, tmp_path, [str(program)])
    check_traced(log, str(tuned_file), exact_bytes=None)
    check_tuned(stack, log, str(tuned_file), tuned, plain)
    # The dataset's values, read back from each file by a plain run of the program.
    digests = [
        [line for line in run_plain(stack, [str(program), "--dump", str(path)]).splitlines()
         if line.startswith("dataset ")]
        for path in (plain_file, tuned_file)
    ]  # fmt: skip
    assert digests[0] == digests[1] and digests[0][0].startswith("dataset 128x256 "), digests
