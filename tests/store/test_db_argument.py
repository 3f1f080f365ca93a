"""What --db and $IOTUNER_DB accept: a plain SQLite path (relative or absolute), the two
sqlite URL forms (three slashes: relative, four: absolute), and a clear error naming the
folder when it is missing. Each case opens the real SQLite store through the CLI."""

from pathlib import Path

import pytest

from iotuner.cli import main
from iotuner.store import open_store


@pytest.fixture
def cwd(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A working directory of its own, inside tmp_path, with no $IOTUNER_DB."""
    work = tmp_path / "work"
    work.mkdir()
    monkeypatch.chdir(work)
    monkeypatch.delenv("IOTUNER_DB", raising=False)
    return work


def _status(capsys: pytest.CaptureFixture[str], *db: str) -> tuple[int, str, str]:
    status = main(["db", "status", *db])
    captured = capsys.readouterr()
    return status, captured.out, captured.err


def _is_store(path: Path) -> bool:
    """A knowledge base with its schema: opening it again finds the tables."""
    if not path.is_file():
        return False
    with open_store(path) as store:
        return "measurements" in store.counts()


@pytest.mark.parametrize(
    ("given", "where"),
    [
        ("kb.sqlite", "work/kb.sqlite"),
        ("sqlite:///relative.sqlite", "work/relative.sqlite"),
        ("{tmp}/absolute.sqlite", "absolute.sqlite"),
        ("sqlite:///{tmp}/four-slashes.sqlite", "four-slashes.sqlite"),
    ],
)
def test_paths_and_urls(
    cwd: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str], given: str, where: str
) -> None:
    # tmp_path is absolute, so "sqlite:///{tmp}" spells four slashes.
    db = given.format(tmp=tmp_path)
    status, out, err = _status(capsys, "--db", db)
    assert (status, err) == (0, "")
    assert _is_store(tmp_path / where)
    url = db if db.startswith("sqlite:") else f"sqlite:///{db}"
    assert out.startswith(f"knowledge base: {url} (schema ")
    assert sorted(p.name for p in cwd.iterdir()) == (
        [Path(where).name] if where.startswith("work/") else []
    )


def test_the_environment_takes_the_same(
    cwd: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("IOTUNER_DB", "env.sqlite")
    assert _status(capsys)[0] == 0
    assert _is_store(cwd / "env.sqlite")
    monkeypatch.setenv("IOTUNER_DB", f"sqlite:///{tmp_path}/env-abs.sqlite")
    assert _status(capsys)[0] == 0
    assert _is_store(tmp_path / "env-abs.sqlite")
    monkeypatch.setenv("IOTUNER_DB", "nowhere/env.sqlite")
    status, _, err = _status(capsys)
    assert status == 2
    assert err == (
        f"iotuner: error: the folder {cwd}/nowhere of the knowledge base nowhere/env.sqlite "
        "does not exist; create it, or name a file in an existing folder (named by $IOTUNER_DB)\n"
    )
    # --db wins over the environment.
    assert _status(capsys, "--db", "given.sqlite")[0] == 0
    assert _is_store(cwd / "given.sqlite")


@pytest.mark.parametrize(
    ("given", "folder"),
    [
        ("missing/kb.sqlite", "{cwd}/missing"),
        ("{tmp}/missing/kb.sqlite", "{tmp}/missing"),
        ("sqlite:///{tmp}/missing/kb.sqlite", "{tmp}/missing"),
    ],
)
def test_a_missing_folder_is_named(
    cwd: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str], given: str, folder: str
) -> None:
    db = given.format(tmp=tmp_path)
    status, out, err = _status(capsys, "--db", db)
    assert (status, out) == (2, "")
    assert err == (
        f"iotuner: error: the folder {folder.format(cwd=cwd, tmp=tmp_path)} of the knowledge "
        f"base {db} does not exist; create it, or name a file in an existing folder\n"
    )
    assert not (cwd / "missing").exists() and not (tmp_path / "missing").exists()


def test_three_slashes_meant_as_absolute(cwd: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """The slip: sqlite:///srv/kb.sqlite is ./srv/kb.sqlite; the error shows the four-slash
    form instead of making ./srv."""
    status, _, err = _status(capsys, "--db", "sqlite:///srv/kb.sqlite")
    assert status == 2
    assert err == (
        f"iotuner: error: the folder {cwd}/srv of the knowledge base sqlite:///srv/kb.sqlite "
        "does not exist (sqlite:///PATH is relative to the working directory; for "
        "/srv/kb.sqlite write sqlite:////srv/kb.sqlite)\n"
    )
    assert not (cwd / "srv").exists()


def test_a_file_where_the_folder_should_be(cwd: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (cwd / "plain").write_text("a file")
    status, _, err = _status(capsys, "--db", "plain/kb.sqlite")
    assert status == 2
    assert f"the folder {cwd}/plain of the knowledge base plain/kb.sqlite is not a folder" in err


def test_a_scheme_without_slashes(cwd: Path, capsys: pytest.CaptureFixture[str]) -> None:
    status, _, err = _status(capsys, "--db", "sqlite:kb.sqlite")
    assert status == 2
    assert err.startswith(
        "iotuner: error: expected a file path, sqlite:///PATH or "
        "postgresql://[USER@]HOST/DATABASE for the knowledge base, got 'sqlite:kb.sqlite'"
    )
    assert "sqlite:////srv/kb.sqlite, with four slashes, absolute" in err
    assert list(cwd.iterdir()) == []


def test_the_default_folder_is_made(
    cwd: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    assert _status(capsys)[0] == 0
    assert _is_store(tmp_path / "data" / "iotuner" / "knowledge.sqlite")


@pytest.mark.parametrize("command", [["db", "status"], ["ingest"], ["bench"], ["search"]])
def test_help_shows_both_url_forms(command: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main([*command, "--help"])
    text = " ".join(capsys.readouterr().out.split())
    assert "--db PATH_OR_URL" in text
    assert "sqlite:///relative/kb.sqlite, sqlite:////absolute/kb.sqlite (four slashes)" in text
