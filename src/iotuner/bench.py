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

Parameters that cannot matter to a workload are held at their default instead of multiplying
the sweep: read-side knobs (names with "read" or "_rd_") for writes and write-side knobs
("write", "_wr_") for reads, and collective-buffering knobs (romio_cb_*, cb_*) for
independent access.
"""

import hashlib
import json
import os
import random
import signal
import subprocess
import uuid
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

from iotuner.errors import ConfigError
from iotuner.formats import size_groups
from iotuner.measurement import (
    Measurement,
    System,
    Workload,
    measurement_from_json,
    measurement_to_json,
)
from iotuner.runner import build_config, find_program, interposer_env, make_log_dir
from iotuner.space import Configuration, Parameter, Space, config_key
from iotuner.tracelog import read_tracelog

__all__ = [
    "BenchPlan",
    "LayoutSpec",
    "configurations_for",
    "default_sizes",
    "kernel_command",
    "parse_layout",
    "parse_size",
    "relevant",
    "run_bench",
]


@dataclass(frozen=True)
class LayoutSpec:
    """contiguous, or strided with a block size and a fill level (Kunkel et al.)."""

    layout: str
    block: int = 0
    fill: float = 1.0

    def __str__(self) -> str:
        if self.layout == "contiguous":
            return "contiguous"
        return f"strided:{self.block}:{self.fill:g}"


def parse_size(text: str) -> int:
    """Bytes from '4096', '64k', '1m', '2g' (KiB, MiB, GiB)."""
    units = {"k": 1 << 10, "m": 1 << 20, "g": 1 << 30}
    body, unit = (text[:-1], units[text[-1].lower()]) if text[-1:].lower() in units else (text, 1)
    if not body.isdigit() or int(body) <= 0:
        raise ConfigError(
            f"a size must be a positive number of bytes like 4096, 64k or 1m, got {text!r}"
        )
    return int(body) * unit


def parse_layout(text: str) -> LayoutSpec:
    """'contiguous' or 'strided:BLOCK:FILL' (e.g. strided:4k:0.5)."""
    if text == "contiguous":
        return LayoutSpec("contiguous")
    parts = text.split(":")
    if len(parts) != 3 or parts[0] != "strided":
        raise ConfigError(
            f"a layout is 'contiguous' or 'strided:BLOCK:FILL' (strided:4k:0.5), got {text!r}"
        )
    try:
        fill = float(parts[2])
    except ValueError:
        fill = -1.0
    if not 0 < fill <= 1:
        raise ConfigError(f"the fill level of {text!r} must be a number in (0, 1]")
    return LayoutSpec("strided", parse_size(parts[1]), fill)


def default_sizes(max_size: int) -> list[int]:
    """One size per decade of the size groups (their first byte counts: 1 KB, 10 KB, 100 KB,
    1 MB, 10 MB, 100 MB), up to max_size."""
    firsts = [g.first for g in size_groups() if g.number in (8, 17, 26, 35, 44, 53)]
    return [size for size in firsts if size <= max_size] or [min(firsts[0], max_size)]


def relevant(parameter: Parameter, workload: Workload) -> bool:
    """Whether a parameter can change this workload's performance (see the module doc)."""
    name = parameter.name
    if parameter.kind != "hint":
        return False  # our kernel has no application parameters
    if workload.op == "write" and ("read" in name or "_rd_" in name):
        return False
    if workload.op == "read" and ("write" in name or "_wr_" in name):
        return False
    return not (workload.pattern == "independent" and name.startswith(("romio_cb_", "cb_")))


def configurations_for(space: Space, workload: Workload) -> list[Configuration]:
    """The configurations that differ for a workload, the default first: parameters that
    cannot matter to it (relevant()) stay at their default."""
    default = space.default()
    fixed = {p.name for p in space.parameters if not relevant(p, workload)}
    return [c for c in space.configurations() if all(c[n] == default[n] for n in fixed)]


@dataclass
class BenchPlan:
    """What a sweep measures: workloads x configurations x repeats."""

    space: Space
    nprocs: Sequence[int]
    patterns: Sequence[str]
    layouts: Sequence[LayoutSpec]
    ops: Sequence[str]
    sizes: Sequence[int]
    repeats: int = 3
    max_configs: int | None = None
    seed: int = 0
    workloads: list[Workload] = field(init=False)

    def __post_init__(self) -> None:
        if self.repeats < 1:
            raise ConfigError(f"repeats must be at least 1, got {self.repeats}")
        self.workloads = []
        for nprocs in self.nprocs:
            for pattern in self.patterns:
                for layout in self.layouts:
                    for op in self.ops:
                        for size in self.sizes:
                            # A strided size is a whole number of blocks.
                            if layout.layout == "strided":
                                size = max(layout.block, size - size % layout.block)
                            workload = Workload(
                                nprocs,
                                1,
                                pattern,
                                op,
                                layout.layout,
                                size,
                                layout.block,
                                layout.fill,
                            )
                            self.workloads.append(workload)

    @property
    def sweep_id(self) -> str:
        """Names this sweep: the same command gives the same id, so a rerun resumes."""
        text = json.dumps(
            [
                self.space.name,
                [p.name for p in self.space.parameters],
                list(self.nprocs),
                list(self.patterns),
                [str(x) for x in self.layouts],
                list(self.ops),
                list(self.sizes),
                self.repeats,
                self.max_configs,
                self.seed,
            ],
        )
        return hashlib.sha256(text.encode()).hexdigest()[:12]

    def configurations(self, workload: Workload) -> list[Configuration]:
        """The configurations measured for a workload: all that matter, or a sample."""
        configs = configurations_for(self.space, workload)
        if self.max_configs is not None and len(configs) > self.max_configs:
            rng = random.Random(f"{self.seed}:{workload}")
            configs = [configs[0], *rng.sample(configs[1:], self.max_configs - 1)]
        return configs

    def measurements(self) -> int:
        return sum(len(self.configurations(w)) for w in self.workloads) * self.repeats


