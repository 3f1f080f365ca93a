"""iotuner.models features: shapes, encodings, the schema's JSON round trip and its errors."""

import json
import math
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from sklearn.tree import DecisionTreeRegressor

from iotuner.measurement import WORKLOAD_COLUMNS
from iotuner.models import (
    FeatureSchema,
    ModelError,
    build_features,
    infer_schema,
    log_target,
    synthetic_summary_frame,
)
from iotuner.models._saved import TrainedModel, load_model, new_metadata, save_model
from iotuner.space import Space, load_space

WORKLOAD_FEATURES = [
    "log2(nprocs)",
    "log2(nodes)",
    "pattern=independent",
    "op=read",
    "layout=strided",
    "log2(bytes_per_rank)",
    "log2(block)",
    "fill",
    "log2(calls_per_open)",
    "group",
    "log2(ranks_per_node)",
    "log2(bytes_per_open)",
    "files_per_rank",
    "interleaved",
    "log2(stripe_count)",
    "log2(stripe_size)",
    "log2(memory_piece)",
]
W = len(WORKLOAD_FEATURES)


def test_shape_and_names_with_a_space(summary: pd.DataFrame, space: Space) -> None:
    X, schema = build_features(summary, space)
    assert schema.feature_names == [
        *WORKLOAD_FEATURES,
        "cfg:romio_ds_write=automatic",
        "cfg:romio_ds_write=disable",
        "cfg:romio_ds_write=enable",
        "cfg:romio_cb_write=automatic",
        "cfg:romio_cb_write=disable",
        "cfg:romio_cb_write=enable",
        "log2(cfg:cb_buffer_size)",
    ]
    assert X.shape == (648, W + 7)
    assert X.dtype == np.float64
    assert schema.space == "demo-small"
    assert schema.parameters == ["romio_ds_write", "romio_cb_write", "cb_buffer_size"]
    # "default" (not set) is the declared default: 16 MiB, and romio_*=automatic.
    default_row = X[0]
    assert default_row[WORKLOAD_FEATURES.index("log2(bytes_per_rank)")] == 12.0
    assert default_row[-1] == 24.0
    assert default_row[W : W + 6].tolist() == [1, 0, 0, 1, 0, 0]
    # Every one-hot block has exactly one 1 per row.
    assert (X[:, W : W + 3].sum(axis=1) == 1).all()
    assert (X[:, W + 3 : W + 6].sum(axis=1) == 1).all()


def test_calls_per_open_is_a_feature_and_reads_as_one_when_absent(
    frame: pd.DataFrame, space: Space
) -> None:
    schema = infer_schema(frame, space)
    column = schema.feature_names.index("log2(calls_per_open)")
    many = frame.head(2).assign(calls_per_open=[8, 1024])
    assert schema.transform(many)[:, column].tolist() == [3.0, 10.0]
    # A frame from before the field (no column) is one call per open, like Workload.
    old = frame.head(2).drop(columns=["calls_per_open"])
    assert schema.transform(old)[:, column].tolist() == [0.0, 0.0]
    assert infer_schema(old, space).feature_names == schema.feature_names


def test_default_and_its_declared_value_encode_alike(frame: pd.DataFrame, space: Space) -> None:
    schema = infer_schema(frame, space)
    spelled = frame.head(1).copy()
    spelled["cfg:cb_buffer_size"] = 16777216
    spelled["cfg:romio_cb_write"] = "automatic"
    spelled["cfg:romio_ds_write"] = "automatic"
    assert np.array_equal(
        schema.transform(spelled), schema.transform(frame.head(1)), equal_nan=True
    )
    # Integer text and floats (after CSV or SQL) read as the integers they hold.
    spelled["cfg:cb_buffer_size"] = "16777216"
    assert np.array_equal(
        schema.transform(spelled), schema.transform(frame.head(1)), equal_nan=True
    )


def test_without_a_space_parameters_come_from_the_columns(summary: pd.DataFrame) -> None:
    X, schema = build_features(summary)
    kinds = {e.source: (e.kind, e.flag) for e in schema.encodings}
    assert kinds["cfg:cb_buffer_size"] == ("param", True)
    assert kinds["cfg:romio_cb_write"] == ("onehot", False)
    assert "cfg:cb_buffer_size=default" in schema.feature_names
    assert "cfg:romio_cb_write=default" in schema.feature_names
    assert X.shape == (648, W + 8)
    assert schema.space == ""
    size = schema.feature_names.index("log2(cfg:cb_buffer_size)")
    flag = schema.feature_names.index("cfg:cb_buffer_size=default")
    defaults = summary["cfg:cb_buffer_size"] == "default"
    assert (X[defaults.to_numpy(), flag] == 1).all()
    # The sentinel of a "default" row is one below the smallest value seen (log2 1 MiB = 20).
    assert (X[defaults.to_numpy(), size] == 19.0).all()
    # cb_buffer_size acts only inside collective calls (formats/hints.def): on an
    # independent row a set value is encoded as not set.
    collective = (summary["pattern"] == "collective").to_numpy()
    assert (X[~defaults.to_numpy() & collective, size] == 20.0).all()
    assert (X[~defaults.to_numpy() & ~collective, flag] == 1).all()


