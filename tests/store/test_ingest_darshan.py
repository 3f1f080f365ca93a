"""Darshan logs as input: the example logs PyDarshan ships, read into groups whose numbers
are checked against the logs' own counters (read here through PyDarshan directly), then
ingested as workloads or measurements, and through `iotuner ingest`."""

import shutil
import struct
from functools import cache
from pathlib import Path

import darshan  # type: ignore[import-untyped]
import pandas as pd
import pytest
import sqlalchemy as sa

from iotuner.cli import main
from iotuner.ingest import (
    IngestError,
    guess_kind,
    ingest_darshan,
    ingest_file,
    input_files,
    is_darshan_log,
    read_darshan,
)
from iotuner.store import SCHEMA_VERSION, Store, open_store

PACKAGE = Path(darshan.__file__).resolve().parent
LOGS = sorted(
    {
        *PACKAGE.glob("examples/example_logs/*.darshan"),
        *PACKAGE.glob("examples/darshan-graph/*.darshan"),
        *PACKAGE.glob("tests/input/*.darshan"),
    }
)
EXAMPLE = PACKAGE / "examples/example_logs/example.darshan"
"""vpicio_uni on 2048 ranks: one shared HDF5 file on Lustre, written collectively."""
GOODOST = PACKAGE / "tests/input/sample-goodost.darshan"
"""ior -t 8m -b 256m -s 4 -F -a POSIX on 48 ranks: a file per process, POSIX only."""
MACSIO = next(PACKAGE.glob("examples/example_logs/shane_macsio_*.darshan"))
"""macsio through HDF5 on 16 ranks: one shared file, mostly independent small writes."""
IOR_HDF5 = PACKAGE / "examples/example_logs/ior_hdf5_example.darshan"
ONE_RANK = PACKAGE / "examples/example_logs/dxt.darshan"

MODULE_PREFIX = {"MPIIO": "MPI-IO", "POSIX": "POSIX", "STDIO": "STDIO"}


@cache
def counters(path: Path, module: str) -> pd.DataFrame:
    """A module's records as PyDarshan reads them: integer and float counters."""
    report = darshan.DarshanReport(str(path), read_all=False)
    report.mod_read_all_records(module)
    frames = report.records[module].to_df()
    return pd.concat([frames["counters"], frames["fcounters"].drop(columns=["rank", "id"])], axis=1)


@cache
def lustre(path: Path) -> pd.DataFrame:
    report = darshan.DarshanReport(str(path), read_all=False)
    report.mod_read_all_lustre_records()
    frame: pd.DataFrame = report.records["LUSTRE"].to_df()["components"]
    return frame


def records_of(path: Path, module: str, ids: tuple[int, ...]) -> pd.DataFrame:
    frame = counters(path, module)
    return frame[frame["id"].isin(list(ids))]


def bucket_of(size: int) -> str:
    """Darshan's size bucket (the suffix of ..._SIZE_WRITE_AGG_<bucket>) of a size."""
    edges = [
        (100, "0_100"),
        (1024, "100_1K"),
        (10 * 1024, "1K_10K"),
        (100 * 1024, "10K_100K"),
        (1024 * 1024, "100K_1M"),
        (4 * 1024 * 1024, "1M_4M"),
        (10 * 1024 * 1024, "4M_10M"),
        (100 * 1024 * 1024, "10M_100M"),
        (1024 * 1024 * 1024, "100M_1G"),
    ]
    return next((name for edge, name in edges if size <= edge), "1G_PLUS")


@pytest.mark.parametrize("log", LOGS, ids=lambda p: p.name[:40])
def test_every_example_log_becomes_groups_whose_evidence_is_in_the_log(log: Path) -> None:
    job = read_darshan(log)
    report = darshan.DarshanReport(str(log), read_all=False)
    assert job.nprocs == report.metadata["job"]["nprocs"]
    assert job.modules == list(report.modules)
    assert job.groups, "every example log moved bytes"
    assert [g.bytes for g in job.groups] == sorted((g.bytes for g in job.groups), reverse=True)
    for group in job.groups:
        assert group.bytes > 0 and group.files == len(group.record_ids) >= 1
        assert group.workload.op == group.op
        assert group.workload.nprocs <= job.nprocs
        assert (group.seconds is None) == (group.bandwidth is None)
        if group.seconds is not None and group.bandwidth is not None:
            assert group.bandwidth == pytest.approx(group.bytes / 2**20 / group.seconds)
        for evidence in group.evidence:
            module = MODULE_PREFIX.get(evidence.counter.split("_")[0])
            if module is None:  # LUSTRE_COMP_STRIPE_COUNT
                frame = lustre(log)
                frame = frame[frame["id"].isin(list(group.record_ids))]
                assert evidence.value in frame[evidence.counter].tolist()
                continue
            frame = records_of(log, module, group.record_ids)
            own = "MPIIO" if group.through_mpiio else evidence.counter.split("_")[0]
            if evidence.counter.startswith(own):
                # the group's own records: those that moved bytes for its op
                column = f"{own}_BYTES_{'WRITTEN' if group.op == 'write' else 'READ'}"
                frame = frame[frame[column] > 0]
            total = sum(int(frame[name].sum()) for name in evidence.counter.split("+"))
            assert evidence.value == total, evidence
            assert evidence.words and str(evidence.value) in evidence.words


