"""`iotuner advise` over a whole archive of Darshan logs (and trace logs of ours): which
programs spend the most core-hours in I/O, and what the advice could save.

The run, as a stream:

1. The logs: directories walked lazily (os.scandir, one directory's listing at a time;
   files named `*.darshan` or `*.iotrace.jsonl`, links to directories not followed), files
   named on the command line, and files listed one per line in a list file, in that order.
2. Each log is advised (iotuner.advise.read_source and advise, with the model and training
   data loaded once per worker process) into one *row*: a small summary (program, ranks,
   I/O time, what the advice could save, every finding, the recommended hints). A log
   that cannot be read gives a row with its error, not a stop. Workers are processes of a
   pool (`jobs`) or of a Dask cluster, each with its own DarshanReader; at most a few logs
   per worker are in flight, so the archive is never listed or held whole.
3. The rows go to a results file (JSON Lines, one row per log, each written and fsynced
   as it comes): a rerun with the same file skips the logs it already holds (same path,
   size and modification time) and cuts a last line torn by a crash.
4. The ranking (rank_programs): the rows grouped by program, ordered by the core-hours
   their runs spent in I/O, with the core-hours the advice could save and every finding,
   the most core-hours at stake first.

What the figures rest on:

* I/O time of a Darshan log (io_seconds_of_log): the slowest rank's time in reads, writes
  and metadata calls, the way `darshan-parser --perf` estimates it by the slowest rank:
  for files only one rank opened, each rank's *_F_READ_TIME + *_F_WRITE_TIME +
  *_F_META_TIME summed over its files, the largest rank's sum; for files all ranks opened
  (rank -1 records), *_F_SLOWEST_RANK_TIME, the slowest rank's time on that file. Each
  file is counted in one module (MPI-IO where it has a record there, else POSIX, else
  STDIO) so a POSIX call made under an MPI-IO call is not counted twice; the modules'
  times are added. A trace log of ours: the slowest rank's time in the data calls of each
  group (no metadata time), added over the groups. The row says which (`io_basis`).
* Core-hours in I/O: nprocs x I/O seconds / 3600 (every rank waits for the slowest).
* Core-hours at stake in a finding: nprocs x the finding's seconds / 3600, the same rule
  (the seconds are what the mean rank could save or the slowest rank's lead: all ranks
  wait them); unknown (None) when the log gives the finding no time.
* Core-hours to save: only from a recommendation that changes hints and carries a
  predicted gain interval: the group's time x (1 - 1 / the interval's lower bound), times
  its ranks (none when the lower bound is at most 1). A log with no such recommendation
  saves "unknown" (None), never a guess.
"""

import contextlib
import dataclasses
import json
import math
import os
import stat
import time
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from iotuner._fileio import create_private_file
from iotuner._inputs import InputError, checked_input
from iotuner.errors import IotunerError
from iotuner.ingest import DarshanReader

__all__ = [
    "ArchiveError",
    "ModelSetup",
    "ProgramRank",
    "ResultsFile",
    "advise_log",
    "io_seconds_of_log",
    "iter_logs",
    "local_cluster",
    "rank_programs",
    "read_results",
    "run_archive",
]

LOG_SUFFIXES = (".darshan", ".iotrace.jsonl")
"""The names a directory walk takes as logs (Darshan's own and our trace logs)."""

TOP_FINDINGS = 5
"""Findings of a program the terminal's ranking names (the rows and pages keep all)."""

IN_FLIGHT_PER_WORKER = 2
"""Tasks queued per worker: enough that a worker never waits for the next log, few enough
that a killed run redoes little and the archive's names are not all held."""

DASK_BATCH = 8
"""Logs per Dask task: a task costs the scheduler about a millisecond, a log some tens."""

_LEVELS = {"critical": 0, "warning": 1, "info": 2, None: 3}
"""Order of findings' levels, the most severe first (None: evidence without a level)."""

_MODULES = (("MPI-IO", "MPIIO"), ("POSIX", "POSIX"), ("STDIO", "STDIO"))
"""The modules whose time is counted, in the order a file is taken from."""

