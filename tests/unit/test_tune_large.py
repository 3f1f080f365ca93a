"""tune on a space of about 10^9 configurations: optimised over a real trained model with
bounded model evaluations, and the table it writes is valid and carries its open choices."""

import math
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from iotuner.measurement import CONFIG_PREFIX, Workload
from iotuner.models import fit_model
from iotuner.space import config_key, load_space
from iotuner.table import check_table, write_table
from iotuner.tune import (
    OPEN_ONLY_KEYS,
    OPTIMISE_KEEP,
    OPTIMISE_POOL,
    OPTIMISE_ROUND_SIZE,
    OPTIMISE_ROUNDS,
    tune,
)


def _bandwidth(workload: Workload, config: dict[str, str | int]) -> float:
    """A file system where wide stripes of about the request size help collective writes."""
    factor = config["striping_factor"]
    unit = config["striping_unit"]
    bw = 200.0
    if isinstance(factor, int):
        bw *= 1 + 0.5 * math.log2(min(factor, 16))
    if isinstance(unit, int):
        bw *= 1.6 - 0.15 * abs(math.log2(unit / max(workload.bytes_per_rank, 65536)))
    if workload.pattern == "collective" and config["romio_cb_write"] == "disable":
        bw *= 0.5
    return max(bw, 10.0)


def _frame() -> pd.DataFrame:
    """A small training frame: 60 sampled configurations of lustre-ranges, two patterns,
    three sizes, three repeats with 5 % noise."""
    space = load_space("lustre-ranges")
    rng = np.random.default_rng(1)
    configs = [space.default(), *space.sample(60, rng)]
    rows = []
    for pattern in ("collective", "independent"):
        for size in (65536, 1 << 20, 16 << 20):
            workload = Workload(2, 1, pattern, "write", "contiguous", size, 0, 1.0, 4)
            for config in configs:
                repeats = _bandwidth(workload, config) * rng.normal(1.0, 0.05, 3)
                q1, median, q3 = np.percentile(repeats, [25, 50, 75])
                row = {"system": "s", **workload.as_row(), "config": config_key(config)}
                row.update(n=3, bw_min=repeats.min(), bw_q1=q1, bw_median=median, bw_q3=q3)
                row.update(bw_max=repeats.max())
                row.update({f"{CONFIG_PREFIX}{k}": v for k, v in config.items()})
                rows.append(row)
    return pd.DataFrame(rows)


@pytest.mark.slow  # CI's
def test_tune_optimises_a_billion_configurations_within_bounded_evaluations(
    tmp_path: Path,
) -> None:
    space = load_space("lustre-ranges")
    assert space.size > 5e8
    frame = _frame()
    model = fit_model(frame, space, "random_forest", quick=True)
    result = tune(model, space, frame, seed=3)
    assert result.method == "optimised" and "more than 20,000" in result.method_reason
    cases = len({(c.nprocs, c.group, c.pattern, c.layout) for c in result.choices})
    per_case_search = 1 + OPTIMISE_POOL + OPTIMISE_ROUNDS * OPTIMISE_ROUND_SIZE
    per_case_candidates = 1 + 2 * OPTIMISE_KEEP * cases
    assert 0 < result.predicted_rows <= cases * (per_case_search + per_case_candidates)
    assert result.predicted_rows < 20_000 * cases  # far from the space's 10^9 per case
    # The model learned that wide stripes help: collective writes get striping.
    collective = [c for c in result.choices if c.pattern == "collective" and not c.kept_default]
    assert collective and all("striping_factor" in c.hints for c in collective)
    path = tmp_path / "table.jsonl"
    write_table(path, result.entries)
    checked = check_table(path)
    assert checked.refused is None and checked.dropped == []
    # Every open-time key a choice shows is in the scale's open entry.
    (opening,) = [e for e in checked.entries if e.at == "open"]
    for choice in result.choices:
        shown = {k: v for k, v in choice.hints.items() if k in OPEN_ONLY_KEYS}
        assert shown == {k: v for k, v in opening.hints.items() if k in shown}
        assert set(shown) == set(opening.hints) or choice.pattern == "independent"
