"""`iotuner export`: a tuning table's choices in the forms other mechanisms take (issue 12).

Users who cannot preload the interposer set MPI-IO hints with what their system already
has. Each mechanism can say less than a table: a table decides per program, file, scale,
size group, op and layout at run time; these mechanisms fix one configuration for a whole
job (ROMIO_HINTS, Open MPI's MCA parameters), one per file-name pattern (Cray's
MPICH_MPIIO_HINTS) or only a directory's file layout (Lustre's `lfs setstripe`). The
export keeps the most important choice, drops the rest, and says which in sentences.

Selection. An entry takes part when it applies to what was given: `program` and `file`
as globs the way the interposer matches them (table.match: `file` on the base name unless
the glob has a '/'), `nprocs` by equality; a key that was not given selects nothing out.

Ranking ("most important"). An entry tune wrote states its predicted gain in its note
(tune.choice_note; read back with tune.note_gain: predicted / default bandwidth). Entries
with a gain come first, highest gain first; entries without one (hand-written tables,
search winners, tune's open and view entries, whose notes sum gains over cases) come
after, the most specific first (table.specificity), then in line order. Entries with no
hints keep the default and have nothing to export.

One configuration (ROMIO_HINTS, MCA, and each Cray pattern). The best-ranked access or
view entry gives the keys MPI reads at access; the best-ranked open entry that can apply
with it (program, file and nprocs equal or absent on one side) gives the keys read at open
(cb_nodes, cb_config_list, striping_*), and its other keys unless the access entry names
them. Every other entry is dropped, with the reason.

Cray MPICH_MPIIO_HINTS. Its value is comma-separated specs `pattern:key=value[:key=value]`
whose pattern is a glob on the name given to MPI_File_open (NERSC's Cori/Edison MPI-IO
documentation, docs.nersc.gov "Lustre/MPI-IO hints", example
`*:romio_cb_write=enable:romio_ds_write=disable`; several patterns comma-separated as in
WRF run scripts, `wrfinput*:striping_factor=N,wrfbdy*:...`; HPE's intro_mpi(3) man page,
the reference, could not be retrieved here). So `:`, `,`, `=` and white space cannot
appear in a pattern, key or value: cb_config_list (`*:N`) is dropped. A table's `file`
glob without '/' matches the base name, which Cray does not: it becomes the glob itself
(a bare name) and `*/glob` (a path). Which spec wins when several match is not in what we
found, so the export does not depend on it: every file pattern's spec is complete (its
own configuration), and the `*` spec, last, keeps only the keys every file spec sets to
the same value.

ROMIO_HINTS. ROMIO reads the file at every MPI_File_open (adio/common/system_hints.c,
ADIOI_process_system_hints): lines split at '\\n', '#' in column 1 a comment, a line of
exactly two tokens split at blanks and tabs is `key value`, and a key the program's own
info sets is left alone (the ROMIO Users Guide, "Systemwide Hints",
ftp.mcs.anl.gov/pub/romio/users-guide/node11.html). A value with a blank or tab cannot be
written; keys only OMPIO reads are dropped.

Lustre `lfs setstripe` (lfs-setstripe(1), lustre-release Documentation/man1/lfs-setstripe.1,
and the Lustre wiki's PFL man page): `-c/--stripe-count`, `-S/--stripe-size` (bytes, or a
k/M/G suffix), `-i/--stripe-index`; `-E/--component-end END` opens a component of a
progressive file layout (PFL), END in bytes with the same suffixes, `-1` for the end of
file. It is set on a directory, whose new files inherit it. Only the open entries'
striping keys are carried. A PFL is written when asked (`pfl`) or when the entries that
apply give different striping at different scales (possible when no `nprocs` is given):
a job of more ranks writes a larger file, and tune gave those scales their striping, so
the components are the settings in increasing stripe width (count x size), and a
component ends where each of its targets holds PFL_STRIPES_PER_TARGET stripes (count x
size x 256), rounded up to a multiple of the stripe sizes on both sides; the last runs
to the end of file. Asked for a PFL with one setting of more than one target, the export
puts a one-target component (the same stripe size) first, by the same rule.

Open MPI MCA parameters. A table's ROMIO keys reach OMPIO through formats/ompio_map.def
(the interposer's mapping); the OMPIO info keys then have these job-wide parameters
(Open MPI 5.0 documentation, "Tuning: MPI-IO" at docs.open-mpi.org, and `ompi_info
--param io ompio --level 9` of Open MPI 4.1.4): cb_nodes -> io_ompio_num_aggregators,
cb_buffer_size -> io_ompio_bytes_per_agg, striping_factor -> fs_lustre_stripe_width,
striping_unit -> fs_lustre_stripe_size, collective buffering off -> fcoll=individual.
Collective buffering on (fcoll=vulcan) is never written: formats/ompio_job.def marks it
UNSAFE (it hides write errors). A table key `collective_buffering` itself is dropped: its
"off" value is "true" in Open MPI 4 and "false" in 5 (ompio_map.def), and an export does
not know which will run.
"""

