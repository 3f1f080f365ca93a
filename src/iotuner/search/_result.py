"""What a search gives back: its trials, the re-measures and the verdict, as plain records.

The report (_report), the knowledge base and the tuning table read these; nothing here
runs or decides anything.
"""

import statistics
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from iotuner.measurement import Workload
from iotuner.search._common import TrialOutcome, better
from iotuner.space import Configuration, Space

if TYPE_CHECKING:  # _guide needs scikit-learn; a result is read without it
    from iotuner.search._guide import Recommendation

__all__ = [
    "OfflineSummary",
    "Remeasured",
    "SearchProgress",
    "SearchResult",
    "Skipped",
    "TrialRecord",
    "Verdict",
]


@dataclass(frozen=True)
class TrialRecord:
    """One measured trial (not the cached duplicates nor the vetoed proposals)."""

    number: int
    config: Configuration
    outcome: TrialOutcome
    new: bool
    """Measured by this call of run_search (False: by an earlier, resumed one)."""
    note: str = ""
    """What the objective adds to the trial's line in the report (Objective.describe)."""

    @property
    def value(self) -> float | None:
        return self.outcome.value

    @property
    def failed(self) -> bool:
        return self.outcome.failed


@dataclass(frozen=True)
class SearchProgress:
    """Where a search stands, for a progress display."""

    done: int
    budget: int
    failed: int
    best: float | None
    best_config: str | None
    elapsed: float
    eta: float | None


@dataclass(frozen=True)
class Remeasured:
    """The re-measurements of one configuration in the noise step."""

    config: Configuration
    is_default: bool
    search_value: float | None
    values: list[float]
    failures: list[str]
    logs: list[Path]
    seconds: float = 0.0
    """Wall seconds of the re-measures together (for the core-hours spent)."""

    @property
    def median(self) -> float | None:
        return statistics.median(self.values) if self.values else None

    @property
    def spread(self) -> float | None:
        """(max - min) / median of the re-measures: the noise, as a fraction."""
        median = self.median
        if not self.values or not median:
            return None
        return (max(self.values) - min(self.values)) / abs(median)


@dataclass(frozen=True)
class Spent:
    """What the runs cost, in core-hours: `cores` per run x wall seconds (--budget-core-hours)."""

    cores: int
    trials: float
    """Core-hours of the study's measured trials (earlier searches' too)."""
    remeasures: float = 0.0
    """Core-hours of the verdict's re-measures."""
    budget: float | None = None
    """The budget in core-hours (None: none given)."""
    collected: list[str] = field(default_factory=list)
    """Trials of an earlier search whose submitted jobs this one collected, one line each."""

    @property
    def total(self) -> float:
        return self.trials + self.remeasures


@dataclass(frozen=True)
class Verdict:
    """The best re-measured configuration against the default: whether it is better beyond
    the noise, the rank test's p-value and the level it had to reach (None when there was
    nothing to test), the ratio of the medians and the sentence that says it all."""

    best: Configuration
    p_value: float | None
    significant: bool
    message: str
    level: float | None = None
    ratio: float | None = None


@dataclass(frozen=True)
class Skipped:
    """A candidate the strategy skipped without running it (the model predicted it poor)."""

    config: Configuration
    reason: str


@dataclass(frozen=True)
class OfflineSummary:
    """How an offline search did against the table it was answered from."""

    rows: int
    configurations: int
    repeated: int
    table_best: float
    table_best_config: Configuration
    target_fraction: float
    target: float
    trials_to_target: int | None
    nearest_answers: int
    """Trials answered by the nearest measured configuration (0 in a search: there every
    trial is a configuration the table measured, SearchResult.replaced)."""


@dataclass
class SearchResult:
    """Everything a search found and did, for reports, the knowledge base and the table.

    `trials` are the measured trials of the whole study in order, each with its
    configuration, value or failure, and (running the program) its trace logs; the
    re-measurements of the noise step are in `remeasured`, with their logs too.
    """

    study: str
    storage: str | None
    strategy: str
    objective: str
    direction: str
    space: Space
    command: list[str] | None
    budget: int
    trials: list[TrialRecord]
    proposals: int
    duplicates: int
    vetoed: int
    recovered: int
    stopped: str
    replaced: int = 0
    """Proposals of configurations the objective does not measure (offline: not in the
    table), each no trial: the nearest one it measures, not tried yet, was measured
    instead (_loop)."""
    notes: list[str] = field(default_factory=list)
    remeasured: list[Remeasured] = field(default_factory=list)
    verdict: Verdict | None = None
    winner: Configuration | None = None
    winner_reason: str = ""
    offline: OfflineSummary | None = None
    program: str | None = None
    nprocs: int | None = None
    workload: Workload | None = None
    fixed: dict[str, str] = field(default_factory=dict)
    """Parameters fixed at their defaults because no access of the program reaches them."""
    searched_size: int | None = None
    """Configurations left to search once the fixed parameters are taken out."""
    relevance_note: str = ""
    probe_logs: list[Path] = field(default_factory=list)
    """Trace logs of the traced run of the default made only to read the accesses (not a
    trial; empty when that run was the first trial, or none was needed)."""
    unrecorded_logs: list[Path] = field(default_factory=list)
    """Trace logs of trials of the study whose run started and that were never recorded
    (a search killed in between: _study.unrecorded_logs), to be stored all the same."""
    skipped: list[Skipped] = field(default_factory=list)
    trial_mode: str | None = None
    """The interposer's mode of the trials and re-measures (None: the objective runs
    nothing)."""
    recommendation: "Recommendation | None" = None
    """The model strategy's zero-trial pick, its predicted gain over the default and the
    gain's interval (None for the other strategies)."""
    spent: Spent | None = None
    """The core-hours the runs took (None: the objective runs nothing)."""

    @property
    def best(self) -> TrialRecord | None:
        """The measured trial with the best value (None when every trial failed)."""
        return best_trial(self.trials, self.direction)


def best_trial(trials: list[TrialRecord], direction: str) -> TrialRecord | None:
    """The trial with the best value in `direction`, the first of equals (None: all failed)."""
    best: TrialRecord | None = None
    for t in trials:
        if t.value is not None and (best is None or better(t.value, best.value or 0.0, direction)):
            best = t
    return best
