"""Fuzzing the text readers: CSV files of measurements and their column mappings
(`ingest --kind csv`), bench results (`ingest --kind bench`), parameter spaces and tuning
tables, each a valid file with bytes flipped, inserted, deleted or cut off, and files that
are no file of that kind at all (a FIFO, /dev/zero behind a link, a 20 GiB sparse file, a
directory, a device). The only outcomes allowed are a valid result or the reader's own
error (IngestError, SpaceError, TableError) naming the file, in bounded time."""

import os
import tempfile
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from hypothesis import example, given
from hypothesis import strategies as st

from iotuner.errors import TableError
from iotuner.ingest import (
    CsvMapping,
    IngestError,
    ingest_bench,
    ingest_csv,
    load_mapping,
    mapping_from_dict,
)
from iotuner.measurement import Measurement, System, Workload, measurement_to_json
from iotuner.space import Space, SpaceError, load_space, shipped_spaces
from iotuner.store import Store, open_store
from iotuner.table import check_table, read_table

DATA = Path(__file__).resolve().parent.parent / "data"

MAPPING_TEXT = b"""\
[columns]
nprocs = "np"
bytes_per_rank = "xfer"
bandwidth = "bw"
"cfg:romio_cb_write" = "cb"

[defaults]
nodes = 1
pattern = "collective"
op = "write"
layout = "contiguous"

[values.pattern]
coll = "collective"

[system]
host = "cluster1"
"""
CSV_TEXT = b"""\
np,xfer,bw,cb
4,1048576,812.5,enable
8,65536,120,disable
16,16777216,2400.25,
"""
SYSTEM = System("node01", "MPICH Version: 4.1.2", "ext4", "ufs", "/")


def _bench_text() -> bytes:
    lines = []
    for index, (nprocs, bandwidth) in enumerate([(2, 100.0), (4, 250.5), (8, 80.0)]):
        workload = Workload(
            nprocs=nprocs, nodes=1, pattern="collective", op="write", layout="contiguous",
            bytes_per_rank=65536,
        )  # fmt: skip
        moved = workload.bytes_per_rank * nprocs
        measurement = Measurement(
            uid=f"fuzz-{index}",
            workload=workload,
            config={"romio_cb_write": "enable"},
            bandwidth=bandwidth,
            seconds=moved / 1048576 / bandwidth,
            bytes=moved,
            provenance={"bench_run": "fuzz"},
        )
        lines.append(measurement_to_json(measurement, SYSTEM, "romio-ufs"))
    return ("\n".join(lines) + "\n").encode()


BENCH_TEXT = _bench_text()
SPACE_TEXT = shipped_spaces()["demo-small"].read_bytes()
TABLE_TEXT = (DATA / "table.jsonl").read_bytes()

TOKENS = [b'"', b",", b"\n", b"\r", b"[", b"]", b"{", b"}", b"=", b"\x00", b"\xff", b"\xef\xbb\xbf"]
TOKENS += [b"nan", b"inf", b"-1", b"1e308", b"99999999999999999999", b"[[[[[[[[", b"\\u0000"]
"""Bytes that mean something to CSV, TOML or JSON, or that no number or text should be."""

SECONDS = 20.0
"""The longest a reader may take on one of these small inputs (a loaded machine)."""


@st.composite
def damaged(draw: st.DrawFn, source: bytes) -> bytes:
    """`source` with one to four edits: a flipped bit, a byte or token inserted or put
    in place of one, bytes deleted, a line repeated, or the end cut off."""
    data = bytearray(source)
    for _ in range(draw(st.integers(1, 4))):
        if not data:
            break
        at = draw(st.integers(0, len(data) - 1))
        edit = draw(st.sampled_from(["flip", "token", "insert", "delete", "repeat", "truncate"]))
        if edit == "flip":
            data[at] ^= 1 << draw(st.integers(0, 7))
        elif edit == "token":
            token = draw(st.sampled_from(TOKENS))
            data[at : at + draw(st.integers(0, 2))] = token
        elif edit == "insert":
            data[at:at] = draw(st.binary(min_size=1, max_size=32))
        elif edit == "delete":
            del data[at : at + draw(st.integers(1, 32))]
        elif edit == "repeat":
            start = data.rfind(b"\n", 0, at) + 1
            end = data.find(b"\n", at)
            line = bytes(data[start : end + 1 if end >= 0 else len(data)])
            data[start:start] = line * draw(st.integers(1, 3))
        else:
            del data[at:]
    return bytes(data)


