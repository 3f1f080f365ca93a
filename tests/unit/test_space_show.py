"""`iotuner space show` on a space with ranges prints each range, not only its suggestions."""

import pytest

from iotuner.cli import main


def test_space_show_prints_the_ranges(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["space", "show", "lustre-ranges"]) == 0
    out = capsys.readouterr().out
    assert "striping_unit: 65536..67108864 step 65536 (log), 1024 points" in out
    assert "romio_cb_write: ['automatic', 'disable', 'enable']" in out
