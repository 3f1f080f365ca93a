"""Killed jobs lose no measurement (issue 24, item 4).

`bench` killed with SIGKILL on its process group, again and again, then run to the end: its
results file and the knowledge base hold the same measurements, each once. Each kill comes
a varied time after the results file gained a line, so it lands while a kernel job is
measuring: the lines that job wrote before the kill are in the results file and not yet in
the knowledge base (bench stores a job's measurements when the job ends), which the next
run must store. The same for `search` (killed after a trial's run) and `run --learn`
(killed after the job wrote its trace log, before the log is stored).
"""

import contextlib
import hashlib
import json
import os
import signal
import subprocess
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path

import pytest

from iotuner.runner import build_config, find_program
from iotuner.store import open_store

from .conftest import TIMEOUT

IOTUNER = str(Path(sys.executable).parent / "iotuner")

BENCH = ("--space", "demo-small", "--nprocs", "1,2", "--patterns", "collective,independent",
         "--layouts", "contiguous", "--ops", "write", "--sizes", "1m", "--open-size", "8m",
         "--repeats", "4", "--time-budget", "none")  # fmt: skip
"""4 workloads, 168 measurements (18 + 3 configurations per scale, 4 repeats), 8 MiB
written and synced each, in 8 kernel jobs of 12 to 60 measurements: 10-40 s on 2 cores.
RATIONALE: enough that five killed runs leave some for the last one to measure, on a
quiet machine too (with 84, a quiet machine finished the plan before the last kill)."""
BENCH_PLANNED = 168

KILL_DELAYS = (0.0, 0.3, 1.0, 0.1, 0.6)
"""Seconds after the results file (or the log folder) gained a line (a log) that each
killed run is killed: right after a measurement is written, and later within the job."""


def _count_lines(path: Path) -> int:
    return path.read_bytes().count(b"\n") if path.exists() else 0


