"""Never harm: a failed open's handle is the program's, whatever the error handler.

Issue 32: a program sets a file error handler that returns on MPI_FILE_NULL, then opens a
missing file several times into an MPI_File it never set. With a user handler that returns,
MPICH returns MPI_SUCCESS from the failed open, and where ROMIO fails before it opens
anything (the file's directory is missing too) it leaves the handle as it was. The
interposer (trace or tune) then asked PMPI_File_get_errhandler about that garbage handle
(iot__file_hold_errhandler, from open_inheriting in interposer/src/wrappers.c) and the
program died of SIGSEGV in 7 of 10 runs; without iotuner it runs. Every real open now
writes into a handle of the interposer's, and only what MPI wrote reaches the program's.

`open_missing` (programs/open_missing.c) fills the handle with 0x5a bytes before each open,
so a tool that touches it crashes every time. Under every mode the program must print the
same lines (each open's error class, what the handle holds after it, the handler's calls)
and exit as it does without iotuner, each of several runs, and iotuner must not warn.
"""

from pathlib import Path

import pytest

from .conftest import TIMEOUT, Mpi, one_log, run_interposed, warnings_in, write_table

MODES = ["off", "trace", "tune", "tune,trace"]
RUNS = 2

# An open entry: the tune modes take the tuned open (open_tuned), whose attempt with the
# table's hints fails as well, and its retry without them; an access entry for the rest.
TABLE: list[dict[str, object]] = [
    {"at": "open", "hints": {"romio_ds_write": "disable"}},
    {"pattern": "collective", "hints": {"romio_cb_write": "enable"}},
]


@pytest.mark.never_harm
@pytest.mark.parametrize("handler", ["return", "user"])
@pytest.mark.parametrize("nprocs", [1, 2])
@pytest.mark.parametrize("mode", MODES)
def test_failed_open_leaves_the_handle_as_mpi_does(
    mpi: Mpi, tmp_path: Path, mode: str, nprocs: int, handler: str
) -> None:
    options = ("--handler", handler, "--opens", "3")
    plain_dir = tmp_path / "plain"
    plain_dir.mkdir()
    plain = mpi.run_plain(nprocs, "open_missing", "--dir", str(plain_dir), *options, check=False)
    assert plain.returncode == 0, plain.stderr[-3000:]
    assert "handle=" in plain.stdout and plain.stdout.endswith("present ok\ndone\n")
    table = write_table(tmp_path / "table.jsonl", *TABLE)
    for run in range(RUNS):
        data = tmp_path / f"run{run}"
        data.mkdir()
        command = mpi.command(nprocs, "open_missing", "--dir", str(data), *options)
        result = run_interposed(
            command,
            mode=mode,
            table=table,
            log_dir=tmp_path / f"logs{run}",
            capture=True,
            timeout=TIMEOUT,
        )
        assert result.returncode == plain.returncode, (
            f"{mode}, run {run}: exit {result.returncode}\n{result.stderr[-3000:]}"
        )
        assert result.stdout == plain.stdout, mode
        assert warnings_in(result.stderr) == []
        if "trace" in mode:
            log = one_log(result)
            assert log.end is not None and log.end["warnings"] == []
