"""Searches that run a program: placeholders, environment, objectives, failures, resume and
the tuning table, with a fake program (a Python script; see conftest)."""

from pathlib import Path

import pytest
from rich.console import Console

from iotuner.search import (
    OfflineObjective,
    OfflineTable,
    RunObjective,
    SearchError,
    SearchResult,
    SearchSettings,
    merge_winner,
    parse_measure,
    print_result,
    run_search,
    storage_url,
    winner_entries,
)
from iotuner.search._common import TrialOutcome
from iotuner.space import Configuration, Space, parse_space
from iotuner.table import TableEntry, read_table, write_table

from .conftest import records

HOSTILE = "literal; echo pwned $(whoami) `id` > /tmp/x"


def objective(
    command: list[str], space: Space, tmp_path: Path, measure: str = "regex:^value=(\\d+)$"
) -> RunObjective:
    kind, pattern = parse_measure(measure)
    return RunObjective(command, space, measure=kind, pattern=pattern, log_dir=tmp_path / "logs")


def test_placeholders_and_env_reach_the_program_without_a_shell(
    fake_program: list[str], fake_space: Space, tmp_path: Path
) -> None:
    record = tmp_path / "record.jsonl"
    command = [*fake_program, str(record), "{x}", HOSTILE, "run-{trial}", "{x}{x}"]
    run = objective(command, fake_space, tmp_path)
    config = fake_space.validate({"x": 3, "buf": 4, "romio_cb_write": "enable"})
    outcome = run.evaluate(config, "7")
    assert outcome.value == 3 * 4 + 1
    (seen,) = records(record)
    assert seen["args"] == [str(record), "3", HOSTILE, "run-7", "33"]
    assert seen["buf"] == "4"
    assert seen["hints"] == {"romio_cb_write": "enable"}


def test_unknown_placeholder_is_an_error_before_anything_runs(
    fake_program: list[str], fake_space: Space, tmp_path: Path
) -> None:
    record = tmp_path / "record.jsonl"
    with pytest.raises(SearchError, match=r"\{y\}.*expected one of \{buf\}, \{x\}, \{trial\}"):
        objective([*fake_program, str(record), "{x}", "{y}"], fake_space, tmp_path)
    with pytest.raises(SearchError, match="x of space 'fake' have no env variable"):
        objective([*fake_program, str(record), "1"], fake_space, tmp_path)
    with pytest.raises(SearchError, match="cannot run 'no-such-program-here'"):
        objective(["no-such-program-here", "{x}"], fake_space, tmp_path)
    assert not record.exists()


def test_failed_trials_are_failures_not_zeros(
    fake_program: list[str], fake_space: Space, tmp_path: Path
) -> None:
    record = tmp_path / "record.jsonl"
    run = objective([*fake_program, str(record), "{x}"], fake_space, tmp_path)
    result = run_search(run, SearchSettings("grid", repeats=0))
    assert len(result.trials) == fake_space.size == 24
    failed = [t for t in result.trials if t.failed]
    assert {t.config["x"] for t in failed} == {"bad"}
    assert len(failed) == 6
    assert all(t.value is None and "exit status 1" in (t.outcome.reason or "") for t in failed)
    assert all(t.outcome.returncode == 1 for t in failed)
    assert result.best is not None and result.best.value == 13
    assert result.winner is not None and result.winner["x"] == 3


def test_regex_takes_the_last_matching_line_and_walltime_minimises(
    fake_program: list[str], fake_space: Space, tmp_path: Path
) -> None:
    record = tmp_path / "record.jsonl"
    config = fake_space.validate({"x": 2})
    whole = objective([*fake_program, str(record), "{x}"], fake_space, tmp_path, "regex:\\d+$")
    assert whole.evaluate(config, "1").value == 2
    missing = objective([*fake_program, str(record), "{x}"], fake_space, tmp_path, "regex:^t=")
    outcome = missing.evaluate(config, "2")
    assert outcome.failed and "no line of the output matches" in (outcome.reason or "")
    wall = objective([*fake_program, str(record), "{x}"], fake_space, tmp_path, "walltime")
    assert wall.direction == "minimize"
    seconds = wall.evaluate(config, "3").value
    assert seconds is not None and 0 < seconds < 60
    with pytest.raises(SearchError, match="bandwidth, walltime, regex:PATTERN"):
        parse_measure("speed")


