"""A Darshan log's files gathered into groups of one role (names equal once their digit
runs are `*`), one per operation that moved bytes, each with the workload iotuner would
measure for it and the evidence an MPI-IO hint could act on (docs/darshan.md, "What
iotuner reads from a log", says which counter gives what)."""

import re
from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass, field

import pandas as pd

from iotuner.ingest._common import MIB
from iotuner.ingest._darshan_worker import IO_MODULES
from iotuner.measurement import Workload

SMALL_CALL = 100 * 1024
"""Below this a call is small (Darshan's buckets end at 100 KiB: ..._10K_100K)."""

TINY_GROUP_SHARE = 0.001
"""Groups under this share of the job's bytes are summarised in a note, not listed."""

_STREAMS = re.compile(r"<(STDIN|STDOUT|STDERR)>")
_SYSTEM = re.compile(
    r"^/(usr|lib|lib32|lib64|bin|sbin|etc|proc|sys|dev|run)(/|$)"
    r"|/(site-packages|dist-packages|__pycache__|\.conda|\.cache)/"
    r"|/(ompi|openmpi-sessions)[^/]*/"
    r"|\.(pyc|pyo|py|pth|so)$|\.so\.[0-9.]+$"
)
_DIGITS = re.compile(r"[0-9]+")

_BUCKETS = ("0_100", "100_1K", "1K_10K", "10K_100K")
"""The size buckets below SMALL_CALL."""


@dataclass(frozen=True)
class Evidence:
    """One fact of the log that bears on tuning: `counter` names the counter(s) (joined by
    "+" when summed) over the group's records, `value` their sum, `words` says it."""

    code: str
    words: str
    counter: str
    value: float | int


@dataclass(frozen=True)
class FileGroup:
    """Files of one role and one operation; see the module docstring for the fields."""

    name: str
    files: int
    op: str
    workload: Workload
    bytes: int
    seconds: float | None
    bandwidth: float | None
    through_mpiio: bool
    evidence: list[Evidence] = field(default_factory=list)
    example_path: str = ""
    """One of the group's files, as the log names it (the mount table tells its file
    system)."""
    record_ids: tuple[int, ...] = ()
    """Darshan's record ids of the group's files (the same id in every module)."""


@dataclass(frozen=True)
class _Context:
    nprocs: int
    nodes: int | None
    program: str | None
    stripes: Mapping[int, tuple[int, int]]
    names: Mapping[int, str]


_PREFIX = {"MPI-IO": "MPIIO", "POSIX": "POSIX", "STDIO": "STDIO", "DFS": "DFS", "DAOS": "DAOS"}

_BYPASS_MODULES = ("DFS", "DAOS")
"""DAOS's interfaces: their I/O reaches storage without POSIX, so a log can hold it alone."""


def _moved(frame: pd.DataFrame | None, prefix: str) -> int:
    """Bytes read and written in a module's records."""
    if frame is None or frame.empty:
        return 0
    return _sum(frame, f"{prefix}_BYTES_READ", f"{prefix}_BYTES_WRITTEN")


def _system_bytes(frames: Mapping[str, pd.DataFrame], names: Mapping[int, str]) -> int:
    """Bytes the POSIX and STDIO records of system files (is_system_file) moved."""
    moved = 0
    for module in ("POSIX", "STDIO"):
        frame = frames.get(module)
        if frame is None or frame.empty:
            continue
        mine = frame[[is_system_file(str(names.get(int(i), ""))) for i in frame["id"]]]
        moved += _moved(mine, module)
    return moved


def is_system_file(name: str) -> bool:
    """Whether a file is the system's or the interpreter's, not the program's data: under
    /usr, /lib, /etc, /proc, /sys, /dev ..., in a Python package directory, or a Python
    module or shared library by its suffix (.py, .pyc, .so), or an MPI library's session
    file (/tmp/ompi.*/...). RATIONALE: a Python program's
    log holds hundreds of imports; counted as data they outweigh a small HDF5 file and push
    it under TINY_GROUP_SHARE."""
    return bool(_SYSTEM.search(name))


def _role(name: str) -> str:
    """The name of a file's group: digit runs of its path replaced by `*`."""
    return _DIGITS.sub("*", name)


def _groups(frames: Mapping[str, pd.DataFrame], ctx: _Context) -> list[FileGroup]:
    """Every group of the log: each file is read from the first of IO_MODULES that has a
    record of it; streams (<STDOUT> ...) and system files (is_system_file) are left out."""
    taken: set[int] = set()
    groups: list[FileGroup] = []
    for module in IO_MODULES:
        frame = frames.get(module)
        if frame is None or frame.empty:
            continue
        ids = [int(i) for i in frame["id"]]
        names = [str(ctx.names.get(i, "")) for i in ids]
        keep = [
            i not in taken and not _STREAMS.fullmatch(n) and not is_system_file(n)
            for i, n in zip(ids, names, strict=True)
        ]
        own = frame[keep].copy()
        own["name"] = [n for n, k in zip(names, keep, strict=True) if k]
        taken.update(ids)
        posix = frames.get("POSIX") if module == "MPI-IO" else None
        for role, records in own.groupby(own["name"].map(_role), sort=False):
            for op in ("write", "read"):
                group = _group(module, str(role), op, records, posix, ctx)
                if group is not None:
                    groups.append(group)
    return sorted(groups, key=lambda g: (-g.bytes, g.name, g.op))


