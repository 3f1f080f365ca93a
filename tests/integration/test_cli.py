"""The command line the way the README uses it: run, show, log2csv, table derive, demo."""

import csv
import io
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from iotuner.formats import op_fields
from iotuner.table import read_table
from iotuner.tracelog import read_tracelog

from ._browser import CHECK_SCRIPT, chromium, image_check
from .conftest import TIMEOUT, Mpi, write_table

IOTUNER = str(Path(sys.executable).parent / "iotuner")


def iotuner(
    *args: str,
    cwd: Path | None = None,
    timeout: float = TIMEOUT,
    columns: int | None = None,
    env: dict[str, str] | None = None,
) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, **(env or {}), **({"COLUMNS": str(columns)} if columns else {})}
    completed = subprocess.run(
        [IOTUNER, *args], capture_output=True, text=True, timeout=timeout, cwd=cwd, env=env,
        check=False,
    )  # fmt: skip
    assert completed.returncode == 0, completed.stdout + completed.stderr
    return completed


def test_run_show_log2csv(mpi: Mpi, tmp_path: Path) -> None:
    logs = tmp_path / "logs"
    data = tmp_path / "step_0001.dat"
    ran = iotuner(
        "run",
        "--log-dir",
        str(logs),
        "--",
        *mpi.command(2, "iokernel", "--file", str(data), "--size", "256k"),
    )
    assert "op=write" in ran.stdout
    (log,) = logs.glob("*.iotrace.jsonl")
    assert str(log) in ran.stderr

    shown = iotuner("show", str(log)).stdout
    assert "iokernel" in shown and "MPI_File_write_at_all" in shown and "step_0001.dat" in shown

    rows = list(csv.reader(io.StringIO(iotuner("log2csv", str(log)).stdout)))
    columns = [f.name for f in op_fields()]
    assert rows[0][: len(columns)] == columns
    assert rows[0][:6] == ["group", "time_stamp", "operation", "bytes", "duration", "bandwidth"]
    (write,) = [r for r in rows[1:] if r[2] == "MPI_File_write_at_all"]
    assert int(write[3]) == 2 * 256 * 1024
    assert "romio_cb_write" in rows[0]  # effective hint values are columns too


def test_table_derive_then_tune(mpi: Mpi, tmp_path: Path) -> None:
    logs = tmp_path / "logs"
    base = write_table(
        tmp_path / "base.jsonl",
        {
            "at": "view",
            "layout": "strided",
            "hints": {"romio_ds_write": "disable", "ind_wr_buffer_size": "1048576"},
        },
    )
    args = ("--size", "1m", "--pattern", "independent", "--layout", "strided", "--block", "4k")
    iotuner(
        "run",
        "--log-dir",
        str(logs),
        "--",
        *mpi.command(2, "iokernel", "--file", str(tmp_path / "ck_0001.dat"), *args),
    )
    derived = tmp_path / "derived.jsonl"
    said = iotuner("table", "derive", str(base), str(logs), "-o", str(derived)).stdout
    assert "1 open entries" in said
    (entry, kept) = read_table(derived)
    assert kept.at == "view" and kept.layout == "strided"
    assert (entry.at, entry.program, entry.file, entry.nprocs) == (
        "open",
        "iokernel",
        "ck_*.dat",
        2,
    )
    assert entry.hints == {"romio_ds_write": "disable", "ind_wr_buffer_size": "1048576"}

    # A later step of the same program gets the hints at open, before it writes a byte.
    tuned_logs = tmp_path / "tuned-logs"
    iotuner(
        "run",
        "--mode",
        "tune,trace",
        "--table",
        str(derived),
        "--log-dir",
        str(tuned_logs),
        "--",
        *mpi.command(2, "iokernel", "--file", str(tmp_path / "ck_0002.dat"), "--print-info", *args),
    )
    (log,) = tuned_logs.glob("*.iotrace.jsonl")
    opened = next(h for h in read_tracelog(log).hints if h["at"] == "open")
    assert opened["table"] == entry.hints
    assert opened["effective"]["romio_ds_write"] == "disable"
    assert opened["effective"]["ind_wr_buffer_size"] == "1048576"


