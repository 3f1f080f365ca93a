"""The child process that reads Darshan logs with PyDarshan for iotuner.ingest._darshan.

PyDarshan parses a log with Darshan's C library (libdarshan-util), which trusts the log:
one flipped byte can make it abort or segfault, or loop or allocate without end. So it
runs here, in a process of its own, and a crash costs the log being read, not iotuner.

Run as a script (`python -P _darshan_worker.py MEMORY_BYTES`), it imports only the
standard library, PyDarshan and pandas: not iotuner, whose import would cost seconds per
start. It then answers requests until its input ends:

* the parent writes frames (an 8-byte big-endian length, then a pickle) holding a path,
  or None to stop;
* the child answers each with a frame holding ("ok", log) or ("error", words): `log` is a
  dict of plain data (read_log), `words` what PyDarshan said;
* the first frame the child writes is ("ready", PyDarshan's version) or ("error", why it
  cannot read logs at all).

The frames go through a copy of the standard output taken at start; the standard output
itself is then pointed at the standard error, so what the C library prints cannot mix
with them. The parent keeps the standard error (a file) for its error messages.
"""

import gc
import os
import pickle
import resource
import signal
import stat
import struct
import sys
from typing import Any, BinaryIO

IO_MODULES = ("MPI-IO", "POSIX", "STDIO")
"""The modules whose records the parent groups (the same as _darshan.IO_MODULES)."""

_LENGTH = struct.Struct(">Q")

__all__ = ["IO_MODULES", "frame", "read_frame", "read_log", "write_frame"]


def frame(message: object) -> bytes:
    """`message` as one frame: its pickle's length, then the pickle."""
    data = pickle.dumps(message, protocol=pickle.HIGHEST_PROTOCOL)
    return _LENGTH.pack(len(data)) + data


def write_frame(stream: BinaryIO, message: object) -> None:
    stream.write(frame(message))
    stream.flush()


def read_frame(stream: BinaryIO) -> object:
    """The next message, or None at the end of the input."""
    head = stream.read(_LENGTH.size)
    if len(head) < _LENGTH.size:
        return None
    (length,) = _LENGTH.unpack(head)
    return pickle.loads(stream.read(length))


class CorruptLog(Exception):
    """What PyDarshan returned is not what a log holds (no exception of its own)."""


def read_log(path: str) -> dict[str, Any]:
    """The parts of a log the parent needs, as plain data (no PyDarshan object):

    job: the job's metadata (nprocs, run_time, start_time_sec, ...); exe: the command
    line; modules: name -> partial flag, in the log's order; names: record id -> file
    name; mounts: (mount point, file system type); frames: for each of IO_MODULES in the
    log, one pandas DataFrame of its records (rank, id, then the integer and float
    counters); stripes: record id -> (stripe count, stripe size) of the first Lustre
    layout component (empty without a LUSTRE module).
    """
    import darshan  # type: ignore[import-untyped]

    # A FIFO or device that took the file's place after the parent's check would block
    # or never end; the parent's time limit would catch it, this says why at once.
    if not stat.S_ISREG(os.stat(path).st_mode):
        raise CorruptLog("not a regular file any more")
    # read_all=False: the DXT traces, which can be large, are not needed. `with` closes
    # the log here: Darshan's close is where some damaged logs crash the C library, and
    # left to the garbage collector (the report's records refer to it) it would crash
    # on the next log, blamed on that one.
    with darshan.DarshanReport(path, read_all=False) as report:
        frames = {}
        for module in IO_MODULES:
            if module in report.modules:
                frames[module] = _frame(report, module)
        stripes = _stripes(report) if "LUSTRE" in report.modules else {}
        return {
            "job": dict(report.metadata["job"]),
            "exe": str(report.metadata.get("exe") or ""),
            "modules": {m: bool(i.get("partial_flag")) for m, i in report.modules.items()},
            "names": {int(k): str(v) for k, v in report.name_records.items()},
            "mounts": [(str(m), str(t)) for m, t in getattr(report, "mounts", [])],
            "frames": frames,
            "stripes": stripes,
        }


def _frame(report: Any, module: str) -> Any:
    """The module's records: one row per (rank, id), integer and float counters side by
    side."""
    import pandas as pd

    report.mod_read_all_records(module)
    records = report.records[module]
    if len(records) == 0:
        # Darshan writes a module's region only for records it holds: none readable
        # means the region (or the name table the records are matched with) is damaged.
        raise CorruptLog(f"the {module} region holds no record PyDarshan could read")
    frames = records.to_df()
    counters = frames["counters"]
    floats = frames["fcounters"].drop(columns=["rank", "id"])
    return pd.concat([counters, floats], axis=1)


def _stripes(report: Any) -> dict[int, tuple[int, int]]:
    """Record id -> (stripe count, stripe size) of its first Lustre layout component."""
    report.mod_read_all_lustre_records()
    records = report.records["LUSTRE"]
    if len(records) == 0:
        raise CorruptLog("the LUSTRE region holds no record PyDarshan could read")
    frame = records.to_df()["components"]
    found: dict[int, tuple[int, int]] = {}
    for row in frame.itertuples(index=False):
        count, size = int(row.LUSTRE_COMP_STRIPE_COUNT), int(row.LUSTRE_COMP_STRIPE_SIZE)
        if int(row.id) not in found and count >= 1 and size >= 1:
            found[int(row.id)] = (count, size)
    return found


def _words(exc: BaseException) -> str:
    text = str(exc).strip().replace("\n", " ")
    if isinstance(exc, MemoryError):
        text = "it needs more memory than the reader may use"
    elif isinstance(exc, RecursionError):
        text = "nested too deep"
    if isinstance(exc, CorruptLog):
        words = text
    else:
        words = f"{type(exc).__name__}: {text}" if text else type(exc).__name__
    return words if len(words) <= 300 else words[:297] + "..."


def main(argv: list[str]) -> int:
    # Bounds what a corrupt log can make the C library allocate: past it malloc fails
    # (a MemoryError, or a crash the parent reports) instead of the machine swapping.
    # A lower bound set on iotuner already (ulimit -v) stays.
    _, most = resource.getrlimit(resource.RLIMIT_AS)
    memory = int(argv[1]) if most == resource.RLIM_INFINITY else min(int(argv[1]), most)
    resource.setrlimit(resource.RLIMIT_AS, (memory, most))
    # Ctrl-C is for the parent, which stops this process itself.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    replies = os.fdopen(os.dup(sys.stdout.fileno()), "wb")
    os.dup2(sys.stderr.fileno(), sys.stdout.fileno())
    requests = sys.stdin.buffer
    try:
        import darshan

        write_frame(replies, ("ready", str(getattr(darshan, "__version__", "unknown"))))
    except Exception as exc:  # any failure to import is said, not raised
        write_frame(replies, ("error", f"cannot import PyDarshan ({_words(exc)})"))
        return 1
    while (path := read_frame(requests)) is not None:
        try:
            reply = frame(("ok", read_log(str(path))))
        except Exception as exc:  # PyDarshan raises anything on a bad log
            reply = frame(("error", _words(exc)))
            del exc
            # A report whose constructor failed is closed when collected: now, while
            # this log is the one read (see read_log).
            gc.collect()
        replies.write(reply)
        replies.flush()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