def _sum(records: pd.DataFrame, *columns: str) -> int:
    """The columns' total over the records. Darshan writes -1 for a counter that the
    version which wrote the log did not keep (POSIX_FILENOS in 3.1 logs): not counted."""
    # On the arrays, not the Series: pandas' clip costs some 2 ms a call, and an archive
    # run makes thousands of these per log (bench/archive.py).
    return int(sum(int(records[c].to_numpy().clip(0).sum()) for c in columns if c in records))


def _group(
    module: str,
    role: str,
    op: str,
    records: pd.DataFrame,
    posix: pd.DataFrame | None,
    ctx: _Context,
) -> FileGroup | None:
    """The group of `records` (one module's records of files of one role) for one op, or
    None when they moved no bytes that way."""
    p = _PREFIX[module]
    ops, past = ("WRITES", "WRITTEN") if op == "write" else ("READS", "READ")
    nbytes = _sum(records, f"{p}_BYTES_{past}")
    if nbytes <= 0:
        return None
    records = records[records[f"{p}_BYTES_{past}"] > 0]
    collective, calls, opens = _calls(module, ops, records)
    shared = bool((records["rank"] == -1).any())
    ranks = sorted({int(r) for r in records["rank"] if int(r) >= 0})
    per_rank_files = not shared and all(
        n == 1 for n in records.groupby("id")["rank"].nunique().tolist()
    )
    nprocs = ctx.nprocs if shared else max(len(ranks), 1)
    files: int | None = 1 if shared else (len(ranks) if per_rank_files else None)
    ids = {int(i) for i in records["id"]}
    size = _common_size(records, p, op, calls)
    bytes_per_rank = size if size is not None else max(round(nbytes / calls), 1)
    same_files = None if posix is None else posix[posix["id"].isin(list(ids))]
    shape_records = records if module == "POSIX" else same_files
    layout, block, fill = _shape(shape_records, op)
    largest = records.sort_values(f"{p}_BYTES_{past}", ascending=False)["id"]
    stripe = next((ctx.stripes[int(i)] for i in largest if int(i) in ctx.stripes), None)
    nodes = ctx.nodes if ctx.nodes is not None else 1
    nodes = min(nodes, nprocs)
    workload = Workload(
        nprocs=nprocs,
        nodes=nodes,
        pattern="collective" if collective * 2 > calls else "independent",
        op=op,
        layout=layout,
        bytes_per_rank=bytes_per_rank,
        block=block,
        fill=fill,
        calls_per_open=max(round(calls / opens), 1) if opens else 1,
        ranks_per_node=nprocs if ctx.nodes == 1 else None,
        files=files,
        interleaved=False if per_rank_files else None,
        stripe_count=stripe[0] if stripe else None,
        stripe_size=stripe[1] if stripe else None,
        program=ctx.program,
    )
    seconds = _mean_rank_seconds(records, p, op, nprocs)
    bandwidth = nbytes / MIB / seconds if seconds else None
    name = role if len(ids) > 1 else str(records["name"].iloc[0])
    evidence = _evidence(module, op, records, same_files, workload, shared, calls, stripe)
    return FileGroup(
        name=name,
        files=len(ids),
        op=op,
        workload=workload,
        bytes=nbytes,
        seconds=seconds,
        bandwidth=bandwidth,
        through_mpiio=module == "MPI-IO",
        evidence=evidence,
        example_path=str(records["name"].iloc[0]),
        record_ids=tuple(sorted(ids)),
    )


def _calls(module: str, ops: str, records: pd.DataFrame) -> tuple[int, int, int]:
    """The collective calls, all calls (at least 1) and opens of the records in `ops`
    (WRITES or READS)."""
    p = _PREFIX[module]
    if module == "MPI-IO":
        collective = _sum(records, f"MPIIO_COLL_{ops}", f"MPIIO_SPLIT_{ops}")
        calls = collective + _sum(records, f"MPIIO_INDEP_{ops}", f"MPIIO_NB_{ops}")
        opens = _sum(records, "MPIIO_INDEP_OPENS", "MPIIO_COLL_OPENS")
    else:
        collective = 0
        calls = _sum(records, f"{p}_{ops}")
        # POSIX_OPENS already counts fileno and dup calls; STDIO keeps fdopen apart.
        opens = _sum(records, f"{p}_OPENS", f"{p}_FDOPENS")
    return collective, max(calls, 1), opens


def _mean_rank_seconds(records: pd.DataFrame, p: str, op: str, nprocs: int) -> float | None:
    """The records' time in the op's calls over nprocs: the mean rank's; None without."""
    time_column = f"{p}_F_{'WRITE' if op == 'write' else 'READ'}_TIME"
    total_time = (
        float(records[time_column].to_numpy().clip(0).sum()) if time_column in records else 0.0
    )
    return total_time / nprocs if total_time > 0 else None


