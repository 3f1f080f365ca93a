"""Running a plan: one kernel job per workload, its result lines parsed as they come and
appended to the results file (see iotuner.bench)."""

import os
import random
import subprocess
import threading
import uuid
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

from rich.console import Console

from iotuner._progress import progress_bar
from iotuner.bench._plan import BenchPlan, workload_key
from iotuner.errors import ConfigError
from iotuner.measurement import (
    Measurement,
    System,
    Workload,
    measurement_from_json,
    measurement_to_json,
)
from iotuner.openmpi import program_hints_for
from iotuner.runner import (
    build_config,
    find_program,
    interposer_env,
    make_log_dir,
    preload_ranks_only,
    stop_group,
)
from iotuner.space import Configuration, config_key
from iotuner.tracelog import read_tracelog

if TYPE_CHECKING:
    from iotuner.store import Record


def kernel_command(workload: Workload, target: Path, *extra: str) -> list[str]:
    """The command that runs our kernel at the workload's scale, doing the workload on
    `target` and deleting it afterwards; `extra` are more kernel options (--plan, --hint).
    The workload's calls per open are the kernel's segments (--repeat)."""
    command = [
        build_config().mpiexec,
        "-n",
        str(workload.nprocs),
        str(find_program("iokernel")),
        "--file",
        str(target),
        "--op",
        workload.op,
        "--pattern",
        workload.pattern,
        "--size",
        str(workload.bytes_per_rank),
        "--repeat",
        str(workload.calls_per_open),
        "--delete",
    ]
    if workload.layout == "strided":
        command += [
            "--layout",
            "strided",
            "--block",
            str(workload.block),
            "--fill",
            f"{workload.fill:g}",
        ]
    return [*command, *extra]


def _done_uids(results: Path) -> set[str]:
    if not results.exists():
        return set()
    done = set()
    for number, line in enumerate(results.read_text().splitlines(), start=1):
        if not line.strip():
            continue
        try:
            done.add(measurement_from_json(line)[0].uid)
        except ValueError as exc:
            raise ConfigError(f"{results} line {number}: {exc}") from None
    return done


def probe_system(data_dir: Path, log_dir: Path) -> System:
    """This system's fingerprint, from one tiny traced run (MPI library, MPI-IO driver)."""
    tag = "probe" + uuid.uuid4().hex[:8]
    env = interposer_env("trace", None, log_dir, "table", tag)
    tiny = Workload(1, 1, "collective", "write", "contiguous", 1024)
    command = kernel_command(tiny, data_dir / "iotuner-probe.dat")
    completed = subprocess.run(command, env=env, capture_output=True, text=True, check=False)
    logs = sorted(log_dir.glob(f"*-{tag}.iotrace.jsonl"))
    if completed.returncode != 0 or not logs:
        raise ConfigError(f"the probe run in {data_dir} failed:\n{completed.stderr}")
    log = read_tracelog(logs[0])
    driver = log.hints[0]["driver"] if log.hints else "unknown"
    return System.detect(data_dir, log.job["mpi_library"], driver or "unknown")


def run_bench(
    plan: BenchPlan,
    data_dir: Path,
    results: Path,
    console: Console,
    after_workload: Callable[[list["Record"]], object] | None = None,
) -> int:
    """Measure what `results` does not hold yet; returns the number of new measurements.

    `after_workload(records)` runs after each workload's job with the measurements it
    added to `results` (e.g. to store them in the knowledge base without reading the
    growing file again). Interrupting (Ctrl-C) stops the running job; what it measured so far
    is kept. The progress bar goes to stderr, also when `console` writes to stdout.
    """
    if not data_dir.is_dir():
        raise ConfigError(f"the data directory {data_dir} does not exist")
    work = data_dir / f"iotuner-bench-{plan.sweep_id}"
    log_dir = results.parent / f"{results.stem}-logs"
    work.mkdir(exist_ok=True)
    make_log_dir(log_dir)  # private, like every trace log directory
    done = _done_uids(results)
    system = probe_system(work, log_dir)
    order = list(plan.workloads)
    random.Random(plan.seed).shuffle(order)
    total = plan.measurements()
    added = 0
    try:
        # On stderr: stdout holds the plan and the result lines.
        bar = console if console.stderr else Console(stderr=True)
        with progress_bar(bar, transient=False) as progress:
            task = progress.add_task("bench", total=total, completed=min(len(done), total))
            for workload in order:
                progress.update(task, description=workload_key(workload))
                new = _run_workload(
                    plan,
                    workload,
                    system,
                    work,
                    log_dir,
                    results,
                    done,
                    lambda: progress.advance(task),
                )
                added += len(new)
                if after_workload is not None and new:
                    after_workload([(m, system, plan.space.name) for m in new])
    finally:
        for leftover in work.iterdir():
            leftover.unlink()
        work.rmdir()
    return added


