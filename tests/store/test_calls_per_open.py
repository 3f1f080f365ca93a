"""calls_per_open in the knowledge base: stored, summarised apart, read back from bench
results, and 1 for the rows of a store made before the field (schema 1, upgraded)."""

from pathlib import Path

import sqlalchemy as sa

from iotuner.ingest import ingest_bench
from iotuner.measurement import (
    OPTIONAL_WORKLOAD_FIELDS,
    WORKLOAD_COLUMNS,
    measurement_from_json,
)
from iotuner.store import Store, open_store

from .conftest import SYSTEM_A, bench_lines, measurement


def _add(store: Store, *ms: object) -> None:
    run = store.add_run("r1", "bench", "test", system=SYSTEM_A)
    store.add_measurements(run, ms, SYSTEM_A, "romio-ufs")  # type: ignore[arg-type]


def test_calls_per_open_is_stored_and_keeps_workloads_apart(store: Store) -> None:
    assert "calls_per_open" in WORKLOAD_COLUMNS
    _add(
        store,
        measurement("a0", 100.0, calls_per_open=64),
        measurement("a1", 120.0, calls_per_open=64, repeat=1),
        measurement("b0", 10.0),  # one call per open, otherwise the same workload
    )
    rows = store.measurements().set_index("uid")
    assert rows.loc["a0", "calls_per_open"] == 64 and rows.loc["b0", "calls_per_open"] == 1
    summary = store.summary()
    assert sorted(zip(summary["calls_per_open"], summary["n"], strict=True)) == [(1, 1), (64, 2)]


def test_bench_results_carry_calls_per_open_into_the_store(store: Store, tmp_path: Path) -> None:
    results = tmp_path / "r.bench.jsonl"
    lines = bench_lines(measurement("m0", 50.0, calls_per_open=1024, bytes_per_rank=1024))
    results.write_text("\n".join(lines) + "\n")
    assert measurement_from_json(lines[0])[0].workload.calls_per_open == 1024
    assert ingest_bench(store, results).added == 1
    assert store.summary()["calls_per_open"].tolist() == [1024]


def test_a_store_from_before_calls_per_open_is_upgraded(store_url: str) -> None:
    with open_store(store_url) as store:
        _add(store, measurement("old", 80.0))
        url = store.url
    # Make it what schema 1 was: no column, version 1.
    engine = sa.create_engine(url)
    with engine.begin() as conn:
        for column in ("calls_per_open", *OPTIONAL_WORKLOAD_FIELDS):  # those of schema 3 too
            conn.execute(sa.text(f"ALTER TABLE measurements DROP COLUMN {column}"))
        conn.execute(sa.text("UPDATE schema_version SET version = 1"))
    engine.dispose()
    with open_store(store_url) as store:
        assert store.measurements()["calls_per_open"].tolist() == [1]
        run = store.add_run("r2", "bench", "test", system=SYSTEM_A)
        store.add_measurements(
            run, [measurement("new", 90.0, calls_per_open=8)], SYSTEM_A, "romio-ufs"
        )
        assert sorted(store.measurements()["calls_per_open"]) == [1, 8]
    with open_store(store_url) as store:  # opened again: already upgraded, nothing to do
        assert len(store.measurements()) == 2
    engine = sa.create_engine(url)
    with engine.connect() as conn:
        versions = conn.execute(sa.text("SELECT version FROM schema_version")).scalars().all()
    engine.dispose()
    assert sorted(versions) == [1, 2, 3, 4, 5]