def test_a_collective_shared_file_on_lustre() -> None:
    job = read_darshan(EXAMPLE)
    (group,) = job.groups
    mpiio = counters(EXAMPLE, "MPI-IO")
    (record,) = mpiio.itertuples(index=False)
    assert record.rank == -1  # one record for all ranks: a shared file
    w = group.workload
    assert group.op == "write" and group.through_mpiio
    assert group.bytes == record.MPIIO_BYTES_WRITTEN
    assert record.MPIIO_COLL_WRITES > record.MPIIO_INDEP_WRITES and w.pattern == "collective"
    assert (w.nprocs, w.files) == (2048, 1) and w.interleaved is None
    assert job.nodes is None and w.ranks_per_node is None  # Darshan keeps no hosts
    calls = record.MPIIO_COLL_WRITES + record.MPIIO_INDEP_WRITES
    assert w.calls_per_open == round(calls / (record.MPIIO_COLL_OPENS + record.MPIIO_INDEP_OPENS))
    buckets = {c: getattr(record, c) for c in mpiio.columns if "SIZE_WRITE_AGG" in c}
    assert f"MPIIO_SIZE_WRITE_AGG_{bucket_of(w.bytes_per_rank)}" == max(buckets, key=buckets.get)
    stripes = lustre(EXAMPLE).iloc[0]
    assert (w.stripe_count, w.stripe_size) == (24, 1048576)
    assert (w.stripe_count, w.stripe_size) == (
        stripes["LUSTRE_COMP_STRIPE_COUNT"],
        stripes["LUSTRE_COMP_STRIPE_SIZE"],
    )
    assert group.seconds == pytest.approx(record.MPIIO_F_WRITE_TIME / 2048)
    assert w.program == "vpicio_uni" and job.program == "vpicio_uni"
    assert any("no MPI-IO hint" in note for note in job.notes)


def test_a_file_per_process_through_posix_only() -> None:
    job = read_darshan(GOODOST)
    group = job.groups[0]
    posix = counters(GOODOST, "POSIX")
    written = posix[posix["POSIX_BYTES_WRITTEN"] > 0]
    assert (written["rank"] >= 0).all() and written["id"].is_unique  # one rank per file
    w = group.workload
    assert not group.through_mpiio and group.files == len(written) == 48
    assert group.bytes == written["POSIX_BYTES_WRITTEN"].sum() == 48 * 4 * 256 * 2**20
    assert (w.nprocs, w.files, w.interleaved, w.pattern) == (48, 48, False, "independent")
    assert w.bytes_per_rank == 8 * 2**20  # ior -t 8m
    calls, opens = written["POSIX_WRITES"].sum(), written["POSIX_OPENS"].sum()
    assert w.calls_per_open == calls // opens == 4 * 256 // 8  # ior -b 256m -s 4, one open
    assert (written["POSIX_FILENOS"] == -1).all()  # not kept by Darshan 3.1: not counted
    assert (written["POSIX_ACCESS1_ACCESS"] == w.bytes_per_rank).all()
    assert group.name.endswith("testFile.*") and w.stripe_count == 1
    assert [e.code for e in group.evidence] == ["posix_only"]


def test_independent_writes_to_a_shared_file_are_evidence() -> None:
    group = read_darshan(MACSIO).groups[0]
    (record,) = records_of(MACSIO, "MPI-IO", group.record_ids).itertuples(index=False)
    assert record.rank == -1 and group.workload.pattern == "independent"
    assert record.MPIIO_INDEP_WRITES > record.MPIIO_COLL_WRITES
    codes = {e.code: e for e in group.evidence}
    assert codes["independent_shared"].value == record.MPIIO_INDEP_WRITES
    assert codes["small_requests"].counter.startswith("MPIIO_SIZE_WRITE_AGG_0_100")
    assert codes["misaligned"].counter == "POSIX_FILE_NOT_ALIGNED"


