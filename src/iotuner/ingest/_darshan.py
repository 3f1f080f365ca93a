"""Darshan logs as input: what a program's I/O did, read from the counters Darshan keeps.

read_darshan(path) reads one log with PyDarshan (the `darshan` package), in a child
process (DarshanReader: PyDarshan's C library crashes on some damaged logs), and returns a
DarshanJob: the program, its ranks, and its files gathered into groups that play the same
role (names equal once their digit runs are replaced by `*`: `out.0001.h5` and
`out.0002.h5` are `out.*.h5`), one group per operation (write, read) that moved bytes, the
largest first. Each group carries the Workload iotuner would measure for it, the log's
time and bandwidth for it, and the evidence (counter, value, plain words) of what in it
an MPI-IO hint could act on. ingest_darshan stores the groups (see its docstring).

Which counters each workload field comes from (a group's records are those of its files
in the module named; a record of rank -1 is a file all ranks opened, whose counters
Darshan summed over the ranks, and whose times it summed too):

* files through MPI-IO (the file has an MPI-IO record): the MPI-IO module. Calls =
  MPIIO_INDEP_* + MPIIO_COLL_* + MPIIO_SPLIT_* + MPIIO_NB_* (WRITES or READS); bytes =
  MPIIO_BYTES_WRITTEN or MPIIO_BYTES_READ; opens = MPIIO_INDEP_OPENS + MPIIO_COLL_OPENS.
  `pattern` is collective when collective calls (COLL and SPLIT) outnumber the others;
  nonblocking calls count as independent, since Darshan does not keep MPI_File_iwrite_all
  apart from MPI_File_iwrite. Files not seen by MPI-IO: the POSIX module (POSIX_WRITES,
  POSIX_BYTES_WRITTEN, POSIX_OPENS, ...), else the STDIO one; their pattern is independent
  and `through_mpiio` false: no MPI-IO hint reaches them.
* `nprocs`: the job's nprocs for a group with a rank -1 record (all ranks opened it);
  otherwise the ranks that have a record in the group. `nodes`: Darshan does not record
  the hosts, so the caller gives it (read_darshan(nodes=...)) or it is known only for one
  rank (1); elsewhere DarshanJob.nodes is None and the workload holds 1 as a stand-in
  (Workload needs a number), which ingest_darshan stores as unknown (NULL) and never puts
  in a measurement. `ranks_per_node`: nprocs on one node, else unknown.
* `bytes_per_rank` (bytes one rank moves in one call): the most common access size
  (MPIIO_ACCESS1..4_ACCESS with their _COUNT, POSIX_ACCESS1..4_*, summed over the
  group's records) when it covers at least half of the calls; else bytes / calls, the
  mean. STDIO has no access sizes: the mean.
* `calls_per_open`: calls / opens (both summed over ranks, so per rank per open), at
  least 1.
* `layout`, `block`, `fill`: from the POSIX record of the same files (MPI-IO counters keep
  no offsets). Strided when most POSIX writes (reads) are sequential but not consecutive
  (POSIX_SEQ_WRITES - POSIX_CONSEC_WRITES over POSIX_WRITES above one half: each access
  starts past the end of the one before, leaving a gap); block = the most common POSIX
  access size; fill = POSIX_BYTES_WRITTEN / (POSIX_MAX_BYTE_WRITTEN + 1), at most 1.
  Otherwise contiguous (block 0, fill 1). For collective MPI-IO the POSIX layer sees the
  aggregators' accesses, not the program's, so this tells what reached the file system.
* `files`: 1 for a group of rank -1 records (one shared file at a time); for files each
  opened by one rank, the ranks with a record (a file per process); unknown when files
  are shared by some ranks only. Darshan does not say whether files were open at once.
* `interleaved`: false for a file per process (one rank per file); unknown otherwise:
  without DXT, Darshan keeps no offsets per rank.
* `stripe_count`, `stripe_size`: LUSTRE_COMP_STRIPE_COUNT and LUSTRE_COMP_STRIPE_SIZE of
  the first layout component (logs before 3.41 call them LUSTRE_STRIPE_WIDTH and
  LUSTRE_STRIPE_SIZE; PyDarshan reads those as components), from the group's largest file
  with a LUSTRE record; unknown without one.
* `program`: the base name of the first word of the executable line; when it is empty, the
  executable's name in the log's file name as darshan-runtime writes it
  (`<user>_<exe>_id<job>_...`), else the log's file name without `.darshan`.
* `seconds`: the summed time of the calls (MPIIO_F_WRITE_TIME or MPIIO_F_READ_TIME, for
  POSIX and STDIO files POSIX_F_*_TIME, STDIO_F_*_TIME) over the records, divided by
  nprocs: the mean rank's time in those calls, opening and closing left out, as bench
  does. It is less than the wall time where ranks are unbalanced. `bandwidth`: bytes /
  seconds in MiB/s. None when the log gives no time.

What a log cannot tell: the MPI-IO hints in force (Darshan records none; the `h` entry
of its metadata holds the hints Darshan used to write the log itself), the hosts (and so
nodes and ranks per node), the offsets of each rank (hence whether requests interleave)
unless DXT traced them, the number of collective-buffering aggregators (so no evidence
compares aggregators with stripes: the shared POSIX record sums the ranks that wrote),
and whether the counters of a partial log (Darshan ran out of memory: `partial_flag`)
are complete.

Evidence codes: small_requests (most calls in the size buckets under 100 KiB),
independent_shared (independent MPI-IO calls dominate on a file all ranks opened),
misaligned (most POSIX accesses off POSIX_FILE_ALIGNMENT), posix_only (bytes that went
around MPI-IO), one_stripe_shared (a shared file on one Lustre stripe).
"""

