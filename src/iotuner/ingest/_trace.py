"""Trace logs into the knowledge base: each `op` row with a duration is a measurement of
the workload TraceLog.workload_of gives it."""

import hashlib
import os
import socket
from collections import Counter
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

from iotuner.errors import TraceLogError
from iotuner.ingest._common import IngestError, IngestResult, commit_run, read_bytes
from iotuner.measurement import (
    Measurement,
    System,
    Workload,
)
from iotuner.space import config_key
from iotuner.store import Record, Store, canonical_config
from iotuner.tracelog import read_tracelog


def ingest_trace(store: Store, path: Path | str, kind: str = "trace") -> IngestResult:
    """Ingest one trace log; each `op` row with a duration becomes a measurement.

    `kind` is the run's kind in the knowledge base: "trace", or "search" for the logs of
    search trials.

    Workload: TraceLog.workload_of (the one reading of a trace's workloads).
    Configuration: every key requested for the file up to the row's hint set, with the
    value MPI reported for it (effective), or {} when none was. System: host and MPI
    library from the job, the driver of the file's hints; fs_type and fs_mount "unknown"
    (a log does not tell), unless the log comes from this host (see _trace_system).
    Measurement uid: the log's sha256 and the row's index; repeat: how many earlier rows
    of the log had the same workload and configuration.
    """
    path = Path(path).resolve()
    data = read_bytes(path)
    run_uid = hashlib.sha256(data).hexdigest()
    log = read_tracelog(path)
    job = log.job
    host = job["host"].split(".")[0] or "unknown"
    mpi_library = " ".join(job["mpi_library"].split()) or "unknown"
    configs, drivers = _configs_in_force(log.hints)
    log_drivers = set(drivers.values())
    log_driver = log_drivers.pop() if len(log_drivers) == 1 else "unknown"
    systems: dict[tuple[str, str], System] = {}

    records: list[Record] = []
    ignored = 0
    repeats: Counter[tuple[Workload, str]] = Counter()
    for index, row in enumerate(log.ops):
        if row["duration"] <= 0:
            ignored += 1
            continue
        try:
            workload = log.workload_of(index)
        except TraceLogError as exc:
            raise IngestError(str(exc)) from None
        hint_set = (row["file"], row["hint_set"])
        config = configs.get(hint_set, {})
        driver = drivers.get(hint_set) or _file_driver(drivers, row["file"]) or log_driver
        directory = os.path.dirname(row["file"])
        if (driver, directory) not in systems:
            systems[(driver, directory)] = _trace_system(
                host, mpi_library, driver, row["file"], job.get("cwd")
            )
        system = systems[(driver, directory)]
        key = (workload, config_key(canonical_config(config)))
        measurement = Measurement(
            uid=f"{run_uid}:{index}",
            workload=workload,
            config=dict(config),
            bandwidth=float(row["bandwidth"]),
            seconds=float(row["duration"]),
            bytes=row["bytes"],
            repeat=repeats[key],
            provenance={
                "log": str(path),
                "line": log.op_lines[index],
                "operation": row["operation"],
                "file": row["file"],
            },
        )
        repeats[key] += 1
        records.append((measurement, system, "trace"))
    run_system = records[0][1] if records else None
    meta = {
        "job": {k: v for k, v in job.items() if k != "record"},
        "end": {k: v for k, v in (log.end or {}).items() if k != "record"},
    }
    return commit_run(
        store,
        path,
        kind,
        run_uid,
        records,
        ignored,
        program=job["program"],
        system=run_system,
        meta=meta,
        started_at=float(job["start_time"]),
    )


def _configs_in_force(
    hints: Iterable[dict[str, Any]],
) -> tuple[dict[tuple[str, int], dict[str, str]], dict[tuple[str, int], str]]:
    """For each (file, seq) hint set: the configuration in force and the driver.

    RATIONALE: a hints record lists only the keys passed at its decision point (an access
    record only the keys the table changed there), so the keys in force are those requested
    by the file's records up to this one; their values are what MPI last reported.
    """
    by_file: dict[str, list[dict[str, Any]]] = {}
    for record in hints:
        by_file.setdefault(record["file"], []).append(record)
    configs: dict[tuple[str, int], dict[str, str]] = {}
    drivers: dict[tuple[str, int], str] = {}
    for name, records in by_file.items():
        requested: dict[str, str] = {}
        effective: dict[str, str] = {}
        for record in sorted(records, key=lambda r: r["seq"]):
            requested.update({str(k): str(v) for k, v in record["requested"].items()})
            effective.update({str(k): str(v) for k, v in record["effective"].items()})
            configs[(name, record["seq"])] = {k: effective.get(k, v) for k, v in requested.items()}
            drivers[(name, record["seq"])] = record["driver"] or "unknown"
    return configs, drivers


def _file_driver(drivers: Mapping[tuple[str, int], str], name: str) -> str | None:
    """The driver any hints record of file `name` reported, or None."""
    return next((d for (f, _), d in drivers.items() if f == name and d != "unknown"), None)


def _trace_system(
    host: str, mpi_library: str, driver: str, file: str, cwd: str | None = None
) -> System:
    """The system of a trace row. A trace does not record the file system; when the log
    comes from this host and names an absolute path (or a relative one and the job's
    working directory), the mount table here tells, so traces and bench runs of the same
    machine land on the same system."""
    here = socket.gethostname().split(".")[0]
    if not os.path.isabs(file) and cwd and os.path.isabs(cwd):
        file = os.path.join(cwd, file)
    if host == here and os.path.isabs(file):
        detected = System.detect(Path(file).parent, mpi_library, driver)
        return System(host, detected.mpi_library, detected.fs_type, driver, detected.fs_mount)
    return System(host, mpi_library, "unknown", driver, "unknown")
