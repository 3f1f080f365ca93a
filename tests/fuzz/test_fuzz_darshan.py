"""Fuzzing the Darshan reader: the shipped example logs with bytes flipped, cut off,
inserted or deleted, and files that are no log at all. The only outcomes allowed are a
DarshanJob that makes sense or IngestError (AdviceError through advise): no other
exception, no crash of this process (PyDarshan's C library runs in the reader's child),
and an end within the reader's time bound."""

import os
import tempfile
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import darshan  # type: ignore[import-untyped]
import pytest
from hypothesis import event, given
from hypothesis import strategies as st

from iotuner.advise import AdviceError, read_source
from iotuner.ingest import DarshanJob, IngestError, ingest_darshan, is_darshan_log, read_darshan
from iotuner.ingest._darshan import DARSHAN_START_TIMEOUT, DarshanReader
from iotuner.store import Store, open_store

EXAMPLES = Path(darshan.__file__).resolve().parent / "examples/example_logs"
SOURCES = {
    path.name: path.read_bytes()
    for path in sorted(EXAMPLES.glob("*.darshan"))
    # The small logs (2 to 16 KiB): each example reads one; the larger ones say no more
    # about damage and cost more per example.
    if path.stat().st_size <= 20_000
}

HEADER_AND_JOB = 1400
"""Bytes of a log's header (1328 at most) and a little more."""

FUZZ_READ_TIMEOUT = 30.0
"""The reader's timeout here: the small logs read in well under a second."""
BOUND = FUZZ_READ_TIMEOUT + DARSHAN_START_TIMEOUT
"""The longest one read may take: a new child's start (after a crash) and the timeout."""


@pytest.fixture(scope="module")
def reader() -> Iterator[DarshanReader]:
    with DarshanReader(timeout=FUZZ_READ_TIMEOUT) as shared:
        yield shared


@pytest.fixture(scope="module")
def store(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Store]:
    with open_store(tmp_path_factory.mktemp("kb") / "kb.sqlite") as opened:
        yield opened


@st.composite
def damaged_logs(draw: st.DrawFn) -> bytes:
    """A shipped log with one to three edits: a flipped bit, an overwritten byte, bytes
    inserted or deleted, or the end cut off."""
    data = bytearray(SOURCES[draw(st.sampled_from(sorted(SOURCES)))])
    for _ in range(draw(st.integers(1, 3))):
        if not data:
            break
        # Half the edits in the header and the uncompressed job record ahead of the
        # compressed regions, where a change leaves a log PyDarshan still reads.
        end = draw(st.sampled_from([min(len(data), HEADER_AND_JOB), len(data)]))
        at = draw(st.integers(0, end - 1))
        edit = draw(st.sampled_from(["flip", "overwrite", "insert", "delete", "truncate"]))
        if edit == "flip":
            data[at] ^= 1 << draw(st.integers(0, 7))
        elif edit == "overwrite":
            data[at] = draw(st.integers(0, 255))
        elif edit == "insert":
            data[at:at] = draw(st.binary(min_size=1, max_size=64))
        elif edit == "delete":
            del data[at : at + draw(st.integers(1, 64))]
        else:
            del data[at:]
    return bytes(data)


def _written(data: bytes, directory: Path) -> Path:
    fd, name = tempfile.mkstemp(suffix=".darshan", dir=directory)
    with os.fdopen(fd, "wb") as out:
        out.write(data)
    return Path(name)


def _check_job(job: DarshanJob) -> None:
    assert job.nprocs >= 1
    for group in job.groups:
        assert group.bytes > 0
        assert group.workload.nprocs >= 1
        assert group.op in ("write", "read")


@pytest.mark.slow  # CI's (its fuzz stage runs tests/fuzz)
@given(data=damaged_logs())
def test_read_darshan_gives_a_job_or_ingest_error(
    data: bytes,
    reader: DarshanReader,
    count_input: Callable[[str], None],
    tmp_path_factory: pytest.TempPathFactory,
) -> None:
    count_input("darshan: read_darshan")
    path = _written(data, tmp_path_factory.getbasetemp())
    started = time.monotonic()
    try:
        job = read_darshan(path, reader=reader)
    except IngestError as exc:
        assert str(path) in str(exc)
        event("crashed" if "crashed" in str(exc) else "refused")
    else:
        _check_job(job)
        event("read")
    finally:
        path.unlink()
    assert time.monotonic() - started < BOUND


@pytest.mark.slow  # CI's (its fuzz stage runs tests/fuzz)
@given(data=damaged_logs())
def test_ingest_darshan_stores_or_raises_ingest_error(
    data: bytes,
    reader: DarshanReader,
    store: Store,
    count_input: Callable[[str], None],
    tmp_path_factory: pytest.TempPathFactory,
) -> None:
    count_input("darshan: ingest_darshan")
    path = _written(data, tmp_path_factory.getbasetemp())
    started = time.monotonic()
    try:
        result = ingest_darshan(store, path, config=None, reader=reader)
    except IngestError as exc:
        assert path.name in str(exc)
    else:
        assert result.added + result.skipped == result.read
    finally:
        path.unlink()
    assert time.monotonic() - started < BOUND


# ------------------------------------------------------------------ files that are no log

HOSTILE = ("fifo", "dev_zero_link", "sparse_20_gib", "directory", "device", "empty", "missing")


def make_hostile(kind: str, directory: Path) -> Path:
    """A file of `kind` named like a Darshan log."""
    path = directory / f"{kind}.darshan"
    if kind == "fifo":
        os.mkfifo(path)
    elif kind == "dev_zero_link":
        path.symlink_to("/dev/zero")
    elif kind == "sparse_20_gib":
        path.write_bytes(SOURCES["example.darshan"])
        os.truncate(path, 20 << 30)
    elif kind == "directory":
        path.mkdir()
    elif kind == "device":
        path.symlink_to("/dev/null")
    elif kind == "empty":
        path.touch()
    return path


SECONDS_TO_REFUSE = 5.0
"""A file that is no log is refused before any is read: at once."""


@pytest.mark.parametrize("kind", HOSTILE)
def test_a_file_that_is_no_log_is_refused_at_once(
    kind: str, tmp_path: Path, reader: DarshanReader, count_input: Callable[[str], None]
) -> None:
    path = make_hostile(kind, tmp_path)
    count_input("corpus: read_darshan and read_source")
    started = time.monotonic()
    # The sparse file starts as a log does; the others are not even opened.
    assert is_darshan_log(path) == (kind == "sparse_20_gib")
    with pytest.raises(IngestError) as refused:
        read_darshan(path, reader=reader)
    assert str(path) in str(refused.value)
    with pytest.raises(AdviceError) as advised:
        read_source(path, reader=reader)
    assert str(path) in str(advised.value)
    assert time.monotonic() - started < SECONDS_TO_REFUSE
