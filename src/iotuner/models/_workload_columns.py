"""The workload columns of a summary frame, completed: a frame made before a field existed
(old knowledge bases, CSV tables, frames made by hand) reads as that field's default or as
unknown there, and the derived columns the features read (DERIVED_COLUMNS) are computed
from the others (see iotuner.models._features for the features made of them).
"""

from typing import Any

import numpy as np
import pandas as pd

__all__ = ["DERIVED_COLUMNS", "complete_workload_columns", "ranks_per_node"]

DERIVED_COLUMNS = ("bytes_per_open", "files_per_rank", "memory_piece")
"""Columns the schema computes from the workload columns (complete_workload_columns)."""

_UNKNOWN_WHEN_ABSENT = (
    "ranks_per_node",
    "files",
    "interleaved",
    "stripe_count",
    "stripe_size",
    "memory_block",
)


def complete_workload_columns(frame: pd.DataFrame) -> pd.DataFrame:
    """`frame` with every workload column (WORKLOAD_COLUMNS) and DERIVED_COLUMNS.

    A frame made before a field existed reads as its default there: calls_per_open 1 (as
    iotuner.measurement.Workload reads it), the fields of issue 10 (ranks_per_node, files,
    interleaved, striping, program) unknown (NaN, None). Derived columns present already
    are kept; `frame` itself is not changed.
    """
    added: dict[str, Any] = {}
    if "calls_per_open" not in frame.columns:
        added["calls_per_open"] = 1
    for name in _UNKNOWN_WHEN_ABSENT:
        if name not in frame.columns:
            added[name] = np.nan
    if "program" not in frame.columns:
        added["program"] = None
    if added:
        frame = frame.assign(**added)
    derived: dict[str, Any] = {}
    if "bytes_per_open" not in frame.columns and {"bytes_per_rank", "calls_per_open"} <= set(
        frame.columns
    ):
        derived["bytes_per_open"] = _numbers(frame["bytes_per_rank"]) * _numbers(
            frame["calls_per_open"]
        )
    if "files_per_rank" not in frame.columns and "nprocs" in frame.columns:
        derived["files_per_rank"] = _numbers(frame["files"]) / _numbers(frame["nprocs"])
    if "memory_piece" not in frame.columns and "bytes_per_rank" in frame.columns:
        # One piece of memory a call moves: the whole call where memory is contiguous (0).
        block = _numbers(frame["memory_block"])
        derived["memory_piece"] = block.where(block != 0, _numbers(frame["bytes_per_rank"]))
    return frame.assign(**derived) if derived else frame


def _numbers(column: pd.Series) -> pd.Series:
    """A column as floats, NaN where a cell is empty or not a number."""
    return pd.to_numeric(column, errors="coerce").astype(float)


def ranks_per_node(frame: pd.DataFrame) -> pd.Series:
    """ranks_per_node where known, else nprocs / nodes rounded up (ranks spread evenly)."""
    given = _numbers(frame["ranks_per_node"])
    even = np.ceil(_numbers(frame["nprocs"]) / _numbers(frame["nodes"]))
    return given.where(given.notna(), even)
