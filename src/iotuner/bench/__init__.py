"""`iotuner bench`: the training benchmark (the thesis' training utility, Table 5.2).

It sweeps workloads (scale, access pattern, layout, read/write, size per rank) and, for each,
the configurations of a parameter space (all that can matter to it, or a seeded sample),
each repeated N times. A kernel job (programs/iokernel.c) measures a workload's share of a
round with a plan: one line per (configuration, repeat), in a shuffled order so that
interference from the rest of the machine spreads over the configurations instead of
hitting a few. Every write goes to a new file and is synced to storage before its time is
taken. The jobs run under the interposer's trace, so each run also leaves a trace log with
the hints MPI reported back.

A sweep ends in bounded time with the most useful measurements for it (issue 23; `_order`,
`_pace`): first the cases the user's programs' logs show (issue 31, `_programs`: trace logs
and Darshan logs given with --from-logs), the most I/O time at stake first, each with every
configuration that can act on it (their defaults and covers first, then the rest); then
every other workload's default and a few configurations that between them try every value
of each parameter that matters to it, those nearest the programs' cases first, or, among
equally near ones, those like the workloads whose configurations differed most
(next_workload); then
the rest of the plan when the pace so far says it fits in the time left (always without a
time budget), else rounds a random forest of what is measured chooses, per workload the
configurations whose upper bound beats the best measured by more than the noise between
repeats, until none does (confident). No measurement starts that the pace says cannot end
within the budget. The progress bar shows done/planned and the time left.

Each measurement is appended to a results file (bench result lines, iotuner.measurement) as
soon as the kernel prints it, with a uid made from the sweep, the system, the workload, the
configuration and the repeat, and in its provenance the wall time it took (`wall_seconds`,
for the pace of a resumed sweep), the round and why it was chosen (`round`, `chosen`:
program, first, model or rest). Run the same command again after an interrupt, or after
the budget ran out, and what is in the results file is not measured again: the sweep goes
on with a fresh budget.

Nothing measured is lost to a kill (issue 24): a line is synced to storage as soon as it
is written (write-ahead), and the knowledge base gets a job's lines when the job ends (or
fails, or is interrupted). A run killed between the two leaves lines the knowledge base
lacks; `iotuner bench` run again stores them before it measures (the knowledge base keys a
measurement by its uid, so none is stored twice), and at its end says whether the knowledge
base holds every measurement of the results file. A last line torn by the kill is cut off
(repair_results) and measured again.

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
the sweep: the keys formats/hints.def's `ops` column says do not act on its access (read-side
keys for writes, write-side keys and striping for reads, collective-buffering keys for
independent access).

The modules: `_plan` (what to measure), `_programs` (the cases of the programs' logs),
`_order` (in which order, and when to stop), `_pace` (how long it takes), `_run`
(measuring it) and `_sweep` (the cases a sweep starts with, and what the knowledge base
holds of its results).
"""

from iotuner.bench._order import (
    NOISE_FLOOR,
    ROUND_PICKS,
    UPPER_QUANTILE,
    Choice,
    Pick,
    SweepState,
    first_configurations,
    neighbour_picks,
    next_choice,
)
from iotuner.bench._pace import Pace, duration_text
from iotuner.bench._plan import (
    KERNEL_PROGRAM,
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
    kernel_workload,
    parse_duration,
    parse_layout,
    parse_size,
    plan_sizes,
    relevant,
    size_limit,
    workload_key,
)
from iotuner.bench._programs import ProgramCase, log_files, program_cases
from iotuner.bench._results import read_result_records, read_results, repair_results
from iotuner.bench._run import (
    STOP_BUDGET,
    STOP_CONFIDENT,
    STOP_PLAN,
    SweepOutcome,
    kernel_command,
    probe_system,
    resume_estimate,
    run_bench,
    run_sweep,
)
from iotuner.bench._sweep import store_unstored, sweep_cases, unstored_count

__all__ = [
    "KERNEL_PROGRAM",
    "LARGEST_CALL",
    "MAX_CALLS",
    "MIN_CALLS",
    "NOISE_FLOOR",
    "OPEN_BYTES",
    "ROUND_PICKS",
    "STOP_BUDGET",
    "STOP_CONFIDENT",
    "STOP_PLAN",
    "UPPER_QUANTILE",
    "BenchPlan",
    "Choice",
    "LayoutSpec",
    "Pace",
    "Pick",
    "ProgramCase",
    "SizeLimit",
    "SweepOutcome",
    "SweepState",
    "calls_per_open_for",
    "configurations_for",
    "default_sizes",
    "duration_text",
    "first_configurations",
    "kernel_command",
    "kernel_workload",
    "log_files",
    "neighbour_picks",
    "next_choice",
    "parse_duration",
    "parse_layout",
    "parse_size",
    "plan_sizes",
    "probe_system",
    "program_cases",
    "read_result_records",
    "read_results",
    "relevant",
    "repair_results",
    "resume_estimate",
    "run_bench",
    "run_sweep",
    "size_limit",
    "store_unstored",
    "sweep_cases",
    "unstored_count",
    "workload_key",
]
