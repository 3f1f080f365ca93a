"""Calibration on held-out workloads (iotuner.models._calibrate): coverage that holds on
workloads the model never saw, gains bounded by what held-out gains measured, questions
beyond the data flagged and widened."""

import math

import numpy as np
import pandas as pd
import pytest

from iotuner.models import ModelError, synthetic_summary_frame
from iotuner.models._calibrate import Calibration, calibrate, corrected_levels
from iotuner.models._compare import fit_model
from iotuner.models._evaluate import model_choices
from iotuner.models._zoo import Candidate
from iotuner.space import Space, config_key
from tests.models.conftest import EFFECTS


def _forest() -> Candidate:
    return next(
        c for c in model_choices(["random_forest"], quick=True) if c.name == "random_forest"
    )


@pytest.fixture(scope="module")
def noisy(space: Space) -> pd.DataFrame:
    """Workloads whose level the features cannot explain: each workload's bandwidth is
    shifted by its own random factor (x0.5 to x2), which no model can learn, on top of the
    hints' known effects."""
    frame = synthetic_summary_frame(space, effects=EFFECTS, noise=0.05, seed=11)
    rng = np.random.default_rng(5)
    keys = frame[["nprocs", "pattern", "bytes_per_rank"]].astype(str).agg("|".join, axis=1)
    shift = {key: float(np.exp(rng.uniform(-0.7, 0.7))) for key in sorted(set(keys))}
    factor = keys.map(shift).to_numpy()
    for column in ("bw_min", "bw_q1", "bw_median", "bw_q3", "bw_max"):
        frame[column] = frame[column] * factor
    return frame


def test_corrected_levels_widen_with_few_groups() -> None:
    low, high = corrected_levels((0.1, 0.9), 9)
    assert low == pytest.approx(0.0) and high == pytest.approx(1.0)
    low, high = corrected_levels((0.1, 0.9), 99)
    assert low == pytest.approx(1 / 11) and high == pytest.approx(10 / 11)
    with pytest.raises(ModelError, match="levels must be in"):
        corrected_levels((1.5,), 10)


@pytest.mark.slow  # CI's
def test_held_out_coverage_is_near_the_level_where_the_trees_spread_is_not(
    noisy: pd.DataFrame, space: Space
) -> None:
    calibration = calibrate(noisy, space, _forest(), level=0.8)
    assert calibration is not None and calibration.coverage is not None
    assert 0.72 <= calibration.coverage.rows <= 0.95, calibration.coverage
    # The forest's own trees, asked about the same held-out workloads, agree with each
    # other far more than with the measurements: their 10-90 % band misses most rows.
    data = noisy[noisy["bw_min"] > 0].reset_index(drop=True)
    labels = data[["nprocs", "pattern", "bytes_per_rank"]].astype(str).agg("|".join, axis=1)
    held = sorted(set(labels))[::6]
    inside = total = 0
    for label in held:
        test = labels == label
        model = fit_model(data[~test], space, "random_forest", quick=True)
        low, high = model.predict_quantiles(data[test], (0.1, 0.9)).T
        measured = data.loc[test, "bw_min"].to_numpy()
        inside += int(np.sum((measured >= low) & (measured <= high)))
        total += len(measured)
    assert inside / total < 0.6
    assert calibration.coverage.rows - inside / total > 0.2


def test_a_gain_is_bounded_tighter_than_either_bandwidth(noisy: pd.DataFrame, space: Space) -> None:
    # The workloads' own levels cancel in a ratio of two configurations of one workload.
    calibration = calibrate(noisy, space, _forest())
    assert calibration is not None and calibration.gain is not None
    absolute = calibration.shifts((0.1, 0.9))
    gain = calibration.shifts((0.1, 0.9), "gain")
    assert gain[1] - gain[0] < 0.5 * (absolute[1] - absolute[0])


def test_large_predicted_gains_over_the_default_are_bounded_above_one(
    noisy: pd.DataFrame, space: Space
) -> None:
    calibration = calibrate(noisy, space, _forest())
    assert calibration is not None and calibration.default_rows
    # GOOD is x2.34 of the default (1.5 x 1.2 x 1.3), BAD x0.4: what held-out workloads
    # measured for such predictions.
    top = calibration.gain_bounds(math.log(2.3))
    assert top is not None and top[0] > 0.0 and top[1] > math.log(1.5)
    bottom = calibration.gain_bounds(math.log(0.4))
    assert bottom is not None and bottom[2] < 0.0
    curve = calibration.gain_curve
    assert curve is not None
    assert all(np.diff(curve["low"]) >= 0) and all(np.diff(curve["high"]) >= 0)


