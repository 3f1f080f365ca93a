"""`iotuner advise`: what to change for a program, from one Darshan log or one trace log of
ours, with zero runs of it.

1. The accesses. Each significant group of files and direction (write or read) becomes a
   FileGroup (iotuner.ingest): from a Darshan log by iotuner.ingest.read_darshan, with the
   log's counters as evidence; from a trace log here, one group per file name and op,
   described by TraceLog.workload_of (the one reading of a trace's workloads) for the
   call that moved the most bytes, with the mean bytes per call.
2. The recommendation. `tune` runs at the scales of the groups, with the model and the
   training data `iotuner tune` would use, so the evidence rule is the same (a change only
   with measured or calibrated evidence that it beats the default: iotuner.tune). The hints a
   group gets are then looked up in that table exactly as the interposer would look them
   up when the program runs: the open entry for its program, file and scale, then the
   access entry for its size group, pattern, op and layout (collective access) or the view
   entry (independent access to a strided view). So what advise recommends for a traced
   program is what `iotuner run --mode tune` with tune's table applies to it. The case's
   choice gives the predicted bandwidth, the default's, and the gain's interval (measured
   in the sweep, or calibrated on held-out workloads).
3. The ways to use it: the exports of iotuner.hint_exports for the entries the groups use,
   and the `iotuner run --mode tune` command.

Groups that do not go through MPI-IO (POSIX only) get evidence but no hints: MPI-IO hints
cannot act on them. A group the knowledge base does not cover (another file system or
host, a scale or size outside the trained range, an access never measured:
iotuner.coverage) gets no hint and no predicted gain, and the reason with the numbers.
Where hints cannot help, the change to the program's code is said as such
(iotuner.code_advice). The two-run measurement command is printed only when the log
holds the program's command line and it runs here (iotuner.program_command).
"""

import os
import shlex
import socket
import sys
from collections import defaultdict
from dataclasses import asdict, dataclass, field, replace
from pathlib import Path
from typing import Any

import pandas as pd

from iotuner._inputs import InputError, checked_input
from iotuner.code_advice import code_advice
from iotuner.coverage import Coverage
from iotuner.coverage import size_words as _size
from iotuner.diagnose import SMALL_REQUEST_BYTES, Finding, diagnose_job, ordered
from iotuner.errors import IotunerError
from iotuner.formats import size_group
from iotuner.gains import EarnedGain, stated_gain
from iotuner.hint_exports import MECHANISMS, Export, export_entries
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
from iotuner.space import Space
from iotuner.table import TableEntry, match
from iotuner.tracelog import TraceLog, read_tracelog
from iotuner.tune import Choice, Predictor, tune

__all__ = [
    "Advice",
    "AdviceError",
    "Recommendation",
    "advise",
    "export_files",
    "findings_of",
    "groups_of_trace",
    "read_source",
    "recommend_from_table",
    "workload_evidence",
]

SIGNIFICANT_SHARE = 0.01
"""Groups that moved less than this share of the job's bytes are summarised, not advised."""

EXPORT_FILES = {"romio-hints": ".romio-hints", "mca": ".ompi-mca.sh"}
"""The exports whose commands name a file (`export ROMIO_HINTS=FILE`, `. FILE`), and the
suffix of that file: `advise --table T` writes each beside T (T's name with this suffix),
so the printed commands apply. Cray's MPICH_MPIIO_HINTS and `lfs setstripe` carry their
setting in the command itself."""


def export_files(table: Path | None) -> dict[str, Path]:
    """Where `advise --table table` writes the exports of EXPORT_FILES (none without a
    table: the commands then name placeholders)."""
    if table is None:
        return {}
    # The name less a .jsonl suffix, never less another: no export file is the table.
    stem = table.name.removesuffix(".jsonl") or table.name
    return {
        mechanism: table.parent / f"{stem}{suffix}" for mechanism, suffix in EXPORT_FILES.items()
    }


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


