"""Hostile inputs to the readers of `iotuner ingest` and `iotuner advise` (issue 24): each
case the testers found on main, run through the command line in a process of its own
(a crash, a hang or a memory blow-up must show as a failed test, not take pytest down),
must end in one "iotuner: error:" message naming the file and what was wrong, with the
error exit status, no traceback, in bounded time and memory.

The Darshan cases are real logs PyDarshan ships with one byte changed: the reader's C
library crashes on some (SIGABRT or SIGSEGV), PyDarshan's Python raises on others.
"""

import os
import resource
import stat
import subprocess
import sys
import time
from pathlib import Path

import darshan  # type: ignore[import-untyped]
import pytest

from iotuner.cli._common import ERROR_STATUS
from iotuner.ingest import DarshanJob, IngestError, read_darshan
from iotuner.ingest._darshan import DarshanReader

LOGS = Path(darshan.__file__).resolve().parent / "examples/example_logs"
NOPOSIX = LOGS / "noposix.darshan"
EXAMPLE = LOGS / "example.darshan"

CLI_SECONDS = 60
"""Wall time a refused input may take, the command's start-up included (a loaded CI
machine starts iotuner and the Darshan reader in a few seconds)."""
CLI_MEMORY = 3 << 30
"""Address space the command may use: /dev/zero read whole would pass it."""

CLI = "import sys; from iotuner.cli import main; sys.exit(main())"


def _limit_memory() -> None:
    resource.setrlimit(resource.RLIMIT_AS, (CLI_MEMORY, CLI_MEMORY))


def run_iotuner(*args: str | Path, cwd: Path) -> subprocess.CompletedProcess[str]:
    """`iotuner ARGS` in a process of its own, stopped (and the test failed) past
    CLI_SECONDS."""
    started = time.monotonic()
    try:
        return subprocess.run(
            [sys.executable, "-c", CLI, *map(str, args)],
            capture_output=True,
            text=True,
            timeout=CLI_SECONDS,
            cwd=cwd,
            preexec_fn=_limit_memory,
        )
    except subprocess.TimeoutExpired:
        pytest.fail(f"iotuner {' '.join(map(str, args))} still ran after {CLI_SECONDS} s")
    finally:
        assert time.monotonic() - started < CLI_SECONDS + 5


def assert_refused(result: subprocess.CompletedProcess[str], path: Path, *words: str) -> None:
    """One error (possibly of several lines) naming `path` and saying `words`; the error
    status; no traceback."""
    shown = f"status {result.returncode}, stderr:\n{result.stderr[-3000:]}"
    assert result.returncode == ERROR_STATUS, shown
    assert "Traceback" not in result.stderr, shown
    errors = [line for line in result.stderr.splitlines() if line.startswith("iotuner: error:")]
    assert errors, shown
    message = "\n".join(errors)
    assert str(path) in message, shown
    for word in words:
        assert word in message, shown


def flipped(source: Path, offset: int, mask: int, target: Path) -> Path:
    data = bytearray(source.read_bytes())
    data[offset] ^= mask
    target.write_bytes(bytes(data))
    return target


def ingest(path: Path, tmp_path: Path, *options: str) -> subprocess.CompletedProcess[str]:
    return run_iotuner("ingest", "--db", tmp_path / "kb.sqlite", *options, path, cwd=tmp_path)


def advise(path: Path, tmp_path: Path) -> subprocess.CompletedProcess[str]:
    # No model folder in tmp_path: advise reads the log and gives the evidence only.
    return run_iotuner("advise", path, cwd=tmp_path)


# ------------------------------------------------------------------ Darshan: corrupt logs

CRASHING = (NOPOSIX, 970, 0x10)
"""The byte the testers flipped: the C reader aborts (free(): invalid pointer) or
segfaults, depending on the allocator."""
KEY_ERROR = (NOPOSIX, 2201, 0x02)
"""PyDarshan's report.to_df raised KeyError: 'counters' (a module of no readable records)."""
ATTRIBUTE_ERROR = (NOPOSIX, 9685, 0x02)
"""PyDarshan raised AttributeError: 'DataFrame' object has no attribute 'counters'."""


@pytest.mark.parametrize("command", [ingest, advise])
@pytest.mark.parametrize(
    "case", [CRASHING, KEY_ERROR, ATTRIBUTE_ERROR], ids=["crash", "keyerror", "attributeerror"]
)
def test_a_corrupt_darshan_log_is_one_error(
    command: object, case: tuple[Path, int, int], tmp_path: Path
) -> None:
    source, offset, mask = case
    log = flipped(source, offset, mask, tmp_path / "corrupt.darshan")
    result = command(log, tmp_path)  # type: ignore[operator]
    assert_refused(result, log, "corrupt")


def test_a_crash_of_the_c_reader_names_the_signal(tmp_path: Path) -> None:
    source, offset, mask = CRASHING
    log = flipped(source, offset, mask, tmp_path / "corrupt.darshan")
    with pytest.raises(IngestError, match=r"crashed on .*corrupt.darshan \(signal \d+"):
        read_darshan(log)