def test_questions_beyond_the_data_are_flagged_and_widened(
    noisy: pd.DataFrame, space: Space
) -> None:
    model = fit_model(noisy, space, "random_forest", quick=True)
    calibration = calibrate(noisy, space, _forest())
    assert calibration is not None
    model.metadata["calibration"] = calibration.to_dict()
    inside = noisy[(noisy["nprocs"] == 4) & (noisy["bytes_per_rank"] == 16777216)].head(3)
    beyond = inside.assign(nprocs=64)
    assert model.far_from_data(inside) == ["", "", ""]
    reasons = model.far_from_data(beyond)
    assert all("nprocs 64 beyond the measured 1-4" in r for r in reasons)
    width_inside = np.ptp(np.log(model.predict_quantiles(inside, (0.1, 0.9))), axis=1)
    width_beyond = np.ptp(np.log(model.predict_quantiles(beyond, (0.1, 0.9))), axis=1)
    assert np.all(width_beyond > width_inside)


def test_a_calibration_survives_its_json_and_bad_ones_are_refused(
    noisy: pd.DataFrame, space: Space
) -> None:
    calibration = calibrate(noisy, space, _forest())
    assert calibration is not None
    again = Calibration.from_dict(calibration.to_dict())
    assert again.shifts((0.1, 0.9)).tolist() == calibration.shifts((0.1, 0.9)).tolist()
    assert again.gain_bounds(0.5) == calibration.gain_bounds(0.5)
    plain = calibration.to_dict()
    with pytest.raises(ModelError, match="expected 201 quantiles"):
        Calibration.from_dict({**plain, "absolute": [0.0, 1.0]})
    with pytest.raises(ModelError, match="gain_curve"):
        Calibration.from_dict({**plain, "gain_curve": {"predicted": [0.0], "low": []}})
    with pytest.raises(ModelError, match="default_rows"):
        Calibration.from_dict({**plain, "default_rows": -1})


def test_one_workload_cannot_be_calibrated(space: Space) -> None:
    frame = synthetic_summary_frame(space, sizes=(65536,), nprocs=(2,), patterns=("collective",))
    assert calibrate(frame, space, _forest()) is None


@pytest.mark.slow  # CI's
def test_default_rows_count_the_default_configuration(noisy: pd.DataFrame, space: Space) -> None:
    calibration = calibrate(noisy, space, _forest())
    assert calibration is not None
    assert calibration.default_rows == int((noisy["config"] == config_key(space.default())).sum())
    without = noisy[noisy["config"] != config_key(space.default())]
    unmeasured = calibrate(without, space, _forest())
    assert unmeasured is not None and unmeasured.default_rows == 0


def test_a_question_about_another_system_is_known_as_one(noisy: pd.DataFrame, space: Space) -> None:
    """A model keeps the system it learned on; another file system or host is named, the
    same one is not, and a model that does not say (trained before) is not guessed at."""
    model = fit_model(noisy, space, "random_forest", quick=True)
    assert model.other_system("vm", "fuse.glusterfs") is None
    model.metadata["system"] = {"host": "vm", "fs_type": "ext4", "mpi_library": "MPICH"}
    assert model.other_system("vm.example.org", "ext4") == ""
    assert model.other_system("vm", "fuse.glusterfs") == (
        "its files are on fuse.glusterfs; the model learned on ext4 (host vm)"
    )
    assert model.other_system("node7", "ext4") == (
        "it runs on host node7; the model learned on ext4 (host vm)"
    )


def test_coverage_comes_with_the_width_of_its_intervals(noisy: pd.DataFrame, space: Space) -> None:
    """Two models whose intervals hold about as many held-out rows can differ ninefold in
    how wide those intervals are: the coverage says its width (high / low), over all and
    per held-out workload, of a bandwidth and of a gain."""
    from iotuner.models._calibrate import held_out_coverage

    rng = np.random.default_rng(3)
    names = [f"w{i}" for i in range(12)]
    narrow = held_out_coverage([rng.normal(0, 0.1, 30) for _ in names], names)
    wide = held_out_coverage([rng.normal(0, 1.0, 30) for _ in names], names)
    assert narrow is not None and wide is not None
    assert abs(narrow.rows - wide.rows) < 0.1  # coverage alone cannot tell them apart
    assert narrow.width is not None and wide.width is not None
    # a normal's 10-90 % interval spans 2 x 1.28 standard deviations; more here, as split
    # conformal's correction for 11 held-out workloads asks for 1.8 %-98 % (2 x 2.05)
    assert math.exp(2 * 1.28 * 0.1) < narrow.width < math.exp(2 * 2.3 * 0.1)
    assert wide.width > 8 * narrow.width
    assert set(wide.width_per_workload) == set(names)
    assert wide.to_dict()["width"] == wide.width and wide.to_dict()["gain_width"] is not None
    calibration = calibrate(noisy, space, _forest())
    assert calibration is not None and calibration.coverage is not None
    cover = calibration.coverage
    assert cover.width is not None and cover.gain_width is not None
    assert cover.gain_width < cover.width  # the workloads' levels cancel in a gain