@dataclass(frozen=True)
class Recommendation:
    """The advice for one group: the hints the interposer would apply and what they rest on."""

    group: FileGroup
    size_group: int | None
    hints: dict[str, str]
    entries: list[TableEntry]
    choice: Choice | None
    kept_default: bool
    reason: str
    code_advice: list[str] = field(default_factory=list)
    """Changes to the program's code where hints cannot help (iotuner.code_advice)."""
    covered: bool = False
    """The knowledge base covers the group (iotuner.coverage): only then a hint or a gain."""

    @property
    def gain(self) -> float | None:
        """The gain over the default (1.0: no change) that goes with `interval`: measured
        in the sweep, else calibrated (Choice.gain); None when neither is known (the ratio
        of two raw predictions is no gain: iotuner.gains)."""
        gain = earned(self)
        return None if gain is None else gain.value

    @property
    def interval(self) -> tuple[float, float] | None:
        """The gain's 10-90 % interval: measured in the sweep or calibrated on held-out
        workloads (tune.Choice.gain_interval); None when neither is known."""
        gain = earned(self)
        return None if gain is None else gain.interval


@dataclass(frozen=True)
class Advice:
    source: Source
    recommendations: list[Recommendation]
    summarised: list[FileGroup]
    noise: float | None
    exports: list[Export] = field(default_factory=list)
    run_command: str = ""
    notes: list[str] = field(default_factory=list)
    findings: list[Finding] = field(default_factory=list)
    """What in the log costs time (iotuner.diagnose), most important first."""
    search_options: tuple[str, ...] = ()
    """Options the measurement's `iotuner search` needs to find advise's model and
    knowledge base (--model, --db, --space as advise was given them)."""
    export_files: dict[str, Path] = field(default_factory=dict)
    """The file each export's commands name, by mechanism (export_files): what the caller
    writes each export's text to."""

    @property
    def measure_command(self) -> str | None:
        """The two-trial search that measures what advise could only predict (or not),
        shell-quoted; None when it could not run as printed (measure_words says why)."""
        s = self.source
        if not s.command.argv or not any(g.through_mpiio for g in s.groups):
            return None
        return shlex.join(
            [
                "iotuner",
                "search",
                "--strategy",
                "model" if "--model" in self.search_options else "random",
                "--budget",
                "2",
                *self.search_options,
                "--",
                "mpiexec",
                "-n",
                str(s.nprocs),
                *s.command.argv,
            ]
        )

    @property
    def measure_words(self) -> str:
        """Where the measurement command comes from, or why there is none."""
        s = self.source
        if s.command.argv and not any(g.through_mpiio for g in s.groups):
            return (
                "no group goes through MPI-IO: no hint search can change this program's "
                "I/O (see the code advice)"
            )
        return s.command.words

    def to_dict(self) -> dict[str, Any]:
        """The advice as JSON-ready data (what `advise --json` prints)."""
        return {
            "source": {
                "path": str(self.source.path),
                "kind": self.source.kind,
                "program": self.source.program,
                "nprocs": self.source.nprocs,
                "command": list(self.source.command.argv) or None,
            },
            "noise": self.noise,
            "findings": [asdict(f) for f in self.findings],
            "recommendations": [_recommendation_dict(r) for r in self.recommendations],
            "summarised_groups": [g.name for g in self.summarised],
            "exports": [
                {
                    "mechanism": e.mechanism,
                    "text": e.text,
                    "usage": e.usage,
                    "kept": e.kept,
                    "dropped": e.dropped,
                    "file": str(self.export_files[e.mechanism].absolute())
                    if e.mechanism in self.export_files
                    else None,
                }
                for e in self.exports
            ],
            "run_command": self.run_command or None,
            "measure_command": self.measure_command,
            "measure_words": self.measure_words,
            "notes": [*self.source.notes, *self.notes],
        }