def test_resume_runs_only_what_is_missing(
    fake_program: list[str], fake_space: Space, tmp_path: Path
) -> None:
    record = tmp_path / "record.jsonl"
    run = objective([*fake_program, str(record), "{x}"], fake_space, tmp_path)
    storage = storage_url(str(tmp_path / "search.db"))
    first = run_search(run, SearchSettings("random", budget=4, storage=storage, seed=1, repeats=0))
    assert len(first.trials) == 4 and len(records(record)) == 4
    second = run_search(run, SearchSettings("random", budget=8, storage=storage, seed=1, repeats=0))
    assert second.study == first.study
    assert len(second.trials) == 8
    assert sum(1 for t in second.trials if t.new) == 4
    assert len(records(record)) == 8  # only 4 new runs
    assert [t.config for t in second.trials[:4]] == [t.config for t in first.trials]


class _Interrupting(OfflineObjective):
    """An offline objective whose third evaluation is interrupted (Ctrl-C)."""

    calls = 0

    def evaluate(self, config: Configuration, label: str, *, trace: bool = False) -> TrialOutcome:
        type(self).calls += 1
        if type(self).calls == 3:
            raise KeyboardInterrupt
        return super().evaluate(config, label, trace=trace)


def test_an_interrupted_trial_is_run_again_on_resume(grid_table: Path, tmp_path: Path) -> None:
    storage = storage_url(str(tmp_path / "search.db"))
    settings = SearchSettings("grid", storage=storage, study="s")
    with pytest.raises(KeyboardInterrupt):
        run_search(_Interrupting(OfflineTable(grid_table)), settings)
    result = run_search(OfflineObjective(OfflineTable(grid_table)), settings)
    assert result.recovered == 1
    assert len(result.trials) == 9
    assert sum(1 for t in result.trials if not t.new) == 2
    assert result.best is not None and result.best.value == 35


def test_a_study_of_another_search_is_refused(grid_table: Path, tmp_path: Path) -> None:
    storage = storage_url(str(tmp_path / "search.db"))
    run_search(
        OfflineObjective(OfflineTable(grid_table)),
        SearchSettings("grid", storage=storage, study="s"),
    )
    other = tmp_path / "other.csv"
    other.write_text("a,bandwidth\n1,2\n2,3\n")
    with pytest.raises(SearchError, match="made for another search"):
        run_search(
            OfflineObjective(OfflineTable(other)),
            SearchSettings("grid", storage=storage, study="s"),
        )


def test_noise_step_and_winner_in_the_table(
    fake_program: list[str], fake_space: Space, tmp_path: Path
) -> None:
    record = tmp_path / "record.jsonl"
    run = objective([*fake_program, str(record), "{x}"], fake_space, tmp_path)
    result = run_search(run, SearchSettings("grid", repeats=4, top=2))
    # The top 2 and the default, 4 times each, after the 24 trials.
    assert len(records(record)) == 24 + 3 * 4
    default = [r for r in result.remeasured if r.is_default]
    assert len(default) == 1 and default[0].values == [1.0] * 4
    assert result.verdict is not None and result.verdict.significant
    assert result.winner == {"romio_cb_write": "enable", "x": 3, "buf": 4}
    table = tmp_path / "tuned.jsonl"
    write_table(table, [TableEntry(at="open", program="other", hints={"cb_nodes": "2"})])
    merge_winner(table, winner_entries(result, "/some/where/fake_program.py", 4))
    merge_winner(table, winner_entries(result, "fake_program.py", 4))  # replaced, not added
    entries = read_table(table)
    assert len(entries) == 1 + 7
    mine, other = entries[:7], entries[7]
    assert other.program == "other"  # the winner's entries go in front: they win ties
    assert [(e.at, e.program, e.nprocs) for e in mine[:3]] == [
        ("open", "fake_program.py", 4),
        ("view", "fake_program.py", 4),
        ("view", "fake_program.py", 4),
    ]
    assert {(e.op, e.layout) for e in mine[3:]} == {
        (op, layout) for op in ("read", "write") for layout in ("contiguous", "strided")
    }
    assert all(e.pattern == "collective" and e.at == "access" for e in mine[3:])
    assert all(e.hints == {"romio_cb_write": "enable"} for e in mine)
    assert mine[0].note is not None and "x=3" in mine[0].note and "buf=4" in mine[0].note


