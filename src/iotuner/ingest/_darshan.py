"""Darshan logs as input: what a program's I/O did, read from the counters Darshan keeps.

read_darshan(path) reads one log with PyDarshan (the `darshan` package), in a child
process (DarshanReader: PyDarshan's C library crashes on some damaged logs), and returns a
DarshanJob: the program, its ranks, and its files gathered into groups that play the same
role (names equal once their digit runs are replaced by `*`: `out.0001.h5` and
`out.0002.h5` are `out.*.h5`), one group per operation (write, read) that moved bytes, the
largest first. Each group carries the Workload iotuner would measure for it, the log's
time and bandwidth for it, and the evidence (counter, value, plain words) of what in it
an MPI-IO hint could act on. ingest_darshan stores the groups (see its docstring).

Which counters each workload field comes from, what a log cannot tell and the evidence
codes: docs/darshan.md, "What iotuner reads from a log".
"""

import os
import re
from collections.abc import Iterable, Mapping
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

import pandas as pd

from iotuner._inputs import InputError, checked_input
from iotuner.ingest._common import IngestError, IngestResult, commit_run, hash_input
from iotuner.ingest._darshan_groups import (
    _BYPASS_MODULES,
    _PREFIX,
    TINY_GROUP_SHARE,
    Evidence,
    FileGroup,
    _Context,
    _groups,
    _moved,
    _system_bytes,
    is_system_file,
)
from iotuner.ingest._darshan_reader import (
    _LONGEST_HEADER,
    DARSHAN_READ_TIMEOUT,
    DARSHAN_READER_MEMORY,
    DARSHAN_START_TIMEOUT,
    MAX_DARSHAN_LOG_BYTES,
    DarshanReader,
    _check_header,
    _head,
    is_darshan_log,
    shared_reader,
)
from iotuner.ingest._darshan_worker import IO_MODULES
from iotuner.measurement import Measurement, System
from iotuner.store import Record, Store

__all__ = [
    "DARSHAN_READER_MEMORY",
    "DARSHAN_READ_TIMEOUT",
    "DARSHAN_START_TIMEOUT",
    "MAX_DARSHAN_LOG_BYTES",
    "DarshanJob",
    "DarshanReader",
    "Evidence",
    "FileGroup",
    "ingest_darshan",
    "is_darshan_log",
    "is_system_file",
    "read_darshan",
    "shared_reader",
]


@dataclass(frozen=True)
class DarshanJob:
    """One Darshan log read: `nodes` is None where the log does not tell (it never does
    for more than one rank; read_darshan's caller may)."""

    path: Path
    program: str
    nprocs: int
    run_seconds: float | None
    modules: list[str]
    groups: list[FileGroup]
    notes: list[str]
    nodes: int | None = None
    start_time: float | None = None
    mounts: list[tuple[str, str]] = field(default_factory=list)
    exe: str = ""
    log: Mapping[str, Any] | None = field(default=None, repr=False, compare=False)
    """The reader's plain data of the log (_darshan_worker.read_log): what
    iotuner.diagnose reads its findings from."""


_LOG_NAME = re.compile(r"[^_]+_(?P<exe>.+?)_id\d+")
"""darshan-runtime's log names: <user>_<executable>_id<job>_<month>-<day>-<seconds>-..."""


def _program_of_log_name(path: Path) -> str:
    """The program of a log whose executable line is empty: from the log's name as
    darshan-runtime writes it, else the name itself (issue 42: dxt.darshan's program was
    blank in the terminal)."""
    stem = path.name.removesuffix(".darshan")
    named = _LOG_NAME.match(stem)
    return named.group("exe") if named else stem


def read_darshan(
    path: Path | str, nodes: int | None = None, *, reader: "DarshanReader | None" = None
) -> DarshanJob:
    """Read one Darshan log into its groups of files (see the module docstring).

    `nodes`: the hosts the job ran on, if the caller knows (Darshan does not record it).
    `reader`: the process that parses logs (DarshanReader), the one shared by the
    process's calls when None. IngestError for a file that is not a regular file of at
    most MAX_DARSHAN_LOG_BYTES, not a Darshan log, a truncated or corrupt one (also when
    the reader crashes on it or takes more than its timeout), or one with no I/O module.
    """
    path = Path(path)
    try:
        size = checked_input(path, "a Darshan log", MAX_DARSHAN_LOG_BYTES)
        head = _head(path, _LONGEST_HEADER)
    except InputError as exc:
        raise IngestError(str(exc)) from None
    except OSError as exc:
        raise IngestError(
            f"{path}: cannot read it ({exc.strerror}; expected a Darshan log)"
        ) from None
    _check_header(path, head, size)
    log = (reader or shared_reader()).read(path)
    try:
        return _job(path, log, nodes)
    except IngestError:
        raise
    except (KeyError, ValueError, TypeError, IndexError, ArithmeticError, AttributeError) as exc:
        # RATIONALE: the counters of a damaged log can be anything (a negative count, a
        # missing column of a module version never released); rather than a check of
        # every counter before use, a failure of the arithmetic over them is the log's.
        raise IngestError(
            f"{path}: the Darshan log's records are not what a Darshan 3 log holds "
            f"({type(exc).__name__}: {exc}): the log is corrupt or of an unsupported version"
        ) from None


