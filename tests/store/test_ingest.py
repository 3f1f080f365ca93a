"""Ingesting trace logs, bench results and CSV files, on both backends."""

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pandas as pd
import pytest
import sqlalchemy as sa

from iotuner.ingest import (
    CsvMapping,
    IngestError,
    ingest_bench,
    ingest_bench_records,
    ingest_csv,
    ingest_trace,
    load_mapping,
)
from iotuner.measurement import System
from iotuner.runner import build_config, find_program
from iotuner.store import Store

from .conftest import SAMPLE_LOG, SYSTEM_A, bench_lines, measurement

EMPTY = {"systems": 0, "runs": 0, "configurations": 0, "measurements": 0}


# ------------------------------------------------------------------ trace logs


def test_trace_log_rows_become_measurements(store: Store) -> None:
    result = ingest_trace(store, SAMPLE_LOG)
    # Four op rows; log.txt's has duration 0 (no bandwidth).
    counts = (result.kind, result.read, result.added, result.skipped, result.ignored)
    assert counts == ("trace", 4, 3, 0, 1)
    frame = store.measurements()
    assert frame["op"].tolist() == ["write", "write", "read"]
    assert frame["pattern"].tolist() == ["collective", "collective", "independent"]
    assert set(frame["nprocs"]) == {4} and set(frame["nodes"]) == {2}
    assert set(frame["layout"]) == {"contiguous"}
    assert frame["bytes_per_rank"].tolist() == [1607876, 1607876, 20]
    assert frame["bandwidth"].tolist() == [122.67, 153.34, 0.0763]
    assert frame["seconds"].tolist() == [0.05, 0.04, 0.001]
    assert frame["bytes"].tolist() == [6431504, 6431504, 80]
    # Hint set 0 requested cb_nodes and striping_factor at open; hint set 1 added
    # romio_cb_write at the access: the keys in force, with their effective values.
    assert frame["config"].tolist() == [
        "cb_nodes=2,striping_factor=16",
        "cb_nodes=2,romio_cb_write=enable,striping_factor=16",
        "cb_nodes=2,romio_cb_write=enable,striping_factor=16",
    ]
    assert frame["cfg:romio_cb_write"].tolist() == ["default", "enable", "enable"]
    (system,) = store.systems()
    assert system == System("node01", "MPICH Version: 4.1.2", "unknown", "ufs", "unknown")
    assert set(frame["kind"]) == {"trace"}


def test_trace_provenance_names_log_and_line(store: Store) -> None:
    ingest_trace(store, SAMPLE_LOG)
    frame = store.measurements()
    uids = frame["uid"].tolist()
    run = frame["run"].iloc[0]
    assert uids == [f"{run}:0", f"{run}:1", f"{run}:2"]
    engine = sa.create_engine(store.url)
    with engine.connect() as conn:
        rows = conn.execute(sa.text("SELECT provenance FROM measurements ORDER BY id"))
        provenance = [json.loads(text) for (text,) in rows]
    engine.dispose()
    assert [p["line"] for p in provenance] == [4, 5, 6]
    assert provenance[0] == {
        "log": str(SAMPLE_LOG),
        "line": 4,
        "operation": "MPI_File_write_at_all",
        "file": "out.dat",
    }


def test_the_same_trace_log_twice_adds_nothing(store: Store, tmp_path: Path) -> None:
    ingest_trace(store, SAMPLE_LOG)
    counts = store.counts()
    again = ingest_trace(store, SAMPLE_LOG)
    assert (again.read, again.added, again.skipped, again.ignored) == (4, 0, 3, 1)
    # The same bytes under another name are the same log.
    copy = tmp_path / "copy.iotrace.jsonl"
    shutil.copy(SAMPLE_LOG, copy)
    assert ingest_trace(store, copy).added == 0
    assert store.counts() == counts


