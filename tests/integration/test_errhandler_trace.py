"""Never harm: a file error handler set on MPI_FILE_NULL survives every open and close.

Issue 24: a program that sets a file error handler on MPI_FILE_NULL and opens and closes a
file three times aborted at the third open under IOTUNER_MODE=trace, with "Error handler is
not a file error handler" (exit 12), at 1 and 2 ranks. MPICH's ROMIO copies MPI_FILE_NULL's
handler into a new file without taking a reference and releases one at close, so a user
handler is freed after as many open/close pairs as it had references; plain MPICH never
looks at it again, but the interposer's quiet internal calls handed the freed handler back
to MPI_File_set_errhandler. The interposer now gives every file it opens the reference MPI
did not take (iot__file_hold_errhandler in interposer/src/core.c).

`errhandler_reopen` (programs/errhandler_reopen.c) is the reproduction. Under tune and trace
the program must run to the end and print every line, without a warning from iotuner; where
the run without the interposer succeeds (MPICH 5.0.2, Open MPI) the lines are the same, and
mode off answers exactly as that run. Debian's MPICH 4.0.2 is built with its assertions: its
plain run of a handler the program keeps ends at the third close ("ref_count >= 0"), the
count driven below zero by those closes; iotuner, holding the references, runs to the end.
"""

import subprocess
from pathlib import Path

import pytest

from iotuner.runner import RunResult

from .conftest import TIMEOUT, Mpi, one_log, run_interposed, warnings_in, write_table

MODES = ["off", "tune", "trace", "tune,trace"]
NPROCS = [1, 2]

# Access entries only: an open entry makes the tuned open set the handler on the new file
# itself, which hid the bug in the tune modes; a table without one leaves the inherited
# handler alone, as trace does.
TABLE: list[dict[str, object]] = [{"pattern": "collective", "hints": {"romio_cb_write": "enable"}}]
# As well, with an open entry: the tuned open and its retry path (open_tuned in wrappers.c).
TABLE_WITH_OPEN: list[dict[str, object]] = [
    {"at": "open", "hints": {"romio_ds_write": "disable"}},
    *TABLE,
]

# (handler, program options): the report (open and close only) with MPI_ERRORS_RETURN and
# with a handler of the program's (MPI_File_create_errhandler); then data calls in every
# open, which the tracer and the tuner follow with internal calls of their own.
VARIANTS = {
    "return": ("return", ()),
    "user": ("user", ()),
    "user-write": ("user", ("--write",)),
}


def run_reopen(
    mpi: Mpi, nprocs: int, mode: str, table: Path, handler: str, options: tuple[str, ...]
) -> RunResult:
    """errhandler_reopen under the interposer in a directory of its own; any exit status."""
    data = mpi.workdir / f"data-{mode.replace(',', '-')}-{nprocs}"
    data.mkdir()
    command = mpi.command(
        nprocs, "errhandler_reopen", "--dir", str(data), "--handler", handler, *options
    )
    return run_interposed(
        command,
        mode=mode,
        table=table,
        log_dir=mpi.workdir / "logs",
        capture=True,
        timeout=TIMEOUT,
    )


EXPECTED = "".join(f"open {n} ok\n" for n in (1, 2, 3)) + "done\n"
"""What errhandler_reopen prints with its three opens and no --check."""


def assert_as_without(
    result: RunResult, plain: subprocess.CompletedProcess[str], mode: str
) -> None:
    """Mode off answers as the plain run. The others exit 0 with every line (the plain
    run's, where it succeeded), no iotuner warning, and a complete log where tracing."""
    if plain.returncode == 0:
        assert plain.stdout == EXPECTED
    if mode == "off":
        assert result.returncode == plain.returncode, result.stderr[-3000:]
        if plain.returncode == 0:
            assert result.stdout == plain.stdout
        return
    assert result.returncode == 0, f"{mode}: exit {result.returncode}\n{result.stderr[-3000:]}"
    assert result.stdout == EXPECTED
    assert warnings_in(result.stderr) == []
    if "trace" in mode:
        log = one_log(result)
        assert log.end is not None and log.end["warnings"] == []
    else:
        assert result.logs == []


@pytest.mark.never_harm
@pytest.mark.parametrize("variant", list(VARIANTS))
@pytest.mark.parametrize("nprocs", NPROCS)
@pytest.mark.parametrize("mode", MODES)
def test_reopen_with_file_null_handler_answers_as_without_iotuner(
    mpi: Mpi, tmp_path: Path, mode: str, nprocs: int, variant: str
) -> None:
    handler, options = VARIANTS[variant]
    reference = tmp_path / "plain"
    reference.mkdir()
    args = ("--dir", str(reference), "--handler", handler, *options)
    plain = mpi.run_plain(nprocs, "errhandler_reopen", *args, check=False)
    table = write_table(tmp_path / "table.jsonl", *TABLE)
    result = run_reopen(mpi, nprocs, mode, table, handler, options)
    assert_as_without(result, plain, mode)


@pytest.mark.never_harm
@pytest.mark.parametrize("nprocs", NPROCS)
@pytest.mark.parametrize("mode", ["tune", "tune,trace"])
def test_reopen_with_table_open_hints_answers_as_without_iotuner(
    mpi: Mpi, tmp_path: Path, mode: str, nprocs: int
) -> None:
    """The tuned open (the handler moved aside for the attempt with the table's hints, then
    set on the new file) keeps the count right as well."""
    reference = tmp_path / "plain"
    reference.mkdir()
    args = ("--handler", "user", "--write")
    plain = mpi.run_plain(nprocs, "errhandler_reopen", "--dir", str(reference), *args, check=False)
    table = write_table(tmp_path / "table.jsonl", *TABLE_WITH_OPEN)
    result = run_reopen(mpi, nprocs, mode, table, "user", ("--write",))
    assert_as_without(result, plain, mode)


@pytest.mark.never_harm
@pytest.mark.parametrize("handler", ["return", "user"])
@pytest.mark.parametrize("nprocs", NPROCS)
@pytest.mark.parametrize("mode", ["tune", "trace", "tune,trace"])
def test_handler_stays_set_and_working_under_iotuner(
    mpi: Mpi, tmp_path: Path, mode: str, nprocs: int, handler: str
) -> None:
    """With --check, after five open/close pairs with data calls, the files and MPI_FILE_NULL
    still carry the handler and an erroneous call reaches it.

    Not compared with the plain run: on MPICH that run fails by itself (the closes free the
    handler, see programs/errhandler_reopen.c), and mode off passes everything through, so
    it does the same. Under iotuner every file holds its reference."""
    table = write_table(tmp_path / "table.jsonl", *TABLE)
    options = ("--opens", "5", "--write", "--check")
    result = run_reopen(mpi, nprocs, mode, table, handler, options)
    calls = 1 if handler == "user" else 0
    expected = "".join(f"open {n} ok\n" for n in range(1, 6))
    expected += f"handler ok calls={calls}\ndone\n"
    assert result.returncode == 0, f"{mode}: exit {result.returncode}\n{result.stderr[-3000:]}"
    assert result.stdout == expected
    assert warnings_in(result.stderr) == []