import atexit
import contextlib
import functools
import os
import re
import select
import signal
import stat
import struct
import subprocess
import sys
import tempfile
import threading
import time
from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import IO, Any

import pandas as pd

from iotuner._inputs import InputError, checked_input
from iotuner.ingest._common import MIB, IngestError, IngestResult, commit_run, hash_input
from iotuner.ingest._darshan_worker import IO_MODULES, frame
from iotuner.measurement import Measurement, System, Workload
from iotuner.store import Record, Store

__all__ = [
    "DARSHAN_READER_MEMORY",
    "DARSHAN_READ_TIMEOUT",
    "MAX_DARSHAN_LOG_BYTES",
    "DarshanJob",
    "DarshanReader",
    "Evidence",
    "FileGroup",
    "ingest_darshan",
    "is_darshan_log",
    "is_system_file",
    "read_darshan",
    "shared_reader",
]

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

SMALL_CALL = 100 * 1024
"""Below this a call is small (Darshan's buckets end at 100 KiB: ..._10K_100K)."""

TINY_GROUP_SHARE = 0.001
"""Groups under this share of the job's bytes are summarised in a note, not listed."""

_STREAMS = re.compile(r"<(STDIN|STDOUT|STDERR)>")
_SYSTEM = re.compile(
    r"^/(usr|lib|lib32|lib64|bin|sbin|etc|proc|sys|dev|run)(/|$)"
    r"|/(site-packages|dist-packages|__pycache__|\.conda|\.cache)/"
    r"|/(ompi|openmpi-sessions)[^/]*/"
    r"|\.(pyc|pyo|py|pth|so)$|\.so\.[0-9.]+$"
)
_DIGITS = re.compile(r"[0-9]+")

_BUCKETS = ("0_100", "100_1K", "1K_10K", "10K_100K")
"""The size buckets below SMALL_CALL."""


@dataclass(frozen=True)
class Evidence:
    """One fact of the log that bears on tuning: `counter` names the counter(s) (joined by
    "+" when summed) over the group's records, `value` their sum, `words` says it."""

    code: str
    words: str
    counter: str
    value: float | int


@dataclass(frozen=True)
class FileGroup:
    """Files of one role and one operation; see the module docstring for the fields."""

    name: str
    files: int
    op: str
    workload: Workload
    bytes: int
    seconds: float | None
    bandwidth: float | None
    through_mpiio: bool
    evidence: list[Evidence] = field(default_factory=list)
    example_path: str = ""
    """One of the group's files, as the log names it (the mount table tells its file
    system)."""
    record_ids: tuple[int, ...] = ()
    """Darshan's record ids of the group's files (the same id in every module)."""


