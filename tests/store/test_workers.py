"""Many workers, one study: `iotuner search` processes sharing an Optuna study and a
knowledge base on a real PostgreSQL server, running real trials of our kernel.

Each trial sleeps a second before the kernel (a shell in front of mpiexec), so that the
workers' trials overlap and a worker can be killed while its trial runs; each run writes
a file named by that shell's process id (the workers' re-measures have the same labels,
so `{trial}` would not keep two workers' files apart)."""

import hashlib
import os
import signal
import subprocess
import sys
import time
from collections import Counter
from collections.abc import Iterator
from itertools import count
from pathlib import Path

import optuna
import psycopg
import pytest
from optuna.trial import TrialState
from psycopg import sql

from iotuner.runner import build_config, find_program
from iotuner.search._study import KIND, storage_url
from iotuner.store import open_store
from iotuner.tracelog import read_tracelog
from tests.store.conftest import PostgresServer

SPACE = """
name = "two-knobs"
[hints.romio_cb_write]
values = ["automatic", "disable", "enable"]
default = "automatic"
[hints.romio_ds_write]
values = ["automatic", "disable", "enable"]
default = "automatic"
"""
BUDGET = 6
_databases = count()


@pytest.fixture
def database(postgres_server: PostgresServer) -> Iterator[str]:
    """A new PostgreSQL database for the study and the knowledge base."""
    name = f"workers_{os.getpid()}_{next(_databases)}"
    where = {"host": str(postgres_server.root), "port": postgres_server.port}
    with psycopg.connect(**where, dbname="postgres", user="iotuner", autocommit=True) as conn:
        conn.execute(sql.SQL("CREATE DATABASE {}").format(sql.Identifier(name)))
    yield postgres_server.url(name)
    with psycopg.connect(**where, dbname="postgres", user="iotuner", autocommit=True) as conn:
        conn.execute(sql.SQL("DROP DATABASE {} WITH (FORCE)").format(sql.Identifier(name)))


def _worker(tmp_path: Path, url: str, name: str, *extra: str) -> subprocess.Popen[str]:
    (tmp_path / "space.toml").write_text(SPACE)
    command = [
        str(Path(sys.executable).parent / "iotuner"), "search",
        "--space", str(tmp_path / "space.toml"), "--strategy", "random",
        "--budget", str(BUDGET), "--all-parameters", "--repeats", "3",
        "--storage", url, "--study", "shared", "--db", url,
        "--log-dir", str(tmp_path / f"logs-{name}"), *extra, "--",
        "sh", "-c", f'sleep 1; exec "$@" --file {tmp_path}/data-$$.dat', "sh",
        build_config().mpiexec, "-n", "1", str(find_program("iokernel")),
        "--size", "64k", "--delete",
    ]  # fmt: skip
    out = (tmp_path / f"{name}.out").open("w")
    # Its own process group, so that killing it kills its trial's mpiexec too.
    return subprocess.Popen(command, stdout=out, stderr=subprocess.STDOUT, text=True,
                            start_new_session=True)  # fmt: skip


def _finish(tmp_path: Path, name: str, worker: subprocess.Popen[str]) -> None:
    assert worker.wait(timeout=300) == 0, (tmp_path / f"{name}.out").read_text()


def _check_study_and_knowledge_base(url: str) -> list[optuna.trial.FrozenTrial]:
    """Exactly the budget of measured trials, no configuration measured twice, each trial's
    log in the knowledge base once; the study's trials."""
    study = optuna.load_study(study_name="shared", storage=storage_url(url))
    trials = study.get_trials()
    runs = [t for t in trials if t.user_attrs.get(KIND) == "run"]
    assert [t.state for t in runs] == [TrialState.COMPLETE] * BUDGET
    configs = Counter(tuple(sorted(t.params.items())) for t in runs)
    assert max(configs.values()) == 1, configs
    assert not [t for t in trials if t.state == TrialState.RUNNING]
    store = open_store(url)
    measured = store.measurements()
    store.close()
    logs = [p for t in runs for p in t.user_attrs["iotuner:logs"]]
    assert len(logs) == BUDGET
    # A trace's measurements are uid "<sha256 of the log>:<row>".
    per_log = Counter(str(uid).split(":")[0] for uid in measured["uid"])
    for log in logs:
        rows = sum(1 for op in read_tracelog(log).ops if op["duration"] > 0)
        assert rows > 0
        assert per_log[hashlib.sha256(Path(log).read_bytes()).hexdigest()] == rows
    return trials


@pytest.mark.slow  # CI's
def test_two_workers_share_one_study(tmp_path: Path, database: str) -> None:
    # The same seed: both workers' samplers propose the same configurations in the same
    # order, so every proposal clashes with the other worker's and must be settled.
    workers = [_worker(tmp_path, database, name, "--seed", "3") for name in ("a", "b")]
    for name, worker in zip(("a", "b"), workers, strict=True):
        _finish(tmp_path, name, worker)
    _check_study_and_knowledge_base(database)


@pytest.mark.slow  # half a minute; CI's
def test_a_killed_workers_trial_is_run_by_the_other(tmp_path: Path, database: str) -> None:
    a = _worker(tmp_path, database, "a")
    b = _worker(tmp_path, database, "b")
    study = None
    killed: int | None = None
    deadline = time.monotonic() + 120
    while killed is None and time.monotonic() < deadline:
        time.sleep(0.1)
        if study is None:
            try:
                study = optuna.load_study(study_name="shared", storage=storage_url(database))
            except KeyError:
                continue
        for t in study.get_trials(states=(TrialState.RUNNING,)):
            # Worker a's trial n has its table in a's log folder while it runs.
            if (tmp_path / "logs-a" / "tables" / f"{t.number}.jsonl").exists():
                os.killpg(a.pid, signal.SIGKILL)
                killed = t.number
                break
    assert killed is not None, "worker a never ran a trial"
    a.wait(timeout=30)
    _finish(tmp_path, "b", b)
    trials = _check_study_and_knowledge_base(database)
    dead = trials[killed]
    assert dead.state == TrialState.FAIL
    retried = [t for t in trials if t.system_attrs.get("failed_trial") == killed]
    assert len(retried) == 1
    assert retried[0].state == TrialState.COMPLETE
    assert retried[0].params == dead.params
