"""The Store contract, run against SQLite and PostgreSQL alike."""

import math

import numpy as np
import pandas as pd
import pytest
import sqlalchemy as sa

from iotuner.measurement import SUMMARY_COLUMNS, WORKLOAD_COLUMNS, Workload
from iotuner.store import MEASUREMENT_COLUMNS, SCHEMA_VERSION, Store, StoreError, open_store

from .conftest import SYSTEM_A, SYSTEM_B, measurement


def _run(store: Store, uid: str = "run1", kind: str = "bench") -> int:
    return store.add_run(uid, kind, "test", program="iokernel", system=SYSTEM_A, meta={"a": 1})


def test_reopening_keeps_what_was_stored(store_url: str) -> None:
    with open_store(store_url) as store:
        run = _run(store)
        assert store.add_measurements(run, [measurement("m1", 10.0)], SYSTEM_A, "sp") == 1
    with open_store(store_url) as store:
        assert store.counts() == {
            "systems": 1,
            "runs": 1,
            "configurations": 1,
            "measurements": 1,
        }
        assert store.has_measurement("m1")


def test_a_newer_schema_is_refused(store_url: str) -> None:
    with open_store(store_url) as store:
        engine = sa.create_engine(store.url)
    with engine.begin() as conn:
        conn.execute(sa.text("UPDATE schema_version SET version = 99"))
    engine.dispose()
    with pytest.raises(
        StoreError, match=f"schema version 99; this iotuner reads version {SCHEMA_VERSION}"
    ):
        open_store(store_url)


def test_add_run_gives_the_known_id_for_a_known_uid(store: Store) -> None:
    first = _run(store)
    assert _run(store) == first
    assert _run(store, "run2") != first
    assert store.run_id("run1") == first
    assert store.run_id("nope") is None
    assert store.counts()["runs"] == 2


def test_add_run_names_the_kinds_it_accepts(store: Store) -> None:
    with pytest.raises(
        StoreError, match="run kind must be one of bench, trace, csv, search, got 'ior'"
    ):
        store.add_run("r", "ior", "test")


def test_known_uids_are_skipped(store: Store) -> None:
    run = _run(store)
    first = [measurement(f"m{i}", 10.0 + i) for i in range(3)]
    assert store.add_measurements(run, first, SYSTEM_A, "sp") == 3
    again = [*first, measurement("m3", 20.0), measurement("m3", 21.0)]
    assert store.add_measurements(run, again, SYSTEM_A, "sp") == 1
    assert store.counts()["measurements"] == 4
    assert store.has_measurement("m3") and not store.has_measurement("m4")
    assert store.known_uids(["m0", "m9"]) == {"m0"}


def test_measurement_uids_by_prefix_take_like_characters_literally(store: Store) -> None:
    run = _run(store)
    uids = ["s_1:a", "s_1:b", "sx1:c", "s%1:d", "t:e"]
    store.add_measurements(run, [measurement(u, 1.0) for u in uids], SYSTEM_A, "sp")
    assert store.measurement_uids("s_1:") == {"s_1:a", "s_1:b"}
    assert store.measurement_uids("s%") == {"s%1:d"}
    assert store.measurement_uids() == set(uids)


def test_summary_is_the_five_number_summary_of_the_repeats(store: Store) -> None:
    run = _run(store)
    four = [1.0, 4.0, 2.0, 3.0]  # numpy linear quartiles: 1.75, 2.5, 3.25
    five = [50.0, 10.0, 40.0, 20.0, 30.0]
    ms = [measurement(f"a{i}", bw, {"cb_nodes": 2}, repeat=i) for i, bw in enumerate(four)]
    ms += [measurement(f"b{i}", bw, repeat=i) for i, bw in enumerate(five)]
    store.add_measurements(run, ms, SYSTEM_A, "sp")
    summary = store.summary()
    assert list(summary.columns) == [*SUMMARY_COLUMNS, "cfg:cb_nodes"]
    assert len(summary) == 2
    by_config = summary.set_index("config")
    a = by_config.loc["cb_nodes=2"]
    assert (a["n"], a["bw_min"], a["bw_q1"], a["bw_median"], a["bw_q3"], a["bw_max"]) == (
        4,
        1.0,
        1.75,
        2.5,
        3.25,
        4.0,
    )
    b = by_config.loc["default"]
    assert (b["n"], b["bw_min"], b["bw_q1"], b["bw_median"], b["bw_q3"], b["bw_max"]) == (
        5,
        10.0,
        20.0,
        30.0,
        40.0,
        50.0,
    )
    assert a["cfg:cb_nodes"] == 2 and b["cfg:cb_nodes"] == "default"
    assert a["system"] == SYSTEM_A.fingerprint
    # Unknown fields (NULL) come back empty (None or NaN) and read as unknown again.
    assert Workload.from_row(a[list(WORKLOAD_COLUMNS)].to_dict()) == ms[0].workload


def test_summary_matches_numpy_on_uneven_data(store: Store) -> None:
    run = _run(store)
    values = [123.4, 98.7, 150.25, 101.0, 99.9, 250.5, 77.7]
    store.add_measurements(
        run, [measurement(f"m{i}", v) for i, v in enumerate(values)], SYSTEM_A, "sp"
    )
    row = store.summary().iloc[0]
    expected = np.percentile(values, [0, 25, 50, 75, 100])
    got = [row[c] for c in ("bw_min", "bw_q1", "bw_median", "bw_q3", "bw_max")]
    assert got == [float(v) for v in expected]
    assert row["n"] == len(values)


