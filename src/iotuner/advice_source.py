"""What one log says about a program's I/O, for `iotuner advise` (iotuner.advise): its
groups of files and direction, their evidence, and the diagnosis.

Each significant group of files and direction (write or read) becomes a FileGroup
(iotuner.ingest): from a Darshan log by iotuner.ingest.read_darshan, with the log's counters
as evidence; from a trace log here, one group per file name and op, described by
TraceLog.workload_of (the one reading of a trace's workloads) for the call that moved the
most bytes, with the mean bytes per call. The findings (iotuner.diagnose) come from a
Darshan log's counters, or from a trace log's evidence.
"""

import os
import socket
import sys
from collections import defaultdict
from dataclasses import dataclass, field, replace
from pathlib import Path

from iotuner._inputs import InputError, checked_input
from iotuner.coverage import size_words as _size
from iotuner.diagnose import SMALL_REQUEST_BYTES, Finding, diagnose_job, ordered
from iotuner.errors import IotunerError
from iotuner.ingest import (
    DarshanJob,
    DarshanReader,
    Evidence,
    FileGroup,
    IngestError,
    darshan_system,
    read_darshan,
)
from iotuner.measurement import System, Workload
from iotuner.program_command import ProgramCommand, from_darshan_exe, from_trace_program
from iotuner.tracelog import TraceLog, read_tracelog

__all__ = [
    "AdviceError",
    "Source",
    "findings_of",
    "groups_of_trace",
    "read_source",
    "workload_evidence",
]


class AdviceError(IotunerError):
    """A log advise cannot read or use."""


@dataclass(frozen=True)
class Source:
    """What one log says about a program's I/O."""

    path: Path
    kind: str  # "darshan" or "trace"
    program: str
    nprocs: int
    groups: list[FileGroup]
    notes: list[str]
    command: ProgramCommand = field(default_factory=lambda: from_darshan_exe(""))
    """The program's command line as it runs here (iotuner.program_command)."""
    host: str | None = None
    """The host the log names (a trace's); None where it does not (Darshan)."""
    fs_types: dict[tuple[str, str], str] = field(default_factory=dict)
    """The file system type under each group (by name and op); "unknown" where the log
    does not tell."""
    job: DarshanJob | None = None
    """The Darshan log as read (its counters: what the findings come from); None for a
    trace log."""

    def fs_type(self, group: FileGroup) -> str:
        return self.fs_types.get((group.name, group.op), "unknown")


def read_source(path: Path | str, *, reader: DarshanReader | None = None) -> Source:
    """A Darshan log (by its name or content) or a trace log of ours, as groups.

    AdviceError for what is no log: a missing file, a FIFO, a device, a directory, a
    Darshan log too large, truncated or corrupt (`reader` parses Darshan logs:
    read_darshan's). The trace log's reader raises its own errors."""
    path = Path(path)
    try:
        # The size is each reader's to bound (a trace log may be larger than a Darshan log).
        checked_input(path, "a Darshan log or a trace log", sys.maxsize)
    except InputError as exc:
        raise AdviceError(str(exc)) from None
    if path.name.endswith(".iotrace.jsonl") or _starts_like_json(path):
        log = read_tracelog(path)
        host = str(log.job.get("host") or "") or None
        groups = groups_of_trace(log)
        program = str(log.job["program"] or "unknown")
        return Source(
            path,
            "trace",
            program,
            int(log.job["nprocs"]),
            groups,
            [],
            from_trace_program(program),
            host,
            {(g.name, g.op): _local_fs_type(g.example_path, host) for g in groups},
        )
    try:
        job: DarshanJob = read_darshan(path, reader=reader)
    except IngestError as exc:
        raise AdviceError(str(exc)) from None
    return Source(
        path,
        "darshan",
        job.program,
        job.nprocs,
        list(job.groups),
        list(job.notes),
        from_darshan_exe(job.exe),
        None,
        {(g.name, g.op): darshan_system(job, [g.example_path]).fs_type for g in job.groups},
        job,
    )


