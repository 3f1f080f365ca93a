"""bench's plan: calls per open, and the largest size scaled to memory and disk (given to
size_limit, not read off this machine)."""

import dataclasses
from pathlib import Path

import pytest

from iotuner.bench import (
    LARGEST_CALL,
    MAX_CALLS,
    MIN_CALLS,
    OPEN_BYTES,
    BenchPlan,
    calls_per_open_for,
    default_sizes,
    kernel_command,
    parse_layout,
    plan_sizes,
    size_limit,
)
from iotuner.bench._plan import kernel_workload
from iotuner.errors import ConfigError
from iotuner.measurement import Workload
from iotuner.space import load_space

GIB, MIB = 1 << 30, 1 << 20


def test_calls_per_open_fill_an_open_within_bounds() -> None:
    assert calls_per_open_for(1024) == MAX_CALLS  # 64 MiB of 1 KiB calls would be 65536
    assert calls_per_open_for(1 * MIB) == OPEN_BYTES // MIB == 64
    assert calls_per_open_for(10_240_000) == 7  # rounded up: at least 64 MiB per open
    assert calls_per_open_for(100 * MIB) == calls_per_open_for(GIB) == MIN_CALLS
    assert calls_per_open_for(4096, open_bytes=64 * 1024, max_calls=8) == 8
    with pytest.raises(ConfigError, match="at least 1 byte"):
        calls_per_open_for(0)


def test_default_sizes_reach_the_limit_up_to_one_gib() -> None:
    decades = [1024, 10240, 102400, 1024000, 10240000, 102400000]
    assert default_sizes(16 * MIB) == decades[:5]  # as before: no size above the limit
    assert default_sizes(4 * GIB) == [*decades, GIB]
    assert default_sizes(300 * MIB) == [*decades, 300 * MIB]
    assert default_sizes(102400000) == decades  # the top is the last decade itself
    assert max(default_sizes(GIB)) == LARGEST_CALL


def test_the_limit_follows_memory_and_disk(tmp_path: Path) -> None:
    roomy = size_limit(tmp_path, 2, memory=64 * GIB, disk=1 << 44)
    assert roomy.size == GIB and "largest call" in roomy.reason
    # A quarter of 4 GiB of memory over 4 ranks: 256 MiB per call.
    small_memory = size_limit(tmp_path, 4, memory=4 * GIB, disk=1 << 44)
    assert small_memory.size == 256 * MIB
    assert (
        "memory decides" in small_memory.reason and "4 GiB available memory" in small_memory.reason
    )
    # A quarter of 8 GiB of disk: 2 ranks x 2 calls x size <= 2 GiB, so 512 MiB per call;
    # with fill 0.5 (holes that data sieving may fill) half of that.
    small_disk = size_limit(tmp_path, 2, memory=64 * GIB, disk=8 * GIB)
    assert small_disk.size == 512 * MIB and "disk decides" in small_disk.reason
    assert size_limit(tmp_path, 2, 0.5, memory=64 * GIB, disk=8 * GIB).size == 256 * MIB
    # The file of the chosen size fits, one byte more would not.
    for limit in (small_disk.size, 256 * MIB):
        fill = 1.0 if limit == small_disk.size else 0.5
        file_bytes = 2 * limit * calls_per_open_for(limit) / fill
        assert file_bytes <= 2 * GIB < 2 * (limit + 1) * calls_per_open_for(limit + 1) / fill
    # Tiny disks still give a size, with the count of calls the rule gives there.
    tiny = size_limit(tmp_path, 2, memory=64 * GIB, disk=1 << 20)
    assert 1 <= tiny.size < 1 << 20


def test_plan_sizes_says_how_they_were_chosen(tmp_path: Path) -> None:
    layouts = [parse_layout("contiguous"), parse_layout("strided:4k:0.5")]
    sizes, why = plan_sizes(None, "auto", tmp_path, [2, 4], layouts)
    assert sizes == default_sizes(sizes[-1]) and "per call" in why and str(tmp_path) in why
    assert "4 rank(s)" in why and "fill 0.5" in why  # the largest scale, the smallest fill
    assert plan_sizes("4k,1m", "auto", tmp_path, [2], layouts) == ([4096, MIB], "sizes as given")
    assert plan_sizes(None, "16m", tmp_path, [2], layouts)[0] == default_sizes(16 * MIB)
    with pytest.raises(ConfigError, match="does not exist"):
        plan_sizes(None, "auto", tmp_path / "missing", [2], layouts)


