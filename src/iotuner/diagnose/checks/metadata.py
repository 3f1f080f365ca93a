"""Metadata at POSIX: time in opens, stats, seeks and syncs, and the system files read.

Reads: POSIX_F_META_TIME against POSIX_F_READ/WRITE_TIME over every file but the streams,
POSIX_OPENS, POSIX_STATS; the records of system files (iotuner.ingest.is_system_file:
Python modules, libraries, /usr, /etc) and their bytes.
Finds: metadata time past T.METADATA_RECORD_SECONDS on one record, or past
T.METADATA_SHARE of the I/O time and T.METADATA_SECONDS per rank; the system files' opens,
bytes and time, which the data checks leave out.
Codes: metadata.time, files.system.
"""

from collections.abc import Iterable

from iotuner.diagnose import _thresholds as T
from iotuner.diagnose._finding import Finding
from iotuner.diagnose.checks._helpers import Check, Log, as_pct, as_secs, as_size, summed


def _metadata(ctx: Log) -> Iterable[Finding]:
    frame = ctx.frame("POSIX", kind="all")
    if frame is None:
        return
    meta = summed(frame, "POSIX_F_META_TIME")
    data = summed(frame, "POSIX_F_READ_TIME", "POSIX_F_WRITE_TIME")
    slow = frame[frame["POSIX_F_META_TIME"] > T.METADATA_RECORD_SECONDS]
    per_rank = meta / ctx.nprocs
    heavy = meta + data > 0 and meta / (meta + data) > T.METADATA_SHARE
    if slow.empty and not (heavy and per_rank >= T.METADATA_SECONDS):
        return
    worst = frame.sort_values("POSIX_F_META_TIME", ascending=False)
    subject = ctx.name(worst["id"].iloc[0])
    system = ctx.frame("POSIX", kind="system")
    system_meta = summed(system, "POSIX_F_META_TIME")
    yield Finding(
        "metadata.time",
        ctx.level(per_rank),
        "POSIX",
        subject,
        f"the mean rank spent {as_secs(per_rank)} in metadata calls (open, stat, seek, sync) "
        f"against {as_secs(data / ctx.nprocs)} reading and writing"
        + (f"; {len(slow)} record(s) over {T.METADATA_RECORD_SECONDS:g} s" if len(slow) else "")
        + (f"; {as_pct(system_meta, meta)} on system files" if system_meta else "")
        + f"; most on {subject}",
        {
            "POSIX_F_META_TIME": meta,
            "POSIX_F_READ_TIME+POSIX_F_WRITE_TIME": data,
            "POSIX_OPENS": summed(frame, "POSIX_OPENS"),
            "POSIX_STATS": summed(frame, "POSIX_STATS"),
        },
        "open fewer files (aggregate per node or into one shared file), keep files open "
        "across steps, and avoid stat/seek storms; for Python imports, a packed "
        "environment (container, squashfs)",
        per_rank,
    )


def _system_files(ctx: Log) -> Iterable[Finding]:
    frame = ctx.frame("POSIX", kind="system")
    if frame is None:
        return
    seconds = summed(frame, "POSIX_F_READ_TIME", "POSIX_F_WRITE_TIME", "POSIX_F_META_TIME")
    seconds /= ctx.nprocs
    files = frame["id"].nunique()
    moved = summed(frame, "POSIX_BYTES_READ", "POSIX_BYTES_WRITTEN")
    yield Finding(
        "files.system",
        ctx.level(seconds),
        "POSIX",
        "system files",
        f"{files} system file(s) (Python modules, libraries, /usr, /etc) took "
        f"{summed(frame, 'POSIX_OPENS'):,.0f} opens and {as_size(moved)}: "
        f"{as_secs(seconds)} of the mean rank; left out of the data checks",
        {
            "POSIX_OPENS": summed(frame, "POSIX_OPENS"),
            "POSIX_BYTES_READ": summed(frame, "POSIX_BYTES_READ"),
            "POSIX_F_META_TIME": summed(frame, "POSIX_F_META_TIME"),
        },
        "",
        seconds,
    )


METADATA = Check(
    "metadata",
    _metadata,
    {"metadata.time": "the ranks spent much of their I/O time in metadata calls"},
)
SYSTEM_FILES = Check(
    "system_files",
    _system_files,
    {"files.system": "the opens, bytes and time of system files (left out of data checks)"},
)
