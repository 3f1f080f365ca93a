"""The files' layout over the ranks: a file per process against files all ranks share.

Reads: the POSIX records with bytes (POSIX_BYTES_*), by rank (-1: shared by all) and by
file, and the metadata time (POSIX_F_META_TIME) of the files of one rank.
Finds: more bytes in files of one rank than in shared ones, loud from
T.FILE_PER_PROCESS_RANKS ranks on, where the creates load the metadata servers; else the
shared files' bytes, as information.
Codes: files.per_process, files.shared.
"""

from collections.abc import Iterable

from iotuner.diagnose import _thresholds as T
from iotuner.diagnose._finding import Finding
from iotuner.diagnose.checks._helpers import Check, Log, as_size, row_sums, summed


def _layout(ctx: Log) -> Iterable[Finding]:
    frame = ctx.frame("POSIX")
    if frame is None or ctx.nprocs < 2:
        return
    moved = frame.assign(b=row_sums(frame, "POSIX_BYTES_READ", "POSIX_BYTES_WRITTEN"))
    moved = moved[moved["b"] > 0]
    if moved.empty:
        return
    shared = moved[moved["rank"] == -1]
    own = moved[moved["rank"] >= 0]
    ranks_per_file = own.groupby("id")["rank"].nunique()
    single = ranks_per_file[ranks_per_file == 1]
    fpp_bytes = float(own[own["id"].isin(single.index)]["b"].sum())
    shared_bytes = float(shared["b"].sum())
    counters = {
        "files with a rank -1 record": float(shared["id"].nunique()),
        "files of one rank": float(len(single)),
        "ranks writing their own files": float(own[own["id"].isin(single.index)]["rank"].nunique()),
    }
    if fpp_bytes > shared_bytes:
        loud = ctx.nprocs >= T.FILE_PER_PROCESS_RANKS
        # At stake: the opens and creates of those files (their metadata time).
        singles = own[own["id"].isin(single.index)]
        seconds = summed(singles, "POSIX_F_META_TIME") / ctx.nprocs if loud else None
        yield Finding(
            "files.per_process",
            ctx.level(seconds),
            "POSIX",
            "job",
            f"{len(single)} files were each opened by one rank ({as_size(fpp_bytes)}), against "
            f"{shared['id'].nunique()} shared by all ranks ({as_size(shared_bytes)}): a file "
            f"per process at {ctx.nprocs} ranks",
            counters,
            (
                "at this scale the creates load the metadata servers: write a shared file "
                "(collective MPI-IO) or one file per node"
                if loud
                else ""
            ),
            seconds,
        )
    elif shared_bytes:
        yield Finding(
            "files.shared",
            "info",
            "POSIX",
            "job",
            f"{shared['id'].nunique()} file(s) shared by all {ctx.nprocs} ranks moved "
            f"{as_size(shared_bytes)}, {len(single)} file(s) of one rank {as_size(fpp_bytes)}",
            counters,
            "",
            None,
        )


LAYOUT = Check(
    "layout",
    _layout,
    {
        "files.per_process": "files each opened by one rank moved more bytes than shared ones",
        "files.shared": "files all ranks share moved at least the bytes of files of one rank",
    },
)
