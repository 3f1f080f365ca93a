"""tune's evidence: measurements of a case decide over the model, sizes between two measured
groups take their shared choice, and a calibrated model's gain curve decides elsewhere."""

import math

import numpy as np
import pandas as pd
import pytest

from iotuner.formats import size_group
from iotuner.space import config_key, parse_space
from iotuner.tune import MEASURED_EVIDENCE, tune

SPACE = parse_space(
    """
name = "t"
[hints.romio_ds_write]
values = ["automatic", "disable"]
default = "automatic"
[hints.romio_cb_write]
values = ["automatic", "disable"]
default = "automatic"
""",
    "t.toml",
)
DEFAULT = {"romio_ds_write": "automatic", "romio_cb_write": "automatic"}
CB_OFF = {"romio_ds_write": "automatic", "romio_cb_write": "disable"}
SMALL, LARGE = 65536, 1 << 20


class FlatPredictor:
    """Predicts every configuration alike (100 MiB/s, +-10 %), or x`gain` for collective
    buffering off: a model that sees no difference, or one that sees a large one."""

    def __init__(self, gain: float = 1.0) -> None:
        self.gain = gain

    def predict_interval(self, frame: pd.DataFrame) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        median = np.full(len(frame), 100.0)
        median[(frame["cfg:romio_cb_write"] == "disable").to_numpy()] *= self.gain
        return median, median * 0.9, median * 1.1


class CalibratedPredictor(FlatPredictor):
    """FlatPredictor with a calibration of gains: held-out configurations predicted to
    gain g gained g x `held` in the median, and g x `held` x `worst` at the 10 % bound."""

    def __init__(self, gain: float, held: float, worst: float) -> None:
        super().__init__(gain)
        self.held, self.worst = held, worst

    def gain_bounds(self, predicted: float) -> tuple[float, float, float]:
        middle = predicted + math.log(self.held)
        return middle + math.log(self.worst), middle, middle + 1.0


def _row(size: int, config: dict[str, str], low: float, middle: float, high: float) -> dict:
    return {
        "system": "s", "nprocs": 2, "nodes": 1, "pattern": "collective", "op": "write",
        "layout": "contiguous", "block": 0, "fill": 1.0, "bytes_per_rank": size,
        "group": size_group(size), "config": config_key(config), "n": 3, "bw_min": low,
        "bw_q1": low, "bw_median": middle, "bw_q3": high, "bw_max": high,
        "cfg:romio_ds_write": config["romio_ds_write"],
        "cfg:romio_cb_write": config["romio_cb_write"],
    }  # fmt: skip


def summary(cb_off: tuple[float, float, float]) -> pd.DataFrame:
    """Collective contiguous writes measured at 64 KiB and 1 MiB: the default at 90-110
    MiB/s, collective buffering off at `cb_off` (worst, median, best repeat)."""
    return pd.DataFrame(
        [_row(size, DEFAULT, 90.0, 100.0, 110.0) for size in (SMALL, LARGE)]
        + [_row(size, CB_OFF, *cb_off) for size in (SMALL, LARGE)]
    )


def _choices(result: object) -> dict[int, object]:
    return {c.group: c for c in result.choices if not c.extrapolated}  # type: ignore[attr-defined]


def test_measured_gains_make_entries_where_the_model_sees_none() -> None:
    result = tune(FlatPredictor(), SPACE, summary((250.0, 300.0, 320.0)))
    measured = _choices(result)
    for size in (SMALL, LARGE):
        choice = measured[size_group(size)]
        assert not choice.kept_default and choice.hints == {"romio_cb_write": "disable"}
        assert choice.reason.startswith(MEASURED_EVIDENCE) and "+200%" in choice.reason
        # The gain's interval (what advise shows): worst over the default's best, best over
        # its worst.
        assert choice.gain_interval == pytest.approx((250 / 110, 320 / 90))
        # ... and the point that goes with it is the measured one (medians 300 over 100),
        # not the flat model's x1: a point outside its own interval was shown before.
        assert choice.gain == pytest.approx(3.0)
    # The groups between the two measured ones take their shared choice.
    between = [g for g in measured if size_group(SMALL) < g < size_group(LARGE)]
    assert between and all(not measured[g].kept_default for g in between)
    assert all("between size groups" in measured[g].reason for g in between)
    entries = {e.group: e.hints for e in result.entries if e.at == "access"}
    assert entries[size_group(SMALL)] == {"romio_cb_write": "disable"}


