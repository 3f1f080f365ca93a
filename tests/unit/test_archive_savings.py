"""What an archive row says the advice saves: only from a recommendation that changes hints
and has a gain interval, by the interval's lower bound; unknown (None) otherwise."""

from dataclasses import replace
from pathlib import Path

import pytest

from iotuner.advise import Advice, Recommendation, Source
from iotuner.archive import core_hours_to_save
from iotuner.ingest import FileGroup
from iotuner.measurement import Workload
from iotuner.tune import Choice


def group(seconds: float | None) -> FileGroup:
    workload = Workload(nprocs=64, nodes=4, pattern="collective", op="write",
                        layout="contiguous", bytes_per_rank=1 << 20)  # fmt: skip
    return FileGroup("out.*.h5", 1, "write", workload, 1 << 30, seconds, 10.0, True)


def choice(interval: tuple[float, float] | None, basis: str | None = "calibrated") -> Choice:
    return Choice(64, 20, "collective", "write", "contiguous", None,  # type: ignore[arg-type]
                  {"romio_cb_write": "enable"}, False, 200.0, 150.0, 250.0, 100.0, 90.0,
                  "measured", gain_interval=interval, gain=2.0, gain_basis=basis)  # fmt: skip


def advice(*recommendations: Recommendation) -> Advice:
    source = Source(Path("x.darshan"), "darshan", "app", 64, [], [])
    return Advice(source, list(recommendations), [], None)


def test_saving_uses_the_lower_bound_of_the_interval() -> None:
    hinted = Recommendation(group(3600.0), 20, {"romio_cb_write": "enable"}, [],
                            choice((1.25, 2.5)), False, "measured")  # fmt: skip
    # 64 ranks x 3600 s x (1 - 1/1.25) = 64 x 0.2 core-hours
    assert core_hours_to_save(advice(hinted)) == pytest.approx(64 * 0.2)


def test_no_hint_or_no_interval_is_unknown_and_a_lower_bound_under_one_saves_nothing() -> None:
    kept = Recommendation(group(3600.0), 20, {}, [], choice((1.25, 2.5)), True, "noise")
    unpredicted = Recommendation(group(3600.0), 20, {"cb_nodes": "4"}, [], None, False, "no")
    assert core_hours_to_save(advice(kept, unpredicted)) is None
    assert core_hours_to_save(advice()) is None
    doubtful = Recommendation(group(3600.0), 20, {"romio_cb_write": "enable"}, [],
                              choice((0.9, 1.6)), False, "calibrated")  # fmt: skip
    assert core_hours_to_save(advice(doubtful)) == 0.0
    untimed = replace(doubtful, group=group(None))
    assert core_hours_to_save(advice(untimed)) is None


def test_a_gain_that_is_only_the_ratio_of_two_raw_predictions_saves_nothing_known() -> None:
    raw = Recommendation(group(3600.0), 20, {"romio_cb_write": "enable"}, [],
                         choice((1.25, 2.5), basis=None), False, "predicted")  # fmt: skip
    assert core_hours_to_save(advice(raw)) is None