import json
import math
import os
import re
import shlex
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from fnmatch import fnmatchcase
from pathlib import Path

from iotuner._choices import EXPORT_MECHANISMS
from iotuner.acting import describe_accesses
from iotuner.errors import ConfigError, TableError
from iotuner.formats import hint_vocabulary, ompio_job_settings, ompio_map
from iotuner.table import HEADER, TableEntry, specificity, table_problems
from iotuner.tune import note_gain

__all__ = [
    "KEEPS_DEFAULTS",
    "MECHANISMS",
    "PFL_STRIPES_PER_TARGET",
    "Dropped",
    "Export",
    "entries_for_accesses",
    "export_entries",
]

MECHANISMS: tuple[str, ...] = EXPORT_MECHANISMS
"""The `--to` values of `iotuner export`."""

PFL_STRIPES_PER_TARGET = 256
"""A PFL component ends where each of its storage targets holds this many stripes."""

STRIPING_KEYS = ("striping_factor", "striping_unit", "start_iodevice")
"""The keys `lfs setstripe` can carry: -c, -S, -i."""

_LFS_OPTION = {"striping_factor": "-c", "striping_unit": "-S", "start_iodevice": "-i"}

_MCA_FOR_OMPIO_KEY = {
    "cb_nodes": "io_ompio_num_aggregators",
    "cb_buffer_size": "io_ompio_bytes_per_agg",
    "striping_factor": "fs_lustre_stripe_width",
    "striping_unit": "fs_lustre_stripe_size",
}
"""OMPIO's per-file info keys (after ompio_map.def) and the MCA parameter that sets each
for a whole job (see the module docstring for the sources)."""

_CRAY_FORBIDDEN = re.compile(r"[:,=\s\x00-\x1f\x7f-\x9f]")
_ROMIO_FORBIDDEN = re.compile(r"[\s\x00-\x1f\x7f-\x9f]")
_PLACEHOLDER = {
    "romio-hints": "/path/to/romio-hints",
    "cray": "/path/to/mpich-mpiio-hints",
    "lfs": "/path/to/lfs-setstripe.sh",
    "mca": "/path/to/ompi-mca.sh",
    "iotuner": "/path/to/table.jsonl",
}
_LFS_TARGET_PLACEHOLDER = "/path/to/output-dir"


KEEPS_DEFAULTS = "entries that keep the defaults"
"""The group of the entries dropped because they set no hint (Dropped.group)."""


@dataclass(frozen=True)
class Dropped:
    """What an export left out and why, in one sentence. `group` names, in the plural,
    the entries dropped for the same reason (e.g. KEEPS_DEFAULTS), so that a summary can
    count them in one line; None for what stands alone (a key, a file pattern)."""

    sentence: str
    group: str | None = None