def test_overlapping_repeats_are_no_evidence_whatever_the_model_predicts() -> None:
    # The model predicts x3, but the measured repeats of both overlap: keep the default.
    result = tune(FlatPredictor(gain=3.0), SPACE, summary((95.0, 130.0, 160.0)))
    for size in (SMALL, LARGE):
        choice = _choices(result)[size_group(size)]
        assert choice.kept_default, choice.reason
        assert "worst repeat" in choice.reason
    between = [c for g, c in _choices(result).items() if size_group(SMALL) < g < size_group(LARGE)]
    # Unmeasured sizes fall back on the model's evidence (x3 with a +-10 % band).
    assert between and all(not c.kept_default for c in between)


def test_a_calibrated_model_acts_where_held_out_gains_held() -> None:
    # No measurement of the case: the gain curve decides. Gains that held out (median x1.5
    # of a predicted x2, never below x0.95 at the 10 % bound) make entries ...
    frame = summary((90.0, 100.0, 110.0)).assign(group=0)  # measured nothing tune asks
    held = tune(CalibratedPredictor(gain=2.0, held=0.75, worst=0.7), SPACE, frame)
    assert all(not c.kept_default for c in _choices(held).values())
    assert all("calibrated gain" in c.reason for c in _choices(held).values())
    # The gain's interval is the calibration's: x2 predicted, x1.5 median, x0.7 of it low.
    interval = next(iter(_choices(held).values())).gain_interval
    assert interval == pytest.approx((1.5 * 0.7, 1.5 * math.e))
    assert next(iter(_choices(held).values())).gain == pytest.approx(1.5)
    # ... gains that did not (median below 1) make none, though the band alone would.
    failed = tune(CalibratedPredictor(gain=2.0, held=0.45, worst=0.9), SPACE, frame)
    assert all(c.kept_default for c in _choices(failed).values())
    assert all("no evidence" in c.reason for c in _choices(failed).values())
    # ... nor do those that lost more than the noise in one of ten.
    risky = tune(CalibratedPredictor(gain=2.0, held=1.0, worst=0.3), SPACE, frame)
    assert all(c.kept_default for c in _choices(risky).values())
    uncalibrated = tune(FlatPredictor(gain=2.0), SPACE, frame)
    assert all(not c.kept_default for c in _choices(uncalibrated).values())


class UnmeasuredDefault(CalibratedPredictor):
    """A calibrated model whose training data never measured the default configuration."""

    class calibration:  # stands for the model's Calibration
        default_rows = 0


def test_no_gain_is_claimed_over_a_default_never_measured() -> None:
    frame = summary((90.0, 100.0, 110.0)).assign(group=0)
    result = tune(UnmeasuredDefault(gain=3.0, held=1.0, worst=1.0), SPACE, frame)
    assert result.choices and all(c.kept_default for c in result.choices)
    assert all(c.reason.startswith("gain unknown") for c in _choices(result).values())


OPEN_SPACE = parse_space(
    """
name = "o"
[hints.cb_nodes]
values = ["default", 1, 2]
default = "default"
with = { cb_config_list = "*:*" }
""",
    "o.toml",
)


class OneAggregatorPredictor:
    """Predicts one aggregator (cb_nodes=1 with cb_config_list=*:*) twice as fast: on one
    host that is what ROMIO does by default, so the model's gain cannot be real."""

    def __init__(self, favourite: str) -> None:
        self.favourite = favourite

    def predict_interval(self, frame: pd.DataFrame) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        median = np.full(len(frame), 100.0)
        median[(frame["cfg:cb_nodes"].astype(str) == self.favourite).to_numpy()] *= 2
        return median, median * 0.95, median * 1.05


def test_open_keys_that_change_nothing_on_this_host_are_not_written() -> None:
    frame = summary((90.0, 100.0, 110.0)).assign(group=0).drop(columns="cfg:romio_cb_write")
    frame = frame.drop(columns="cfg:romio_ds_write").assign(**{"cfg:cb_nodes": "default"})
    same = tune(OneAggregatorPredictor("1"), OPEN_SPACE, frame)
    assert [e.hints for e in same.entries if e.at == "open"] in ([], [{}])
    # Two aggregators on the host are a real change: written.
    two = tune(OneAggregatorPredictor("2"), OPEN_SPACE, frame)
    assert [e.hints for e in two.entries if e.at == "open"] == [
        {"cb_nodes": "2", "cb_config_list": "*:*"}
    ]


