"""Changes to the program's code for a group of files where no MPI-IO hint can help, each
one short sentence said as a change to the code.

Hints act only on MPI-IO calls, and collective buffering only on collective ones. So:

* a group written or read with POSIX or STDIO calls by several ranks: moving it to MPI-IO
  collective calls (directly, or through HDF5 or PnetCDF in collective mode; from
  Python, mpi4py's File methods or h5py's `mpio` driver) is what lets hints act at all;
* independent MPI-IO calls on a file all ranks share: collective calls let ROMIO merge
  the ranks' requests (two-phase I/O); where ranks cannot wait for each other,
  non-blocking calls at least overlap them;
* small transfers (under SMALL_REQUEST_BYTES per call, the diagnosis's one notion of a
  small request, iotuner.diagnose.SMALL_REQUEST_BYTES) outside collective I/O: no hint merges
  them; the program must buffer and move larger pieces.
"""

from iotuner.diagnose import SMALL_REQUEST_BYTES
from iotuner.ingest import FileGroup

__all__ = ["code_advice"]


def code_advice(group: FileGroup, python: bool) -> list[str]:
    """What to change in the program for `group` (empty when hints are the way); `python`:
    the program is a Python script."""
    w = group.workload
    verb = "writes" if w.op == "write" else "reads"
    found: list[str] = []
    if not group.through_mpiio and w.nprocs > 1:
        if python:
            found.append(
                f"use MPI-IO collective calls for these {verb}: mpi4py's MPI.File "
                f"{'Write_at_all' if w.op == 'write' else 'Read_at_all'}, or h5py with "
                "driver='mpio' and collective datasets; POSIX and STDIO calls are out of "
                "reach of every MPI-IO hint"
            )
        else:
            call = "MPI_File_write_at_all" if w.op == "write" else "MPI_File_read_at_all"
            found.append(
                f"use MPI-IO collective calls for these {verb} ({call}, or HDF5/PnetCDF in "
                "collective mode): POSIX and STDIO calls are out of reach of every MPI-IO hint"
            )
    shared = w.files == 1 and w.nprocs > 1
    if group.through_mpiio and w.pattern == "independent" and shared:
        call = "MPI_File_write_at_all" if w.op == "write" else "MPI_File_read_at_all"
        nonblocking = "MPI_File_iwrite_at" if w.op == "write" else "MPI_File_iread_at"
        found.append(
            f"make the independent {verb} to this shared file collective ({call}): "
            f"collective buffering only merges collective calls; where ranks cannot wait "
            f"for each other, non-blocking {nonblocking} overlaps them"
        )
    if w.bytes_per_rank < SMALL_REQUEST_BYTES and w.pattern != "collective":
        found.append(
            f"move larger pieces per call (now {w.bytes_per_rank:,} bytes): buffer in the "
            "program and write or read MiBs at a time; no hint merges small independent calls"
        )
    return found