@dataclass(frozen=True)
class DarshanJob:
    """One Darshan log read: `nodes` is None where the log does not tell (it never does
    for more than one rank; read_darshan's caller may)."""

    path: Path
    program: str
    nprocs: int
    run_seconds: float | None
    modules: list[str]
    groups: list[FileGroup]
    notes: list[str]
    nodes: int | None = None
    start_time: float | None = None
    mounts: list[tuple[str, str]] = field(default_factory=list)
    exe: str = ""
    log: Mapping[str, Any] | None = field(default=None, repr=False, compare=False)
    """The reader's plain data of the log (_darshan_worker.read_log): what
    iotuner.diagnose reads its findings from."""


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


_LOG_NAME = re.compile(r"[^_]+_(?P<exe>.+?)_id\d+")
"""darshan-runtime's log names: <user>_<executable>_id<job>_<month>-<day>-<seconds>-..."""


def _program_of_log_name(path: Path) -> str:
    """The program of a log whose executable line is empty: from the log's name as
    darshan-runtime writes it, else the name itself (issue 42: dxt.darshan's program was
    blank in the terminal)."""
    stem = path.name.removesuffix(".darshan")
    named = _LOG_NAME.match(stem)
    return named.group("exe") if named else stem


def read_darshan(
    path: Path | str, nodes: int | None = None, *, reader: "DarshanReader | None" = None
) -> DarshanJob:
    """Read one Darshan log into its groups of files (see the module docstring).

    `nodes`: the hosts the job ran on, if the caller knows (Darshan does not record it).
    `reader`: the process that parses logs (DarshanReader), the one shared by the
    process's calls when None. IngestError for a file that is not a regular file of at
    most MAX_DARSHAN_LOG_BYTES, not a Darshan log, a truncated or corrupt one (also when
    the reader crashes on it or takes more than its timeout), or one with no I/O module.
    """
    path = Path(path)
    try:
        size = checked_input(path, "a Darshan log", MAX_DARSHAN_LOG_BYTES)
        head = _head(path, _LONGEST_HEADER)
    except InputError as exc:
        raise IngestError(str(exc)) from None
    except OSError as exc:
        raise IngestError(
            f"{path}: cannot read it ({exc.strerror}; expected a Darshan log)"
        ) from None
    _check_header(path, head, size)
    log = (reader or shared_reader()).read(path)
    try:
        return _job(path, log, nodes)
    except IngestError:
        raise
    except (KeyError, ValueError, TypeError, IndexError, ArithmeticError, AttributeError) as exc:
        # RATIONALE: the counters of a damaged log can be anything (a negative count, a
        # missing column of a module version never released); rather than a check of
        # every counter before use, a failure of the arithmetic over them is the log's.
        raise IngestError(
            f"{path}: the Darshan log's records are not what a Darshan 3 log holds "
            f"({type(exc).__name__}: {exc}): the log is corrupt or of an unsupported version"
        ) from None


