"""What the fuzz tests share: one Hypothesis profile, and a count of the inputs each
reader was given, printed at the end of the run.

IOTUNER_FUZZ_EXAMPLES sets the examples per property test (default DEFAULT_EXAMPLES, so
the normal suite stays fast; CI runs a larger count in a stage of its own). A test calls
the session fixture `count_input(reader_name)` once per input it gives a reader; pytest's
terminal summary then says, per reader, how many inputs ran.
"""

import os
from collections import Counter
from collections.abc import Callable

import pytest
from hypothesis import HealthCheck, settings

DEFAULT_EXAMPLES = 50
EXAMPLES_VARIABLE = "IOTUNER_FUZZ_EXAMPLES"


def _examples() -> int:
    text = os.environ.get(EXAMPLES_VARIABLE, str(DEFAULT_EXAMPLES))
    try:
        examples = int(text)
    except ValueError:
        examples = 0
    if examples < 1:
        raise pytest.UsageError(f"{EXAMPLES_VARIABLE} must be a whole number >= 1, got {text!r}")
    return examples


settings.register_profile(
    "iotuner-fuzz",
    max_examples=_examples(),
    # RATIONALE: a reader's time bound is the reader's own (the Darshan reader stops a
    # log past its timeout, and a crash costs the start of a new process, about a second
    # on a loaded machine), asserted by the tests; Hypothesis's per-example deadline
    # would fail on those starts instead.
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
    # No example database in the working tree: a failure prints the input to reproduce
    # it, and the examples are fresh on each run.
    database=None,
)
settings.load_profile("iotuner-fuzz")

_INPUTS: Counter[str] = Counter()
"""Inputs given to each reader in this session."""


@pytest.fixture(scope="session")
def count_input() -> Callable[[str], None]:
    """count_input(reader_name): one more input given to that reader (for the summary)."""
    return _count


def _count(reader_name: str) -> None:
    _INPUTS[reader_name] += 1


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter) -> None:
    if not _INPUTS:
        return
    terminalreporter.section("fuzz inputs run")
    limit = settings.get_profile("iotuner-fuzz").max_examples
    terminalreporter.write_line(
        f"{limit} examples per property test ({EXAMPLES_VARIABLE}, default {DEFAULT_EXAMPLES})"
    )
    for reader_name, count in sorted(_INPUTS.items()):
        terminalreporter.write_line(f"{reader_name}: {count} inputs")
