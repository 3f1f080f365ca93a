"""rw_mpi4py: mpi4py writes and reads one shared file collectively with MPI.File.

Usage: mpiexec -n N python rw_mpi4py.py FILE

Checks that a Python program's MPI-IO (mpi4py, loaded into the interpreter at run time)
goes through the interposer: each rank writes its block of 64-bit words with
File.Write_at_all, reads the file back with File.Read_at_all and compares (exit 1 on a
difference); rank 0 then prints the hints MPI reports (File.Get_info) as `info KEY=VALUE`
lines and `checked N words`. Needs only the standard library besides mpi4py.
"""

import sys
from array import array

from mpi4py import MPI

WORDS = 32768  # 256 KiB per rank


def main() -> int:
    comm = MPI.COMM_WORLD
    rank, size = comm.Get_rank(), comm.Get_size()
    out = array("q", (rank * 1_000_000_007 + (i + 1) * 7919 for i in range(WORDS)))
    back = array("q", bytes(8 * WORDS))
    offset = rank * WORDS * out.itemsize

    fh = MPI.File.Open(comm, sys.argv[1], MPI.MODE_CREATE | MPI.MODE_RDWR)
    fh.Write_at_all(offset, [out, MPI.INT64_T])
    fh.Sync()
    fh.Read_at_all(offset, [back, MPI.INT64_T])
    errors = sum(a != b for a, b in zip(out, back, strict=True))
    if rank == 0:
        info = fh.Get_info()
        for key in info:
            print(f"info {key}={info.Get(key)}")
        info.Free()
    fh.Close()

    total = comm.allreduce(errors)
    if rank == 0:
        print(f"checked {WORDS * size} words" if total == 0 else f"{total} errors", flush=True)
    return 0 if total == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
