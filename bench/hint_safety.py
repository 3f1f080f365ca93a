#!/usr/bin/env python3
"""Which MPI-IO hint values, and which hint changes after open, ROMIO survives.

Runs bench/hint_safety.c (one MPI-IO workload whose every byte is checked, in the read-back
buffer and on disk) once per case under `mpiexec -n 2`, each case with a fresh file, and
prints a markdown table: the hint (key), its value at MPI_File_open, its value given later
through MPI_File_set_info ("-" for none), the other hints that force the path using it, the
workload, the outcome and a detail (MPI_File_get_info's value after open and after set_info,
the first telling line of stderr, the wall time).

Outcomes:
    ok          exit 0, every written byte read back and found on disk as written
    wrong-data  the run finished, but bytes read back or on disk are not the ones written
    mpi-error   an MPI call returned an error (class and routine in the detail)
    crash       a signal, an abort or a non-zero exit with no result line; "X+crash" when
                the result X was printed first (e.g. wrong-data, then heap corruption at exit)
    slow        no result within --timeout, but the ranks were still working: within the next
                --watch seconds they moved bytes, made read/write calls or touched new
                memory (/proc/PID/io, /proc/PID/stat). The case is then run again with 8 KiB
                per rank to see whether it finishes ("slow; X" when it gave outcome X)
    hang        no result within --timeout, and none of that activity in --watch seconds

Cases: the size and count keys at open with values from 0 to 2^63 and malformed ones; the
size keys raised and lowered through set_info after open; the enum keys with each
documented value and a garbage one; cb_config_list; a few combinations; keys ROMIO reads
only at open, changed after it. Hole bytes (never written; MPI leaves them undefined) that
are not zero are reported in the detail, not as wrong data.

Each rank moves 1 MiB. Build the program first, then run (about five minutes on 2 cores,
most of it waiting out the hangs):

    make MPICC=.venv/bin/mpicc build/bench/hint_safety
    .venv/bin/python bench/hint_safety.py [--only REGEX] [--output FILE]

Standard library only. It reports what happened and never judges.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

from _benchkit import BenchError, clean_environment, find_mpiexec

REPO = Path(__file__).resolve().parent.parent
PROGRAM = REPO / "build/bench/hint_safety"
SMALL_SIZE = 8192  # bytes per rank (two blocks) for the retry of a slow case

# Values tried at open for every size and count key.
SIZE_VALUES = (
    "0",
    "1",
    "64",
    "4096",
    "65536",
    "1048576",
    "16777216",
    "1073741824",
    "2147483647",
    "2147483648",
    "4294967296",
    "9000000000000000000",
    "-4",
    "abc",
    "",
    "12abc",
    " 4096",
)

CB = {"romio_cb_write": "enable", "romio_cb_read": "enable"}
# ROMIO's default cb_config_list "*:1" allows one aggregator per host: on one machine cb_nodes
# (and the file domain split that striping_unit aligns) only matter with "*:*".
CB2 = {**CB, "cb_config_list": "*:*"}
DS_READ = {"romio_ds_read": "enable"}
DS_WRITE = {"romio_ds_write": "enable"}
PFR = {**CB, "romio_cb_pfr": "enable"}

RESULT = re.compile(r"^result (ok|mpi-error (\S+) (\S+)|wrong-data (-?\d+))$", re.M)
INFO = re.compile(r"^info (after-open|after-set_info) ([^=\n]+)=(?:\[(.*)\]|(<unset>))$", re.M)
EXIT_STRING = re.compile(r"EXIT STRING: (.*?) \(signal (\d+)\)")
DISK = re.compile(r"^check disk: (\d+) of (\d+) written bytes wrong, first at offset (\d+)", re.M)
READBACK = re.compile(r"^check readback rank (\d+): (\d+) of (\d+) bytes wrong", re.M)
HOLES = re.compile(r"^check holes: (\d+) of (\d+) never-written bytes not zero", re.M)
SHORT = re.compile(r"^check disk: (file size \d+), the workload writes (\d+)$", re.M)
PROGRAM_LINES = ("hint ", "info ", "check ", "time ", "result ")
BOILERPLATE = re.compile(
    r"^(=+|\s*$|.*BAD TERMINATION|.*PID \d+ RUNNING AT|.*EXIT CODE:|.*CLEANING UP|"
    r".*YOU CAN IGNORE|YOUR APPLICATION TERMINATED|This typically refers|Please see the FAQ)"
)


@dataclass(frozen=True)
class Case:
    """One run: probed keys with their values at open and at access, plus forcing hints."""

    keys: tuple[str, ...]
    at_open: tuple[str | None, ...]
    at_access: tuple[str | None, ...]
    workload: str
    force: tuple[tuple[str, str], ...] = ()  # given at open, to put the key's path in use

    def open_hints(self) -> list[tuple[str, str]]:
        given = [(k, v) for k, v in zip(self.keys, self.at_open, strict=True) if v is not None]
        return [*self.force, *given]

    def access_hints(self) -> list[tuple[str, str]]:
        return [(k, v) for k, v in zip(self.keys, self.at_access, strict=True) if v is not None]


def case(
    key: str | tuple[str, ...],
    at_open: str | tuple[str | None, ...] | None = None,
    at_access: str | tuple[str | None, ...] | None = None,
    workload: str = "strided",
    force: dict[str, str] | None = None,
) -> Case:
    keys = (key,) if isinstance(key, str) else key
    opens = at_open if isinstance(at_open, tuple) else (at_open,) * len(keys)
    accesses = at_access if isinstance(at_access, tuple) else (at_access,) * len(keys)
    return Case(keys, opens, accesses, workload, tuple((force or {}).items()))


def all_cases() -> list[Case]:
    cases: list[Case] = []
    # 1. Size and count keys at open, on a workload that uses them.
    open_sweep: list[tuple[str, str, dict[str, str]]] = [
        ("cb_buffer_size", "contig", CB),
        ("cb_buffer_size", "strided", CB2),
        ("ind_rd_buffer_size", "indep", DS_READ),
        ("ind_wr_buffer_size", "indep", DS_WRITE),
        ("romio_cb_fr_alignment", "strided", CB2),
        ("romio_cb_ds_threshold", "strided", CB2),
        ("striping_unit", "strided", CB2),
        ("cb_nodes", "strided", CB2),
        ("striping_factor", "strided", CB2),
    ]
    for key, workload, force in open_sweep:
        cases += [case(key, v, None, workload, force) for v in SIZE_VALUES]

    # 2. Size keys changed through set_info after open: raised, lowered, made invalid.
    raise_lower = [
        ("1048576", "16777216"),
        ("65536", "4194304"),
        ("4096", "1048576"),
        ("64", "128"),
        ("16777216", "1048576"),
        ("4194304", "4096"),
    ]
    invalid = [(None, v) for v in ("0", "-4", "2147483648", "9000000000000000000")]
    cases += [case("cb_buffer_size", o, a, "contig", CB) for o, a in raise_lower]
    cases.append(case("cb_buffer_size", "16777216", "64", "contig", CB))  # does it take effect?
    cases.append(case("cb_buffer_size", "4194304", "16777216", "contig", CB))  # data fits at open
    cases += [case("cb_buffer_size", o, a, "contig", CB) for o, a in [*invalid, (None, "abc")]]
    cases += [case("cb_buffer_size", o, a, "strided", CB2) for o, a in raise_lower + invalid]
    for key, force in (("ind_rd_buffer_size", DS_READ), ("ind_wr_buffer_size", DS_WRITE)):
        more = [("16777216", "64"), *invalid]  # "abc" is "0" to atoi, as the open sweep shows
        cases += [case(key, o, a, "indep", force) for o, a in raise_lower + more]
    for key in ("romio_cb_fr_alignment", "romio_cb_ds_threshold", "striping_unit"):
        cases += [
            case(key, o, a, "strided", CB2)
            for o, a in (("4096", "1048576"), ("1048576", "4096"), (None, "0"), (None, "abc"))
        ]

    # 3. Enum keys: each documented value and a garbage one.
    tri = ("enable", "disable", "automatic", "ENABLE", "Enable", "maybe")
    cases += [case("romio_cb_write", v, None, w) for w in ("contig", "strided") for v in tri]
    cases += [case("romio_cb_read", v, None, w) for w in ("contig", "strided") for v in tri]
    cases += [case("romio_ds_write", v, None, "indep") for v in tri]
    cases += [case("romio_ds_read", v, None, "indep") for v in tri]
    cases += [case("romio_cb_alltoall", v, None, "strided", CB) for v in tri]
    cases += [case("romio_cb_pfr", v, None, w) for w in ("contig", "strided") for v in tri]
    for v in ("aar", "fsize", "usr_realms", "4096", "maybe"):
        cases.append(case("romio_cb_fr_types", v, None, "strided", CB))
    for v in ("0", "-1", "-2", "4096", "maybe"):  # the spelling ROMIO's hint parser reads
        cases.append(case("romio_cb_fr_type", v, None, "strided", CB))
    for w in ("indep", "contig", "strided"):
        cases += [case("romio_no_indep_rw", v, None, w) for v in ("true", "false", "maybe")]
    # the file-realm path (romio_cb_pfr=enable) with the keys only it reads
    for key, v in (
        ("romio_cb_fr_alignment", "4096"),
        ("romio_cb_ds_threshold", "50"),
        ("romio_cb_fr_type", "-1"),
        ("romio_cb_alltoall", "disable"),
    ):
        cases.append(case(key, v, None, "strided", PFR))

    # 4. cb_config_list and aggregator counts.
    for v in ("*:*", "*:1", "*:0", "*:2", "nosuchhost:1", "localhost:1", ":::", ""):
        cases.append(case("cb_config_list", v, None, "strided", CB))
    cases.append(case("cb_nodes", "3", None, "contig", CB2))

    # 5. Combinations that might hang or corrupt.
    cases += [
        case(("cb_nodes", "cb_config_list"), ("2", "*:1"), (None, None), "strided", CB),
        case(("cb_nodes", "cb_config_list"), ("1", "*:*"), (None, None), "strided", CB),
        case(("romio_cb_write", "cb_buffer_size"), ("enable", "4096"), (None, None), "strided"),
        case(("romio_cb_write", "cb_buffer_size"), ("enable", "64"), (None, None), "strided"),
        case(("romio_no_indep_rw", "romio_cb_write"), ("true", "disable"), (None, None), "strided"),
        case(("romio_no_indep_rw", "romio_cb_read"), ("true", "disable"), (None, None), "contig"),
        case(("romio_no_indep_rw", "romio_ds_write"), ("true", "enable"), (None, None), "indep"),
        case(("cb_nodes", "striping_unit"), ("2", "1048576"), (None, None), "strided", CB2),
        case(("cb_nodes", "striping_unit"), ("2", "1"), (None, None), "strided", CB2),
        case(("cb_nodes", "cb_buffer_size"), ("1", "65536"), (None, None), "strided", CB),
        case(("striping_unit", "cb_buffer_size"), ("4096", "4096"), (None, None), "strided", CB),
        case(
            ("ind_wr_buffer_size", "ind_rd_buffer_size"),
            ("4096", "4096"),
            (None, None),
            "indep",
            {**DS_READ, **DS_WRITE},
        ),
    ]

    # 6. Keys ROMIO reads only at open, and the enum keys, changed through set_info.
    cases += [
        case("cb_nodes", "2", "1", "strided", CB2),
        case("cb_nodes", "1", "2", "strided", CB2),
        case("cb_nodes", None, "0", "strided", CB2),
        case("cb_config_list", "*:1", "*:*", "strided", CB),
        case("cb_config_list", None, "nosuchhost:1", "strided", CB),
        case("cb_config_list", None, ":::", "strided", CB),
        case("striping_factor", "1", "4", "strided", CB2),
        case("striping_factor", None, "2", "strided", CB2),
        case("romio_no_indep_rw", "false", "true", "indep"),
        case("romio_no_indep_rw", "true", "false", "indep"),
        case("romio_no_indep_rw", "true", "false", "strided"),
        case("romio_no_indep_rw", "false", "true", "strided"),
        case("romio_cb_write", "enable", "disable", "strided"),
        case("romio_cb_write", "disable", "enable", "strided"),
        case("romio_cb_read", "disable", "enable", "strided"),
        case("romio_ds_write", "disable", "enable", "indep"),
        case("romio_ds_write", "enable", "disable", "indep"),
        case("romio_ds_read", "disable", "enable", "indep"),
        case("romio_cb_pfr", None, "enable", "strided"),
        case("romio_cb_pfr", "enable", "disable", "strided"),
    ]
    return cases


@dataclass
class Run:
    """What one mpiexec run left behind."""

    timed_out: bool
    progressing: bool  # at the timeout, the ranks were still moving bytes or touching memory
    returncode: int | None
    stdout: str
    stderr: str
    seconds: float
    outcome: str = ""
    details: list[str] = field(default_factory=list)


def descendants(root: int) -> list[int]:
    """Ids of root's children, their children and so on (Hydra puts its proxy and every rank
    in a session of its own, so neither the process group nor the session covers them)."""
    children: dict[int, list[int]] = {}
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
        except OSError:
            continue
        ppid = int(stat[stat.rfind(")") + 2 :].split()[1])  # after "pid (comm) state"
        children.setdefault(ppid, []).append(int(entry.name))
    found, todo = [], [root]
    while todo:
        for child in children.get(todo.pop(), []):
            found.append(child)
            todo.append(child)
    return found


def activity(pids: list[int]) -> dict[int, tuple[int, ...]]:
    """For each of pids that is a rank: bytes read and written, read and write system calls,
    minor and major page faults so far. A rank stuck in a loop or waiting in MPI (which
    polls shared memory) changes none of them; a slow one changes some."""
    seen = {}
    for pid in pids:
        proc = Path("/proc") / str(pid)
        try:
            if (proc / "comm").read_text().strip() != PROGRAM.name[:15]:
                continue
            io = dict(line.split(": ", 1) for line in (proc / "io").read_text().splitlines())
            stat = (proc / "stat").read_text()
            fields = stat[stat.rfind(")") + 2 :].split()  # fields 7 and 9: minflt, majflt
            counters = [int(io[k]) for k in ("rchar", "wchar", "syscr", "syscw")]
            seen[pid] = (*counters, int(fields[7]), int(fields[9]))
        except (OSError, ValueError, KeyError, IndexError):
            continue
    return seen


def stop(proc: subprocess.Popen[str]) -> None:
    """Kills a run that is still going: mpiexec's process group and every descendant, by id.

    Called before mpiexec is waited for, so no id here can have been reused by an unrelated
    process."""
    tree = descendants(proc.pid)
    with contextlib.suppress(ProcessLookupError):
        os.killpg(proc.pid, signal.SIGKILL)
    for pid in tree:
        with contextlib.suppress(ProcessLookupError):
            os.kill(pid, signal.SIGKILL)


def execute(
    c: Case, args: argparse.Namespace, mpiexec: str, work: Path, n: int, size: int | None
) -> Run:
    path = work / f"case-{n}.dat"
    cmd = [mpiexec, "-n", str(args.np), str(PROGRAM), str(path)]
    if c.open_hints():
        cmd += ["--open", *[f"{k}={v}" for k, v in c.open_hints()]]
    if c.access_hints():
        cmd += ["--access", *[f"{k}={v}" for k, v in c.access_hints()]]
    cmd += ["--workload", c.workload]
    if size is not None:
        cmd += ["--size", str(size)]
    timeout = args.timeout if size is None else args.retry_timeout
    start = time.monotonic()
    progressing = False
    proc = subprocess.Popen(
        cmd,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        errors="replace",
        env=clean_environment(drop=("IOTUNER_", "ROMIO_")),  # no hints but the case's
        start_new_session=True,
    )
    timed_out = False
    try:
        out, err = proc.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        timed_out = True
        ranks = descendants(proc.pid)
        before = activity(ranks)
        time.sleep(args.watch)
        after = activity(ranks)
        progressing = any(after.get(pid, counts) != counts for pid, counts in before.items())
        stop(proc)
        out, err = proc.communicate()
    except BaseException:  # e.g. Ctrl-C: leave no ranks behind
        stop(proc)
        proc.wait()
        raise
    finally:
        path.unlink(missing_ok=True)
    return Run(timed_out, progressing, proc.returncode, out, err, time.monotonic() - start)


def first_stderr_line(run: Run) -> str | None:
    """The first line of output that is neither Hydra's banner nor the program's report,
    shortened: an MPI error stack to its innermost message, source paths to ROMIO's."""
    for line in (run.stderr + "\n" + run.stdout).splitlines():
        if BOILERPLATE.match(line) or line.startswith(PROGRAM_LINES):
            continue
        line = re.sub(r"/mpich-[0-9.]+/src/mpi/romio/", "", line)
        if "error stack:" in line:
            rank, _, stack = line.partition(": MPI_")
            line = f"{rank.removeprefix('hint_safety: ')}: {stack.rsplit(' failed ', 1)[-1]}"
        line = line.removeprefix("hint_safety: ")
        return line if len(line) <= 200 else line[:197] + "..."
    return None