def _local_fs_type(path: str, host: str | None) -> str:
    """The file system type under `path` when the trace was written on this host (from
    this machine's mount table), else "unknown": a trace records no file system type."""
    if not path or host is None or host.split(".")[0] != socket.gethostname().split(".")[0]:
        return "unknown"
    return System.detect(Path(path), "", "").fs_type


def _starts_like_json(path: Path) -> bool:
    try:
        with path.open("rb") as f:
            return f.read(1) == b"{"
    except OSError as exc:
        raise AdviceError(f"{path}: cannot read it ({exc.strerror})") from None


def groups_of_trace(log: TraceLog) -> list[FileGroup]:
    """One group per file name and op of a trace log, heaviest first: the workload of the
    call that moved the most bytes with the group's mean bytes per call, the bytes, the
    slowest rank's time in the calls (summed) and the evidence of its workload."""
    rows: dict[tuple[str, str], list[int]] = defaultdict(list)
    for index, op in enumerate(log.ops):
        rows[(str(op["file"]), str(op["kind"]))].append(index)
    groups = []
    for (name, kind), indices in rows.items():
        moved = sum(int(log.ops[i]["bytes"]) for i in indices)
        calls = sum(int(log.ops[i]["calls"]) for i in indices)
        seconds = sum(float(log.ops[i]["duration"]) for i in indices)
        heaviest = max(indices, key=lambda i: int(log.ops[i]["bytes"]))
        try:
            workload = log.workload_of(heaviest)
        except IotunerError:
            continue  # not a workload iotuner knows (no data moved, say): nothing to tune
        workload = replace(workload, bytes_per_rank=max(1, moved // max(calls, 1)))
        bandwidth = moved / seconds / 2**20 if seconds > 0 else None
        groups.append(
            FileGroup(
                name=os.path.basename(name),
                files=1,
                op=kind,
                workload=workload,
                bytes=moved,
                seconds=seconds if seconds > 0 else None,
                bandwidth=bandwidth,
                through_mpiio=True,
                evidence=workload_evidence(workload, source="trace"),
                example_path=name,
            )
        )
    return sorted(groups, key=lambda g: -g.bytes)


def workload_evidence(workload: Workload, source: str) -> list[Evidence]:
    """What a trace's workload says in plain words: small requests, independent access to
    one shared file, a strided view. (A Darshan log's evidence comes from its counters.)"""
    found = []
    per_call = workload.bytes_per_rank
    if per_call < SMALL_REQUEST_BYTES:
        found.append(
            Evidence(
                "small_requests",
                f"each rank moves {_size(per_call)} per call: small requests, where "
                "collective buffering or data sieving can merge many into few",
                f"{source}: op.bytes_per_rank",
                per_call,
            )
        )
    shared = workload.files == 1 and workload.nprocs > 1
    if shared and workload.pattern == "independent":
        found.append(
            Evidence(
                "independent_shared",
                f"{workload.nprocs} ranks access one shared file with independent calls: "
                "no collective buffering can order them",
                f"{source}: op.pattern",
                workload.nprocs,
            )
        )
    if workload.layout == "strided":
        found.append(
            Evidence(
                "noncontiguous",
                "the file view has holes (strided access"
                + (f", blocks of {_size(workload.block)}" if workload.block else "")
                + "): data sieving and two-phase I/O decide its speed",
                f"{source}: op layout (file view)",
                workload.block,
            )
        )
    return found


def findings_of(source: Source) -> list[Finding]:
    """The diagnosis of a source: a Darshan log's from its counters (iotuner.diagnose); a
    trace log's from its groups' evidence (small requests, independent access to a shared
    file, a strided view), one finding per group and fact."""
    if source.job is not None:
        return diagnose_job(source.job)
    found = [
        Finding(
            code=_TRACE_CODES.get(e.code, e.code)
            + ("" if e.code == "noncontiguous" else f"_{g.op}"),
            level="warning",
            module="trace",
            subject=g.name,
            words=e.words,
            counters={e.counter: float(e.value)},
            action="",
            seconds=g.seconds,
        )
        for g in source.groups
        for e in g.evidence
    ]
    return ordered(found)


_TRACE_CODES = {
    "small_requests": "requests.small",
    "independent_shared": "mpiio.independent",
    "noncontiguous": "access.strided",
}
