"""bench --from-logs (issue 31, item 2): the cases the programs' logs show become kernel
workloads measured first, the most I/O time first, with every configuration that can act
on them; the rest of the first round goes nearest those cases first, or where the
configurations differed most; input that is no log is refused in one line."""

import importlib.resources
from pathlib import Path

import pytest

from iotuner.bench import (
    BenchPlan,
    SweepState,
    calls_per_open_for,
    configurations_for,
    parse_layout,
    program_cases,
    workload_key,
)
from iotuner.bench._order import next_workload
from iotuner.errors import ConfigError
from iotuner.measurement import Measurement
from iotuner.space import load_space

ROOT = Path(__file__).resolve().parents[2]
TRACE = ROOT / "tests" / "data" / "ior-20250101-120000-4242-0123456789ab.iotrace.jsonl"
DARSHAN = Path(str(importlib.resources.files("darshan") / "examples"))


def darshan_example(name: str) -> Path:
    (found,) = DARSHAN.rglob(name)
    return found


def test_the_cases_of_a_darshan_log_most_time_first() -> None:
    # IOR through HDF5 on 4 ranks: independent writes of ~178 KiB for 0.13 s, reads of
    # 256 KiB for 0.02 s; POSIX-only files are no case (no hint reaches them).
    cases, left_out = program_cases([darshan_example("ior_hdf5_example.darshan")], 4)
    assert [(c.workload.op, c.workload.pattern) for c in cases] == [
        ("write", "independent"),
        ("read", "independent"),
    ]
    assert cases[0].seconds > cases[1].seconds > 0
    assert cases[0].programs == ("ior",)
    for case in cases:
        w = case.workload
        # The kernel's workload: one shared file on this host, the program's calls per open
        # (the log's: one write and two reads per open), no more than the sweep's.
        assert (w.program, w.files, w.nodes, w.nprocs) == ("iokernel", 1, 1, 4)
        assert w.calls_per_open <= calls_per_open_for(w.bytes_per_rank)
    assert [c.workload.calls_per_open for c in cases] == [1, 2]
    assert cases[1].workload.bytes_per_rank == 256 * 1024
    assert left_out == []


def test_what_the_kernel_cannot_run_is_left_out_and_said() -> None:
    # A 2-host trace and a Darshan log of more ranks than the sweep's largest scale.
    cases, left_out = program_cases([TRACE], 64)
    assert cases == []
    assert left_out and "more than one host" in left_out[0] and "s of I/O" in left_out[0]
    cases, left_out = program_cases([darshan_example("example.darshan")], 4)
    assert cases == [] and any("more than 4 ranks (the largest --nprocs)" in n for n in left_out)


def test_a_strided_view_of_unknown_block_runs_with_the_sweeps_block() -> None:
    # pio_noncontig (github wkliao/mpi-io-examples) reads through a subarray view: strided,
    # block unknown. The table tells strided cases apart by size group, so the kernel
    # measures that group with the sweep's strided block; without one, it is left out.
    subarray = ROOT / "tests" / "data" / "subarray"
    cases, left_out = program_cases([subarray], 2)
    assert cases == [] and left_out == [
        "left out: strided with a block the logs do not tell (0.0433 s of I/O)"
    ]
    (case,), left_out = program_cases([subarray], 2, stand_in=(4096, 0.5))
    w = case.workload
    assert (w.pattern, w.op, w.layout, w.block, w.fill) == (
        "collective",
        "read",
        "strided",
        4096,
        0.5,
    )
    assert w.bytes_per_rank % 4096 == 0 and case.programs == ("pio_noncontig",)
    assert "the sweep's block: the logs' is unknown" in case.describe() and left_out == []


