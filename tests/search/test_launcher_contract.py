"""The contract every launcher keeps, run over all of them (LAUNCHERS), as the store's one
suite runs on every backend: what the search relies on when it starts a trial.

The checks that start trials run real MPI jobs (`-n 2`) through RunObjective, and are
skipped for a launcher that says it cannot start trials here (Launcher.unavailable). The
Slurm launcher's run on the tests' own Slurm (tests/slurm/cluster.py: started on first
use, skipped when Slurm is not installed unless IOTUNER_REQUIRE_SLURM=1), outside an
allocation: each trial is an sbatch job.
"""

import os
import sys
import time
from collections.abc import Callable
from pathlib import Path

import pytest

from iotuner.runner import build_config, find_library
from iotuner.search import LAUNCHERS, Launcher, RunObjective, SearchError
from iotuner.space import Space

from .conftest import records

HOSTILE = "two words; echo $(id) `id` > /tmp/x"

USER_COMMANDS: dict[str, Callable[[list[str], int], list[str]]] = {
    "local": lambda program, nprocs: [build_config().mpiexec, "-n", str(nprocs), *program],
    "slurm": lambda program, nprocs: ["mpiexec", "-n", str(nprocs), *program],
}
"""How a user writes the command of a trial of N ranks for each launcher: the local one
runs the user's own MPI launcher; the Slurm one takes the program and its ranks from it
(or the program alone with --nprocs) and runs it as a job step of N tasks."""

PROBE = """
import json, os, sys

def preload(pid):
    try:
        with open(f"/proc/{pid}/environ", "rb") as stream:
            items = stream.read().split(b"\\0")
    except OSError:
        return None
    found = [i.split(b"=", 1)[1].decode() for i in items if i.startswith(b"LD_PRELOAD=")]
    return found[0] if found else ""

seen = {
    "args": sys.argv[2:],
    "buf": os.environ.get("APP_BUF"),
    "mode": os.environ.get("IOTUNER_MODE"),
    "preload": os.environ.get("LD_PRELOAD", ""),
    "parent_preload": preload(os.getppid()),
}
with open(sys.argv[1], "a") as out:
    out.write(json.dumps(seen) + "\\n")
"""


# The Slurm launcher's cases start the tests' own cluster: CI's slow stage runs them.
@pytest.fixture(
    params=[
        pytest.param(n, marks=pytest.mark.slow) if n == "slurm" else n for n in sorted(LAUNCHERS)
    ]
)
def launcher(request: pytest.FixtureRequest) -> Launcher:
    return LAUNCHERS[request.param]()


@pytest.fixture
def runnable(launcher: Launcher, monkeypatch: pytest.MonkeyPatch) -> Launcher:
    if launcher.name == "slurm":
        from tests.slurm.conftest import use_cluster

        use_cluster(monkeypatch)
    why = type(launcher).unavailable()
    if why is not None:
        pytest.skip(f"the {launcher.name} launcher cannot start trials here: {why}")
    return launcher


def test_every_launcher_is_registered_with_a_user_command() -> None:
    assert set(USER_COMMANDS) == set(LAUNCHERS)
    assert all(cls.name == name for name, cls in LAUNCHERS.items())


def test_slots_are_between_one_and_the_request(launcher: Launcher) -> None:
    cpus = os.cpu_count() or 1
    slots = [launcher.slots(requested) for requested in range(1, 2 * cpus + 3)]
    assert all(1 <= s <= r for r, s in enumerate(slots, start=1))
    assert slots == sorted(slots)  # more requested never gives fewer
    for requested in (0, -1):
        with pytest.raises(SearchError, match=f">= 1, got {requested}"):
            launcher.slots(requested)


def test_the_command_keeps_the_users_arguments(launcher: Launcher) -> None:
    argv = ["./app", "--file", "/tmp/a b/data-7", HOSTILE, "", "{x}"]
    given = list(argv)
    for nprocs in (None, 4):
        command = launcher.command(argv, nprocs)
        assert argv == given  # not changed in place
        assert all(isinstance(arg, str) for arg in command)
        starts = [i for i in range(len(command)) if command[i : i + len(argv)] == argv]
        assert starts, f"{argv} is not in {command} as it was given"
        command.append("extra")
        assert argv == given  # a new list
    with pytest.raises(SearchError, match="no command to run"):
        launcher.command([])


def test_the_environment_passes_the_trials_variables_and_leaves_the_interposers(
    launcher: Launcher,
) -> None:
    variables = {"APP_BUF": "4", "APP_MODE": "a b=c"}
    env = launcher.env(variables)
    assert variables == {"APP_BUF": "4", "APP_MODE": "a b=c"}
    assert {k: env[k] for k in variables} == variables
    assert "LD_PRELOAD" not in env
    assert not [k for k in env if k.startswith("IOTUNER_")]


def _objective(
    launcher: Launcher, space: Space, tmp_path: Path, program: list[str], timeout: float
) -> RunObjective:
    # Wall time: the ranks' output may interleave, and the value does not matter here.
    return RunObjective(
        USER_COMMANDS[launcher.name](program, 2),
        space,
        measure="walltime",
        launcher=launcher,
        log_dir=tmp_path / "logs",
        timeout=timeout,
    )


def test_the_ranks_get_their_arguments_variables_and_the_interposer_and_only_they(
    runnable: Launcher, fake_space: Space, tmp_path: Path
) -> None:
    probe, record = tmp_path / "probe.py", tmp_path / "record.jsonl"
    probe.write_text(PROBE)
    program = [sys.executable, str(probe), str(record), "{x}", HOSTILE, "t-{trial}"]
    objective = _objective(runnable, fake_space, tmp_path, program, timeout=60)
    outcome = objective.evaluate(fake_space.validate({"x": 2, "buf": 4}), "5")
    assert outcome.value is not None, outcome.reason
    ranks = records(record)
    assert len(ranks) == 2
    library = str(find_library())
    for rank in ranks:
        assert rank["args"] == ["2", HOSTILE, "t-5"]
        assert rank["buf"] == "4"
        assert rank["mode"] == "tune"
        assert library in rank["preload"].split(":")
        # The process that started the rank (the launcher's proxy) runs without it.
        assert rank["parent_preload"] is not None
        assert library not in rank["parent_preload"].split(":")


def test_a_trial_past_its_timeout_is_stopped_and_failed(
    runnable: Launcher, fake_space: Space, tmp_path: Path
) -> None:
    program = ["sleep", "60", "{x}"]  # {x}: the space's x reaches the program (60 + x s)
    objective = _objective(runnable, fake_space, tmp_path, program, timeout=1)
    started = time.monotonic()
    outcome = objective.evaluate(fake_space.default(), "1")
    assert outcome.failed and "did not finish within 1 s" in (outcome.reason or "")
    assert time.monotonic() - started < 30
