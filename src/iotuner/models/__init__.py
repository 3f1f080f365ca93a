"""Performance models learned from a summary frame (iotuner.measurement.SUMMARY_COLUMNS).

* Features: FeatureSchema, build_features, infer_schema, log_target.
* `iotuner train`: compare_models (a zoo of scikit-learn regressors, 70/30 split over
  seeds and leave-one-group-out), select_model and choose_model (SELECTION_RULE: never a
  candidate that picks worse than the BASELINES), fit_model, save_model,
  load_model (TrainedModel.predict and predict_quantiles, in MiB/s), train_command.
* `iotuner predict`: predict_workload (a saved model's ranking of one workload's
  configurations, a Prediction record), model_space.
* `iotuner evaluate`: evaluate_models (leave-one-workload-out and leave-one-program-out:
  MdAPE, Spearman within a workload, zero-trial pick, trials to 95 % of the best), with
  model_choices (the zoo and the ranking models of _ranking, e.g. relative_forest).
* Kunkel et al.: performance_tree, parameter_setting_tree, tree_rules, judge_choices,
  kunkel_report.
* SCTuner: analyze.
* Rendering on a terminal: render_train_summary, render_train_report, render_comparison,
  render_kunkel, render_analyze (the reports are plain records).

The names are imported when first used (__getattr__): most of them need scikit-learn
and SciPy, a second or more to import, and a learn step after every run (iotuner.online)
needs none of them when its predictions are cached.
"""

from typing import TYPE_CHECKING

from iotuner._lazy import lazy_names

if TYPE_CHECKING:
    from iotuner.models._analyze import AnalyzeReport, ClusterSummary, ConfigSummary, analyze
    from iotuner.models._calibrate import Calibration, calibrate
    from iotuner.models._common import (
        BANDWIDTH_STATS,
        NOT_SET,
        PATTERN_COLUMNS,
        ModelError,
        cell_value,
    )
    from iotuner.models._compare import Comparison, FoldScore, ModelScore, compare_models, fit_model
    from iotuner.models._evaluate import evaluate_models, model_choices, model_names
    from iotuner.models._features import (
        Encoding,
        FeatureSchema,
        build_features,
        infer_schema,
        log_target,
    )
    from iotuner.models._figures import SCHEMES, Evaluation, Figures, SchemeResult, WorkloadScore
    from iotuner.models._kunkel import (
        ChoiceScore,
        KunkelReport,
        TreeRules,
        judge_choices,
        kunkel_report,
        parameter_setting_tree,
        performance_tree,
        tree_rules,
    )
    from iotuner.models._metrics import METRICS, Metrics, regression_metrics
    from iotuner.models._online import WorkloadBelief, std_from_interval
    from iotuner.models._predict import PREDICT_LIMIT, Prediction, model_space, predict_workload
    from iotuner.models._render import (
        render_analyze,
        render_comparison,
        render_kunkel,
        render_train_report,
        render_train_summary,
    )
    from iotuner.models._saved import (
        MODEL_FORMAT,
        TrainedModel,
        load_model,
        read_metadata,
        save_model,
    )
    from iotuner.models._select import SELECTION_RULE, Selection, choose_model, select_model
    from iotuner.models._synthetic import synthetic_summary_frame
    from iotuner.models._train import TrainReport, train_command
    from iotuner.models._zoo import BASELINE, BASELINES, CANDIDATE_NAMES, Candidate, candidates

