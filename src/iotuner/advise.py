"""`iotuner advise`: what to change for a program, from one Darshan log or one trace log of
ours, with zero runs of it.

1. The accesses: each significant group of files and direction (write or read) as a
   FileGroup with its evidence, from a Darshan log or a trace log (iotuner.advice_source).
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

import shlex
from dataclasses import asdict, dataclass, field, replace
from pathlib import Path
from typing import Any

import pandas as pd

from iotuner.advice_source import (
    AdviceError,
    Source,
    findings_of,
    groups_of_trace,
    read_source,
    workload_evidence,
)
from iotuner.code_advice import code_advice
from iotuner.coverage import Coverage
from iotuner.coverage import size_words as _size
from iotuner.diagnose import Finding
from iotuner.formats import size_group
from iotuner.gains import EarnedGain, stated_gain
from iotuner.hint_exports import MECHANISMS, Export, export_entries
from iotuner.ingest import FileGroup
from iotuner.measurement import System
from iotuner.space import Space
from iotuner.table import TableEntry, match
from iotuner.tune import Choice, Predictor, TuneResult, tune

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
    if predictor is None or space is None or summary is None:
        recommendations = [
            _evidence_only(g, "no model: evidence only", python) for g in significant
        ]
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
    gaps = _coverage_gaps(source, significant, coverage)
    covered = [g for i, g in enumerate(significant) if g.through_mpiio and i not in gaps]
    scales = sorted({g.workload.nprocs for g in covered})
    if coverage is not None:
        notes.extend(_coverage_notes(coverage, scales))
    if model_words:
        notes.append(model_words)
    result = tune(predictor, space, summary, scales=scales) if scales else None
    entries = result.entries if result else []
    recommendations = [
        _recommendation(group, gaps.get(index), source.program, entries, result, python)
        for index, group in enumerate(significant)
    ]
    files = export_files(table_path)
    return Advice(
        source,
        recommendations,
        summarised,
        result.noise if result else None,
        _exports(recommendations, source.program, table_path, files),
        _run_command(source, table_path),
        notes,
        findings=findings,
        search_options=search_options,
        export_files=files,
    )


def _evidence_only(group: FileGroup, reason: str, python: bool) -> Recommendation:
    """A group's evidence and code advice, with no hints, and why there are none."""
    return Recommendation(
        group, None, {}, [], None, True, reason, code_advice(group, python=python)
    )


def _recommendation(
    group: FileGroup,
    gap: str | None,
    program: str,
    entries: list[TableEntry],
    result: TuneResult | None,
    python: bool,
) -> Recommendation:
    """A significant group's recommendation: the table's hints for it, or its evidence
    only when it does not go through MPI-IO or the knowledge base does not cover it (`gap`
    says why)."""
    if not group.through_mpiio:
        return _evidence_only(
            group, "not accessed through MPI-IO: MPI-IO hints cannot act on it", python
        )
    if gap is not None:
        return _evidence_only(group, gap, python)
    found = recommend_from_table(group, program, entries, result)
    return replace(found, covered=True, code_advice=code_advice(group, python=python))


def _coverage_gaps(
    source: Source, significant: list[FileGroup], coverage: Coverage | None
) -> dict[int, str]:
    """Why the knowledge base does not cover a group, by its index in `significant`: for
    the groups through MPI-IO only (the others get no hints anyway); every one of them
    when the training data's system is not known (`coverage` None)."""
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
    return gaps


def _coverage_notes(coverage: Coverage, scales: list[int]) -> list[str]:
    """What the knowledge base covers, and the groups' scales between its trained ones."""
    notes = [
        f"the knowledge base: {coverage.words()}; only groups inside it get hints "
        "(same file system, ranks within the trained range, sizes tune predicts)"
    ]
    between = [n for n in scales if n not in coverage.scales]
    if between:
        notes.append(
            f"{', '.join(map(str, between))} ranks lie between trained scales: the "
            "model interpolates there"
        )
    return notes


def _exports(
    recommendations: list[Recommendation],
    program: str,
    table_path: Path | None,
    files: dict[str, Path],
) -> list[Export]:
    """The exports of every mechanism for the table entries the groups' hints come from;
    none when no group gets a change."""
    if not any(r.hints for r in recommendations):
        return []
    used = _entries_used(recommendations)
    # Each export's commands name the file it is written to (the table itself for
    # iotuner's), never the table for another mechanism: ROMIO would read a JSON table as
    # no hints, and `. TABLE` is no shell script.
    return [
        export_entries(
            used,
            mechanism,
            program=program,
            output=table_path if mechanism == "iotuner" else files.get(mechanism),
        )
        for mechanism in MECHANISMS
    ]


def _run_command(source: Source, table_path: Path | None) -> str:
    """`iotuner run --mode tune --table TABLE -- mpiexec -n N PROGRAM...`, shell-quoted
    (TABLE.jsonl without a table); "" when the log holds no command line that runs here."""
    if not source.command.argv:
        return ""
    table = str(table_path) if table_path else "TABLE.jsonl"
    return shlex.join(
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