def _job(path: Path, log: Mapping[str, Any], nodes: int | None) -> DarshanJob:
    """The DarshanJob of a log read by the reader's process (_darshan_worker.read_log)."""
    job = log["job"]
    nprocs = job.get("nprocs")
    if not isinstance(nprocs, int) or nprocs < 1:
        raise IngestError(
            f"{path}: the Darshan log says the job had {nprocs!r} processes, expected a "
            "count of at least 1: the log is corrupt"
        )
    if nodes is None and nprocs == 1:
        nodes = 1
    if nodes is not None and not 1 <= nodes <= nprocs:
        raise IngestError(f"nodes must be between 1 and the job's {nprocs} ranks, got {nodes}")
    partial_flags: Mapping[str, bool] = log["modules"]
    modules = list(partial_flags)
    present = [m for m in (*IO_MODULES, *_BYPASS_MODULES) if m in partial_flags]
    if not present:
        raise IngestError(
            f"{path}: the Darshan log has no I/O module (MPI-IO, POSIX, STDIO, DFS or "
            f"DAOS), only {', '.join(modules) or 'none'}: it tells nothing about the "
            "program's file I/O"
        )
    frames: Mapping[str, pd.DataFrame] = log["frames"]
    stripes: Mapping[int, tuple[int, int]] = log["stripes"]
    exe = str(log["exe"]).strip()
    program = os.path.basename(exe.split()[0]) if exe.split() else _program_of_log_name(path)
    run_time = job.get("run_time")
    groups = _groups(frames, _Context(nprocs, nodes, program or None, stripes, log["names"]))
    total = sum(g.bytes for g in groups)
    significant = [g for g in groups if total == 0 or g.bytes >= TINY_GROUP_SHARE * total]
    notes = _job_notes(log, nprocs, nodes, groups, significant)
    start = job.get("start_time_sec")
    return DarshanJob(
        path=path,
        program=program,
        nprocs=nprocs,
        run_seconds=float(run_time) if run_time else None,
        modules=modules,
        groups=significant,
        notes=notes,
        nodes=nodes,
        start_time=float(start) if start else None,
        mounts=list(log["mounts"]),
        exe=exe,
        log=log,
    )


def _job_notes(
    log: Mapping[str, Any],
    nprocs: int,
    nodes: int | None,
    groups: list[FileGroup],
    significant: list[FileGroup],
) -> list[str]:
    """What a reader of the job's groups should know the log leaves out or holds apart."""
    partial_flags: Mapping[str, bool] = log["modules"]
    frames: Mapping[str, pd.DataFrame] = log["frames"]
    notes = [
        "Darshan records no MPI-IO hint values: the configuration that produced these "
        "numbers is not in the log (its metadata's `h` entry holds the hints Darshan used "
        "to write the log itself)"
    ]
    if nodes is None:
        notes.append(
            f"Darshan does not record the hosts: the node count of the {nprocs} ranks is "
            "unknown (workloads hold 1 as a stand-in; stored as unknown)"
        )
    partial = [m for m, flag in partial_flags.items() if flag]
    if partial:
        notes.append(
            f"Darshan ran out of room for records in {', '.join(partial)}: the counters "
            "of those modules miss some files"
        )
    if any(m.startswith("DXT_") for m in partial_flags):
        notes.append("DXT traces are in the log; these groups are read from the counters only")
    total = sum(g.bytes for g in groups)
    tiny = [g for g in groups if g not in significant]
    if tiny:
        notes.append(
            f"{len(tiny)} more groups moved {sum(g.bytes for g in tiny)} bytes in all "
            f"(under {TINY_GROUP_SHARE:.1%} of the job's {total}); not listed"
        )
    system = _system_bytes(frames, log["names"])
    if system:
        notes.append(
            f"{system} bytes moved to and from system files (Python modules, libraries, "
            "/usr, /etc ...) are not the program's data; not grouped"
        )
    bypass = {m: _moved(frames.get(m), _PREFIX[m]) for m in _BYPASS_MODULES}
    if not groups:
        through = [f"{n} bytes through {m}" for m, n in bypass.items() if n]
        notes.append(
            "no file seen by POSIX, MPI-IO or STDIO moved any bytes"
            + (f"; the I/O went around them: {', '.join(through)}" if through else "")
        )
    return notes


def _fs_of(mounts: Iterable[tuple[str, str]], names: Iterable[str]) -> tuple[str, str]:
    """(fs type, mount point) of the longest mount point that holds the first of `names`
    under any mount; ("unknown", "unknown") when none does."""
    table = sorted(mounts, key=lambda m: len(m[0]), reverse=True)
    for name in names:
        for mount, fs_type in table:
            if name == mount or name.startswith(mount.rstrip("/") + "/"):
                return fs_type, mount
    return "unknown", "unknown"


