"""`iotuner advise` over a whole archive of Darshan logs (and trace logs of ours): which
programs spend the most core-hours in I/O, and what the advice could save. The run, as a stream:

1. The logs (iter_logs): directories walked lazily (os.scandir, one directory's listing at a time;
   files named `*.darshan` or `*.iotrace.jsonl`, links to directories not followed), files named
   on the command line, and files listed one per line in a list file, in that order.
2. Each log is advised into one *row* (advise_log, iotuner._archive_row). Workers are processes
   of a pool (`jobs`) or of a Dask cluster, each with its own DarshanReader; at most a few logs
   per worker are in flight, so the archive is never listed or held whole.
3. The rows go to a results file (ResultsFile, iotuner._archive_results): a rerun with the same
   file skips the logs it already holds and cuts a last line torn by a crash.
4. The ranking (rank_programs, iotuner._archive_rank): the rows grouped by program, the most
   core-hours in I/O first. What the figures rest on: iotuner._archive_figures.
"""

import contextlib
import os
import stat
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from iotuner._archive_figures import (
    MEAN_BASIS,
    SLOWEST_BASIS,
    TRACE_BASIS,
    core_hours_to_save,
    finding_core_hours,
    io_seconds_of_log,
)
from iotuner._archive_rank import TOP_FINDINGS, ProgramRank, program_findings, rank_programs
from iotuner._archive_results import (
    INT_RANGE,
    NOT_STATED,
    RESULTS_LIMIT,
    ArchiveError,
    ResultsFile,
    log_key,
    read_results,
)
from iotuner._archive_row import EVIDENCE_ONLY, ModelSetup, advise_log

__all__ = [
    "EVIDENCE_ONLY",
    "INT_RANGE",
    "MEAN_BASIS",
    "NOT_STATED",
    "RESULTS_LIMIT",
    "SLOWEST_BASIS",
    "TOP_FINDINGS",
    "TRACE_BASIS",
    "ArchiveError",
    "DaskOptions",
    "ModelSetup",
    "ProgramRank",
    "ResultsFile",
    "RunCounts",
    "advise_log",
    "core_hours_to_save",
    "file_kind",
    "finding_core_hours",
    "io_seconds_of_log",
    "iter_logs",
    "local_cluster",
    "log_key",
    "program_findings",
    "rank_programs",
    "read_results",
    "run_archive",
]

LOG_SUFFIXES = (".darshan", ".iotrace.jsonl")
"""The names a directory walk takes as logs (Darshan's own and our trace logs)."""

IN_FLIGHT_PER_WORKER = 2
"""Tasks queued per worker: enough that a worker never waits for the next log, few enough
that a killed run redoes little and the archive's names are not all held."""

DASK_BATCH = 8
"""Logs per Dask task: a task costs the scheduler about a millisecond, a log some tens."""


# --------------------------------------------------------------------------- the logs


def iter_logs(paths: Iterable[Path], from_list: Path | None = None) -> Iterator[Path]:
    """The logs to advise, lazily: each directory of `paths` walked (see the module
    docstring), each other path as given, then each line of `from_list` (blank lines and
    lines starting with # skipped)."""
    for path in paths:
        if path.is_dir():
            yield from _walk(path)
        else:
            yield path
    if from_list is not None:
        try:
            with from_list.open(encoding="utf-8", errors="surrogateescape") as lines:
                for line in lines:
                    name = line.rstrip("\n")
                    if name.strip() and not name.lstrip().startswith("#"):
                        yield Path(name)
        except OSError as exc:
            raise ArchiveError(
                f"--from-list {from_list}: cannot read it ({exc.strerror}; expected a "
                "file of log paths, one per line)"
            ) from None


def _walk(folder: Path) -> Iterator[Path]:
    """The logs under `folder`, depth first, each directory's entries in name order."""
    try:
        with os.scandir(folder) as listing:
            entries = sorted(listing, key=lambda e: e.name)
    except OSError:
        return  # an unreadable directory holds no log we can read; the walk goes on
    for entry in entries:
        try:
            is_dir = entry.is_dir(follow_symlinks=False)
        except OSError:
            continue
        if is_dir:
            yield from _walk(Path(entry.path))
        elif entry.name.endswith(LOG_SUFFIXES):
            yield Path(entry.path)


def _advise_batch(paths: list[str], setup: ModelSetup) -> list[dict[str, Any]]:
    """The rows of several logs (a pool or Dask task)."""
    return [advise_log(Path(p), setup) for p in paths]


# --------------------------------------------------------------------------- the run


@dataclass(frozen=True)
class DaskOptions:
    """A Dask run: on a scheduler's cluster at `scheduler`, else a LocalCluster of
    `workers` processes with one thread each."""

    scheduler: str | None = None
    workers: int = 2


@dataclass
class RunCounts:
    """What a run did: logs advised now, skipped (already in the results), failed."""

    advised: int = 0
    skipped: int = 0
    failed: int = 0


