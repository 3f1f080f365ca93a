"""train's error when the knowledge base holds rows but none the space covers: how many it
holds, why none were used, and what to do (not "run `iotuner bench` first")."""

from pathlib import Path

import pytest

from iotuner.errors import ConfigError
from iotuner.learn import training_data
from iotuner.measurement import Measurement, System, Workload
from iotuner.store import open_store

SYSTEM = System("node01", "MPICH Version: 4.1.2", "lustre", "lustre", "/scratch")
SPACE_TEXT = """
name = "cb-only"
[hints.romio_cb_write]
values = ["automatic", "disable"]
default = "automatic"
"""


def test_rows_the_space_does_not_cover_are_counted_and_explained(tmp_path: Path) -> None:
    space_file = tmp_path / "space.toml"
    space_file.write_text(SPACE_TEXT)
    configs: list[dict[str, str | int]] = [{"striping_factor": 4 * (i + 1)} for i in range(3)]
    configs += [{"romio_cb_write": "enable"}, {"romio_cb_write": "enable", "cb_nodes": 2}]
    workload = Workload(2, 1, "collective", "write", "contiguous", 1 << 20, 0, 1.0, 1)
    path = tmp_path / "kb.sqlite"
    with open_store(path) as store:
        run = store.add_run("r", "csv", "test", system=SYSTEM)
        measurements = [
            Measurement(f"m{i}", workload, config, 100.0 + i, 1.0, 2 << 20)
            for i, config in enumerate(configs)
        ]
        store.add_measurements(run, measurements, SYSTEM, "ingested")
        with pytest.raises(ConfigError) as raised:
            training_data(store, space=str(space_file))
        message = str(raised.value)
        assert "run `iotuner bench` first" not in message
        assert f"{store.url} holds 5 rows (5 measurements) on system" in message
        assert "none of them is usable for space 'cb-only'" in message
        assert "3 set striping_factor, which space 'cb-only' lacks" in message
        assert "1 set cb_nodes, which space 'cb-only' lacks" in message
        assert "2 romio_cb_write not one of ['automatic', 'disable']" in message
        assert "--space" in message and "iotuner bench --space" in message
        with pytest.raises(ConfigError, match=r"holds no measurements of kind 'bench' on system"):
            training_data(store, space=str(space_file), kind="bench")
