"""Measurements read as frames: the columns of Store.measurements(), the query that reads
them, the repeats summarised (Store.summary()) and the cfg:<parameter> columns."""

import json
from collections.abc import Mapping, Sequence
from typing import Any, cast

import numpy as np
import pandas as pd
import sqlalchemy as sa

from iotuner.measurement import CONFIG_PREFIX, NOT_SET, SUMMARY_COLUMNS, WORKLOAD_COLUMNS, System
from iotuner.store import _schema as schema

__all__ = [
    "MEASUREMENT_COLUMNS",
    "measurement_frame",
    "measurement_query",
    "summarize_repeats",
    "with_config_columns",
]

MEASUREMENT_COLUMNS = (
    "system",
    *WORKLOAD_COLUMNS,
    "config",
    "bandwidth",
    "seconds",
    "bytes",
    "repeat",
    "kind",
    "space",
    "run",
    "uid",
)
"""The fixed columns of Store.measurements(); the cfg:<parameter> columns follow.
`system` is the fingerprint, `kind` the run's kind, `run` the run's uid."""


def measurement_query(system: System | str | None, kind: str | None) -> sa.Select[Any]:
    """The query of the MEASUREMENT_COLUMNS and each row's configuration parameters, in
    the order the measurements were added; `system` and `kind` select (None: all)."""
    m, r, s, c = schema.measurements, schema.runs, schema.systems, schema.configurations
    query = (
        sa.select(
            s.c.fingerprint.label("system"),
            *(m.c[name] for name in WORKLOAD_COLUMNS),
            c.c.key.label("config"),
            m.c.bandwidth,
            m.c.seconds,
            m.c.bytes,
            m.c.repeat,
            r.c.kind,
            m.c.space,
            r.c.uid.label("run"),
            m.c.uid,
            c.c.params,
        )
        .select_from(
            m.join(r, m.c.run_id == r.c.id)
            .join(s, m.c.system_id == s.c.id)
            .join(c, m.c.configuration_id == c.c.id)
        )
        .order_by(m.c.id)
    )
    if system is not None:
        fingerprint = system.fingerprint if isinstance(system, System) else system
        query = query.where(s.c.fingerprint == fingerprint)
    if kind is not None:
        query = query.where(r.c.kind == kind)
    return query


def measurement_frame(rows: Sequence[Any]) -> tuple[pd.DataFrame, dict[str, dict[str, Any]]]:
    """The MEASUREMENT_COLUMNS frame of measurement_query's rows and the parameters of each
    configuration in it."""
    frame = pd.DataFrame([tuple(row[:-1]) for row in rows], columns=list(MEASUREMENT_COLUMNS))
    params = {row.config: json.loads(row.params) for row in rows}
    return frame, params


def summarize_repeats(measurements: pd.DataFrame) -> pd.DataFrame:
    """The repeats of each (system, workload, config) of a measurement frame (one row per
    measurement: MEASUREMENT_COLUMNS) summarised: SUMMARY_COLUMNS (n and the five-number
    summary of the bandwidths, quartiles by numpy's linear percentile), then the frame's
    cfg:<parameter> columns, which `config` determines. Sorted by system, workload and
    configuration."""
    keys = ["system", *WORKLOAD_COLUMNS, "config"]
    carried = [c for c in measurements.columns if c.startswith(CONFIG_PREFIX)]
    bandwidth = measurements["bandwidth"].to_numpy(dtype=float)
    cells = [measurements[c].to_numpy(dtype=object) for c in carried]
    rows = []
    for key, positions in measurements.groupby(keys, sort=False, dropna=False).indices.items():
        values = bandwidth[positions]
        five = np.percentile(values, [0, 25, 50, 75, 100], method="linear")
        rows.append(
            (
                *cast(tuple[Any, ...], key),
                len(values),
                *(float(v) for v in five),
                *(column[positions[0]] for column in cells),
            )
        )
    summary = pd.DataFrame(rows, columns=[*SUMMARY_COLUMNS, *carried])
    if not summary.empty:
        summary = summary.sort_values(keys, kind="stable", ignore_index=True)
    return summary


def with_config_columns(
    frame: pd.DataFrame, params: Mapping[str, Mapping[str, Any]]
) -> pd.DataFrame:
    """`frame` with a cfg:<name> column per parameter name (sorted), from its `config`
    column: the configuration's value, or "default" where it does not set the parameter."""
    names = sorted({name for config in params.values() for name in config})
    columns = {
        CONFIG_PREFIX + name: pd.Series(
            [params.get(key, {}).get(name, NOT_SET) for key in frame["config"]],
            index=frame.index,
            dtype=object,
        )
        for name in names
    }
    return pd.concat([frame, pd.DataFrame(columns, index=frame.index)], axis=1)