TIE_SPACE = """
name = "tie"
description = "two configurations the fake program cannot tell apart"

[hints.romio_cb_write]
values = ["automatic", "disable"]
default = "automatic"

[app.x]
values = [1]
default = 1

[app.buf]
values = [1]
default = 1
env = "APP_BUF"
"""


def test_not_better_keeps_the_default(fake_program: list[str], tmp_path: Path) -> None:
    record = tmp_path / "record.jsonl"
    space = parse_space(TIE_SPACE, "tie space")
    run = objective([*fake_program, str(record), "{x}"], space, tmp_path)
    result = run_search(run, SearchSettings("grid", repeats=3))
    assert [len(r.values) for r in result.remeasured] == [3, 3]
    assert result.verdict is not None and not result.verdict.significant
    assert "NOT better than the default beyond the noise" in result.verdict.message
    assert result.winner == space.default()
    assert result.winner_reason.endswith("the default is kept")


def test_parallel_trials_measure_each_configuration_once(
    fake_program: list[str], fake_space: Space, tmp_path: Path
) -> None:
    record = tmp_path / "record.jsonl"
    run = objective([*fake_program, str(record), "{x}"], fake_space, tmp_path)
    result = run_search(run, SearchSettings("tpe", budget=10, parallel=2, seed=2, repeats=0))
    assert len(result.trials) == 10
    runs = records(record)
    assert len(runs) == 10
    seen = {(r["args"][1], r["buf"], r["hints"].get("romio_cb_write")) for r in runs}
    assert len(seen) == 10


def test_a_failed_trial_shows_the_end_of_its_output(
    fake_program: list[str], fake_space: Space, tmp_path: Path
) -> None:
    record = tmp_path / "record.jsonl"
    command = [*fake_program, str(record), "{x}"]
    assert (
        objective(command, fake_space, tmp_path).evaluate(fake_space.default(), "ok").stdout_tail
        == ""
    )  # kept only for a failed trial
    run = objective(command, fake_space, tmp_path, "regex:^t=(\\d+)$")
    settings = SearchSettings(
        "grid", budget=2, repeats=0, storage=storage_url(str(tmp_path / "s.db"))
    )
    result = run_search(run, settings)
    assert [t.outcome.stdout_tail.splitlines()[-1] for t in result.trials] == ["done", "done"]
    resumed = run_search(run, settings)  # nothing left to run: the study kept the output
    assert len(records(record)) == 1 + 2
    assert [t.outcome.stdout_tail for t in resumed.trials] == [
        t.outcome.stdout_tail for t in result.trials
    ]
    console = Console(record=True, width=200)
    print_result(resumed, console)
    text = console.export_text()
    assert "failed trials: no line of the output matches '^t=(\\\\d+)$'" in text
    assert "its output ended with:\n  | starting\n  | value=1\n  | done" in text


def test_another_seed_is_another_study_and_never_a_silent_resume(
    grid_table: Path, tmp_path: Path
) -> None:
    storage = storage_url(str(tmp_path / "search.db"))
    table = OfflineTable(grid_table)

    def search(seed: int | None, study: str | None = None) -> SearchResult:
        settings = SearchSettings(
            "random", budget=3, storage=storage, seed=seed, study=study, repeats=0
        )
        return run_search(OfflineObjective(table), settings)

    first = search(1)
    second = search(2)  # the default name carries the seed: a study of its own
    assert second.study != first.study
    assert len(second.trials) == 3 and all(t.new for t in second.trials)
    again = search(1)  # the same seed resumes its own study
    assert again.study == first.study and not any(t.new for t in again.trials)
    unseeded = search(None)
    assert unseeded.study not in (first.study, second.study)
    search(1, study="named")
    with pytest.raises(SearchError, match=r"'named' was made with --seed 1.*--seed 2"):
        search(2, study="named")
    with pytest.raises(SearchError, match=r"'named' was made with --seed 1.*no --seed"):
        search(None, study="named")