def _run_workload(
    plan: BenchPlan,
    workload: Workload,
    system: System,
    work: Path,
    log_dir: Path,
    results: Path,
    done: set[str],
    advance: Callable[[], None],
) -> list[Measurement]:
    """One MPI job: the workload's missing (configuration, repeat) pairs, shuffled; returns
    the measurements it added to `results`."""
    # The system is part of a measurement's identity: the same sweep on another file system
    # (or MPI, or host) measures something else, and its results must not be taken for the
    # first one's when both go into one knowledge base (nor resume it).
    prefix = f"{plan.sweep_id}:{system.fingerprint}:{workload_key(workload)}"
    lines: dict[str, tuple[Configuration, int]] = {}
    for index, config in enumerate(plan.configurations(workload)):
        for repeat in range(plan.repeats):
            uid = f"{prefix}:{config_key(config)}:{repeat}"
            if uid not in done:
                lines[f"c{index}r{repeat}"] = (config, repeat)
    if not lines:
        return []
    ids = list(lines)
    random.Random(f"{plan.seed}:{prefix}").shuffle(ids)
    plan_file = work / "plan.txt"
    # Measurements keep the space's keys (the concepts); the kernel passes them as this MPI
    # takes them (Open MPI's OMPIO: its own keys).
    mpiexec = build_config().mpiexec
    plan_file.write_text(
        "".join(
            " ".join(
                [
                    plan_id,
                    *(
                        f"{k}={v}"
                        for k, v in program_hints_for(
                            plan.space.hints(lines[plan_id][0]), mpiexec
                        ).items()
                    ),
                ]
            )
            + "\n"
            for plan_id in ids
        )
    )
    tag = uuid.uuid4().hex[:12]
    env = interposer_env("trace", None, log_dir, "table", tag)
    command, env = preload_ranks_only(
        kernel_command(workload, work / "data", "--plan", str(plan_file)),
        env,
        os.environ.get("LD_PRELOAD"),
    )
    added: list[Measurement] = []
    with (
        results.open("a", encoding="utf-8") as out,
        subprocess.Popen(
            command,
            env=env,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            process_group=0,
        ) as job,
    ):
        # stderr is read on a thread while stdout is parsed: a kernel that writes more
        # than a pipe holds to stderr (rank warnings) would otherwise block forever.
        errors: list[str] = []
        drain = threading.Thread(target=lambda: errors.extend(job.stderr or ()), daemon=True)
        drain.start()
        try:
            assert job.stdout is not None
            for line in job.stdout:
                measurement = _parse_line(line, lines, prefix, workload, tag)
                if measurement is None:
                    continue
                out.write(measurement_to_json(measurement, system, plan.space.name) + "\n")
                out.flush()
                done.add(measurement.uid)
                added.append(measurement)
                advance()
        except BaseException:
            stop_group(job)
            raise
        drain.join()
        stderr = "".join(errors)
    if job.returncode != 0:
        raise ConfigError(
            f"the kernel failed on {workload_key(workload)} (exit {job.returncode}):\n{stderr}"
        )
    return added


def _parse_line(
    line: str,
    lines: dict[str, tuple[Configuration, int]],
    prefix: str,
    workload: Workload,
    tag: str,
) -> Measurement | None:
    """A measurement from one `iokernel: id=... op=... bytes=... seconds=... data_s=...`
    line: the data calls' time and bandwidth, open and close times in the provenance."""
    if not line.startswith("iokernel: id="):
        return None
    fields = dict(part.split("=", 1) for part in line.split()[1:])
    if fields["id"] not in lines or fields["op"] != workload.op:
        return None  # the untimed preparation of a read plan
    wanted = ("data_s", "data_mib_s", "open_s", "close_s", "calls")
    if any(name not in fields for name in wanted):
        raise ConfigError(
            f"the kernel's result line lacks {', '.join(n for n in wanted if n not in fields)} "
            f"(an iokernel older than this iotuner? rebuild and install it): {line.strip()}"
        )
    if int(fields["calls"]) != workload.calls_per_open:
        raise ConfigError(
            f"the kernel made {fields['calls']} calls per open, the workload says "
            f"{workload.calls_per_open}: {line.strip()}"
        )
    config, repeat = lines[fields["id"]]
    return Measurement(
        uid=f"{prefix}:{config_key(config)}:{repeat}",
        workload=workload,
        config=dict(config),
        bandwidth=float(fields["data_mib_s"]),
        seconds=float(fields["data_s"]),
        bytes=int(fields["bytes"]),
        repeat=repeat,
        provenance={
            "bench_run": prefix.split(":")[0],
            "plan_id": fields["id"],
            "job_tag": tag,
            "open_seconds": float(fields["open_s"]),
            "close_seconds": float(fields["close_s"]),
            "total_seconds": float(fields["seconds"]),
        },
    )