def test_stripes_read_writes_and_one_rank() -> None:
    job = read_darshan(IOR_HDF5)
    assert {g.op for g in job.groups if g.through_mpiio} == {"write", "read"}
    assert all(g.workload.stripe_count == 1 for g in job.groups if g.through_mpiio)
    assert any(e.code == "one_stripe_shared" for g in job.groups for e in g.evidence)
    single = read_darshan(ONE_RANK)
    assert single.nodes == 1  # one rank: one node, the only node count a log implies
    assert all(g.workload.ranks_per_node == g.workload.nprocs for g in single.groups)


# ---------------------------------------------------------------- errors and kinds


def test_kind_by_suffix_and_by_header(tmp_path: Path) -> None:
    renamed = tmp_path / "job-log"
    shutil.copy(EXAMPLE, renamed)
    assert guess_kind(EXAMPLE) == "darshan" and guess_kind(renamed) == "darshan"
    assert is_darshan_log(renamed) and not is_darshan_log(tmp_path / "missing")
    shutil.copy(EXAMPLE, tmp_path / "a.darshan")
    assert input_files([tmp_path]) == [tmp_path / "a.darshan"]


def test_not_darshan_truncated_and_no_io_module(tmp_path: Path) -> None:
    text = tmp_path / "notes.darshan"
    text.write_text("hello\n" * 10)
    with pytest.raises(IngestError, match="not a Darshan log"):
        read_darshan(text)
    data = EXAMPLE.read_bytes()
    for cut in (40, 2000, len(data) - 1):  # in the header, in the records, the last byte
        short = tmp_path / f"cut{cut}.darshan"
        short.write_bytes(data[:cut])
        with pytest.raises(IngestError, match="truncated Darshan log"):
            read_darshan(short)
    with pytest.raises(IngestError, match="no I/O module"):
        read_darshan(_without_io_modules(tmp_path))


def _without_io_modules(tmp_path: Path) -> Path:
    """noposix.darshan (LUSTRE and STDIO) with its STDIO region taken out of the header:
    a log of a job that did no file I/O Darshan saw."""
    source = PACKAGE / "examples/example_logs/noposix.darshan"
    report = darshan.DarshanReport(str(source), read_all=False)
    data = bytearray(source.read_bytes())
    assert data[:4] == b"3.10"  # the header before 3.41: 16 module maps from byte 40
    maps = [struct.unpack_from("<QQ", data, 40 + 16 * i) for i in range(16)]
    # PyDarshan numbers modules as 3.41 does; in a 3.10 header they sit elsewhere, so the
    # STDIO map is found by its length.
    (index,) = [i for i, (_, n) in enumerate(maps) if n == report.modules["STDIO"]["len"]]
    struct.pack_into("<QQ", data, 40 + 16 * index, 0, 0)
    path = tmp_path / "nothing.darshan"
    path.write_bytes(bytes(data))
    return path


# ---------------------------------------------------------------- the knowledge base


def test_without_a_configuration_groups_are_workloads_only(store: Store) -> None:
    result = ingest_darshan(store, GOODOST, config=None)
    job = read_darshan(GOODOST)
    assert (result.kind, result.read, result.added) == ("darshan", len(job.groups), len(job.groups))
    assert store.counts()["measurements"] == 0 and store.workload_count() == len(job.groups)
    row = store.workloads().iloc[0]
    group = job.groups[0]
    assert (row["name"], row["bytes"], row["program"]) == (group.name, group.bytes, "ior")
    assert row["nprocs"] == 48 and row["files"] == 48 and not row["through_mpiio"]
    assert pd.isna(row["nodes"]) and pd.isna(row["stripe_size"]) is False
    again = ingest_darshan(store, GOODOST, config=None)
    assert (again.added, again.skipped) == (0, len(job.groups))
    assert store.workload_count() == len(job.groups)


def test_with_a_configuration_groups_are_measurements(store: Store) -> None:
    with pytest.raises(IngestError, match="--darshan-nodes"):
        ingest_darshan(store, EXAMPLE, config={})
    result = ingest_darshan(store, EXAMPLE, config={"romio_cb_write": "enable"}, nodes=86)
    assert (result.added, result.skipped) == (1, 0)
    frame = store.measurements()
    group = read_darshan(EXAMPLE, nodes=86).groups[0]
    (row,) = frame.itertuples(index=False)
    assert (row.nodes, row.nprocs, row.pattern, row.bytes) == (86, 2048, "collective", group.bytes)
    assert row.bandwidth == pytest.approx(group.bandwidth)
    assert frame["cfg:romio_cb_write"].tolist() == ["enable"]
    (system,) = store.systems()
    assert (system.host, system.fs_type, system.fs_mount) == ("unknown", "lustre", "/scratch2")
    again = ingest_darshan(store, EXAMPLE, config={"romio_cb_write": "enable"}, nodes=86)
    assert (again.added, again.skipped) == (0, 1)
    assert store.counts()["runs"] == 1 and store.workload_count() == 0


