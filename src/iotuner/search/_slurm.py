"""Trials on a Slurm cluster: `srun` steps inside an allocation, or one `sbatch` job each.

How the user's command maps: the command after `--` is the program (`-- ./app ARGS`, with
`--nprocs N`), or the user's `mpiexec -n N ./app ARGS` (also `mpirun -np N`, `srun -n N`),
whose launcher is taken off (ranks_in: N is the ranks; another option of it is refused).
Every trial runs the program as a job step of N tasks:

    srun --mpi=pmi2 --exact -n N --export=ALL,LD_PRELOAD=<interposer> [--time M] ./app ARGS

Inside an allocation (SLURM_JOB_ID set) each trial is that step (SlurmLauncher._step);
without one, a job of its own (SlurmLauncher._submit). MPI and the interposer's environment:
SlurmLauncher.command and SlurmLauncher.run.
"""

import atexit
import contextlib
import dataclasses
import math
import os
import re
import shutil
import subprocess
import time
import uuid
from collections.abc import Mapping, Sequence
from pathlib import Path

from iotuner.errors import ConfigError, TableError
from iotuner.runner import RunResult, interposer_env, make_log_dir, run_child
from iotuner.search._common import LOGS_AT, SearchError
from iotuner.search._launchers import Journal, Launched, Launcher, ranks_in

__all__ = ["SUBMITTED", "SlurmLauncher", "slurm_minutes"]

SUBMITTED = "iotuner:slurm"
"""Trial attribute: the Slurm job a trial submitted ({"job", "stem", "tag", "log_dir",
"nprocs"}), so that a search started again collects it (SlurmLauncher.collect)."""
POLL_SECONDS = 1.0
"""How often a submitted job's state is read (`scontrol show job`)."""
ENDED = frozenset(
    {
        "COMPLETED",
        "FAILED",
        "TIMEOUT",
        "CANCELLED",
        "NODE_FAIL",
        "PREEMPTED",
        "OUT_OF_MEMORY",
        "BOOT_FAIL",
        "DEADLINE",
    }
)
JOB_SCRIPT = """#!/bin/sh
# iotuner search trial: runs its arguments (the job step), then writes its exit status and
# its start and end times (s) to the file named by the first argument.
result=$1
shift
start=$(date +%s.%N)
"$@"
status=$?
end=$(date +%s.%N)
echo "$status $start $end" > "$result.part" && mv "$result.part" "$result"
exit $status
"""
_UNKNOWN_POLLS = 5
"""Reads of a job Slurm no longer knows (and that left no result) before it is failed."""


def slurm_minutes(seconds: float) -> int:
    """Slurm's --time in whole minutes (its granularity), rounded up, at least 1."""
    return max(1, math.ceil(seconds / 60))


def _duration(text: str) -> float | None:
    """Seconds of a Slurm duration: [D-]HH:MM:SS, MM:SS."""
    days, _, clock = text.rpartition("-")
    parts = clock.split(":")
    if not all(p.isdigit() for p in parts) or not 1 <= len(parts) <= 3:
        return None
    seconds = 0.0
    for part in parts:
        seconds = seconds * 60 + int(part)
    return seconds + (int(days) * 86400 if days.isdigit() else 0)


def job_state(job: str, env: Mapping[str, str] | None = None) -> dict[str, str] | None:
    """`scontrol show job -o JOB` as a dict (JobState, ExitCode, RunTime, Reason, ...);
    None when Slurm no longer knows the job."""
    done = subprocess.run(
        ["scontrol", "show", "job", "-o", job],
        capture_output=True,
        text=True,
        env=None if env is None else dict(env),
        timeout=60,
        check=False,
    )
    if done.returncode != 0:
        if "Invalid job id" in done.stderr:
            return None
        raise SearchError(f"scontrol show job {job} failed: {done.stderr.strip()}")
    fields: dict[str, str] = {}
    for item in re.findall(r"(\w+)=(\S*)", done.stdout):
        fields.setdefault(item[0], item[1])
    return fields


def scancel(job: str) -> None:
    with contextlib.suppress(OSError, subprocess.SubprocessError):
        subprocess.run(["scancel", job], capture_output=True, timeout=60, check=False)