def _job(path: Path, log: Mapping[str, Any], nodes: int | None) -> DarshanJob:
    """The DarshanJob of a log read by the reader's process (_darshan_worker.read_log)."""
    job = log["job"]
    nprocs = job.get("nprocs")
    if not isinstance(nprocs, int) or nprocs < 1:
        raise IngestError(
            f"{path}: the Darshan log says the job had {nprocs!r} processes, expected a "
            "count of at least 1: the log is corrupt"
        )
    if nodes is None and nprocs == 1:
        nodes = 1
    if nodes is not None and not 1 <= nodes <= nprocs:
        raise IngestError(f"nodes must be between 1 and the job's {nprocs} ranks, got {nodes}")
    partial_flags: Mapping[str, bool] = log["modules"]
    modules = list(partial_flags)
    present = [m for m in (*IO_MODULES, *_BYPASS_MODULES) if m in partial_flags]
    if not present:
        raise IngestError(
            f"{path}: the Darshan log has no I/O module (MPI-IO, POSIX, STDIO, DFS or "
            f"DAOS), only {', '.join(modules) or 'none'}: it tells nothing about the "
            "program's file I/O"
        )
    frames: Mapping[str, pd.DataFrame] = log["frames"]
    stripes: Mapping[int, tuple[int, int]] = log["stripes"]
    exe = str(log["exe"]).strip()
    program = os.path.basename(exe.split()[0]) if exe.split() else _program_of_log_name(path)
    run_time = job.get("run_time")
    notes = [
        "Darshan records no MPI-IO hint values: the configuration that produced these "
        "numbers is not in the log (its metadata's `h` entry holds the hints Darshan used "
        "to write the log itself)"
    ]
    if nodes is None:
        notes.append(
            f"Darshan does not record the hosts: the node count of the {nprocs} ranks is "
            "unknown (workloads hold 1 as a stand-in; stored as unknown)"
        )
    partial = [m for m, flag in partial_flags.items() if flag]
    if partial:
        notes.append(
            f"Darshan ran out of room for records in {', '.join(partial)}: the counters "
            "of those modules miss some files"
        )
    if any(m.startswith("DXT_") for m in modules):
        notes.append("DXT traces are in the log; these groups are read from the counters only")
    context = _Context(nprocs, nodes, program or None, stripes, log["names"])
    groups = _groups(frames, context)
    total = sum(g.bytes for g in groups)
    significant = [g for g in groups if total == 0 or g.bytes >= TINY_GROUP_SHARE * total]
    tiny = [g for g in groups if g not in significant]
    if tiny:
        notes.append(
            f"{len(tiny)} more groups moved {sum(g.bytes for g in tiny)} bytes in all "
            f"(under {TINY_GROUP_SHARE:.1%} of the job's {total}); not listed"
        )
    system = _system_bytes(frames, log["names"])
    if system:
        notes.append(
            f"{system} bytes moved to and from system files (Python modules, libraries, "
            "/usr, /etc ...) are not the program's data; not grouped"
        )
    bypass = {m: _moved(frames.get(m), _PREFIX[m]) for m in _BYPASS_MODULES}
    if not groups:
        through = [f"{n} bytes through {m}" for m, n in bypass.items() if n]
        notes.append(
            "no file seen by POSIX, MPI-IO or STDIO moved any bytes"
            + (f"; the I/O went around them: {', '.join(through)}" if through else "")
        )
    start = job.get("start_time_sec")
    return DarshanJob(
        path=path,
        program=program,
        nprocs=nprocs,
        run_seconds=float(run_time) if run_time else None,
        modules=modules,
        groups=significant,
        notes=notes,
        nodes=nodes,
        start_time=float(start) if start else None,
        mounts=list(log["mounts"]),
        exe=exe,
        log=log,
    )


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


@dataclass(frozen=True)
class _Context:
    nprocs: int
    nodes: int | None
    program: str | None
    stripes: Mapping[int, tuple[int, int]]
    names: Mapping[int, str]


_PREFIX = {"MPI-IO": "MPIIO", "POSIX": "POSIX", "STDIO": "STDIO", "DFS": "DFS", "DAOS": "DAOS"}

_BYPASS_MODULES = ("DFS", "DAOS")
"""DAOS's interfaces: their I/O reaches storage without POSIX, so a log can hold it alone."""


def _moved(frame: pd.DataFrame | None, prefix: str) -> int:
    """Bytes read and written in a module's records."""
    if frame is None or frame.empty:
        return 0
    return _sum(frame, f"{prefix}_BYTES_READ", f"{prefix}_BYTES_WRITTEN")


def _system_bytes(frames: Mapping[str, pd.DataFrame], names: Mapping[int, str]) -> int:
    """Bytes the POSIX and STDIO records of system files (is_system_file) moved."""
    moved = 0
    for module in ("POSIX", "STDIO"):
        frame = frames.get(module)
        if frame is None or frame.empty:
            continue
        mine = frame[[is_system_file(str(names.get(int(i), ""))) for i in frame["id"]]]
        moved += _moved(mine, module)
    return moved


