"""One log of an archive run advised into its row (advise_log): iotuner.advise.read_source and
advise, with the model and training data loaded once per worker process (ModelSetup, the
worker's state), then a small summary: program, ranks, I/O time, what the advice could save,
every finding, the recommended hints (the figures: iotuner._archive_figures). A log that cannot
be read or advised gives a row with its error, not a stop; so does one whose figures the
results file could not take back (iotuner._archive_results.row_problem)."""

import dataclasses
import json
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from iotuner._archive_figures import TRACE_BASIS, core_hours_to_save, io_seconds_of_log
from iotuner._archive_results import log_key, row_problem
from iotuner.errors import IotunerError
from iotuner.ingest import DarshanReader

__all__ = ["EVIDENCE_ONLY", "ModelSetup", "advise_log"]


@dataclass(frozen=True)
class ModelSetup:
    """What a worker needs to load the model and its training data (picklable: it travels
    to pool and Dask workers). `model` None: evidence only."""

    model: str | None = None
    db: str | None = None
    system: str | None = None
    space: str | None = None
    kind: str | None = None


EVIDENCE_ONLY = ModelSetup()
"""The setup without a model: rows of evidence only (the default)."""


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


def advise_log(path: Path, setup: ModelSetup = EVIDENCE_ONLY) -> dict[str, Any]:
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
    problem = row_problem(row)
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
