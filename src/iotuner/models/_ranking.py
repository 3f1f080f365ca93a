"""Models made for ranking the configurations of one workload, beside the zoo (_zoo.py).

What a tuner needs of a model is the order of one workload's configurations; a regressor
fitted on log bandwidth spends most of its splits on what separates workloads (scale,
size), which is the same for every configuration of a workload and says nothing about
the order. These candidates separate the two:

* relative_forest: a random forest on the target relative to the workload (log bandwidth
  minus the median log bandwidth of the workload's measured configurations), plus a
  second model for the workload's level (the median, from the workload features alone):
  a random forest with one row per workload. The prediction is level + relative, so
  bandwidths still come out in MiB/s, and the order within a workload is the relative
  forest's alone. Its spread (predict_std) combines the two forests' tree spreads: the
  level's spread lets a search's first measurement move the whole workload (trials to
  95 % 1.38 with it, 1.92 without, on the demo's knowledge base). The level was histogram
  gradient boosting until the development data of issue 10 judged both: held-out
  workloads' MdAPE 44.9 % with the forest against 63.6 % (ext4 sweep) and 25.2 % against
  36.1 % (tmpfs sweep), for relative_boosting; on bench/models.py's synthetic scales frame
  boosting was slightly better (MAPE 12.6 % against 14.5 %), and real data decides.
* relative_boosting: the same with histogram gradient boosting for the relative part.
* lambdarank: LightGBM's LGBMRanker with the lambdarank objective (pairwise, weighted
  by NDCG, so the top of the order counts most) on graded relevance 0 .. 30 (30 x the
  configuration's bandwidth over its workload's best), its score mapped to relative log
  bandwidth by isotonic regression on the training rows, plus the level forest. Offered
  only where lightgbm is installed (it is not a dependency of iotuner).
* average_best: best configuration on average, a baseline (iotuner.models._zoo.BASELINES)
  rather than a model of its own: each configuration's mean log bandwidth relative to the
  median of the training workloads it was measured in, one order of the configurations for
  every workload; plus the level forest, so its bandwidths are in MiB/s. A configuration
  never measured in training is put at the workload's median (relative 0). `train` ships a
  candidate only if it picks at least as well as this on held-out workloads.

An estimator here reads its workload from the first `workload_features` columns of X
(the schema's workload encodings come before the configuration's); call
configure(estimator, schema) before fitting, as evaluate and train do.
"""

from collections.abc import Callable
from typing import Any

import numpy as np
import numpy.typing as npt
from sklearn.base import BaseEstimator, RegressorMixin, clone
from sklearn.ensemble import HistGradientBoostingRegressor, RandomForestRegressor
from sklearn.isotonic import IsotonicRegression

from iotuner.models._features import FeatureSchema
from iotuner.models._zoo import Candidate

__all__ = [
    "RANKING_NAMES",
    "AverageBestRegressor",
    "LambdaRankRegressor",
    "RelativeTargetRegressor",
    "configure",
    "lightgbm_available",
    "ranking_candidates",
]

RANKING_NAMES = ("relative_forest", "relative_boosting", "lambdarank", "average_best")


def lightgbm_available() -> bool:
    try:
        import lightgbm  # noqa: F401
    except ImportError:
        return False
    return True


def configure(estimator: Any, schema: FeatureSchema) -> Any:
    """Tell an estimator which columns of X describe the workload, when it reads them
    (its read_workload_from: the models of this module); any other is left as it is."""
    read_workload_from = getattr(estimator, "read_workload_from", None)
    if callable(read_workload_from):
        read_workload_from(schema)
    return estimator


def _workload_ids(X: npt.NDArray[np.float64], columns: int) -> npt.NDArray[np.intp]:
    """Rows with equal workload features share an id (NaN, an unknown, equals NaN)."""
    part = np.nan_to_num(np.asarray(X[:, :columns], dtype=float), nan=-1e300)
    _, ids = np.unique(part, axis=0, return_inverse=True)
    return np.asarray(ids, dtype=np.intp).reshape(-1)


def _medians(y: npt.NDArray[np.float64], ids: npt.NDArray[np.intp]) -> npt.NDArray[np.float64]:
    """Each workload's median target, one per id."""
    return np.array([np.median(y[ids == i]) for i in range(int(ids.max()) + 1)])


