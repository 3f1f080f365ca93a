"""The online learner's rules on synthetic knowledge bases and histories, without MPI:
what the run had in force is what a refit compares with, a try may risk only a lead
measured over the default, and a try far below every earlier run goes back after one
run. The real loop is tests/integration/test_online.py."""

import math

import numpy as np
import pandas as pd
import pytest

from iotuner.formats import hint_vocabulary
from iotuner.measurement import Workload
from iotuner.models import synthetic_summary_frame
from iotuner.online import MAX_TRY_LOSS, OnlineReport
from iotuner.online.choice import choose_next
from iotuner.online.guard import rollback_event
from iotuner.online.risk import risk_budget
from iotuner.space import config_key, parse_space
from iotuner.tune import measurement_noise

SPACE = """
name = "ds-write"
[hints.romio_ds_write]
values = ["automatic", "disable", "enable"]
default = "automatic"
"""
SLOW = {"romio_ds_write": "disable"}


def _same(frame, workload):  # type: ignore[no-untyped-def]
    """The rows of `workload` in a synthetic frame (its scale, pattern and size)."""
    same = (frame["nprocs"] == workload.nprocs) & (frame["pattern"] == workload.pattern)
    return same & (frame["bytes_per_rank"] == workload.bytes_per_rank)


def _only(frame, space, workload, hints: dict[str, str]):  # type: ignore[no-untyped-def]
    """`frame` where `workload` ran only the configuration `hints` ({}: the default)."""
    return frame[~_same(frame, workload) | (frame["config"] == config_key(space.validate(hints)))]


def _history(before: list[float], after: list[float], noise: float) -> list[dict]:
    old, new = {"romio_ds_write": "enable"}, SLOW
    base = {"program": "p", "nprocs": 2, "time": 0.0}
    events = [{**base, "event": "run", "hints": old, "bandwidth": b} for b in before]
    events.append({**base, "event": "change", "old": old, "new": new, "noise": noise})
    events += [{**base, "event": "run", "hints": new, "bandwidth": a} for a in after]
    return events


def test_a_first_run_far_below_every_earlier_one_rolls_back_at_once() -> None:
    rollback = rollback_event(_history([100.0, 95.0], [60.0], noise=0.2), "p", 2)
    assert rollback is not None and rollback["new"] == {"romio_ds_write": "enable"}
    assert "below the median" in rollback["reason"]


def test_a_first_run_within_the_noise_waits_for_the_rank_test() -> None:
    assert rollback_event(_history([100.0, 95.0], [85.0], noise=0.2), "p", 2) is None
    # The earlier runs' own spread (100 against 60) is wider than the noise: 55 is within it.
    assert rollback_event(_history([100.0, 60.0], [55.0], noise=0.1), "p", 2) is None
    assert rollback_event(_history([100.0, 60.0], [30.0], noise=0.1), "p", 2) is not None


def test_the_refit_compares_with_what_the_run_had_in_force() -> None:
    """The program has no entry of its own; the table's generic entries turned sieving off
    for its workload (the trace says so). The refit judges that configuration, and the
    program entry it writes names the default's value, so the generic entry no longer
    applies: without it, a change to the default would write nothing."""
    space = parse_space(SPACE, "test space")
    frame = synthetic_summary_frame(space, effects={"romio_ds_write": {"disable": 0.2}})
    workload = Workload.from_row(frame.iloc[0])
    event = choose_next(frame, space, workload, {}, SLOW, [], None)
    assert event["event"] == "change" and event["old"] == {}
    assert event["model"] == "the workload's measurements"
    assert event["new"]["romio_ds_write"] in ("automatic", "enable")
    kept = choose_next(frame, space, workload, event["new"], event["new"], [], None)
    assert kept["event"] == "keep"
    # A key of the program's entry outside the space is not the space's to choose: kept.
    outside = choose_next(frame, space, workload, {"striping_factor": 2}, SLOW, [], None)
    assert outside["new"]["striping_factor"] == 2


