"""`iotuner search`: find good settings by measuring them (the dissertation's IO_Search and
faster ways).

A search proposes configurations of a parameter space with a strategy (a genetic
algorithm with the dissertation's settings, random, grid, TPE, a Gaussian process, or
guided by a performance model), measures each with an objective (running the program
under the interposer, or looking it up in a table of measured results), keeps every trial
in an Optuna study that can be resumed, re-measures the best against the default, and
says whether the best is significantly better.

Modules: objectives (_objectives, _offline), strategies (_strategies, _samplers, _gp,
_guide), launchers (_launchers), the loop (_driver) and the report (_report).
"""

from iotuner.search._common import DIRECTIONS, SearchError, TrialOutcome
from iotuner.search._driver import (
    Comparison,
    OfflineSummary,
    Remeasured,
    SearchProgress,
    SearchResult,
    SearchSettings,
    TrialRecord,
    default_study_name,
    merge_winner,
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
from iotuner.search._report import print_result
from iotuner.search._strategies import STRATEGIES, Strategy, StrategyOptions, make_strategy

__all__ = [
    "DIRECTIONS",
    "MEASURES",
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
    "Remeasured",
    "RunObjective",
    "SearchError",
    "SearchProgress",
    "SearchResult",
    "SearchSettings",
    "Strategy",
    "StrategyOptions",
    "TrialOutcome",
    "TrialRecord",
    "bandwidth_from_logs",
    "default_study_name",
    "make_strategy",
    "merge_winner",
    "parse_filters",
    "parse_measure",
    "parse_workload",
    "print_result",
    "run_search",
    "storage_url",
    "winner_entry",
    "workload_from_logs",
]
