"""Never harm, on the error paths: every MPI error answers the same with and without iotuner.

`errcases` (programs/errcases.c) provokes each error scenario (invalid datatypes, negative
offsets and counts, read-only files, missing files, closed handles, MPI_MODE_SEQUENTIAL files,
split collectives, ...) and the success paths next to them, and prints one line per scenario:
the error class MPI returned, how often a user error handler ran and with which classes, and
what else the scenario checks. The run without the interposer is the reference. Under every
mode the lines must be the same, the program must exit 0 (the interposer never aborts, never
hangs, never fires the program's error handler for a call the program did not make) and iotuner
must not warn, except where a test expects it.

One job runs all scenarios of one handler mode (`return`: MPI_ERRORS_RETURN; `user`: a
counting handler that returns; `fatal`: MPI_ERRORS_ARE_FATAL, success scenarios only), so a
scenario that kills the job hides the ones after it; the failure names the scenario it died in.
"""

from collections.abc import Callable
from pathlib import Path

import pytest

from iotuner.runner import RunResult

from .conftest import TIMEOUT, Mpi, one_log, run_interposed, warnings_in, write_table

HANDLERS = ["return", "user", "fatal"]
MODES = ["trace", "tune", "tune,trace"]

# Hints at open and at collective access, all harmless: the answers must not change.
TABLE: list[dict[str, object]] = [
    {"at": "open", "hints": {"romio_ds_write": "disable", "cb_buffer_size": "1048576"}},
    {"pattern": "collective", "hints": {"romio_cb_write": "enable"}},
]

# ROMIO rejects this at open with MPI_ERR_IO ("No aggregators match": no host has that name),
# on any number of ranks and without creating the file, so the interposer's first open fails
# and it retries without the table's hints. (Garbage values of cb_nodes, striping_*,
# romio_* and ind_*_buffer_size are ignored by ROMIO; a negative cb_buffer_size aborts the
# job inside MPI_File_open even without iotuner.)
REJECTED_AT_OPEN: list[dict[str, object]] = [{"at": "open", "hints": {"romio_ds_write": "disable"}}]
# No hint the vocabulary allows makes an open fail on this machine (hints.def refuses
# cb_config_list host names for that reason), so a test switch adds one MPI rejects to
# the tuned attempt: "No aggregators match", MPI_ERR_IO, at 1, 2 and 4 ranks.
FAULT_OPEN = {"IOTUNER_FAULT_OPEN": "cb_config_list=nosuchhost:1"}

# (nprocs, handler): every handler at 1 and 2 ranks, a few at 4 (2 cores).
CASES = [(n, h) for n in (1, 2) for h in HANDLERS] + [(4, "return"), (4, "user")]


def parse(stdout: str) -> dict[str, str]:
    """errcases' `scenario NAME ...` lines, by scenario name, in order."""
    lines = {}
    for line in stdout.splitlines():
        if line.startswith("scenario "):
            lines[line.split()[1]] = line
    return lines


def fields(line: str) -> dict[str, str]:
    """The KEY=VALUE fields of one scenario line."""
    return dict(word.split("=", 1) for word in line.split()[2:])


@pytest.fixture(scope="module")
def kinds(mpiexec: str, tmp_path_factory: pytest.TempPathFactory) -> dict[str, str]:
    """Every scenario errcases knows: name -> `success` or `error`, in its order."""
    mpi = Mpi(mpiexec=mpiexec, workdir=tmp_path_factory.mktemp("list"))
    listed = mpi.run_plain(1, "errcases", "--list").stdout.split()
    return dict(zip(listed[::2], listed[1::2], strict=True))


Reference = Callable[[int, str], dict[str, str]]


@pytest.fixture(scope="module")
def reference(mpiexec: str, tmp_path_factory: pytest.TempPathFactory) -> Reference:
    """The lines errcases prints without the interposer, once per (nprocs, handler)."""
    cache: dict[tuple[int, str], dict[str, str]] = {}

    def lines(nprocs: int, handler: str) -> dict[str, str]:
        if (nprocs, handler) not in cache:
            workdir = tmp_path_factory.mktemp(f"plain-{nprocs}-{handler}")
            mpi = Mpi(mpiexec=mpiexec, workdir=workdir)
            args = ("--dir", str(workdir), "--handler", handler)
            cache[nprocs, handler] = parse(mpi.run_plain(nprocs, "errcases", *args).stdout)
        return cache[nprocs, handler]

    return lines


def run_errcases(
    mpi: Mpi,
    nprocs: int,
    handler: str,
    mode: str,
    table: Path,
    extra_env: dict[str, str] | None = None,
) -> RunResult:
    """errcases under the interposer, in a directory of its own; any exit status."""
    data = mpi.workdir / f"data-{mode.replace(',', '-')}"
    data.mkdir()
    command = mpi.command(nprocs, "errcases", "--dir", str(data), "--handler", handler)
    return run_interposed(
        command,
        mode=mode,
        table=table,
        log_dir=mpi.workdir / "logs",
        capture=True,
        timeout=TIMEOUT,
        extra_env=extra_env,
    )