def test_a_lead_over_the_default_may_be_risked_never_more() -> None:
    """`disable` is measured far ahead of the default on the workload, `enable` (better
    still) never ran there. A try of `enable` may lose to `disable`, but in nine of ten
    held-out cases not below the default: it is tried, with the lead named."""
    space = parse_space(SPACE, "test space")
    effects = {"romio_ds_write": {"disable": 3.0, "enable": 3.6}}
    frame = synthetic_summary_frame(space, effects=effects, noise=0.3, seed=3)
    workload = Workload.from_row(frame.iloc[0])
    untried = _without(frame, space, workload, "enable")
    event = choose_next(untried, space, workload, SLOW, SLOW, [], None)
    assert event["event"] == "change", event
    assert event["new"] == {"romio_ds_write": "enable"}
    assert "ahead of them" in event["evidence"]


def test_a_choice_never_compared_with_the_default_on_the_workload_is_measured_against_it() -> None:
    """The table put `enable` in force without trial runs, and the default never ran this
    workload: nothing calibrated is worth a try (nothing gains over `enable`), so the next
    run measures the default, written by name so the table's generic entry does not
    apply again. Such a run is never slower than the default."""
    space = parse_space(SPACE, "test space")
    frame = synthetic_summary_frame(space, effects={"romio_ds_write": {"disable": 0.2}})
    workload = Workload.from_row(frame.iloc[0])
    only_enable = _only(frame, space, workload, {"romio_ds_write": "enable"})
    event = choose_next(only_enable, space, workload, {}, {"romio_ds_write": "enable"}, [], None)
    assert event["event"] == "change", event
    assert event["new"] == {"romio_ds_write": "automatic"}
    assert event["purpose"] == "measure the default" and event["gain"] is None
    # Once the default has run there, the measured rule decides, and nothing is measured
    # again for its own sake.
    kept = choose_next(frame, space, workload, {}, {"romio_ds_write": "enable"}, [], None)
    assert kept.get("purpose") is None


def _one_run(frame, space, workload, value: str, factor: float, runs: int = 1):  # type: ignore[no-untyped-def]
    """`frame` where the workload ran `value` once (or `runs` times), at `factor` times its
    default's median (a program's try under `run --learn`: its own median and quartiles)."""
    frame = frame.copy()
    same = _same(frame, workload)
    default = frame[same & (frame["config"] == config_key(space.default()))]
    level = float(default["bw_median"].iloc[0]) * factor
    row = same & (frame["config"] == config_key(space.validate({"romio_ds_write": value})))
    for column in ("bw_min", "bw_q1", "bw_median", "bw_q3", "bw_max"):
        frame.loc[row, column] = level
    frame.loc[row, "n"] = runs
    return frame


def _without(frame, space, workload, value: str):  # type: ignore[no-untyped-def]
    same = _same(frame, workload)
    return frame[~same | (frame["config"] != config_key(space.validate({"romio_ds_write": value})))]


EFFECTS = {"romio_ds_write": {"disable": 3.0, "enable": 2.5}}


def _large_independent_writes(frame):  # type: ignore[no-untyped-def]
    """4 MiB independent writes at one rank: a workload where the model, refitted with
    the try's run, still underrates the default (so the learner must move its predictions
    by what the workload measured)."""
    rows = frame[(frame["bytes_per_rank"] == 4 << 20) & (frame["pattern"] == "independent")]
    return Workload.from_row(rows[rows["nprocs"] == 1].iloc[0])


def test_a_try_that_fell_short_of_its_prediction_lets_the_next_candidate_run() -> None:
    """The model's favourite (`disable`, x3 elsewhere) ran once on this workload and did
    no better than the default: the learner goes on to the next candidate (`enable`, x2.5
    elsewhere) instead of keeping the favourite because the model still ranks it first."""
    space = parse_space(SPACE, "test space")
    frame = synthetic_summary_frame(space, effects=EFFECTS, noise=0.1, seed=3)
    workload = _large_independent_writes(frame)
    frame = _without(_one_run(frame, space, workload, "disable", 1.0), space, workload, "enable")
    event = choose_next(frame, space, workload, SLOW, SLOW, [], None)
    assert event["event"] == "change", event
    assert event["new"] == {"romio_ds_write": "enable"}
    assert "predictions moved" in event["evidence"]


def test_a_try_that_met_its_prediction_is_kept() -> None:
    space = parse_space(SPACE, "test space")
    frame = synthetic_summary_frame(space, effects=EFFECTS, noise=0.1, seed=3)
    workload = _large_independent_writes(frame)
    frame = _without(_one_run(frame, space, workload, "disable", 3.0), space, workload, "enable")
    event = choose_next(frame, space, workload, SLOW, SLOW, [], None)
    assert event["event"] == "keep", event