def run_archive(
    logs: Iterable[Path],
    setup: ModelSetup = EVIDENCE_ONLY,
    *,
    jobs: int = 1,
    results: Path | None = None,
    dask: DaskOptions | None = None,
    on_row: Callable[[dict[str, Any]], None] | None = None,
) -> tuple[list[dict[str, Any]], RunCounts]:
    """Advise every log of `logs` (see the module docstring): in this process when `jobs`
    is 1, else in a pool of `jobs` processes, or on Dask. Returns the rows of the logs
    given (those of earlier runs taken from `results`) and the counts; `on_row` is called
    with each new row as it comes."""
    store = ResultsFile(results) if results is not None else None
    rows: list[dict[str, Any]] = []
    counts = RunCounts()

    def pending() -> Iterator[Path]:
        seen: set[tuple[str, int, int]] = set()
        for path in logs:
            key = log_key(path)
            if key in seen:
                continue  # the same log given twice: advised once
            seen.add(key)
            done = store.rows.get(key) if store is not None else None
            if done is not None:
                counts.skipped += 1
                rows.append(done)
            else:
                yield path

    def take(row: dict[str, Any]) -> None:
        if store is not None:
            store.append(row)
        rows.append(row)
        counts.advised += 1
        counts.failed += row["status"] == "error"
        if on_row is not None:
            on_row(row)

    try:
        if dask is not None:
            _run_dask(pending(), setup, dask, take)
        elif jobs <= 1:
            for path in pending():
                take(advise_log(path, setup))
        else:
            _run_pool(pending(), setup, jobs, take)
    finally:
        if store is not None:
            store.close()
    return rows, counts


def _batches(paths: Iterator[Path], size: int) -> Iterator[list[str]]:
    batch: list[str] = []
    for path in paths:
        batch.append(str(path))
        if len(batch) == size:
            yield batch
            batch = []
    if batch:
        yield batch


def _run_pool(
    paths: Iterator[Path], setup: ModelSetup, jobs: int, take: Callable[[dict[str, Any]], None]
) -> None:
    import concurrent.futures as cf
    import multiprocessing

    # forkserver: workers start from a clean process, not a fork of one that may hold
    # threads (BLAS, OpenMP) a fork would copy mid-lock.
    context = multiprocessing.get_context("forkserver")
    # Imported once in the fork server, not once per worker (pandas and iotuner: seconds).
    context.set_forkserver_preload(["iotuner.advise", "iotuner.archive"])
    with cf.ProcessPoolExecutor(max_workers=jobs, mp_context=context) as pool:
        batches = _batches(paths, 1)
        running: set[cf.Future[list[dict[str, Any]]]] = set()
        for batch in batches:
            running.add(pool.submit(_advise_batch, batch, setup))
            if len(running) >= jobs * IN_FLIGHT_PER_WORKER:
                done, running = cf.wait(running, return_when=cf.FIRST_COMPLETED)
                for future in done:
                    for row in future.result():
                        take(row)
        for future in cf.as_completed(running):
            for row in future.result():
                take(row)


def local_cluster(workers: int) -> Any:
    """A Dask LocalCluster of `workers` single-threaded worker processes, quiet and without
    a dashboard (a context manager): what `--dask` starts without --scheduler."""
    import logging

    from distributed import LocalCluster

    return LocalCluster(
        n_workers=workers,
        threads_per_worker=1,
        processes=True,
        dashboard_address=None,
        silence_logs=logging.ERROR,
    )


def _run_dask(
    paths: Iterator[Path],
    setup: ModelSetup,
    options: DaskOptions,
    take: Callable[[dict[str, Any]], None],
) -> None:
    from distributed import Client, as_completed

    with contextlib.ExitStack() as stack:
        if options.scheduler is not None:
            try:
                client = stack.enter_context(Client(options.scheduler, timeout="30s"))
            except (OSError, TimeoutError) as exc:
                raise ArchiveError(
                    f"--scheduler {options.scheduler}: cannot reach a Dask scheduler there "
                    f"({exc}; expected an address such as tcp://host:8786)"
                ) from None
        else:
            cluster = stack.enter_context(local_cluster(options.workers))
            client = stack.enter_context(Client(cluster))
        workers = max(len(client.scheduler_info().get("workers", {})), 1)
        batches = _batches(paths, DASK_BATCH)
        queue = as_completed()
        for batch in batches:
            queue.add(client.submit(_advise_batch, batch, setup, pure=False))
            if queue.count() >= workers * IN_FLIGHT_PER_WORKER:
                break
        for future in queue:
            for row in future.result():
                take(row)
            future.release()
            batch = next(batches, [])
            if batch:
                queue.add(client.submit(_advise_batch, batch, setup, pure=False))


def file_kind(path: Path) -> str:
    """'directory', 'file' or what else `path` is (for the CLI's choice of mode)."""
    try:
        mode = os.stat(path).st_mode
    except OSError:
        return "missing"
    return "directory" if stat.S_ISDIR(mode) else "file"
