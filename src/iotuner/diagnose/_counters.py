"""The Darshan modules of a log and the counters the checks read, each with its meaning.

MODULES says, for each module whose counters the checks loop over (request sizes,
collective calls, bytes, times), how its counters are named. COUNTERS lists, for every
module the checks read, each counter they read and what it counts (Darshan's
darshan-<module>-log-format.h); a name's {OPS}, {PAST}, {KIND}, {OP} and {BIN} stand for
the spellings in SPELLINGS, and names(module) spells them out. Every record also has
"rank" (-1: a file all ranks opened, its counters summed over them) and "id" (the record's
name in the log's name table). Lustre and DXT are not counter frames: LUSTRE and DXT say
what the reader gives of them.

RATIONALE: the checks spell a counter where they read it, as Darshan's own tools do; the
contract test (tests/unit/test_diagnosis_checks_contract.py) builds its synthetic logs from
this table and fails on a counter the checks spell that it does not list.
"""

import itertools
from dataclasses import dataclass

__all__ = [
    "COUNTERS",
    "DXT",
    "LUSTRE",
    "MODULES",
    "OPS",
    "SMALL_BINS",
    "SPELLINGS",
    "STREAMS",
    "Module",
    "names",
]

STREAMS = {"<STDIN>", "<STDOUT>", "<STDERR>"}
"""The names of the standard streams' records: they count only for the STDIO share."""

SMALL_BINS = ("0_100", "100_1K", "1K_10K", "10K_100K", "100K_1M")
"""Darshan's size bins under SMALL_REQUEST_BYTES (1 MiB)."""

OPS = (("write", "WRITE", "WRITES", "WRITTEN"), ("read", "READ", "READS", "READ"))
"""Each operation as findings name it, and its spellings in counters: the histogram's and
the time's (WRITE), the count's (WRITES), the bytes' (WRITTEN)."""

SPELLINGS = {
    "OPS": ("READS", "WRITES"),
    "PAST": ("READ", "WRITTEN"),
    "KIND": ("READ", "WRITE", "META"),
    "OP": ("READ", "WRITE"),
    "BIN": (*SMALL_BINS, "1M_4M", "4M_10M", "10M_100M", "100M_1G", "1G_PLUS"),
}
"""What each placeholder of a COUNTERS name stands for."""


@dataclass(frozen=True)
class Module:
    """How one Darshan module's counters differ from the others'.

    name: the module (the key of the reader's frames); prefix: its counters' prefix;
    shown: the layer as findings name it; stack and depth: the I/O path its bytes take and
    its place on it (0 the lowest): the modules of one stack see the same bytes at their
    layers, so the path's bytes are its largest module's and its time its lowest's (an
    upper layer's time holds the waits of collective calls); sizes: its size histogram's
    counters ({op}, {b}: a bin), None without one; calls: its count of calls ({ops}), None
    where the histogram's sum is the count; shared_small: whether small calls on files all
    ranks share are a finding of their own (Drishti's); usage: how a finding names I/O
    through it that the POSIX and MPI-IO modules do not see, None for no such finding;
    independent, collective, nonblocking: its counters of calls by kind ({ops}), for the
    check of independent calls; collective_code and collective_action: that check's code
    prefix and advice ({op}: write or read; {verb}: put or get); collective_ranks: the
    fewest ranks for which collective calls apply.
    """

    name: str
    prefix: str
    shown: str
    stack: str
    depth: int
    sizes: str | None = None
    calls: str | None = None
    shared_small: bool = False
    usage: str | None = None
    independent: str | None = None
    collective: tuple[str, ...] = ()
    nonblocking: tuple[str, ...] = ()
    collective_code: str = ""
    collective_action: str = ""
    collective_ranks: int = 1

    def time(self, upper: str) -> str:
        """The counter of its seconds in `upper` (READ, WRITE, META) calls."""
        return f"{self.prefix}_F_{upper}_TIME"

    def moved(self, past: str) -> str:
        """The counter of its bytes `past` (READ, WRITTEN)."""
        return f"{self.prefix}_BYTES_{past}"


