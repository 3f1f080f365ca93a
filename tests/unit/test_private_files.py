"""What iotuner writes is private (issue 24, item 3): knowledge bases, tuning tables,
models, reports, exported settings, CSV exports and search storages are created 0600, the
folders iotuner creates 0700, as the trace logs are, under the usual umask 022; a file
that exists keeps its mode (a centre's table made readable to all stays so). Each case runs
the command line on real files."""

import os
import stat
from collections.abc import Iterator
from pathlib import Path

import pytest

from iotuner._fileio import atomic_write_text
from iotuner.cli import main
from iotuner.models import synthetic_summary_frame
from iotuner.space import load_space

from ..models.conftest import EFFECTS
from .test_cli_evaluate import MAPPING

DATA = Path(__file__).resolve().parent.parent / "data"
SAMPLE_LOG = DATA / "ior-20250101-120000-4242-0123456789ab.iotrace.jsonl"


def _mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


@pytest.fixture(autouse=True)
def _usual_umask(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Iterator[None]:
    """umask 022 (files 0644 unless iotuner says otherwise), no $IOTUNER_DB, and the
    default knowledge base's folder under tmp_path."""
    monkeypatch.delenv("IOTUNER_DB", raising=False)
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "xdg"))
    monkeypatch.setenv("COLUMNS", "200")
    old = os.umask(0o022)
    try:
        yield
    finally:
        os.umask(old)


def test_atomic_write_makes_new_files_private_and_keeps_a_mode(tmp_path: Path) -> None:
    new = tmp_path / "new.txt"
    atomic_write_text(new, "x")
    assert _mode(new) == 0o600
    shared = tmp_path / "shared.jsonl"
    shared.write_text("old")
    shared.chmod(0o644)
    atomic_write_text(shared, "new")
    assert (_mode(shared), shared.read_text()) == (0o644, "new")


def test_the_default_knowledge_base_and_its_folder(tmp_path: Path) -> None:
    assert main(["db", "status"]) == 0
    folder = tmp_path / "xdg" / "iotuner"
    assert (_mode(tmp_path / "xdg"), _mode(folder)) == (0o700, 0o700)
    assert _mode(folder / "knowledge.sqlite") == 0o600


def test_a_named_knowledge_base_keeps_an_existing_mode(tmp_path: Path) -> None:
    named = tmp_path / "kb.sqlite"
    assert main(["db", "status", "--db", str(named)]) == 0
    assert _mode(named) == 0o600
    named.chmod(0o640)  # a group's shared knowledge base
    assert main(["db", "status", "--db", str(named)]) == 0
    assert _mode(named) == 0o640


def test_the_loop_writes_private_files(tmp_path: Path) -> None:
    """ingest, train, tune, table derive, export, log2csv, report and an offline search:
    every file they create is 0600, every folder 0700."""
    frame = synthetic_summary_frame(
        load_space("demo-small"), sizes=(65536,), nprocs=(1, 2), effects=EFFECTS, seed=3
    )
    frame = frame.assign(program="alpha")
    table = frame.rename(columns=lambda c: c.removeprefix("cfg:"))
    table.rename(columns={"bw_median": "bandwidth"}).to_csv(tmp_path / "data.csv", index=False)
    (tmp_path / "m.toml").write_text(MAPPING)
    work = tmp_path / "out"
    work.mkdir()
    db = str(work / "kb.sqlite")
    before = set(tmp_path.rglob("*"))
    steps = [
        ["ingest", "--db", db, "--mapping", str(tmp_path / "m.toml"), str(tmp_path / "data.csv")],
        ["train", "--db", db, "--quick", "--no-rules", "-o", str(work / "model" / "sub")],
        ["tune", "--db", db, "--model", str(work / "model" / "sub"), "-o", str(work / "t.jsonl")],
        ["table", "derive", str(work / "t.jsonl"), str(SAMPLE_LOG), "-o", str(work / "d.jsonl")],
        ["export", str(work / "t.jsonl"), "--to", "iotuner", "-o", str(work / "e.jsonl")],
        ["log2csv", str(SAMPLE_LOG), "-o", str(work / "ops.csv")],
        ["report", "--db", db, "--table", str(work / "t.jsonl"), "-o", str(work / "r.html")],
        [
            "search",
            "--objective",
            str(tmp_path / "data.csv"),
            "--value-column",
            "bandwidth",
            "--filter",
            "nprocs=1",
            "--budget",
            "2",
            "--storage",
            str(work / "s.db"),
        ],
    ]
    for argv in steps:
        assert main(argv) in (0, 1), argv
    made = sorted(p for p in tmp_path.rglob("*") if p not in before)
    assert {p.name for p in made} >= {
        "kb.sqlite", "model", "sub", "t.jsonl", "d.jsonl", "e.jsonl", "ops.csv", "r.html", "s.db",
    }  # fmt: skip
    modes = {str(p.relative_to(tmp_path)): oct(_mode(p)) for p in made}
    expected = {str(p.relative_to(tmp_path)): oct(0o700 if p.is_dir() else 0o600) for p in made}
    assert modes == expected
