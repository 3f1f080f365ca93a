"""Never harm, on the error paths: every MPI error answers the same with and without iotuner.

`errcases` (programs/errcases.c) provokes each error scenario (invalid datatypes, negative
offsets and counts, read-only files, missing files, closed handles, MPI_MODE_SEQUENTIAL files,
split collectives, ...) and the success paths next to them, and prints one line per scenario:
the error class MPI returned, how often a user error handler ran and with which classes, and
what else the scenario checks. The run without the interposer is the reference. Under every
mode the lines must be the same, the program must exit as it did (the interposer never aborts,
never hangs, never fires the program's error handler for a call the program did not make) and
iotuner must not warn, except where a test expects it.

What each scenario answers is the MPI's business: the reference is always the run on the same
MPI (IOTUNER_PREFIX, OMPI_MCA_io). MPICH answers every scenario and exits 0; Open MPI 4.1
answers some otherwise and ends the job in the last scenario of user and fatal mode
(programs/errcases.c, at the top, says which and why).

One job runs all scenarios of one handler mode (`return`: MPI_ERRORS_RETURN; `user`: a
counting handler that returns; `fatal`: MPI_ERRORS_ARE_FATAL, success scenarios only), so a
scenario that kills the job hides the ones after it; the failure names the scenario it died in.
"""

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from iotuner.runner import RunResult

from .conftest import (
    TIMEOUT,
    Mpi,
    is_mpich,
    mpi_library,
    one_log,
    run_interposed,
    warnings_in,
    write_table,
)

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
# the tuned attempt: "No aggregators match", MPI_ERR_IO, at 1, 2 and 4 ranks with ROMIO in
# MPICH. Open MPI 4.1's OMPIO ignores the key (the open succeeds: nothing to retry; no
# value of any key OMPIO reads made an open fail here), and its romio321 ends the job in
# MPI_Abort ("Attempt to free null pointer", ad_open.c:215) even without iotuner.
FAULT_OPEN = {"IOTUNER_FAULT_OPEN": "cb_config_list=nosuchhost:1"}
FAULT_KEY, _, FAULT_VALUE = FAULT_OPEN["IOTUNER_FAULT_OPEN"].partition("=")


def mpich_major() -> int:
    """MPICH's major version, from "MPICH Version:\t4.0.2"."""
    return int(mpi_library().split(":", 1)[1].strip().split(".")[0])


# (nprocs, handler): every handler at 1 and 2 ranks, a few at 4 (2 cores).
CASES = [(n, h) for n in (1, 2) for h in HANDLERS] + [(4, "return"), (4, "user")]


def cases(pairs: list[tuple[int, str]]) -> list[Any]:
    """The (nprocs, handler) parameters; 4 ranks on 2 cores (8-12 s a case) are CI's (its
    slow stage, and -m never_harm on every stack)."""
    return [
        pytest.param(n, h, id=f"n{n}-{h}", marks=[pytest.mark.slow] if n > 2 else [])
        for n, h in pairs
    ]


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


@dataclass(frozen=True)
class Answers:
    """What errcases answered: its scenario lines and the job's exit status."""

    lines: dict[str, str]
    status: int


Reference = Callable[[int, str], Answers]


@pytest.fixture(scope="module")
def reference(mpiexec: str, tmp_path_factory: pytest.TempPathFactory) -> Reference:
    """What errcases answers without the interposer, once per (nprocs, handler), whatever
    its exit status (an MPI may end the job in a scenario: then that is the reference)."""
    cache: dict[tuple[int, str], Answers] = {}

    def answers(nprocs: int, handler: str) -> Answers:
        if (nprocs, handler) not in cache:
            workdir = tmp_path_factory.mktemp(f"plain-{nprocs}-{handler}")
            mpi = Mpi(mpiexec=mpiexec, workdir=workdir)
            args = ("--dir", str(workdir), "--handler", handler)
            plain = mpi.run_plain(nprocs, "errcases", *args, check=False)
            cache[nprocs, handler] = Answers(parse(plain.stdout), plain.returncode)
        return cache[nprocs, handler]

    return answers


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