def assert_same_answers(expected: dict[str, str], result: RunResult, mode: str) -> None:
    """The same scenario lines as without the interposer, and exit 0."""
    got = parse(result.stdout)
    if result.returncode == 0 and got == expected:
        return
    problems = []
    if result.returncode != 0:
        died_in = next((name for name in expected if name not in got), "after the last line")
        problems.append(f"exit {result.returncode}, in scenario {died_in}")
    for name, line in expected.items():
        if name in got and got[name] != line:
            problems.append(f"{name}:\n  without iotuner: {line}\n  {mode:>15}: {got[name]}")
    if not problems:
        problems.append(f"other lines: {sorted(got)} instead of {sorted(expected)}")
    # MPI's messages, without backtraces (lines starting with a path) and iotuner's warnings.
    stderr = [
        line
        for line in result.stderr.splitlines()
        if not line.startswith(("/", "iotuner: warning:")) and line.strip()
    ]
    stderr.append(f"({len(warnings_in(result.stderr))} iotuner warnings)")
    # mpiexec reports a rank killed by a signal on stdout.
    stderr += [line for line in result.stdout.splitlines() if "EXIT STRING" in line]
    pytest.fail(f"{mode}: " + "\n".join(problems) + "\n--- stderr:\n" + "\n".join(stderr[-12:]))


# ------------------------------------------------------------- the reference itself


@pytest.mark.parametrize("handler", HANDLERS)
def test_errcases_provokes_every_scenario(
    reference: Reference, kinds: dict[str, str], handler: str
) -> None:
    """Without iotuner: every scenario ran, the errors are errors and the successes are not."""
    lines = reference(2, handler)
    expected = [name for name, kind in kinds.items() if handler != "fatal" or kind == "success"]
    assert list(lines) == expected
    for name, line in lines.items():
        answer = fields(line)
        if kinds[name] == "success":
            assert answer["rc_class"] == "MPI_SUCCESS" and answer["handler_calls"] == "0", line
        elif handler == "return":
            assert answer["rc_class"] != "MPI_SUCCESS" and answer["handler_calls"] == "0", line
        else:
            assert answer["handler_calls"] != "0", line
    assert "past_eof=0" in fields(lines["read_past_eof"])["extra"].split(",")
    for name in ("collective_write", "set_view_write_all", "sequential_shared"):
        assert "verified=1" in lines[name] or "records_ok=1" in lines[name], lines[name]


# ------------------------------------------------------------- under the interposer


@pytest.mark.never_harm
@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize(("nprocs", "handler"), CASES, ids=[f"n{n}-{h}" for n, h in CASES])
def test_errors_answer_as_without_iotuner(
    mpi: Mpi, tmp_path: Path, reference: Reference, nprocs: int, handler: str, mode: str
) -> None:
    table = write_table(tmp_path / "table.jsonl", *TABLE)
    result = run_errcases(mpi, nprocs, handler, mode, table)
    assert_same_answers(reference(nprocs, handler), result, mode)
    assert warnings_in(result.stderr) == []
    if "trace" in mode:
        log = one_log(result)  # complete and readable after all those errors
        assert log.end is not None and log.end["warnings"] == []


RETRY_CASES = [(1, "user"), (2, "return"), (2, "user"), (2, "fatal"), (4, "user")]


@pytest.mark.never_harm
@pytest.mark.parametrize("mode", ["tune", "tune,trace"])
@pytest.mark.parametrize(
    ("nprocs", "handler"), RETRY_CASES, ids=[f"n{n}-{h}" for n, h in RETRY_CASES]
)
def test_open_rejected_by_table_hints_answers_as_without_iotuner(
    mpi: Mpi, tmp_path: Path, reference: Reference, nprocs: int, handler: str, mode: str
) -> None:
    """Every open first fails with the table's hints and is retried without them.

    The program must not see the first attempt: a user handler on MPI_FILE_NULL runs as
    often as without iotuner (once for the missing file of open_missing, never for an open
    the retry makes succeed), MPI_ERRORS_ARE_FATAL does not kill the job, and a file opened by
    the retry, or after it, carries the handler MPI_FILE_NULL has (open_then_error and the
    `later_*` fields of open_missing and open_bad_amode)."""
    table = write_table(tmp_path / "table.jsonl", *REJECTED_AT_OPEN)
    result = run_errcases(mpi, nprocs, handler, mode, table, FAULT_OPEN)
    expected = reference(nprocs, handler)
    got = parse(result.stdout)
    for name in ("open_missing", "open_then_error"):
        if name in got:
            calls, plain = (fields(line[name])["handler_calls"] for line in (got, expected))
            assert calls == plain, f"{name}: the handler ran {calls} times, {plain} without iotuner"
    assert_same_answers(expected, result, mode)
    warnings = warnings_in(result.stderr)
    assert warnings, "a retried open should say that it ran untuned"
    assert all("MPI_File_open" in warning for warning in warnings), warnings