def test_workloads_carry_their_calls_per_open_to_the_kernel() -> None:
    plan = BenchPlan(
        load_space("demo-small"),
        [2],
        ["collective"],
        [parse_layout("contiguous"), parse_layout("strided:4k:0.5")],
        ["write"],
        [1000, 512 * 1024, GIB],
        open_bytes=8 * MIB,
    )
    calls = {(w.layout, w.bytes_per_rank): w.calls_per_open for w in plan.workloads}
    assert calls == {
        ("contiguous", 1000): MAX_CALLS,
        ("contiguous", 512 * 1024): 16,
        ("contiguous", GIB): MIN_CALLS,
        ("strided", 4096): MAX_CALLS,  # 1000 B rounded up to one block
        ("strided", 512 * 1024): 16,
        ("strided", GIB): MIN_CALLS,
    }
    assert "512 KiB x 16" in plan.calls_text() and "1 GiB x 2" in plan.calls_text()
    moved = sum(2 * w.bytes_per_rank * w.calls_per_open * 18 for w in plan.workloads)
    assert plan.data_bytes() == moved * plan.repeats
    workload = next(w for w in plan.workloads if w.bytes_per_rank == 512 * 1024)
    command = kernel_command(workload, Path("/x"))
    assert command[command.index("--repeat") + 1] == "16"
    assert command[command.index("--size") + 1] == str(512 * 1024)
    # Another rule is another sweep: results of one never resume the other.
    other = BenchPlan(
        plan.space, [2], ["collective"], list(plan.layouts), ["write"], list(plan.sizes)
    )
    assert other.sweep_id != plan.sweep_id


def test_the_plan_fills_what_the_kernel_tells_of_a_workload() -> None:
    plan = BenchPlan(
        load_space("demo-small"),
        [1, 2],
        ["collective"],
        [parse_layout("contiguous"), parse_layout("strided:4k:0.5")],
        ["write"],
        [4096],
    )
    told = {
        (w.nprocs, w.layout): (w.program, w.files, w.ranks_per_node, w.interleaved)
        for w in plan.workloads
    }
    # The strided layout puts writer w's k-th block in slot k*W + w, and the contiguous
    # one call p of writer w at (p*W + w)*size: at two ranks, with 1024 calls per open,
    # both take turns; at one rank there is nobody to take turns with.
    assert all(w.calls_per_open > 1 for w in plan.workloads)
    assert told == {
        (1, "contiguous"): ("iokernel", 1, 1, False),
        (1, "strided"): ("iokernel", 1, 1, False),
        (2, "contiguous"): ("iokernel", 1, 2, True),
        (2, "strided"): ("iokernel", 1, 2, True),
    }
    # One contiguous call per rank: the ranks' pieces lie side by side, each once.
    single = kernel_workload(Workload(2, 1, "collective", "write", "contiguous", 4096))
    assert single.interleaved is False
    assert all(w.stripe_count is None and w.stripe_size is None for w in plan.workloads)
    # What a source says already is kept; ranks spread evenly over nodes, rounded up.
    spread = Workload(5, 2, "independent", "read", "contiguous", 4096, program="mine")
    assert kernel_workload(spread).ranks_per_node == 3
    assert kernel_workload(spread).program == "mine"


def test_a_sample_of_configurations_does_not_depend_on_the_newer_fields() -> None:
    """A sweep resumed by an iotuner with more workload fields measures the same sample."""
    plan = BenchPlan(
        load_space("demo-small"),
        [2],
        ["collective"],
        [parse_layout("contiguous")],
        ["write"],
        [4096],
        max_configs=5,
        seed=3,
    )
    workload = plan.workloads[0]
    bare = dataclasses.replace(workload, program=None, files=None, ranks_per_node=None)
    assert workload.program == "iokernel"
    assert plan.configurations(workload) == plan.configurations(bare)


def test_workloads_that_meet_after_rounding_are_planned_once() -> None:
    """1000 B and 4 KiB strided in 4 KiB blocks are both one block per call: one workload,
    counted once in the plan's measurements."""
    plan = BenchPlan(
        load_space("demo-small"),
        [2],
        ["independent"],
        [parse_layout("strided:4k:0.5")],
        ["write"],
        [1000, 4096],
        repeats=2,
    )
    assert [w.bytes_per_rank for w in plan.workloads] == [4096]
    assert plan.measurements() == 3 * 2  # romio_ds_write's 3 values, twice
    configs = plan.configurations(plan.workloads[0])
    configs[0]["romio_ds_write"] = "changed"  # a copy: the plan keeps its own
    assert plan.configurations(plan.workloads[0])[0]["romio_ds_write"] == "automatic"


def test_relevance_is_read_from_the_hint_vocabulary() -> None:
    """Which keys can matter to a sweep's workload is hints.def's `ops` column, not guessed
    from the key's name: striping acts only on writes (a file is striped when created),
    the Lustre driver's collective keys not on independent writes."""
    from iotuner.bench import relevant
    from iotuner.measurement import Workload
    from iotuner.space import Parameter

    def hint(name: str, *values: object) -> Parameter:
        return Parameter(name, "hint", ("default", *values), "default")

    read = Workload(2, 1, "collective", "read", "contiguous", 65536)
    independent_write = Workload(2, 1, "independent", "write", "contiguous", 65536)
    assert not relevant(hint("striping_factor", 4), read)
    assert relevant(hint("striping_factor", 4), independent_write)
    assert not relevant(hint("romio_lustre_ds_in_coll", "enable"), independent_write)
    assert relevant(hint("romio_ds_read", "enable"), read)
