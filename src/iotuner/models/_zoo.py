"""The candidate regressors `iotuner train` compares, all scikit-learn, all fitted on the
natural logarithm of the bandwidth.

* random_forest: the dissertation's IO_Predictor and our baseline (§5.2.2): 100 trees,
  criterion squared_error (or absolute_error, much slower to fit), max_depth unlimited
  unless given (the dissertation tried depths up to 5).
* decision_tree: one CART tree (Kunkel et al.'s performance model, unpruned).
* svr: support vector regression with an RBF kernel on standardised features.
* mlp: a multi-layer perceptron (two hidden layers of 64) on standardised features and a
  standardised target, with early stopping.
* hist_gradient_boosting: histogram gradient boosting (LightGBM-style).
* gradient_boosting: classic gradient boosting of depth-3 trees (not in the quick zoo).

`quick` shrinks the zoo for a demo: 30 trees in the forest, smaller MLP and boosting, and
no classic gradient boosting.

Unknown workload fields are NaN in the features (iotuner.models._features). The forest,
the tree and histogram boosting learn where missing values go at each split; SVR, the MLP
and classic boosting cannot take NaN, so their pipelines start with a median imputer that
also adds a 0/1 "was missing" column per feature with gaps (keep_empty_features keeps a
feature that is unknown in every training row, as 0, so the feature count stays the
schema's). Histogram boosting cannot bin a feature that is unknown in every training row
(scikit-learn 1.9 fails on it); such a feature says nothing, so it is set to 0 first
(EmptyFeaturesAsZero).
"""

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt
from sklearn.base import BaseEstimator, TransformerMixin
from sklearn.compose import TransformedTargetRegressor
from sklearn.ensemble import (
    GradientBoostingRegressor,
    HistGradientBoostingRegressor,
    RandomForestRegressor,
)
from sklearn.impute import SimpleImputer
from sklearn.neural_network import MLPRegressor
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler
from sklearn.svm import SVR
from sklearn.tree import DecisionTreeRegressor

from iotuner.models._common import ModelError

__all__ = [
    "AVERAGE_BEST",
    "BASELINE",
    "BASELINES",
    "CANDIDATE_NAMES",
    "CRITERIA",
    "Candidate",
    "SmallDataMLP",
    "candidates",
]

MIN_EARLY_STOPPING_ROWS = 100
"""Fewer training rows than this and the MLP trains without early stopping: its held-out
tenth would be a handful of rows (scikit-learn refuses fewer than 2; a 33-row table split
70/30 crashed train) and stop the training on noise."""


class SmallDataMLP(MLPRegressor):
    """An MLPRegressor that stops early only with enough rows (MIN_EARLY_STOPPING_ROWS)."""

    def fit(self, X: Any, y: Any, **params: Any) -> "SmallDataMLP":
        wanted: bool = self.get_params()["early_stopping"]
        self.set_params(early_stopping=wanted and len(X) >= MIN_EARLY_STOPPING_ROWS)
        try:
            super().fit(X, y, **params)
        finally:
            self.set_params(early_stopping=wanted)  # a parameter, not a result of fit
        return self


BASELINE = "random_forest"
"""The dissertation's model: always evaluated and reported, chosen or not."""

AVERAGE_BEST = "average_best"
"""Best configuration on average (iotuner.models._ranking.AverageBestRegressor): one order
of the configurations for every workload. The second baseline of `train`."""

BASELINES = (BASELINE, AVERAGE_BEST)
"""What `train` always compares its candidates with, on the same held-out workloads: a
candidate whose mean zero-trial pick is below either is never shipped (_train.py)."""

CANDIDATE_NAMES = (
    "random_forest",
    "decision_tree",
    "svr",
    "mlp",
    "hist_gradient_boosting",
    "gradient_boosting",
)

CRITERIA = ("squared_error", "absolute_error")
"""The split criteria the dissertation evaluated for its forest."""


@dataclass(frozen=True)
class Candidate:
    """One model of the zoo: `make(seed)` returns a new, unfitted estimator."""

    name: str
    description: str
    make: Callable[[int], Any]

    @property
    def baseline(self) -> bool:
        return self.name in BASELINES


