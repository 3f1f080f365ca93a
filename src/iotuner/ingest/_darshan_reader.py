"""Reading a Darshan log safely: the header checked before PyDarshan sees the file, and
PyDarshan run in a child process (DarshanReader) with a time and memory limit, because its
C library crashes on some damaged logs; the child is _darshan_worker."""

import atexit
import contextlib
import functools
import os
import select
import signal
import stat
import struct
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import IO, Any

from iotuner.ingest._common import IngestError
from iotuner.ingest._darshan_worker import frame

DARSHAN_MAGIC = 6567223
"""DARSHAN_MAGIC_NR of darshan-log-format.h, the int64 after the 8-byte version."""

_OLD_HEADER = (24, 16)
"""Logs before format 3.41: (offset of name_map, module maps); partial_flag is uint32."""
_NEW_HEADER = (32, 64)
"""Format 3.41 on: partial_flag is uint64 and the header has room for 64 modules."""

# IO_MODULES (from _darshan_worker, which reads them): the modules whose records become
# groups, in the order a file's record is taken from.

MAX_DARSHAN_LOG_BYTES = 1 << 30
"""The largest log read. RATIONALE: Darshan compresses its logs; those of counters stay
under a few MiB even for jobs of many thousand ranks, and the largest with DXT traces are
hundreds of MiB (the traces are not read here). A larger file is more likely a wrong
file (a core dump, a sparse file) than a log, and refused before it is read."""

DARSHAN_READ_TIMEOUT = 300.0
"""Seconds the reader may take on one log before it is stopped. RATIONALE: the shipped
example logs read in well under a second each; five minutes leave room for the largest
real logs on a loaded node, while a log that makes the C library loop still ends."""

DARSHAN_START_TIMEOUT = 120.0
"""Seconds the reader's process may take to start (Python and PyDarshan's import: about
one second, many more on a loaded node or a slow shared file system)."""

DARSHAN_READER_MEMORY = 4 << 30
"""Address space the reader's process may use. RATIONALE: reading a log's counters
takes some 200 MiB with PyDarshan and pandas loaded; a corrupt log can make the C library
allocate what its damaged sizes say, and past this bound that allocation fails (an
error for that log) instead of making the machine swap."""

_WORKER = Path(__file__).with_name("_darshan_worker.py")


def is_darshan_log(path: Path) -> bool:
    """Whether the file starts like a Darshan log (a version text, then the magic number
    in either byte order); cheap: reads 16 bytes."""
    try:
        if not stat.S_ISREG(path.stat().st_mode):
            return False  # opening a FIFO would wait for a writer; a device never ends
        head = _head(path, 16)
    except OSError:
        return False
    return len(head) == 16 and _magic_order(head) is not None


def _head(path: Path, size: int) -> bytes:
    """The first `size` bytes of a regular file (fewer when it is shorter)."""
    fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | os.O_CLOEXEC)
    with os.fdopen(fd, "rb") as source:
        return source.read(size)


def _magic_order(head: bytes) -> str | None:
    for order in "<>":
        if struct.unpack(order + "q", head[8:16])[0] == DARSHAN_MAGIC:
            return order
    return None


_LONGEST_HEADER = _NEW_HEADER[0] + 16 * (1 + _NEW_HEADER[1]) + 4 * _NEW_HEADER[1]


def _check_header(path: Path, data: bytes, size: int) -> str:
    """The log's format version, after checking that the regions its header lists lie
    inside the file of `size` bytes, whose first bytes are `data`: a truncated log fails
    here (PyDarshan reads one silently as empty, or crashes on one cut inside the
    header)."""
    if len(data) < 16 or _magic_order(data) is None:
        raise IngestError(
            f"{path}: not a Darshan log (no Darshan version and magic number at the start)"
        )
    order = _magic_order(data)
    version = data[:8].split(b"\0", 1)[0].decode("ascii", "replace")
    try:
        major, minor = (int(part) for part in version.split("."))
    except ValueError:
        raise IngestError(f"{path}: not a Darshan log (version {version!r})") from None
    maps_at, modules = _NEW_HEADER if (major, minor) >= (3, 41) else _OLD_HEADER
    header_end = maps_at + 16 * (1 + modules) + 4 * modules
    if len(data) < header_end:
        raise IngestError(
            f"{path}: a truncated Darshan log ({size} bytes, shorter than its header)"
        )
    regions = struct.unpack_from(f"{order}{2 * (1 + modules)}Q", data, maps_at)
    for offset, length in zip(regions[::2], regions[1::2], strict=True):
        if length and offset + length > size:
            raise IngestError(
                f"{path}: a truncated Darshan log (its header lists data up to byte "
                f"{offset + length}, the file has {size})"
            )
    return version