def test_a_try_below_an_earlier_choice_goes_back_to_it_when_nothing_is_left_to_try() -> None:
    """Every configuration ran the workload; the last try (`disable`, twice) came out below
    the default's runs, within the noise, so the guard keeps waiting: the learner itself
    goes back to the best measured. After one run of it, it does not (issue 41: one run
    is no measurement of a difference)."""
    space = parse_space(SPACE, "test space")
    frame = synthetic_summary_frame(space, effects=EFFECTS, noise=0.1, seed=3)
    workload = _large_independent_writes(frame)
    once = _one_run(
        _one_run(frame, space, workload, "disable", 0.9), space, workload, "enable", 0.8
    )
    event = choose_next(once, space, workload, SLOW, SLOW, [], None)
    assert event.get("purpose") != "back to the best measured", event
    frame = _one_run(frame, space, workload, "disable", 0.9, runs=2)
    frame = _one_run(frame, space, workload, "enable", 0.8, runs=2)
    event = choose_next(frame, space, workload, SLOW, SLOW, [], None)
    assert event["event"] == "change", event  # by the measured rule or back to the best
    assert event["new"] == {"romio_ds_write": "automatic"}


def test_the_risk_budget_grows_with_runs_at_the_default_and_shrinks_with_lost_tries() -> None:
    noise = 0.1
    per_run = math.log1p(noise)
    assert risk_budget([], 100.0, noise) == pytest.approx(per_run)
    assert risk_budget([100.0], 100.0, noise) == pytest.approx(2 * per_run)
    # However long the program ran at the default, a try's bound stays above the cap.
    assert risk_budget([100.0] * 50, 100.0, noise) == pytest.approx(-math.log1p(-MAX_TRY_LOSS))
    # A try that lost 40 % spent more than two runs earned: nothing may be risked.
    assert risk_budget([100.0, 60.0], 100.0, noise) == 0.0
    # A lead over the default is earned too (up to the cap).
    assert risk_budget([110.0], 100.0, noise) == pytest.approx(2 * per_run + math.log(1.1))
    # With no level known, the runs count only by their number.
    assert risk_budget([100.0], math.nan, noise) == pytest.approx(2 * per_run)


def test_runs_at_the_default_earn_a_try_whose_bound_is_below_one_runs_noise() -> None:
    """`enable` never ran on the workload; its calibrated 10 % bound (about -40 %) is
    below one run's noise, so a program's first run tries nothing. After two runs at the
    default it may risk that much and tries it; after a try that lost half its run it
    may not."""
    space = parse_space(SPACE, "test space")
    effects = {"romio_ds_write": {"disable": 0.5, "enable": 1.5}}
    frame = synthetic_summary_frame(space, effects=effects, noise=0.5, seed=1)
    workload = Workload.from_row(frame.iloc[0])
    only_default = _only(frame, space, workload, {})
    level = float(only_default[_same(only_default, workload)]["bw_median"].iloc[0])
    first = choose_next(only_default, space, workload, {}, {}, [], None, [])
    assert first["event"] == "keep", first
    # The reason names the risk allowed and what came closest, with its bound.
    assert "below the default" in first["reason"], first["reason"]
    assert "the closest, romio_ds_write=enable" in first["reason"], first["reason"]
    earned = choose_next(only_default, space, workload, {}, {}, [], None, [level, level])
    assert earned["event"] == "change", earned
    assert earned["new"] == {"romio_ds_write": "enable"}
    assert earned["interval"][0] < 1 / (1 + measurement_noise(frame))
    assert "may risk" in earned["evidence"] and earned["risk"] > 0
    spent = choose_next(only_default, space, workload, {}, {}, [], None, [level, level * 0.5])
    assert spent["event"] == "keep", spent


def test_an_empty_program_entry_is_not_called_the_default() -> None:
    """{} is the program having no entry of its own: the table's generic entries apply
    then, which may well not be the default."""
    events = [
        {"event": "rollback", "program": "p", "nprocs": 2, "new": {}, "reason": "slower"},
        {"event": "change", "program": "p", "nprocs": 2, "old": {}, "new": SLOW, "gain": None,
         "purpose": "measure the default"},
    ]  # fmt: skip
    said = OnlineReport(events=events).lines()
    assert said[0] == "table: p x2: rolled back to no entry of its own (slower)"
    assert said[1].startswith("table: p x2: no entry of its own -> {'romio_ds_write'")