class SlurmLauncher(Launcher):
    """Runs each trial's program as a Slurm job step (module doc).

    `nprocs`: ranks per trial (else the `-n` of the user's mpiexec, else 1). `time_limit`:
    seconds a trial may run (Slurm's --time, rounded up to minutes; the local timeout
    stops it at the second). `options`: more options for sbatch / srun (e.g.
    `--partition=debug`). `via`: "srun" (needs an allocation), "sbatch", or None for srun
    inside an allocation and sbatch outside.
    """

    name = "slurm"

    def __init__(
        self,
        nprocs: int | None = None,
        *,
        time_limit: float | None = None,
        options: Sequence[str] = (),
        via: str | None = None,
        poll: float = POLL_SECONDS,
    ) -> None:
        if nprocs is not None and nprocs < 1:
            raise SearchError(f"--nprocs must be an int >= 1, got {nprocs}")
        if time_limit is not None and not (time_limit > 0 and math.isfinite(time_limit)):
            raise SearchError(f"the trial time limit must be > 0 seconds, got {time_limit}")
        if via not in (None, "srun", "sbatch"):
            raise SearchError(f"--slurm-via must be srun or sbatch, got {via!r}")
        inside = bool(os.environ.get("SLURM_JOB_ID"))
        if via == "srun" and not inside:
            raise SearchError(
                "--slurm-via srun runs trials as steps of an allocation, but SLURM_JOB_ID is "
                "not set: start the search inside one (salloc -n N iotuner search ..., or in "
                "a batch script), or drop --slurm-via to submit each trial with sbatch"
            )
        self.nprocs = nprocs
        self.time_limit = time_limit
        self.options = list(options)
        self.via = via or ("srun" if inside else "sbatch")
        self.poll = poll
        self._per_trial = nprocs or 1

    @classmethod
    def unavailable(cls) -> str | None:
        absent = [c for c in ("srun", "sbatch", "scontrol", "scancel") if shutil.which(c) is None]
        if absent:
            return (
                f"Slurm's commands are not on PATH ({', '.join(absent)} missing): run the "
                "search on a node of the cluster, or use --launcher local"
            )
        return None

    def check(self) -> None:
        """SearchError when trials cannot be started (Slurm's commands missing)."""
        why = self.unavailable()
        if why is not None:
            raise SearchError(f"--launcher slurm: {why}")

    def _ranks(self, argv: Sequence[str], nprocs: int | None = None) -> tuple[list[str], int]:
        program, ranks = ranks_in(argv)
        wanted = nprocs or self.nprocs
        if ranks is not None and wanted is not None and ranks != wanted:
            raise SearchError(
                f"the command asks for {ranks} ranks ({argv[0]} -n {ranks}) but --nprocs "
                f"says {wanted}: give one of them"
            )
        return program, wanted or ranks or 1

    def command(self, argv: Sequence[str], nprocs: int | None = None) -> list[str]:
        """MPI: `--mpi=pmi2` (Slurm's PMI-2 server) starts an MPICH program's ranks as one job (the
        PyPI MPICH iotuner builds with speaks it); without it each rank would be a job of one.
        SLURM_MPI_TYPE in the environment (e.g. pmix for Open MPI) replaces it.
        """
        if not argv:
            raise SearchError("no command to run: give it after '--', e.g. -- ./app ARGS")
        program, ranks = self._ranks(argv, nprocs)
        mpi = [] if os.environ.get("SLURM_MPI_TYPE") else ["--mpi=pmi2"]
        limit = [f"--time={slurm_minutes(self.time_limit)}"] if self.time_limit else []
        options = self.options if self.via == "srun" else []
        return ["srun", *mpi, "--exact", "-n", str(ranks), *limit, *options, *program]

    def program(self, argv: Sequence[str]) -> str:
        # The user's mpiexec is dropped (srun starts the ranks): it need not exist here.
        if not argv:
            raise SearchError("no command to run: give it after '--', e.g. -- ./app ARGS")
        return ranks_in(argv)[0][0]

    def cores(self, argv: Sequence[str]) -> int:
        ranks = self._ranks(argv)[1]
        self._per_trial = ranks  # for slots(): the search asks cores() first
        return ranks

    def slots(self, requested: int) -> int:
        super().slots(requested)
        if self.via == "sbatch":
            return requested  # the queue decides when they run
        cpus = _allocation_cpus()
        per_trial = self.nprocs or self._per_trial
        return max(1, min(requested, cpus // per_trial if cpus else 1))

    def run(
        self,
        argv: Sequence[str],
        *,
        mode: str,
        table: Path,
        log_dir: Path,
        policy: str,
        extra_env: Mapping[str, str],
        timeout: float | None,
        journal: Journal | None = None,
    ) -> Launched:
        """The interposer's environment: sbatch and srun get the environment runner.interposer_env
        builds (IOTUNER_MODE, _TABLE, _LOG_DIR, _HINT_POLICY, _JOB_TAG and the trial's own
        variables) with `--export=ALL`, but without the interposer in their own LD_PRELOAD: the
        ranks get it through `--export=ALL,LD_PRELOAD=...` (as runner.preload_ranks_only gives it
        to the ranks only for mpiexec). The log directory must be on a file system the nodes
        share (it holds the tables, the trace logs, the jobs' output).
        """
        if "tune" in mode.split(","):
            from iotuner.table import check_table

            refused = check_table(table).refused
            if refused is not None:
                raise TableError(f"{table}: refused ({refused[0]}): {refused[1]}")
        tag = uuid.uuid4().hex[:12]
        try:
            make_log_dir(log_dir)
        except ConfigError as exc:
            raise SearchError(str(exc)) from None
        if journal is not None:
            journal(LOGS_AT, {"tag": tag, "log_dir": str(log_dir.absolute())})
        env = interposer_env(mode, table, log_dir, policy, tag)
        env.update(extra_env)
        ranks_preload = env["LD_PRELOAD"]
        if "," in ranks_preload:
            raise SearchError(
                f"LD_PRELOAD {ranks_preload!r} holds a comma: srun --export cannot pass it"
            )
        # srun and sbatch themselves run without the interposer; the ranks get it.
        own = os.environ.get("LD_PRELOAD")
        if own:
            env["LD_PRELOAD"] = own
        else:
            env.pop("LD_PRELOAD", None)
        step = list(argv)
        step.insert(1, f"--export=ALL,LD_PRELOAD={ranks_preload}")
        if self.via == "srun":
            return self._step(step, env, log_dir, tag, timeout)
        return self._submit(step, env, log_dir, tag, timeout, journal)

    def _step(
        self, step: list[str], env: dict[str, str], log_dir: Path, tag: str, timeout: float | None
    ) -> Launched:
        """**Inside an allocation** (SLURM_JOB_ID set: in `salloc` or a batch script) each trial is
        that step, started from here and waited for like a local command (its time limit is the
        step's --time and the local timeout); as many trials run at once as the allocation has
        CPUs for (SLURM_NTASKS or SLURM_CPUS_ON_NODE, divided by N).
        """
        limits = [t for t in (timeout, self.time_limit) if t is not None]
        limit = min(limits) if limits else None
        started = time.monotonic()
        code, stdout, stderr = run_child(step, env, capture=True, timeout=limit)
        result = RunResult(
            returncode=128 + abs(code) if code < 0 else code,
            logs=sorted(log_dir.glob(f"*-{tag}.iotrace.jsonl")),
            log_dir=log_dir,
            tag=tag,
            stdout=stdout,
            stderr=stderr,
        )
        return Launched(result, time.monotonic() - started)

    def _submit(
        self,
        step: list[str],
        env: dict[str, str],
        log_dir: Path,
        tag: str,
        timeout: float | None,
        journal: Journal | None,
    ) -> Launched:
        """**Without one** each trial is a job, `sbatch --parsable -n N [--time M] --export=ALL
        JOBSCRIPT RESULT STEP...`: the job script runs the step and writes its exit status and
        wall time (the program's own, not the queue's) to RESULT. The job id is kept with the
        trial in the study (the journal) at once; the job is then polled with `scontrol show
        job` until it ends. COMPLETED or FAILED: the step's exit status decides; TIMEOUT,
        CANCELLED, NODE_FAIL, OUT_OF_MEMORY...: a failed trial with that state as its reason. An
        interrupt (^C) cancels the job (`scancel`). A search started again after this one was
        killed collects the jobs it had submitted (collect(): waits for them and reads their
        result) instead of submitting them again.
        """
        directory = log_dir / "slurm"
        make_log_dir(directory)
        script = directory / "iotuner-trial.sh"
        if not script.is_file() or script.read_text() != JOB_SCRIPT:
            script.write_text(JOB_SCRIPT)
            script.chmod(0o700)
        stem = directory / f"trial-{tag}"
        ranks = int(step[step.index("-n") + 1])
        limit = self.time_limit or timeout
        command = [
            "sbatch",
            "--parsable",
            f"--job-name=iotuner-{tag}",
            f"--ntasks={ranks}",
            f"--output={stem}.out",
            f"--error={stem}.err",
            "--export=ALL",
            *([f"--time={slurm_minutes(limit)}"] if limit else []),
            *self.options,
            str(script),
            f"{stem}.result",
            *step,
        ]
        try:
            done = subprocess.run(
                command, env=env, capture_output=True, text=True, timeout=120, check=False
            )
        except (OSError, subprocess.SubprocessError) as exc:
            raise SearchError(f"cannot submit the trial with sbatch: {exc}") from None
        if done.returncode != 0:
            last = (done.stderr.strip().splitlines() or ["no message"])[-1]
            raise SearchError(f"sbatch refused the trial's job: {last}")
        job = done.stdout.strip().split(";")[0]
        submitted = {
            "job": job,
            "stem": str(stem),
            "tag": tag,
            "log_dir": str(log_dir),
            "nprocs": ranks,
        }
        if journal is not None:
            journal(SUBMITTED, submitted)
        return self._wait(submitted, timeout)

    def collect(self, submitted: Mapping[str, object], timeout: float | None) -> Launched | None:
        """The job's result; None when it measured nothing because it was cancelled (by
        the search that submitted it, on an interrupt): the trial is then run again."""
        if not isinstance(submitted.get("job"), str) or not isinstance(submitted.get("stem"), str):
            return None
        launched = self._wait(submitted, timeout)
        cancelled = (launched.job or "").endswith(" CANCELLED") and not launched.failure_local
        return None if cancelled else launched

    def _wait(self, submitted: Mapping[str, object], timeout: float | None) -> Launched:
        """Poll the job until it ends; cancel it past `timeout` s of running, or on an
        interrupt; read what it left."""
        job = str(submitted["job"])
        stem = Path(str(submitted["stem"]))
        result_file = Path(f"{stem}.result")
        info: dict[str, str] | None = None
        cancelled: str | None = None
        unknown = 0
        _LIVE.add(job)
        try:
            while True:
                info = job_state(job)
                state = (info or {}).get("JobState", "")
                if state in ENDED:
                    break
                if info is None:
                    unknown += 1
                    if result_file.exists() or unknown >= _UNKNOWN_POLLS:
                        break
                ran = _duration((info or {}).get("RunTime", "")) or 0.0
                if timeout is not None and state == "RUNNING" and ran > timeout and not cancelled:
                    scancel(job)
                    cancelled = (
                        f"did not finish within {timeout:g} s; Slurm job {job} was cancelled"
                    )
                time.sleep(self.poll)
        except BaseException:
            scancel(job)
            raise
        finally:
            _LIVE.discard(job)
        return self._read(job, stem, submitted, info, cancelled)

    def _read(
        self,
        job: str,
        stem: Path,
        submitted: Mapping[str, object],
        info: dict[str, str] | None,
        cancelled: str | None,
    ) -> Launched:
        state = (info or {}).get("JobState", "UNKNOWN")
        status: int | None = None
        seconds: float | None = None
        with contextlib.suppress(OSError, ValueError):
            code, start, end = Path(f"{stem}.result").read_text().split()
            status, seconds = int(code), max(float(end) - float(start), 0.0)
        if status is None and info is not None:
            code, _, sig = info.get("ExitCode", "0:0").partition(":")
            status = 128 + int(sig) if sig.isdigit() and int(sig) else int(code or 0)
        if seconds is None:
            seconds = _duration((info or {}).get("RunTime", "")) or 0.0
        failure = cancelled
        if failure is None and state not in ("COMPLETED", "FAILED"):
            if info is None and status is None:
                failure = f"Slurm job {job} is no longer known to Slurm and left no result"
            elif state == "TIMEOUT":
                failure = (
                    f"Slurm job {job} TIMEOUT: it ran past its time limit "
                    f"({info.get('TimeLimit', '?') if info else '?'})"
                )
            elif info is not None:
                reason = info.get("Reason", "None")
                failure = f"Slurm job {job} {state}" + (
                    f" ({reason})" if reason not in ("None", "") else ""
                )
        if failure is not None and status in (None, 0):
            status = 1
        log_dir = Path(str(submitted.get("log_dir", stem.parent.parent)))
        result = RunResult(
            returncode=status or 0,
            logs=sorted(log_dir.glob(f"*-{submitted.get('tag', '')}.iotrace.jsonl")),
            log_dir=log_dir,
            tag=str(submitted.get("tag", "")),
            stdout=_read_text(Path(f"{stem}.out")),
            stderr=_read_text(Path(f"{stem}.err")),
        )
        launched = Launched(result, seconds, failure, f"Slurm job {job} {state}")
        return dataclasses.replace(launched, failure_local=cancelled is not None)


_LIVE: set[str] = set()
"""The jobs this process waits for now."""


@atexit.register
def _cancel_live() -> None:
    """On the way out after an exception (^C) the jobs still waited for (other --parallel
    trials) are cancelled too; a search killed by a signal leaves them to be collected."""
    for job in sorted(_LIVE):
        scancel(job)


def _read_text(path: Path) -> str:
    try:
        return path.read_text(errors="replace")
    except OSError:
        return ""


def _allocation_cpus() -> int:
    for name in ("SLURM_NTASKS", "SLURM_NPROCS", "SLURM_CPUS_ON_NODE"):
        value = os.environ.get(name, "")
        if value.isdigit():
            return int(value)
    return 0
