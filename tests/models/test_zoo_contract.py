"""The model zoo's contract, run over every candidate (as optuna.testing runs one suite over
every sampler): what iotuner.models' training, saving and prediction rely on.

A candidate's `make(seed)` returns a new, unfitted scikit-learn regressor that
- can be cloned with its parameters (model selection refits clones);
- fits a feature matrix and a log-bandwidth target and predicts one finite value per row;
- gives the same predictions for the same seed (trained models are reproducible);
- learns: on data with a clear trend it beats predicting the mean.
"""

import numpy as np
import pytest
from sklearn.base import clone, is_regressor
from sklearn.exceptions import NotFittedError

from iotuner.models._zoo import CANDIDATE_NAMES, candidates

ZOO = {c.name: c for c in candidates(quick=True)} | {
    c.name: c for c in candidates(["gradient_boosting"], quick=True)
}


def _data(seed: int) -> tuple[np.ndarray, np.ndarray]:
    rng = np.random.default_rng(seed)
    X = rng.uniform(0, 1, size=(240, 4))
    y = 3.0 * X[:, 0] - 2.0 * X[:, 1] + rng.normal(0, 0.05, size=240)
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
        model.predict(np.zeros((1, 4)))
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