def _common_size(records: pd.DataFrame, p: str, op: str, calls: int) -> int | None:
    """The most common access size of the records when it covers at least half of the
    calls; None when there is none (STDIO) or it covers fewer.

    RATIONALE: Darshan's four common sizes count reads and writes together, so a size
    whose count exceeds this op's calls must include the other op's calls: it is not
    taken as this op's size then."""
    if f"{p}_ACCESS1_ACCESS" not in records:
        return None
    counts: Counter[int] = Counter()
    for k in range(1, 5):
        sizes = records[f"{p}_ACCESS{k}_ACCESS"].tolist()
        hits = records[f"{p}_ACCESS{k}_COUNT"].tolist()
        for size, hit in zip(sizes, hits, strict=True):
            if int(size) > 0 and int(hit) > 0:
                counts[int(size)] += int(hit)
    if not counts:
        return None
    size, hit = counts.most_common(1)[0]
    return size if calls / 2 <= hit <= calls else None


def _shape(posix: pd.DataFrame | None, op: str) -> tuple[str, int, float]:
    """layout, block and fill from POSIX counters (module docstring); contiguous when
    there are none."""
    if posix is None or posix.empty:
        return "contiguous", 0, 1.0
    ops, past = ("WRITES", "WRITTEN") if op == "write" else ("READS", "READ")
    accesses = _sum(posix, f"POSIX_{ops}")
    gaps = _sum(posix, f"POSIX_SEQ_{ops}") - _sum(posix, f"POSIX_CONSEC_{ops}")
    if accesses == 0 or gaps * 2 <= accesses:
        return "contiguous", 0, 1.0
    moved = _sum(posix, f"POSIX_BYTES_{past}")
    extent = _sum(posix, f"POSIX_MAX_BYTE_{past}") + len(posix)
    block = _common_size(posix, "POSIX", op, accesses) or max(round(moved / accesses), 1)
    fill = min(moved / extent, 1.0) if extent > 0 and moved > 0 else 1.0
    return "strided", block, fill


def _evidence(
    module: str,
    op: str,
    records: pd.DataFrame,
    posix: pd.DataFrame | None,
    workload: Workload,
    shared: bool,
    calls: int,
    stripe: tuple[int, int] | None,
) -> list[Evidence]:
    found: list[Evidence] = []
    ops = "WRITES" if op == "write" else "READS"
    verb = "write" if op == "write" else "read"
    past_tense = "written" if op == "write" else "read"
    if module == "MPI-IO":
        histogram = [f"MPIIO_SIZE_{'WRITE' if op == 'write' else 'READ'}_AGG_{b}" for b in _BUCKETS]
    elif module == "POSIX":
        histogram = [f"POSIX_SIZE_{'WRITE' if op == 'write' else 'READ'}_{b}" for b in _BUCKETS]
    else:
        histogram = []
    small = _sum(records, *histogram)
    if histogram and small * 2 > calls:
        found.append(
            Evidence(
                "small_requests",
                f"{small} of {calls} {module} {verb} calls moved under 100 KiB each",
                "+".join(histogram),
                small,
            )
        )
    if module == "MPI-IO" and shared and workload.pattern == "independent":
        independent = _sum(records, f"MPIIO_INDEP_{ops}")
        if independent:
            found.append(
                Evidence(
                    "independent_shared",
                    f"a file all {workload.nprocs} ranks opened took {independent} independent "
                    f"{verb} calls and {calls - independent} others: collective calls would "
                    "let MPI-IO merge them",
                    f"MPIIO_INDEP_{ops}",
                    independent,
                )
            )
    if posix is not None and not posix.empty:
        accesses = _sum(posix, "POSIX_WRITES", "POSIX_READS")
        misaligned = _sum(posix, "POSIX_FILE_NOT_ALIGNED")
        if accesses and misaligned * 2 > accesses:
            alignment = int(posix["POSIX_FILE_ALIGNMENT"].max())
            found.append(
                Evidence(
                    "misaligned",
                    f"{misaligned} of {accesses} POSIX accesses did not start on a multiple "
                    f"of the file system's {alignment}-byte alignment",
                    "POSIX_FILE_NOT_ALIGNED",
                    misaligned,
                )
            )
    if module != "MPI-IO":
        bytes_column = f"{_PREFIX[module]}_BYTES_{'WRITTEN' if op == 'write' else 'READ'}"
        found.append(
            Evidence(
                "posix_only",
                f"{_sum(records, bytes_column)} bytes were {past_tense} through {module} "
                "calls, not MPI-IO: MPI-IO hints cannot act on them",
                bytes_column,
                _sum(records, bytes_column),
            )
        )
    if stripe is not None and shared and stripe[0] == 1 and workload.nprocs > 1:
        found.append(
            Evidence(
                "one_stripe_shared",
                f"a file shared by {workload.nprocs} ranks lies on a single Lustre stripe",
                "LUSTRE_COMP_STRIPE_COUNT",
                1,
            )
        )
    return found