def signal_name(number: int) -> str:
    try:
        return signal.Signals(number).name
    except ValueError:
        return f"signal {number}"


def classify(run: Run) -> None:
    """Sets run.outcome and run.details from a finished (not timed out) run."""
    m = RESULT.search(run.stdout)
    killed = EXIT_STRING.search(run.stdout + run.stderr)
    if m is None:
        run.outcome = "crash"
        if killed:
            run.details.append(f"{signal_name(int(killed.group(2)))} ({killed.group(1)})")
        elif run.returncode is not None and run.returncode < 0:
            run.details.append(signal_name(-run.returncode))
        else:
            run.details.append(f"exit {run.returncode}, no result line")
    else:
        kind = m.group(1).split()[0]
        expected = 0 if kind == "ok" else 1
        run.outcome = kind if run.returncode == expected and not killed else f"{kind}+crash"
        if kind == "mpi-error":
            run.details.append(f"{m.group(2)} in {m.group(3)}")
        if run.outcome.endswith("+crash"):
            run.details.append(
                f"{signal_name(int(killed.group(2)))} after the result"
                if killed
                else f"exit {run.returncode} after the result"
            )
    if m is None or m.group(1) != "ok":
        line = first_stderr_line(run)
        if line:
            run.details.append(line)
    for d in DISK.finditer(run.stdout):
        run.details.append(f"disk: {d.group(1)} of {d.group(2)} B wrong from offset {d.group(3)}")
    for s in SHORT.finditer(run.stdout):
        run.details.append(f"{s.group(1)} instead of {s.group(2)}")
    readback = [int(r.group(2)) for r in READBACK.finditer(run.stdout)]
    if readback:
        run.details.append(f"read back: {sum(readback)} B wrong")
    for h in HOLES.finditer(run.stdout):
        run.details.append(f"holes: {h.group(1)} of {h.group(2)} B not zero")