def is_system_file(name: str) -> bool:
    """Whether a file is the system's or the interpreter's, not the program's data: under
    /usr, /lib, /etc, /proc, /sys, /dev ..., in a Python package directory, or a Python
    module or shared library by its suffix (.py, .pyc, .so), or an MPI library's session
    file (/tmp/ompi.*/...). RATIONALE: a Python program's
    log holds hundreds of imports; counted as data they outweigh a small HDF5 file and push
    it under TINY_GROUP_SHARE."""
    return bool(_SYSTEM.search(name))


def _role(name: str) -> str:
    """The name of a file's group: digit runs of its path replaced by `*`."""
    return _DIGITS.sub("*", name)


def _groups(frames: Mapping[str, pd.DataFrame], ctx: _Context) -> list[FileGroup]:
    """Every group of the log: each file is read from the first of IO_MODULES that has a
    record of it; streams (<STDOUT> ...) and system files (is_system_file) are left out."""
    taken: set[int] = set()
    groups: list[FileGroup] = []
    for module in IO_MODULES:
        frame = frames.get(module)
        if frame is None or frame.empty:
            continue
        ids = [int(i) for i in frame["id"]]
        names = [str(ctx.names.get(i, "")) for i in ids]
        keep = [
            i not in taken and not _STREAMS.fullmatch(n) and not is_system_file(n)
            for i, n in zip(ids, names, strict=True)
        ]
        own = frame[keep].copy()
        own["name"] = [n for n, k in zip(names, keep, strict=True) if k]
        taken.update(ids)
        posix = frames.get("POSIX") if module == "MPI-IO" else None
        for role, records in own.groupby(own["name"].map(_role), sort=False):
            for op in ("write", "read"):
                group = _group(module, str(role), op, records, posix, ctx)
                if group is not None:
                    groups.append(group)
    return sorted(groups, key=lambda g: (-g.bytes, g.name, g.op))


def _sum(records: pd.DataFrame, *columns: str) -> int:
    """The columns' total over the records. Darshan writes -1 for a counter that the
    version which wrote the log did not keep (POSIX_FILENOS in 3.1 logs): not counted."""
    # On the arrays, not the Series: pandas' clip costs some 2 ms a call, and an archive
    # run makes thousands of these per log (bench/archive.py).
    return int(sum(int(records[c].to_numpy().clip(0).sum()) for c in columns if c in records))


def _group(
    module: str,
    role: str,
    op: str,
    records: pd.DataFrame,
    posix: pd.DataFrame | None,
    ctx: _Context,
) -> FileGroup | None:
    """The group of `records` (one module's records of files of one role) for one op, or
    None when they moved no bytes that way."""
    p = _PREFIX[module]
    ops, past = ("WRITES", "WRITTEN") if op == "write" else ("READS", "READ")
    nbytes = _sum(records, f"{p}_BYTES_{past}")
    if nbytes <= 0:
        return None
    records = records[records[f"{p}_BYTES_{past}"] > 0]
    if module == "MPI-IO":
        collective = _sum(records, f"MPIIO_COLL_{ops}", f"MPIIO_SPLIT_{ops}")
        calls = collective + _sum(records, f"MPIIO_INDEP_{ops}", f"MPIIO_NB_{ops}")
        opens = _sum(records, "MPIIO_INDEP_OPENS", "MPIIO_COLL_OPENS")
    else:
        collective = 0
        calls = _sum(records, f"{p}_{ops}")
        # POSIX_OPENS already counts fileno and dup calls; STDIO keeps fdopen apart.
        opens = _sum(records, f"{p}_OPENS", f"{p}_FDOPENS")
    calls = max(calls, 1)
    shared = bool((records["rank"] == -1).any())
    ranks = sorted({int(r) for r in records["rank"] if int(r) >= 0})
    per_rank_files = not shared and all(
        n == 1 for n in records.groupby("id")["rank"].nunique().tolist()
    )
    nprocs = ctx.nprocs if shared else max(len(ranks), 1)
    files: int | None = 1 if shared else (len(ranks) if per_rank_files else None)
    ids = {int(i) for i in records["id"]}
    size = _common_size(records, p, op, calls)
    bytes_per_rank = size if size is not None else max(round(nbytes / calls), 1)
    same_files = None if posix is None else posix[posix["id"].isin(list(ids))]
    shape_records = records if module == "POSIX" else same_files
    layout, block, fill = _shape(shape_records, op)
    largest = records.sort_values(f"{p}_BYTES_{past}", ascending=False)["id"]
    stripe = next((ctx.stripes[int(i)] for i in largest if int(i) in ctx.stripes), None)
    nodes = ctx.nodes if ctx.nodes is not None else 1
    nodes = min(nodes, nprocs)
    workload = Workload(
        nprocs=nprocs,
        nodes=nodes,
        pattern="collective" if collective * 2 > calls else "independent",
        op=op,
        layout=layout,
        bytes_per_rank=bytes_per_rank,
        block=block,
        fill=fill,
        calls_per_open=max(round(calls / opens), 1) if opens else 1,
        ranks_per_node=nprocs if ctx.nodes == 1 else None,
        files=files,
        interleaved=False if per_rank_files else None,
        stripe_count=stripe[0] if stripe else None,
        stripe_size=stripe[1] if stripe else None,
        program=ctx.program,
    )
    time_column = f"{p}_F_{'WRITE' if op == 'write' else 'READ'}_TIME"
    total_time = (
        float(records[time_column].to_numpy().clip(0).sum()) if time_column in records else 0.0
    )
    seconds = total_time / nprocs if total_time > 0 else None
    bandwidth = nbytes / MIB / seconds if seconds else None
    name = role if len(ids) > 1 else str(records["name"].iloc[0])
    evidence = _evidence(module, op, records, same_files, workload, shared, calls, stripe)
    return FileGroup(
        name=name,
        files=len(ids),
        op=op,
        workload=workload,
        bytes=nbytes,
        seconds=seconds,
        bandwidth=bandwidth,
        through_mpiio=module == "MPI-IO",
        evidence=evidence,
        example_path=str(records["name"].iloc[0]),
        record_ids=tuple(sorted(ids)),
    )