@dataclass(frozen=True)
class Export:
    """A table's choices in one mechanism's form, and what the form could not carry."""

    mechanism: str
    text: str  # the file content / commands / variable value
    usage: list[str]  # the lines a user runs or puts in a job script to use it
    kept: list[str]  # sentences: which choice(s) were kept and why
    drops: list[Dropped]  # what was dropped and why

    @property
    def dropped(self) -> list[str]:
        """Every drop's sentence, in order."""
        return [d.sentence for d in self.drops]

    def dropped_summary(self) -> list[str]:
        """The drops in few lines: a group of several entries as one line with their count
        (e.g. "24 entries that keep the defaults"), each other drop as its sentence; in
        the order each first appears."""
        counts = Counter(d.group for d in self.drops if d.group is not None)
        lines: list[str] = []
        for drop in self.drops:
            if drop.group is None or counts[drop.group] == 1:
                lines.append(drop.sentence)
            elif f"{counts[drop.group]} {drop.group}" not in lines:
                lines.append(f"{counts[drop.group]} {drop.group}")
        return lines

    def to_json(self) -> dict[str, object]:
        return {
            "mechanism": self.mechanism,
            "text": self.text,
            "usage": self.usage,
            "kept": self.kept,
            "dropped": self.dropped,
        }


def export_entries(
    entries: Sequence[TableEntry],
    mechanism: str,
    *,
    program: str | None = None,
    nprocs: int | None = None,
    file: str | None = None,
    output: Path | None = None,
    pfl: bool = False,
    target: str | None = None,
    accesses: frozenset[tuple[str, str]] | None = None,
) -> Export:
    """The entries that apply to `program`, `nprocs` and `file` (each when given) in the
    form of `mechanism` (one of MECHANISMS). `output` is where the text will be written
    (for the usage lines; None: a placeholder). For `lfs`, `target` is the directory (or
    file) to set the layout on and `pfl` asks for a progressive file layout. `accesses`,
    the (pattern, op) of every data access the program's traces show (None: unknown),
    drops the entries for accesses it does not make and the keys that cannot act on any
    of its accesses (formats/hints.def's ops), so a program that only writes gets no
    read entry.

    ConfigError for an unknown mechanism or when no entry applies."""
    if mechanism not in MECHANISMS:
        raise ConfigError(
            f"unknown mechanism {mechanism!r}: expected one of {', '.join(MECHANISMS)}"
        )
    applying = [e for e in entries if _applies(e, program, nprocs, file)]
    outside = [e for e in entries if not _applies(e, program, nprocs, file)]
    selection = _selection_words(program, nprocs, file)
    if not applying:
        raise ConfigError(
            f"no entry of the table applies to {selection} ({len(entries)} entries): "
            "nothing to export"
        )
    dropped = [
        Dropped(
            f"{_describe(e)}: does not apply to {selection}",
            f"entries that do not apply to {selection}",
        )
        for e in outside
    ]
    if accesses is not None:
        applying, not_acting = entries_for_accesses(applying, accesses)
        dropped += not_acting
    if mechanism != "iotuner":
        usable = []
        for entry in applying:
            narrower = _narrower_than_mechanism(entry, mechanism, program, file)
            if narrower is None:
                usable.append(entry)
            else:
                dropped.append(
                    Dropped(
                        f"{_describe(entry)}: {narrower}",
                        f"entries for some programs or files only ({mechanism} applies to "
                        "the whole job: give --program or --file to export them)",
                    )
                )
        applying = usable
    where = str((output or Path(_PLACEHOLDER[mechanism])).absolute())
    built = _BUILDERS[mechanism](applying, where, pfl=pfl, target=target)
    scales = sorted({e.nprocs for e in applying if e.nprocs is not None})
    if nprocs is None and len(scales) > 1 and mechanism != "iotuner":
        built.kept.append(
            f"no --nprocs was given, so the entries of scales {', '.join(map(str, scales))} "
            "competed: give the job's number of ranks to export its own"
        )
    return Export(mechanism, built.text, built.usage, built.kept, dropped + built.dropped)