SLOWEST_BASIS = (
    "slowest rank: per-rank *_F_READ_TIME + *_F_WRITE_TIME + *_F_META_TIME for files of "
    "one rank, *_F_SLOWEST_RANK_TIME for shared files"
)
MEAN_BASIS = (
    "mean rank: *_F_READ_TIME + *_F_WRITE_TIME + *_F_META_TIME of shared files divided by "
    "the ranks (the log keeps no slowest-rank time)"
)
TRACE_BASIS = "trace: the slowest rank's time in the data calls (no metadata time)"


class ArchiveError(IotunerError):
    """An archive run that cannot go on: an unreadable list or results file."""


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


NOT_STATED = -1
"""Size and modification time of a log that cannot be stat'ed (a dangling link, a listed
path that is missing): its row is an error row, and a rerun that still cannot stat it
takes that row back instead of trying again."""


def log_key(path: Path) -> tuple[str, int, int]:
    """What identifies a log across runs: its absolute path, size and modification time
    (ns); NOT_STATED for the last two when it cannot be stat'ed."""
    name = os.path.abspath(path)
    try:
        info = os.stat(name)
    except OSError:
        return name, NOT_STATED, NOT_STATED
    return name, info.st_size, info.st_mtime_ns


# --------------------------------------------------------------------------- one log


@dataclass(frozen=True)
class ModelSetup:
    """What a worker needs to load the model and its training data (picklable: it travels
    to pool and Dask workers). `model` None: evidence only."""

    model: str | None = None
    db: str | None = None
    system: str | None = None
    space: str | None = None
    kind: str | None = None


class _KeepingReader(DarshanReader):
    """A DarshanReader that keeps the last log's plain data: read_source turns it into
    groups, and the archive reads the I/O time from the same counters without a second
    parse."""

    last: dict[str, Any] | None = None

    def read(self, path: Path) -> dict[str, Any]:
        self.last = None
        self.last = super().read(path)
        return self.last


@dataclass
class _Worker:
    """A worker process's state: its reader and, with a model, what advise needs."""

    reader: _KeepingReader
    predictor: Any = None
    space: Any = None
    summary: Any = None
    words: str = ""
    system: Any = None


_WORKERS: dict[ModelSetup, _Worker] = {}
"""One state per setup in each process (a pool or Dask worker keeps it between tasks)."""


def _worker(setup: ModelSetup) -> _Worker:
    state = _WORKERS.get(setup)
    if state is None:
        state = _WORKERS[setup] = _Worker(_KeepingReader())
        if setup.model is not None:
            _load_model(setup, state)
    return state


def _load_model(setup: ModelSetup, state: _Worker) -> None:
    from iotuner.learn import training_data
    from iotuner.models import load_model
    from iotuner.store import open_named_store

    assert setup.model is not None
    store = open_named_store(setup.db)
    try:
        data = training_data(store, system=setup.system, space=setup.space, kind=setup.kind)
    finally:
        store.close()
    state.predictor = load_model(Path(setup.model))
    state.space, state.summary, state.system = data.space, data.frame, data.system
    state.words = (
        f"model {setup.model} learned on {data.system.host} ({data.system.fs_type}): the "
        "advice holds as far as the two systems are alike"
    )


def advise_log(path: Path, setup: ModelSetup = ModelSetup()) -> dict[str, Any]:
    """The row of one log (see the module docstring); a log that cannot be read or
    advised gives a row with status "error" and the reason, never an exception."""
    from iotuner.advise import advise, read_source

    name, size, mtime = log_key(path)
    row: dict[str, Any] = {"path": name, "size": size, "mtime_ns": mtime}
    started = time.perf_counter()
    state = _worker(setup)
    try:
        source = read_source(path, reader=state.reader)
        advice = advise(
            source,
            state.predictor,
            state.space,
            state.summary,
            model_words=state.words,
            system=state.system,
        )
        last = state.reader.last if source.kind == "darshan" else None
        row.update(_summary(advice, last, state.predictor is not None))
    except IotunerError as exc:
        row.update(status="error", error=str(exc))
    except (OSError, ValueError, KeyError, TypeError) as exc:
        # A trace log's reader or an odd log may fail outside iotuner's error tree: one
        # row says so and the archive goes on.
        row.update(status="error", error=f"{type(exc).__name__}: {exc}")
    row["advise_seconds"] = round(time.perf_counter() - started, 4)
    return _readable(row)