def _common_size(records: pd.DataFrame, p: str, op: str, calls: int) -> int | None:
    """The most common access size of the records when it covers at least half of the
    calls; None when there is none (STDIO) or it covers fewer.

    RATIONALE: Darshan's four common sizes count reads and writes together, so a size
    whose count exceeds this op's calls must include the other op's calls: it is not
    taken as this op's size then."""
    if f"{p}_ACCESS1_ACCESS" not in records:
        return None
    counts: Counter[int] = Counter()
    for k in range(1, 5):
        sizes = records[f"{p}_ACCESS{k}_ACCESS"].tolist()
        hits = records[f"{p}_ACCESS{k}_COUNT"].tolist()
        for size, hit in zip(sizes, hits, strict=True):
            if int(size) > 0 and int(hit) > 0:
                counts[int(size)] += int(hit)
    if not counts:
        return None
    size, hit = counts.most_common(1)[0]
    return size if calls / 2 <= hit <= calls else None


def _shape(posix: pd.DataFrame | None, op: str) -> tuple[str, int, float]:
    """layout, block and fill from POSIX counters (module docstring); contiguous when
    there are none."""
    if posix is None or posix.empty:
        return "contiguous", 0, 1.0
    ops, past = ("WRITES", "WRITTEN") if op == "write" else ("READS", "READ")
    accesses = _sum(posix, f"POSIX_{ops}")
    gaps = _sum(posix, f"POSIX_SEQ_{ops}") - _sum(posix, f"POSIX_CONSEC_{ops}")
    if accesses == 0 or gaps * 2 <= accesses:
        return "contiguous", 0, 1.0
    moved = _sum(posix, f"POSIX_BYTES_{past}")
    extent = _sum(posix, f"POSIX_MAX_BYTE_{past}") + len(posix)
    block = _common_size(posix, "POSIX", op, accesses) or max(round(moved / accesses), 1)
    fill = min(moved / extent, 1.0) if extent > 0 and moved > 0 else 1.0
    return "strided", block, fill


