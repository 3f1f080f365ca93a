"""The training benchmark, the knowledge base and the learning commands on a small real
sweep (2 ranks, a few workloads): what a user runs, as the README shows it."""

import json
import shutil
import subprocess
from pathlib import Path

import pytest

from iotuner.formats import size_group
from iotuner.measurement import System, measurement_from_json
from iotuner.runner import build_config, find_program
from iotuner.store import open_store
from iotuner.table import read_table, table_fs_type

from .conftest import SWEEP
from .test_cli import IOTUNER, iotuner

# SWEEP (conftest.small_sweep): demo-small has 18 configurations; only romio_ds_write
# (3 values) matters to independent writes, so: 2 layouts x 2 sizes x (18 + 3)
# configurations x 2 repeats.
EXPECTED = 2 * 2 * (18 + 3) * 2
CALLS = {65536: 16, 524288: 2}
"""Calls per open at 1 MiB per rank per open (at least 2)."""


def test_bench_measures_every_configuration_and_cleans_up(small_sweep: Path) -> None:
    lines = (small_sweep / "results.bench.jsonl").read_text().splitlines()
    assert len(lines) == EXPECTED
    measurements = [measurement_from_json(line)[0] for line in lines]
    assert len({m.uid for m in measurements}) == EXPECTED
    collective = {m.uid.rsplit(":", 2)[1] for m in measurements
                  if m.workload.pattern == "collective"}  # fmt: skip
    assert len(collective) == 18
    for m in measurements:
        assert m.workload.calls_per_open == CALLS[m.workload.bytes_per_rank]
        assert m.bytes == 2 * m.workload.bytes_per_rank * m.workload.calls_per_open
        assert m.bandwidth > 0 and m.seconds > 0
        # The data calls' time is the measurement; open and close are kept apart.
        assert {"open_seconds", "close_seconds", "total_seconds"} <= set(m.provenance)
    assert list((small_sweep / "data").iterdir()) == []  # the benchmark removed its files
    store = open_store(small_sweep / "kb.sqlite")
    assert store.counts()["measurements"] == EXPECTED
    summary = store.summary()
    assert len(summary) == EXPECTED // 2 and set(summary["n"]) == {2}
    pairs = set(zip(summary["bytes_per_rank"], summary["calls_per_open"], strict=True))
    assert pairs == set(CALLS.items())
    store.close()


@pytest.mark.slow  # a second sweep; CI's
def test_bench_resumes_without_measuring_again(small_sweep: Path, tmp_path: Path) -> None:
    results = tmp_path / "partial.bench.jsonl"
    kept = (small_sweep / "results.bench.jsonl").read_text().splitlines()[:30]
    results.write_text("\n".join(kept) + "\n")  # as if interrupted after 30 measurements
    (tmp_path / "data").mkdir()
    said = iotuner("bench", *SWEEP, "--dir", str(tmp_path / "data"), "--results", str(results),
                   "--no-db").stdout  # fmt: skip
    assert f"{EXPECTED - 30} new measurements" in said
    uids = [json.loads(line)["uid"] for line in results.read_text().splitlines()]
    assert len(uids) == len(set(uids)) == EXPECTED


def test_bench_rejects_bad_options(tmp_path: Path) -> None:
    for args, message in (
        (("--layouts", "stripy"), "strided:BLOCK:FILL"),
        (("--sizes", "4q"), "a size must be"),
        (("--patterns", "sometimes"), "--patterns must be"),
        (("--space", "nope"), "no space file"),
        (("--open-size", "lots"), "a size must be"),
    ):
        completed = subprocess.run([IOTUNER, "bench", "--dir", str(tmp_path), "--no-db", *args],
                                   capture_output=True, text=True, check=False)  # fmt: skip
        assert completed.returncode == 2, completed.stderr
        assert message in completed.stderr


