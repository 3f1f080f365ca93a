"""What every part of the search shares: its error, the outcome of one trial, directions."""

from dataclasses import dataclass
from pathlib import Path

from iotuner.errors import IotunerError

DIRECTIONS = ("maximize", "minimize")

LOGS_AT = "iotuner:logs_at"
"""Trial attribute set before its run starts: {"tag", "log_dir"}, where the run's trace
logs will be (`<log_dir>/*-<tag>.iotrace.jsonl`). A search killed after the run wrote its
logs and before it recorded the trial (KIND) leaves them there: the next search stores
them (unrecorded_logs), so the measurement is not lost with the record."""


class SearchError(IotunerError):
    """A search cannot start or go on: bad command, objective, table, strategy or storage."""


@dataclass(frozen=True)
class TrialOutcome:
    """What evaluating one configuration gave.

    `value` is None exactly when the trial failed; `reason` then says why (exit status,
    timeout, no trace, no match). `seconds` is the wall time of the run (0 offline),
    `logs` the trace logs it wrote, `returncode` the command's exit status (None offline).
    Offline, `answered_by` is the measured configuration (config_key) whose value answered
    when the proposed one was not in the table, and `repeats` how many rows of the table
    were summarised into the value, and `worst` the worst of them (the lowest bandwidth,
    the longest time; None: one value), the measured lower bound the model strategy's
    skipping compares with (_guide). `stdout_tail` is the last lines a failed run printed
    (empty for a trial that did not fail or printed nothing), for the report to show why.
    """

    value: float | None
    reason: str | None = None
    seconds: float = 0.0
    logs: tuple[Path, ...] = ()
    returncode: int | None = None
    answered_by: str | None = None
    repeats: int = 1
    stdout_tail: str = ""
    worst: float | None = None

    def __post_init__(self) -> None:
        if (self.value is None) == (self.reason is None):
            raise ValueError("a trial outcome has a value or a failure reason, not both")

    @property
    def failed(self) -> bool:
        return self.value is None


def better(a: float, b: float, direction: str) -> bool:
    """Whether `a` is strictly better than `b` in `direction`."""
    return a > b if direction == "maximize" else a < b


def target_value(best: float, fraction: float, direction: str) -> float:
    """The value that is `fraction` of `best`: the best times it when maximising, divided
    by it when minimising (so 0.95 of a 10 s best is 10.53 s)."""
    return best * fraction if direction == "maximize" else best / fraction
