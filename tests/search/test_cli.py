"""`iotuner search` on the command line: offline tables and the fake program."""

from pathlib import Path

import pytest

from iotuner.cli import main

from .conftest import FAKE_SPACE, records


@pytest.fixture(autouse=True)
def wide_console(monkeypatch: pytest.MonkeyPatch) -> None:
    """Rich wraps at 80 columns when it has no terminal; the tests match whole lines."""
    monkeypatch.setenv("COLUMNS", "250")


def test_offline_grid(grid_table: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    status = main(
        [
            "search",
            "--objective",
            str(grid_table),
            "--strategy",
            "grid",
            "--storage",
            str(tmp_path / "s.db"),
        ]
    )
    out = capsys.readouterr().out
    assert status == 0
    assert "9 trials measured" in out
    assert "95% of the table's best (33.25): reached after" in out
    assert "0 of 9 trials answered by the nearest" in out
    assert "winner: a=3,b=y" in out


def test_offline_filter_and_columns(
    sampled_table: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    args = ["search", "--objective", str(sampled_table), "--value-column", "bw"]
    args += ["--filter", "problem=small", "--param-columns", "stripe,buffer", "--strategy", "ga"]
    args += ["--budget", "20", "--seed", "1", "--storage", str(tmp_path / "s.db")]
    assert main(args) == 0
    out = capsys.readouterr().out
    assert "answered by the nearest measured configuration" in out
    assert "summarised by their median" in out


def test_run_with_table_and_resume(
    fake_program: list[str], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    space = tmp_path / "fake.toml"
    space.write_text(FAKE_SPACE)
    record = tmp_path / "record.jsonl"
    table = tmp_path / "tuned.jsonl"
    args = ["search", "--space", str(space), "--strategy", "random", "--budget", "5"]
    args += ["--objective", "regex:^value=(\\d+)$", "--repeats", "0", "--seed", "4"]
    args += ["--storage", str(tmp_path / "s.db"), "--log-dir", str(tmp_path / "logs")]
    command = ["--", *fake_program, str(record), "{x}"]
    assert main([*args, *command]) == 0
    assert len(records(record)) == 5
    args[args.index("--budget") + 1] = "7"
    assert main([*args, "--table", str(table), *command]) == 2  # no trace: no program name
    assert "--table needs a run's trace" in capsys.readouterr().err
    assert len(records(record)) == 7


def test_errors_become_messages(
    fake_program: list[str], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    space = tmp_path / "fake.toml"
    space.write_text(FAKE_SPACE)
    args = ["search", "--space", str(space), "--storage", str(tmp_path / "s.db")]
    assert main([*args, "--", *fake_program, "{x}", "{nope}"]) == 2
    assert "{nope} that name no application parameter" in capsys.readouterr().err
    assert main([*args, "--objective", "speed", "--", *fake_program, "{x}"]) == 2
    assert "bandwidth, walltime, regex:PATTERN" in capsys.readouterr().err