def _recommendation_dict(r: Recommendation) -> dict[str, Any]:
    g = r.group
    gain = earned(r)
    return {
        "group": g.name,
        "files": g.files,
        "op": g.op,
        "through_mpiio": g.through_mpiio,
        "bytes": g.bytes,
        "seconds": g.seconds,
        "bandwidth": g.bandwidth,
        "workload": dict(vars(g.workload)),
        "size_group": r.size_group,
        "hints": r.hints,
        "kept_default": r.kept_default,
        "predicted_gain": r.gain,
        "gain": gain.figure if gain is not None else None,
        "gain_basis": gain.basis if gain is not None else None,
        "interval": list(r.interval) if r.interval else None,
        "covered": r.covered,
        "reason": r.reason,
        "code_advice": r.code_advice,
        "evidence": [
            {"code": e.code, "words": e.words, "counter": e.counter, "value": e.value}
            for e in g.evidence
        ],
    }


# --------------------------------------------------------------------------- reading


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


# --------------------------------------------------------------------------- advising


def advise(
    source: Source,
    predictor: Predictor | None,
    space: Space | None,
    summary: pd.DataFrame | None,
    *,
    table_path: Path | None = None,
    model_words: str = "",
    system: System | None = None,
    search_options: tuple[str, ...] = (),
) -> Advice:
    """The advice for a log's groups (see the module docstring). Without a predictor (no
    model) the groups get their evidence and no hints. `system`: where the training data
    (`summary`) was measured; a group it does not cover (iotuner.coverage) gets no hint
    (without `system`, no group is covered). `search_options`: what the measurement
    command's `iotuner search` needs to find the model and knowledge base."""
    total = sum(g.bytes for g in source.groups) or 1
    significant = [g for g in source.groups if g.bytes >= SIGNIFICANT_SHARE * total]
    summarised = [g for g in source.groups if g not in significant]
    python = source.command.python or source.program.endswith(".py")
    notes: list[str] = []
    findings = findings_of(source)

    def evidence_only(group: FileGroup, reason: str) -> Recommendation:
        return Recommendation(
            group, None, {}, [], None, True, reason, code_advice(group, python=python)
        )

    if predictor is None or space is None or summary is None:
        recommendations = [evidence_only(g, "no model: evidence only") for g in significant]
        return Advice(
            source,
            recommendations,
            summarised,
            None,
            notes=notes,
            search_options=search_options,
            findings=findings,
        )
    coverage = Coverage.of(summary, system) if system is not None else None
    gaps: dict[int, str] = {}
    for index, group in enumerate(significant):
        if not group.through_mpiio:
            continue
        if coverage is None:
            gaps[index] = "the training data's system is not known: no group can be matched to it"
            continue
        gap = coverage.gap(group.workload, source.fs_type(group), source.host)
        if gap is not None:
            gaps[index] = gap
    covered = [g for i, g in enumerate(significant) if g.through_mpiio and i not in gaps]
    scales = sorted({g.workload.nprocs for g in covered})
    if coverage is not None:
        notes.append(
            f"the knowledge base: {coverage.words()}; only groups inside it get hints "
            "(same file system, ranks within the trained range, sizes tune predicts)"
        )
        between = [n for n in scales if n not in coverage.scales]
        if between:
            notes.append(
                f"{', '.join(map(str, between))} ranks lie between trained scales: the "
                "model interpolates there"
            )
    if model_words:
        notes.append(model_words)
    result = tune(predictor, space, summary, scales=scales) if scales else None
    entries = result.entries if result else []
    recommendations = []
    for index, group in enumerate(significant):
        if not group.through_mpiio:
            recommendations.append(
                evidence_only(group, "not accessed through MPI-IO: MPI-IO hints cannot act on it")
            )
        elif index in gaps:
            recommendations.append(evidence_only(group, gaps[index]))
        else:
            found = recommend_from_table(group, source.program, entries, result)
            recommendations.append(
                replace(found, covered=True, code_advice=code_advice(group, python=python))
            )
    used = _entries_used(recommendations)
    changes = any(r.hints for r in recommendations)
    # Each export's commands name the file it is written to (the table itself for
    # iotuner's), never the table for another mechanism: ROMIO would read a JSON table as
    # no hints, and `. TABLE` is no shell script.
    files = export_files(table_path)
    exports = [
        export_entries(
            used,
            mechanism,
            program=source.program,
            output=table_path if mechanism == "iotuner" else files.get(mechanism),
        )
        for mechanism in MECHANISMS
        if changes
    ]
    table = str(table_path) if table_path else "TABLE.jsonl"
    command = (
        shlex.join(
            [
                "iotuner",
                "run",
                "--mode",
                "tune",
                "--table",
                table,
                "--",
                "mpiexec",
                "-n",
                str(source.nprocs),
                *source.command.argv,
            ]
        )
        if source.command.argv
        else ""
    )
    noise = result.noise if result else None
    return Advice(
        source,
        recommendations,
        summarised,
        noise,
        exports,
        command,
        notes,
        findings=findings,
        search_options=search_options,
        export_files=files,
    )


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