def test_a_version_3_store_is_upgraded(store_url: str) -> None:
    with open_store(store_url) as store:
        url = store.url
        ingest_darshan(store, ONE_RANK, config={})  # a measurement made before the upgrade
    engine = sa.create_engine(url)
    with engine.begin() as conn:  # what schema 3 was: no workloads table
        conn.execute(sa.text("DROP TABLE workloads"))
        conn.execute(sa.text("UPDATE schema_version SET version = 3"))
    engine.dispose()
    with open_store(store_url) as store:
        assert store.workload_count() == 0 and store.counts()["measurements"] >= 1
        assert ingest_darshan(store, GOODOST, config=None).added >= 1
    with open_store(store_url) as store:  # opened again: already upgraded, nothing to do
        assert store.workload_count() >= 1
    engine = sa.create_engine(url)
    with engine.connect() as conn:
        versions = conn.execute(sa.text("SELECT version FROM schema_version")).scalars().all()
    engine.dispose()
    assert sorted(versions) == [3, 4, SCHEMA_VERSION] == [3, 4, 5]


def test_a_version_4_store_gets_the_memory_layout_column(store_url: str) -> None:
    """Version 5 adds memory_block to both tables of workloads; the rows from before
    read as unknown."""
    with open_store(store_url) as store:
        url = store.url
        ingest_darshan(store, ONE_RANK, config={})
        ingest_darshan(store, GOODOST, config=None)
    engine = sa.create_engine(url)
    with engine.begin() as conn:  # what schema 4 was: no memory_block
        for table in ("measurements", "workloads"):
            conn.execute(sa.text(f"ALTER TABLE {table} DROP COLUMN memory_block"))
        conn.execute(sa.text("UPDATE schema_version SET version = 4"))
    engine.dispose()
    with open_store(store_url) as store:
        frame = store.summary()
        assert frame["memory_block"].isna().all()
        assert store.workload_count() >= 1
    engine = sa.create_engine(url)
    with engine.connect() as conn:
        for table in ("measurements", "workloads"):
            nulls = conn.execute(sa.text(f"SELECT memory_block FROM {table}")).scalars().all()
            assert nulls and all(value is None for value in nulls)
        versions = conn.execute(sa.text("SELECT version FROM schema_version")).scalars().all()
    engine.dispose()
    assert max(versions) == SCHEMA_VERSION == 5


# ---------------------------------------------------------------- the command line


def test_the_ingest_command(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    db = str(tmp_path / "kb.sqlite")
    log = tmp_path / "job.darshan"
    shutil.copy(GOODOST, log)
    groups = len(read_darshan(log).groups)
    assert main(["ingest", "--db", db, str(log)]) == 0
    assert capsys.readouterr().out == (
        f"{log}: darshan: read {groups}, added {groups} workloads, skipped 0 (already stored)\n"
    )
    argv = ["ingest", "--db", db, "--darshan-config", "default", "--darshan-nodes", "2"]
    assert main([*argv, str(log)]) == 0
    out = capsys.readouterr().out
    assert f"added {groups} measurements" in out
    assert "host unknown, MPI unknown, lustre at /scratch1 (file system from the log's" in out
    assert main(["db", "status", "--db", db]) == 0
    out = capsys.readouterr().out
    assert f"workloads without a configuration (Darshan logs): {groups}" in out
    assert "measurements: trace" in out

    (tmp_path / "text.darshan").write_text("not a log\n")
    (tmp_path / "cut.darshan").write_bytes(GOODOST.read_bytes()[:1000])
    status = main(
        ["ingest", "--db", db, str(tmp_path / "text.darshan"), str(tmp_path / "cut.darshan")]
    )
    assert status != 0
    err = capsys.readouterr().err
    assert (
        "text.darshan: not a Darshan log" in err and "cut.darshan: a truncated Darshan log" in err
    )


def test_darshan_config_text(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    db = str(tmp_path / "kb.sqlite")
    argv = ["ingest", "--db", db, "--darshan-config", "cb_nodes", "--darshan-nodes", "1"]
    assert main([*argv, str(ONE_RANK)]) != 0
    assert "--darshan-config must be `default` or key=value" in capsys.readouterr().err
    argv[4] = "cb_nodes=4,romio_cb_write=enable"
    assert main([*argv, str(ONE_RANK)]) == 0
    with open_store(db) as store:
        frame = store.measurements()
    assert set(frame["cfg:cb_nodes"]) == {4} and set(frame["cfg:romio_cb_write"]) == {"enable"}


def test_ingest_file_passes_the_configuration(store: Store) -> None:
    result = ingest_file(store, ONE_RANK, darshan_config={})
    assert result.kind == "darshan" and result.added == store.counts()["measurements"] >= 1