@pytest.mark.slow  # the whole demo, 2-3 min; CI's
def test_demo_runs_the_whole_loop(tmp_path: Path) -> None:
    out = tmp_path / "d"
    # The whole loop: 1 to 3 minutes alone on 2 cores, more beside other jobs.
    # On a busy machine (a load above the cores) it says so once; in a pipe, the progress
    # of each long step is a line every IOTUNER_PROGRESS_SECONDS (issue 32, item 7).
    busy = {"IOTUNER_TEST_LOADAVG": "64", "IOTUNER_PROGRESS_SECONDS": "0.2"}
    done = iotuner(
        "demo", "--repeats", "1", "--sweep-repeats", "1", "--dir", str(out), timeout=900,
        columns=200,  # wide enough that no table cell wraps the words looked for below
        env=busy,
    )  # fmt: skip
    shown = done.stdout
    assert done.stderr.count("iotuner: warning: the machine is busy") == 1, done.stderr
    for step in ("round", "train:", "demo: every configuration", "demo: default, tuned"):
        assert re.search(rf"(?m)^{step}.* \d+/\d+ ", done.stderr), (step, done.stderr[-3000:])
    # 18 runs of the kernel, each an MPI job: together far more than 0.2 s, a line while they ran,
    # and the last state.
    assert len(re.findall(r"(?m)^demo: every configuration", done.stderr)) >= 2
    for step in ("1. bench", "2. train", "3. tune", "4. a workload the sweep never saw"):
        assert step in shown
    assert "default" in shown and "tuned" in shown and "best (tried all)" in shown
    verdict = next(line for line in shown.splitlines() if "tuned slower than the default" in line)
    assert shown.index(verdict) < shown.index("best (tried all)")  # printed first
    assert verdict.split("noise: ")[1].split()[0] in ("yes", "no")
    entries = read_table(out / "tuned-table.jsonl")
    # Every entry is reachable: access entries only for collective access.
    assert {e.pattern for e in entries if e.at == "access"} == {"collective"}
    assert not any(e.pattern == "independent" for e in entries)
    assert (out / "model" / "model.json").is_file()
    assert not list((out / "data").iterdir())  # the data files are removed

    # The demo ends with its report: opened in headless Chromium, every section there and
    # every image decoded (the same check as test_report.py's, on the demo's own page).
    report = out / "report.html"
    assert str(report) in shown
    if not shutil.which("chromium") and os.environ.get("IOTUNER_REQUIRE_BROWSER") != "1":
        return  # the browser test (test_report.py) says it was skipped, and why
    html = report.read_text()
    profile = tmp_path / "chromium-profile"
    dom = chromium("--dump-dom", report.as_uri(), profile=profile).stdout
    for section in ("system", "model", "table", "programs"):
        assert re.search(rf'<section id="{section}">\s*<h2>', dom), f"no section {section}"
    checked = report.with_name("report-check.html")
    checked.write_text(html.replace("</body>", f"{CHECK_SCRIPT}</body>"))
    result = image_check(checked, profile)
    assert result["images"] == html.count("<img ") > 0 and result["broken"] == [], result


def test_run_finds_the_launcher_of_its_mpi(tmp_path: Path) -> None:
    """`iotuner run -- mpiexec ...` as the README's first hour types it, from a shell whose
    PATH has no mpiexec (the venv not activated): the build's launcher runs the job."""
    from iotuner.runner import build_config, find_program, launcher_kind

    bare = tmp_path / "bin"
    bare.mkdir()
    env = {k: v for k, v in os.environ.items() if not k.startswith("IOTUNER_")}
    env.pop("VIRTUAL_ENV", None)
    kernel = [str(find_program("iokernel")), "--file", str(tmp_path / "out.dat"), "--size", "64k"]
    completed = subprocess.run(
        [IOTUNER, "run", "--log-dir", str(tmp_path / "logs"), "--", "mpiexec", "-n", "2", *kernel],
        env={**env, "PATH": str(bare)}, capture_output=True, text=True, timeout=TIMEOUT,
        check=False,
    )  # fmt: skip
    assert completed.returncode == 0, completed.stderr
    assert f"running {build_config().mpiexec}" in completed.stderr
    (log,) = (tmp_path / "logs").glob("*.iotrace.jsonl")
    assert read_tracelog(log).job["nprocs"] == 2

    # Another MPI's launcher first on PATH (Debian's Open MPI here, when installed): run as
    # given, with a warning naming both.
    other = next(
        (p for p in ("/usr/bin/mpiexec.openmpi", "/usr/bin/mpiexec.mpich")
         if os.path.exists(p) and launcher_kind(p) != launcher_kind(build_config().mpiexec)),
        None,
    )  # fmt: skip
    if other is None:
        return
    (bare / "mpiexec").symlink_to(other)
    warned = subprocess.run(
        [IOTUNER, "run", "--mode", "off", "--", "mpiexec", "--version"],
        env={**env, "PATH": f"{bare}:/usr/bin:/bin"}, capture_output=True, text=True,
        timeout=TIMEOUT, check=False,
    )  # fmt: skip
    assert "launcher, but iotuner was built with" in warned.stderr
