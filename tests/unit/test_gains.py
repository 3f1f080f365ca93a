"""The one rule for a printed gain (iotuner.gains): measured, else calibrated, else
unknown; a measured gain outside its promised interval is flagged."""

import math

from iotuner.gains import earned_gain, outside, stated_gain


def test_measured_first_then_calibrated_then_unknown() -> None:
    both = earned_gain(measured=1.16, calibrated=(1.24, 5.91, 22.62))
    assert (both.basis, both.figure) == ("measured", "x1.16")
    assert both.words.startswith("x1.16 measured against the default")
    alone = earned_gain(calibrated=(1.24, 5.91, 22.62))
    assert (alone.basis, alone.figure) == ("calibrated", "x5.91 [x1.24-x22.62]")
    assert "calibrated on held-out workloads" in alone.words
    for nothing in (earned_gain(), earned_gain(measured=math.nan), earned_gain(measured=0.0)):
        assert (nothing.basis, nothing.figure, nothing.value) == ("unknown", "unknown", None)


def test_a_note_basis_other_than_measured_or_calibrated_is_unknown() -> None:
    assert stated_gain("predicted", 131.0, (90.0, 190.0)).figure == "unknown"
    assert stated_gain("measured", 1.25, (1.1, 1.6)).figure == "x1.25 [x1.10-x1.60]"
    assert stated_gain("calibrated", 1.3, (1.1, 1.6)).basis == "calibrated"


def test_a_measured_gain_outside_its_interval_is_flagged() -> None:
    assert outside(1.16, (1.24, 22.62)) == "measured x1.16, below the x1.24-x22.62 promised"
    assert outside(30.0, (1.24, 22.62)) == "measured x30.00, above the x1.24-x22.62 promised"
    assert outside(3.0, (1.24, 22.62)) is None
    assert outside(None, (1.24, 22.62)) is None and outside(1.16, None) is None
