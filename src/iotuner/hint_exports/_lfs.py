"""Lustre's `lfs setstripe`: a directory's default file layout, from the open entries'
striping keys only.

Options (lfs-setstripe(1), lustre-release Documentation/man1/lfs-setstripe.1, and the
Lustre wiki's PFL man page): `-c/--stripe-count`, `-S/--stripe-size` (bytes, or a k/M/G
suffix), `-i/--stripe-index`; `-E/--component-end END` opens a component of a progressive
file layout (PFL), END in bytes with the same suffixes, `-1` for the end of file. It is set
on a directory, whose new files inherit it. A PFL is written when asked (`pfl`) or when the
entries that apply give different striping at different scales (possible when no `nprocs`
is given): a job of more ranks writes a larger file, and tune gave those scales their
striping, so the components are the settings in increasing stripe width (_pfl_components).
"""

import math
import shlex
from collections.abc import Sequence

from iotuner.hint_exports._results import Built, Dropped
from iotuner.hint_exports._selection import describe, ranked, why_ranked
from iotuner.table import TableEntry

PFL_STRIPES_PER_TARGET = 256
"""A PFL component ends where each of its storage targets holds this many stripes."""

STRIPING_KEYS = ("striping_factor", "striping_unit", "start_iodevice")
"""The keys `lfs setstripe` can carry: -c, -S, -i."""

_LFS_OPTION = {"striping_factor": "-c", "striping_unit": "-S", "start_iodevice": "-i"}
_LFS_TARGET_PLACEHOLDER = "/path/to/output-dir"


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
    """The `-E END options` groups of a PFL: the settings in increasing stripe width (count
    x size); a component ends where each of its targets holds PFL_STRIPES_PER_TARGET
    stripes (count x size x 256), rounded up to a multiple of the stripe sizes on both
    sides; the last runs to the end of file. `one_target_first` (a PFL asked for) puts a
    one-target component of the same stripe size first when the narrowest setting has more
    than one target, by the same rule."""

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


def build_lfs(
    entries: Sequence[TableEntry],
    where: str,
    *,
    pfl: bool = False,
    target: str | None = None,
    **_: object,
) -> Built:
    """The `lfs setstripe` command on `target` (None: a placeholder) for the best-ranked open
    entry's striping, or a PFL of the entries' settings when asked (`pfl`) or when the
    entries of several scales stripe differently."""
    place = shlex.quote(target or _LFS_TARGET_PLACEHOLDER)
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
        return Built("", [], [], dropped)
    best, settings, by_scale = _settings(striping)
    for key, value in best.hints.items():
        if key not in STRIPING_KEYS:
            dropped.append(
                Dropped(f"key {key}={value} of the kept entry dropped: not a layout key")
            )
    chosen, command, kept = _layout(best, settings, by_scale, pfl=pfl, among=len(striping))
    for entry in striping:
        if entry not in chosen:
            reason = "a directory has one default layout, and the kept entry ranks higher"
            dropped.append(
                Dropped(f"{describe(entry)}: {reason}", f"entries with other layouts: {reason}")
            )
    text = " ".join(command[:2] + [shlex.quote(w) for w in command[2:]]) + f" {place}\n"
    usage = [text.strip(), f"lfs getstripe -d {place}"]
    if target is None:
        kept.append(
            f"{_LFS_TARGET_PLACEHOLDER} stands for the directory the program writes its files in"
        )
    return Built(text, usage, kept, dropped)


_Setting = tuple[tuple[str, str], ...]
"""The striping keys of an entry, as (key, value) in STRIPING_KEYS order."""


def _settings(
    striping: Sequence[TableEntry],
) -> tuple[TableEntry, dict[_Setting, TableEntry], dict[_Setting, TableEntry]]:
    """The best-ranked entry; the best-ranked entry of each distinct setting; and those of
    them at a stated scale for the best entry's program and file (the scales a PFL may
    serve)."""
    in_order = ranked(striping)
    settings: dict[_Setting, TableEntry] = {}
    for entry in in_order:
        setting = tuple((k, str(entry.hints[k])) for k in STRIPING_KEYS if k in entry.hints)
        settings.setdefault(setting, entry)
    by_scale = {
        setting: entry
        for setting, entry in settings.items()
        if entry.nprocs is not None
        and entry.file == in_order[0].file
        and entry.program == in_order[0].program
    }
    return in_order[0], settings, by_scale


def _layout(
    best: TableEntry,
    settings: dict[_Setting, TableEntry],
    by_scale: dict[_Setting, TableEntry],
    *,
    pfl: bool,
    among: int,
) -> tuple[list[TableEntry], list[str], list[str]]:
    """The entries the layout keeps, the words of its lfs command and the sentences saying
    what was kept: a PFL when asked or when the scales stripe differently, else the best
    entry's options (`among`: how many entries could be kept)."""
    scales_differ = len({e.nprocs for e in by_scale.values()}) > 1 and len(by_scale) > 1
    if not (pfl or scales_differ):
        options = _stripe_options({k: str(v) for k, v in best.hints.items()})
        return (
            [best],
            ["lfs", "setstripe", *options],
            [f"{describe(best)}: {why_ranked(best, among)}"],
        )
    chosen = list(by_scale.values()) if scales_differ else [best]
    components = _pfl_components(
        [dict(setting) for setting, e in settings.items() if e in chosen],
        one_target_first=pfl,
    )
    command = ["lfs", "setstripe", *(word for group in components for word in group)]
    kept = [
        f"{describe(entry)} as a component of a progressive file layout "
        f"({'asked for' if pfl else 'the table stripes its scales differently'}): a "
        f"component ends where each target holds {PFL_STRIPES_PER_TARGET} stripes"
        for entry in chosen
    ]
    return chosen, command, kept
