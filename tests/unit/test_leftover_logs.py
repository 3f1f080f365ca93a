"""Temporary logs left by jobs killed at MPI_Finalize: found, reported by show and ingest,
removed by `iotuner logs clean`; complete logs and temporaries still being written never."""

import os
import shutil
import time
from pathlib import Path

import pytest

from iotuner.cli import main
from iotuner.tracelog import (
    EMPTY_STALE_AFTER_SECONDS,
    STALE_AFTER_SECONDS,
    leftover_logs,
    remove_leftover,
)

DEAD_PID = 4_194_305
"""Above Linux's largest possible pid_max (2**22), so no process has it."""

MIB = 1024 * 1024


def _temporary(directory: Path, pid: int, size: int, age: float, program: str = "ior") -> Path:
    """A temporary log as the interposer names it, last modified `age` seconds ago."""
    path = directory / f".{program}-20260101-120000-{pid}.tmp"
    path.write_bytes(b"x" * size)
    written = time.time() - age
    os.utime(path, (written, written))
    return path


@pytest.fixture
def log_dir(tmp_path: Path, sample_log: Path) -> Path:
    """A log directory with a complete log and temporaries of every kind."""
    logs = tmp_path / "logs"
    logs.mkdir()
    shutil.copy(sample_log, logs)
    old = STALE_AFTER_SECONDS + 60
    _temporary(logs, DEAD_PID, 3 * MIB, old, program="my-app")  # killed while writing
    _temporary(logs, DEAD_PID + 1, 0, EMPTY_STALE_AFTER_SECONDS + 60)  # killed before writing
    _temporary(logs, DEAD_PID + 2, 5 * MIB, 1)  # being written now
    _temporary(logs, DEAD_PID + 3, 0, old)  # waiting for the other ranks at MPI_Finalize
    _temporary(logs, os.getpid(), 1, old)  # its writer may still run here
    (logs / ".ior-20260101-120000-5.iotrace.jsonl.5.abcd1234.tmp").write_text("x")  # not a log's
    os.utime(logs / ".ior-20260101-120000-5.iotrace.jsonl.5.abcd1234.tmp", (0, 0))
    os.symlink(logs / ".my-app-20260101-120000-4194305.tmp", logs / ".ln-20260101-120000-7.tmp")
    return logs


LEFTOVERS = [".ior-20260101-120000-4194306.tmp", ".my-app-20260101-120000-4194305.tmp"]


def test_finds_only_what_no_job_will_finish(log_dir: Path) -> None:
    found = leftover_logs(log_dir)
    assert [f.path.name for f in found] == LEFTOVERS
    assert [f.size for f in found] == [0, 3 * MIB]


def test_a_temporary_written_to_since_it_was_found_is_kept(log_dir: Path) -> None:
    empty, partial = leftover_logs(log_dir)
    os.utime(partial.path)  # its writer was only stalled
    assert remove_leftover(partial) is False
    assert partial.path.exists()
    assert remove_leftover(empty) is True
    assert not empty.path.exists()
    assert remove_leftover(empty) is False  # gone already


def _warnings(err: str) -> list[str]:
    return [line for line in err.splitlines() if line.startswith("iotuner: warning: ")]


def test_show_reports_the_leftovers_beside_the_log(
    log_dir: Path, sample_log: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["show", str(log_dir / sample_log.name)]) == 0
    out, err = capsys.readouterr()
    assert "ior: 4 processes" in out
    assert _warnings(err) == [
        f"iotuner: warning: {log_dir / LEFTOVERS[0]}: a truncated trace log (0 B, last "
        f"written {_date(log_dir / LEFTOVERS[0])}), left by a job killed while writing it; "
        f"'iotuner logs clean {log_dir}' removes it",
        f"iotuner: warning: {log_dir / LEFTOVERS[1]}: a truncated trace log (3.0 MiB, last "
        f"written {_date(log_dir / LEFTOVERS[1])}), left by a job killed while writing it; "
        f"'iotuner logs clean {log_dir}' removes it",
    ]


def _date(path: Path) -> str:
    return time.strftime("%Y-%m-%d %H:%M", time.localtime(path.stat().st_mtime))


def test_ingest_reports_the_leftovers_of_a_directory(
    log_dir: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["ingest", "--db", str(tmp_path / "kb.sqlite"), str(log_dir)]) == 0
    out, err = capsys.readouterr()
    assert "trace: read 4, added 3" in out
    assert [w.split(": ")[2] for w in _warnings(err)] == [str(log_dir / n) for n in LEFTOVERS]


def test_logs_clean_removes_exactly_the_leftovers(
    log_dir: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    before = sorted(os.listdir(log_dir))
    assert main(["logs", "clean", "--dry-run", str(log_dir)]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert [line.split(" (")[0] for line in lines[:2]] == [
        f"would remove {log_dir / name}" for name in LEFTOVERS
    ]
    assert lines[2] == f"would free 3.0 MiB ({3 * MIB} bytes) in 2 files"
    assert sorted(os.listdir(log_dir)) == before

    assert main(["logs", "clean", str(log_dir)]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert [line.split(" (")[0] for line in lines[:2]] == [
        f"removed {log_dir / name}" for name in LEFTOVERS
    ]
    assert lines[2] == f"freed 3.0 MiB ({3 * MIB} bytes) in 2 files"
    assert sorted(os.listdir(log_dir)) == sorted(set(before) - set(LEFTOVERS))

    assert main(["logs", "clean", str(log_dir)]) == 0
    assert capsys.readouterr().out == f"no leftover temporary logs in {log_dir}\n"


def test_logs_clean_defaults_to_the_directory_run_uses(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path / "state"))
    logs = tmp_path / "state" / "iotuner" / "logs"
    logs.mkdir(parents=True)
    leftover = _temporary(logs, DEAD_PID, 10, STALE_AFTER_SECONDS + 60)
    assert main(["logs", "clean"]) == 0
    assert capsys.readouterr().out.splitlines()[-1] == "freed 10 B (10 bytes) in 1 file"
    assert not leftover.exists()


def test_logs_clean_of_a_missing_directory_says_so(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["logs", "clean", str(tmp_path / "absent")]) == 2
    assert capsys.readouterr().err == (
        f"iotuner: error: cannot list the log directory {tmp_path / 'absent'}: "
        "No such file or directory\n"
    )
