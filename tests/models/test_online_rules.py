"""The online learner's rules on synthetic knowledge bases and histories, without MPI:
what the run had in force is what a refit compares with, a try may risk only a lead
measured over the default, and a try far below every earlier run goes back after one
run. The real loop is tests/integration/test_online.py."""

from iotuner.measurement import Workload
from iotuner.models import synthetic_summary_frame
from iotuner.online import _guard, _refit
from iotuner.space import config_key, parse_space

SPACE = """
name = "ds-write"
[hints.romio_ds_write]
values = ["automatic", "disable", "enable"]
default = "automatic"
"""
SLOW = {"romio_ds_write": "disable"}


def _history(before: list[float], after: list[float], noise: float) -> list[dict]:
    old, new = {"romio_ds_write": "enable"}, SLOW
    base = {"program": "p", "nprocs": 2, "time": 0.0}
    events = [{**base, "event": "run", "hints": old, "bandwidth": b} for b in before]
    events.append({**base, "event": "change", "old": old, "new": new, "noise": noise})
    events += [{**base, "event": "run", "hints": new, "bandwidth": a} for a in after]
    return events


def test_a_first_run_far_below_every_earlier_one_rolls_back_at_once() -> None:
    rollback = _guard(_history([100.0, 95.0], [60.0], noise=0.2), "p", 2)
    assert rollback is not None and rollback["new"] == {"romio_ds_write": "enable"}
    assert "below the slowest" in rollback["reason"]


def test_a_first_run_within_the_noise_waits_for_the_rank_test() -> None:
    assert _guard(_history([100.0, 95.0], [85.0], noise=0.2), "p", 2) is None
    # The earlier runs' own spread (100 against 60) is wider than the noise: 55 is within it.
    assert _guard(_history([100.0, 60.0], [55.0], noise=0.1), "p", 2) is None
    assert _guard(_history([100.0, 60.0], [30.0], noise=0.1), "p", 2) is not None


def test_the_refit_compares_with_what_the_run_had_in_force() -> None:
    """The program has no entry of its own; the table's generic entries turned sieving off
    for its workload (the trace says so). The refit judges that configuration, and the
    program entry it writes names the default's value, so the generic entry no longer
    applies: without it, a change to the default would write nothing."""
    space = parse_space(SPACE, "test space")
    frame = synthetic_summary_frame(space, effects={"romio_ds_write": {"disable": 0.2}})
    workload = Workload.from_row(frame.iloc[0])
    event = _refit(frame, space, workload, {}, SLOW, [], None)
    assert event["event"] == "change" and event["old"] == {}
    assert event["model"] == "the workload's measurements"
    assert event["new"]["romio_ds_write"] in ("automatic", "enable")
    kept = _refit(frame, space, workload, event["new"], event["new"], [], None)
    assert kept["event"] == "keep"
    # A key of the program's entry outside the space is not the space's to choose: kept.
    outside = _refit(frame, space, workload, {"striping_factor": 2}, SLOW, [], None)
    assert outside["new"]["striping_factor"] == 2


def test_a_lead_over_the_default_may_be_risked_never_more() -> None:
    """`disable` is measured far ahead of the default on the workload, `enable` (better
    still) never ran there. A try of `enable` may lose to `disable`, but in nine of ten
    held-out cases not below the default: it is tried, with the lead named."""
    space = parse_space(SPACE, "test space")
    effects = {"romio_ds_write": {"disable": 3.0, "enable": 3.6}}
    frame = synthetic_summary_frame(space, effects=effects, noise=0.3, seed=3)
    workload = Workload.from_row(frame.iloc[0])
    same = (frame["nprocs"] == workload.nprocs) & (frame["pattern"] == workload.pattern)
    same &= frame["bytes_per_rank"] == workload.bytes_per_rank
    untried = frame[
        ~same | (frame["config"] != config_key(space.validate({"romio_ds_write": "enable"})))
    ]
    event = _refit(untried, space, workload, SLOW, SLOW, [], None)
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
    same = (frame["nprocs"] == workload.nprocs) & (frame["pattern"] == workload.pattern)
    same &= frame["bytes_per_rank"] == workload.bytes_per_rank
    enable = config_key(space.validate({"romio_ds_write": "enable"}))
    only_enable = frame[~same | (frame["config"] == enable)]
    event = _refit(only_enable, space, workload, {}, {"romio_ds_write": "enable"}, [], None)
    assert event["event"] == "change", event
    assert event["new"] == {"romio_ds_write": "automatic"}
    assert event["purpose"] == "measure the default" and event["gain"] is None
    # Once the default has run there, the measured rule decides, and nothing is measured
    # again for its own sake.
    kept = _refit(frame, space, workload, {}, {"romio_ds_write": "enable"}, [], None)
    assert kept.get("purpose") is None