class DarshanReader:
    """A process of its own that parses Darshan logs with PyDarshan
    (iotuner.ingest._darshan_worker), started at the first log and kept for the next.

    RATIONALE: PyDarshan's C library trusts the log it reads: a flipped byte can make it
    abort, segfault, loop or allocate without bound. In a child process such a log costs
    an error for that log: a child killed by a signal, past `timeout` seconds (it is then
    killed) or over `memory` bytes of address space. The child returns plain data (the
    job's metadata, names, mounts and one DataFrame of counters per I/O module), which
    this process turns into groups. Starting the child costs about a second (Python and
    PyDarshan's import); a log then costs what PyDarshan takes plus the copy of its
    counters through a pipe, so one reader serves a batch of logs, and after a crash or
    a timeout the next log starts a new child.

    Use it as a context manager, or call close(); read_darshan without a reader uses
    shared_reader(), closed when the interpreter exits. Thread-safe (one log at a time).
    """

    def __init__(
        self, timeout: float = DARSHAN_READ_TIMEOUT, memory: int = DARSHAN_READER_MEMORY
    ) -> None:
        self.timeout = timeout
        self.memory = memory
        self._child: subprocess.Popen[bytes] | None = None
        self._owner = 0
        """The pid that started the child: a forked copy of this object starts its own."""
        self._said: IO[bytes] | None = None
        """The child's standard error (what PyDarshan's C library prints)."""
        self._said_seen = 0
        self._lock = threading.Lock()

    def __enter__(self) -> "DarshanReader":
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()

    def read(self, path: Path) -> dict[str, Any]:
        """The log's plain data (_darshan_worker.read_log); IngestError when the reader
        cannot read it, crashes on it or takes longer than the timeout."""
        with self._lock:
            child = self._running()
            self._said_seen = self._said_size()
            try:
                assert child.stdin is not None
                child.stdin.write(frame(str(path)))
                child.stdin.flush()
            except OSError:
                pass  # the child is gone; the reply's end of input says how
            status, message = self._reply(child, path, self.timeout)
            said = self._words_said()
        if status == "ok" and isinstance(message, dict):
            return message
        raise IngestError(
            f"{path}: PyDarshan cannot read this log ({message}"
            + (f"; Darshan's library said: {said}" if said else "")
            + "): the log is corrupt or of an unsupported version"
        )

    def close(self) -> None:
        """Stop the child (asked first, killed if it does not end within seconds)."""
        with self._lock:
            self._stop(polite=True)

    def _running(self) -> "subprocess.Popen[bytes]":
        if self._child is not None and self._owner == os.getpid():
            return self._child
        self._child = None  # a child of the process this one was forked from: not ours
        if not sys.executable:
            raise IngestError("cannot start the Darshan reader: no Python interpreter is known")
        # Kept open for the child's life (its standard error), closed by _stop.
        self._said = tempfile.TemporaryFile()  # noqa: SIM115
        self._said_seen = 0
        # One thread for the numerical libraries: the reader needs none, and each thread
        # of OpenBLAS reserves address space against `memory`.
        env = {**os.environ, "OPENBLAS_NUM_THREADS": "1", "OMP_NUM_THREADS": "1"}
        try:
            child = subprocess.Popen(
                [sys.executable, "-P", str(_WORKER), str(self.memory)],
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=self._said,
                env=env,
                # Its own session: Ctrl-C at the terminal reaches iotuner, which stops it.
                start_new_session=True,
            )
        except OSError as exc:
            raise IngestError(f"cannot start the Darshan reader ({exc.strerror})") from None
        self._child, self._owner = child, os.getpid()
        status, message = self._reply(child, None, DARSHAN_START_TIMEOUT)
        if status != "ready":
            self._stop(polite=False)
            raise IngestError(f"reading Darshan logs needs the darshan package ({message})")
        return child

    def _reply(
        self, child: "subprocess.Popen[bytes]", path: Path | None, timeout: float
    ) -> tuple[str, object]:
        """The child's next frame as (status, message); for a child that ended or ran past
        `timeout` seconds, IngestError (and the child is gone)."""
        assert child.stdout is not None
        deadline = time.monotonic() + timeout
        what = f"on {path}" if path is not None else "while starting"
        head = self._exactly(child, 8, deadline)
        body = None
        if head is not None:
            body = self._exactly(child, int.from_bytes(head, "big"), deadline)
        if body is None:
            if time.monotonic() >= deadline:
                self._stop(polite=False)
                raise IngestError(
                    f"the Darshan reader took more than {timeout:g} s {what} and was stopped"
                    + ("" if path is None else ": the log is corrupt or too large to read")
                )
            raise IngestError(self._ended(child, path))
        import pickle

        reply = pickle.loads(body)  # our own child's frame
        return str(reply[0]), reply[1]

    def _exactly(
        self, child: "subprocess.Popen[bytes]", size: int, deadline: float
    ) -> bytes | None:
        """`size` bytes from the child, or None at its end of output or at the deadline."""
        assert child.stdout is not None
        fd = child.stdout.fileno()
        pieces: list[bytes] = []
        wanted = size
        while wanted:
            left = deadline - time.monotonic()
            if left <= 0 or not select.select([fd], [], [], left)[0]:
                return None
            piece = os.read(fd, min(wanted, 1 << 20))
            if not piece:
                return None
            pieces.append(piece)
            wanted -= len(piece)
        return b"".join(pieces)

    def _ended(self, child: "subprocess.Popen[bytes]", path: Path | None) -> str:
        """Words for a child whose output ended before its reply (on `path`, or while
        starting when None): how it ended."""
        what = f"on {path}" if path is not None else "while starting"
        try:
            code: int | None = child.wait(timeout=10)
        except subprocess.TimeoutExpired:
            code = None
        said = self._words_said()
        self._stop(polite=False)
        if code is not None and code < 0:
            try:
                name = f"signal {-code}, {signal.Signals(-code).name}"
            except ValueError:
                name = f"signal {-code}"
            how = f"crashed {what} ({name})"
        else:
            how = f"ended {what} (status {code})"
        why = "" if path is None else ": the log is corrupt or of an unsupported version"
        return f"the Darshan reader {how}{why}" + (
            f"; Darshan's library said: {said}" if said else ""
        )

    def _said_size(self) -> int:
        return os.fstat(self._said.fileno()).st_size if self._said is not None else 0

    def _words_said(self) -> str:
        """The last lines the child printed since the request (the C library's errors),
        at most a few hundred characters."""
        if self._said is None:
            return ""
        end = self._said_size()
        start = max(self._said_seen, end - 4096)
        text = os.pread(self._said.fileno(), end - start, start).decode("utf-8", "replace")
        lines = [line.strip() for line in text.splitlines() if line.strip()]
        words = "; ".join(dict.fromkeys(lines[-3:]))
        return words if len(words) <= 300 else "..." + words[-297:]

    def _stop(self, *, polite: bool) -> None:
        child, self._child = self._child, None
        if child is not None and self._owner == os.getpid():
            try:
                if polite and child.poll() is None:
                    assert child.stdin is not None
                    child.stdin.write(frame(None))
                    child.stdin.close()
                    child.wait(timeout=5)
            except (OSError, subprocess.TimeoutExpired):
                pass
            if child.poll() is None:
                child.kill()
                child.wait()
            for stream in (child.stdin, child.stdout):
                if stream is not None:
                    with contextlib.suppress(OSError):
                        stream.close()
        if self._said is not None:
            self._said.close()
            self._said = None


@functools.cache
def shared_reader() -> DarshanReader:
    """The reader read_darshan and ingest_darshan use when given none: one child process
    for all the logs of this process, stopped when the interpreter exits."""
    reader = DarshanReader()
    atexit.register(reader.close)
    return reader
