"""The learning commands on a small real sweep as a user's terminal shows them (issue 13,
item 4): at 60, 80 and 200 columns no table cuts a name or a number, no library warning
is dumped, progress goes to stderr with an ETA, and --json leaves stdout one JSON document."""

import json
import os
import subprocess
from pathlib import Path

import pytest

from .test_cli import IOTUNER
from .test_learning import SWEEP

TIMEOUT = 600


def run(*args: str, columns: int = 80) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "COLUMNS": str(columns)}
    env.pop("PYTHONWARNINGS", None)  # warnings as a user's Python shows them
    done = subprocess.run(
        [IOTUNER, *args], capture_output=True, text=True, timeout=TIMEOUT, env=env, check=False
    )
    assert done.returncode == 0, done.stdout + done.stderr
    return done


@pytest.fixture(scope="module")
def kb(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("terminal")
    (folder / "data").mkdir()
    run("bench", *SWEEP, "--dir", str(folder / "data"), "--results",
        str(folder / "r.bench.jsonl"), "--db", str(folder / "kb.sqlite"))  # fmt: skip
    return folder


def assert_terminal_text(text: str, columns: int) -> None:
    assert "…" not in text, text
    long = [line for line in text.splitlines() if len(line) > columns]
    assert not long, "\n".join(long)


def assert_no_dump(stderr: str) -> None:
    # Python's own form of a warning: "path.py:12: UserWarning: ..." and the source line.
    assert "Warning:" not in stderr and "warnings.warn" not in stderr, stderr
    assert "Traceback" not in stderr, stderr


@pytest.mark.slow  # three trainings; CI's
@pytest.mark.parametrize("columns", [60, 80, 200])
def test_train_at_any_width(kb: Path, columns: int) -> None:
    done = run("train", "--db", str(kb / "kb.sqlite"), "--quick", "--verbose", "-o",
               str(kb / f"model-{columns}"), columns=columns)  # fmt: skip
    assert_terminal_text(done.stdout, columns)
    assert_no_dump(done.stderr)
    for name in ("random_forest", "hist_gradient_boosting", "relative_forest", "decision_tree"):
        assert name in done.stdout
    chosen = " ".join(done.stdout.split("chosen ", 1)[1].split("saved")[0].split())
    name = chosen.split(":")[0]
    assert f"ties {name}" not in chosen  # one model is no tie
    assert "Choices over 0 workloads" not in done.stdout


@pytest.mark.slow  # a training and an evaluation; CI's
def test_evaluate_tune_analyze_show_fit_80_columns(kb: Path) -> None:
    db = str(kb / "kb.sqlite")
    model = kb / "model-eval"
    run("train", "--db", db, "--quick", "--no-rules", "-o", str(model))
    done = run("evaluate", "--db", db, "--quick", "--max-folds", "4")
    assert_terminal_text(done.stdout, 80)
    assert_no_dump(done.stderr)
    assert "hist_gradient_boosting" in done.stdout and "random order" in done.stdout
    # The bar's last state in a log: whole figures and an ETA, on stderr only.
    assert "evaluate:" in done.stderr and "eta" in done.stderr
    assert "evaluate:" not in done.stdout
    tuned = run("tune", "--db", db, "--model", str(model), "-o", str(kb / "t.jsonl"))
    assert_terminal_text(tuned.stdout, 80)
    if " 0 of " in tuned.stdout:
        assert "every case keeps the default" in tuned.stdout
        assert "configurations chosen over the default" not in tuned.stdout
    analyzed = run("analyze", "--db", db)
    assert_terminal_text(analyzed.stdout, 80)
    status = run("db", "status", "--db", db).stdout
    assert_terminal_text(status.split("\n", 1)[1], 80)  # the first line: the path as it is


@pytest.mark.slow  # CI's
def test_json_commands_keep_stdout_pure(kb: Path) -> None:
    db = str(kb / "kb.sqlite")
    model = kb / "model-json"
    trained = run("train", "--db", db, "--quick", "--json", "-o", str(model))
    assert json.loads(trained.stdout)["chosen"]
    assert "train:" in trained.stderr  # the progress went to stderr
    evaluated = run("evaluate", "--db", db, "--quick", "--max-folds", "3", "--json")
    assert json.loads(evaluated.stdout)
    tuned = run("tune", "--db", db, "--model", str(model), "-o", str(kb / "j.jsonl"), "--json")
    assert json.loads(tuned.stdout)["table"]
    for done in (trained, evaluated, tuned):
        assert_no_dump(done.stderr)
