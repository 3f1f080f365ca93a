"""iotuner.models metrics on tiny examples worked out by hand."""

import math

import pytest

from iotuner.models import METRICS, Metrics, regression_metrics


def test_three_rows_by_hand() -> None:
    # errors 10, -20, 0; relative errors 0.1, -0.1, 0
    m = regression_metrics([100.0, 200.0, 400.0], [110.0, 180.0, 400.0])
    assert m.mape == pytest.approx(20.0 / 3.0)
    assert m.rmspe == pytest.approx(math.sqrt(0.02 / 3.0) * 100.0)
    assert m.mae == pytest.approx(10.0)
    assert m.rmse == pytest.approx(math.sqrt(500.0 / 3.0))
    # deviations from the means 700/3 and 230: sums of products 46000, of squares
    # 140000/3 and 45800
    assert m.r == pytest.approx(46000.0 / math.sqrt(140000.0 / 3.0 * 45800.0))


def test_perfect_prediction() -> None:
    m = regression_metrics([1.0, 2.0, 4.0], [1.0, 2.0, 4.0], build_seconds=1.5, test_seconds=0.5)
    assert m == Metrics(r=1.0, mape=0.0, rmspe=0.0, mae=0.0, rmse=0.0, build_seconds=1.5,
                        test_seconds=0.5)  # fmt: skip
    assert list(m.as_dict()) == list(METRICS)


def test_halving_everything() -> None:
    m = regression_metrics([2.0, 4.0], [1.0, 2.0])
    assert (m.mape, m.rmspe, m.mae, m.rmse, m.r) == pytest.approx(
        (50.0, 50.0, 1.5, math.sqrt(2.5), 1.0)
    )


def test_a_constant_prediction_has_no_correlation() -> None:
    assert math.isnan(regression_metrics([1.0, 2.0], [3.0, 3.0]).r)


@pytest.mark.parametrize(
    ("actual", "predicted"),
    [([1.0, 2.0], [1.0]), ([], []), ([0.0, 1.0], [1.0, 1.0])],
)
def test_bad_input(actual: list[float], predicted: list[float]) -> None:
    with pytest.raises(ValueError):
        regression_metrics(actual, predicted)
