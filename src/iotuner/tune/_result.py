"""What tune decided, case by case, and the note each access entry carries: written by
choice_note, read back by note_figures (iotuner export ranks entries by gain, the report
draws gains with their intervals). Change the two together; tests/unit/test_hint_exports.py
checks the round trip.
"""

import re
from dataclasses import dataclass

from iotuner.space import Configuration
from iotuner.table import TableEntry

__all__ = [
    "Choice",
    "NoteFigures",
    "TuneResult",
    "choice_note",
    "note_figures",
    "note_gain",
]


@dataclass(frozen=True)
class Choice:
    """The decision for one case, with what it rests on."""

    nprocs: int
    group: int
    pattern: str
    op: str
    layout: str
    config: Configuration
    hints: dict[str, str]
    kept_default: bool
    predicted: float
    low: float
    high: float
    default_predicted: float
    default_low: float
    reason: str
    extrapolated: int = 0  # doublings of the size beyond the trained range (0: inside it)
    # The gain's 10-90 % interval over the default, measured or calibrated (Case.gain_interval);
    # None where neither is known (the bands of an uncalibrated model then stand for it).
    gain_interval: tuple[float, float] | None = None
    # The gain's point that goes with gain_interval (inside it): measured, else the
    # calibrated median; None where neither is known (predicted over default_predicted).
    gain: float | None = None


@dataclass(frozen=True)
class TuneResult:
    entries: list[TableEntry]
    choices: list[Choice]
    noise: float
    method: str = "enumerated"  # or "optimised"
    method_reason: str = ""
    predicted_rows: int = 0  # rows the model was asked to predict
    evidence_rule: str = ""  # what an entry needs, in words


# The note of an access entry is a two-way contract: tune writes it with choice_note, and
# whoever reads a table's predictions back (iotuner export ranks entries by gain, the report
# draws gains with their intervals) reads it with note_figures. Change the two together;
# tests/unit/test_hint_exports.py checks the round trip.
_NUMBER = r"-?[0-9]+(?:\.[0-9]+)?"
_NOTE = re.compile(
    rf"^predicted (?P<predicted>{_NUMBER}) MiB/s \[(?P<low>{_NUMBER}), (?P<high>{_NUMBER})\] "
    rf"vs default (?P<default>{_NUMBER}); (?P<reason>.*)$",
    re.DOTALL,
)


@dataclass(frozen=True)
class NoteFigures:
    """What a note by choice_note states: predicted bandwidth and interval (MiB/s), the
    default's prediction, the gain (predicted / default) and why."""

    predicted: float
    low: float
    high: float
    default: float
    gain: float
    reason: str


def choice_note(c: Choice) -> str:
    """The `note` of the table entry written for a choice: "predicted X MiB/s [low, high]
    vs default Y; reason" (note_figures reads it back)."""
    return (
        f"predicted {c.predicted:.1f} MiB/s [{c.low:.1f}, {c.high:.1f}] vs default "
        f"{c.default_predicted:.1f}; {c.reason}"
    )


def note_figures(note: str | None) -> NoteFigures | None:
    """The figures a note by choice_note states, or None for any other note (hand-written
    tables, search winners, open and view entries, whose notes state no single prediction)
    and for a default predicted at 0, which has no gain."""
    found = _NOTE.match(note or "")
    if found is None:
        return None
    default = float(found.group("default"))
    if default <= 0:
        return None
    predicted = float(found.group("predicted"))
    return NoteFigures(
        predicted=predicted,
        low=float(found.group("low")),
        high=float(found.group("high")),
        default=default,
        gain=predicted / default,
        reason=found.group("reason"),
    )


def note_gain(note: str | None) -> float | None:
    """The predicted gain (predicted / default bandwidth) a note by choice_note states, or
    None where note_figures gives None."""
    figures = note_figures(note)
    return None if figures is None else figures.gain