class _LevelMixin:
    """The workload's level: a forest on the workload features, one row per workload."""

    workload_features: int
    level: Any
    empty_: npt.NDArray[np.bool_]

    def read_workload_from(self, schema: FeatureSchema) -> None:
        """Read the workload from the schema's workload columns, the first of X."""
        self.workload_features = len(schema.workload_only().feature_names)

    def _known(self, X: npt.ArrayLike, fitting: bool = False) -> npt.NDArray[np.float64]:
        """X as floats, with the features unknown (NaN) in every training row set to 0: they
        say nothing, and histogram boosting cannot bin them."""
        values = np.array(X, dtype=float)
        if fitting:
            self.empty_ = np.isnan(values).all(axis=0)
        values[:, self.empty_] = 0.0
        return values

    def _fit_level(
        self, X: npt.NDArray[np.float64], y: npt.NDArray[np.float64]
    ) -> npt.NDArray[np.float64]:
        if self.workload_features < 1:
            raise ValueError("workload_features is not set: call configure(estimator, schema)")
        ids = _workload_ids(X, self.workload_features)
        medians = _medians(y, ids)
        first = np.array([np.flatnonzero(ids == i)[0] for i in range(len(medians))])
        rows = X[first, : self.workload_features]
        self.level_ = clone(self.level).fit(rows, medians)
        relative: npt.NDArray[np.float64] = y - medians[ids]
        return relative

    def _level(self, X: npt.NDArray[np.float64]) -> npt.NDArray[np.float64]:
        return np.asarray(self.level_.predict(X[:, : self.workload_features]), dtype=float)

    def _level_std(self, X: npt.NDArray[np.float64]) -> npt.NDArray[np.float64]:
        return _tree_std(self.level_, X[:, : self.workload_features])


def _tree_std(model: Any, X: npt.NDArray[np.float64]) -> npt.NDArray[np.float64]:
    members = getattr(model, "estimators_", None)
    if not isinstance(members, list) or not members:
        return np.zeros(len(X))
    spread: npt.NDArray[np.float64] = np.stack([m.predict(X) for m in members]).std(axis=0)
    return spread


class RelativeTargetRegressor(_LevelMixin, RegressorMixin, BaseEstimator):
    """log bandwidth = level(workload) + relative(workload, configuration)."""

    def __init__(self, relative: Any, level: Any, workload_features: int = 0) -> None:
        self.relative = relative
        self.level = level
        self.workload_features = workload_features

    def fit(self, X: npt.NDArray[np.float64], y: npt.NDArray[np.float64]) -> Any:
        X, y = self._known(X, fitting=True), np.asarray(y, dtype=float)
        relative = self._fit_level(X, y)
        self.relative_ = clone(self.relative).fit(X, relative)
        self.n_features_in_ = X.shape[1]
        return self

    def predict(self, X: npt.NDArray[np.float64]) -> npt.NDArray[np.float64]:
        X = self._known(X)
        log_bw: npt.NDArray[np.float64] = self._level(X) + np.asarray(
            self.relative_.predict(X), dtype=float
        )
        return log_bw

    def predict_std(self, X: npt.NDArray[np.float64]) -> npt.NDArray[np.float64]:
        X = self._known(X)
        spread: npt.NDArray[np.float64] = np.hypot(_tree_std(self.relative_, X), self._level_std(X))
        return spread


class LambdaRankRegressor(_LevelMixin, RegressorMixin, BaseEstimator):
    """LightGBM lambdarank for the order; isotonic score -> relative log bandwidth; level."""

    def __init__(
        self, level: Any, n_estimators: int = 200, seed: int = 0, workload_features: int = 0
    ) -> None:
        self.level = level
        self.n_estimators = n_estimators
        self.seed = seed
        self.workload_features = workload_features

    def fit(self, X: npt.NDArray[np.float64], y: npt.NDArray[np.float64]) -> Any:
        from lightgbm import LGBMRanker

        X, y = self._known(X, fitting=True), np.asarray(y, dtype=float)
        relative = self._fit_level(X, y)
        ids = _workload_ids(X, self.workload_features)
        best = np.array([y[ids == i].max() for i in range(int(ids.max()) + 1)])
        grade = np.rint(30.0 * np.exp(y - best[ids])).astype(int)
        order = np.argsort(ids, kind="stable")
        self.ranker_ = LGBMRanker(
            objective="lambdarank",
            n_estimators=self.n_estimators,
            learning_rate=0.05,
            min_child_samples=5,
            label_gain=list(range(31)),
            random_state=self.seed,
            n_jobs=1,
            verbose=-1,
        )
        self.ranker_.fit(X[order], grade[order], group=np.bincount(ids[order]))
        score = np.asarray(self.ranker_.predict(X), dtype=float)
        self.calibration_ = IsotonicRegression(out_of_bounds="clip").fit(score, relative)
        self.n_features_in_ = X.shape[1]
        return self

    def predict(self, X: npt.NDArray[np.float64]) -> npt.NDArray[np.float64]:
        X = self._known(X)
        score = np.asarray(self.ranker_.predict(X), dtype=float)
        # The isotonic map is flat between steps; a tiny share of the raw score keeps the
        # ranker's order among configurations that map to the same level.
        relative = np.asarray(self.calibration_.predict(score), dtype=float) + 1e-6 * score
        log_bw: npt.NDArray[np.float64] = self._level(X) + relative
        return log_bw