def test_the_reader_goes_on_after_a_crash(tmp_path: Path) -> None:
    """One reader for many logs (an archive): a log that kills the C reader costs that
    log only; the next is read by a new child."""
    source, offset, mask = CRASHING
    log = flipped(source, offset, mask, tmp_path / "corrupt.darshan")
    with DarshanReader() as reader:
        first = read_darshan(EXAMPLE, reader=reader)
        with pytest.raises(IngestError, match="crashed"):
            read_darshan(log, reader=reader)
        again = read_darshan(EXAMPLE, reader=reader)
    assert isinstance(first, DarshanJob)
    assert again == first


def test_a_log_read_for_too_long_is_stopped(tmp_path: Path) -> None:
    """The time limit, shown with a limit no log can meet; the reader then reads on."""
    with (
        DarshanReader(timeout=0.000_001) as hurried,
        pytest.raises(IngestError, match=r"took more than 1e-06 s on .*example.darshan"),
    ):
        read_darshan(EXAMPLE, reader=hurried)
    with DarshanReader() as reader:
        assert read_darshan(EXAMPLE, reader=reader).nprocs == 2048


# ------------------------------------------------------------------ files that are no file


def test_ingest_of_dev_zero_through_a_darshan_name_is_refused(tmp_path: Path) -> None:
    link = tmp_path / "x.darshan"
    link.symlink_to("/dev/zero")
    assert_refused(ingest(link, tmp_path), link, "character device")


def test_ingest_of_a_fifo_is_refused_without_blocking(tmp_path: Path) -> None:
    fifo = tmp_path / "pipe.darshan"
    os.mkfifo(fifo)
    assert_refused(ingest(fifo, tmp_path), fifo, "FIFO")


def test_a_huge_sparse_file_with_a_real_header_is_refused_up_front(tmp_path: Path) -> None:
    sparse = tmp_path / "sparse.darshan"
    sparse.write_bytes(EXAMPLE.read_bytes())
    os.truncate(sparse, 20 << 30)
    started = time.monotonic()
    assert_refused(ingest(sparse, tmp_path), sparse, "20.0 GiB")
    assert_refused(advise(sparse, tmp_path), sparse, "20.0 GiB")
    assert time.monotonic() - started < CLI_SECONDS


@pytest.mark.parametrize(
    ("make", "kind"),
    [
        (lambda p: os.mkfifo(p), "FIFO"),
        (lambda p: p.symlink_to("/dev/null"), "character device"),
        (lambda p: p.mkdir(), "directory"),
    ],
    ids=["fifo", "device", "directory"],
)
def test_advise_says_what_the_file_is(make: object, kind: str, tmp_path: Path) -> None:
    """Not "no such file": the file is there, and is not a log."""
    path = tmp_path / "job.darshan"
    make(path)  # type: ignore[operator]
    result = advise(path, tmp_path)
    assert_refused(result, path, kind)
    assert "no such file" not in result.stderr


@pytest.mark.parametrize(
    ("kind", "name"), [("csv", "m.csv"), ("bench", "r.bench.jsonl"), ("darshan", "x.darshan")]
)
def test_ingest_of_a_fifo_of_each_kind_is_refused(kind: str, name: str, tmp_path: Path) -> None:
    fifo = tmp_path / name
    os.mkfifo(fifo)
    assert stat.S_ISFIFO(fifo.stat().st_mode)
    options = ["--kind", kind]
    if kind == "csv":
        mapping = tmp_path / "mapping.toml"
        mapping.write_text(
            '[columns]\nnprocs = "np"\nbandwidth = "bw"\n'
            '[defaults]\nnodes = 1\npattern = "collective"\nop = "write"\n'
            'layout = "contiguous"\nbytes_per_rank = 1048576\n'
            '[system]\nhost = "h"\n'
        )
        options += ["--mapping", str(mapping)]
    assert_refused(ingest(fifo, tmp_path, *options), fifo, "FIFO")


def test_a_csv_mapping_that_is_a_fifo_is_refused(tmp_path: Path) -> None:
    data = tmp_path / "m.csv"
    data.write_text("np,bw\n4,100\n")
    mapping = tmp_path / "mapping.toml"
    os.mkfifo(mapping)
    result = ingest(data, tmp_path, "--kind", "csv", "--mapping", str(mapping))
    assert_refused(result, mapping, "FIFO")


def test_ingest_of_a_fifo_of_no_known_name_or_kind_is_refused(tmp_path: Path) -> None:
    """Without --kind and without a known suffix, ingest peeks at the file's start to
    tell its kind: a FIFO would block that peek."""
    fifo = tmp_path / "unnamed"
    os.mkfifo(fifo)
    assert_refused(ingest(fifo, tmp_path), fifo, "FIFO")
