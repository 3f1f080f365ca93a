"""What one run did: its main workload (the one that moved the most bytes), its bandwidth
there and the configuration in force, read from its trace logs."""

import json
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path

from iotuner.measurement import Workload
from iotuner.tracelog import read_tracelog

__all__ = ["RunSummary", "main_workload", "phase_key"]


@dataclass
class RunSummary:
    """What one run did on its main workload (the one that moved the most bytes)."""

    program: str
    nprocs: int
    host: str
    workload: Workload
    bandwidth: float
    """MiB/s: its bytes over the seconds of its operations."""
    in_force: dict[str, str]
    """The configuration in force for most of its bytes, as MPI reported it: the table's
    program entry, or the generic entries that matched when the program has none."""
    app_keys: frozenset[str] = frozenset()
    """The hints the program itself passed to MPI for the workload's files (the trace's
    `app` keys): for them, the program's own value is its default."""
    file: str = ""
    """The name (as passed to MPI_File_open) of the file that moved most of the workload's
    bytes: the learner's entries are this file's."""
    system: str | None = None
    """The fingerprint of the system that file is on, as ingesting the trace stores it."""
    phase_bandwidth: float | None = None
    """MiB/s: that file's bytes over the seconds from its opens to the ends of its closes
    (its `file` records), as the program's own clock sees its I/O phase; None when the
    logs have no closed record of it."""
    phases: dict[str, float] | None = None
    """MiB/s of each workload on that file (phase_key: its pattern, op, layout and size
    group), bytes over the seconds of its operations: the guard judges each, so that a
    change slowing a smaller phase of the file does not stay unseen behind the main one."""


def phase_key(workload: Workload) -> str:
    """'collective write strided group 12': a phase of a file, as runs record it."""
    return f"{workload.pattern} {workload.op} {workload.layout} group {workload.group}"


def main_workload(logs: Sequence[Path]) -> RunSummary:
    """The run's main workload, its bandwidth and the configuration in force for it."""
    moved: Counter[Workload] = Counter()
    seconds: dict[Workload, float] = {}
    configs: dict[Workload, Counter[str]] = {}
    spelled: dict[str, dict[str, str]] = {}
    app_keys: dict[Workload, set[str]] = {}
    files: dict[Workload, Counter[str]] = {}
    systems: dict[str, str] = {}
    phases: dict[str, list[float]] = {}
    program, nprocs, host = "", 0, ""
    for path in logs:
        log = read_tracelog(path)
        program = str(log.job["program"])
        nprocs = int(log.job.get("nprocs") or log.job.get("size") or 0)
        host = str(log.job["host"]).split(".")[0]
        _add_phases(phases, log.open_phases())
        for index, row in enumerate(log.ops):
            if row["duration"] <= 0:
                continue
            workload = log.workload_of(index)
            moved[workload] += int(row["bytes"])
            seconds[workload] = seconds.get(workload, 0.0) + float(row["duration"])
            hint_set = (row["file"], row["hint_set"])
            config = log.config_of(hint_set)
            key = json.dumps(config, sort_keys=True)
            spelled[key] = config
            configs.setdefault(workload, Counter())[key] += int(row["bytes"])
            app_keys.setdefault(workload, set()).update(log.app_keys(row["file"]))
            files.setdefault(workload, Counter())[row["file"]] += int(row["bytes"])
            if row["file"] not in systems:
                systems[row["file"]] = log.system_of(
                    row["file"], log.driver_of(hint_set)
                ).fingerprint
            nprocs = nprocs or workload.nprocs
    if not moved:
        raise ValueError("the run's trace has no timed I/O operation")
    workload, total = moved.most_common(1)[0]
    main_file = files[workload].most_common(1)[0][0]
    on_file: dict[str, list[float]] = {}
    for each, by_file in files.items():
        if main_file in by_file:  # its share of bytes on the file, at the workload's rate
            share = by_file[main_file] / max(sum(by_file.values()), 1)
            total_each = on_file.setdefault(phase_key(each), [0.0, 0.0])
            total_each[0] += moved[each] * share
            total_each[1] += seconds[each] * share
    return RunSummary(
        program=program,
        nprocs=nprocs or workload.nprocs,
        host=host,
        workload=workload,
        bandwidth=total / 1048576 / seconds[workload],
        in_force=spelled[configs[workload].most_common(1)[0][0]],
        app_keys=frozenset(app_keys.get(workload, set())),
        file=main_file,
        system=systems[main_file],
        phase_bandwidth=_phase_bandwidth(phases.get(main_file)),
        phases={k: m / 1048576 / t for k, (m, t) in on_file.items() if m > 0 and t > 0},
    )


def _add_phases(phases: dict[str, list[float]], opens: Iterable[tuple[str, float, float]]) -> None:
    """Add each file's bytes and open-to-close seconds of a log's opens
    (TraceLog.open_phases: those closed on every rank) to `phases`."""
    for name, moved, seconds in opens:
        total = phases.setdefault(name, [0.0, 0.0])
        total[0] += moved
        total[1] += seconds


def _phase_bandwidth(total: list[float] | None) -> float | None:
    if total is None or total[0] <= 0 or total[1] <= 0:
        return None
    return total[0] / 1048576 / total[1]