def workload_key(workload: Workload) -> str:
    return (
        f"n{workload.nprocs}-{workload.pattern}-{workload.op}-{workload.layout}"
        f"-b{workload.block}-f{workload.fill:g}-s{workload.bytes_per_rank}"
    )


def kernel_command(workload: Workload, target: Path, *extra: str) -> list[str]:
    """The command that runs our kernel at the workload's scale, doing the workload on
    `target` and deleting it afterwards; `extra` are more kernel options (--plan, --hint)."""
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
    after_workload: Callable[[Path], object] | None = None,
) -> int:
    """Measure what `results` does not hold yet; returns the number of new measurements.

    `after_workload(results)` runs after each workload's job (e.g. to ingest into the
    knowledge base). Interrupting (Ctrl-C) stops the running job; what it measured so far
    is kept.
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
    columns = (
        TextColumn("{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TextColumn("eta"),
        TimeRemainingColumn(),
    )
    try:
        with Progress(*columns, console=console) as progress:
            task = progress.add_task("bench", total=total, completed=min(len(done), total))
            for workload in order:
                progress.update(task, description=workload_key(workload))
                added += _run_workload(
                    plan,
                    workload,
                    system,
                    work,
                    log_dir,
                    results,
                    done,
                    lambda: progress.advance(task),
                )
                if after_workload is not None:
                    after_workload(results)
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
) -> int:
    """One MPI job: the workload's missing (configuration, repeat) pairs, shuffled."""
    prefix = f"{plan.sweep_id}:{workload_key(workload)}"
    lines: dict[str, tuple[Configuration, int]] = {}
    for index, config in enumerate(plan.configurations(workload)):
        for repeat in range(plan.repeats):
            uid = f"{prefix}:{config_key(config)}:{repeat}"
            if uid not in done:
                lines[f"c{index}r{repeat}"] = (config, repeat)
    if not lines:
        return 0
    ids = list(lines)
    random.Random(f"{plan.seed}:{prefix}").shuffle(ids)
    plan_file = work / "plan.txt"
    plan_file.write_text(
        "".join(
            " ".join(
                [plan_id, *(f"{k}={v}" for k, v in plan.space.hints(lines[plan_id][0]).items())]
            )
            + "\n"
            for plan_id in ids
        )
    )
    tag = uuid.uuid4().hex[:12]
    env = interposer_env("trace", None, log_dir, "table", tag)
    command = kernel_command(workload, work / "data", "--plan", str(plan_file))
    added = 0
    with (
        results.open("a", encoding="utf-8") as out,
        subprocess.Popen(
            command,
            env=env,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            start_new_session=True,
        ) as job,
    ):
        try:
            assert job.stdout is not None
            for line in job.stdout:
                measurement = _parse_line(line, lines, prefix, workload, tag)
                if measurement is None:
                    continue
                out.write(measurement_to_json(measurement, system, plan.space.name) + "\n")
                out.flush()
                done.add(measurement.uid)
                added += 1
                advance()
        except BaseException:
            os.killpg(job.pid, signal.SIGTERM)
            raise
        stderr = job.stderr.read() if job.stderr else ""
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
    """A measurement from one `iokernel: id=... op=... bytes=... seconds=...` line."""
    if not line.startswith("iokernel: id="):
        return None
    fields = dict(part.split("=", 1) for part in line.split()[1:])
    if fields["id"] not in lines or fields["op"] != workload.op:
        return None  # the untimed preparation of a read plan
    config, repeat = lines[fields["id"]]
    return Measurement(
        uid=f"{prefix}:{config_key(config)}:{repeat}",
        workload=workload,
        config=dict(config),
        bandwidth=float(fields["bandwidth_mib_s"]),
        seconds=float(fields["seconds"]),
        bytes=int(fields["bytes"]),
        repeat=repeat,
        provenance={"bench_run": prefix.split(":")[0], "plan_id": fields["id"], "job_tag": tag},
    )