def recommend_from_table(
    group: FileGroup, program: str, entries: list[TableEntry], result: Any = None
) -> Recommendation:
    """The hints the interposer would give a group's file from a table's entries (the open
    entry, then the access or view entry), with tune's choice for the case when `result`
    (a TuneResult) has one."""
    w = group.workload
    number = size_group(w.bytes_per_rank)
    opened = match(entries, at="open", program=program, file=group.name, nprocs=w.nprocs)
    later: TableEntry | None = None
    if w.pattern == "collective":
        later = match(
            entries,
            at="access",
            program=program,
            file=group.name,
            nprocs=w.nprocs,
            group=number,
            pattern=w.pattern,
            op=w.op,
            layout=w.layout,
        )
    elif w.layout == "strided":
        later = match(
            entries, at="view", program=program, file=group.name, nprocs=w.nprocs, layout=w.layout
        )
    used = [e for e in (opened, later) if e is not None]
    hints = {k: str(v) for e in used for k, v in e.hints.items()}
    choice = next(
        (
            c
            for c in (result.choices if result else [])
            if (c.nprocs, c.group, c.pattern, c.op, c.layout)
            == (w.nprocs, number, w.pattern, w.op, w.layout)
        ),
        None,
    )
    if choice is None:
        reason = (
            f"no prediction for {w.pattern} {w.op}s of {_size(w.bytes_per_rank)} per call "
            f"({w.layout}) at {w.nprocs} processes: the training data has no such case, or "
            "the size lies beyond what the model may extrapolate"
        )
        if hints:
            reason += "; the hints shown are the scale's open-time choice"
        return Recommendation(group, number, hints, used, None, not hints, reason)
    return Recommendation(group, number, hints, used, choice, not hints, choice.reason)


def _entries_used(recommendations: list[Recommendation]) -> list[TableEntry]:
    """The table entries the groups' hints come from, each once, in a stable order."""
    seen: dict[tuple[Any, ...], TableEntry] = {}
    for r in recommendations:
        for e in r.entries:
            seen.setdefault((e.case, tuple(sorted(e.hints.items()))), e)
    return list(seen.values())


def earned(r: Recommendation) -> EarnedGain | None:
    """The recommendation's gain as iotuner prints it (iotuner.gains: measured in the
    sweep, calibrated, or unknown); None when nothing was predicted."""
    c = r.choice
    if c is None or c.default_predicted <= 0:
        return None
    return stated_gain(c.gain_basis, c.gain, c.gain_interval)


def gain_words(r: Recommendation) -> str:
    """'x1.80 [x1.30-x2.40] calibrated on held-out workloads ...', 'unknown (...)', or ''
    when nothing was predicted: never the ratio of two raw predictions."""
    gain = earned(r)
    return "" if gain is None else gain.words
