"""The model zoo's contract, run over every candidate (as optuna.testing runs one suite over
every sampler): what iotuner.models' training, saving and prediction rely on.

A candidate's `make(seed)` returns a new, unfitted scikit-learn regressor that
- can be cloned with its parameters (model selection refits clones);
- fits a feature matrix and a log-bandwidth target and predicts one finite value per row;
- gives the same predictions for the same seed (trained models are reproducible);
- learns: on data with a clear trend it beats predicting the mean;
- takes NaN (an unknown workload field) in any feature, in training and in prediction,
  including a feature that is unknown in every training row.
"""

import numpy as np
import pandas as pd
import pytest
from sklearn.base import clone, is_regressor
from sklearn.exceptions import NotFittedError

from iotuner.models import build_features, log_target
from iotuner.models._zoo import CANDIDATE_NAMES, candidates
from iotuner.space import Space

ZOO = {c.name: c for c in candidates(quick=True)} | {
    c.name: c for c in candidates(["gradient_boosting"], quick=True)
}


def _data(seed: int) -> tuple[np.ndarray, np.ndarray]:
    """A trend in features 0 and 1; features 2 and 3 unknown (NaN) in a third of the rows,
    feature 4 unknown in every training row (the first 200) and known after."""
    rng = np.random.default_rng(seed)
    X = rng.uniform(0, 1, size=(240, 5))
    y = 3.0 * X[:, 0] - 2.0 * X[:, 1] + rng.normal(0, 0.05, size=240)
    X[rng.uniform(size=240) < 1 / 3, 2] = np.nan
    X[rng.uniform(size=240) < 1 / 3, 3] = np.nan
    X[:200, 4] = np.nan
    return X, y


def test_every_name_is_in_the_contract() -> None:
    assert set(ZOO) == set(CANDIDATE_NAMES)


@pytest.mark.parametrize("name", CANDIDATE_NAMES)
def test_a_candidate_keeps_the_contract(name: str) -> None:
    candidate = ZOO[name]
    assert candidate.description and candidate.name == name
    model = candidate.make(7)
    assert is_regressor(model)
    with pytest.raises(NotFittedError):
        model.predict(np.zeros((1, 5)))
    X, y = _data(0)
    train, test = slice(0, 200), slice(200, None)
    fitted = clone(model).fit(X[train], y[train])
    predicted = fitted.predict(X[test])
    assert predicted.shape == (40,) and np.isfinite(predicted).all()
    again = candidate.make(7).fit(X[train], y[train]).predict(X[test])
    np.testing.assert_allclose(predicted, again)
    error = np.mean((predicted - y[test]) ** 2)
    baseline = np.mean((y[train].mean() - y[test]) ** 2)
    assert error < 0.5 * baseline, f"{name}: MSE {error:.3f} vs the mean's {baseline:.3f}"


@pytest.mark.parametrize("name", CANDIDATE_NAMES)
def test_a_candidate_predicts_rows_with_unknown_trend_features(name: str) -> None:
    X, y = _data(1)
    fitted = ZOO[name].make(3).fit(X[:200], y[:200])
    unknown = X[200:].copy()
    unknown[:, 0] = np.nan  # a feature known in training, unknown when asked
    assert np.isfinite(fitted.predict(unknown)).all()


@pytest.mark.parametrize("name", CANDIDATE_NAMES)
def test_a_candidate_trains_on_a_frame_where_half_the_workloads_are_unknown(
    name: str, summary: pd.DataFrame, space: Space
) -> None:
    """Half the rows tell ranks per node, files, interleaving and striping, half do not
    (the knowledge base of a site that ingested traces and CSV tables alike)."""
    known = np.arange(len(summary)) % 2 == 0
    frame = summary.copy()
    frame["files"] = np.where(known, 1.0, np.nan)
    frame["interleaved"] = pd.Series(np.where(known, True, None), dtype=object)
    frame["stripe_count"] = np.where(known, 4.0, np.nan)
    frame["stripe_size"] = np.where(known, float(1 << 20), np.nan)
    X, schema = build_features(frame, space)
    assert np.isnan(X).any()
    y = log_target(frame)
    fitted = ZOO[name].make(0).fit(X[::3], y[::3])
    # Known and unknown rows alike, and a frame without the columns at all.
    assert np.isfinite(fitted.predict(X)).all()
    assert np.isfinite(fitted.predict(schema.transform(summary.drop(columns=["files"])))).all()
