"""Every threshold the diagnosis of a Darshan log uses, with the reason for its value.

A check fires on a share (of calls, bytes or time) past its threshold; how loud it is
(critical, warning, info) follows from the time at stake against the job's run time, so
that a pattern costing a millisecond is said but does not outrank one costing an hour, and
under WARNING_FLOOR_SECONDS nothing is louder than information.

RATIONALE for matching Drishti's values where it has one: a centre that moves from Drishti
to iotuner must not lose a finding; where iotuner's value differs the comment says why.
"""

SMALL_REQUEST_BYTES = 1 << 20
"""A call moving less than this is small: under a typical Lustre stripe (1 MiB) and a
ROMIO collective buffer (4-16 MiB), where each call's fixed cost dominates. Darshan's size
bins end at 1 MiB (..._100K_1M), so the check sums the bins below it."""

SMALL_REQUEST_SHARE = 0.1
"""Small calls past this share of an operation's calls are a finding (Drishti's
small_requests): at one in ten, their per-call cost shows in the total."""

SMALL_REQUEST_CALLS = 1000
"""...and past this count: a few hundred small calls cost milliseconds whatever their share
(Drishti's small_requests_absolute)."""

MISALIGNED_SHARE = 0.1
"""Accesses off the file system's alignment (POSIX_FILE_NOT_ALIGNED, POSIX_MEM_NOT_ALIGNED)
past this share of the calls: each one can touch an extra block or lock range (Drishti's
misaligned_requests)."""

RANDOM_SHARE = 0.2
"""Calls that are not sequential (neither consecutive nor forward-moving) past this share
defeat read-ahead and write-behind (Drishti's random_operations)."""

RANDOM_CALLS = 1000
"""...and past this count (Drishti's random_operations_absolute): a few random seeks are
how headers and indexes are read."""

GAPPED_SHARE = 0.5
"""Sequential but not consecutive calls (each starts past the end of the one before) past
this share mean a strided pattern: data sieving and collective buffering decide its
speed."""

REDUNDANT_SHARE = 0.1
"""Bytes moved past the file's extent by more than this share: the same bytes were read
(or written) again, by one rank or by many (Darshan's POSIX_BYTES_* against
POSIX_MAX_BYTE_*)."""

REDUNDANT_BYTES = 1 << 20
"""...and by at least this much: rereading a header of a few KiB is cheap."""

STRAGGLER_TIME_SHARE = 0.15
"""On a shared file, the slowest rank's time minus the fastest's past this share of the
slowest's is a straggler (Drishti's imbalance_stragglers divides by the time summed over
the ranks, which hides any straggler of a large job)."""

AGGREGATOR_MEAN_SLACK = 2.0
"""A shared file's POSIX time over its aggregators (counted by the slowest rank's share of
the bytes) may pass the slowest rank's time by the other ranks' own calls (opens, the
metadata of 495 ranks beside one aggregator's writes: 1.13 times); past this factor the
count is wrong, and the straggler test holds the slowest rank against every rank."""

STRAGGLER_BYTES_SHARE = 0.15
"""The same for the bytes the slowest and fastest rank moved (Drishti applies the same
value to bytes). A file whose ranks are within it at the MPI-IO layer, with collective
calls, while one rank moved most bytes at POSIX, is collective buffering at work: its
aggregators write for all ranks by design, so that is not a straggler."""

RANK_BYTES_SHARE = 0.3
"""Ranks of one file (or of the job, over their own files) whose largest and smallest byte
counts differ by more than this share of the largest are unbalanced (Drishti's
imbalance_size)."""

RANK_TIME_SHARE = 0.15
"""The slowest rank's I/O time past the mean rank's by more than this share of the
slowest's: the others wait for it at the next collective or barrier."""

VARIANCE_CV = 0.5
"""A coefficient of variation (standard deviation over mean, from Darshan's
*_VARIANCE_RANK_TIME) past this is an uneven spread even when the slowest and fastest
counters look close (they are single ranks)."""

METADATA_RECORD_SECONDS = 30.0
"""A record whose metadata time (opens, stats, seeks, syncs) passes this many seconds is a
finding on its own (Drishti's metadata_time_rank)."""