def _readable(row: dict[str, Any]) -> dict[str, Any]:
    """`row`, or when the results file could not take it back (a figure out of range, such
    as an infinite time from a damaged log), the log's error row saying which: every row
    written is one the next run and the report read."""
    problem = _row_problem(row)
    if problem is None:
        try:
            json.dumps(row, allow_nan=False)
        except (ValueError, TypeError) as exc:
            problem = f"not JSON ({exc})"
    if problem is None:
        return row
    keep = ("path", "size", "mtime_ns", "advise_seconds")
    return {
        **{k: row[k] for k in keep if k in row},
        "status": "error",
        "error": f"the log's figures cannot be kept: {problem}",
    }


def _advise_batch(paths: list[str], setup: ModelSetup) -> list[dict[str, Any]]:
    """The rows of several logs (a pool or Dask task)."""
    return [advise_log(Path(p), setup) for p in paths]


def _summary(advice: Any, log: dict[str, Any] | None, modelled: bool) -> dict[str, Any]:
    """The row's content for an advised log (`log`: the Darshan reader's data, None for a
    trace log; `modelled`: advise had a model, so a group outside its knowledge base's
    coverage, not the missing model, is why a saving is unknown)."""
    source = advice.source
    if log is not None:
        seconds, basis = io_seconds_of_log(log["frames"], source.nprocs)
    else:
        seconds = sum(g.seconds or 0.0 for g in source.groups)
        basis = TRACE_BASIS
    saved = core_hours_to_save(advice)
    run_time = (log or {}).get("job", {}).get("run_time")
    where = {(g.name, g.op): _file_system(source, g) for g in source.groups}
    return {
        "status": "ok",
        "kind": source.kind,
        "program": source.program or "unknown",
        "nprocs": source.nprocs,
        "run_seconds": float(run_time) if run_time else None,
        "io_seconds": seconds,
        "io_basis": basis,
        "io_core_hours": source.nprocs * seconds / 3600,
        "save_core_hours": saved,
        "modelled": modelled,
        "findings": [dataclasses.asdict(f) for f in advice.findings],
        "advice": [
            {
                "group": r.group.name,
                "op": r.group.op,
                "hints": r.hints,
                "interval": list(r.interval) if r.hints and r.interval else None,
                "reason": r.reason,
                "through_mpiio": r.group.through_mpiio,
                "covered": r.covered,
                "seconds": r.group.seconds,
                "fs_type": where[(r.group.name, r.group.op)][0],
                "mount": where[(r.group.name, r.group.op)][1],
            }
            for r in advice.recommendations
        ],
    }


def _file_system(source: Any, group: Any) -> tuple[str, str | None]:
    """(file system type, mount point) under a group's files, as advise's coverage saw
    them: a Darshan log's mount table; a trace's type where it was written here, and no
    mount (a trace records none)."""
    if source.job is None:
        return source.fs_type(group), None
    from iotuner.ingest import darshan_system

    system = darshan_system(source.job, [group.example_path])
    return system.fs_type, None if system.fs_mount == "unknown" else system.fs_mount


def io_seconds_of_log(frames: dict[str, Any], nprocs: int) -> tuple[float, str]:
    """The log's I/O time in seconds and the words of its basis (the module docstring):
    the slowest rank's, or the mean rank's where shared files lack the slowest-rank
    counter."""
    taken: set[int] = set()
    total = 0.0
    basis = SLOWEST_BASIS
    for module, prefix in _MODULES:
        frame = frames.get(module)
        if frame is None or frame.empty:
            continue
        ids = frame["id"].astype("int64")
        records = frame[~ids.isin(taken)]
        taken.update(int(i) for i in ids)
        columns = [f"{prefix}_F_{t}_TIME" for t in ("READ", "WRITE", "META")]
        ranks = records["rank"].to_numpy()
        times = np.zeros(len(records))
        for column in columns:
            if column in records:
                times += records[column].to_numpy(dtype=float).clip(0)
        shared = ranks == -1
        slowest = f"{prefix}_F_SLOWEST_RANK_TIME"
        if shared.any():
            if slowest in records:
                total += float(records[slowest].to_numpy(dtype=float)[shared].clip(0).sum())
            else:
                total += float(times[shared].sum()) / nprocs
                basis = MEAN_BASIS
        if not shared.all():
            own = ranks[~shared]
            _, index = np.unique(own, return_inverse=True)
            total += float(np.bincount(index, weights=times[~shared]).max())
    return total, basis


