"""bench's order (issue 23, item 5): the first round, the rounds a model chooses and when
they stop, replayed on a real sweep (bench/devdata/sweep-tmpfs.bench.jsonl: romio-ufs on
tmpfs, 24 workloads x 9-16 configurations x 3 repeats) instead of measuring it again; the
pace that estimates the time left; the time budget's parser."""

import dataclasses
import math
import random
import re
import statistics
import time
from collections import defaultdict
from pathlib import Path

import pytest

from iotuner.bench import (
    BenchPlan,
    Pace,
    SweepState,
    duration_text,
    first_configurations,
    neighbour_picks,
    next_choice,
    parse_duration,
    parse_layout,
    read_results,
    resume_estimate,
    workload_key,
)
from iotuner.cli._measure import _budget_text
from iotuner.errors import ConfigError
from iotuner.measurement import Measurement
from iotuner.space import config_key, load_space

ROOT = Path(__file__).resolve().parents[2]
SWEEP = ROOT / "bench" / "devdata" / "sweep-tmpfs.bench.jsonl"


def tmpfs_plan(seed: int = 2) -> BenchPlan:
    """The plan of SWEEP (bench/devdata/README.md: the tmpfs sweep, --seed 2)."""
    return BenchPlan(
        load_space("romio-ufs"),
        [1, 2, 4],
        ["collective", "independent"],
        [parse_layout("contiguous"), parse_layout("strided:4k:0.5")],
        ["write", "read"],
        [256 * 1024],
        repeats=3,
        max_configs=16,
        seed=seed,
        open_bytes=32 << 20,
    )


@pytest.fixture(scope="module")
def records() -> list[Measurement]:
    return read_results(SWEEP)


def by_config(records: list[Measurement]) -> dict[tuple[str, str], list[Measurement]]:
    found: dict[tuple[str, str], list[Measurement]] = defaultdict(list)
    for m in records:
        found[(workload_key(m.workload), config_key(m.config))].append(m)
    return found


def test_the_plan_is_the_one_the_sweep_measured(records: list[Measurement]) -> None:
    state = SweepState(tmpfs_plan(), records)
    assert state.measured == state.planned == len(records) == 900
    assert state.rest() == {}
    # Another seed samples other configurations of the writes: much is not its plan.
    assert SweepState(tmpfs_plan(seed=5), records).measured < 450


def test_the_first_round_tries_every_value_of_what_matters() -> None:
    plan = BenchPlan(
        load_space("romio-ufs"),
        [2],
        ["collective", "independent"],
        [parse_layout("contiguous")],
        ["write", "read"],
        [1 << 20],
    )
    for workload in plan.workloads:
        planned = plan.configurations(workload)
        first = first_configurations(plan, workload)
        assert first[0] == plan.space.default()
        assert all(c in planned for c in first)
        assert len({config_key(c) for c in first}) == len(first)
        for name in plan.space.parameters:
            values = {str(c[name.name]) for c in planned}
            assert {str(c[name.name]) for c in first} == values, (workload_key(workload), name)
        # A greedy cover: the most values of any parameter (cb_nodes: 4), not 324.
        most = max(len({str(c[p.name]) for c in planned}) for p in plan.space.parameters)
        assert len(first) <= most + 1
    write = next(w for w in plan.workloads if (w.pattern, w.op) == ("collective", "write"))
    assert len(plan.configurations(write)) == 324 and len(first_configurations(plan, write)) == 4
    # Seeded: the same seed, the same round; another seed, another choice among the ties.
    assert first_configurations(plan, write) == first_configurations(plan, write)
    other = dataclasses.replace(plan, seed=1)
    assert first_configurations(other, write) != first_configurations(plan, write)


def replay(
    plan: BenchPlan, records: list[Measurement]
) -> tuple[SweepState, list[int], list[float]]:
    """The rounds on `records` as the oracle: the measurements after each round and the
    mean over workloads of (true median bandwidth of the best configuration measured) /
    (that of the best planned one)."""
    oracle = by_config(records)
    state = SweepState(plan)

    def measure(key: str, configs: list[dict[str, str | int]]) -> None:
        for config in configs:
            for m in oracle[(key, config_key(config))]:
                state.add(m)

    def found() -> float:
        ratios = []
        for key, planned in state.workloads.items():
            true = {
                k: statistics.median(m.bandwidth for m in oracle[(key, k)]) for k in planned.index
            }
            ratios.append(max(true[k] for k in planned.measured) / max(true.values()))
        return statistics.mean(ratios)

    for workload in plan.workloads:
        measure(workload_key(workload), first_configurations(plan, workload))
    counts, quality = [state.measured], [found()]
    for _ in range(30):
        choice = next_choice(state)
        if not choice.picks:
            break
        for pick in choice.picks:
            measure(workload_key(pick.workload), pick.configs)
        counts.append(state.measured)
        quality.append(found())
    return state, counts, quality