def _evidence(
    module: str,
    op: str,
    records: pd.DataFrame,
    posix: pd.DataFrame | None,
    workload: Workload,
    shared: bool,
    calls: int,
    stripe: tuple[int, int] | None,
) -> list[Evidence]:
    found: list[Evidence] = []
    ops = "WRITES" if op == "write" else "READS"
    verb = "write" if op == "write" else "read"
    past_tense = "written" if op == "write" else "read"
    if module == "MPI-IO":
        histogram = [f"MPIIO_SIZE_{'WRITE' if op == 'write' else 'READ'}_AGG_{b}" for b in _BUCKETS]
    elif module == "POSIX":
        histogram = [f"POSIX_SIZE_{'WRITE' if op == 'write' else 'READ'}_{b}" for b in _BUCKETS]
    else:
        histogram = []
    small = _sum(records, *histogram)
    if histogram and small * 2 > calls:
        found.append(
            Evidence(
                "small_requests",
                f"{small} of {calls} {module} {verb} calls moved under 100 KiB each",
                "+".join(histogram),
                small,
            )
        )
    if module == "MPI-IO" and shared and workload.pattern == "independent":
        independent = _sum(records, f"MPIIO_INDEP_{ops}")
        if independent:
            found.append(
                Evidence(
                    "independent_shared",
                    f"a file all {workload.nprocs} ranks opened took {independent} independent "
                    f"{verb} calls and {calls - independent} others: collective calls would "
                    "let MPI-IO merge them",
                    f"MPIIO_INDEP_{ops}",
                    independent,
                )
            )
    if posix is not None and not posix.empty:
        accesses = _sum(posix, "POSIX_WRITES", "POSIX_READS")
        misaligned = _sum(posix, "POSIX_FILE_NOT_ALIGNED")
        if accesses and misaligned * 2 > accesses:
            alignment = int(posix["POSIX_FILE_ALIGNMENT"].max())
            found.append(
                Evidence(
                    "misaligned",
                    f"{misaligned} of {accesses} POSIX accesses did not start on a multiple "
                    f"of the file system's {alignment}-byte alignment",
                    "POSIX_FILE_NOT_ALIGNED",
                    misaligned,
                )
            )
    if module != "MPI-IO":
        bytes_column = f"{_PREFIX[module]}_BYTES_{'WRITTEN' if op == 'write' else 'READ'}"
        found.append(
            Evidence(
                "posix_only",
                f"{_sum(records, bytes_column)} bytes were {past_tense} through {module} "
                "calls, not MPI-IO: MPI-IO hints cannot act on them",
                bytes_column,
                _sum(records, bytes_column),
            )
        )
    if stripe is not None and shared and stripe[0] == 1 and workload.nprocs > 1:
        found.append(
            Evidence(
                "one_stripe_shared",
                f"a file shared by {workload.nprocs} ranks lies on a single Lustre stripe",
                "LUSTRE_COMP_STRIPE_COUNT",
                1,
            )
        )
    return found


def _fs_of(mounts: Iterable[tuple[str, str]], names: Iterable[str]) -> tuple[str, str]:
    """(fs type, mount point) of the longest mount point that holds the first of `names`
    under any mount; ("unknown", "unknown") when none does."""
    table = sorted(mounts, key=lambda m: len(m[0]), reverse=True)
    for name in names:
        for mount, fs_type in table:
            if name == mount or name.startswith(mount.rstrip("/") + "/"):
                return fs_type, mount
    return "unknown", "unknown"


def darshan_system(job: DarshanJob, file_names: Iterable[str]) -> System:
    """The system of a log: host unknown (Darshan keeps no host name), MPI library
    unknown (nor its MPI), the file system from the log's mount table for the files,
    driver unknown (the MPI-IO driver is not recorded).

    A file the log's LUSTRE module recorded is on Lustre whatever the mount table says:
    Darshan records the path the program opened, and where that path runs through a
    symbolic link (/projects -> /lus/theta-fs0/projects) the longest mount holding it is
    the root's (overlay, tmpfs), not the Lustre mount the data lies on."""
    names = list(file_names)
    fs_type, mount = _fs_of(job.mounts, names)
    if fs_type != "lustre" and _on_lustre(job, names):
        lustre = sorted({m for m, t in job.mounts if t == "lustre"})
        fs_type, mount = "lustre", lustre[0] if len(lustre) == 1 else "unknown"
    return System("unknown", "unknown", fs_type, "unknown", mount)