def core_hours_to_save(advice: Any) -> float | None:
    """Core-hours the advice saves at least (the module docstring), None when no
    recommendation changes hints with a predicted gain interval."""
    saved: float | None = None
    for r in advice.recommendations:
        interval = r.interval
        if not r.hints or interval is None or r.group.seconds is None:
            continue
        low = float(interval[0])
        fraction = 1.0 - 1.0 / low if low > 1.0 else 0.0
        saved = (saved or 0.0) + r.group.workload.nprocs * r.group.seconds * fraction / 3600
    return saved


def finding_core_hours(finding: dict[str, Any], nprocs: int) -> float | None:
    """The core-hours at stake in a finding of a log of `nprocs` ranks (the module
    docstring), None when the finding has no time."""
    seconds = finding.get("seconds")
    if not isinstance(seconds, int | float) or not math.isfinite(seconds):
        return None
    return nprocs * max(float(seconds), 0.0) / 3600


# --------------------------------------------------------------------------- results file


class ResultsFile:
    """The rows of an archive run, one JSON line per log, appended and fsynced one by one.

    Opening reads the rows already there (`rows`, by log_key) and cuts a last line a crash
    tore (no newline, or not JSON); a damaged line before the last is an error: the file
    is not one this class wrote."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.rows: dict[tuple[str, int, int], dict[str, Any]] = {}
        if not path.exists():
            create_private_file(path)
        self._read()
        self._fd = os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CLOEXEC)

    def _read(self) -> None:
        self.rows, good_end, size = _parse_results(self.path, "--results")
        if good_end < size:
            with self.path.open("r+b") as f:
                f.truncate(good_end)
                f.flush()
                os.fsync(f.fileno())

    def append(self, row: dict[str, Any]) -> None:
        line = (json.dumps(row, allow_nan=False) + "\n").encode()
        os.write(self._fd, line)
        os.fsync(self._fd)

    def close(self) -> None:
        with contextlib.suppress(OSError):
            os.close(self._fd)


def read_results(path: Path) -> list[dict[str, Any]]:
    """The rows of an archive run's results file (ResultsFile), read only: a torn last line
    is left out (and left in the file). ArchiveError when it is no such file."""
    try:
        checked_input(path, "the results file of an `iotuner advise` archive run", RESULTS_LIMIT)
    except InputError as exc:
        raise ArchiveError(str(exc)) from None
    return list(_parse_results(path, "--archive")[0].values())


RESULTS_LIMIT = 4 << 30
"""The largest results file read back (a few KiB a log with every finding in it, 10 KiB at
most on the shipped examples: about a million logs)."""


INT_RANGE = (-(1 << 63), (1 << 63) - 1)
"""The integers a row holds: 64-bit, as the sizes, times and counts they come from. A
larger one (a damaged or hand-made file) is out of range, not a float overflow later."""


def _number(value: Any, low: float = 0.0) -> bool:
    """A finite JSON number at least `low` that float() takes (not a bool)."""
    if isinstance(value, bool) or not isinstance(value, int | float):
        return False
    if isinstance(value, int) and not INT_RANGE[0] <= value <= INT_RANGE[1]:
        return False
    return math.isfinite(value) and value >= low


def _integer(value: Any, low: int) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and low <= value <= INT_RANGE[1]


def _finding_ok(f: Any) -> bool:
    """A finding as _top_findings writes it (diagnose.Finding): the fields the pages show."""
    return (
        isinstance(f, dict)
        and isinstance(f.get("code"), str)
        and isinstance(f.get("level"), str | None)
        and all(isinstance(f.get(k, ""), str) for k in ("words", "action", "subject", "module"))
        and isinstance(f.get("counters", {}), dict)
        and all(_number(v, -math.inf) for v in f.get("counters", {}).values())
        and (f.get("seconds") is None or _number(f["seconds"]))
    )


def _advice_ok(a: Any) -> bool:
    """One recommendation as _summary writes it."""
    interval = a.get("interval") if isinstance(a, dict) else None
    return (
        isinstance(a, dict)
        and isinstance(a.get("group"), str)
        and isinstance(a.get("op"), str)
        and isinstance(a.get("hints", {}), dict)
        and isinstance(a.get("reason", ""), str)
        and (
            interval is None
            or (
                isinstance(interval, list)
                and len(interval) == 2
                and all(_number(x) for x in interval)
            )
        )
    )


def _row_problem(row: Any) -> str | None:
    """What makes `row` no row of an archive run (the fields the ranking, the pages and a
    resumed run read, with their types and ranges), or None. This is the one definition of
    a row: advise_log checks what it writes with it, and every reader reads with it."""
    if not isinstance(row, dict):
        return f"a JSON {type(row).__name__}, not an object"
    error = row.get("status") == "error"
    # A log that could not be stat'ed has NOT_STATED for both; only its error row says so.
    unstated = error and row.get("size") == row.get("mtime_ns") == NOT_STATED
    checks: list[tuple[str, bool]] = [
        ("path", isinstance(row.get("path"), str)),
        ("size", unstated or _integer(row.get("size"), 0)),
        ("mtime_ns", unstated or _integer(row.get("mtime_ns"), INT_RANGE[0])),
        ("status", row.get("status") in ("ok", "error")),
    ]
    if error:
        checks.append(("error", isinstance(row.get("error"), str)))
    elif row.get("status") == "ok":
        findings, advice = row.get("findings"), row.get("advice")
        checks += [
            ("program", isinstance(row.get("program"), str)),
            ("nprocs", _integer(row.get("nprocs"), 1)),
            ("io_seconds", _number(row.get("io_seconds"))),
            ("io_core_hours", _number(row.get("io_core_hours"))),
            ("io_basis", isinstance(row.get("io_basis"), str)),
            ("run_seconds", row.get("run_seconds") is None or _number(row["run_seconds"])),
            (
                "save_core_hours",
                row.get("save_core_hours") is None or _number(row["save_core_hours"]),
            ),
            ("findings", isinstance(findings, list) and all(map(_finding_ok, findings))),
            ("advice", isinstance(advice, list) and all(map(_advice_ok, advice))),
        ]
    wrong = [name for name, ok in checks if not ok]
    return f"wrong, out of range or missing: {', '.join(wrong)}" if wrong else None


def _parse_results(
    path: Path, option: str
) -> tuple[dict[tuple[str, int, int], dict[str, Any]], int, int]:
    """The rows of a results file by log_key, the end of its last whole line, its size."""
    try:
        data = path.read_bytes()
    except OSError as exc:
        raise ArchiveError(
            f"{option} {path}: cannot read it ({exc.strerror}; expected a JSON Lines file "
            "of an earlier archive run, or no file)"
        ) from None
    rows: dict[tuple[str, int, int], dict[str, Any]] = {}
    # Complete lines end with a newline; what follows the last one is a torn write.
    *complete, _torn = data.split(b"\n")
    good_end = 0
    for number, line in enumerate(complete, 1):
        if line.strip():
            try:
                row = json.loads(line)
                wrong = _row_problem(row)
            except (ValueError, RecursionError):
                row, wrong = None, "not JSON"
            if wrong is not None:
                if number == len(complete) and row is None:
                    # A last line the crash left unparsable (zeros a file system filled
                    # in): cut too. A whole JSON line was written whole: its figures are
                    # refused like any other line's, not dropped unsaid.
                    break
                raise ArchiveError(
                    f"{option} {path}: line {number} is not a row of an archive run ({wrong}; "
                    "expected one JSON object per log with path, size, mtime_ns, status and "
                    "what the status needs)"
                ) from None
            rows[(row["path"], row["size"], row["mtime_ns"])] = row
        good_end += len(line) + 1
    return rows, good_end, len(data)


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
    setup: ModelSetup = ModelSetup(),
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


# --------------------------------------------------------------------------- the ranking


@dataclass
class ProgramRank:
    """One program of the ranking: its runs' I/O core-hours and what the advice saves."""

    program: str
    logs: int = 0
    nprocs: list[int] = field(default_factory=list)
    io_core_hours: float = 0.0
    save_core_hours: float | None = None
    save_known: int = 0
    """Logs whose saving is known (a recommendation with a gain interval)."""
    io_basis: set[str] = field(default_factory=set)
    findings: list[dict[str, Any]] = field(default_factory=list)
    """Every finding of its logs, one per code and module, the most core-hours at stake
    first (program_findings)."""
    hints: dict[str, int] = field(default_factory=dict)
    """Recommended hint settings ("key=value") and how many logs they were advised for."""

    def to_dict(self) -> dict[str, Any]:
        return {
            "program": self.program,
            "logs": self.logs,
            "nprocs": [min(self.nprocs), max(self.nprocs)] if self.nprocs else None,
            "io_core_hours": self.io_core_hours,
            "save_core_hours": self.save_core_hours,
            "save_known_logs": self.save_known,
            "io_basis": sorted(self.io_basis),
            "findings": self.findings,
            "top_findings": self.findings[:TOP_FINDINGS],
            "hints": self.hints,
        }


