"""`iotuner tune --json`: the entries written, each case's choice with its predicted gain
and interval, and the method, as one JSON object on stdout (what it says goes to stderr)."""

import json
import subprocess
import sys
from pathlib import Path

import numpy as np

from iotuner.learn import training_data
from iotuner.measurement import Measurement, System, Workload
from iotuner.models import fit_model, save_model
from iotuner.store import open_store
from iotuner.table import read_table

MAIN = "import sys; from iotuner.cli import main; sys.exit(main())"
SYSTEM = System("node01", "MPICH Version: 4.1.2", "lustre", "lustre", "/scratch")
SPACE = """
name = "cli-ranges"
[hints.striping_factor]
range = { low = 1, high = 64, log = true }
values = ["default"]
default = "default"
[hints.romio_cb_write]
values = ["automatic", "disable"]
default = "automatic"
"""


def test_tune_json_names_the_entries_cases_and_method(tmp_path: Path) -> None:
    space_file = tmp_path / "space.toml"
    space_file.write_text(SPACE)
    rng = np.random.default_rng(0)
    measurements = []
    for size in (65536, 1 << 20):
        workload = Workload(2, 1, "collective", "write", "contiguous", size, 0, 1.0, 2)
        for factor in ("default", 1, 2, 4, 8, 16, 32):
            for cb in ("automatic", "disable"):
                bw = 100.0 * (1 if factor == "default" else 1 + np.log2(int(factor)))
                bw *= 0.5 if cb == "disable" else 1.0
                for repeat in range(3):
                    config: dict[str, str | int] = {"romio_cb_write": cb}
                    if factor != "default":
                        config["striping_factor"] = factor
                    uid = f"{size}-{factor}-{cb}-{repeat}"
                    value = bw * rng.normal(1, 0.02)
                    measurements.append(
                        Measurement(uid, workload, config, value, 1.0, 2 * size, repeat)
                    )
    db = tmp_path / "kb.sqlite"
    with open_store(db) as store:
        run = store.add_run("r", "csv", "test", system=SYSTEM)
        store.add_measurements(run, measurements, SYSTEM, "cli-ranges")
        data = training_data(store, space=str(space_file))
    save_model(fit_model(data.frame, data.space, "random_forest", quick=True), tmp_path / "m")
    table = tmp_path / "t.jsonl"
    done = subprocess.run(
        [sys.executable, "-c", MAIN, "tune", "--db", str(db), "--space", str(space_file),
         "--model", str(tmp_path / "m"), "-o", str(table), "--json"],
        capture_output=True, text=True, check=False, timeout=300,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert "tune: enumerated: space 'cli-ranges' has 130 configurations" in done.stderr
    result = json.loads(done.stdout)
    assert result["method"] == "enumerated" and result["predicted_rows"] > 0
    assert result["entries"] == [e.to_json() for e in read_table(table)]
    cases = result["cases"]
    assert {c["group"] for c in cases} and all(c["pattern"] == "collective" for c in cases)
    for case in cases:
        low, high = case["interval"]
        assert low <= case["predicted"] <= high
        assert "predicted_gain" not in case  # two raw predictions' ratio is no gain
        if case["gain"] is not None:  # the point that goes with its interval, inside it
            assert case["gain_basis"] in ("measured", "calibrated")
            gain_low, gain_high = case["gain_interval"]
            assert gain_low <= case["gain"] <= gain_high
    # Wider stripes were measured faster: some case chooses them, with a positive gain.
    assert any(
        "striping_factor" in c["hints"]
        and c["predicted"] > c["default_predicted"]
        and not c["kept_default"]
        for c in cases
    )
