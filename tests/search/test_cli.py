"""`iotuner search` on the command line: offline tables and the fake program."""

import csv
import json
import statistics
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
    assert "every trial a configuration the table measured" in out
    assert "winner: a=3,b=y" in out


def test_offline_filter_and_columns(
    sampled_table: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    args = ["search", "--objective", str(sampled_table), "--value-column", "bw"]
    args += ["--filter", "problem=small", "--param-columns", "stripe,buffer", "--strategy", "ga"]
    args += ["--budget", "20", "--seed", "1", "--storage", str(tmp_path / "s.db")]
    assert main(args) == 0
    out = capsys.readouterr().out
    # ga proposes from the product of the values: the table's sample is not all of it
    assert "proposals named configurations the objective does not measure" in out
    assert "every trial a configuration the table measured" in out
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


def test_offline_search_runs_in_memory_unless_a_storage_is_given(
    grid_table: Path,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    work = tmp_path / "work"
    work.mkdir()
    monkeypatch.chdir(work)
    args = ["search", "--objective", str(grid_table), "--strategy", "ga", "--budget", "9"]
    assert main([*args, "--seed", "3", "--json"]) == 0
    assert list(work.iterdir()) == []  # no study file (nor anything else) written
    result = json.loads(capsys.readouterr().out)
    assert result["storage"] is None  # Optuna's in-memory storage
    assert main([*args, "--seed", "3"]) == 0
    assert "in memory (not kept: --storage keeps it)" in capsys.readouterr().out
    assert list(work.iterdir()) == []
    kept = tmp_path / "kept.db"
    assert main([*args, "--seed", "3", "--storage", str(kept), "--json"]) == 0
    assert kept.is_file()
    assert json.loads(capsys.readouterr().out)["storage"] == f"sqlite:///{kept}"


def test_json_result_of_a_search(
    fake_program: list[str], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    space = tmp_path / "fake.toml"
    space.write_text(FAKE_SPACE)
    record = tmp_path / "record.jsonl"
    args = ["search", "--space", str(space), "--strategy", "grid", "--json"]
    args += ["--objective", "regex:^value=(\\d+)$", "--repeats", "3", "--no-db"]
    args += ["--storage", str(tmp_path / "s.db"), "--log-dir", str(tmp_path / "logs")]
    assert main([*args, "--", *fake_program, str(record), "{x}"]) == 0
    captured = capsys.readouterr()
    result = json.loads(captured.out)  # stdout holds the JSON and nothing else
    assert "trials measured" in captured.err  # the report goes to stderr
    assert result["strategy"] == "grid" and result["direction"] == "maximize"
    assert len(result["trials"]) == 24
    failed = [t for t in result["trials"] if t["failed"]]
    assert len(failed) == 6 and all("exit status 1" in t["reason"] for t in failed)
    assert result["best"]["config"] == {"romio_cb_write": "enable", "x": 3, "buf": 4}
    assert result["best"]["value"] == 13
    winner = result["winner"]
    assert winner["config"] == result["best"]["config"]
    assert winner["hints"] == {"romio_cb_write": "enable"}
    assert winner["application"] == {"x": "3", "buf": "4"}
    assert result["verdict"]["significant"] is True and result["verdict"]["p_value"] <= 0.05
    assert [r["is_default"] for r in result["remeasured"]] == [True, False]
    assert result["notes"] == [] and result["skipped"] == []


def test_offline_json_lists_the_parameter_columns_note(
    sampled_table: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    args = ["search", "--objective", str(sampled_table), "--value-column", "bw", "--json"]
    args += ["--filter", "problem=large", "--strategy", "random", "--budget", "5", "--seed", "1"]
    assert main(args) == 0
    result = json.loads(capsys.readouterr().out)
    assert result["verdict"] is None and result["offline"]["table_best"] > 0
    assert any(n.startswith("parameters: the columns stripe, buffer") for n in result["notes"])


def test_model_strategy_without_a_model_is_an_error_saying_where_it_looked(
    grid_table: Path,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    monkeypatch.chdir(tmp_path)
    args = ["search", "--objective", str(grid_table), "--strategy", "model"]
    assert main(args) == 2
    err = capsys.readouterr().err
    assert f"no model in {tmp_path / 'iotuner-model'}" in err
    assert "--model DIR" in err and "iotuner train -o DIR" in err
    assert main([*args, "--model", str(tmp_path / "nowhere")]) == 2
    assert f"no model in {tmp_path / 'nowhere'}" in capsys.readouterr().err


SIX_SPACE = """
name = "six"
description = "the fake program's x and buf: 3 x 2 = 6 configurations"

[app.x]
values = [1, 2, 3]
default = 1

[app.buf]
values = [1, 4]
default = 1
env = "APP_BUF"
"""


@pytest.mark.parametrize("strategy", ["random", "ga"])
def test_a_budget_beyond_the_configurations_is_an_error(
    grid_table: Path, strategy: str, capsys: pytest.CaptureFixture[str]
) -> None:
    args = ["search", "--objective", str(grid_table), "--strategy", strategy, "--seed", "1"]
    assert main([*args, "--budget", "10"]) == 2
    err = capsys.readouterr().err
    assert "--budget 10" in err and "9 configurations" in err
    assert main([*args, "--budget", "9", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["budget"] == 9


def test_a_budget_beyond_the_space_runs_nothing(
    fake_program: list[str], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Each configuration is run once per search (a repeat is answered from the study; the
    re-measures of the verdict come after the budget): 8 runs of 6 configurations cannot
    be, and the search says so before it runs anything."""
    space = tmp_path / "six.toml"
    space.write_text(SIX_SPACE)
    record = tmp_path / "record.jsonl"
    args = ["search", "--space", str(space), "--strategy", "random", "--repeats", "0"]
    args += ["--objective", "regex:^value=(\\d+)$", "--seed", "2", "--no-db"]
    args += ["--storage", str(tmp_path / "s.db"), "--log-dir", str(tmp_path / "logs")]
    command = ["--", *fake_program, str(record), "{x}"]
    assert main([*args, "--budget", "8", *command]) == 2
    err = capsys.readouterr().err
    assert "--budget 8" in err and "6 configurations" in err
    assert records(record) == []
    # Without --budget, the strategy's default (50) is more than there is: all 6, said so.
    assert main([*args, *command]) == 0
    out = capsys.readouterr().out
    assert len(records(record)) == 6
    assert "of a budget of 6 runs" in out
    assert "note: a budget of 6 runs: the 6 configurations in space six (the random " in out


def test_offline_times_and_volumes_are_no_parameters(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    header = ["stripe", "write_s", "read_GB", "open_s", "close_s", "write_GB", "read_s"]
    rows = [
        [stripe, 0.5, 8, 0.1, 0.1, 8, round(0.4 + 0.1 * (repeat % 2), 1), 100 * stripe + repeat]
        for stripe in (1, 2, 4)
        for repeat in range(3)
    ]
    with (tmp_path / "ior.csv").open("w") as stream:
        stream.write(",".join([*header, "bandwidth"]) + "\n")
        stream.writelines(",".join(map(str, row)) + "\n" for row in rows)
    args = ["search", "--objective", str(tmp_path / "ior.csv"), "--strategy", "grid", "--json"]
    assert main(args) == 0
    result = json.loads(capsys.readouterr().out)
    assert [t["config"] for t in result["trials"]] == [{"stripe": s} for s in (1, 2, 4)]
    (note,) = [n for n in result["notes"] if n.startswith("parameters:")]
    assert note.startswith("parameters: the columns stripe;")
    assert all(column in note for column in header[1:])


def test_offline_filter_takes_several_conditions_separated_by_commas(
    sampled_table: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # `--filter a=b,c=d` as the README's offline search writes a filter: both must hold.
    args = ["search", "--objective", str(sampled_table), "--value-column", "bw"]
    args += ["--filter", "problem=small,buffer=4194304", "--param-columns", "stripe"]
    args += ["--strategy", "random", "--budget", "3", "--seed", "1", "--json"]
    assert main([*args, "--storage", str(tmp_path / "s.db")]) == 0
    result = json.loads(capsys.readouterr().out)
    with sampled_table.open() as f:
        rows = [r for r in csv.DictReader(f) if (r["problem"], r["buffer"]) == ("small", "4194304")]
    assert result["offline"]["rows"] == len(rows) > 0
    by_stripe: dict[str, list[float]] = {}
    for r in rows:
        by_stripe.setdefault(r["stripe"], []).append(float(r["bw"]))
    best = max(statistics.median(values) for values in by_stripe.values())
    assert result["offline"]["table_best"] == pytest.approx(best)
    assert {tuple(t["config"]) for t in result["trials"]} == {("stripe",)}


@pytest.mark.parametrize(
    ("given", "said"),
    [
        ("problem=small,buffer", "'buffer' is not a condition: expected COLUMN=VALUE"),
        ("problem=small,,", "'' is not a condition"),
        ("problem=small,problem=large", "column 'problem' is given twice"),
    ],
)
def test_a_malformed_filter_says_what_is_expected(
    sampled_table: Path,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    given: str,
    said: str,
) -> None:
    args = ["search", "--objective", str(sampled_table), "--value-column", "bw"]
    args += ["--filter", given, "--storage", str(tmp_path / "s.db")]
    assert main(args) == 2
    err = capsys.readouterr().err
    assert f"--filter {given!r}" in err and said in err
