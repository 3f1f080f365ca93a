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

import contextlib
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

LAYER_MODULES = ("H5F", "H5D", "PNETCDF_FILE", "PNETCDF_VAR", "DFS", "DAOS")
"""Modules read for the diagnosis only (iotuner.diagnose): the HDF5 and PnetCDF layers
above MPI-IO, and DAOS's file (DFS) and object (DAOS) interfaces, which bypass POSIX."""

DXT_MODULES = ("DXT_POSIX", "DXT_MPIIO")

DXT_SEGMENTS_KEPT = 200_000
"""Segments of each DXT module returned to the parent. RATIONALE: a DXT log can trace
millions of calls; 200,000 segments (rank, id, op, offset, length, start, end: some 40
bytes each, 8 MB) are enough to see small and unaligned calls, while the per-rank sums
(DxtRanks) cover every segment whatever the cap."""

_LENGTH = struct.Struct(">Q")

__all__ = [
    "DXT_MODULES",
    "DXT_SEGMENTS_KEPT",
    "IO_MODULES",
    "LAYER_MODULES",
    "frame",
    "read_frame",
    "read_log",
    "write_frame",
]


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
    counters), and the same for each of LAYER_MODULES the log has records of; stripes:
    record id -> (stripe count, stripe size) of the first Lustre layout component (empty
    without a LUSTRE module); osts: record id -> the Lustre storage targets (OST ids) of
    all its layout components, sorted (empty without a LUSTRE module); dxt: for each of
    DXT_MODULES in the log, _dxt's summary.
    job["run_time"] is the job's run time in seconds (from its start and end when the
    log's metadata lacks it).
    """
    import darshan  # type: ignore[import-untyped]

    # A FIFO or device that took the file's place after the parent's check would block
    # or never end; the parent's time limit would catch it, this says why at once.
    if not stat.S_ISREG(os.stat(path).st_mode):
        raise CorruptLog("not a regular file any more")
    # read_all=False: the DXT traces, which can be large, are read by _dxt, bounded. `with` closes
    # the log here: Darshan's close is where some damaged logs crash the C library, and
    # left to the garbage collector (the report's records refer to it) it would crash
    # on the next log, blamed on that one.
    with darshan.DarshanReport(path, read_all=False) as report:
        frames = {}
        for module in IO_MODULES:
            if module in report.modules:
                frames[module] = _frame(report, module)
        for module in LAYER_MODULES:
            if module in report.modules:
                # A layer module is for the diagnosis only: one it cannot read is left
                # out (the I/O modules above still say whether the log is sound).
                with contextlib.suppress(CorruptLog):
                    frames[module] = _frame(report, module)
        stripes, osts = _lustre(report) if "LUSTRE" in report.modules else ({}, {})
        dxt = {m: _dxt(report, m) for m in DXT_MODULES if m in report.modules}
        job = dict(report.metadata["job"])
        if not job.get("run_time") and "end_time_sec" in job and "start_time_sec" in job:
            job["run_time"] = float(job["end_time_sec"]) - float(job["start_time_sec"])
        return {
            "job": job,
            "exe": str(report.metadata.get("exe") or ""),
            "modules": {m: bool(i.get("partial_flag")) for m, i in report.modules.items()},
            "names": {int(k): str(v) for k, v in report.name_records.items()},
            "mounts": [(str(m), str(t)) for m, t in getattr(report, "mounts", [])],
            "frames": frames,
            "stripes": stripes,
            "osts": osts,
            "dxt": dxt,
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


def _lustre(report: Any) -> tuple[dict[int, tuple[int, int]], dict[int, tuple[int, ...]]]:
    """Record id -> (stripe count, stripe size) of its first Lustre layout component, and
    record id -> the storage targets (OST ids) of all its components."""
    report.mod_read_all_lustre_records()
    records = report.records["LUSTRE"]
    if len(records) == 0:
        raise CorruptLog("the LUSTRE region holds no record PyDarshan could read")
    frame = records.to_df()["components"]
    found: dict[int, tuple[int, int]] = {}
    targets: dict[int, set[int]] = {}
    for row in frame.itertuples(index=False):
        count, size = int(row.LUSTRE_COMP_STRIPE_COUNT), int(row.LUSTRE_COMP_STRIPE_SIZE)
        if int(row.id) not in found and count >= 1 and size >= 1:
            found[int(row.id)] = (count, size)
        # Darshan writes -1 for a target it could not read.
        ids = getattr(row, "LUSTRE_OST_IDS", None)
        targets.setdefault(int(row.id), set()).update(
            int(t) for t in (ids if ids is not None else ()) if int(t) >= 0
        )
    return found, {i: tuple(sorted(t)) for i, t in targets.items() if t}


def _dxt(report: Any, module: str) -> dict[str, Any]:
    """One DXT module's trace, bounded: {"segments": a numpy record array of at most
    DXT_SEGMENTS_KEPT segments (rank, id, write, offset, length, start, end; in the log's
    order), "total": the segments the log holds, "capped": whether some were left out,
    "ranks": {rank: [segments, bytes, busy seconds, first start, last end]} over all of
    them, "hosts": {rank: host name}}.

    RATIONALE: PyDarshan's own DXT reader builds one Python dict per segment; this copies
    each record's segment array (struct segment_info: offset, length, start, end) in one
    piece through PyDarshan's cffi handle, so a long trace costs its size, not a dict per
    call.
    """
    import numpy as np
    from darshan.backend import cffi_backend as backend  # type: ignore[import-untyped]

    ffi, lib = backend.ffi, backend.libdutil
    segment = np.dtype([("offset", "<i8"), ("length", "<i8"), ("start", "<f8"), ("end", "<f8")])
    if ffi.sizeof("struct segment_info") != segment.itemsize:
        raise CorruptLog("PyDarshan's DXT segment layout is not the one known here")
    index = backend.log_get_modules(report.log)[module]["idx"]
    header = ffi.sizeof("struct dxt_file_record")
    kept: list[Any] = []
    room, total = DXT_SEGMENTS_KEPT, 0
    ranks: dict[int, list[float]] = {}
    hosts: dict[int, str] = {}
    buf = ffi.new("void **")
    while lib.darshan_log_get_record(report.log["handle"], index, buf) >= 1:
        try:
            record = ffi.cast("struct dxt_file_record *", buf[0])
            writes, reads = int(record.write_count), int(record.read_count)
            if writes < 0 or reads < 0:
                raise CorruptLog(f"a {module} record counts {writes} writes, {reads} reads")
            rank, ident = int(record.base_rec.rank), int(record.base_rec.id)
            hosts.setdefault(rank, ffi.string(record.hostname).decode("utf-8", "replace"))
            count = writes + reads
            # Copied: the record's memory is freed right below.
            raw = np.frombuffer(
                ffi.buffer(ffi.cast("char *", buf[0]) + header, count * segment.itemsize),
                dtype=segment,
            ).copy()
        finally:
            lib.darshan_free(buf[0])
            buf[0] = ffi.NULL
        total += count
        if count == 0:
            continue
        _add_to_rank(ranks.setdefault(rank, [0.0, 0.0, 0.0, float("inf"), float("-inf")]), raw)
        take = min(count, room)
        if take:
            kept.append(_segments_kept(raw[:take], rank, ident, writes))
            room -= take
    segments = np.concatenate(kept) if kept else np.zeros(0)
    return {
        "segments": segments,
        "total": total,
        "capped": total > len(segments),
        "ranks": ranks,
        "hosts": hosts,
    }


def _add_to_rank(sums: list[float], raw: Any) -> None:
    """Adds one record's segments to its rank's [segments, bytes, busy seconds, first
    start, last end]."""
    sums[0] += len(raw)
    sums[1] += float(raw["length"].clip(min=0).sum())
    sums[2] += float((raw["end"] - raw["start"]).clip(min=0).sum())
    sums[3] = min(sums[3], float(raw["start"].min()))
    sums[4] = max(sums[4], float(raw["end"].max()))


def _segments_kept(raw: Any, rank: int, ident: int, writes: int) -> Any:
    """A record's first segments as rows of the kept array (its writes come first)."""
    import numpy as np

    part = np.zeros(
        len(raw),
        dtype=[
            ("rank", "<i8"),
            ("id", "<u8"),
            ("write", "?"),
            ("offset", "<i8"),
            ("length", "<i8"),
            ("start", "<f8"),
            ("end", "<f8"),
        ],
    )
    part["rank"], part["id"] = rank, ident
    part["write"] = np.arange(len(raw)) < writes
    for name in ("offset", "length", "start", "end"):
        part[name] = raw[name]
    return part


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
