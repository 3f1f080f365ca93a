"""Fixtures shared by the unit tests: the hand-made sample files in tests/data."""

from pathlib import Path

import pytest

DATA = Path(__file__).resolve().parent.parent / "data"


@pytest.fixture
def sample_log() -> Path:
    """A valid trace log of a 4-process ior run: two hint sets, four op rows, two files."""
    return DATA / "ior-20250101-120000-4242-0123456789ab.iotrace.jsonl"


@pytest.fixture
def sample_table() -> Path:
    """The tuning table of formats/README.md, with a comment and a blank line."""
    return DATA / "table.jsonl"
