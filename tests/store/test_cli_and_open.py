"""`iotuner ingest` and `iotuner db status` (on SQLite), and where stores are opened."""

import shutil
from pathlib import Path

import pytest

from iotuner.cli import main
from iotuner.store import SCHEMA_VERSION, StoreError, default_store_path, open_store

from .conftest import SAMPLE_LOG, bench_lines, measurement
from .test_ingest import CSV, MAPPING


def test_ingest_a_folder_then_again(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    folder = tmp_path / "in"
    folder.mkdir()
    log = folder / SAMPLE_LOG.name
    shutil.copy(SAMPLE_LOG, log)
    results = folder / "sweep.bench.jsonl"
    results.write_text("\n".join(bench_lines(measurement("m1", 5.0), measurement("m2", 7.0))))
    (folder / "notes.txt").write_text("not ingested")
    db = tmp_path / "kb.sqlite"
    assert main(["ingest", "--db", str(db), str(folder)]) == 0
    assert capsys.readouterr().out.splitlines() == [
        f"{log}: trace: read 4, added 3, skipped 0 (already stored), ignored 1 (no duration)",
        f"{results}: bench: read 2, added 2, skipped 0 (already stored)",
    ]
    assert main(["ingest", "--db", str(db), str(log), str(results)]) == 0
    out = capsys.readouterr().out
    assert "read 4, added 0, skipped 3" in out and "read 2, added 0, skipped 2" in out

    assert main(["db", "status", "--db", str(db)]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0] == f"knowledge base: sqlite:///{db} (schema {SCHEMA_VERSION})"
    assert lines[1] == "  systems: 2, runs: 2, configurations: 3, measurements: 5"
    assert len(lines) == 6 and "host node01" in lines[2] and "measurements:" in lines[3]


def test_ingest_csv_with_system_options(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "m.toml").write_text(MAPPING)
    data = tmp_path / "data.csv"
    data.write_text(CSV)
    monkeypatch.setenv("IOTUNER_DB", str(tmp_path / "env.sqlite"))
    argv = ["ingest", "--mapping", str(tmp_path / "m.toml"), "--system-mpi", "MPICH 4"]
    assert main([*argv, str(data)]) == 0
    assert capsys.readouterr().out == f"{data}: csv: read 3, added 3, skipped 0 (already stored)\n"
    with open_store(tmp_path / "env.sqlite") as store:
        (system,) = store.systems()
    assert (system.host, system.mpi_library, system.fs_type) == ("elsewhere", "MPICH 4", "lustre")


def test_a_bad_file_is_reported_and_the_others_still_go_in(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    bad = tmp_path / "bad.bench.jsonl"
    bad.write_text("{}\n")
    plain = tmp_path / "data.csv"
    plain.write_text(CSV)
    db = str(tmp_path / "kb.sqlite")
    assert main(["ingest", "--db", db, str(bad), str(SAMPLE_LOG), str(plain)]) == 2
    captured = capsys.readouterr()
    assert captured.err.splitlines() == [
        f'iotuner: error: {bad}:1: expected a bench result ("format": "iotuner-bench"); '
        "nothing was added",
        f"iotuner: error: {plain}: a CSV file needs a column mapping (--mapping FILE)",
    ]
    assert "added 3" in captured.out


def test_ingest_names_what_it_cannot_read(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    odd = tmp_path / "odd.dat"
    odd.write_text("hello\n")
    db = str(tmp_path / "kb.sqlite")
    assert main(["ingest", "--db", db, str(odd)]) == 2
    assert "cannot tell what kind of file this is" in capsys.readouterr().err
    assert main(["ingest", "--db", db, str(tmp_path / "missing")]) == 2
    assert "no such file or directory" in capsys.readouterr().err
    empty = tmp_path / "empty"
    empty.mkdir()
    assert main(["ingest", "--db", db, str(empty)]) == 2
    assert "no trace logs, bench results or Darshan logs in" in capsys.readouterr().err


def test_default_store_path(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    assert default_store_path() == tmp_path / "data" / "iotuner" / "knowledge.sqlite"
    monkeypatch.delenv("XDG_DATA_HOME")
    monkeypatch.setenv("HOME", str(tmp_path))
    assert default_store_path() == tmp_path / ".local/share/iotuner/knowledge.sqlite"
    with open_store() as store:
        assert store.backend == "sqlite"
    assert default_store_path().is_file()


def test_open_store_urls(tmp_path: Path) -> None:
    with open_store(f"sqlite:///{tmp_path}/a/b.sqlite") as store:
        assert store.backend == "sqlite"
    assert (tmp_path / "a" / "b.sqlite").is_file()
    with pytest.raises(StoreError, match="expected a file path, sqlite:///PATH or postgresql://"):
        open_store("mysql://user@host/db")
    not_a_db = tmp_path / "text.sqlite"
    not_a_db.write_text("just text, no database")
    with pytest.raises(
        StoreError, match=f"knowledge base sqlite:///{not_a_db}: file is not a database"
    ):
        open_store(not_a_db)