def entries_for_accesses(
    entries: Sequence[TableEntry], accesses: frozenset[tuple[str, str]]
) -> tuple[list[TableEntry], list[Dropped]]:
    """The entries for accesses the program makes, each with only the keys that can act
    on one of them (formats/hints.def), and what was dropped."""
    does = f"the program does {describe_accesses(accesses)} (its traces)"
    vocabulary = hint_vocabulary()
    kept: list[TableEntry] = []
    dropped: list[Dropped] = []
    for entry in entries:
        theirs = [
            (pattern, op)
            for pattern, op in accesses
            if entry.pattern in (None, pattern) and entry.op in (None, op)
        ]
        if not theirs:
            reason = f"{does}, none of them this entry's"
            dropped.append(
                Dropped(f"{_describe(entry)}: {reason}", f"entries for other accesses: {does}")
            )
            continue
        hints = {
            key: value
            for key, value in entry.hints.items()
            if key not in vocabulary or any(vocabulary[key].acts_on(p, op) for p, op in theirs)
        }
        for key in entry.hints.keys() - hints.keys():
            dropped.append(Dropped(f"{_describe(entry)}: key {key} cannot act on what {does}"))
        if entry.hints and not hints:
            continue
        kept.append(replace(entry, hints=hints))
    return kept, dropped


def _narrower_than_mechanism(
    entry: TableEntry, mechanism: str, program: str | None, file: str | None
) -> str | None:
    """Why an entry for some programs or files only cannot go into a setting that covers
    every program (and, but for Cray's patterns, every file) the job has, or None. A
    program or file given to the export makes such entries the job's own."""
    if entry.program is not None and program is None:
        return (
            f"for programs {entry.program} only, and {mechanism} applies to whatever the job "
            "runs: give --program to export it"
        )
    if entry.file is not None and file is None and mechanism != "cray":
        return (
            f"for files {entry.file} only, and {mechanism} applies to every file: give --file "
            "to export it"
        )
    return None


# ------------------------------------------------------------------ selection and ranking


def _applies(entry: TableEntry, program: str | None, nprocs: int | None, file: str | None) -> bool:
    """Whether the entry can apply to what was given, matched as table.match does."""
    if (
        program is not None
        and entry.program is not None
        and not fnmatchcase(os.path.basename(program), entry.program)
    ):
        return False
    if file is not None and entry.file is not None:
        name = file if "/" in entry.file else os.path.basename(file)
        if not fnmatchcase(name, entry.file):
            return False
    return nprocs is None or entry.nprocs is None or entry.nprocs == nprocs


def _selection_words(program: str | None, nprocs: int | None, file: str | None) -> str:
    given = [
        f"{name}={value}"
        for name, value in (("program", program), ("nprocs", nprocs), ("file", file))
        if value is not None
    ]
    return ", ".join(given) if given else "any program, scale and file"


def _rank_key(indexed: tuple[int, TableEntry]) -> tuple[bool, float, int, float, int]:
    """Entries with a predicted gain first (highest first), then the most specific, then
    the earliest line (the module docstring's ranking)."""
    index, entry = indexed
    gain = note_gain(entry.note)
    line = float(entry.line) if entry.line is not None else math.inf
    return (gain is None, -(gain or 0.0), -specificity(entry), line, index)


def _ranked(entries: Sequence[TableEntry]) -> list[TableEntry]:
    return [e for _, e in sorted(enumerate(entries), key=_rank_key)]


def _describe(entry: TableEntry) -> str:
    """An entry in words: where it is, what it applies to, what it sets, its gain."""
    where = f"line {entry.line}" if entry.line is not None else "an entry"
    scope = [f"at {entry.at}"]
    scope += [
        f"{name} {getattr(entry, name)}"
        for name in ("program", "file", "nprocs", "group", "pattern", "op", "layout")
        if getattr(entry, name) is not None
    ]
    hints = ", ".join(f"{k}={v}" for k, v in entry.hints.items()) or "no hints"
    gain = note_gain(entry.note)
    stated = f", predicted x{gain:.2f} the default" if gain is not None else ""
    return f"{where} ({', '.join(scope)}: {hints}{stated})"


def _why_ranked(entry: TableEntry, among: int) -> str:
    gain = note_gain(entry.note)
    if gain is not None:
        return f"the highest predicted gain (x{gain:.2f}) of the {among} that could be kept"
    return (
        f"no predicted gain in its note, the most specific (then earliest) of the {among} "
        "that could be kept"
    )


