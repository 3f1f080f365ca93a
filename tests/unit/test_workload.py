"""The workload fields are listed once (iotuner.measurement.Workload); the store's table,
the summary columns and the CSV fields follow them."""

import dataclasses

import pytest

from iotuner.ingest import CSV_FIELDS
from iotuner.measurement import WORKLOAD_COLUMNS, WORKLOAD_FIELDS, Workload
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
    assert workload.as_row() == {**row, "block": 0, "fill": 1.0, "calls_per_open": 1, "group": 35}
    assert Workload.from_row(workload.as_row()) == workload
    with pytest.raises(KeyError, match="nodes"):
        Workload.from_row({k: v for k, v in row.items() if k != "nodes"})
    with pytest.raises(ValueError, match="pattern must be one of"):
        Workload.from_row({**row, "pattern": "sideways"})
