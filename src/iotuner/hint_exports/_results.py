"""What an export gives back: the text in a mechanism's form, its usage, and in sentences
what was kept and what was dropped (Dropped, grouped so a summary can count them)."""

from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass

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


@dataclass
class Built:
    """What a mechanism's builder writes: its text and usage lines, and in sentences what
    it kept and dropped (export_entries puts the selection's drops before these)."""

    text: str
    usage: list[str]
    kept: list[str]
    dropped: list[Dropped]


def drop_keys(
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
