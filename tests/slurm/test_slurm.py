"""Searches on a real Slurm (cluster.py: munged, slurmctld and slurmd on this machine, two
CPUs): our kernel's trials as sbatch jobs and as srun steps of an allocation, a job that
fails, one past Slurm's time limit, and a driver killed while its job runs and started
again (it collects the job, and submits nothing twice).
"""

import json
import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import optuna
import pytest

from iotuner.runner import find_program
from iotuner.search import RunObjective, SlurmLauncher
from iotuner.space import Space, parse_space
from tests.slurm.cluster import Cluster

pytestmark = pytest.mark.slow  # CI's slow stage (.ci/run)

SPACE = """
name = "cb-write"
description = "collective buffering for writes: 3 configurations"

[hints.romio_cb_write]
values = ["automatic", "disable", "enable"]
default = "automatic"
"""
IOTUNER = [str(Path(sys.executable).parent / "iotuner")]


@pytest.fixture
def space() -> Space:
    return parse_space(SPACE, "test space")


def kernel(tmp_path: Path) -> list[str]:
    """Our kernel, 64 KiB per rank, a new file per trial (deleted after)."""
    data = tmp_path / "data-{trial}.dat"
    return [str(find_program("iokernel")), "--file", str(data), "--size", "64k", "--delete"]


def search(tmp_path: Path, cluster: Cluster, *options: str, command: list[str]) -> list[str]:
    return [
        *IOTUNER,
        "search",
        "--space",
        str(tmp_path / "space.toml"),
        "--strategy",
        "grid",
        "--repeats",
        "0",
        "--storage",
        str(tmp_path / "study.db"),
        "--log-dir",
        str(tmp_path / "logs"),
        "--db",
        str(tmp_path / "kb.db"),
        "--json",
        *options,
        "--",
        *command,
    ]


def jobs_of(tmp_path: Path, cluster: Cluster) -> list[dict[str, str]]:
    """Every job Slurm knows whose output went under `tmp_path` (finished ones too:
    MinJobAge is an hour)."""
    done = subprocess.run(
        ["scontrol", "show", "job", "-o"],
        env=cluster.env(),
        capture_output=True,
        text=True,
        check=True,
    )
    jobs = []
    for line in done.stdout.splitlines():
        fields = dict(item.split("=", 1) for item in line.split() if "=" in item)
        if fields.get("StdOut", "").startswith(str(tmp_path)):
            jobs.append(fields)
    return jobs


