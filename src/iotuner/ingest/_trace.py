"""Trace logs into the knowledge base: each `op` row with a duration is a measurement of
the workload TraceLog.workload_of gives it."""

import os
from collections import Counter
from collections.abc import Iterator
from pathlib import Path

from iotuner.errors import TraceLogError
from iotuner.ingest._common import IngestError, IngestResult
from iotuner.measurement import (
    Measurement,
    System,
    Workload,
)
from iotuner.space import config_key
from iotuner.store import Record, Store, canonical_config
from iotuner.tracelog import TraceLog, read_tracelog

MEASUREMENTS_PER_BATCH = 10_000
"""Measurements made and handed to the knowledge base at a time.

RATIONALE: a 100 MB log holds some 300,000 rows; made all at once, their measurements and
the knowledge base's rows of them took over a GB. In batches, within the one transaction
of the run, memory stays that of one batch and the result is the same: all or nothing.
"""


def ingest_trace(store: Store, path: Path | str, kind: str = "trace") -> IngestResult:
    """Ingest one trace log; each `op` row with a duration becomes a measurement.

    `kind` is the run's kind in the knowledge base: "trace", or "search" for the logs of
    search trials.

    Workload: TraceLog.workload_of (the one reading of a trace's workloads).
    Configuration: TraceLog.config_of, every key requested for the file up to the row's
    hint set, with the value MPI reported for it (effective), or {} when none was. System:
    TraceLog.system_of, host and MPI library from the job, the driver of the file's hints
    (TraceLog.driver_of); fs_type and fs_mount "unknown" (a log does not tell), unless the
    log comes from this host (see iotuner.tracelog.trace_system).
    Measurement uid: the log's sha256 and the row's index; repeat: how many earlier rows
    of the log had the same workload and configuration.

    The run and its new measurements are stored in one transaction, as commit_run does,
    the measurements made and stored MEASUREMENTS_PER_BATCH at a time.
    """
    path = Path(path).resolve()
    log = read_tracelog(path)
    run_uid = log.sha256
    durations = log.ops.column("duration")
    measured = [index for index, seconds in enumerate(durations) if seconds > 0]
    ignored = len(durations) - len(measured)
    uids = [f"{run_uid}:{index}" for index in measured]
    job = log.job
    meta = {
        "job": {k: v for k, v in job.items() if k != "record"},
        "end": {k: v for k, v in (log.end or {}).items() if k != "record"},
    }
    batches = _measurements(log, path, run_uid, measured)
    with store.transaction():
        # A run is recorded when it brings a new measurement (or was recorded before), so
        # ingesting a known file again leaves no empty run behind.
        if store.run_id(run_uid) is None and _all_stored(store, uids):
            return IngestResult(path, kind, len(durations), 0, len(uids), ignored)
        first = next(batches, [])
        run_id = store.add_run(
            run_uid,
            kind,
            str(path),
            program=job["program"],
            system=first[0][1] if first else None,
            meta=meta,
            started_at=float(job["start_time"]),
        )
        added = store.add_records(run_id, first)
        for batch in batches:
            added += store.add_records(run_id, batch)
    return IngestResult(path, kind, len(durations), added, len(uids) - added, ignored)


def _all_stored(store: Store, uids: list[str]) -> bool:
    """Whether the knowledge base holds every one of `uids`, asked a batch at a time and
    no further than the first batch with one missing (for a new log, the first)."""
    for start in range(0, len(uids), MEASUREMENTS_PER_BATCH):
        batch = uids[start : start + MEASUREMENTS_PER_BATCH]
        if len(store.known_uids(batch)) < len(batch):
            return False
    return True


def _measurements(
    log: TraceLog, path: Path, run_uid: str, measured: list[int]
) -> Iterator[list[Record]]:
    """The measurements of the rows `measured` (indices of log.ops), in batches."""
    systems: dict[tuple[str, str], System] = {}
    # The configuration and system of each (file, hint set), found once for all its rows.
    in_force: dict[tuple[str, int], tuple[dict[str, str], str, System]] = {}
    ops = log.ops
    files, hint_sets, lines = ops.column("file"), ops.column("hint_set"), ops.lines
    bandwidths, durations = ops.column("bandwidth"), ops.column("duration")
    moved, operations = ops.column("bytes"), ops.column("operation")
    repeats: Counter[tuple[int, str]] = Counter()
    # Rows share their workload objects (TraceLog.workload_of); equal workloads of other
    # rows are found once per object, not hashed and compared field by field per row.
    equal_to: dict[Workload, Workload] = {}
    first_equal: dict[int, int] = {}
    batch: list[Record] = []
    for index in measured:
        try:
            workload = log.workload_of(index)
        except TraceLogError as exc:
            raise IngestError(str(exc)) from None
        file = files[index]
        hint_set = (file, hint_sets[index])
        if hint_set not in in_force:
            driver = log.driver_of(hint_set)
            directory = os.path.dirname(file)
            if (driver, directory) not in systems:
                systems[(driver, directory)] = log.system_of(file, driver)
            config = log.config_of(hint_set)
            in_force[hint_set] = (
                config,
                config_key(canonical_config(config)),
                systems[(driver, directory)],
            )
        config, config_text, system = in_force[hint_set]
        same = first_equal.get(id(workload))
        if same is None:
            same = first_equal[id(workload)] = id(equal_to.setdefault(workload, workload))
        key = (same, config_text)
        measurement = Measurement(
            uid=f"{run_uid}:{index}",
            workload=workload,
            config=dict(config),
            bandwidth=float(bandwidths[index]),
            seconds=float(durations[index]),
            bytes=moved[index],
            repeat=repeats[key],
            provenance={
                "log": str(path),
                "line": lines[index],
                "operation": operations[index],
                "file": file,
            },
        )
        repeats[key] += 1
        batch.append((measurement, system, "trace"))
        if len(batch) == MEASUREMENTS_PER_BATCH:
            yield batch
            batch = []
    if batch:
        yield batch