METADATA_SHARE = 0.3
"""Metadata time past this share of a rank's I/O time (metadata + reads + writes), and..."""

METADATA_SECONDS = 1.0
"""...at least this many seconds per rank on average: below a second it is not worth a
change of code."""

STDIO_SHARE = 0.1
"""Bytes through STDIO (fread, fprintf) past this share of all bytes: a buffered
single-process interface (Drishti's interface_stdio)."""

INDEPENDENT_SHARE = 0.5
"""MPI-IO calls past this share independent (not collective) on files several ranks open:
collective calls would let MPI-IO merge them (Drishti's collective_operations)."""

INDEPENDENT_CALLS = 100
"""...and past this count. Drishti waits for 1,000 and for no collective call at all;
a hundred independent calls on a shared file already serialise on its locks."""

FILE_PER_PROCESS_RANKS = 1024
"""A file per process from this many ranks on loads the metadata servers with as many
creates at once; below it, a file per process is usually the fastest layout."""

SHARE_OF_RUN_CRITICAL = 0.25
"""A finding whose time at stake passes this share of the run time is critical: a quarter
of the job's time."""

SHARE_OF_RUN_WARNING = 0.01
"""Past this share it is a warning; under it (a hundredth of the run) information."""

COLLECTIVE_ALREADY_SHARE = 0.99
"""MPI-IO calls of a file past this share collective: its POSIX calls are then collective
buffering's, and the advice for small, random or strided POSIX calls is about the
aggregators (cb_buffer_size, cb_nodes, striping), not to make the calls collective."""

CRITICAL_FLOOR_CORE_HOURS = 1.0
"""Under this many core-hours at stake (the mean rank's seconds times the ranks) a finding
is at most a warning, whatever its share of the run: a centre acts first on what costs its
machine hours, and a test job of 2 seconds on 4 ranks (8 core-seconds) was "critical"
(issue 42). One core-hour is an hour of one rank, or 28 s of 128."""

SECONDS_CRITICAL = 600.0
"""Without a run time: ten minutes at stake is critical..."""

SECONDS_WARNING = 1.0
"""...and a second a warning."""

WARNING_FLOOR_SECONDS = 1.0
"""Under this many seconds at stake a finding is information, whatever its share of the
run: a change of code or of hints costs more than it could save, and a test job of a
second would otherwise fill the list with "warnings" of milliseconds (on the public logs,
most warnings had under a second at stake). A finding whose time the log does not give is
information too; only statements about the log itself (FIRST in _finding) warn without
one."""

OVERLAP_SLACK_SECONDS = 1.0
"""I/O time past the run time by more than this is doubtful: one rank cannot spend longer
in I/O calls than the run lasted unless its calls overlapped (threads, asynchronous I/O)
or the clocks are off. The slack: older logs keep the start and end in whole seconds."""

SLOW_TARGET_RATIO = 3.0
"""A Lustre storage target (OST) whose files took this many times the seconds per byte of
the other targets' files is slow. The spread between healthy targets on the public logs
stays under 2x (sample-goodost: 1.7x between the slowest and fastest target's mean); a
failing or overloaded target is tens of times slower (sample-badost: OST 14, 47x)."""

SLOW_TARGET_FILES = 2
"""...when at least this many files lie on it alone, and on at least this many other
targets: one slow file can be that file's own doing, and against a single other target
either could be the odd one. Files under SMALL_REQUEST_BYTES are left out: their time is
their opens' and calls', not the target's bandwidth."""

DXT_SPREAD_SHARE = 0.15
"""DXT: the busiest rank's time in traced calls past the mean rank's by this share of the
busiest's (the same measure as RANK_TIME_SHARE, from the trace rather than counters)."""

DXT_SMALL_SHARE = 0.1
"""DXT: traced segments under SMALL_REQUEST_BYTES past this share of the kept segments."""

DXT_UNALIGNED_SHARE = 0.1
"""DXT: traced segments whose offset is off the file alignment past this share."""

DXT_ALIGNMENT = 4096
"""The alignment DXT offsets are checked against when the log gives none
(POSIX_FILE_ALIGNMENT): a page, the smallest block of common file systems."""