def assert_same_answers(reference: Answers, result: RunResult, mode: str) -> None:
    """The same scenario lines as without the interposer, and the same exit status."""
    expected = reference.lines
    got = parse(result.stdout)
    if result.returncode == reference.status and got == expected:
        return
    problems = []
    if result.returncode != reference.status:
        died_in = next((name for name in expected if name not in got), "after the last line")
        problems.append(
            f"exit {result.returncode} (without iotuner {reference.status}), in scenario {died_in}"
        )
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
    """Without iotuner: every scenario ran, in order, and on MPICH the errors are errors and
    the successes are not."""
    answers = reference(2, handler)
    lines = answers.lines
    expected = [name for name, kind in kinds.items() if handler != "fatal" or kind == "success"]
    if is_mpich():
        assert answers.status == 0
        assert list(lines) == expected
        # MPI_File_get_position on an MPI_MODE_SEQUENTIAL file: Debian's MPICH 4.0.2 calls
        # a user handler with MPI_ERR_UNSUPPORTED_OPERATION but returns MPI_SUCCESS under
        # MPI_ERRORS_RETURN; MPICH 5.0.2 (the wheel) returns the error.
        old_mpich = mpich_major() < 5 and handler == "return"
        accepted = {"sequential_get_position"} if old_mpich else set()
        for name, line in lines.items():
            answer = fields(line)
            if kinds[name] == "success" or name in accepted:
                assert answer["rc_class"] == "MPI_SUCCESS" and answer["handler_calls"] == "0", line
            elif handler == "return":
                assert answer["rc_class"] != "MPI_SUCCESS" and answer["handler_calls"] == "0", line
            else:
                assert answer["handler_calls"] != "0", line
    else:
        # Open MPI 4.1 accepts some of the errors and ends the job in the last scenario of
        # user and fatal mode (errcases.c's top): the lines up to there, in order, and
        # under MPI_ERRORS_RETURN nothing ends the job.
        assert list(lines) == expected[: len(lines)]
        if answers.status == 0:
            assert len(lines) == len(expected)
        else:  # ended in the last scenario, never under MPI_ERRORS_RETURN
            assert handler != "return" and len(lines) == len(expected) - 1
    for line in lines.values():
        answer = fields(line)
        if handler != "user":  # no handler of the program's that could run
            assert answer["handler_calls"] == "0", line
        assert (answer["handler_calls"] == "0") == (answer["handler_class"] == "-"), line
    assert "past_eof=0" in fields(lines["read_past_eof"])["extra"].split(",")
    for name in ("collective_write", "set_view_write_all", "sequential_shared"):
        assert "verified=1" in lines[name] or "records_ok=1" in lines[name], lines[name]


# ------------------------------------------------------------- under the interposer


@pytest.mark.never_harm
@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize(("nprocs", "handler"), cases(CASES))
def test_errors_answer_as_without_iotuner(
    mpi: Mpi, tmp_path: Path, reference: Reference, nprocs: int, handler: str, mode: str
) -> None:
    table = write_table(tmp_path / "table.jsonl", *TABLE)
    result = run_errcases(mpi, nprocs, handler, mode, table)
    expected = reference(nprocs, handler)
    assert_same_answers(expected, result, mode)
    assert warnings_in(result.stderr) == []
    # (A job MPI ended writes no log: rank 0 writes it in MPI_Finalize.)
    if "trace" in mode and expected.status == 0:
        log = one_log(result)  # complete and readable after all those errors
        assert log.end is not None and log.end["warnings"] == []


RETRY_CASES = [(1, "user"), (2, "return"), (2, "user"), (2, "fatal"), (4, "user")]


@pytest.fixture(scope="module")
def fault_open_answer(mpiexec: str, tmp_path_factory: pytest.TempPathFactory) -> str:
    """What this MPI does, without iotuner, with the fault hint at open: `rejected` (the
    open returns an error), `accepted` (it succeeds) or `ends the job`."""
    workdir = tmp_path_factory.mktemp("fault-hint")
    mpi = Mpi(mpiexec=mpiexec, workdir=workdir)
    hint = f"{FAULT_KEY}={FAULT_VALUE}"
    plain = mpi.run_plain(
        2, "iokernel", "--file", str(workdir / "data"), "--hint", hint, check=False
    )
    if plain.returncode == 0:
        return "accepted"
    return "rejected" if "iokernel: MPI_File_open failed" in plain.stderr else "ends the job"


@pytest.mark.never_harm
@pytest.mark.parametrize("mode", ["tune", "tune,trace"])
@pytest.mark.parametrize(("nprocs", "handler"), cases(RETRY_CASES))
def test_open_rejected_by_table_hints_answers_as_without_iotuner(
    mpi: Mpi,
    tmp_path: Path,
    reference: Reference,
    fault_open_answer: str,
    nprocs: int,
    handler: str,
    mode: str,
) -> None:
    """Every open first fails with the table's hints and is retried without them.

    The program must not see the first attempt: a user handler on MPI_FILE_NULL runs as
    often as without iotuner (once for the missing file of open_missing, never for an open
    the retry makes succeed), MPI_ERRORS_ARE_FATAL does not kill the job, and a file opened by
    the retry, or after it, carries the handler MPI_FILE_NULL has (open_then_error and the
    `later_*` fields of open_missing and open_bad_amode).

    Where MPI accepts the fault hint (OMPIO) the opens stand and nothing is retried: the
    answers must still be the plain run's, without a warning."""
    if is_mpich():
        assert fault_open_answer == "rejected"  # else this test would not test the retry
    if fault_open_answer == "ends the job":
        pytest.skip(f"{FAULT_KEY}={FAULT_VALUE} ends the job at open without iotuner here")
    table = write_table(tmp_path / "table.jsonl", *REJECTED_AT_OPEN)
    result = run_errcases(mpi, nprocs, handler, mode, table, FAULT_OPEN)
    expected = reference(nprocs, handler)
    got = parse(result.stdout)
    for name in ("open_missing", "open_then_error"):
        if name in got:
            calls, plain = (fields(lines[name])["handler_calls"] for lines in (got, expected.lines))
            assert calls == plain, f"{name}: the handler ran {calls} times, {plain} without iotuner"
    assert_same_answers(expected, result, mode)
    warnings = warnings_in(result.stderr)
    if fault_open_answer == "accepted":
        assert warnings == []
        return
    assert warnings, "a retried open should say that it ran untuned"
    assert all("MPI_File_open" in warning for warning in warnings), warnings