def rank_programs(rows: Iterable[dict[str, Any]]) -> list[ProgramRank]:
    """The programs of the rows that were read, most I/O core-hours first (then most to
    save, then by name); each with its findings (program_findings). The same rows in any
    order give the same ranking (they are taken by path)."""
    ranks: dict[str, ProgramRank] = {}
    logs: dict[str, list[dict[str, Any]]] = {}
    for row in sorted(rows, key=lambda r: str(r["path"])):
        if row.get("status") != "ok":
            continue
        name = str(row["program"])
        rank = ranks.setdefault(name, ProgramRank(name))
        logs.setdefault(name, []).append(row)
        rank.logs += 1
        rank.nprocs.append(int(row["nprocs"]))
        rank.io_core_hours += float(row["io_core_hours"])
        rank.io_basis.add(str(row["io_basis"]))
        if row.get("save_core_hours") is not None:
            rank.save_core_hours = (rank.save_core_hours or 0.0) + float(row["save_core_hours"])
            rank.save_known += 1
        for advice in row.get("advice", []):
            for key, value in advice.get("hints", {}).items():
                setting = f"{key}={value}"
                rank.hints[setting] = rank.hints.get(setting, 0) + 1
    for name, rank in ranks.items():
        rank.findings = program_findings(logs[name])
    return sorted(
        ranks.values(),
        key=lambda r: (-r.io_core_hours, -(r.save_core_hours or 0.0), r.program),
    )


