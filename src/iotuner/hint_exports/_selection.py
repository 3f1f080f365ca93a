"""Which entries of a table an export takes, how it ranks them, and how it merges the best of
them into the one configuration a mechanism that holds only one carries."""

import math
import os
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from fnmatch import fnmatchcase

from iotuner.acting import describe_accesses
from iotuner.formats import hint_vocabulary
from iotuner.hint_exports._results import KEEPS_DEFAULTS, Dropped
from iotuner.table import TableEntry, specificity
from iotuner.tune import note_gain


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
                Dropped(f"{describe(entry)}: {reason}", f"entries for other accesses: {does}")
            )
            continue
        hints = {
            key: value
            for key, value in entry.hints.items()
            if key not in vocabulary or any(vocabulary[key].acts_on(p, op) for p, op in theirs)
        }
        for key in entry.hints.keys() - hints.keys():
            dropped.append(Dropped(f"{describe(entry)}: key {key} cannot act on what {does}"))
        if entry.hints and not hints:
            continue
        kept.append(replace(entry, hints=hints))
    return kept, dropped


def narrower_than_mechanism(
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


def applies(entry: TableEntry, program: str | None, nprocs: int | None, file: str | None) -> bool:
    """Whether the entry can apply to what was given, matched as table.match does.

    An entry takes part when it applies to what was given: `program` and `file` as globs
    the way the interposer matches them (table.match: `file` on the base name unless the
    glob has a '/'), `nprocs` by equality; a key that was not given selects nothing out."""
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


def selection_words(program: str | None, nprocs: int | None, file: str | None) -> str:
    given = [
        f"{name}={value}"
        for name, value in (("program", program), ("nprocs", nprocs), ("file", file))
        if value is not None
    ]
    return ", ".join(given) if given else "any program, scale and file"


def _rank_key(indexed: tuple[int, TableEntry]) -> tuple[bool, float, int, float, int]:
    """The ranking ("most important"): entries with a predicted gain first (highest first),
    then the most specific, then the earliest line.

    An entry tune wrote states its predicted gain in its note (tune.choice_note; read back
    with tune.note_gain: predicted / default bandwidth). Entries without one (hand-written
    tables, search winners, tune's open and view entries, whose notes sum gains over
    cases) come after, the most specific first (table.specificity), then in line order.
    Entries with no hints keep the default and have nothing to export."""
    index, entry = indexed
    gain = note_gain(entry.note)
    line = float(entry.line) if entry.line is not None else math.inf
    return (gain is None, -(gain or 0.0), -specificity(entry), line, index)


def ranked(entries: Sequence[TableEntry]) -> list[TableEntry]:
    """The entries best first (_rank_key)."""
    return [e for _, e in sorted(enumerate(entries), key=_rank_key)]


def describe(entry: TableEntry) -> str:
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


def why_ranked(entry: TableEntry, among: int) -> str:
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
class Configuration:
    """One configuration merged from the best open and access/view entries."""

    hints: dict[str, str] = field(default_factory=dict)
    kept: list[str] = field(default_factory=list)
    dropped: list[Dropped] = field(default_factory=list)


def one_configuration(entries: Sequence[TableEntry], why_one: str) -> Configuration:
    """The one configuration of ROMIO_HINTS, MCA and each Cray pattern; `why_one` says why
    the mechanism holds only one (the reason given for every entry dropped).

    The best-ranked access or view entry gives the keys MPI reads at access; the
    best-ranked open entry that can apply with it (program, file and nprocs equal or absent
    on one side) gives the keys read at open (cb_nodes, cb_config_list, striping_*), and
    its other keys unless the access entry names them. Every other entry is dropped, with
    the reason."""
    config = Configuration()
    for entry in entries:
        if not entry.hints:
            config.dropped.append(
                Dropped(f"{describe(entry)}: keeps the default, nothing to carry", KEEPS_DEFAULTS)
            )
    later = [e for e in entries if e.hints and e.at != "open"]
    opens = [e for e in entries if e.hints and e.at == "open"]
    access = ranked(later)[0] if later else None
    fitting = [e for e in opens if access is None or _compatible(e, access)]
    opened = ranked(fitting)[0] if fitting else None
    if opened is not None:
        config.hints.update({k: str(v) for k, v in opened.hints.items()})
        config.kept.append(
            f"{describe(opened)} for the keys read at open: {why_ranked(opened, len(fitting))}"
        )
    if access is not None:
        overlaid = {k: str(v) for k, v in access.hints.items()}
        config.hints.update(overlaid)
        config.kept.append(
            f"{describe(access)} for the keys read at access: {why_ranked(access, len(later))}"
        )
    for entry in opens:
        if entry is opened:
            continue
        reason = (
            why_one if entry in fitting else "not for the job and file of the kept access entry"
        )
        config.dropped.append(
            Dropped(f"{describe(entry)}: {reason}", f"entries with other choices: {reason}")
        )
    for entry in later:
        if entry is not access:
            config.dropped.append(
                Dropped(f"{describe(entry)}: {why_one}", f"entries with other choices: {why_one}")
            )
    return config
