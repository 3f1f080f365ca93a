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
    # What `gain` and `gain_interval` rest on: "measured" (this case's repeats) or
    # "calibrated" (held-out workloads); None where neither is known.
    gain_basis: str | None = None


@dataclass(frozen=True)
class TuneResult:
    entries: list[TableEntry]
    choices: list[Choice]
    noise: float
    method: str = "enumerated"  # or "optimised"
    method_reason: str = ""
    predicted_rows: int = 0  # rows the model was asked to predict
    evidence_rule: str = ""  # what an entry needs, in words
    # Ranks the training data has rows at but compares no configurations at (only the
    # programs' traced runs there): no entries for them (tune's compared_scales).
    scales_left_out: tuple[int, ...] = ()


# The note of an access entry is a two-way contract: tune writes it with choice_note, and
# whoever reads a table's predictions back (iotuner export ranks entries by gain, the report
# draws gains with their intervals) reads it with note_figures. Change the two together;
# tests/unit/test_hint_exports.py checks the round trip.
_NUMBER = r"-?[0-9]+(?:\.[0-9]+)?"
_NOTE = re.compile(
    rf"^predicted (?P<predicted>{_NUMBER}) MiB/s \[(?P<low>{_NUMBER}), (?P<high>{_NUMBER})\] "
    rf"vs default (?P<default>{_NUMBER}); "
    rf"(?:gain x(?P<gain>{_NUMBER}) \[(?P<gain_low>{_NUMBER}), (?P<gain_high>{_NUMBER})\] "
    rf"(?P<basis>measured|calibrated); )?(?P<reason>.*)$",
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
    gain_low: float = 0.0
    gain_high: float = 0.0
    """The gain's interval, `gain` inside it: measured or calibrated where the note says
    (`basis`), else the model's band over the default's prediction."""
    basis: str = "predicted"
    """"measured", "calibrated" or "predicted" (the model's ratio and band alone)."""


def choice_note(c: Choice) -> str:
    """The `note` of the table entry written for a choice: "predicted X MiB/s [low, high]
    vs default Y; [gain xG [GL, GH] measured|calibrated; ]reason" (note_figures reads it
    back). The gain part is there when the choice has a measured or calibrated gain
    (Choice.gain with Choice.gain_interval): the printed point is then the one that goes
    with its interval, not the ratio of two predictions."""
    gain = ""
    if c.gain is not None and c.gain_interval is not None and c.gain_basis is not None:
        low, high = c.gain_interval
        gain = f"gain x{c.gain:.2f} [{low:.2f}, {high:.2f}] {c.gain_basis}; "
    return (
        f"predicted {c.predicted:.1f} MiB/s [{c.low:.1f}, {c.high:.1f}] vs default "
        f"{c.default_predicted:.1f}; {gain}{c.reason}"
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
    low, high = float(found.group("low")), float(found.group("high"))
    if found.group("gain") is not None:
        return NoteFigures(
            predicted=predicted,
            low=low,
            high=high,
            default=default,
            gain=float(found.group("gain")),
            reason=found.group("reason"),
            gain_low=float(found.group("gain_low")),
            gain_high=float(found.group("gain_high")),
            basis=found.group("basis"),
        )
    return NoteFigures(
        predicted=predicted,
        low=low,
        high=high,
        default=default,
        gain=predicted / default,
        reason=found.group("reason"),
        gain_low=low / default,
        gain_high=high / default,
    )


def note_gain(note: str | None) -> float | None:
    """The predicted gain (predicted / default bandwidth) a note by choice_note states, or
    None where note_figures gives None."""
    figures = note_figures(note)
    return None if figures is None else figures.gain
