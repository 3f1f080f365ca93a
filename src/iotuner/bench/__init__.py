"""`iotuner bench`: the training benchmark (the thesis' training utility, Table 5.2).

It sweeps workloads (scale, access pattern, layout, read/write, size per rank) and, for each,
every configuration of a parameter space, each repeated N times. One MPI job per workload
runs our kernel (programs/iokernel.c) with a plan: one line per (configuration, repeat), in
a shuffled order so that interference from the rest of the machine spreads over all
configurations instead of hitting a few. Every write goes to a new file and is synced to
storage before its time is taken. The jobs run under the interposer's trace, so each run
also leaves a trace log with the hints MPI reported back.

Each measurement is appended to a results file (bench result lines, iotuner.measurement) as
soon as the kernel prints it, with a uid made from the sweep, the workload, the
configuration and the repeat. Run the same command again after an interrupt and what is in
the results file is not measured again.

Like the programs it stands for, a workload makes many calls per open: every measurement
opens a file, makes `calls_per_open` data calls of `bytes_per_rank` bytes per rank (the
kernel's segments, --repeat: each call all ranks' blocks side by side, as a checkpoint
writer writes one variable after another), syncs and closes it. calls_per_open_for() gives
the count: enough calls for OPEN_BYTES per rank per open, at least MIN_CALLS and at most
MAX_CALLS (see there why). The kernel times open, data calls (with the sync of a write:
the data is on storage only then) and close apart; the bandwidth recorded is the data's
(bytes over that time), and the open and close times go into each measurement's
provenance (open_seconds, close_seconds, total_seconds).
A one-call-per-open kernel measured mostly open and close at small sizes, and a model
learned that and carried it to programs that make thousands of calls per open.

Sizes: one per decade of the size groups, up to a largest size that `size_limit` scales to
this machine (memory, and the free space of the data directory), at most LARGEST_CALL.

Parameters that cannot matter to a workload are held at their default instead of multiplying
the sweep: read-side knobs (names with "read" or "_rd_") for writes and write-side knobs
("write", "_wr_") for reads, and collective-buffering knobs (romio_cb_*, cb_*) for
independent access.

The modules: `_plan` (what to measure) and `_run` (measuring it).
"""

from iotuner.bench._plan import (
    LARGEST_CALL,
    MAX_CALLS,
    MIN_CALLS,
    OPEN_BYTES,
    BenchPlan,
    LayoutSpec,
    SizeLimit,
    calls_per_open_for,
    configurations_for,
    default_sizes,
    parse_layout,
    parse_size,
    plan_sizes,
    relevant,
    size_limit,
    workload_key,
)
from iotuner.bench._run import kernel_command, probe_system, run_bench

__all__ = [
    "LARGEST_CALL",
    "MAX_CALLS",
    "MIN_CALLS",
    "OPEN_BYTES",
    "BenchPlan",
    "LayoutSpec",
    "SizeLimit",
    "calls_per_open_for",
    "configurations_for",
    "default_sizes",
    "kernel_command",
    "parse_layout",
    "parse_size",
    "plan_sizes",
    "probe_system",
    "relevant",
    "run_bench",
    "size_limit",
    "workload_key",
]
