"""What every test shares: the README's default run, and a quiet machine as far as
iotuner's busy warning goes.

The README's test command (`python -m pytest`, no paths, no -m) leaves out the tests
marked `slow` so that it ends within minutes on 2 cores; CI runs it and then the rest
(`-m slow`, .ci/run). A run that names paths or tests, or selects by marker, gets what it
asks for, slow tests included (CI's stages run files of their own that way).

bench, demo and `run --learn` warn on stderr when the load average exceeds the cores
(iotuner._load); tests that count a command's warnings must not depend on what else the
machine runs, so the suite's commands see a load of 0 unless a test says otherwise
(tests/unit/test_load.py checks the warning itself, and the kernel's real figure)."""

import os

import pytest

from iotuner._load import TEST_VARIABLE

os.environ.setdefault(TEST_VARIABLE, "0")


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    if config.option.markexpr or config.args_source != pytest.Config.ArgsSource.TESTPATHS:
        return
    slow = [item for item in items if item.get_closest_marker("slow")]
    if slow:
        config.hook.pytest_deselected(items=slow)
        items[:] = [item for item in items if not item.get_closest_marker("slow")]
