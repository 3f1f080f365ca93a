"""Library warnings become lines of ours (issue 13, item 4): none arises where the cause
is ours to avoid, a fit that stops before converging is named once, and whatever else a
library says is one line per kind, never Python's file-and-line dump."""

import warnings

import numpy as np
import pandas as pd
import pytest
from sklearn.neural_network import MLPRegressor

from iotuner._quiet import NotConverged, library_warnings
from iotuner.models import kunkel_report
from iotuner.models._compare import _fit
from iotuner.space import Space

from .conftest import GOOD


def test_kunkel_judges_without_a_mean_of_an_empty_slice(
    summary: pd.DataFrame, space: Space
) -> None:
    # One workload lacks the learned choice (so it is not judged) and alone has a
    # configuration nothing else measured: that column is empty among the judged ones
    # (seen on the demo's knowledge base: numpy's "Mean of empty slice").
    keys = ["nprocs", "pattern", "bytes_per_rank"]
    first = (summary[keys] == summary.iloc[0][keys]).all(axis=1)
    extra = summary[first].iloc[[0]].copy()
    extra["config"] = "cb_buffer_size=2097152,romio_cb_write=enable,romio_ds_write=enable"
    extra["cfg:cb_buffer_size"] = 2097152
    frame = pd.concat([summary[~(first & (summary["config"] == GOOD))], extra], ignore_index=True)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        report = kunkel_report(frame, space)
    assert report.judged == 35 and any("left out" in note for note in report.notes)


def test_a_fit_that_does_not_converge_is_named_once() -> None:
    X = np.random.default_rng(0).normal(size=(40, 3))
    y = X.sum(axis=1)
    with pytest.warns(NotConverged, match="MLPRegressor"):
        _fit(MLPRegressor(max_iter=2, random_state=0), X, y)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        _fit(MLPRegressor(max_iter=2, random_state=0), X, y)
    assert [w.category for w in caught] == [NotConverged]


def test_library_warnings_are_one_line_per_kind() -> None:
    said: list[str] = []
    with library_warnings(said.append, during="train"):
        for _ in range(11):
            np.nanmean(np.array([np.nan]))
        warnings.warn(NotConverged("MLPRegressor"), stacklevel=1)
        warnings.warn(NotConverged("MLPRegressor"), stacklevel=1)
        warnings.warn(UserWarning("X has feature names\nsecond line"), stacklevel=1)
    assert said[0].startswith("2 model fits stopped at the iteration limit before converging")
    assert "(MLPRegressor 2x)" in said[0]
    assert "warned 11 times during train (RuntimeWarning): Mean of empty slice" in said[1]
    assert said[2].endswith("warned once during train (UserWarning): X has feature names")
    assert len(said) == 3