class AverageBestRegressor(_LevelMixin, RegressorMixin, BaseEstimator):
    """Best configuration on average: log bandwidth = level(workload) + the configuration's
    mean log bandwidth relative to its training workloads' medians (the same for every
    workload, so the order of the configurations never depends on the workload)."""

    def __init__(self, level: Any, workload_features: int = 0) -> None:
        self.level = level
        self.workload_features = workload_features

    def fit(self, X: npt.NDArray[np.float64], y: npt.NDArray[np.float64]) -> Any:
        X, y = self._known(X, fitting=True), np.asarray(y, dtype=float)
        relative = self._fit_level(X, y)
        configurations, index = np.unique(self._configuration(X), axis=0, return_inverse=True)
        index = np.asarray(index, dtype=np.intp).reshape(-1)
        means = np.bincount(index, weights=relative) / np.bincount(index)
        self.configurations_ = configurations
        self.relative_ = means
        self.n_features_in_ = X.shape[1]
        return self

    def predict(self, X: npt.NDArray[np.float64]) -> npt.NDArray[np.float64]:
        X = self._known(X)
        log_bw: npt.NDArray[np.float64] = self._level(X) + self.relative(X)
        return log_bw

    def relative(self, X: npt.ArrayLike) -> npt.NDArray[np.float64]:
        """Each row's configuration score (mean relative log bandwidth; 0 if never seen)."""
        index = {row.tobytes(): i for i, row in enumerate(self.configurations_)}
        found = [index.get(row.tobytes()) for row in self._configuration(self._known(X))]
        return np.array([0.0 if i is None else self.relative_[i] for i in found])

    def _configuration(self, X: npt.NDArray[np.float64]) -> npt.NDArray[np.float64]:
        """The configuration's columns of X (after the workload's), NaN as one value."""
        if self.workload_features < 1:
            raise ValueError("workload_features is not set: call configure(estimator, schema)")
        part = np.asarray(X[:, self.workload_features :], dtype=float)
        return np.ascontiguousarray(np.nan_to_num(part, nan=-1e300) + 0.0)


def ranking_candidates(quick: bool = False) -> dict[str, Candidate]:
    """The candidates of this module by name (lambdarank only with lightgbm installed)."""
    trees = 30 if quick else 100

    def forest(seed: int) -> RandomForestRegressor:
        return RandomForestRegressor(n_estimators=trees, random_state=seed)

    level = forest

    makers: dict[str, tuple[str, Callable[[int], Any]]] = {
        "relative_forest": (
            f"random forest on log bandwidth relative to the workload's median, {trees} "
            "trees, plus a forest for the workload's level",
            lambda seed: RelativeTargetRegressor(forest(seed), level(seed)),
        ),
        "relative_boosting": (
            "histogram gradient boosting on log bandwidth relative to the workload's "
            "median, plus a forest for the workload's level",
            lambda seed: RelativeTargetRegressor(
                HistGradientBoostingRegressor(max_iter=100 if quick else 300, random_state=seed),
                level(seed),
            ),
        ),
    }
    if lightgbm_available():
        makers["lambdarank"] = (
            "LightGBM LGBMRanker (lambdarank) on graded relevance within the workload, "
            "score calibrated to relative log bandwidth, plus a forest for the level",
            lambda seed: LambdaRankRegressor(
                forest(seed), n_estimators=100 if quick else 200, seed=seed
            ),
        )
    makers["average_best"] = (
        "best configuration on average (baseline): each configuration's mean log "
        "bandwidth relative to its training workloads' medians, one order for every "
        "workload, plus a forest for the workload's level",
        lambda seed: AverageBestRegressor(level(seed)),
    )
    return {name: Candidate(name, text, make) for name, (text, make) in makers.items()}