def info_detail(c: Case, run: Run) -> str | None:
    """MPI_File_get_info's values of the case's probed keys, after open and after set_info."""
    seen: dict[tuple[str, str], str] = {}
    for m in INFO.finditer(run.stdout):
        seen[(m.group(1), m.group(2))] = "unset" if m.group(4) else show(m.group(3))
    parts = []
    for key in c.keys:
        if ("after-open", key) not in seen:
            continue
        text = seen[("after-open", key)]
        if ("after-set_info", key) in seen:
            text += f" → {seen[('after-set_info', key)]}"
        parts.append(f"{key}={text}" if len(c.keys) > 1 else text)
    return "get_info " + ", ".join(parts) if parts else None


def show(value: str | None) -> str:
    if value is None:
        return "-"
    if value == "" or value != value.strip():
        return f"`{json.dumps(value)}`"
    return f"`{value}`"


def run_case(c: Case, args: argparse.Namespace, mpiexec: str, work: Path, n: int) -> Run:
    run = execute(c, args, mpiexec, work, n, None)
    if not run.timed_out:
        classify(run)
    elif not run.progressing:
        run.outcome = "hang"
        run.details.append(
            f"no result in {args.timeout:g} s, then {args.watch:g} s with no I/O, "
            "no read/write call and no page fault in any rank"
        )
    else:
        run.outcome = "slow"
        run.details.append(f"no result in {args.timeout:g} s, still working")
        small = execute(c, args, mpiexec, work, n, SMALL_SIZE)
        if small.timed_out:
            run.details.append(f"nor in {args.retry_timeout:g} s with {SMALL_SIZE} B per rank")
        else:
            classify(small)
            if small.outcome != "ok":
                run.outcome = f"slow; {small.outcome}"
            run.details.append(
                f"with {SMALL_SIZE} B per rank {small.outcome} in {small.seconds:.1f} s"
            )
            run.details += small.details
            run.stdout = small.stdout
    info = info_detail(c, run)
    if info:
        run.details.append(info)
    if not run.timed_out:
        run.details.append(f"{run.seconds:.1f} s")
    return run