def program_findings(rows: Iterable[dict[str, Any]]) -> list[dict[str, Any]]:
    """A program's findings over its logs' rows: one per (code, module), with `logs` (how
    many logs had it), `core_hours` (at stake, summed over the logs: finding_core_hours;
    None when no log gave it a time), the loudest `level` seen, and the words, action and
    counters of the log where it costs the most. Ordered by core-hours at stake, the most
    first (unknown last), then level: a short test job's loud finding does not lead a
    long job's costly one."""
    merged: dict[tuple[str, str], dict[str, Any]] = {}
    cost: dict[tuple[str, str], float] = {}  # the example's core-hours, to pick the costliest
    for row in rows:
        seen: set[tuple[str, str]] = set()
        for f in row.get("findings", []):
            key = (str(f["code"]), str(f.get("module", "")))
            hours = finding_core_hours(f, int(row["nprocs"]))
            entry = merged.get(key)
            if entry is None:
                entry = merged[key] = {**f, "logs": 0, "core_hours": None}
                cost[key] = -1.0
            if hours is not None:
                entry["core_hours"] = (entry["core_hours"] or 0.0) + hours
                if hours > cost[key]:
                    cost[key] = hours
                    entry.update(
                        {k: f.get(k) for k in ("words", "action", "counters", "subject", "seconds")}
                    )
            if _LEVELS.get(f.get("level"), 3) < _LEVELS.get(entry.get("level"), 3):
                entry["level"] = f.get("level")
            if key not in seen:
                seen.add(key)
                entry["logs"] += 1
    return sorted(
        merged.values(),
        key=lambda e: (
            e["core_hours"] is None,
            -(e["core_hours"] or 0.0),
            _LEVELS.get(e.get("level"), 3),
            -e["logs"],
            e["code"],
        ),
    )


def file_kind(path: Path) -> str:
    """'directory', 'file' or what else `path` is (for the CLI's choice of mode)."""
    try:
        mode = os.stat(path).st_mode
    except OSError:
        return "missing"
    return "directory" if stat.S_ISDIR(mode) else "file"