MODULES = (
    Module("POSIX", "POSIX", "POSIX", "posix", 0, sizes="POSIX_SIZE_{op}_{b}",
           calls="POSIX_{ops}", shared_small=True),
    Module(
        "MPI-IO", "MPIIO", "MPI-IO", "posix", 1, sizes="MPIIO_SIZE_{op}_AGG_{b}",
        independent="MPIIO_INDEP_{ops}", collective=("MPIIO_COLL_{ops}", "MPIIO_SPLIT_{ops}"),
        nonblocking=("MPIIO_NB_{ops}",), collective_code="mpiio",
        collective_action="use collective calls (MPI_File_{op}_all / _at_all) so MPI-IO can "
        "merge the ranks' requests through aggregators (then the cb_* hints apply)",
    ),
    Module("H5D", "H5D", "HDF5", "posix", 2, sizes="H5D_SIZE_{op}_AGG_{b}", calls="H5D_{ops}"),
    Module(
        "PNETCDF_VAR", "PNETCDF_VAR", "PnetCDF", "posix", 2,
        sizes="PNETCDF_VAR_SIZE_{op}_AGG_{b}", independent="PNETCDF_VAR_INDEP_{ops}",
        collective=("PNETCDF_VAR_COLL_{ops}",), collective_code="pnetcdf",
        collective_action="use the collective forms (ncmpi_{verb}_vara_all) or the "
        "nonblocking ones with ncmpi_wait_all, which merge requests",
        collective_ranks=2,
    ),
    Module("STDIO", "STDIO", "STDIO", "stdio", 0),
    Module("DAOS", "DAOS", "DAOS", "daos", 0, sizes="DAOS_SIZE_{op}_{b}",
           usage="DAOS objects"),
    Module("DFS", "DFS", "DFS", "daos", 1, sizes="DFS_SIZE_{op}_{b}", usage="DAOS (DFS)"),
)  # fmt: skip
"""Every module the checks loop over, in the order their findings are made."""

_TIMES = "seconds in {KIND} calls (META: open, stat, seek, sync and the like), summed"
_MOVED = "bytes {PAST}"

