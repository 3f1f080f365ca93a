"""The busy warning (issue 32, item 7): bench, demo and `run --learn` measured on a machine
running more processes than it has cores without a word, though every figure was noise
then. One line on stderr now says so, once, before the command measures."""

import math
import os

import pytest

from iotuner._load import TEST_VARIABLE, _load, busy_note, usable_cores, warn_if_busy


def test_busy_means_a_load_above_the_cores() -> None:
    note = busy_note(2.5, 2)
    assert note is not None and "load average 2.5" in note and "2 cores" in note
    assert "noise" in note
    assert "1 core)" in (busy_note(1.01, 1) or "")
    assert busy_note(2.0, 2) is None  # as many runnable processes as cores: no wait
    assert busy_note(0.3, 2) is None
    assert busy_note(math.nan, 2) is None


def test_the_real_figures_are_the_kernel_s(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(TEST_VARIABLE, raising=False)
    assert _load() == pytest.approx(os.getloadavg()[0], abs=1.0)
    assert usable_cores() == len(os.sched_getaffinity(0)) >= 1


def test_the_warning_is_one_line_on_stderr(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv(TEST_VARIABLE, str(usable_cores() + 3))
    assert warn_if_busy()
    out, err = capsys.readouterr()
    assert out == "" and err.count("\n") == 1
    assert err.startswith("iotuner: warning: the machine is busy (load average")
    monkeypatch.setenv(TEST_VARIABLE, "0")
    assert not warn_if_busy()
    assert capsys.readouterr().err == ""