def test_integers_with_a_default_word_in_the_space() -> None:
    space = load_space("thesis-lustre")
    frame = synthetic_summary_frame(space, sizes=(1 << 20,), nprocs=(4,), patterns=("collective",))
    X, schema = build_features(frame, space)
    names = schema.feature_names
    assert "log2(cfg:striping_factor)" in names and "cfg:striping_factor=default" in names
    factor = X[:, names.index("log2(cfg:striping_factor)")]
    flagged = X[:, names.index("cfg:striping_factor=default")] == 1
    assert set(factor[~flagged]) == {0.0, 1.0, 2.0, 3.0, 4.0}
    assert set(factor[flagged]) == {-1.0}


def test_schema_round_trips_through_json(summary: pd.DataFrame, space: Space) -> None:
    for chosen in (space, None):
        schema = infer_schema(summary, chosen)
        text = schema.to_json()
        json.loads(text)
        again = FeatureSchema.from_json(text)
        assert again == schema
        assert np.array_equal(again.transform(summary), schema.transform(summary), equal_nan=True)


def test_the_schema_encodes_new_rows_in_any_column_order(summary: pd.DataFrame) -> None:
    schema = infer_schema(summary)
    shuffled = summary.sample(frac=1.0, random_state=0, axis=1).head(20)
    assert np.array_equal(
        schema.transform(shuffled), schema.transform(summary.head(20)), equal_nan=True
    )


@pytest.mark.parametrize(
    ("column", "value", "words"),
    [
        ("cfg:romio_cb_write", "sometimes", "'sometimes'"),
        ("pattern", "scattered", "'scattered'"),
        ("cfg:cb_buffer_size", "huge", "'huge'"),
    ],
)
def test_unknown_values_are_errors(
    frame: pd.DataFrame, space: Space, column: str, value: str, words: str
) -> None:
    schema = infer_schema(frame, space)
    frame[column] = frame[column].astype(object)
    frame.loc[frame.index[:3], column] = value
    with pytest.raises(ModelError, match=words) as info:
        schema.transform(frame)
    assert str(info.value).startswith(column)


def test_a_default_cell_unknown_to_an_inferred_integer_parameter(frame: pd.DataFrame) -> None:
    known = frame[frame["cfg:cb_buffer_size"] != "default"]
    schema = infer_schema(known)
    with pytest.raises(ModelError, match="expected integers"):
        schema.transform(frame)


def test_missing_and_mismatched_columns(frame: pd.DataFrame, space: Space) -> None:
    schema = infer_schema(frame, space)
    with pytest.raises(ModelError, match="cfg:cb_buffer_size"):
        schema.transform(frame.drop(columns=["cfg:cb_buffer_size"]))
    with pytest.raises(ModelError, match="missing cfg:cb_buffer_size"):
        infer_schema(frame.drop(columns=["cfg:cb_buffer_size"]), space)
    with pytest.raises(ModelError, match="not in the space cfg:striping_unit"):
        infer_schema(frame.assign(**{"cfg:striping_unit": 1048576}), space)
    # A parameter of another space that is never set is no obstacle.
    other = infer_schema(frame.assign(**{"cfg:striping_unit": "default"}), space)
    assert other == schema
    with pytest.raises(ModelError, match="nprocs"):
        infer_schema(frame.drop(columns=["nprocs"]))


def test_a_schema_of_another_version_is_refused(summary: pd.DataFrame) -> None:
    data = infer_schema(summary).to_dict()
    data["version"] = 99
    with pytest.raises(ModelError, match="version 1 or 2, got 99"):
        FeatureSchema.from_dict(data)


def test_workload_only_keeps_the_workload_columns(summary: pd.DataFrame, space: Space) -> None:
    schema = infer_schema(summary, space).workload_only()
    newer = ["ranks_per_node", "bytes_per_open", "files_per_rank", "interleaved"]
    newer += ["stripe_count", "stripe_size", "memory_piece"]
    # memory_block is read through memory_piece (the call's bytes where memory is contiguous).
    skipped = ("files", "program", "memory_block", *newer)
    older = [c for c in WORKLOAD_COLUMNS if c not in skipped]
    assert schema.sources == [*older, *newer]
    assert schema.transform(summary).shape == (648, W)


def test_log_target(frame: pd.DataFrame) -> None:
    y = log_target(frame)
    assert y.shape == (648,)
    assert y[0] == pytest.approx(math.log(frame["bw_min"].iloc[0]))
    assert np.allclose(log_target(frame, "bw_median"), np.log(frame["bw_median"]))
    with pytest.raises(ModelError, match="one of"):
        log_target(frame, "seconds")
    frame.loc[frame.index[0], "bw_min"] = 0.0
    with pytest.raises(ModelError, match="1 row"):
        log_target(frame)