def _compatible(a: TableEntry, b: TableEntry) -> bool:
    """Whether two entries can apply to the same job and file."""
    return all(
        getattr(a, k) is None or getattr(b, k) is None or getattr(a, k) == getattr(b, k)
        for k in ("program", "file", "nprocs")
    )


@dataclass
class _Configuration:
    """One configuration merged from the best open and access/view entries."""

    hints: dict[str, str] = field(default_factory=dict)
    kept: list[str] = field(default_factory=list)
    dropped: list[Dropped] = field(default_factory=list)


def _one_configuration(entries: Sequence[TableEntry], why_one: str) -> _Configuration:
    """The module docstring's "one configuration": `why_one` says why the mechanism holds
    only one (the reason given for every entry dropped)."""
    config = _Configuration()
    for entry in entries:
        if not entry.hints:
            config.dropped.append(
                Dropped(f"{_describe(entry)}: keeps the default, nothing to carry", KEEPS_DEFAULTS)
            )
    later = [e for e in entries if e.hints and e.at != "open"]
    opens = [e for e in entries if e.hints and e.at == "open"]
    access = _ranked(later)[0] if later else None
    fitting = [e for e in opens if access is None or _compatible(e, access)]
    opened = _ranked(fitting)[0] if fitting else None
    if opened is not None:
        config.hints.update({k: str(v) for k, v in opened.hints.items()})
        config.kept.append(
            f"{_describe(opened)} for the keys read at open: {_why_ranked(opened, len(fitting))}"
        )
    if access is not None:
        overlaid = {k: str(v) for k, v in access.hints.items()}
        config.hints.update(overlaid)
        config.kept.append(
            f"{_describe(access)} for the keys read at access: {_why_ranked(access, len(later))}"
        )
    for entry in opens:
        if entry is opened:
            continue
        reason = (
            why_one if entry in fitting else "not for the job and file of the kept access entry"
        )
        config.dropped.append(
            Dropped(f"{_describe(entry)}: {reason}", f"entries with other choices: {reason}")
        )
    for entry in later:
        if entry is not access:
            config.dropped.append(
                Dropped(f"{_describe(entry)}: {why_one}", f"entries with other choices: {why_one}")
            )
    return config


# ------------------------------------------------------------------ the mechanisms


@dataclass
class _Built:
    text: str
    usage: list[str]
    kept: list[str]
    dropped: list[Dropped]


def _drop_keys(
    hints: dict[str, str], reason_for: Callable[[str, str], str | None]
) -> tuple[dict[str, str], list[Dropped]]:
    """The hints whose reason_for(key, value) is None, and a drop for each other."""
    carried: dict[str, str] = {}
    dropped: list[Dropped] = []
    for key, value in hints.items():
        reason = reason_for(key, value)
        if reason is None:
            carried[key] = value
        else:
            dropped.append(Dropped(f"key {key}={value} dropped: {reason}"))
    return carried, dropped


def _not_romio(key: str, value: str) -> str | None:
    hint = hint_vocabulary().get(key)
    if hint is not None and "romio" not in hint.implementations:
        return "only Open MPI's OMPIO reads it (formats/hints.def); ROMIO ignores it"
    return None


def _romio_value(key: str, value: str) -> str | None:
    if _ROMIO_FORBIDDEN.search(key) or _ROMIO_FORBIDDEN.search(value):
        return (
            "ROMIO's hints file splits a line at blanks and tabs: a value cannot hold one "
            "(nor a control character)"
        )
    return _not_romio(key, value)


def _build_romio(entries: Sequence[TableEntry], where: str, **_: object) -> _Built:
    config = _one_configuration(
        entries, "a ROMIO_HINTS file holds one configuration for every file and access"
    )
    carried, dropped_keys = _drop_keys(config.hints, _romio_value)
    lines = [
        "# MPI-IO hints for ROMIO (ROMIO_HINTS), written by iotuner export;",
        "# a program's own hints win over these.",
        *(f"{k} {v}" for k, v in carried.items()),
    ]
    usage = [f"export ROMIO_HINTS={shlex.quote(where)}"] if carried else []
    return _Built("\n".join(lines) + "\n", usage, config.kept, config.dropped + dropped_keys)


