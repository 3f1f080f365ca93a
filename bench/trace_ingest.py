#!/usr/bin/env python3
"""How long `iotuner ingest` and `iotuner show` take on a large trace log, and how much
memory they need.

Makes a trace log of about --megabytes MiB (default 100) faithfully from a real one: it
runs iokernel once under the interposer (2 ranks, a write open and a read open of 4096
collective calls each, the record cap), then repeats that log's opens one after the other
until the size is reached, each repetition shifted in time past the one before and with
its hint sets renumbered, so the result reads as one long job reopening its file: every
record is one the interposer wrote, only the time stamps and seqs differ. Then it runs

    iotuner ingest --db <fresh SQLite file> LOG
    iotuner show LOG

each --repeats times (default 1) in its own process, and prints the wall time, the CPU
time and the peak resident memory (the child's ru_maxrss) of each, with the machine's load
average before and after: figures measured on a busy machine are not those of a quiet one.

    python bench/trace_ingest.py [--megabytes 100] [--repeats 1] [--log FILE] [--keep DIR]
                                 [--source DIR]

--log takes an existing log instead of making one (--megabytes is then ignored); --keep
leaves the made log in DIR; --source runs another copy of iotuner (DIR/src), such as the
last commit's, to measure before and after a change on the same log. Standard library only;
it reports figures, never judges them.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import sys
import tempfile
import time
from pathlib import Path

from _benchkit import REPO, BenchError, clean_environment, find_mpiexec, find_program

WHO = "trace_ingest.py"
TIMEOUT = 600
"""Seconds one command may take before the benchmark gives up on it."""


def iotuner_command() -> Path:
    candidate = REPO / ".venv/bin/iotuner"
    if not candidate.is_file():
        raise BenchError(f"{WHO}: no {candidate} (run ./setup.sh)")
    return candidate


def trace_template(work: Path, mpiexec: str) -> Path:
    """A real trace log: iokernel on 2 ranks, 4096 collective 4 KiB writes in one open and
    as many reads in another, traced by the installed interposer."""
    kernel = find_program("iokernel", WHO)
    logs = work / "template-logs"
    command = [
        str(iotuner_command()),
        "run",
        "--mode",
        "trace",
        "--log-dir",
        str(logs),
        "--",
        mpiexec,
        "-n",
        "2",
        str(kernel),
        "--file",
        str(work / "kernel.dat"),
        "--op",
        "both",
        "--calls",
        "64",
        "--repeat",
        "64",
        "--size",
        "256k",
    ]
    status, *_ = run_measured(command, work / "template.out")
    found = sorted(logs.glob("*.iotrace.jsonl"))
    if status != 0 or len(found) != 1:
        output = (work / "template.out").read_text(errors="replace")
        raise BenchError(f"{WHO}: tracing iokernel failed (exit {status}):\n{output}")
    (work / "kernel.dat").unlink(missing_ok=True)
    return found[0]


_TIME_KEYS: dict[str, tuple[str, ...]] = {
    "op": ("time_stamp",),
    "meta": ("time_stamp",),
    "hints": ("time_stamp",),
    "file": ("opened_at", "closed_at"),
    "no_entry": ("time_stamp",),
}
"""The keys of each record that hold times since MPI_Init."""


def replicate(template: Path, target: Path, megabytes: float) -> tuple[int, int]:
    """Write `target`: the template's job record, its other records repeated until the
    log holds `megabytes` MiB, its end record (rows counted anew). Each repetition is
    shifted in time by the template's span and its hint seqs by the template's count.
    Returns (lines, op rows)."""
    records = [json.loads(line) for line in template.read_text().splitlines()]
    job, body, end = records[0], records[1:-1], records[-1]
    if job.get("record") != "job" or end.get("record") != "end":
        raise BenchError(f"{WHO}: {template} is no complete trace log")
    times = [r[k] for r in body for k in _TIME_KEYS.get(r["record"], ()) if r.get(k) is not None]
    span = max(times) + 0.001
    seqs = 1 + max((r["seq"] for r in body if r["record"] == "hints"), default=-1)
    wanted = int(megabytes * 1024 * 1024)
    written = lines = ops = 0
    with target.open("w") as out:

        def put(record: dict[str, object]) -> None:
            nonlocal written, lines
            text = json.dumps(record) + "\n"
            out.write(text)
            written += len(text)
            lines += 1

        put(job)
        repetition = 0
        while written < wanted:
            for record in body:
                copy = dict(record)
                for key in _TIME_KEYS.get(copy["record"], ()):
                    if copy.get(key) is not None:
                        copy[key] = round(copy[key] + repetition * span, 9)
                if copy["record"] == "hints":
                    copy["seq"] += repetition * seqs
                elif copy["record"] == "op":
                    ops += 1
                    if copy["hint_set"] != -1:
                        copy["hint_set"] += repetition * seqs
                put(copy)
            repetition += 1
        put({**end, "rows": lines - 1})
    return lines + 1, ops


def run_measured(
    command: list[str], output: Path, extra_env: dict[str, str] | None = None
) -> tuple[int, float, float, int]:
    """Run `command` with its output to a file; its exit status, wall seconds, CPU seconds
    (user and system) and peak resident memory in bytes (of this child alone, from wait4).

    RATIONALE: on a machine shared with other work the wall time says as much about the
    others as about the command; its CPU time much less so."""
    env = {**clean_environment(), **(extra_env or {})}
    env.pop("LD_PRELOAD", None)
    with output.open("wb") as sink:
        start = time.perf_counter()
        pid = os.posix_spawn(
            command[0],
            command,
            env,
            file_actions=[
                (os.POSIX_SPAWN_DUP2, sink.fileno(), 1),
                (os.POSIX_SPAWN_DUP2, sink.fileno(), 2),
            ],
        )
        deadline = start + TIMEOUT
        while True:
            done, status, usage = os.wait4(pid, os.WNOHANG)
            if done:
                break
            if time.perf_counter() > deadline:
                os.kill(pid, 9)
                os.wait4(pid, 0)
                raise BenchError(f"{WHO}: no end within {TIMEOUT} s: {' '.join(command)}")
            time.sleep(0.05)
        seconds = time.perf_counter() - start
    cpu = usage.ru_utime + usage.ru_stime
    return os.waitstatus_to_exitcode(status), seconds, cpu, usage.ru_maxrss * 1024


def load() -> str:
    one, five, fifteen = os.getloadavg()
    return f"load average {one:.2f} {five:.2f} {fifteen:.2f} on {os.cpu_count()} CPUs"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--megabytes", type=float, default=100.0, help="log size in MiB")
    parser.add_argument("--repeats", type=int, default=1, help="runs of each command")
    parser.add_argument("--log", type=Path, help="an existing trace log to use instead")
    parser.add_argument("--keep", type=Path, help="folder to leave the made log in")
    parser.add_argument("--mpiexec", help="MPI launcher (default: the one setup.sh installed)")
    parser.add_argument(
        "--source",
        type=Path,
        help="run the iotuner of DIR/src instead of the installed one, e.g. the last commit's "
        "for a before figure: git archive HEAD src formats | tar -x -C DIR",
    )
    args = parser.parse_args()
    work = Path(tempfile.mkdtemp(prefix="iotuner-trace-ingest-"))
    try:
        if args.log is not None:
            log = args.log.resolve()
            print(f"log: {log} ({log.stat().st_size / 1048576:.1f} MiB)")
        else:
            template = trace_template(work, find_mpiexec(args.mpiexec, WHO))
            folder = args.keep or work
            folder.mkdir(parents=True, exist_ok=True)
            log = folder / "bench-20260101-000000-1-000000000000.iotrace.jsonl"
            lines, ops = replicate(template, log, args.megabytes)
            size = log.stat().st_size / 1048576
            print(f"log: {log} ({size:.1f} MiB, {lines} lines, {ops} op rows)")
        iotuner, extra_env = [str(iotuner_command())], {}
        if args.source is not None:
            python = str(REPO / ".venv/bin/python")
            iotuner = [python, "-c", "import sys; from iotuner.cli import main; sys.exit(main())"]
            extra_env = {"PYTHONPATH": str((args.source / "src").resolve())}
            print(f"iotuner: {args.source / 'src'}")
        print(f"before: {load()}")
        header = ("command", "run", "exit", "seconds", "CPU s", "peak RSS MiB")
        print("{:<8} {:>3} {:>4} {:>9} {:>7} {:>13}".format(*header))
        for repeat in range(args.repeats):
            database = work / f"kb-{repeat}.sqlite"
            commands = {
                "ingest": [*iotuner, "ingest", "--db", str(database), str(log)],
                "show": [*iotuner, "show", str(log)],
            }
            for name, command in commands.items():
                output = work / f"{name}-{repeat}.out"
                status, seconds, cpu, peak = run_measured(command, output, extra_env)
                print(
                    f"{name:<8} {repeat + 1:>3} {status:>4} {seconds:>9.2f} {cpu:>7.2f} "
                    f"{peak / 1048576:>13.1f}"
                )
                if status != 0:
                    print(output.read_text(errors="replace")[-2000:], file=sys.stderr)
            database.unlink(missing_ok=True)
        print(f"after:  {load()}")
    finally:
        shutil.rmtree(work, ignore_errors=True)
    return 0


if __name__ == "__main__":
    try:
        sys.exit(main())
    except BenchError as exc:
        print(exc, file=sys.stderr)
        sys.exit(1)