def test_model_rounds_find_the_best_with_part_of_the_plan(records: list[Measurement]) -> None:
    plan = tmpfs_plan()
    state, counts, quality = replay(plan, records)
    assert next_choice(state).picks == []  # it stopped: confident, not out of rounds
    # The first round alone: 30 % of the plan, its best 95 % of the best on average.
    assert counts[0] < 0.35 * state.planned and quality[0] < quality[-1] - 0.03
    # The model's rounds (4 here): 99 % with two thirds of the plan measured.
    assert len(counts) >= 3 and counts[-1] < 0.7 * state.planned
    assert quality[-1] >= 0.98 and quality[1] > quality[0]
    # A random sample of as many configurations per workload does worse (seeded).
    oracle = by_config(records)
    rng, ratios = random.Random(0), []
    for key, planned in state.workloads.items():
        keys = list(planned.index)
        sample = [keys[0], *rng.sample(keys[1:], len(planned.measured) - 1)]
        true = {k: statistics.median(m.bandwidth for m in oracle[(key, k)]) for k in keys}
        ratios.append(max(true[k] for k in sample) / max(true.values()))
    assert statistics.mean(ratios) < quality[-1] - 0.02


def first_round(plan: BenchPlan, records: list[Measurement]) -> list[Measurement]:
    """The stored sweep's measurements of the first round's configurations."""
    firsts = {
        (workload_key(w), config_key(c))
        for w in plan.workloads
        for c in first_configurations(plan, w)
    }
    return [m for m in records if (workload_key(m.workload), config_key(m.config)) in firsts]


def test_choices_are_deterministic_and_finish_what_was_begun(
    records: list[Measurement],
) -> None:
    plan = tmpfs_plan()
    measured = first_round(plan, records)
    one = next_choice(SweepState(plan, measured))
    assert one == next_choice(SweepState(plan, measured)) and one.picks
    gains = [p.gain for p in one.picks]
    assert gains == sorted(gains, reverse=True) and gains[-1] > 1
    assert all(1 <= len(p.configs) <= 3 for p in one.picks)
    # Only unmeasured configurations are chosen.
    for pick in one.picks:
        assert not {config_key(c) for c in pick.configs} & {
            config_key(m.config) for m in measured if m.workload == pick.workload
        }
    # A configuration with one repeat of three comes first, whatever the model says.
    chosen = one.picks[-1]
    begun = chosen.configs[0]
    extra = next(
        m
        for m in records
        if workload_key(m.workload) == workload_key(chosen.workload)
        and m.config == begun
        and m.repeat == 0
    )
    two = next_choice(SweepState(plan, [*measured, extra]))
    again = next(p for p in two.picks if p.workload == chosen.workload)
    assert again.configs[0] == begun and begun not in again.configs[1:]
    assert SweepState(plan, [*measured, extra]).missing(workload_key(chosen.workload), [begun]) == [
        (begun, 1),
        (begun, 2),
    ]


def test_noise_between_repeats_decides_what_is_worth_measuring(
    records: list[Measurement],
) -> None:
    """The same first round with repeats 10x apart: no gain the model sees is beyond that
    noise, so the sweep is done (the rule that ends it, not the plan)."""
    plan = tmpfs_plan()
    measured = first_round(plan, records)
    assert next_choice(SweepState(plan, measured)).unsure > 0
    noisy = [
        dataclasses.replace(m, bandwidth=m.bandwidth * (10.0 if m.repeat == 0 else 1.0))
        for m in measured
    ]
    state = SweepState(plan, noisy)
    assert min(state.noise(k) for k in state.workloads) > 2  # log(10) and more
    choice = next_choice(state)
    planned = sum(len(p.configs) for p in state.workloads.values())
    assert choice.picks == [] and choice.unsure == 0
    first = sum(len(first_configurations(plan, w)) for w in plan.workloads)
    assert choice.unmeasured == planned - first == 210