def test_the_fields_that_tell_problems_apart(frame: pd.DataFrame, space: Space) -> None:
    schema = infer_schema(frame, space)
    rows = frame.head(3).assign(
        nprocs=[8, 8, 6],
        nodes=[2, 2, 4],
        bytes_per_rank=[4096, 4096, 1 << 20],
        calls_per_open=[1 << 16, 1, 1],
        ranks_per_node=[4, None, None],
        files=[1, 8, None],
        interleaved=[True, False, None],
        stripe_count=[4, None, None],
        stripe_size=[1 << 20, None, None],
        program=["btio", None, "iokernel"],
    )
    X = schema.transform(rows)

    def feature(name: str) -> list[float]:
        return X[:, schema.feature_names.index(name)].tolist()

    # ranks_per_node: given, else nprocs / nodes rounded up (never unknown).
    assert feature("log2(ranks_per_node)") == [2.0, 2.0, 1.0]
    # The volume one rank moves between open and close: 256 MiB in 4 KiB calls vs 4 KiB.
    assert feature("log2(bytes_per_open)") == [28.0, 12.0, 20.0]
    # Unknown stays unknown (NaN), never 0 or False.
    np.testing.assert_equal(feature("files_per_rank"), [0.125, 1.0, np.nan])
    np.testing.assert_equal(feature("interleaved"), [1.0, 0.0, np.nan])
    np.testing.assert_equal(feature("log2(stripe_count)"), [2.0, np.nan, np.nan])
    np.testing.assert_equal(feature("log2(stripe_size)"), [20.0, np.nan, np.nan])
    assert not any("program" in name for name in schema.feature_names)


def test_a_frame_without_the_newer_columns_reads_as_unknown(
    frame: pd.DataFrame, space: Space
) -> None:
    schema = infer_schema(frame, space)
    newer = ["ranks_per_node", "files", "interleaved", "stripe_count", "stripe_size", "program"]
    old = frame.head(4).drop(columns=newer)
    assert infer_schema(old, space) == schema
    np.testing.assert_equal(schema.transform(old), schema.transform(frame.head(4)))
    unknown = [schema.feature_names.index(n) for n in ("interleaved", "log2(stripe_count)")]
    assert np.isnan(schema.transform(old)[:, unknown]).all()


@pytest.mark.parametrize(
    ("column", "value", "words"),
    [("interleaved", "yes", "interleaved must be a number or empty"), ("stripe_size", 0, "> 0")],
)
def test_bad_values_of_the_newer_fields(
    frame: pd.DataFrame, space: Space, column: str, value: object, words: str
) -> None:
    schema = infer_schema(frame, space)
    bad = frame.head(2).astype({column: object})
    bad.loc[bad.index[0], column] = value
    with pytest.raises(ModelError, match=words):
        schema.transform(bad)


def test_a_model_saved_with_a_version_1_schema_loads_and_predicts_as_before(
    frame: pd.DataFrame, space: Space, tmp_path: Path
) -> None:
    current = infer_schema(frame, space)
    data = current.to_dict()
    # Version 1 had the first ten workload encodings, then the parameters.
    newer = {"ranks_per_node", "bytes_per_open", "files_per_rank", "interleaved"}
    newer |= {"stripe_count", "stripe_size", "memory_piece"}
    data["encodings"] = [e for e in data["encodings"] if e["source"] not in newer]
    data["version"] = 1
    del data["features"]
    v1 = FeatureSchema.from_dict(data)
    assert v1.version == 1 and len(v1.feature_names) == 17
    # It encodes exactly as version 1 did: the version-2 matrix without the new features.
    kept = [i for i, n in enumerate(current.feature_names) if n in v1.feature_names]
    X = v1.transform(frame)
    np.testing.assert_array_equal(X, current.transform(frame)[:, kept])
    estimator = DecisionTreeRegressor(random_state=0).fit(X, log_target(frame))
    metadata = new_metadata(
        estimator=estimator,
        model="decision_tree",
        description="a tree",
        target="bw_min",
        schema=v1,
        space=space.name,
        systems=[],
        training_rows=len(frame),
        residuals=None,
    )
    save_model(TrainedModel(estimator, v1, metadata), tmp_path / "model")
    loaded = load_model(tmp_path / "model")
    assert loaded.schema == v1 and loaded.schema.to_dict()["version"] == 1
    expected = np.exp(estimator.predict(X))
    np.testing.assert_allclose(loaded.predict(frame), expected)
    # Rows with the newer fields known (a new knowledge base) predict as before too.
    known = frame.assign(ranks_per_node=1, files=1, interleaved=False, stripe_count=2)
    np.testing.assert_allclose(loaded.predict(known), expected)