_WHERE = {
    "AnalyzeReport": "_analyze",
    "BANDWIDTH_STATS": "_common",
    "BASELINE": "_zoo",
    "BASELINES": "_zoo",
    "CANDIDATE_NAMES": "_zoo",
    "Calibration": "_calibrate",
    "Candidate": "_zoo",
    "ChoiceScore": "_kunkel",
    "ClusterSummary": "_analyze",
    "Comparison": "_compare",
    "ConfigSummary": "_analyze",
    "Encoding": "_features",
    "Evaluation": "_figures",
    "FeatureSchema": "_features",
    "Figures": "_figures",
    "FoldScore": "_compare",
    "KunkelReport": "_kunkel",
    "METRICS": "_metrics",
    "MODEL_FORMAT": "_saved",
    "Metrics": "_metrics",
    "ModelError": "_common",
    "ModelScore": "_compare",
    "NOT_SET": "_common",
    "PREDICT_LIMIT": "_predict",
    "Prediction": "_predict",
    "model_space": "_predict",
    "predict_workload": "_predict",
    "PATTERN_COLUMNS": "_common",
    "SCHEMES": "_figures",
    "SELECTION_RULE": "_select",
    "SchemeResult": "_figures",
    "Selection": "_select",
    "TrainReport": "_train",
    "TrainedModel": "_saved",
    "TreeRules": "_kunkel",
    "WorkloadBelief": "_online",
    "WorkloadScore": "_figures",
    "analyze": "_analyze",
    "build_features": "_features",
    "calibrate": "_calibrate",
    "candidates": "_zoo",
    "cell_value": "_common",
    "choose_model": "_select",
    "compare_models": "_compare",
    "evaluate_models": "_evaluate",
    "fit_model": "_compare",
    "infer_schema": "_features",
    "judge_choices": "_kunkel",
    "kunkel_report": "_kunkel",
    "load_model": "_saved",
    "log_target": "_features",
    "model_choices": "_evaluate",
    "model_names": "_evaluate",
    "parameter_setting_tree": "_kunkel",
    "performance_tree": "_kunkel",
    "read_metadata": "_saved",
    "regression_metrics": "_metrics",
    "render_analyze": "_render",
    "render_comparison": "_render",
    "render_kunkel": "_render",
    "render_train_report": "_render",
    "render_train_summary": "_render",
    "save_model": "_saved",
    "select_model": "_select",
    "std_from_interval": "_online",
    "synthetic_summary_frame": "_synthetic",
    "train_command": "_train",
    "tree_rules": "_kunkel",
}
"""The module of each name (iotuner.models._<module>)."""


__getattr__ = lazy_names(
    __name__, globals(), {name: f"iotuner.models.{module}" for name, module in _WHERE.items()}
)


__all__ = [
    "BANDWIDTH_STATS",
    "BASELINE",
    "BASELINES",
    "CANDIDATE_NAMES",
    "METRICS",
    "MODEL_FORMAT",
    "NOT_SET",
    "PATTERN_COLUMNS",
    "PREDICT_LIMIT",
    "SCHEMES",
    "SELECTION_RULE",
    "AnalyzeReport",
    "Calibration",
    "Candidate",
    "ChoiceScore",
    "ClusterSummary",
    "Comparison",
    "ConfigSummary",
    "Encoding",
    "Evaluation",
    "FeatureSchema",
    "Figures",
    "FoldScore",
    "KunkelReport",
    "Metrics",
    "ModelError",
    "ModelScore",
    "Prediction",
    "SchemeResult",
    "Selection",
    "TrainReport",
    "TrainedModel",
    "TreeRules",
    "WorkloadBelief",
    "WorkloadScore",
    "analyze",
    "build_features",
    "calibrate",
    "candidates",
    "cell_value",
    "choose_model",
    "compare_models",
    "evaluate_models",
    "fit_model",
    "infer_schema",
    "judge_choices",
    "kunkel_report",
    "load_model",
    "log_target",
    "model_choices",
    "model_names",
    "model_space",
    "parameter_setting_tree",
    "performance_tree",
    "predict_workload",
    "read_metadata",
    "regression_metrics",
    "render_analyze",
    "render_comparison",
    "render_kunkel",
    "render_train_report",
    "render_train_summary",
    "save_model",
    "select_model",
    "std_from_interval",
    "synthetic_summary_frame",
    "train_command",
    "tree_rules",
]