def cell(text: str) -> str:
    return text.replace("|", "\\|").replace("\n", " ")


def markdown(results: list[tuple[Case, Run]]) -> str:
    header = ("key", "at open", "at access", "with", "workload", "outcome", "detail")
    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    for c, run in results:
        row = (
            ", ".join(c.keys),
            ", ".join(show(v) for v in c.at_open),
            ", ".join(show(v) for v in c.at_access)
            if any(v is not None for v in c.at_access)
            else "-",
            " ".join(f"{k}={v}" for k, v in c.force) or "-",
            c.workload,
            run.outcome,
            "; ".join(run.details),
        )
        lines.append("| " + " | ".join(cell(x) for x in row) + " |")
    return "\n".join(lines)


def parse_args(argv: list[str]) -> argparse.Namespace:
    p = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    p.add_argument("--np", type=int, default=2, help="MPI ranks (default 2)")
    p.add_argument("--timeout", type=float, default=10, help="seconds per case (default 10)")
    p.add_argument(
        "--watch",
        type=float,
        default=2,
        help="seconds to watch the ranks of a timed-out case for progress (default 2)",
    )
    p.add_argument(
        "--retry-timeout",
        type=float,
        default=6,
        help="seconds for the 8 KiB-per-rank retry of a slow case (default 6)",
    )
    p.add_argument("--only", help="run only cases whose keys match this regular expression")
    p.add_argument("--list", action="store_true", help="list the cases and exit")
    p.add_argument("--dir", help="where the files go (a temporary folder inside it)")
    p.add_argument("--output", help="also write the markdown to this file")
    p.add_argument("--mpiexec", help="mpiexec to use (default .venv/bin/mpiexec, then PATH)")
    args = p.parse_args(argv)
    if args.np < 1:
        p.error("--np must be at least 1")
    return args


