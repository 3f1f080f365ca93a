"""The interfaces the bytes went through: STDIO's share, and whether any file used MPI-IO.

Reads: the bytes of every I/O path (each path's largest module: POSIX and the layers over
it, STDIO, DAOS), STDIO_BYTES_READ/WRITTEN and STDIO_F_READ/WRITE_TIME, POSIX_BYTES_*.
Finds: bulk data through STDIO (past T.STDIO_SHARE of all bytes); a job with POSIX or
STDIO records and none of MPI-IO, where MPI-IO hints cannot act.
Codes: interface.stdio, interface.no_mpiio.
"""

from collections.abc import Iterable

from iotuner.diagnose import _thresholds as T
from iotuner.diagnose._finding import Finding
from iotuner.diagnose.checks._helpers import Check, Log, as_pct, as_size, summed


def _interfaces(ctx: Log) -> Iterable[Finding]:
    stdio = ctx.frames.get("STDIO")
    posix = ctx.frames.get("POSIX")
    mpiio = ctx.frames.get("MPI-IO")
    stdio_bytes = summed(stdio, "STDIO_BYTES_READ", "STDIO_BYTES_WRITTEN")
    posix_bytes = summed(posix, "POSIX_BYTES_READ", "POSIX_BYTES_WRITTEN")
    paths = ctx.stack_bytes()
    total = sum(paths.values())
    if stdio is not None and total and stdio_bytes / total > T.STDIO_SHARE:
        seconds = summed(stdio, "STDIO_F_READ_TIME", "STDIO_F_WRITE_TIME") / ctx.nprocs
        top = stdio.assign(b=stdio["STDIO_BYTES_READ"] + stdio["STDIO_BYTES_WRITTEN"])
        subject = ctx.name(top.sort_values("b", ascending=False)["id"].iloc[0])
        yield Finding(
            "interface.stdio",
            ctx.level(seconds),
            "STDIO",
            subject,
            f"{as_size(stdio_bytes)} ({as_pct(stdio_bytes, total)} of all bytes) went through "
            f"STDIO (fread, fwrite, fprintf), most to {subject}",
            {
                "STDIO_BYTES_READ": summed(stdio, "STDIO_BYTES_READ"),
                "STDIO_BYTES_WRITTEN": summed(stdio, "STDIO_BYTES_WRITTEN"),
                "total_bytes": total,
                **{f"{path} bytes": float(n) for path, n in paths.items() if path != "stdio"},
            },
            "move bulk data to MPI-IO or a library over it (HDF5, PnetCDF); keep STDIO for "
            "logs and small text",
            seconds,
        )
    if mpiio is None and (posix is not None or stdio is not None):
        yield Finding(
            "interface.no_mpiio",
            "info",
            "job",
            "job",
            f"no file went through MPI-IO: {as_size(max(posix_bytes, 0))} moved through POSIX "
            f"and {as_size(stdio_bytes)} through STDIO, where MPI-IO hints cannot act",
            {"POSIX_BYTES": posix_bytes, "STDIO_BYTES": stdio_bytes},
            "for data shared by many ranks, MPI-IO (or HDF5/PnetCDF over it) lets the "
            "library aggregate and tune the accesses",
            None,
        )


INTERFACES = Check(
    "interfaces",
    _interfaces,
    {
        "interface.stdio": "a large share of all bytes went through STDIO (fread, fprintf)",
        "interface.no_mpiio": "no file went through MPI-IO, so MPI-IO hints cannot act",
    },
)
