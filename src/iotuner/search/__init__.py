"""`iotuner search`: find good settings by measuring them (the dissertation's IO_Search and
faster ways).

A search proposes configurations of a parameter space with a strategy (a genetic
algorithm with the dissertation's settings, random, grid, TPE, a Gaussian process, or
guided by a performance model), measures each with an objective (running the program
under the interposer, or looking it up in a table of measured results), keeps every trial
in an Optuna study that can be resumed, re-measures the best against the default, and
says whether the best is better beyond the noise. It searches only the parameters that
can act on what the program does (its trace shows which accesses it makes), and runs
trials with no more interposer than the objective needs.

Modules: objectives (_objectives, _offline), which parameters matter (_relevance),
strategies (_strategies, _samplers, _gp, _guide), launchers (_launchers), the loop and
the verdict (_driver) and the report (_report).
"""

from iotuner.search._common import DIRECTIONS, SearchError, TrialOutcome
from iotuner.search._driver import (
    MIN_REPEATS,
    Comparison,
    OfflineSummary,
    Remeasured,
    SearchProgress,
    SearchResult,
    SearchSettings,
    Skipped,
    TrialRecord,
    default_study_name,
    merge_winner,
    rank_test,
    run_search,
    storage_url,
    winner_entry,
)
from iotuner.search._gp import GaussianProcessSampler
from iotuner.search._guide import ModelGuide, parse_workload
from iotuner.search._launchers import Launcher, LocalLauncher
from iotuner.search._objectives import (
    MEASURES,
    Objective,
    OfflineObjective,
    RunObjective,
    bandwidth_from_logs,
    parse_measure,
    workload_from_logs,
)
from iotuner.search._offline import MeasuredConfig, OfflineTable, parse_filters
from iotuner.search._relevance import Relevance, accesses_from_logs, describe_accesses, relevance
from iotuner.search._report import print_result
from iotuner.search._strategies import STRATEGIES, Strategy, StrategyOptions, make_strategy

__all__ = [
    "DIRECTIONS",
    "MEASURES",
    "MIN_REPEATS",
    "STRATEGIES",
    "Comparison",
    "GaussianProcessSampler",
    "Launcher",
    "LocalLauncher",
    "MeasuredConfig",
    "ModelGuide",
    "Objective",
    "OfflineObjective",
    "OfflineSummary",
    "OfflineTable",
    "Relevance",
    "Remeasured",
    "RunObjective",
    "SearchError",
    "SearchProgress",
    "SearchResult",
    "SearchSettings",
    "Skipped",
    "Strategy",
    "StrategyOptions",
    "TrialOutcome",
    "TrialRecord",
    "accesses_from_logs",
    "bandwidth_from_logs",
    "default_study_name",
    "describe_accesses",
    "make_strategy",
    "merge_winner",
    "parse_filters",
    "parse_measure",
    "parse_workload",
    "print_result",
    "rank_test",
    "relevance",
    "run_search",
    "storage_url",
    "winner_entry",
    "workload_from_logs",
]