AGGREGATORS = """
name = "aggregators"
[hints.cb_nodes]
values = ["default", "1", "2"]
default = "default"
[hints.romio_ds_write]
values = ["automatic", "disable", "enable"]
default = "automatic"
"""


def test_open_keys_that_act_as_the_default_here_are_not_written() -> None:
    """The model credits cb_nodes=1 with a gain, but on one host ROMIO's default is one
    aggregator already (formats/hints.def): the try writes only the key that changes
    something, as tune writes no such open entry."""
    space = parse_space(AGGREGATORS, "test space")
    effects = {"cb_nodes": {"1": 0.4}, "romio_ds_write": {"disable": 0.5, "enable": 2.0}}
    frame = synthetic_summary_frame(space, effects=effects, noise=0.05, seed=2)
    rows = frame[(frame["nprocs"] == 2) & (frame["nodes"] == 1)]
    workload = Workload.from_row(rows.iloc[0])
    only_default = _only(frame, space, workload, {})
    event = choose_next(only_default, space, workload, {}, {}, [], None, [])
    assert event["event"] == "change", event
    assert event["new"] == {"romio_ds_write": "enable"}


def test_a_default_that_means_not_set_is_never_written() -> None:
    """The program sets cb_nodes itself (pio_noncontig does); a choice that leaves
    cb_nodes at the space's default ("default": not set) cannot write that word, which
    no MPI takes (the table's reader refuses it, and learning stopped at every run)."""
    space = parse_space(AGGREGATORS, "test space")
    effects = {"romio_ds_write": {"disable": 0.5, "enable": 2.0}}
    frame = synthetic_summary_frame(space, effects=effects, noise=0.05, seed=2)
    rows = frame[(frame["nprocs"] == 2) & (frame["nodes"] == 1)]
    workload = Workload.from_row(rows.iloc[0])
    in_force = {"cb_nodes": "2", "romio_ds_write": "disable"}  # slower than ROMIO's own
    event = choose_next(frame, space, workload, {}, in_force, [], None, [])
    assert event["event"] == "change", event
    vocabulary = hint_vocabulary()
    assert event["new"] == {"romio_ds_write": "enable"}
    for key, value in event["new"].items():
        assert vocabulary[key].problem(str(value)) is None, (key, value)


def test_a_key_the_program_sets_itself_keeps_its_value_as_the_default() -> None:
    """The program passes romio_ds_write=enable itself and the table set nothing for it:
    the default for this program is its own value. Without knowing that, the refit would
    "measure the default" by writing ROMIO's automatic over it; knowing it, it writes
    no such entry (nothing calibrated is worth a try here either)."""
    space = parse_space(SPACE, "test space")
    frame = synthetic_summary_frame(space, effects={"romio_ds_write": {"disable": 0.2}})
    workload = Workload.from_row(frame.iloc[0])
    enable = {"romio_ds_write": "enable"}
    only_enable = _only(frame, space, workload, enable)
    unknown = choose_next(only_enable, space, workload, {}, enable, [], None, [])
    assert unknown.get("purpose") == "measure the default", unknown
    own = choose_next(only_enable, space, workload, {}, enable, [], None, [], {"romio_ds_write"})
    assert own["event"] == "keep", own


def test_the_refit_judges_with_the_model_train_saved(tmp_path) -> None:  # type: ignore[no-untyped-def]
    """Issue 31: the learner judged with a random forest whatever `train` chose. With the
    saved model of `train` for this space and system, the tries rest on it as it is (its
    kind, its calibration: nothing refitted); a model of another space lends its kind."""
    from iotuner.models import fit_model, save_model
    from iotuner.online import _saved_model

    space = parse_space(SPACE, "test space")
    frame = synthetic_summary_frame(space, effects={"romio_ds_write": {"disable": 0.2}})
    # Held-out residuals, as train's evaluation gives them, for the tree's intervals.
    tree = fit_model(frame, space, "decision_tree", residuals=[-0.1, 0.0, 0.1])
    save_model(tree, tmp_path / "model")
    (system,) = tree.metadata["systems"]
    cache = tmp_path / "table.jsonl.predictions.json"
    saved, kind = _saved_model(tmp_path / "model", space.name, system, None, cache)
    assert saved is not None and kind == "decision_tree"
    workload = Workload.from_row(frame.iloc[0])
    event = choose_next(frame, space, workload, SLOW, SLOW, [], kind, saved=saved)
    assert event["model"] in ("decision_tree (saved)", "the workload's measurements")
    first = _only(frame, space, workload, SLOW)
    tried = choose_next(first, space, workload, SLOW, SLOW, [], kind, saved=saved)
    assert tried["model"] == "decision_tree (saved)", tried
    other, kind = _saved_model(tmp_path / "model", "another space", system, None, cache)
    assert other is None and kind == "decision_tree"
    assert _saved_model(tmp_path / "none", space.name, system, None, cache) == (None, None)


