"""The commands that stand between the user and a program start without heavy libraries.

Each command runs in a fresh interpreter (a module imported by an earlier test would hide
an import), does its real work on real files, and reports the heavy modules it loaded. A
heavy command run the same way shows that the check sees such imports at all.
"""

import json
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest

from iotuner.tracelog import STALE_AFTER_SECONDS

HEAVY = ("sklearn", "scipy", "numpy", "pandas", "optuna", "sqlalchemy", "joblib", "matplotlib")
"""Machine-learning and data libraries: each costs a noticeable part of a second to import."""

DEAD_PID = 4_194_305
"""Above Linux's largest possible pid_max (2**22), so no process has it."""

_PROBE = """
import json, sys
from iotuner.cli import main
try:
    status = main(json.loads(sys.argv[1]))
except SystemExit as exc:  # --version and --help end in argparse
    status = exc.code
heavy = sorted(m for m in sys.modules if m.split(".")[0] in json.loads(sys.argv[2]))
with open(sys.argv[3], "w") as report:
    json.dump({"status": status, "heavy": heavy}, report)
"""


def _iotuner(tmp_path: Path, *argv: str) -> tuple[int, list[str], str]:
    """Run `iotuner ARGV` in a fresh interpreter: its exit status, the heavy modules it
    imported, and its standard output."""
    report = tmp_path / "probe.json"
    env = {k: v for k, v in os.environ.items() if k not in ("IOTUNER_DB", "LD_PRELOAD")}
    done = subprocess.run(
        [sys.executable, "-c", _PROBE, json.dumps(argv), json.dumps(HEAVY), str(report)],
        capture_output=True,
        text=True,
        env=env,
        cwd=tmp_path,
        timeout=300,
        check=False,
    )
    assert report.is_file(), f"the probe did not finish: {done.stderr}"
    result = json.loads(report.read_text())
    return result["status"], result["heavy"], done.stdout


def test_version(tmp_path: Path) -> None:
    status, heavy, out = _iotuner(tmp_path, "--version")
    assert (status, heavy) == (0, [])
    assert out.startswith("iotuner ")


@pytest.mark.parametrize("mode", ["off", "trace", "tune"])
def test_run(tmp_path: Path, sample_table: Path, mode: str) -> None:
    # The child writes a file, so the command is known to have run, not only parsed.
    marker = tmp_path / "ran"
    table = ["--table", str(sample_table)] if mode == "tune" else []
    argv = ["run", "--mode", mode, *table, "--log-dir", str(tmp_path / "logs"), "--"]
    status, heavy, _ = _iotuner(tmp_path, *argv, "touch", str(marker))
    assert (status, heavy) == (0, [])
    assert marker.is_file()


def test_show_and_log2csv(tmp_path: Path, sample_log: Path) -> None:
    status, heavy, out = _iotuner(tmp_path, "show", str(sample_log))
    assert (status, heavy) == (0, [])
    assert "Warnings" in out or "hints #" in out
    csv = tmp_path / "ops.csv"
    status, heavy, _ = _iotuner(tmp_path, "log2csv", str(sample_log), "-o", str(csv))
    assert (status, heavy) == (0, [])
    assert csv.read_text().count("\n") > 1


def test_logs_clean(tmp_path: Path, sample_log: Path) -> None:
    logs = tmp_path / "logs"
    logs.mkdir()
    shutil.copy(sample_log, logs)
    leftover = logs / f".ior-20260101-120000-{DEAD_PID}.tmp"
    leftover.write_bytes(b"x" * 4096)
    written = time.time() - STALE_AFTER_SECONDS - 60
    os.utime(leftover, (written, written))
    status, heavy, out = _iotuner(tmp_path, "logs", "clean", str(logs))
    assert (status, heavy) == (0, [])
    assert f"removed {leftover} (4.0 KiB" in out
    assert not leftover.exists()


def test_table_check(tmp_path: Path, sample_table: Path) -> None:
    status, heavy, out = _iotuner(tmp_path, "table", "check", str(sample_table))
    assert (status, heavy) == (0, [])
    assert out.startswith(f"{sample_table}: valid")


def test_heavy_commands_still_work(tmp_path: Path) -> None:
    """The knowledge base needs SQLAlchemy: seen here, so the checks above can fail."""
    db = tmp_path / "kb.sqlite"
    status, heavy, out = _iotuner(tmp_path, "db", "status", "--db", str(db))
    assert status == 0
    assert "sqlalchemy" in heavy
    assert out.startswith(f"knowledge base: sqlite:///{db} ")
    status, _, out = _iotuner(tmp_path, "train", "--help")
    assert status == 0
    assert "--db PATH_OR_URL" in out
    status, _, out = _iotuner(tmp_path, "search", "--help")
    assert status == 0
    assert "{ga,random,grid,tpe,gp,model}" in out


def test_the_package_names_load_on_first_use() -> None:
    code = (
        "import sys, iotuner\n"
        "before = 'iotuner.table' in sys.modules\n"
        "from iotuner import TableEntry, read_tracelog, size_group\n"
        "print(before, TableEntry.__module__, read_tracelog.__module__, size_group.__module__)\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, timeout=120
    )
    assert done.stdout.split() == ["False", "iotuner.table", "iotuner.tracelog", "iotuner.formats"]