def _cray_value(key: str, value: str) -> str | None:
    if _CRAY_FORBIDDEN.search(key) or _CRAY_FORBIDDEN.search(value):
        return (
            "MPICH_MPIIO_HINTS separates specs with ',', keys with ':' and a key from its "
            "value with '=': a value holding one of them (or white space or a control "
            "character) cannot be written"
        )
    return _not_romio(key, value)


def _cray_patterns(glob: str) -> list[str]:
    """Cray's patterns for a table's file glob (module docstring)."""
    if "/" in glob or glob.startswith("*"):
        return [glob]
    return [glob, f"*/{glob}"]


def _scoped(scope: str, drop: Dropped) -> Dropped:
    """A drop of one file pattern's configuration, its sentence saying which."""
    return Dropped(f"{scope}: {drop.sentence}", drop.group)


def _build_cray(entries: Sequence[TableEntry], where: str, **_: object) -> _Built:
    why_one = "MPICH_MPIIO_HINTS holds one configuration per file-name pattern"
    globs = list(dict.fromkeys(e.file for e in entries if e.file is not None))
    kept: list[str] = []
    dropped: list[Dropped] = []
    specs: list[tuple[str, dict[str, str]]] = []
    for glob in globs:
        scoped = [e for e in entries if e.file in (glob, None)]
        config = _one_configuration(scoped, why_one)
        carried, dropped_keys = _drop_keys(config.hints, _cray_value)
        bad = _CRAY_FORBIDDEN.search(glob)
        if bad:
            dropped.append(
                Dropped(
                    f"file pattern {glob!r} dropped with its entries: MPICH_MPIIO_HINTS "
                    "cannot hold ':', ',', '=', white space or a control character in a pattern"
                )
            )
            continue
        kept += [f"for files {glob}: {sentence}" for sentence in config.kept]
        dropped += [_scoped(f"for files {glob}", d) for d in config.dropped + dropped_keys]
        specs += [(pattern, carried) for pattern in _cray_patterns(glob) if carried]
    general = _one_configuration([e for e in entries if e.file is None], why_one)
    carried, dropped_keys = _drop_keys(general.hints, _cray_value)
    kept += [f"for every other file (*): {s}" for s in general.kept]
    dropped += [_scoped("for every other file (*)", d) for d in general.dropped + dropped_keys]
    common = {}
    for key, value in carried.items():
        if all(spec.get(key) == value for _, spec in specs):
            common[key] = value
        else:
            dropped.append(
                Dropped(
                    f"key {key}={value} left out of the '*' spec: a file pattern's spec sets "
                    "it otherwise or not at all, and which of several matching specs Cray "
                    "applies is not documented in what we found"
                )
            )
    if common:
        specs.append(("*", common))
    value = ",".join(
        ":".join([pattern, *(f"{k}={v}" for k, v in hints.items())]) for pattern, hints in specs
    )
    usage = (
        [f"export MPICH_MPIIO_HINTS={shlex.quote(value)}", "export MPICH_MPIIO_HINTS_DISPLAY=1"]
        if value
        else []
    )
    return _Built(value + "\n" if value else "", usage, kept, dropped)


def _lfs_size(size: int) -> str:
    """A byte count the way lfs takes it: the largest of G, M, k that divides it."""
    for suffix, unit in (("G", 1 << 30), ("M", 1 << 20), ("k", 1 << 10)):
        if size % unit == 0:
            return f"{size // unit}{suffix}"
    return str(size)


_DEFAULT_STRIPE_SIZE = 4 << 20
"""Where a setting leaves the stripe size to the directory's default, PFL boundaries are
rounded to 4 MiB: a multiple of Lustre's usual defaults (1 MiB, 4 MiB)."""


def _stripe_options(hints: dict[str, str]) -> list[str]:
    options: list[str] = []
    for key in STRIPING_KEYS:
        if key in hints:
            value = hints[key]
            options += [
                _LFS_OPTION[key],
                _lfs_size(int(value)) if key == "striping_unit" else value,
            ]
    return options