def main(argv: list[str]) -> int:
    args = parse_args(argv)
    cases = all_cases()
    if args.only:
        pattern = re.compile(args.only)
        cases = [c for c in cases if any(pattern.search(k) for k in c.keys)]
    if args.list:
        for c in cases:
            print(
                f"{', '.join(c.keys)}: open {c.open_hints()} access {c.access_hints()} {c.workload}"
            )
        return 0
    try:
        if not (PROGRAM.is_file() and os.access(PROGRAM, os.X_OK)):
            raise BenchError(
                f"hint_safety.py: {PROGRAM} is missing; build it with\n"
                "    make MPICC=.venv/bin/mpicc build/bench/hint_safety"
            )
        mpiexec = find_mpiexec(args.mpiexec, "hint_safety.py")
        if args.dir:
            Path(args.dir).mkdir(parents=True, exist_ok=True)
        work = Path(tempfile.mkdtemp(prefix="iotuner-hint-safety-", dir=args.dir))
        results: list[tuple[Case, Run]] = []
        start = time.monotonic()
        try:
            for n, c in enumerate(cases):
                run = run_case(c, args, mpiexec, work, n)
                results.append((c, run))
                print(
                    f"[{n + 1}/{len(cases)}] {', '.join(c.keys)} open={c.at_open} "
                    f"access={c.at_access} {c.workload}: {run.outcome}",
                    file=sys.stderr,
                )
        finally:
            shutil.rmtree(work, ignore_errors=True)
    except BenchError as e:
        print(e, file=sys.stderr)
        return 1
    counts = Counter(run.outcome for _, run in results)
    text = "\n".join(
        [
            f"# hint_safety: {len(results)} cases, mpiexec -n {args.np}, "
            f"{time.monotonic() - start:.0f} s",
            "",
            "Per rank 1 MiB (4 KiB blocks for strided and indep); "
            "outcomes: " + ", ".join(f"{k} {v}" for k, v in sorted(counts.items())),
            "",
            markdown(results),
            "",
        ]
    )
    print(text, end="")
    if args.output:
        Path(args.output).write_text(text)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