CB_WRITE = """
name = "cb-and-ds"
[hints.romio_cb_write]
values = ["automatic", "disable", "enable"]
default = "automatic"
[hints.romio_ds_write]
values = ["automatic", "disable", "enable"]
default = "automatic"
"""


def test_the_learner_tries_only_keys_that_act_on_the_workload() -> None:
    """Issue 31: the learner tried romio_cb_write for independent writes, where it cannot
    act (formats/hints.def: collective writes only). The knowledge base credits it with a
    gain everywhere (a synthetic table where it acts on every row, as a model's error
    would): on independent writes it is never a candidate, sieving is."""
    space = parse_space(CB_WRITE, "test space")
    effects = {"romio_cb_write": {"disable": 3.0}, "romio_ds_write": {"enable": 1.5}}
    frame = synthetic_summary_frame(space, effects=effects, noise=0.05, seed=2)
    rows = frame[(frame["pattern"] == "independent") & (frame["nprocs"] == 2)]
    workload = Workload.from_row(rows.iloc[0])
    only_default = _only(frame, space, workload, {})
    level = float(only_default[_same(only_default, workload)]["bw_median"].iloc[0])
    event = choose_next(only_default, space, workload, {}, {}, [], None, [level] * 3)
    assert event.get("new", {}).get("romio_cb_write", "automatic") == "automatic", event
    assert "romio_cb_write" not in event.get("reason", ""), event


def test_the_learner_prints_only_earned_gains() -> None:
    """Issue 31: `run --learn` printed a model's raw point as a gain ("predicted x23.66").
    A change says a gain measured on the workload or calibrated on held-out workloads,
    and which; a model's own prediction is "gain unknown"."""
    base = {"program": "p", "nprocs": 2, "old": {}, "new": SLOW, "event": "change"}
    calibrated = {**base, "gain": 1.8, "interval": [1.1, 2.9], "calibrated": True,
                  "model": "random_forest", "predicted": 23.66}  # fmt: skip
    measured = {**base, "gain": 1.5, "interval": [1.2, 1.9], "model": "the workload's measurements"}
    model_only = {**base, "gain": None, "interval": None, "model": "random_forest",
                  "evidence": "an uncalibrated model's lower bound above the upper bound in "
                  "force", "predicted": {"x": [23.66, 20.0, 30.0]}}  # fmt: skip
    said = OnlineReport(events=[calibrated, measured, model_only]).lines()
    assert "calibrated x1.80" in said[0] and "23.66" not in said[0], said[0]
    assert "measured x1.50" in said[1], said[1]
    assert "gain unknown" in said[2] and "23.66" not in said[2], said[2]
    assert not any("predicted x" in line for line in said), said


def test_the_calibration_is_kept_between_runs_that_add_no_cell(tmp_path) -> None:  # type: ignore[no-untyped-def]
    """A learn step refitted and calibrated after every run (issue 31: 5-50 s). The
    calibration is read back while the knowledge base's cells (workload, configuration)
    stay those it was computed on; a new cell computes it again."""
    import json

    from iotuner.online.evidence import quick_calibration

    space = parse_space(SPACE, "test space")
    frame = synthetic_summary_frame(space, effects={"romio_ds_write": {"disable": 0.2}})
    cache = tmp_path / "table.jsonl.calibration.json"
    first = quick_calibration(frame, space, "random_forest", cache)
    stored = json.loads(cache.read_text())
    stored["calibration"]["workloads"] = 999  # a mark: read back, not computed again
    cache.write_text(json.dumps(stored))
    again = frame.copy()
    again.loc[again.index[0], "n"] += 1  # another run of a cell it holds
    assert quick_calibration(again, space, "random_forest", cache).workloads == 999
    fewer = frame[~_same(frame, Workload.from_row(frame.iloc[0]))]
    assert quick_calibration(fewer, space, "random_forest", cache).workloads != 999
    assert first.workloads > 0


