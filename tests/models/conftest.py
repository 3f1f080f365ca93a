"""Fixtures of the model tests: a synthetic summary frame with known structure.

The frame covers 3 scales x 2 patterns x 6 sizes = 36 workloads, each with the 18
configurations of the shipped demo-small space (648 rows). Besides size, scale and pattern,
bandwidth depends on the hints by fixed factors: romio_cb_write enable x1.5 and disable
x0.5, romio_ds_write enable x1.2 and disable x0.8, cb_buffer_size 1 MiB x1.3. So GOOD is
the best configuration of every workload and BAD the worst, up to 5 % noise; on independent
access romio_cb_write and cb_buffer_size cannot act (formats/hints.def), so there only
romio_ds_write's factor applies and GOOD ties with the configurations of the same
romio_ds_write.
"""

import pandas as pd
import pytest

from iotuner.models import synthetic_summary_frame
from iotuner.space import Space, config_key, load_space

EFFECTS = {
    "romio_cb_write": {"enable": 1.5, "disable": 0.5},
    "romio_ds_write": {"enable": 1.2, "disable": 0.8},
    "cb_buffer_size": {1048576: 1.3},
}
GOOD = config_key(
    {"romio_cb_write": "enable", "romio_ds_write": "enable", "cb_buffer_size": 1048576}
)
BAD = config_key(
    {"romio_cb_write": "disable", "romio_ds_write": "disable", "cb_buffer_size": 16777216}
)


@pytest.fixture(scope="session")
def space() -> Space:
    return load_space("demo-small")


@pytest.fixture(scope="session")
def summary(space: Space) -> pd.DataFrame:
    """The 648-row frame described above (seed 7); tests must not modify it."""
    return synthetic_summary_frame(space, effects=EFFECTS, noise=0.05, seed=7)


@pytest.fixture
def frame(summary: pd.DataFrame) -> pd.DataFrame:
    """A copy of the summary frame a test may change."""
    return summary.copy()