def darshan_system(job: DarshanJob, file_names: Iterable[str]) -> System:
    """The system of a log: host unknown (Darshan keeps no host name), MPI library
    unknown (nor its MPI), the file system from the log's mount table for the files,
    driver unknown (the MPI-IO driver is not recorded).

    A file the log's LUSTRE module recorded is on Lustre whatever the mount table says:
    Darshan records the path the program opened, and where that path runs through a
    symbolic link (/projects -> /lus/theta-fs0/projects) the longest mount holding it is
    the root's (overlay, tmpfs), not the Lustre mount the data lies on."""
    names = list(file_names)
    fs_type, mount = _fs_of(job.mounts, names)
    if fs_type != "lustre" and _on_lustre(job, names):
        lustre = sorted({m for m, t in job.mounts if t == "lustre"})
        fs_type, mount = "lustre", lustre[0] if len(lustre) == 1 else "unknown"
    return System("unknown", "unknown", fs_type, "unknown", mount)


def _on_lustre(job: DarshanJob, names: list[str]) -> bool:
    """Whether the log's LUSTRE module holds a record of the first of `names`."""
    if job.log is None or not names:
        return False
    stripes = job.log.get("stripes") or {}
    return any(
        name == names[0] and int(ident) in stripes
        for ident, name in (job.log.get("names") or {}).items()
    )


def ingest_darshan(
    store: Store,
    path: Path | str,
    *,
    config: dict[str, str] | None,
    system: System | None = None,
    nodes: int | None = None,
    reader: DarshanReader | None = None,
) -> IngestResult:
    """Ingest one Darshan log (read by `reader`, else the shared one: read_darshan).

    With `config` (the configuration the job ran with; {} for the system's defaults),
    each group with a time becomes a measurement (bandwidth from the log) in a run of kind
    "trace" (a log of a real program's run, as our own traces are; the run's meta says
    `format: darshan`) on `system` or, when None, darshan_system(). It needs the node
    count where the job had more than one rank: `nodes`. Without `config`, each group is
    stored in the workloads table only (what the program does, no bandwidth to tie to a
    configuration). Uids: the log's sha256 and the group's index; ingesting the log again
    adds nothing.
    """
    # Checked under the name given: a link to /dev/zero is refused as the link's name.
    digest = hash_input(Path(path), "a Darshan log", MAX_DARSHAN_LOG_BYTES)
    path = Path(path).resolve()
    job = read_darshan(path, nodes=nodes, reader=reader)
    names = [g.example_path for g in job.groups]
    if config is None:
        return _store_workloads(store, path, digest, job)
    if job.nodes is None:
        raise IngestError(
            f"{path}: Darshan does not record how many nodes the {job.nprocs} ranks ran on, "
            "and a measurement needs it: give the node count (--darshan-nodes N)"
        )
    given_system = system
    system = system or darshan_system(job, names)
    records: list[Record] = []
    ignored = 0
    for index, group in enumerate(job.groups):
        if group.seconds is None or group.bandwidth is None:
            ignored += 1
            continue
        measurement = Measurement(
            uid=f"{digest}:{index}",
            workload=group.workload,
            config=dict(config),
            bandwidth=group.bandwidth,
            seconds=group.seconds,
            bytes=group.bytes,
            provenance={"darshan": str(path), "group": group.name, "files": group.files},
        )
        records.append((measurement, system, "darshan"))
    meta = {"format": "darshan", "exe": job.exe, "notes": job.notes, "nprocs": job.nprocs}
    result = commit_run(
        store,
        path,
        "trace",
        digest,
        records,
        ignored,
        program=job.program or None,
        system=system,
        meta=meta,
        started_at=job.start_time,
    )
    where = (
        "the log's mount table"
        if system.fs_type != "unknown"
        else "no mount in the log holds the files"
    )
    detail = (
        f"measurements on system host {system.host}, MPI {system.mpi_library}, "
        f"{system.fs_type} at {system.fs_mount} (file system from {where}; Darshan records "
        "no host, MPI library or MPI-IO driver)"
        if given_system is None
        else f"measurements on the given system (host {system.host})"
    )
    return IngestResult(path, "darshan", result.read, result.added, result.skipped, ignored, detail)


def _store_workloads(store: Store, path: Path, digest: str, job: DarshanJob) -> IngestResult:
    rows = []
    for index, group in enumerate(job.groups):
        row = group.workload.as_row()
        if job.nodes is None:
            row["nodes"] = None
        rows.append(
            {
                "uid": f"{digest}:{index}",
                "kind": "darshan",
                "source": str(path),
                "source_uid": digest,
                "name": group.name,
                "files_in_group": group.files,
                "through_mpiio": group.through_mpiio,
                **row,
                "bytes": group.bytes,
                "seconds": group.seconds,
                "bandwidth": group.bandwidth,
                "started_at": job.start_time,
                "meta": {
                    "evidence": [asdict(e) for e in group.evidence],
                    "notes": job.notes,
                    "exe": job.exe,
                },
            }
        )
    with store.transaction():
        added = store.add_workloads(rows)
    return IngestResult(path, "darshan", len(rows), added, len(rows) - added)