def _written(data: bytes, directory: Path, suffix: str) -> Path:
    fd, name = tempfile.mkstemp(suffix=suffix, dir=directory)
    with os.fdopen(fd, "wb") as out:
        out.write(data)
    return Path(name)


@pytest.fixture(scope="module")
def store(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Store]:
    with open_store(tmp_path_factory.mktemp("kb") / "kb.sqlite") as opened:
        yield opened


@pytest.fixture(scope="module")
def mapping() -> CsvMapping:
    import tomllib

    return mapping_from_dict(tomllib.loads(MAPPING_TEXT.decode()), "fuzz mapping")


def _bounded(started: float) -> None:
    assert time.monotonic() - started < SECONDS


@given(data=damaged(CSV_TEXT))
# Found by this test: a count past SQLite's 64-bit INTEGER reached the store (OverflowError).
@example(data=CSV_TEXT.replace(b"\n16,", b"\n9999999999999999999916,"))
def test_ingest_csv_stores_or_raises_ingest_error(
    data: bytes,
    store: Store,
    mapping: CsvMapping,
    count_input: Callable[[str], None],
    tmp_path_factory: pytest.TempPathFactory,
) -> None:
    count_input("csv: ingest_csv")
    path = _written(data, tmp_path_factory.getbasetemp(), ".csv")
    started = time.monotonic()
    try:
        result = ingest_csv(store, path, mapping)
    except IngestError as exc:
        assert path.name in str(exc)
    else:
        assert result.added + result.skipped == result.read
    finally:
        path.unlink()
    _bounded(started)


@given(data=damaged(MAPPING_TEXT))
def test_load_mapping_gives_a_mapping_or_ingest_error(
    data: bytes, count_input: Callable[[str], None], tmp_path_factory: pytest.TempPathFactory
) -> None:
    count_input("csv: load_mapping")
    path = _written(data, tmp_path_factory.getbasetemp(), ".toml")
    started = time.monotonic()
    try:
        loaded = load_mapping(path)
    except IngestError as exc:
        assert path.name in str(exc)
    else:
        assert isinstance(loaded, CsvMapping)
    finally:
        path.unlink()
    _bounded(started)


@given(data=damaged(BENCH_TEXT))
# Found by this test: a number past a float's range where an integer goes (OverflowError).
@example(data=BENCH_TEXT.replace(b'"bytes": 131072', b'"bytes":1e308131072', 1))
def test_ingest_bench_stores_or_raises_ingest_error(
    data: bytes,
    store: Store,
    count_input: Callable[[str], None],
    tmp_path_factory: pytest.TempPathFactory,
) -> None:
    count_input("bench: ingest_bench")
    path = _written(data, tmp_path_factory.getbasetemp(), ".bench.jsonl")
    started = time.monotonic()
    try:
        result = ingest_bench(store, path)
    except IngestError as exc:
        assert path.name in str(exc)
    else:
        assert result.added + result.skipped == result.read
    finally:
        path.unlink()
    _bounded(started)


@given(data=damaged(SPACE_TEXT))
def test_load_space_gives_a_space_or_space_error(
    data: bytes, count_input: Callable[[str], None], tmp_path_factory: pytest.TempPathFactory
) -> None:
    count_input("space: load_space")
    path = _written(data, tmp_path_factory.getbasetemp(), ".toml")
    started = time.monotonic()
    try:
        space = load_space(path)
    except SpaceError as exc:
        assert path.name in str(exc)
    else:
        assert isinstance(space, Space)
    finally:
        path.unlink()
    _bounded(started)