@pytest.mark.slow  # a training; CI's (the README's walk-through trains and tunes too)
def test_train_tune_analyze(small_sweep: Path, tmp_path: Path) -> None:
    db = str(small_sweep / "kb.sqlite")
    trained = iotuner("train", "--db", db, "--quick", "--target", "bw_median", "--verbose",
                      "-o", str(tmp_path / "model")).stdout  # fmt: skip
    assert "random_forest" in trained and "chosen" in trained
    assert "choose" in trained  # the parameter-setting tree's rules
    assert "harm." in trained or "harmonic" in trained
    metadata = json.loads((tmp_path / "model" / "model.json").read_text())
    assert metadata["target"] == "bw_median"

    table = tmp_path / "table.jsonl"
    tuned = iotuner("tune", "--db", db, "--model", str(tmp_path / "model"), "-o",
                    str(table)).stdout  # fmt: skip
    assert "cases differ from the default" in " ".join(tuned.split())  # wrapped at words
    entries = read_table(table)
    access = [e for e in entries if e.at == "access"]
    # Every collective case the sweep covers (2 layouts x the groups from 64k to 512k, and
    # beyond while the model is still sure); independent access is only reachable at open
    # and set_view, so it gets no access entries.
    assert {(e.pattern, e.layout) for e in access} == {
        ("collective", "contiguous"),
        ("collective", "strided"),
    }
    assert {size_group(64 << 10), size_group(512 << 10)} <= {e.group for e in access}
    assert all(e.note and "predicted" in e.note for e in access)
    assert all(e.at != "view" or e.layout == "strided" for e in entries)
    iotuner("table", "check", str(table))
    # The table names the file system the sweep measured on (the interposer tunes no other).
    assert table_fs_type(table) == System.detect(small_sweep / "data", "", "").fs_type

    analyzed = iotuner("analyze", "--db", db).stdout
    assert "consistently good" in analyzed and "consistently bad" in analyzed


def test_the_same_sweep_on_another_file_system_is_measured_apart(tmp_path: Path) -> None:
    """Measurement ids carry the system: the same sweep on tmpfs after one on the test's
    temporary folder adds its own measurements to the knowledge base (before, they had the
    first sweep's ids and were skipped as already stored)."""
    shm = Path("/dev/shm")
    if not shm.is_dir():
        pytest.skip("no /dev/shm on this machine")
    small = ("--space", "demo-small", "--nprocs", "1", "--patterns", "collective",
             "--layouts", "contiguous", "--ops", "write", "--sizes", "64k", "--repeats", "1",
             "--open-size", "256k", "--max-configs", "2")  # fmt: skip
    db = tmp_path / "kb.sqlite"
    folders = [tmp_path / "data", shm / f"iotuner-test-{tmp_path.name}"]
    if System.detect(tmp_path, "", "").fs_mount == System.detect(shm, "", "").fs_mount:
        pytest.skip("the temporary folder is on the same file system as /dev/shm")
    for n, folder in enumerate(folders):
        folder.mkdir()
        try:
            iotuner("bench", *small, "--dir", str(folder), "--results",
                    str(tmp_path / f"r{n}.bench.jsonl"), "--db", str(db))  # fmt: skip
        finally:
            shutil.rmtree(folder, ignore_errors=True)
    store = open_store(db)
    summary = store.summary()
    store.close()
    assert summary["system"].nunique() == 2
    assert len(summary) == 4  # 2 configurations on each of 2 systems


def _default_line(analyzed: str) -> str:
    (line,) = [x for x in analyzed.splitlines() if x.startswith("default: rank")]
    return line


def test_analyze_takes_a_traced_default_run_for_the_sweep_s_default(
    small_sweep: Path, tmp_path: Path
) -> None:
    # The README's steps: a traced run of the program (no hints: the defaults), a sweep,
    # both ingested, then analyze. The trace stores no keys, the sweep every key at its
    # default: one configuration. The trace's workload was measured with the default only,
    # so it compares nothing and must not lift the default's rank.
    db = tmp_path / "kb.sqlite"
    shutil.copy(small_sweep / "kb.sqlite", db)
    before = iotuner("analyze", "--db", str(db), columns=250).stdout
    app = [str(find_program("iokernel")), "--file", str(tmp_path / "out.dat"),
           "--layout", "strided", "--block", "16k", "--fill", "0.25", "--size", "2m"]  # fmt: skip
    logs = tmp_path / "logs"
    launcher = build_config().mpiexec  # the venv's, as `. .venv/bin/activate` puts first
    iotuner("run", "--log-dir", str(logs), "--", launcher, "-n", "2", *app, cwd=tmp_path)
    iotuner("ingest", str(logs), "--db", str(db))
    after = iotuner("analyze", "--db", str(db), columns=250).stdout
    assert "default (default)" not in after
    assert len([line for line in after.splitlines() if "(default)" in line]) == 1
    assert "1 patterns left out: a single configuration was measured in each" in after
    assert _default_line(after) == _default_line(before)