class EmptyFeaturesAsZero(TransformerMixin, BaseEstimator):
    """Sets to 0 the features that were unknown (NaN) in every row fitted; others pass."""

    def fit(self, X: npt.ArrayLike, y: Any = None) -> "EmptyFeaturesAsZero":
        values = np.asarray(X, dtype=float)
        self.empty_ = np.isnan(values).all(axis=0)
        self.n_features_in_ = values.shape[1]
        return self

    def transform(self, X: npt.ArrayLike) -> npt.NDArray[np.float64]:
        values = np.array(X, dtype=float)
        values[:, self.empty_] = 0.0
        return values


def _imputer() -> SimpleImputer:
    """Unknown (NaN) features as the training median, plus an indicator of which were."""
    return SimpleImputer(strategy="median", add_indicator=True, keep_empty_features=True)


def candidates(
    names: Sequence[str] | None = None,
    *,
    quick: bool = False,
    rf_max_depth: int | None = None,
    rf_criterion: str = "squared_error",
) -> list[Candidate]:
    """The zoo (or the models named in `names`, plus the baseline), in CANDIDATE_NAMES order.

    ModelError for an unknown name, a criterion not in CRITERIA or a max_depth < 1.
    """
    if rf_criterion not in CRITERIA:
        raise ModelError(f"rf_criterion must be one of {CRITERIA}, got {rf_criterion!r}")
    if rf_max_depth is not None and rf_max_depth < 1:
        raise ModelError(f"rf_max_depth must be an int >= 1 or None, got {rf_max_depth!r}")
    wanted = set(CANDIDATE_NAMES if names is None else names)
    unknown = sorted(wanted - set(CANDIDATE_NAMES))
    if unknown:
        raise ModelError(
            f"unknown model(s) {', '.join(unknown)}; choose from {', '.join(CANDIDATE_NAMES)}"
        )
    wanted.add(BASELINE)
    if quick and names is None:
        wanted.discard("gradient_boosting")
    zoo = _every_candidate(quick=quick, rf_max_depth=rf_max_depth, rf_criterion=rf_criterion)
    return [zoo[name] for name in CANDIDATE_NAMES if name in wanted]


def _every_candidate(
    *, quick: bool, rf_max_depth: int | None, rf_criterion: str
) -> dict[str, Candidate]:
    """Every candidate by name, sized for `quick` (fewer trees, iterations and units)."""
    trees = 30 if quick else 100
    depth = "unlimited" if rf_max_depth is None else str(rf_max_depth)
    hidden = (32,) if quick else (64, 64)
    boost = 100 if quick else 300
    zoo: dict[str, Candidate] = {
        "random_forest": Candidate(
            "random_forest",
            f"random forest, {trees} trees, {rf_criterion}, max_depth {depth} (baseline)",
            lambda seed: RandomForestRegressor(
                n_estimators=trees,
                criterion=rf_criterion,
                max_depth=rf_max_depth,
                random_state=seed,
            ),
        ),
        "decision_tree": Candidate(
            "decision_tree",
            "decision tree (CART), unpruned",
            lambda seed: DecisionTreeRegressor(random_state=seed),
        ),
        "svr": Candidate(
            "svr",
            "support vector regression, RBF kernel, C=10, standardised features",
            lambda seed: make_pipeline(_imputer(), StandardScaler(), SVR(C=10.0, epsilon=0.05)),
        ),
        "mlp": Candidate(
            "mlp",
            f"multi-layer perceptron, hidden layers {hidden}, early stopping",
            lambda seed: TransformedTargetRegressor(
                regressor=make_pipeline(
                    _imputer(),
                    StandardScaler(),
                    SmallDataMLP(
                        hidden_layer_sizes=hidden,
                        alpha=1e-3,
                        max_iter=300 if quick else 1000,
                        early_stopping=True,
                        n_iter_no_change=20,
                        random_state=seed,
                    ),
                ),
                transformer=StandardScaler(),
            ),
        ),
        "hist_gradient_boosting": Candidate(
            "hist_gradient_boosting",
            f"histogram gradient boosting, {boost} iterations",
            lambda seed: make_pipeline(
                EmptyFeaturesAsZero(),
                HistGradientBoostingRegressor(max_iter=boost, random_state=seed),
            ),
        ),
        "gradient_boosting": Candidate(
            "gradient_boosting",
            "gradient boosting, 300 trees of depth 3",
            lambda seed: make_pipeline(
                _imputer(),
                GradientBoostingRegressor(n_estimators=300, max_depth=3, random_state=seed),
            ),
        ),
    }
    return zoo