def _on_lustre(job: DarshanJob, names: list[str]) -> bool:
    """Whether the log's LUSTRE module holds a record of the first of `names`."""
    if job.log is None or not names:
        return False
    stripes = job.log.get("stripes") or {}
    return any(
        name == names[0] and int(ident) in stripes
        for ident, name in (job.log.get("names") or {}).items()
    )


def ingest_darshan(
    store: Store,
    path: Path | str,
    *,
    config: dict[str, str] | None,
    system: System | None = None,
    nodes: int | None = None,
    reader: DarshanReader | None = None,
) -> IngestResult:
    """Ingest one Darshan log (read by `reader`, else the shared one: read_darshan).

    With `config` (the configuration the job ran with; {} for the system's defaults),
    each group with a time becomes a measurement (bandwidth from the log) in a run of kind
    "trace" (a log of a real program's run, as our own traces are; the run's meta says
    `format: darshan`) on `system` or, when None, darshan_system(). It needs the node
    count where the job had more than one rank: `nodes`. Without `config`, each group is
    stored in the workloads table only (what the program does, no bandwidth to tie to a
    configuration). Uids: the log's sha256 and the group's index; ingesting the log again
    adds nothing.
    """
    # Checked under the name given: a link to /dev/zero is refused as the link's name.
    digest = hash_input(Path(path), "a Darshan log", MAX_DARSHAN_LOG_BYTES)
    path = Path(path).resolve()
    job = read_darshan(path, nodes=nodes, reader=reader)
    names = [g.example_path for g in job.groups]
    if config is None:
        return _store_workloads(store, path, digest, job)
    if job.nodes is None:
        raise IngestError(
            f"{path}: Darshan does not record how many nodes the {job.nprocs} ranks ran on, "
            "and a measurement needs it: give the node count (--darshan-nodes N)"
        )
    given_system = system
    system = system or darshan_system(job, names)
    records: list[Record] = []
    ignored = 0
    for index, group in enumerate(job.groups):
        if group.seconds is None or group.bandwidth is None:
            ignored += 1
            continue
        measurement = Measurement(
            uid=f"{digest}:{index}",
            workload=group.workload,
            config=dict(config),
            bandwidth=group.bandwidth,
            seconds=group.seconds,
            bytes=group.bytes,
            provenance={"darshan": str(path), "group": group.name, "files": group.files},
        )
        records.append((measurement, system, "darshan"))
    meta = {"format": "darshan", "exe": job.exe, "notes": job.notes, "nprocs": job.nprocs}
    result = commit_run(
        store,
        path,
        "trace",
        digest,
        records,
        ignored,
        program=job.program or None,
        system=system,
        meta=meta,
        started_at=job.start_time,
    )
    where = (
        "the log's mount table"
        if system.fs_type != "unknown"
        else "no mount in the log holds the files"
    )
    detail = (
        f"measurements on system host {system.host}, MPI {system.mpi_library}, "
        f"{system.fs_type} at {system.fs_mount} (file system from {where}; Darshan records "
        "no host, MPI library or MPI-IO driver)"
        if given_system is None
        else f"measurements on the given system (host {system.host})"
    )
    return IngestResult(path, "darshan", result.read, result.added, result.skipped, ignored, detail)


def _store_workloads(store: Store, path: Path, digest: str, job: DarshanJob) -> IngestResult:
    rows = []
    for index, group in enumerate(job.groups):
        row = group.workload.as_row()
        if job.nodes is None:
            row["nodes"] = None
        rows.append(
            {
                "uid": f"{digest}:{index}",
                "kind": "darshan",
                "source": str(path),
                "source_uid": digest,
                "name": group.name,
                "files_in_group": group.files,
                "through_mpiio": group.through_mpiio,
                **row,
                "bytes": group.bytes,
                "seconds": group.seconds,
                "bandwidth": group.bandwidth,
                "started_at": job.start_time,
                "meta": {
                    "evidence": [asdict(e) for e in group.evidence],
                    "notes": job.notes,
                    "exe": job.exe,
                },
            }
        )
    with store.transaction():
        added = store.add_workloads(rows)
    return IngestResult(path, "darshan", len(rows), added, len(rows) - added)
