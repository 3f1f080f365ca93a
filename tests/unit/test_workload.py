"""The workload fields are listed once (iotuner.measurement.Workload); the store's table,
the summary columns and the CSV fields follow them."""

import dataclasses
import json

import numpy as np
import pytest

from iotuner.ingest import CSV_FIELDS
from iotuner.measurement import (
    OPTIONAL_WORKLOAD_FIELDS,
    WORKLOAD_COLUMNS,
    WORKLOAD_FIELDS,
    Workload,
)
from iotuner.store._schema import measurements


def test_every_workload_field_is_a_column_everywhere() -> None:
    names = [f.name for f in dataclasses.fields(Workload)]
    assert [f.name for f in WORKLOAD_FIELDS] == names
    assert (*names, "group") == WORKLOAD_COLUMNS
    assert set(WORKLOAD_COLUMNS) <= set(measurements.c.keys())
    assert set(names) <= set(CSV_FIELDS) and "group" not in CSV_FIELDS
    for f in WORKLOAD_FIELDS:
        assert measurements.c[f.name].comment == f.metadata["doc"]


def test_a_workload_from_a_row() -> None:
    row = {
        "nprocs": 4,
        "nodes": 1,
        "pattern": "collective",
        "op": "read",
        "layout": "contiguous",
        "bytes_per_rank": 1 << 20,
        "group": 99,  # follows from the size: ignored
    }
    workload = Workload.from_row(row)
    assert (workload.block, workload.fill, workload.calls_per_open) == (0, 1.0, 1)
    unknown = dict.fromkeys(OPTIONAL_WORKLOAD_FIELDS)
    assert workload.as_row() == {
        **row,
        "block": 0,
        "fill": 1.0,
        "calls_per_open": 1,
        **unknown,
        "group": 35,
    }
    assert Workload.from_row(workload.as_row()) == workload
    with pytest.raises(KeyError, match="nodes"):
        Workload.from_row({k: v for k, v in row.items() if k != "nodes"})
    with pytest.raises(ValueError, match="pattern must be one of"):
        Workload.from_row({**row, "pattern": "sideways"})


def test_the_fields_that_tell_problems_apart_are_unknown_unless_given() -> None:
    base = Workload(4, 2, "collective", "write", "strided", 4096, block=4096, fill=0.5)
    assert all(getattr(base, name) is None for name in OPTIONAL_WORKLOAD_FIELDS)
    known = dataclasses.replace(
        base,
        ranks_per_node=2,
        files=1,
        interleaved=True,
        stripe_count=4,
        stripe_size=1 << 20,
        program="btio",
    )
    assert Workload.from_row(known.as_row()) == known
    # A frame's NULL cells (None or NaN) are unknown; a frame's integer column with NULLs
    # holds floats, and numpy scalars and 0/1 booleans come from the knowledge base.
    nan = float("nan")
    frame_row = {**known.as_row(), "ranks_per_node": 2.0, "files": nan, "interleaved": 1}
    frame_row |= {"stripe_count": np.int64(4), "stripe_size": None, "program": nan}
    again = Workload.from_row(frame_row)
    assert again == dataclasses.replace(known, files=None, stripe_size=None, program=None)
    assert type(again.ranks_per_node) is int and again.interleaved is True
    assert json.loads(json.dumps(again.as_row()))["stripe_count"] == 4


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"files": 0}, "files must be an integer >= 1"),
        ({"stripe_count": 2.5}, "stripe_count must be an integer >= 1"),
        ({"stripe_size": "1M"}, "stripe_size must be an integer >= 1"),
        ({"ranks_per_node": True}, "ranks_per_node must be an integer >= 1"),
        ({"ranks_per_node": 8}, "ranks_per_node must be at most nprocs"),
        ({"ranks_per_node": 1}, "times nodes"),
        ({"interleaved": "yes"}, "interleaved must be true, false or empty"),
        ({"program": ""}, "program must be a non-empty word"),
        ({"program": "two words"}, "program must be a non-empty word"),
    ],
)
def test_bad_values_of_the_new_fields_are_refused(change: dict[str, object], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        Workload(4, 2, "collective", "write", "contiguous", 4096, **change)  # type: ignore[arg-type]