def _kill_when_grown(
    command: Sequence[str], cwd: Path, size: Callable[[], int], delay: float
) -> bool:
    """Run `command` in a session of its own and, `delay` seconds after `size()` has grown,
    kill its whole process group with SIGKILL; False when it ended by itself first."""
    before = size()
    job = subprocess.Popen(
        command,
        cwd=cwd,
        start_new_session=True,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    deadline = time.monotonic() + TIMEOUT
    try:
        while size() <= before:
            if job.poll() is not None:
                return False
            assert time.monotonic() < deadline, f"{command[1]} measured nothing in {TIMEOUT} s"
            time.sleep(0.01)
        time.sleep(delay)
        return job.poll() is None
    finally:
        if job.poll() is None:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(job.pid, signal.SIGKILL)
        job.wait()


def _run_to_end(command: Sequence[str], cwd: Path) -> subprocess.CompletedProcess[str]:
    done = subprocess.run(
        command, cwd=cwd, capture_output=True, text=True, timeout=TIMEOUT, check=False
    )
    assert done.returncode == 0, done.stdout + done.stderr
    return done


def _stored(kb: Path) -> list[tuple[str, float, str]]:
    """(uid, bandwidth, configuration) of every measurement in the knowledge base."""
    with open_store(kb, make_folder=False) as store:
        frame = store.measurements()
    return sorted(zip(frame["uid"], frame["bandwidth"], frame["config"], strict=True))


@pytest.mark.slow  # half a minute; CI's
def test_a_killed_bench_resumed_stores_every_measurement_of_its_results_once(
    tmp_path: Path,
) -> None:
    from iotuner.space import config_key

    (tmp_path / "data").mkdir()
    results, kb = tmp_path / "r.bench.jsonl", tmp_path / "kb.sqlite"
    command = [IOTUNER, "bench", *BENCH, "--dir", "data", "--results", results.name,
               "--db", kb.name]  # fmt: skip
    kills = sum(
        _kill_when_grown(command, tmp_path, lambda: _count_lines(results), delay)
        for delay in KILL_DELAYS
    )
    assert kills >= 3, f"only {kills} runs were killed while measuring"
    written_before_end = _count_lines(results)
    assert 0 < written_before_end < BENCH_PLANNED

    said = " ".join(_run_to_end(command, tmp_path).stdout.split())
    lines = [json.loads(line) for line in results.read_text().splitlines()]
    uids = [line["uid"] for line in lines]
    assert len(uids) == len(set(uids)) == BENCH_PLANNED  # to the end, nothing measured twice
    in_results = sorted(
        (line["uid"], line["bandwidth"], config_key(line["config"])) for line in lines
    )
    assert _stored(kb) == in_results
    assert f"holds all {BENCH_PLANNED} measurements of {results.name}" in said

    again = _run_to_end([IOTUNER, "ingest", results.name, "--db", kb.name], tmp_path).stdout
    assert f"read {BENCH_PLANNED}, added 0, skipped {BENCH_PLANNED}" in again
    assert _stored(kb) == in_results


def test_a_torn_last_line_of_the_results_file_is_cut_off_and_measured_again(
    tmp_path: Path,
) -> None:
    (tmp_path / "data").mkdir()
    results, kb = tmp_path / "r.bench.jsonl", tmp_path / "kb.sqlite"
    small = ("--space", "demo-small", "--nprocs", "1", "--patterns", "independent",
             "--layouts", "contiguous", "--ops", "write", "--sizes", "64k", "--open-size",
             "256k", "--repeats", "1", "--time-budget", "none")  # fmt: skip
    command = [IOTUNER, "bench", *small, "--dir", "data", "--results", results.name,
               "--db", kb.name]  # fmt: skip
    _run_to_end(command, tmp_path)
    whole = results.read_text().splitlines(keepends=True)
    # A write cut short by the kill: the last line half there, without its newline.
    results.write_text("".join(whole[:-1]) + whole[-1][: len(whole[-1]) // 2])

    said = " ".join(_run_to_end(command, tmp_path).stdout.split())
    assert "partial last line" in said
    lines = [json.loads(line) for line in results.read_text().splitlines()]
    assert len(lines) == len(whole) == len({line["uid"] for line in lines})
    assert [uid for uid, _, _ in _stored(kb)] == sorted(line["uid"] for line in lines)


def _search_command(tmp_path: Path) -> list[str]:
    kernel = [build_config().mpiexec, "-n", "1", str(find_program("iokernel")), "--file",
              str(tmp_path / "out-{trial}.dat"), "--size", "1m", "--repeat", "8"]  # fmt: skip
    return [IOTUNER, "search", "--strategy", "random", "--seed", "1", "--budget", "8",
            "--repeats", "0", "--space", "demo-small", "--storage", "study.db", "--study",
            "killed", "--log-dir", "logs", "--db", "kb.sqlite", "--", *kernel]  # fmt: skip


@pytest.mark.slow  # half a minute; CI's
def test_a_killed_search_resumed_stores_every_trial_of_its_study(tmp_path: Path) -> None:
    import optuna

    command = _search_command(tmp_path)
    logs = tmp_path / "logs"

    def trace_logs() -> int:
        return len(list(logs.glob("*.iotrace.jsonl"))) if logs.is_dir() else 0

    kills = sum(_kill_when_grown(command, tmp_path, trace_logs, d) for d in KILL_DELAYS[:3])
    assert kills >= 2, f"only {kills} searches were killed while measuring"
    _run_to_end(command, tmp_path)

    study = optuna.load_study(study_name="killed", storage=f"sqlite:///{tmp_path / 'study.db'}")
    measured = [
        Path(log)
        for t in study.get_trials(deepcopy=False)
        if t.user_attrs.get("iotuner:kind") == "run"
        for log in t.user_attrs.get("iotuner:logs", [])
    ]
    assert len(measured) >= 8
    with open_store(tmp_path / "kb.sqlite", make_folder=False) as store:
        unstored = [
            log
            for log in measured
            if store.run_id(hashlib.sha256(log.read_bytes()).hexdigest()) is None
        ]
        frame = store.measurements()
    assert unstored == [], f"{len(unstored)} of {len(measured)} measured trials not stored"
    assert frame["uid"].is_unique
    # A trial whose run wrote its log and whose search was killed before recording it
    # (the kill right after the log appeared) is no measured trial, but its log is a
    # measurement all the same: every whole log in the folder is stored.
    with open_store(tmp_path / "kb.sqlite", make_folder=False) as store:
        left_out = [
            log.name
            for log in logs.glob("*.iotrace.jsonl")
            if _whole(log) and store.run_id(hashlib.sha256(log.read_bytes()).hexdigest()) is None
        ]
    assert left_out == [], left_out


def _whole(log: Path) -> bool:
    from iotuner.errors import IotunerError
    from iotuner.tracelog import read_tracelog

    try:
        read_tracelog(log)
    except IotunerError:
        return False
    return True


def test_a_run_learn_killed_before_storing_is_stored_by_the_next(tmp_path: Path) -> None:
    logs = tmp_path / "logs"
    kernel = [build_config().mpiexec, "-n", "1", str(find_program("iokernel")), "--file",
              str(tmp_path / "out.dat"), "--size", "256k", "--repeat", "4"]  # fmt: skip
    command = [IOTUNER, "run", "--learn", "--table", "table.jsonl", "--db", "kb.sqlite",
               "--log-dir", "logs", "--refit-every", "0", "--", *kernel]  # fmt: skip

    def trace_logs() -> int:
        return len(list(logs.glob("*.iotrace.jsonl"))) if logs.is_dir() else 0

    assert _kill_when_grown(command, tmp_path, trace_logs, 0.0), "run --learn ended first"
    (killed,) = logs.glob("*.iotrace.jsonl")
    _run_to_end(command, tmp_path)

    with open_store(tmp_path / "kb.sqlite", make_folder=False) as store:
        stored = [
            log.name
            for log in logs.glob("*.iotrace.jsonl")
            if store.run_id(hashlib.sha256(log.read_bytes()).hexdigest()) is not None
        ]
    assert killed.name in stored
    assert len(stored) == 2
