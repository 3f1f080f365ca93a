"""The learner's use of `train`'s saved model (issue 31: a learn step takes at most 2 s):
the predictions of a saved model for a workload are kept next to the table, so the next
run's step reads them instead of loading the estimator (whose import of scikit-learn and
SciPy took 2-3 s of a 3.5 s step)."""

import json
import subprocess
import sys
from pathlib import Path

import numpy as np
import pandas as pd

from iotuner.measurement import Workload
from iotuner.models import fit_model, load_model, save_model
from iotuner.online.evidence import SavedModel
from iotuner.space import Space
from iotuner.tune import prediction_rows

WORKLOAD = Workload(nprocs=2, nodes=1, pattern="collective", op="write", layout="contiguous",
                    bytes_per_rank=1 << 20)  # fmt: skip


def test_a_saved_model_s_predictions_are_kept_and_read_without_scikit_learn(
    frame: pd.DataFrame, space: Space, tmp_path: Path
) -> None:
    save_model(fit_model(frame, space, "random_forest", quick=True), tmp_path / "model")
    cache = tmp_path / "table.jsonl.predictions.json"
    configs = list(space.configurations())[:5]
    rows = prediction_rows([WORKLOAD], configs)
    first = SavedModel(tmp_path / "model", cache).predict_interval(rows)
    expected = load_model(tmp_path / "model").predict_interval(rows)
    for got, want in zip(first, expected, strict=True):
        np.testing.assert_allclose(got, want)
    assert len(json.loads(cache.read_text())) == 1
    # The next step, in a fresh process: the same figures, and scikit-learn never imported.
    script = f"""
import json, sys
from pathlib import Path
from iotuner.online.evidence import SavedModel
from iotuner.space import load_space
from iotuner.tune import prediction_rows
from iotuner.measurement import Workload
WORKLOAD = Workload(nprocs=2, nodes=1, pattern="collective", op="write", layout="contiguous",
                    bytes_per_rank=1 << 20)
configs = list(load_space({space.name!r}).configurations())[:5]
saved = SavedModel(Path({str(tmp_path / "model")!r}), Path({str(cache)!r}))
median, low, high = saved.predict_interval(prediction_rows([WORKLOAD], configs))
assert saved.calibration is None or saved.calibration.workloads >= 0
print(json.dumps([[list(median), list(low), list(high)], "sklearn" in sys.modules]))
"""
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                          check=True, cwd=Path(__file__).parents[2])  # fmt: skip
    figures, imported = json.loads(done.stdout)
    assert imported is False, done.stdout
    np.testing.assert_allclose(figures, [list(a) for a in first])
    # Another estimator (retrained) is another key: its predictions are not the old ones.
    save_model(fit_model(frame.iloc[::2], space, "random_forest", quick=True), tmp_path / "model")
    SavedModel(tmp_path / "model", cache).predict_interval(rows)
    assert len(json.loads(cache.read_text())) == 2