def test_a_run_within_the_noise_of_an_earlier_choice_does_not_send_the_learner_back() -> None:
    """Issue 31: on tmpfs the learner alternated a change and a rollback. Every
    configuration ran the workload; the one in force (`disable`, once) came out 3 % below
    the default's runs, within the noise: that says nothing, and the learner does not go
    "back" on it (the guard judges the change over its runs). 30 % below in two runs, it
    goes back; in one, it waits for the second (issue 41)."""
    space = parse_space(SPACE, "test space")
    frame = synthetic_summary_frame(space, effects=EFFECTS, noise=0.1, seed=3)
    workload = _large_independent_writes(frame)
    close = _one_run(
        _one_run(frame, space, workload, "disable", 0.97), space, workload, "enable", 0.5
    )
    event = choose_next(close, space, workload, SLOW, SLOW, [], None)
    assert event.get("purpose") != "back to the best measured", event
    far = _one_run(_one_run(frame, space, workload, "disable", 0.7), space, workload, "enable", 0.5)
    event = choose_next(far, space, workload, SLOW, SLOW, [], None)
    assert event.get("purpose") != "back to the best measured", event
    far = _one_run(frame, space, workload, "disable", 0.7, runs=2)
    far = _one_run(far, space, workload, "enable", 0.5, runs=2)
    event = choose_next(far, space, workload, SLOW, SLOW, [], None)
    # Back to the default, by the measured rule (its quartiles apart from the try's).
    assert (event["event"], event["new"]) == ("change", {"romio_ds_write": "automatic"}), event


class _FlatCalibration:
    """A calibration that promises every candidate the same small gain: x1.01, its 10 %
    bound at x0.95 (within any budget the runs below earn)."""

    gain_curve = (0.0,)

    def gain_bounds(self, predicted: float) -> tuple[float, float, float]:
        return math.log(0.95), math.log(1.01), math.log(1.3)


class _SavedStub:
    """`train`'s model as the learner reads it: a name, predictions, a calibration."""

    name = "stub"
    calibration = _FlatCalibration()

    def predict_interval(self, rows):  # type: ignore[no-untyped-def]
        median = np.full(len(rows), 100.0)
        return median, median * 0.9, median * 1.1


def test_a_try_promising_next_to_nothing_is_not_made() -> None:
    """Seen in bench/real_programs.py: IOR's 16 MiB independent writes tried
    romio_ds_write=enable at a calibrated x1.01, and three of the five learning runs fell
    below every default run. A try must promise more than MIN_TRY_GAIN."""
    space = parse_space(SPACE, "test space")
    frame = synthetic_summary_frame(space, noise=0.05, seed=1)
    workload = Workload.from_row(frame.iloc[0])
    only_default = _only(frame, space, workload, {})
    level = float(only_default[_same(only_default, workload)]["bw_median"].iloc[0])
    runs = [level] * 4
    event = choose_next(only_default, space, workload, {}, {}, [], None, runs, saved=_SavedStub())
    assert event["event"] == "keep", event


READ_AND_WRITE = """
name = "cb-read-write"
[hints.romio_cb_read]
values = ["automatic", "disable", "enable"]
default = "automatic"
[hints.romio_cb_write]
values = ["automatic", "disable", "enable"]
default = "automatic"
"""


def test_a_read_run_keeps_the_write_keys_of_the_file_s_entry() -> None:
    """Issue 31: IOR writes and reads one file in two runs, which share the file's open
    entry. The write runs had learned romio_cb_write=disable; a read run's try of
    romio_cb_read=disable rewrote the entry without it (the read run cannot measure a
    write key), and the next write ran at ROMIO's default again."""
    space = parse_space(READ_AND_WRITE, "test space")
    effects = {"romio_cb_read": {"disable": 2.0}, "romio_cb_write": {"disable": 2.0}}
    frame = synthetic_summary_frame(space, op="read", effects=effects, noise=0.05, seed=2)
    reads = frame[(frame["pattern"] == "collective") & (frame["nprocs"] == 2)]
    workload = Workload.from_row(reads.iloc[0])
    learned = {"romio_cb_write": "disable"}
    only_current = _only(frame, space, workload, learned)
    event = choose_next(only_current, space, workload, learned, learned, [], None, [])
    assert event["event"] == "change", event
    assert event["new"] == {"romio_cb_read": "disable", "romio_cb_write": "disable"}, event