COUNTERS: dict[str, dict[str, str]] = {
    "POSIX": {
        "POSIX_OPENS": "open calls",
        "POSIX_STATS": "stat calls",
        "POSIX_{OPS}": "read and write calls",
        "POSIX_SEQ_{OPS}": "calls at a higher offset than the one before (sequential)",
        "POSIX_CONSEC_{OPS}": "calls starting where the one before ended (consecutive)",
        "POSIX_BYTES_{PAST}": _MOVED,
        "POSIX_MAX_BYTE_{PAST}": "the highest offset read or written",
        "POSIX_SIZE_{OP}_{BIN}": "calls by size, one counter per bin",
        "POSIX_FILE_NOT_ALIGNED": "calls whose file offset is off POSIX_FILE_ALIGNMENT",
        "POSIX_MEM_NOT_ALIGNED": "calls whose buffer is off POSIX_MEM_ALIGNMENT",
        "POSIX_FILE_ALIGNMENT": "the file system's block alignment, in bytes",
        "POSIX_MEM_ALIGNMENT": "the memory alignment Darshan checks buffers against",
        "POSIX_F_{KIND}_TIME": _TIMES,
        "POSIX_SLOWEST_RANK": "rank -1 records: the rank with the most I/O time",
        "POSIX_FASTEST_RANK": "rank -1 records: the rank with the least I/O time",
        "POSIX_SLOWEST_RANK_BYTES": "rank -1 records: the bytes that slowest rank moved",
        "POSIX_FASTEST_RANK_BYTES": "rank -1 records: the bytes that fastest rank moved",
        "POSIX_F_SLOWEST_RANK_TIME": "rank -1 records: the slowest rank's I/O seconds",
        "POSIX_F_FASTEST_RANK_TIME": "rank -1 records: the fastest rank's I/O seconds",
        "POSIX_F_VARIANCE_RANK_TIME": "rank -1 records: the variance of the ranks' seconds",
        "POSIX_F_VARIANCE_RANK_BYTES": "rank -1 records: the variance of the ranks' bytes",
    },
    "MPI-IO": {
        "MPIIO_INDEP_{OPS}": "independent calls (MPI_File_write, _write_at)",
        "MPIIO_COLL_{OPS}": "collective calls (MPI_File_write_all, _write_at_all)",
        "MPIIO_SPLIT_{OPS}": "split collective calls (MPI_File_write_all_begin)",
        "MPIIO_NB_{OPS}": "nonblocking calls (MPI_File_iwrite, _iwrite_all)",
        "MPIIO_BYTES_{PAST}": _MOVED,
        "MPIIO_SIZE_{OP}_AGG_{BIN}": "calls by size (of the whole request), one per bin",
        "MPIIO_F_{KIND}_TIME": _TIMES + ", waits of collective calls included",
        "MPIIO_SLOWEST_RANK_BYTES": "rank -1 records: the bytes the slowest rank moved",
        "MPIIO_FASTEST_RANK_BYTES": "rank -1 records: the bytes the fastest rank moved",
    },
    "STDIO": {
        "STDIO_BYTES_{PAST}": _MOVED + " through fread, fwrite, fprintf and the like",
        "STDIO_F_{KIND}_TIME": _TIMES,
    },
    "H5F": {
        "H5F_F_META_TIME": "seconds in HDF5 file calls (create, open, flush, close)",
        "H5F_USE_MPIIO": "whether the file was opened with the MPI-IO driver",
    },
    "H5D": {
        "H5D_{OPS}": "dataset read and write calls",
        "H5D_BYTES_{PAST}": _MOVED,
        "H5D_SIZE_{OP}_AGG_{BIN}": "calls by size of the selection, one per bin",
        "H5D_F_{KIND}_TIME": _TIMES,
        "H5D_USE_MPIIO_COLLECTIVE": "whether a transfer of the dataset was collective",
    },
    "PNETCDF_FILE": {"PNETCDF_FILE_BYTES_{PAST}": _MOVED},
    "PNETCDF_VAR": {
        "PNETCDF_VAR_INDEP_{OPS}": "independent calls (ncmpi_put_vara)",
        "PNETCDF_VAR_COLL_{OPS}": "collective calls (ncmpi_put_vara_all)",
        "PNETCDF_VAR_BYTES_{PAST}": _MOVED,
        "PNETCDF_VAR_SIZE_{OP}_AGG_{BIN}": "calls by size, one per bin",
        "PNETCDF_VAR_F_{KIND}_TIME": _TIMES,
    },
    "DAOS": {
        "DAOS_BYTES_{PAST}": _MOVED + " to and from DAOS objects",
        "DAOS_SIZE_{OP}_{BIN}": "calls by size, one per bin",
        "DAOS_F_{KIND}_TIME": _TIMES,
    },
    "DFS": {
        "DFS_BYTES_{PAST}": _MOVED + " through DAOS's file interface",
        "DFS_SIZE_{OP}_{BIN}": "calls by size, one per bin",
        "DFS_F_{KIND}_TIME": _TIMES,
    },
}
"""Per module (the key of the reader's frames), every counter the checks read."""

LUSTRE = {
    "stripes": "record id -> (LUSTRE_COMP_STRIPE_COUNT, LUSTRE_COMP_STRIPE_SIZE) of the "
    "file's first layout component",
    "osts": "record id -> the storage targets (LUSTRE_OST_ID_*) of all its components",
}
"""What the checks read of the LUSTRE module: two maps of the reader's, not a frame."""

DXT = {
    "segments": "the kept traced calls: rank, id, write, offset, length, start, end",
    "total": "the traced calls the log holds",
    "capped": "whether some were left out of segments",
    "ranks": "rank -> [calls, bytes, busy seconds, first start, last end], over all calls",
    "hosts": "rank -> its host's name",
}
"""What the checks read of each DXT module (DXT_POSIX, DXT_MPIIO): the reader's summary."""


def names(module: str) -> list[str]:
    """Every counter of COUNTERS[module], its placeholders spelt out."""
    spelt = []
    for pattern in COUNTERS[module]:
        keys = [k for k in SPELLINGS if "{" + k + "}" in pattern]
        for values in itertools.product(*(SPELLINGS[k] for k in keys)):
            spelt.append(pattern.format(**dict(zip(keys, values, strict=True))))
    return spelt
