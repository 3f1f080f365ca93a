"""iotuner.models features: shapes, encodings, the schema's JSON round trip and its errors."""

import json
import math

import numpy as np
import pandas as pd
import pytest

from iotuner.measurement import WORKLOAD_COLUMNS
from iotuner.models import (
    FeatureSchema,
    ModelError,
    build_features,
    infer_schema,
    log_target,
    synthetic_summary_frame,
)
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
]


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
    assert X.shape == (648, 17)
    assert X.dtype == np.float64
    assert schema.space == "demo-small"
    assert schema.parameters == ["romio_ds_write", "romio_cb_write", "cb_buffer_size"]
    # "default" (not set) is the declared default: 16 MiB, and romio_*=automatic.
    default_row = X[0]
    assert default_row[WORKLOAD_FEATURES.index("log2(bytes_per_rank)")] == 12.0
    assert default_row[-1] == 24.0
    assert default_row[10:16].tolist() == [1, 0, 0, 1, 0, 0]
    # Every one-hot block has exactly one 1 per row.
    assert (X[:, 10:13].sum(axis=1) == 1).all() and (X[:, 13:16].sum(axis=1) == 1).all()


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
    assert np.array_equal(schema.transform(spelled), schema.transform(frame.head(1)))
    # Integer text and floats (after CSV or SQL) read as the integers they hold.
    spelled["cfg:cb_buffer_size"] = "16777216"
    assert np.array_equal(schema.transform(spelled), schema.transform(frame.head(1)))


def test_without_a_space_parameters_come_from_the_columns(summary: pd.DataFrame) -> None:
    X, schema = build_features(summary)
    kinds = {e.source: (e.kind, e.flag) for e in schema.encodings}
    assert kinds["cfg:cb_buffer_size"] == ("param", True)
    assert kinds["cfg:romio_cb_write"] == ("onehot", False)
    assert "cfg:cb_buffer_size=default" in schema.feature_names
    assert "cfg:romio_cb_write=default" in schema.feature_names
    assert X.shape == (648, 18)
    assert schema.space == ""
    size = schema.feature_names.index("log2(cfg:cb_buffer_size)")
    flag = schema.feature_names.index("cfg:cb_buffer_size=default")
    defaults = summary["cfg:cb_buffer_size"] == "default"
    assert (X[defaults.to_numpy(), flag] == 1).all()
    # The sentinel of a "default" row is one below the smallest value seen (log2 1 MiB = 20).
    assert (X[defaults.to_numpy(), size] == 19.0).all()
    assert (X[~defaults.to_numpy(), size] == 20.0).all()


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
        assert np.array_equal(again.transform(summary), schema.transform(summary))


def test_the_schema_encodes_new_rows_in_any_column_order(summary: pd.DataFrame) -> None:
    schema = infer_schema(summary)
    shuffled = summary.sample(frac=1.0, random_state=0, axis=1).head(20)
    assert np.array_equal(schema.transform(shuffled), schema.transform(summary.head(20)))


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
    with pytest.raises(ModelError, match="version 1, got 99"):
        FeatureSchema.from_dict(data)


def test_workload_only_keeps_the_workload_columns(summary: pd.DataFrame, space: Space) -> None:
    schema = infer_schema(summary, space).workload_only()
    assert schema.sources == list(WORKLOAD_COLUMNS)
    assert schema.transform(summary).shape == (648, 10)


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