def test_input_that_is_no_log_is_refused_in_one_line(tmp_path: Path) -> None:
    empty = tmp_path / "empty"
    empty.mkdir()
    results = tmp_path / "r.bench.jsonl"
    results.write_text('{"format": "iotuner-bench", "version": 1}\n')
    text = tmp_path / "notes.txt"
    text.write_text("hello\n")
    for path, said in (
        (tmp_path / "missing", "no such file or folder"),
        (empty, "no trace logs (*.iotrace.jsonl) or Darshan logs (*.darshan) in the folder"),
        (results, "takes trace logs and Darshan logs (or folders of them), got"),
        (text, "cannot tell what kind of file this is"),
    ):
        with pytest.raises(ConfigError, match=r"^--from-logs") as caught:
            program_cases([path], 2)
        assert said in str(caught.value) and "\n" not in str(caught.value)


def plan(**given: object) -> BenchPlan:
    return BenchPlan(
        load_space("first-sweep"),
        [2],
        ["collective", "independent"],
        [parse_layout("contiguous")],
        ["write"],
        [1024, 1 << 20],
        **given,  # type: ignore[arg-type]
    )


def test_a_case_gets_every_configuration_and_leaves_the_sweep_id() -> None:
    generic = plan(max_configs=2)
    case = generic.workloads[0]
    strided = BenchPlan(
        load_space("first-sweep"), [2], ["collective"], [parse_layout("strided:16k:0.25")],
        ["write"], [2 << 20],
    ).workloads[0]  # fmt: skip
    with_cases = plan(max_configs=2, cases=[case, strided])
    assert with_cases.sweep_id == generic.sweep_id  # a resumed sweep keeps its measurements
    assert len(with_cases.workloads) == len(generic.workloads) + 1  # the case of the plan once
    assert len(generic.configurations(case)) == 2  # sampled
    for w in (case, strided):
        assert with_cases.configurations(w) == configurations_for(with_cases.space, w)
        assert len(with_cases.configurations(w)) == 18  # every one that can act on a write


def measured(p: BenchPlan, key: str, bandwidths: list[float]) -> list[Measurement]:
    """One repeat per configuration of workload `key`, at these bandwidths in order."""
    workload = next(w for w in p.workloads if workload_key(w) == key)
    configs = p.configurations(workload)
    return [
        Measurement(f"{key}:{n}", workload, config, bandwidth, 1.0, 1 << 20)
        for n, (config, bandwidth) in enumerate(zip(configs, bandwidths, strict=False))
    ]


def test_the_first_round_goes_near_the_cases_then_where_configurations_differed() -> None:
    p = plan()
    small_collective, large_collective, small_independent, large_independent = (
        workload_key(w) for w in sorted(p.workloads, key=lambda w: (w.pattern, w.bytes_per_rank))
    )
    order = {workload_key(w): n for n, w in enumerate(p.workloads)}
    # Collective buffering made a 10x difference at 1 KiB collective, none at 1 MiB
    # independent: the workload whose nearest measured one differed most comes next.
    state = SweepState(
        p,
        [
            *measured(p, small_collective, [10.0, 100.0, 50.0]),
            *measured(p, large_independent, [100.0, 101.0, 100.5]),
        ],
    )
    pending = [large_collective, small_independent]
    assert next_workload(state, pending, [], order) == small_independent
    # A program's case at 1 MiB collective: its workload first, whatever differed where.
    near = [w for w in p.workloads if workload_key(w) == large_collective]
    assert next_workload(state, pending, near, order) == large_collective
    # Nothing measured and no case: the plan's seeded order.
    assert next_workload(SweepState(p), pending, [], order) == min(pending, key=order.get)


def test_a_case_runs_the_programs_calls_but_never_a_huge_measurement() -> None:
    """The program's calls per open where they fit the sweep's volume per open; a call
    larger than that volume runs once per open (not the sweep's two): the case keeps the
    program's bytes per call and pieces, and only its call count shrinks."""
    from iotuner.bench._programs import _calls

    assert _calls(program=3, size=4096, open_bytes=64 << 20, max_calls=1024) == 3
    assert _calls(program=40_000, size=116, open_bytes=64 << 20, max_calls=1024) == 1024
    assert _calls(program=34, size=256 << 20, open_bytes=64 << 20, max_calls=1024) == 1
    assert _calls(program=34, size=32 << 20, open_bytes=64 << 20, max_calls=1024) == 2