@given(data=damaged(TABLE_TEXT))
def test_read_table_gives_entries_or_table_error(
    data: bytes, count_input: Callable[[str], None], tmp_path_factory: pytest.TempPathFactory
) -> None:
    count_input("table: read_table")
    path = _written(data, tmp_path_factory.getbasetemp(), ".jsonl")
    started = time.monotonic()
    try:
        checked = check_table(path)  # never raises: it judges every line
        try:
            entries = read_table(path)
        except TableError as exc:
            assert path.name in str(exc)
            assert checked.refused is not None or checked.dropped
        else:
            assert entries == checked.entries
    finally:
        path.unlink()
    _bounded(started)


# ------------------------------------------------------------------ files that are no file

HOSTILE = ("fifo", "dev_zero_link", "sparse_20_gib", "directory", "device")


def make_hostile(kind: str, directory: Path, name: str, start: bytes) -> Path:
    """A file of `kind` with the name a reader expects; the sparse one begins with
    `start`, a valid file of the kind."""
    path = directory / name
    if kind == "fifo":
        os.mkfifo(path)
    elif kind == "dev_zero_link":
        path.symlink_to("/dev/zero")
    elif kind == "sparse_20_gib":
        path.write_bytes(start)
        os.truncate(path, 20 << 30)
    elif kind == "directory":
        path.mkdir()
    else:
        path.symlink_to("/dev/null")
    return path


READERS: dict[str, tuple[str, bytes, type[Exception]]] = {
    "ingest_csv": ("m.csv", CSV_TEXT, IngestError),
    "load_mapping": ("mapping.toml", MAPPING_TEXT, IngestError),
    "ingest_bench": ("r.bench.jsonl", BENCH_TEXT, IngestError),
    "load_space": ("space.toml", SPACE_TEXT, SpaceError),
    "read_table": ("table.jsonl", TABLE_TEXT, TableError),
}


@pytest.mark.parametrize("reader", sorted(READERS))
@pytest.mark.parametrize("kind", HOSTILE)
def test_a_file_that_is_no_file_of_the_kind_is_refused_at_once(
    reader: str,
    kind: str,
    tmp_path: Path,
    store: Store,
    mapping: CsvMapping,
    count_input: Callable[[str], None],
) -> None:
    name, start, error = READERS[reader]
    path = make_hostile(kind, tmp_path, name, start)
    count_input(f"corpus: {reader}")
    read: dict[str, Callable[[], object]] = {
        "ingest_csv": lambda: ingest_csv(store, path, mapping),
        "load_mapping": lambda: load_mapping(path),
        "ingest_bench": lambda: ingest_bench(store, path),
        "load_space": lambda: load_space(path),
        "read_table": lambda: read_table(path),
    }
    started = time.monotonic()
    with pytest.raises(error) as refused:
        read[reader]()
    assert path.name in str(refused.value)
    _bounded(started)


ARCHIVE_RESULTS_TEXT = (
    b'{"path": "/a/x.darshan", "size": 10, "mtime_ns": 1, "status": "ok", "program": "ior",'
    b' "nprocs": 4, "io_core_hours": 0.5, "io_basis": "slowest rank", "findings": [],'
    b' "advice": []}\n'
    b'{"path": "/a/y.darshan", "size": 11, "mtime_ns": 2, "status": "error", "error": "bad"}\n'
)


@given(data=damaged(ARCHIVE_RESULTS_TEXT))
# Found by this test: a size of 1e30811 (infinity as a float) raised OverflowError.
@example(data=ARCHIVE_RESULTS_TEXT.replace(b'"size": 11', b'"size":1e30811'))
def test_read_results_gives_rows_or_archive_error(
    data: bytes, count_input: Callable[[str], None], tmp_path_factory: pytest.TempPathFactory
) -> None:
    """The results file of an archive run (`report --archive`, and a resumed run): rows
    keyed by path, size and time, or ArchiveError naming the file; a torn last line is
    left out, never an error."""
    from iotuner.archive import ArchiveError, read_results

    count_input("archive results: read_results")
    path = _written(data, tmp_path_factory.getbasetemp(), ".jsonl")
    started = time.monotonic()
    try:
        try:
            rows = read_results(path)
        except ArchiveError as exc:
            assert path.name in str(exc)
        else:
            assert all(isinstance(r, dict) and "path" in r for r in rows)
    finally:
        path.unlink()
    _bounded(started)
