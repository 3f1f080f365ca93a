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

Modules, one idea each (objectives, relevance, strategies, launchers, settings, study, loop,
verdict, result, report, keep), run_search (_driver) tying them together; Objective, Strategy
and Launcher are the extension points: the search asks them only what their bases declare.
"""

from iotuner.search._common import DIRECTIONS, SearchError, TrialOutcome
from iotuner.search._driver import run_search
from iotuner.search._gp import GaussianProcessSampler
from iotuner.search._guide import ModelGuide, parse_workload
from iotuner.search._keep import StoredLogs, store_trial_logs, table_winner, trial_logs
from iotuner.search._launchers import Launcher, LocalLauncher
from iotuner.search._objectives import (
    MEASURES,
    Objective,
    RunObjective,
    bandwidth_from_logs,
    parse_measure,
    workload_from_logs,
)
from iotuner.search._offline import MeasuredConfig, OfflineObjective, OfflineTable, parse_filters
from iotuner.search._registry import LAUNCHERS
from iotuner.search._relevance import Relevance, accesses_from_logs, describe_accesses, relevance
from iotuner.search._report import print_result, result_record
from iotuner.search._result import (
    OfflineSummary,
    Remeasured,
    SearchProgress,
    SearchResult,
    Skipped,
    TrialRecord,
    Verdict,
)
from iotuner.search._settings import MIN_REPEATS, SearchSettings
from iotuner.search._slurm import SlurmLauncher
from iotuner.search._strategies import STRATEGIES, Strategy, StrategyOptions, make_strategy
from iotuner.search._study import default_study_name, storage_url
from iotuner.search._verdict import (
    measured_fs_type,
    merge_winner,
    rank_test,
    searched_keys,
    winner_entries,
)

__all__ = [
    "DIRECTIONS",
    "LAUNCHERS",
    "MEASURES",
    "MIN_REPEATS",
    "STRATEGIES",
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
    "SlurmLauncher",
    "StoredLogs",
    "Strategy",
    "StrategyOptions",
    "TrialOutcome",
    "TrialRecord",
    "Verdict",
    "accesses_from_logs",
    "bandwidth_from_logs",
    "default_study_name",
    "describe_accesses",
    "make_strategy",
    "measured_fs_type",
    "merge_winner",
    "parse_filters",
    "parse_measure",
    "parse_workload",
    "print_result",
    "rank_test",
    "relevance",
    "result_record",
    "run_search",
    "searched_keys",
    "storage_url",
    "store_trial_logs",
    "table_winner",
    "trial_logs",
    "winner_entries",
    "workload_from_logs",
]