def test_the_pace_estimates_by_workload_and_by_bytes(records: list[Measurement]) -> None:
    plan = tmpfs_plan()
    small, large = plan.workloads[0], plan.workloads[-1]
    pace = Pace()
    assert pace.estimate(small) is None and pace.total({"x": (small, 3)}) is None
    pace.add(small, 2.0)
    pace.add(small, 4.0)
    assert pace.estimate(small) == 3.0 and pace.count == 2
    # Not measured: seconds per byte moved of what is, times its bytes (4 ranks, not 1).
    assert small.nprocs == 1 and large.nprocs == 4
    assert pace.estimate(large) == pytest.approx(12.0)
    assert pace.total({"a": (small, 2), "b": (large, 1)}) == pytest.approx(18.0)
    # Read back from results: wall_seconds, else the kernel's total_seconds.
    m = records[0]
    timed = dataclasses.replace(m, provenance={**m.provenance, "wall_seconds": 9.5})
    assert Pace.from_measurements([timed]).estimate(m.workload) == 9.5
    assert Pace.from_measurements([m]).estimate(m.workload) == m.provenance["total_seconds"]


def test_a_resumed_sweep_says_what_the_rest_takes(
    records: list[Measurement], tmp_path: Path
) -> None:
    plan = tmpfs_plan()
    results = tmp_path / "r.bench.jsonl"
    assert resume_estimate(plan, results) == (0, None)
    lines = SWEEP.read_text().splitlines()
    results.write_text("\n".join(lines[:300]) + "\n")
    measured, rest = resume_estimate(plan, results)
    assert measured == 300 and rest is not None
    mean = statistics.mean(m.provenance["total_seconds"] for m in records[:300])
    assert rest == pytest.approx(600 * mean, rel=0.5)
    assert "after the first measurements" in _budget_text(1200.0, 0, None, 900)
    said = _budget_text(rest / 2, measured, rest, 900)
    assert "300 of 900 measured already" in said and "more than the budget" in said
    assert "more than" not in _budget_text(None, measured, rest, 900)
    assert "whole plan" in _budget_text(None, measured, rest, 900)


@pytest.mark.parametrize(
    ("text", "seconds"),
    [("90s", 90), ("20m", 1200), ("1h", 3600), ("1h30m", 5400), ("1.5h", 5400), (" 2M ", 120)],
)
def test_durations(text: str, seconds: float) -> None:
    assert parse_duration(text) == seconds


@pytest.mark.parametrize(
    ("text", "said"),
    [
        ("20", "'20' has no unit (s, m or h): 20s or 20m?"),
        ("20 min", "like 90s, 20m, 1h or 1h30m, or none for no limit, got '20 min'"),
        ("-5m", "got '-5m'"),
        ("0s", "more than 0; got '0s'"),
        ("", "got ''"),
        ("soon", "got 'soon'"),
    ],
)
def test_duration_errors_say_what_was_expected_and_what_came(text: str, said: str) -> None:
    with pytest.raises(ConfigError, match=r"^--time-budget must be a duration") as caught:
        parse_duration(text, "--time-budget")
    assert said in str(caught.value)


def test_no_limit_and_durations_as_text() -> None:
    assert parse_duration("none") is None and parse_duration("None") is None
    assert [duration_text(s) for s in (0.84, 45, 1200, 150, 11520)] == [
        "0.8 s",
        "45 s",
        "20 min",
        "2.5 min",
        "3.2 h",
    ]


def test_the_time_left_is_the_rest_at_the_pace_or_the_budget(
    records: list[Measurement], tmp_path: Path
) -> None:
    """The progress bar's eta: the unmeasured rest of the plan at each workload's own pace,
    or the budget's end when that comes first; nothing before a first measurement."""
    import io
    import time

    from rich.console import Console

    from iotuner._progress import progress_bar
    from iotuner.bench._pace import moved_bytes
    from iotuner.bench._run import _LeftColumn, _Sweep
    from iotuner.measurement import System

    plan = tmpfs_plan()
    system = System("vm", "MPICH", "tmpfs", "ufs", "/dev/shm")
    sweep = _Sweep(plan, system, tmp_path, tmp_path, tmp_path / "r.bench.jsonl", [], None)
    assert sweep._eta() == "eta -:--:--"
    slow, fast = plan.workloads[0], plan.workloads[1]
    sweep.pace.add(slow, 10.0)
    sweep.pace.add(fast, 1.0)
    # None measured: the two at their own pace, the others at 11 s per 2 x 32 MiB (one
    # rank each) times the bytes they move (2 and 4 ranks move 2 and 4 times as much).
    rest = 0.0
    for w in plan.workloads:
        n = len(plan.configurations(w)) * plan.repeats
        each = {slow: 10.0, fast: 1.0}.get(w, 11 / (2 * moved_bytes(slow)) * moved_bytes(w))
        rest += n * each
    seconds = round(rest)
    expected = f"{seconds // 3600}:{seconds // 60 % 60:02d}:{seconds % 60:02d}"
    assert sweep._eta() == f"eta {expected}"
    sweep.deadline = time.monotonic() + 600
    sweep.budget = 600.0
    assert sweep._eta() in ("eta 0:10:00 budget", "eta 0:09:59 budget")
    # Drawn whole at 80 columns, after done/planned.
    out = io.StringIO()
    console = Console(file=out, width=80, force_terminal=False)
    with progress_bar(console, _LeftColumn(), transient=False, eta=False) as bar:
        bar.add_task("round 1: " + workload_key(slow), total=900, completed=12, left=sweep._eta())
    assert re.search(r"12/900 \d:\d\d:\d\d eta 0:(10:00|09:59) budget", out.getvalue())