def _timed_history(before: list[tuple[float, float]], after: list[tuple[float, float]]) -> list:
    """_history's runs with (trace bandwidth, open-to-close bandwidth) each."""
    events = _history([b for b, _ in before], [a for a, _ in after], noise=0.05)
    phases = iter([p for _, p in before] + [p for _, p in after])
    return [{**e, "phase_bandwidth": next(phases)} if e["event"] == "run" else e for e in events]


def test_a_trace_fall_the_program_s_clock_does_not_see_waits_for_the_rank_test() -> None:
    """Issue 31: on page-cache reads the trace's bandwidth of one run fell 2.5 spreads
    (2,002 to 1,232 MiB/s) while the program's own open-to-close time hardly moved, and
    the try was rolled back after that one run. Both clocks must fall to roll back early."""
    before = [(2002.0, 900.0), (1950.0, 880.0)]
    assert rollback_event(_timed_history(before, [(1232.0, 875.0)]), "p", 2) is None
    both = rollback_event(_timed_history(before, [(1232.0, 500.0)]), "p", 2)
    assert both is not None and "open-to-close" in both["reason"], both
    # Runs recorded without the phase: the trace's bandwidth alone, as before.
    assert rollback_event(_history([2002.0, 1950.0], [1232.0], noise=0.05), "p", 2) is not None


def test_the_sweep_s_kernel_never_counts_as_the_program_s_own_runs() -> None:
    """Seen in bench/real_programs.py: the sweep's kernel measured IOR's case (4 KiB
    independent reads) at 1,024 calls per open and ~7,500 MiB/s, IOR's traced runs at
    4,096 calls and ~4,700, with the same hints. Pooled, every configuration only the
    kernel ran beat the one in force "measured", and the learner took it. A configuration
    is measured for the program by the program's runs alone; the kernel's rows speak
    through the model."""
    from iotuner.online.choice import MEASURED

    space = parse_space(SPACE, "test space")
    frame = synthetic_summary_frame(space, effects={}, noise=0.02, seed=5)
    kernel = _large_independent_writes(frame)
    default = frame[_same(frame, kernel) & (frame["config"] == config_key(space.default()))]
    program_row = default.iloc[[0]].copy()
    program_row["program"], program_row["calls_per_open"], program_row["n"] = "ior", 4096, 6
    for column in ("bw_min", "bw_q1", "bw_median", "bw_q3", "bw_max"):
        program_row[column] = program_row[column] * 0.6
    frame = pd.concat([frame, program_row], ignore_index=True)
    workload = Workload.from_row(program_row.iloc[0])
    event = choose_next(frame, space, workload, {}, {}, [], None)
    assert event.get("model") != MEASURED, event


RW_SPACE = """
name = "rw"
[hints.romio_ds_write]
values = ["automatic", "disable", "enable"]
default = "automatic"
[hints.romio_ds_read]
values = ["automatic", "disable", "enable"]
default = "automatic"
"""


def test_a_rolled_back_try_is_known_whatever_idle_keys_its_entry_held() -> None:
    """Seen in bench/real_programs.py: a read run's entry keeps the file's write keys, so
    the try rolled back on IOR's 4 KiB collective reads named them, and the candidate that
    sets only its read keys did not look like it: it was tried again the run after."""
    space = parse_space(RW_SPACE, "test space")
    frame = synthetic_summary_frame(
        space, op="read", effects={"romio_ds_read": {"disable": 3.0}}, noise=0.02, seed=2
    )
    workload = _large_independent_writes(frame)  # 4 MiB independent accesses (reads here)
    entry = {"romio_ds_write": "disable"}  # the file's write key: idle for reads
    tried = {**entry, "romio_ds_read": "disable"}
    first = choose_next(frame, space, workload, entry, entry, [], None)
    assert first["event"] == "change" and first["new"].get("romio_ds_read") == "disable", first
    again = choose_next(frame, space, workload, entry, entry, [tried], None)
    assert again.get("new", {}).get("romio_ds_read") != "disable", again