def _pfl_components(settings: list[dict[str, str]], one_target_first: bool) -> list[list[str]]:
    """The `-E END options` groups of a PFL (module docstring's rule)."""

    def width(s: dict[str, str]) -> int:
        return int(s.get("striping_factor", "1")) * int(
            s.get("striping_unit", _DEFAULT_STRIPE_SIZE)
        )

    ordered = sorted(settings, key=width)
    if one_target_first and int(ordered[0].get("striping_factor", "1")) > 1:
        first = {k: v for k, v in ordered[0].items() if k == "striping_unit"}
        ordered.insert(0, {**first, "striping_factor": "1"})
    groups: list[list[str]] = []
    start = 0
    for index, setting in enumerate(ordered):
        if index == len(ordered) - 1:
            groups.append(["-E", "-1", *_stripe_options(setting)])
            break
        sizes = [
            int(s.get("striping_unit", _DEFAULT_STRIPE_SIZE)) for s in ordered[index : index + 2]
        ]
        step = math.lcm(*sizes)
        end = max(width(setting) * PFL_STRIPES_PER_TARGET, start + step)
        end = -(-end // step) * step
        groups.append(["-E", _lfs_size(end), *_stripe_options(setting)])
        start = end
    return groups


def _build_lfs(
    entries: Sequence[TableEntry],
    where: str,
    *,
    pfl: bool = False,
    target: str | None = None,
    **_: object,
) -> _Built:
    place = shlex.quote(target or _LFS_TARGET_PLACEHOLDER)
    kept: list[str] = []
    dropped: list[Dropped] = []
    striping = [e for e in entries if e.at == "open" and any(k in e.hints for k in STRIPING_KEYS)]
    others = [e for e in entries if e not in striping and e.hints]
    if others:
        keys = sorted({k for e in others for k in e.hints})
        dropped.append(
            Dropped(
                f"{len(others)} entries without striping keys dropped (lfs sets a file layout "
                f"only; their keys {', '.join(keys)} need another mechanism)"
            )
        )
    if not striping:
        dropped.append(
            Dropped(
                "no open entry that applies sets striping_factor, striping_unit or start_iodevice"
            )
        )
        return _Built("", [], kept, dropped)
    ranked = _ranked(striping)
    settings: dict[tuple[tuple[str, str], ...], TableEntry] = {}
    for entry in ranked:
        setting = tuple((k, str(entry.hints[k])) for k in STRIPING_KEYS if k in entry.hints)
        settings.setdefault(setting, entry)
    by_scale = {
        setting: entry
        for setting, entry in settings.items()
        if entry.nprocs is not None
        and entry.file == ranked[0].file
        and entry.program == ranked[0].program
    }
    scales_differ = len({e.nprocs for e in by_scale.values()}) > 1 and len(by_scale) > 1
    best = ranked[0]
    for key, value in best.hints.items():
        if key not in STRIPING_KEYS:
            dropped.append(
                Dropped(f"key {key}={value} of the kept entry dropped: not a layout key")
            )
    if pfl or scales_differ:
        chosen = list(by_scale.values()) if scales_differ else [best]
        components = _pfl_components(
            [dict(setting) for setting, e in settings.items() if e in chosen],
            one_target_first=pfl,
        )
        command = ["lfs", "setstripe", *(word for group in components for word in group)]
        for entry in chosen:
            kept.append(
                f"{_describe(entry)} as a component of a progressive file layout "
                f"({'asked for' if pfl else 'the table stripes its scales differently'}): a "
                f"component ends where each target holds {PFL_STRIPES_PER_TARGET} stripes"
            )
    else:
        chosen = [best]
        command = ["lfs", "setstripe", *_stripe_options({k: str(v) for k, v in best.hints.items()})]
        kept.append(f"{_describe(best)}: {_why_ranked(best, len(striping))}")
    for entry in striping:
        if entry not in chosen:
            reason = "a directory has one default layout, and the kept entry ranks higher"
            dropped.append(
                Dropped(f"{_describe(entry)}: {reason}", f"entries with other layouts: {reason}")
            )
    text = " ".join(command[:2] + [shlex.quote(w) for w in command[2:]]) + f" {place}\n"
    usage = [text.strip(), f"lfs getstripe -d {place}"]
    if target is None:
        kept.append(
            f"{_LFS_TARGET_PLACEHOLDER} stands for the directory the program writes its files in"
        )
    return _Built(text, usage, kept, dropped)


def _mca_setting(key: str, value: str) -> tuple[str, str] | str:
    """(MCA parameter, value) for one table key=value, or the reason it has none."""
    for setting in ompio_job_settings():
        if (setting.key, setting.value) == (key, value):
            if not setting.safe:
                return (
                    "Open MPI sets it only for a whole job "
                    f"({setting.parameter}={setting.mca_value}), which is unsafe: "
                    f"{setting.evidence} (formats/ompio_job.def)"
                )
            return setting.parameter, setting.mca_value
    rows = ompio_map()
    row = rows.get((key, value)) or rows.get((key, "*"))
    if row is None:
        return "Open MPI's OMPIO has no equivalent (formats/ompio_map.def)"
    ompio_key, ompio_value = row
    if ompio_value == "@off":
        return "fcoll", "individual"
    if ompio_key == "collective_buffering":
        return (
            "its value means off in Open MPI 4 and on in 5 (formats/ompio_map.def); write "
            "romio_cb_write=disable for off"
        )
    parameter = _MCA_FOR_OMPIO_KEY.get(ompio_key)
    if parameter is None:
        return f"OMPIO reads {ompio_key} per file only: no MCA parameter sets it"
    return parameter, value if ompio_value == "*" else ompio_value


def _build_mca(entries: Sequence[TableEntry], where: str, **_: object) -> _Built:
    config = _one_configuration(entries, "MCA parameters hold one configuration for the whole job")
    parameters: dict[str, str] = {}
    dropped = list(config.dropped)
    kept = list(config.kept)
    for key, value in config.hints.items():
        mapped = _mca_setting(key, value)
        if isinstance(mapped, str):
            dropped.append(Dropped(f"key {key}={value} dropped: {mapped}"))
            continue
        parameter, mca_value = mapped
        if parameters.get(parameter, mca_value) != mca_value:
            dropped.append(
                Dropped(
                    f"key {key}={value} dropped: {parameter} is already {parameters[parameter]}"
                )
            )
            continue
        parameters[parameter] = mca_value
        if parameter == "fcoll":
            kept.append(
                f"{key}={value} becomes fcoll=individual: collective buffering off for every "
                "file of the job, reads and writes alike"
            )
    if parameters:
        kept.append(
            "the MCA parameters act when Open MPI's OMPIO serves the files (its default), "
            "not under --mca io romio321/romio341"
        )
    text = "".join(
        f"export OMPI_MCA_{name}={shlex.quote(value)}\n" for name, value in parameters.items()
    )
    usage = []
    if parameters:
        options = " ".join(f"--mca {name} {shlex.quote(v)}" for name, v in parameters.items())
        usage = [f"mpiexec {options} -n NPROCS PROGRAM ...", f". {shlex.quote(where)}"]
    return _Built(text, usage, kept, dropped)


def _build_iotuner(entries: Sequence[TableEntry], where: str, **_: object) -> _Built:
    lines = [json.dumps(HEADER)]
    for entry in entries:
        obj = entry.to_json()
        problems = table_problems(obj)
        if problems:
            raise TableError(f"{_describe(entry)}: {problems[0]}")
        lines.append(json.dumps(obj))
    kept = [
        f"all {len(entries)} entries that apply: the interposer chooses among them per "
        "file, scale, size group, op and layout at run time"
    ]
    usage = [
        f"iotuner run --mode tune --table {shlex.quote(where)} -- mpiexec -n NPROCS PROGRAM ...",
        f"export IOTUNER_MODE=tune IOTUNER_TABLE={shlex.quote(where)}"
        "  # with the interposer preloaded",
    ]
    return _Built("\n".join(lines) + "\n", usage, kept, [])


_BUILDERS: dict[str, Callable[..., _Built]] = {
    "romio-hints": _build_romio,
    "cray": _build_cray,
    "lfs": _build_lfs,
    "mca": _build_mca,
    "iotuner": _build_iotuner,
}