def test_a_round_among_the_programs_cases_chooses_only_theirs(
    records: list[Measurement],
) -> None:
    """Issue 31: the programs' cases get model rounds of their own (two workloads a round
    over all would pick stand for them here); the model still learns from every workload
    measured."""
    plan = tmpfs_plan()
    measured = first_round(plan, records)
    everywhere = next_choice(SweepState(plan, measured))
    picked = [workload_key(p.workload) for p in everywhere.picks]
    only = set(picked[-2:])
    among = next_choice(SweepState(plan, measured), only=only)
    assert among.picks and {workload_key(p.workload) for p in among.picks} <= only
    assert among.unmeasured < everywhere.unmeasured


def test_the_local_search_measures_one_parameter_away_from_each_case_s_best(
    records: list[Measurement],
) -> None:
    """Issue 31: the forest's bounds skipped a value that pays only beside another (a
    16 MiB sieving buffer with collective buffering off): around a case's best measured
    configuration, every configuration one parameter away is measured."""
    plan = tmpfs_plan()
    measured = first_round(plan, records)
    state = SweepState(plan, measured)
    key = workload_key(plan.workloads[0])
    (pick,) = neighbour_picks(state, [key])
    planned = state.workloads[key]
    levels = {
        k: statistics.median(math.log(b) for b in r.values()) for k, r in planned.measured.items()
    }
    best = planned.configs[planned.index[max(levels, key=lambda k: levels[k])]]
    assert pick.configs and all(config_key(c) not in planned.measured for c in pick.configs)
    assert all(sum(c[n] != v for n, v in best.items()) == 1 for c in pick.configs)
    wanted = {
        config_key(c) for c in planned.configs
        if config_key(c) not in planned.measured and sum(c[n] != v for n, v in best.items()) == 1
    }  # fmt: skip
    assert {config_key(c) for c in pick.configs} == wanted
    # Once they are measured, the search moves on from whichever is best then.
    done = SweepState(plan, [*measured, *(m for m in records if workload_key(m.workload) == key)])
    assert neighbour_picks(done, [key]) == []


def test_a_workload_estimated_past_the_measurement_limit_is_not_started() -> None:
    # Issue 41, item 3: the cost of a measurement is estimated before it starts (from the
    # pace of what is measured, by the bytes it moves), and one that would take more
    # than its share of the budget is not started: its workload is left out, said why.
    from iotuner.bench._run import SweepState, _Sweep

    plan = tmpfs_plan()
    small, large = plan.workloads[0], plan.workloads[-1]
    sweep = object.__new__(_Sweep)
    sweep.plan, sweep.state, sweep.pace = plan, SweepState(plan), Pace()
    sweep.budget, sweep.limit = 600.0, 30.0
    sweep.deadline = time.monotonic() + 600
    sweep.too_costly, sweep.dropped, sweep.progress, sweep.out_of_time = {}, [], None, ""
    sweep.pace.add(small, 10.0)  # the large one moves 4x its bytes: about 40 s
    lines = sweep.state.missing(workload_key(large), plan.configurations(large))
    assert sweep._fitting(large, lines) == []
    (why,) = sweep.too_costly.values()
    assert why.startswith("one measurement takes about 40 s, more than the 30 s one measurement")
    assert workload_key(large) not in sweep.state.workloads  # left out of the rest of the run
    small_lines = sweep.state.missing(workload_key(small), plan.configurations(small))
    assert sweep._fitting(small, small_lines) == small_lines  # 10 s: inside its share
    assert sweep.out_of_time == ""