def _shape_frame(memory_block: int) -> tuple[pd.DataFrame, Workload]:
    """A sparse knowledge base: the sweep's kernel measured the default (90-110 MiB/s) and
    `enable` (300-340) on a shape with memory in pieces of `memory_block` (0: contiguous),
    three repeats each; the program, on memory in 4 KiB pieces, ran once at the default."""
    space = parse_space(SPACE, "test space")
    program = Workload(2, 1, "collective", "write", "strided", 4096, 512, 0.5, 8,
                       program="md", memory_block=4096)  # fmt: skip
    kernel = Workload(2, 1, "collective", "write", "strided", 4096, 512, 0.5, 4,
                      program="iokernel", memory_block=memory_block)  # fmt: skip

    def row(w: Workload, hints: dict[str, str], low: float, mid: float, high: float, n: int):  # type: ignore[no-untyped-def]
        config = space.validate(hints)
        return {**w.as_row(), "system": "s", "config": config_key(config), "n": n,
                "bw_min": low, "bw_q1": low, "bw_median": mid, "bw_q3": high, "bw_max": high,
                "cfg:romio_ds_write": config["romio_ds_write"]}  # fmt: skip

    rows = [
        row(kernel, {}, 90.0, 100.0, 110.0, 3),
        row(kernel, {"romio_ds_write": "enable"}, 300.0, 320.0, 340.0, 3),
        row(program, {}, 50.0, 50.0, 50.0, 1),
    ]
    return pd.DataFrame(rows), program


def test_a_sparse_knowledge_base_tries_the_sweep_s_best_on_the_program_s_shape() -> None:
    """Issue 41: with a sparse knowledge base the learner kept the default for ever ("too
    little data" or an uncalibrated model's overlapping bands) while the sweep had
    measured the program's own shape. It now tries the sweep's best there, its gain
    unknown until the program's runs measure it, and never one measured on another
    memory layout."""
    space = parse_space(SPACE, "test space")
    frame, program = _shape_frame(memory_block=4096)
    event = choose_next(frame, space, program, {}, {}, [], None)
    assert event["event"] == "change", event
    assert event["new"] == {"romio_ds_write": "enable"} and event["gain"] is None
    assert event["purpose"] == "try the sweep's best on this shape"
    assert "x3.20 over the configuration in force" in event["evidence"]
    other, program = _shape_frame(memory_block=0)  # the sweep's contiguous memory
    kept = choose_next(other, space, program, {}, {}, [], None)
    assert kept["event"] == "keep", kept


def test_only_the_program_s_learning_runs_in_the_load_window_measure_a_gain() -> None:
    """Issue 41: the learner went back to the default on "measured x2.93" against the one
    run traced before the sweep, at another load. Given its learning runs, a refit claims
    a measured gain from them alone (two or more each side, the latest
    LOAD_WINDOW_RUNS); the knowledge base's rows of the workload suggest a try whose gain
    stays unknown."""
    from iotuner.online.choice import MEASURED
    from iotuner.online.evidence import LOAD_WINDOW_RUNS

    space = parse_space(SPACE, "test space")
    frame = synthetic_summary_frame(space, effects={"romio_ds_write": {"disable": 0.3}},
                                    noise=0.02, seed=5)  # fmt: skip
    workload = _large_independent_writes(frame)
    row = workload.as_row()
    level = float(frame[_same(frame, workload)]["bw_median"].max())

    def runs(hints: dict[str, str], bandwidth: float, count: int) -> list[dict]:
        return [{"event": "run", "hints": hints, "in_force": hints, "workload": row,
                 "bandwidth": bandwidth} for _ in range(count)]  # fmt: skip

    slow_only = runs(SLOW, level * 0.3, 3)
    event = choose_next(frame, space, workload, SLOW, SLOW, [], None, own_runs=slow_only)
    assert event.get("model") != MEASURED, event  # the model's try (calibrated), if any

    both = runs({}, level, 2) + runs(SLOW, level * 0.3, 2)
    event = choose_next(frame, space, workload, SLOW, SLOW, [], None, own_runs=both)
    assert event["model"] == MEASURED and event["gain"] > 3, event

    # The default's runs long before the window (a different load) measure nothing now.
    old = runs({}, level, 2) + runs(SLOW, level * 0.3, LOAD_WINDOW_RUNS)
    event = choose_next(frame, space, workload, SLOW, SLOW, [], None, own_runs=old)
    assert event.get("model") != MEASURED, event