def _kernel_log(tmp_path_factory: pytest.TempPathFactory, *run_options: str) -> Path:
    """A trace log of our MPI kernel: 2 ranks, 3 collective writes of 64 KiB per rank."""
    work = tmp_path_factory.mktemp("real-log")
    iotuner = Path(sys.executable).parent / "iotuner"
    launch = [build_config().mpiexec, "-n", "2", str(find_program("iokernel"))]
    kernel_args = ["--file", str(work / "F"), "--size", "64k", "--repeat", "3"]
    command = [str(iotuner), "run", *run_options, "--log-dir", str(work / "logs"), "--"]
    done = subprocess.run(
        [*command, *launch, *kernel_args], capture_output=True, text=True, timeout=180, check=False
    )
    assert done.returncode == 0, done.stdout + done.stderr
    (log,) = (work / "logs").glob("*.iotrace.jsonl")
    return log


@pytest.fixture(scope="session")
def real_log(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The kernel's log with a row per collective call (run --call-rows)."""
    return _kernel_log(tmp_path_factory, "--call-rows")


@pytest.fixture(scope="session")
def summed_log(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The kernel's log as run traces by default: its collective calls summed."""
    return _kernel_log(tmp_path_factory)


def test_a_summed_trace_log_is_one_measurement_of_the_run(store: Store, summed_log: Path) -> None:
    """A run's summed row: one measurement of its workload (its calls are not repeats)."""
    assert (ingest_trace(store, summed_log).added, len(store.measurements())) == (1, 1)
    row = store.measurements().iloc[0]
    assert (row["pattern"], row["op"], row["nprocs"]) == ("collective", "write", 2)
    assert row["bytes"] == 3 * 2 * 65536 and row["bytes_per_rank"] == 65536
    assert row["config"] == "default" and row["bandwidth"] > 0


def test_a_real_trace_log(store: Store, real_log: Path) -> None:
    result = ingest_trace(store, real_log)
    assert (result.added, result.skipped) == (3, 0)
    frame = store.measurements()
    assert frame["pattern"].tolist() == ["collective"] * 3
    assert frame["op"].tolist() == ["write"] * 3
    assert frame["bytes"].tolist() == [2 * 65536] * 3
    assert frame["bytes_per_rank"].tolist() == [65536] * 3
    assert frame["nprocs"].tolist() == [2] * 3
    assert frame["repeat"].tolist() == [0, 1, 2]
    assert frame["config"].tolist() == ["default"] * 3  # iokernel passed no hints
    assert (frame["bandwidth"] > 0).all()
    summary = store.summary()
    assert summary["n"].tolist() == [3]
    assert summary["bw_min"].iloc[0] == frame["bandwidth"].min()
    (system,) = store.systems()
    assert system.fs_driver == "ufs" and "  " not in system.mpi_library
    assert ingest_trace(store, real_log).added == 0


# ------------------------------------------------------------------ bench results


def _write(path: Path, lines: list[str]) -> Path:
    path.write_text("".join(line + "\n" for line in lines))
    return path


def test_a_grown_bench_file_adds_only_its_new_lines(store: Store, tmp_path: Path) -> None:
    ms = [measurement(f"sweep1:w:{i}", 10.0 * (i + 1), repeat=i) for i in range(5)]
    results = _write(tmp_path / "r.bench.jsonl", bench_lines(*ms[:3]))
    first = ingest_bench(store, results)
    assert (first.kind, first.read, first.added, first.skipped) == ("bench", 3, 3, 0)
    _write(results, bench_lines(*ms))
    second = ingest_bench(store, results)
    assert (second.read, second.added, second.skipped) == (5, 2, 3)
    assert ingest_bench(store, results).added == 0
    # One run: the lines share their sweep's bench_run id.
    assert store.counts() == {"systems": 1, "runs": 1, "configurations": 1, "measurements": 5}
    assert store.run_id("sweep1") is not None
    assert store.summary()["n"].tolist() == [5]
    assert set(store.measurements()["space"]) == {"romio-ufs"}


def test_a_sweep_stores_what_it_holds_as_the_file_would(store: Store, tmp_path: Path) -> None:
    """bench stores each workload's new lines from memory; ingesting the results file
    afterwards finds them all stored, in the same run."""
    ms = [measurement(f"sweep1:w:{i}", 10.0 * (i + 1), repeat=i) for i in range(4)]
    results = _write(tmp_path / "r.bench.jsonl", bench_lines(*ms))
    for batch in (ms[:1], ms[1:]):
        stored = ingest_bench_records(store, results, [(m, SYSTEM_A, "romio-ufs") for m in batch])
        assert stored.added == len(batch)
    again = ingest_bench(store, results)
    assert (again.read, again.added, again.skipped) == (4, 0, 4)
    assert store.counts()["runs"] == 1 and store.run_id("sweep1") is not None


def test_a_bad_bench_line_adds_nothing(store: Store, tmp_path: Path) -> None:
    good = bench_lines(*(measurement(f"m{i}", 1.0 + i) for i in range(4)))
    bad = json.loads(good[2])
    bad["workload"]["pattern"] = "coll"
    lines = [good[0], good[1], json.dumps(bad), good[3]]
    results = _write(tmp_path / "r.bench.jsonl", lines)
    with pytest.raises(IngestError) as caught:
        ingest_bench(store, results)
    message = str(caught.value)
    assert message.startswith(f"{results}:3: pattern must be one of ('collective', 'independent')")
    assert "got 'coll'" in message and "nothing was added" in message
    assert store.counts() == EMPTY
    # Not JSON at all, after lines already stored: still nothing more.
    _write(results, [good[0]])
    ingest_bench(store, results)
    _write(results, [good[0], good[1], "{not json", good[3]])
    with pytest.raises(IngestError, match=r"r\.bench\.jsonl:3: not valid JSON"):
        ingest_bench(store, results)
    assert store.counts()["measurements"] == 1


def test_bench_lines_need_every_field(store: Store, tmp_path: Path) -> None:
    line = json.loads(bench_lines(measurement("m", 1.0))[0])
    del line["bandwidth"]
    results = _write(tmp_path / "r.bench.jsonl", [json.dumps(line)])
    with pytest.raises(IngestError, match=r":1: a bench result needs uid, system, workload"):
        ingest_bench(store, results)


# ------------------------------------------------------------------ CSV files

CSV = """np,mode,access,xfer,bw_MBps,cb_write,note
4,coll,write,1048576,104.8576,enable,first
4,coll,write,1048576,209.7152,enable,second
4,ind,read,1048576,52.4288,,third
"""

MAPPING = """
space = "site"
[columns]
nprocs = "np"
pattern = "mode"
op = "access"
bytes_per_rank = "xfer"
bandwidth = "bw_MBps"
"cfg:romio_cb_write" = "cb_write"

[defaults]
nodes = 1
layout = "contiguous"
"cfg:cb_nodes" = 2

[values.pattern]
coll = "collective"
ind = "independent"

[scale]
bandwidth = 0.95367431640625   # MB/s -> MiB/s

[system]
host = "elsewhere"
fs_type = "lustre"
"""


def _csv(tmp_path: Path, text: str = CSV, mapping: str = MAPPING) -> tuple[Path, CsvMapping]:
    (tmp_path / "m.toml").write_text(mapping)
    path = tmp_path / "data.csv"
    path.write_text(text)
    return path, load_mapping(tmp_path / "m.toml")


def test_csv_through_a_mapping(store: Store, tmp_path: Path) -> None:
    path, mapping = _csv(tmp_path)
    result = ingest_csv(store, path, mapping)
    assert (result.kind, result.read, result.added, result.skipped) == ("csv", 3, 3, 0)
    frame = store.measurements()
    assert frame["pattern"].tolist() == ["collective", "collective", "independent"]
    assert frame["bandwidth"].tolist() == [100.0, 200.0, 50.0]
    # seconds from bytes (bytes_per_rank * nprocs) and bandwidth
    assert frame["seconds"].tolist() == [0.04, 0.02, 0.08]
    assert frame["bytes"].tolist() == [4 * 1048576] * 3
    assert frame["repeat"].tolist() == [0, 1, 0]
    assert frame["config"].tolist() == [
        "cb_nodes=2,romio_cb_write=enable",
        "cb_nodes=2,romio_cb_write=enable",
        "cb_nodes=2",
    ]
    assert set(frame["space"]) == {"site"} and set(frame["nodes"]) == {1}
    (system,) = store.systems()
    assert system == System("elsewhere", "unknown", "lustre", "unknown", "unknown")
    assert store.summary()["n"].tolist() == [2, 1]
    assert ingest_csv(store, path, mapping).added == 0
    # Rows appended later: only they are new.
    path.write_text(CSV + "8,coll,write,4096,10,disable,fourth\n")
    assert ingest_csv(store, path, mapping).added == 1


def test_csv_bandwidth_from_bytes_and_seconds(store: Store, tmp_path: Path) -> None:
    path = tmp_path / "t.csv"
    path.write_text("ranks;size;total;time\n2;512;2097152;0.5\n")
    mapping = {"nprocs": "ranks", "bytes_per_rank": "size", "bytes": "total", "seconds": "time"}
    system = System("h", "mpi", "ext4", "ufs", "/")
    with pytest.raises(IngestError, match=r"column 'ranks' \(for nprocs\) is not in the header"):
        ingest_csv(store, path, mapping, system, defaults=_DEFAULTS)
    full = CsvMapping(columns=mapping, delimiter=";")
    ingest_csv(store, path, full, system, space="mine", defaults=_DEFAULTS)
    frame = store.measurements()
    assert frame["bandwidth"].tolist() == [4.0] and frame["bytes"].tolist() == [2097152]
    assert frame["space"].tolist() == ["mine"]


_DEFAULTS = {"nodes": 1, "layout": "contiguous", "pattern": "collective", "op": "write"}


def test_a_json_mapping_is_the_same(tmp_path: Path) -> None:
    _, toml_mapping = _csv(tmp_path)
    import tomllib

    (tmp_path / "m.json").write_text(json.dumps(tomllib.loads(MAPPING)))
    assert load_mapping(tmp_path / "m.json") == toml_mapping


@pytest.mark.parametrize(
    ("mapping_change", "message"),
    [
        (
            ('"cb_write"', '"cbw"'),
            "column 'cbw' (for cfg:romio_cb_write) is not in the header (columns: np, mode, "
            "access, xfer, bw_MBps, cb_write, note)",
        ),
        (
            ("nodes = 1", ""),
            "no column, computed field or default for required field(s) nodes (add them to "
            "[columns], [computed] or [defaults])",
        ),
        (
            ('bandwidth = "bw_MBps"', 'bandwith = "bw_MBps"'),
            "[columns] names unknown field(s) 'bandwith' (expected nprocs, nodes, pattern, op",
        ),
        (
            ('layout = "contiguous"', 'layout = "diagonal"'),
            "defaults.layout: expected contiguous or strided, got 'diagonal'",
        ),
        (("[system]", "[sys]"), "unknown key(s) sys (expected columns, computed, defaults"),
    ],
    ids=["unknown column", "missing field", "unknown field", "bad default", "unknown key"],
)
def test_csv_mapping_errors(
    store: Store, tmp_path: Path, mapping_change: tuple[str, str], message: str
) -> None:
    text = MAPPING.replace(*mapping_change)
    with pytest.raises(IngestError) as caught:
        path, mapping = _csv(tmp_path, mapping=text)
        ingest_csv(store, path, mapping)
    assert message in str(caught.value)
    assert store.counts() == EMPTY


def test_every_bad_csv_cell_is_named_and_nothing_is_added(store: Store, tmp_path: Path) -> None:
    text = CSV + (
        "four,coll,write,1048576,10,enable,bad nprocs\n"
        "4,diagonal,write,-5,10,enable,bad pattern and size\n"
        "4,coll,write,1048576,,enable,empty bandwidth\n"
        "4,coll,write\n"
    )
    path, mapping = _csv(tmp_path, text=text)
    with pytest.raises(IngestError) as caught:
        ingest_csv(store, path, mapping)
    lines = str(caught.value).splitlines()
    assert lines[0] == f"{path}: 5 bad value(s), nothing was added:"
    assert lines[1:] == [
        f"{path} line 5, column 'np' (nprocs): expected an integer >= 1, got 'four'",
        f"{path} line 6, column 'mode' (pattern): expected collective or independent, "
        "got 'diagonal'",
        f"{path} line 6, column 'xfer' (bytes_per_rank): expected an integer >= 0, got '-5'",
        f"{path} line 7, column 'bw_MBps' (bandwidth): expected a number > 0, got an empty cell",
        f"{path} line 8: expected 7 fields as in the header, got 3",
    ]
    assert store.counts() == EMPTY


def test_csv_needs_a_system(store: Store, tmp_path: Path) -> None:
    path, mapping = _csv(tmp_path, mapping=MAPPING.replace('host = "elsewhere"', ""))
    with pytest.raises(IngestError, match=r"expected the system .*--system-host"):
        ingest_csv(store, path, mapping)
    ingest_csv(store, path, mapping, System("given", "m", "t", "d", "/"))
    assert [s.host for s in store.systems()] == ["given"]


def test_csv_calls_per_open_column(store: Store, tmp_path: Path) -> None:
    path = tmp_path / "calls.csv"
    path.write_text("np,size,calls,bw\n4,1048576,64,300\n4,1048576,1,150\n4,1048576,0,1\n")
    mapping = {"nprocs": "np", "bytes_per_rank": "size", "calls_per_open": "calls",
               "bandwidth": "bw"}  # fmt: skip
    system = System("h", "mpi", "ext4", "ufs", "/")
    with pytest.raises(IngestError, match=r"calls_per_open") as refused:
        ingest_csv(store, path, mapping, system, defaults=_DEFAULTS)
    assert "line 4" in str(refused.value)  # the bad cell is named; nothing was added
    path.write_text("np,size,calls,bw\n4,1048576,64,300\n4,1048576,1,150\n")
    result = ingest_csv(store, path, mapping, system, defaults=_DEFAULTS)
    assert (result.read, result.added) == (2, 2)
    assert sorted(store.measurements()["calls_per_open"].tolist()) == [1, 64]


def test_old_bench_lines_get_what_the_kernel_tells(store: Store, tmp_path: Path) -> None:
    """Lines written before the workload named its program (our kernel's, since only
    bench writes them) are stored with the kernel's fields, as a sweep writes them now."""
    strided = measurement("old:s", 30.0, nprocs=2, layout="strided", block=4096, fill=0.5)
    lines = bench_lines(measurement("old:c", 20.0, nprocs=2), strided)
    old = []
    for line in lines:
        data = json.loads(line)
        for name in ("ranks_per_node", "files", "interleaved", "stripe_count", "stripe_size"):
            del data["workload"][name]
        del data["workload"]["program"]
        old.append(json.dumps(data))
    assert ingest_bench(store, _write(tmp_path / "old.bench.jsonl", old)).added == 2
    rows = store.measurements().set_index("uid")
    assert rows.loc["old:s", "interleaved"] and not rows.loc["old:c", "interleaved"]
    assert set(rows["program"]) == {"iokernel"} and rows["files"].tolist() == [1, 1]
    assert rows["ranks_per_node"].tolist() == [2, 2]
    assert rows["stripe_count"].isna().all()


COMPUTED_CSV = """\
np,nodes,total_bytes,bw,stripe_kib,cb buf (MiB),rpn,files,inter,prog
4,2,4194304,100,1024,4,2,1,yes,btio
8,2,1048576,50,,,,8,0,
"""

COMPUTED_MAPPING = """
[columns]
nprocs = "np"
nodes = "nodes"
bandwidth = "bw"
ranks_per_node = "rpn"
files = "files"
interleaved = "inter"
program = "prog"

[computed]
bytes_per_rank = "total_bytes / np"
calls_per_open = "(np - np // 2 * 2) + 2 * (1 + 0)"
"cfg:cb_buffer_size" = "`cb buf (MiB)` * 1048576"
stripe_size = "stripe_kib * 1024"

[defaults]
layout = "contiguous"
pattern = "collective"
op = "write"

[system]
host = "elsewhere"
"""


def test_a_csv_mapping_computes_fields_from_columns(store: Store, tmp_path: Path) -> None:
    path, mapping = _csv(tmp_path, COMPUTED_CSV, COMPUTED_MAPPING)
    assert ingest_csv(store, path, mapping).added == 2
    rows = store.measurements().sort_values("nprocs")
    assert rows["bytes_per_rank"].tolist() == [1048576, 131072]
    assert rows["calls_per_open"].tolist() == [2, 2]
    assert rows["config"].tolist() == ["cb_buffer_size=4194304", "default"]
    assert rows["stripe_size"].iloc[0] == 1 << 20 and pd.isna(rows["stripe_size"].iloc[1])
    # The new fields from columns; an empty cell is unknown.
    assert rows["ranks_per_node"].iloc[0] == 2 and pd.isna(rows["ranks_per_node"].iloc[1])
    assert rows["files"].tolist() == [1, 8]
    assert rows["interleaved"].tolist() == [True, False]
    assert rows["program"].iloc[0] == "btio" and pd.isna(rows["program"].iloc[1])
    assert rows["stripe_count"].isna().all()


@pytest.mark.parametrize(
    ("formula", "message"),
    [
        ("np ** 2", "got ** in 'np ** 2'"),
        ("abs(np)", "got a function call"),
        ("__import__('os').getcwd()", "got a function call"),
        ("np +", "expected an expression of CSV columns and numbers"),
        ("'4096'", "got the constant '4096'"),
    ],
)
def test_a_computed_field_is_arithmetic_only(tmp_path: Path, formula: str, message: str) -> None:
    text = COMPUTED_MAPPING.replace('"total_bytes / np"', json.dumps(formula))
    with pytest.raises(IngestError, match=r"computed\.bytes_per_rank: ") as refused:
        _csv(tmp_path, COMPUTED_CSV, text)
    assert message in str(refused.value)


def test_computed_field_errors_name_the_column_or_the_line(store: Store, tmp_path: Path) -> None:
    unknown = COMPUTED_MAPPING.replace('"total_bytes / np"', '"total / np"')
    path, mapping = _csv(tmp_path, COMPUTED_CSV, unknown)
    with pytest.raises(IngestError) as refused:
        ingest_csv(store, path, mapping)
    assert (
        "computed.bytes_per_rank = 'total / np' reads column 'total', which is not in the "
        "header (columns: np, nodes, total_bytes, bw, stripe_kib, cb buf (MiB), rpn, files, "
        "inter, prog)" in str(refused.value)
    )
    bad_rows = COMPUTED_CSV + "0,1,4096,10,,,,,,\n3,1,4096,10,,,,,,\n2,1,,10,,,,,,\n"
    path, mapping = _csv(tmp_path, bad_rows, COMPUTED_MAPPING)
    with pytest.raises(IngestError) as refused:
        ingest_csv(store, path, mapping)
    problems = str(refused.value).splitlines()[1:]
    assert (
        f"{path} line 4 (computed bytes_per_rank = 'total_bytes / np'): expected a division "
        "by a non-zero number, got a division by zero in 'total_bytes / np'"
    ) in problems
    assert (
        f"{path} line 5 (computed bytes_per_rank = 'total_bytes / np'): expected an integer "
        ">= 0, got 1365.3333333333333"
    ) in problems
    assert (
        f"{path} line 6 (computed bytes_per_rank = 'total_bytes / np'): expected a number in "
        "column 'total_bytes', got an empty cell"
    ) in problems
    assert store.counts() == EMPTY