def test_systems_are_kept_apart(store: Store) -> None:
    run = _run(store)
    store.add_measurements(run, [measurement("a1", 10.0), measurement("a2", 20.0)], SYSTEM_A, "sp")
    store.add_measurements(run, [measurement("b1", 500.0)], SYSTEM_B, "sp")
    summary = store.summary()
    assert len(summary) == 2
    assert set(summary["system"]) == {SYSTEM_A.fingerprint, SYSTEM_B.fingerprint}
    only_b = store.summary(system=SYSTEM_B)
    assert (only_b["n"].tolist(), only_b["bw_max"].tolist()) == ([1], [500.0])
    assert store.summary(system=SYSTEM_A.fingerprint)["n"].tolist() == [2]
    assert sorted(store.systems(), key=lambda s: s.host) == [SYSTEM_B, SYSTEM_A]
    assert store.measurement_counts() == {
        (SYSTEM_A.fingerprint, "bench"): 2,
        (SYSTEM_B.fingerprint, "bench"): 1,
    }


def test_measurements_frame_and_config_columns(store: Store) -> None:
    run = _run(store)
    store.add_measurements(
        run,
        [
            measurement("m1", 1.0),
            measurement("m2", 2.0, {"cb_nodes": "2"}),
            measurement("m3", 3.0, {"cb_nodes": 2, "romio_cb_write": "enable"}),
        ],
        SYSTEM_A,
        "romio-ufs",
    )
    frame = store.measurements()
    assert list(frame.columns) == [*MEASUREMENT_COLUMNS, "cfg:cb_nodes", "cfg:romio_cb_write"]
    assert frame["uid"].tolist() == ["m1", "m2", "m3"]
    assert frame["config"].tolist() == [
        "default",
        "cb_nodes=2",
        "cb_nodes=2,romio_cb_write=enable",
    ]
    # "2" and 2 are one configuration, stored as the integer.
    assert frame["cfg:cb_nodes"].tolist() == ["default", 2, 2]
    assert frame["cfg:romio_cb_write"].tolist() == ["default", "default", "enable"]
    assert set(frame["kind"]) == {"bench"} and set(frame["space"]) == {"romio-ufs"}
    assert store.counts()["configurations"] == 3


def test_kind_selects_runs(store: Store) -> None:
    bench = _run(store, "b", "bench")
    trace = _run(store, "t", "trace")
    store.add_measurements(bench, [measurement("b1", 1.0)], SYSTEM_A, "sp")
    store.add_measurements(trace, [measurement("t1", 2.0), measurement("t2", 4.0)], SYSTEM_A, "")
    assert store.summary(kind="trace")["n"].tolist() == [2]
    assert store.summary()["n"].tolist() == [3]
    assert store.measurements(kind="bench")["uid"].tolist() == ["b1"]


def test_an_empty_store_gives_empty_frames(store: Store) -> None:
    summary = store.summary()
    assert summary.empty and list(summary.columns) == list(SUMMARY_COLUMNS)
    assert list(store.measurements().columns) == list(MEASUREMENT_COLUMNS)
    assert store.systems() == []


def test_a_transaction_is_all_or_nothing(store: Store) -> None:
    with pytest.raises(RuntimeError), store.transaction():
        run = _run(store)
        store.add_measurements(run, [measurement("m1", 1.0)], SYSTEM_A, "sp")
        raise RuntimeError("stop")
    assert store.counts() == {"systems": 0, "runs": 0, "configurations": 0, "measurements": 0}


def test_a_bad_measurement_adds_none_of_its_batch(store: Store) -> None:
    run = _run(store)
    good, bad = measurement("m1", 1.0), measurement("m2", 1.0)
    bad = type(bad)(**{**bad.__dict__, "bandwidth": math.nan})
    with pytest.raises(
        StoreError, match="bandwidth must be a finite number >= 0, got nan in measurement m2"
    ):
        store.add_measurements(run, [good, bad, measurement("m3", 1.0)], SYSTEM_A, "sp")
    with pytest.raises(
        StoreError, match=r"configuration values must be strings or integers, got x=1.5"
    ):
        bad_config: dict = {"x": 1.5}
        store.add_measurements(run, [measurement("m4", 1.0, bad_config)], SYSTEM_A, "sp")
    assert store.counts()["measurements"] == 0


def test_add_measurements_needs_a_run(store: Store) -> None:
    with pytest.raises(StoreError, match="no run with id 42"):
        store.add_measurements(42, [measurement("m1", 1.0)], SYSTEM_A, "sp")


def test_summary_rows_are_sorted_and_typed(store: Store) -> None:
    run = _run(store)
    store.add_measurements(
        run,
        [
            measurement("w", 1.0, nprocs=4),
            measurement("r", 2.0, op="read"),
            measurement("s", 3.0, layout="strided", block=4096, fill=0.5),
        ],
        SYSTEM_A,
        "sp",
    )
    summary = store.summary()
    assert summary["nprocs"].tolist() == [2, 2, 4]
    assert summary[["op", "layout"]].values.tolist() == [
        ["read", "contiguous"],
        ["write", "strided"],
        ["write", "contiguous"],
    ]
    assert pd.api.types.is_integer_dtype(summary["n"])
    assert pd.api.types.is_float_dtype(summary["bw_median"])
    assert summary.loc[1, "block"] == 4096 and summary.loc[1, "fill"] == 0.5
