"""The contract every objective keeps, run over each of them: what the search asks of an
Objective, and nothing else (the search never asks which class it is).

Beside the two objectives iotuner ships, a minimal subclass that only answers what the base
class declares goes through a whole search, verdict included.
"""

import json
from collections.abc import Callable
from pathlib import Path

import pytest

from iotuner.search import (
    DIRECTIONS,
    Objective,
    OfflineObjective,
    OfflineTable,
    RunObjective,
    SearchError,
    SearchSettings,
    TrialOutcome,
    default_study_name,
    parse_measure,
    run_search,
)
from iotuner.space import Configuration, Space


class Counted(Objective):
    """A minimal objective: x times buf, measured anew each time (remeasurable); x=bad
    fails. Only the members the base class asks a subclass for, and remeasurable."""

    remeasurable = True

    def __init__(self, space: Space) -> None:
        self.space = space
        self.direction = "maximize"
        self.description = "x times buf"
        self.calls = 0

    def evaluate(self, config: Configuration, label: str, *, trace: bool = False) -> TrialOutcome:
        self.calls += 1
        if config["x"] == "bad":
            return TrialOutcome(None, "x=bad cannot work")
        return TrialOutcome(float(int(config["x"]) * int(config["buf"])) + self.calls * 1e-9)


Maker = Callable[[Path, list[str], Space, Path], Objective]


def _run(tmp_path: Path, fake_program: list[str], space: Space, table: Path) -> Objective:
    kind, pattern = parse_measure("regex:^value=(\\d+)$")
    command = [*fake_program, str(tmp_path / "record.jsonl"), "{x}"]
    return RunObjective(command, space, measure=kind, pattern=pattern, log_dir=tmp_path / "logs")


MAKERS: dict[str, Maker] = {
    "run": _run,
    "offline": lambda tmp_path, program, space, table: OfflineObjective(OfflineTable(table)),
    "minimal": lambda tmp_path, program, space, table: Counted(space),
}


@pytest.fixture(params=sorted(MAKERS))
def make(
    request: pytest.FixtureRequest,
    tmp_path: Path,
    fake_program: list[str],
    fake_space: Space,
    grid_table: Path,
) -> Callable[[], Objective]:
    maker = MAKERS[request.param]
    return lambda: maker(tmp_path, fake_program, fake_space, grid_table)


def test_it_says_what_it_measures(make: Callable[[], Objective]) -> None:
    objective = make()
    assert objective.direction in DIRECTIONS
    assert objective.description
    assert objective.space.size >= 1
    candidates = objective.candidates()
    assert candidates is None or all(objective.space.validate(c) == c for c in candidates)
    assert objective.command is None or all(isinstance(a, str) for a in objective.command)
    assert (objective.trial_mode is not None) == objective.runs_program
    assert objective.runs_program or not objective.traces_trials


def test_it_answers_a_configuration(make: Callable[[], Objective]) -> None:
    objective = make()
    config = (objective.candidates() or [objective.space.default()])[0]
    outcome = objective.evaluate(config, "0")
    assert isinstance(outcome, TrialOutcome)
    assert outcome.failed == (outcome.value is None) == (outcome.reason is not None)
    assert isinstance(objective.describe(outcome), str)
    again = objective.evaluate(config, "1")
    if not objective.remeasurable:
        assert again == outcome  # asking again gives the same answer: nothing to re-measure


def test_slots_are_between_one_and_the_request(make: Callable[[], Objective]) -> None:
    objective = make()
    for requested in (1, 2, 7):
        slots, limit = objective.slots(requested)
        assert 1 <= slots <= requested
        assert isinstance(limit, str) and (slots == requested or limit)
    with pytest.raises(SearchError, match=">= 1, got 0"):
        objective.slots(0)


def test_its_study_is_named_and_signed_the_same_each_time(make: Callable[[], Objective]) -> None:
    first, second = make(), make()
    signature = first.signature()
    assert json.loads(json.dumps(signature)) == signature  # kept in the study as JSON
    assert signature == second.signature()
    assert {"space", "objective", "direction"} <= set(signature)
    assert first.study_label()
    assert default_study_name(first, "ga") == default_study_name(second, "ga")
    assert default_study_name(first, "ga") != default_study_name(first, "tpe")


def test_what_it_knows_without_a_search(make: Callable[[], Objective]) -> None:
    objective = make()
    known = objective.best_known()
    if known is None:
        assert objective.summary([], 0.9) is None
        return
    config, value = known
    assert objective.evaluate(config, "0").value == value
    summary = objective.summary([], 0.9)
    assert summary is not None and summary.table_best == value
    assert summary.trials_to_target is None


def test_a_search_asks_it_nothing_else(make: Callable[[], Objective]) -> None:
    objective = make()
    result = run_search(objective, SearchSettings("grid", budget=8, repeats=3))
    assert len(result.trials) == 8
    assert result.command == objective.command
    assert result.trial_mode == objective.trial_mode
    assert all(t.note == objective.describe(t.outcome) for t in result.trials)
    assert (result.offline is not None) == (objective.best_known() is not None)
    assert result.winner is not None
    if objective.remeasurable:
        assert [r.is_default for r in result.remeasured] == [True, False]
        assert all(len(r.values) == 3 for r in result.remeasured)
        assert result.verdict is not None
    else:
        assert not result.remeasured and result.verdict is None
        assert result.best is not None and result.winner == result.best.config
