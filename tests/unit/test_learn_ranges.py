"""train's data: rows whose numeric values a space does not list are kept when the space
admits them (a range's limits, any integer of a listed numeric parameter), and encoded."""

from pathlib import Path

import pytest

from iotuner.learn import training_data
from iotuner.measurement import Measurement, System, Workload
from iotuner.models._features import _declared, build_features
from iotuner.space import parse_space
from iotuner.store import open_store

SYSTEM = System("node01", "MPICH Version: 4.1.2", "lustre", "lustre", "/scratch")
SPACE_TEXT = """
name = "learn-ranges"
[hints.striping_unit]
range = { low = 65536, high = 4194304, step = 65536, log = true }
values = ["default", 1048576]
default = "default"
[hints.cb_nodes]
values = ["default", 1, 2, 4]
default = "default"
[hints.romio_cb_write]
values = ["automatic", "disable"]
default = "automatic"
"""


def _store(tmp_path: Path, configs: list[dict[str, str | int]]) -> str:
    path = tmp_path / "kb.sqlite"
    workload = Workload(2, 1, "collective", "write", "contiguous", 1 << 20, 0, 1.0, 1)
    with open_store(path) as store:
        run = store.add_run("r", "csv", "test", system=SYSTEM)
        store.add_measurements(
            run,
            [
                Measurement(f"m{i}", workload, config, 100.0 + i, 1.0, 2 << 20)
                for i, config in enumerate(configs)
            ],
            SYSTEM,
            "learn-ranges",
        )
    return str(path)


def test_values_the_space_does_not_list_are_learned_when_it_admits_them(tmp_path: Path) -> None:
    space_file = tmp_path / "space.toml"
    space_file.write_text(SPACE_TEXT)
    url = _store(
        tmp_path,
        [
            {},  # the default
            {"striping_unit": 131072},  # a point of the range, not listed
            {"striping_unit": 100000},  # within the range's limits, off its grid
            {"cb_nodes": 3},  # an integer a listed numeric parameter does not list
            {"striping_unit": 8388608},  # beyond the range: dropped
            {"romio_cb_write": "enable"},  # a text value not listed: dropped
            {"cb_nodes": 0},  # log-encoded parameter, not positive: dropped
        ],
    )
    with open_store(url) as store:
        data = training_data(store, space=str(space_file))
    assert len(data.frame) == 4 and data.dropped_rows == 3
    assert set(data.frame["cfg:striping_unit"].astype(str)) == {"default", "131072", "100000"}
    assert data.dropped_reasons == {
        "striping_unit not one of ['default', 1048576] or an integer in 65536..4194304 "
        "step 65536 (log) (or between its limits)": 1,
        "romio_cb_write not one of ['automatic', 'disable']": 1,
        "cb_nodes not one of ['default', 1, 2, 4] or another positive integer": 1,
    }
    # The model's encoding takes them as numbers.
    features, schema = build_features(data.frame, data.space)
    column = schema.feature_names.index("log2(cfg:striping_unit)")
    assert sorted(set(features[:, column].round(3)))[-2:] == pytest.approx([16.61, 17.0], abs=1e-2)


def test_a_range_without_listed_integers_is_encoded_as_a_number() -> None:
    space = parse_space(
        'name = "r"\n[hints.striping_factor]\nrange = { low = 1, high = 1000, log = true }\n'
        'values = ["default"]\ndefault = "default"\n',
        "r.toml",
    )
    (encoding,) = [_declared(p) for p in space.parameters]
    assert encoding.kind == "param" and encoding.log2 and encoding.flag
    assert encoding.categories == (1, 1000)