@pytest.mark.slow  # CI's
def test_sbatch_trials_of_the_kernel_within_a_core_hour_budget(
    slurm: Cluster, tmp_path: Path
) -> None:
    (tmp_path / "space.toml").write_text(SPACE)
    command = search(
        tmp_path,
        slurm,
        "--launcher",
        "slurm",
        "--nprocs",
        "2",
        "--budget-core-hours",
        "1",
        "--trial-time-limit",
        "2m",
        "--all-parameters",
        command=kernel(tmp_path),
    )
    done = subprocess.run(command, env=slurm.env(), capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    record = json.loads(done.stdout)
    assert len(record["trials"]) == 3
    assert all(t["value"] and t["value"] > 0 for t in record["trials"])
    assert (record["program"], record["nprocs"]) == ("iokernel", 2)  # one job of 2 ranks
    spent = record["spent"]
    assert spent["cores_per_trial"] == 2 and spent["budget_core_hours"] == 1
    seconds = sum(t["seconds"] for t in record["trials"])
    assert spent["trials_core_hours"] == pytest.approx(2 * seconds / 3600)
    assert "spent" in done.stderr and "core-hours of a budget of 1" in done.stderr
    # One sbatch job per trial, its id kept with the trial, each ended COMPLETED with a
    # time limit of 2 minutes.
    jobs = jobs_of(tmp_path, slurm)
    assert len(jobs) == 3
    assert {j["JobState"] for j in jobs} == {"COMPLETED"}
    assert {j["TimeLimit"] for j in jobs} == {"00:02:00"}
    assert {j["NumTasks"] for j in jobs} == {"2"}
    study = optuna.load_study(study_name=record["study"], storage=f"sqlite:///{tmp_path}/study.db")
    kept = {t.user_attrs["iotuner:slurm"]["job"] for t in study.trials}
    assert kept == {j["JobId"] for j in jobs}


def test_srun_steps_inside_an_allocation(slurm: Cluster, tmp_path: Path) -> None:
    (tmp_path / "space.toml").write_text(SPACE)
    # The user's own `mpiexec -n 2 PROGRAM`: the launcher runs PROGRAM as a step of 2 tasks.
    inner = search(
        tmp_path, slurm, "--launcher", "slurm", command=["mpiexec", "-n", "2", *kernel(tmp_path)]
    )
    done = subprocess.run(
        ["salloc", "-n", "2", "--time=5", *inner],
        env=slurm.env(),
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr
    record = json.loads(done.stdout)
    assert len(record["trials"]) == 3 and all(t["value"] for t in record["trials"])
    assert (record["program"], record["nprocs"]) == ("iokernel", 2)
    assert record["spent"]["cores_per_trial"] == 2
    # Steps of the one allocation, not jobs of their own.
    assert not jobs_of(tmp_path, slurm)


def test_srun_outside_an_allocation_is_refused(slurm: Cluster, tmp_path: Path) -> None:
    (tmp_path / "space.toml").write_text(SPACE)
    command = search(
        tmp_path, slurm, "--launcher", "slurm", "--slurm-via", "srun", command=kernel(tmp_path)
    )
    done = subprocess.run(command, env=slurm.env(), capture_output=True, text=True, timeout=60)
    assert done.returncode != 0
    assert "SLURM_JOB_ID is not set" in done.stderr


def test_a_failed_job_is_a_failed_trial_with_its_reason(
    slurm: Cluster, space: Space, tmp_path: Path
) -> None:
    script = tmp_path / "fails.sh"
    script.write_text("#!/bin/sh\necho 'cannot open the input' >&2\nexit 3\n")
    script.chmod(0o755)
    objective = RunObjective(
        [str(script)],
        space,
        measure="walltime",
        launcher=SlurmLauncher(1),
        log_dir=tmp_path / "logs",
        timeout=120,
    )
    outcome = objective.evaluate(space.default(), "1")
    assert outcome.failed
    assert "FAILED" in (outcome.reason or "") and "exit status 3" in (outcome.reason or "")
    assert "cannot open the input" in (outcome.reason or "")


@pytest.mark.slow  # Slurm's minute of time limit; CI's
def test_a_job_past_slurms_time_limit_is_a_failed_trial(
    slurm: Cluster, space: Space, tmp_path: Path
) -> None:
    # Slurm's limit is whole minutes: one minute, enforced by Slurm alone (no local
    # timeout), so the job ends TIMEOUT (about 1-1.5 minutes).
    objective = RunObjective(
        ["sleep", "600"],
        space,
        measure="walltime",
        launcher=SlurmLauncher(1, time_limit=60),
        log_dir=tmp_path / "logs",
    )
    started = time.monotonic()
    outcome = objective.evaluate(space.default(), "1")
    assert outcome.failed and "TIMEOUT" in (outcome.reason or ""), outcome.reason
    assert time.monotonic() - started < 240
    (job,) = jobs_of(tmp_path, slurm)
    assert job["JobState"] == "TIMEOUT"


@pytest.mark.slow  # half a minute; CI's
def test_a_killed_driver_collects_its_job_when_started_again(
    slurm: Cluster, tmp_path: Path
) -> None:
    (tmp_path / "space.toml").write_text(SPACE)
    # Each trial sleeps 6 s before the kernel: the driver is killed while one runs.
    slow = ["sh", "-c", "sleep 6; exec " + " ".join(kernel(tmp_path))]
    command = search(
        tmp_path,
        slurm,
        "--launcher",
        "slurm",
        "--nprocs",
        "2",
        "--all-parameters",
        "--objective",
        "walltime",
        command=slow,
    )
    driver = subprocess.Popen(
        command, env=slurm.env(), stdout=subprocess.PIPE, stderr=subprocess.PIPE
    )
    deadline = time.monotonic() + 60
    while not jobs_of(tmp_path, slurm):
        assert driver.poll() is None and time.monotonic() < deadline
        time.sleep(0.2)
    time.sleep(1)  # the job id is in the study (it is kept before the job is waited for)
    os.kill(driver.pid, signal.SIGKILL)
    driver.communicate()
    (first,) = jobs_of(tmp_path, slurm)
    assert first["JobState"] in ("PENDING", "RUNNING")

    done = subprocess.run(command, env=slurm.env(), capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    record = json.loads(done.stdout)
    assert len(record["trials"]) == 3 and all(t["value"] for t in record["trials"])
    # The killed driver's job was collected, not submitted again: three jobs in all, one
    # per trial, the first among them.
    jobs = jobs_of(tmp_path, slurm)
    assert len(jobs) == 3 and {j["JobState"] for j in jobs} == {"COMPLETED"}
    study = optuna.load_study(study_name=record["study"], storage=f"sqlite:///{tmp_path}/study.db")
    measured = [t for t in study.trials if t.user_attrs.get("iotuner:kind") == "run"]
    assert len(measured) == 3
    kept = [t.user_attrs["iotuner:slurm"]["job"] for t in measured]
    assert sorted(kept) == sorted(j["JobId"] for j in jobs)
    assert first["JobId"] in kept
    assert record["spent"]["collected"] and first["JobId"] in record["spent"]["collected"][0]
    configs = [json.dumps(t["config"], sort_keys=True) for t in record["trials"]]
    assert len(set(configs)) == 3  # none run twice


@pytest.mark.slow  # CI's
def test_an_interrupted_driver_cancels_its_job_and_the_next_runs_the_trial_again(
    slurm: Cluster, tmp_path: Path
) -> None:
    (tmp_path / "space.toml").write_text(SPACE)
    slow = ["sh", "-c", "sleep 4; exec " + " ".join(kernel(tmp_path))]
    command = search(
        tmp_path,
        slurm,
        "--launcher",
        "slurm",
        "--nprocs",
        "2",
        "--all-parameters",
        "--objective",
        "walltime",
        "--budget",
        "2",
        command=slow,
    )
    driver = subprocess.Popen(
        command,
        env=slurm.env(),
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        # A shell's background job (`.ci/run &`) starts with SIGINT ignored, and a Python
        # started so never raises KeyboardInterrupt: the driver then ran both trials to the
        # end. A ^C from a terminal always reaches it, so the test restores that.
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
    )
    deadline = time.monotonic() + 60
    # ^C once the job runs: the driver then waits for it (sbatch has answered with its id).
    # A ^C while sbatch itself is still running cannot cancel a job whose id it never got.
    while not any(j["JobState"] == "RUNNING" for j in jobs_of(tmp_path, slurm)):
        assert driver.poll() is None and time.monotonic() < deadline
        time.sleep(0.2)
    driver.send_signal(signal.SIGINT)  # ^C
    _, err = driver.communicate(timeout=60)
    jobs = jobs_of(tmp_path, slurm)
    said = f"jobs {[(j['JobId'], j['JobName'], j['JobState']) for j in jobs]}\n{err.decode()}"
    assert len(jobs) == 1, said
    assert jobs[0]["JobState"] == "CANCELLED", said

    done = subprocess.run(command, env=slurm.env(), capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    record = json.loads(done.stdout)
    assert len(record["trials"]) == 2 and all(t["value"] for t in record["trials"])
    assert record["recovered"] == 1 and not record["spent"]["collected"]
    jobs = jobs_of(tmp_path, slurm)
    assert sorted(j["JobState"] for j in jobs) == ["CANCELLED", "COMPLETED", "COMPLETED"]


@pytest.mark.slow  # CI's
def test_the_user_s_mpiexec_need_not_be_on_path(slurm: Cluster, tmp_path: Path) -> None:
    # `-- mpiexec -n 2 ./app` as the README writes it: Slurm's launcher drops the mpiexec
    # and runs the program with srun, so a PATH with Slurm's commands and no mpiexec (a
    # login node without the MPI module loaded) must do.
    (tmp_path / "space.toml").write_text(SPACE)
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    for name in ("srun", "sbatch", "scontrol", "scancel"):
        found = shutil.which(name)
        assert found is not None, name
        (bin_dir / name).symlink_to(found)
    env = {**slurm.env(), "PATH": str(bin_dir)}
    assert shutil.which("mpiexec", path=env["PATH"]) is None
    command = search(
        tmp_path,
        slurm,
        "--launcher",
        "slurm",
        "--trial-time-limit",
        "2m",
        "--all-parameters",
        command=["mpiexec", "-n", "2", *kernel(tmp_path)],
    )
    done = subprocess.run(command, env=env, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    record = json.loads(done.stdout)
    assert len(record["trials"]) == 3
    assert all(t["value"] and t["value"] > 0 for t in record["trials"])
    assert {j["NumTasks"] for j in jobs_of(tmp_path, slurm)} == {"2"}