def test_a_traced_size_past_the_sweep_takes_the_nearest_measured_choice() -> None:
    # A program's traced run (its default only, keyed "default" with no settings) at
    # 2 MiB, past the sweep's 1 MiB: its own measurements compare nothing, so the nearest
    # size the sweep compared configurations at decides, where the model predicts a gain.
    traced = _row(2 << 20, DEFAULT, 60.0, 60.0, 60.0)
    traced.update({"config": "default", "cfg:romio_ds_write": None, "cfg:romio_cb_write": None})
    frame = pd.concat([summary((250.0, 300.0, 320.0)), pd.DataFrame([traced])], ignore_index=True)
    result = tune(FlatPredictor(gain=1.2), SPACE, frame)
    choice = _choices(result)[size_group(2 << 20)]
    assert not choice.kept_default and choice.hints == {"romio_cb_write": "disable"}
    assert choice.reason.startswith(f"size group {size_group(LARGE)}'s measured choice")
    # A model that predicts no gain there keeps the default.
    flat = tune(FlatPredictor(gain=1.0), SPACE, frame)
    assert _choices(flat)[size_group(2 << 20)].kept_default


def test_a_traced_default_run_does_not_outweigh_the_sweeps_comparison() -> None:
    # The sweep (program iokernel, 64 calls per open) compared the default with collective
    # buffering off at both sizes: off wins, every repeat beyond the default's. A traced
    # run at its default, at 64 KiB, is 40 call batches of one configuration with a
    # program's spread (30-400 MiB/s): it compares nothing, so it does not replace the
    # sweep's default there (it did, having more repeats, and kept the default: issue 31),
    # also when the traced program is our kernel itself (the README's example).
    sweep = summary((250.0, 300.0, 320.0)).assign(program="iokernel", calls_per_open=64)
    for program in ("app", "iokernel"):
        traced = _row(SMALL, DEFAULT, 30.0, 120.0, 400.0)
        traced.update({"config": "default", "n": 40, "program": program, "calls_per_open": 1})
        traced.update({"cfg:romio_ds_write": None, "cfg:romio_cb_write": None})
        frame = pd.concat([sweep, pd.DataFrame([traced])], ignore_index=True)
        choice = _choices(tune(FlatPredictor(), SPACE, frame))[size_group(SMALL)]
        assert not choice.kept_default, choice.reason
        assert choice.hints == {"romio_cb_write": "disable"}
        assert choice.reason.startswith(MEASURED_EVIDENCE)
        assert choice.gain == pytest.approx(3.0)


def test_a_gain_measured_on_contiguous_memory_is_not_a_noncontiguous_phase_s() -> None:
    # The sweep measured collective buffering off at x3 on contiguous memory; the program
    # also has a phase from 4 KiB pieces of memory, traced at its default only. Before,
    # that phase took the contiguous case's "measured" x3 (issue 41: a phase 200x slower).
    phase = {**_row(SMALL, DEFAULT, 20.0, 22.0, 24.0), "memory_block": 4096}
    frame = pd.concat([summary((250.0, 300.0, 320.0)), pd.DataFrame([phase])], ignore_index=True)
    frame["memory_block"] = frame["memory_block"].fillna(0)
    choice = _choices(tune(FlatPredictor(), SPACE, frame))[size_group(SMALL)]
    assert not choice.reason.startswith(MEASURED_EVIDENCE)
    assert choice.kept_default, choice.reason  # the flat model sees no gain
    assert "similar cases only" in choice.reason and "pieces of 4.0 KiB" in choice.reason
    # Once the sweep measured the phase's own shape too, the measurements decide again.
    swept = pd.DataFrame(
        [
            {**phase, "bw_min": 20.0, "bw_median": 22.0, "bw_max": 24.0},
            {**_row(SMALL, CB_OFF, 60.0, 66.0, 70.0), "memory_block": 4096},
        ]
    )
    both = pd.concat([summary((250.0, 300.0, 320.0)), swept], ignore_index=True).fillna(
        {"memory_block": 0}
    )
    measured = _choices(tune(FlatPredictor(), SPACE, both))[size_group(SMALL)]
    assert measured.gain_basis == "measured" and measured.hints == {"romio_cb_write": "disable"}
    assert "similar" not in measured.reason
