"""Numeric knobs as ranges: parsing, counting, validating, sampling, and clear errors."""

import numpy as np
import pytest

from iotuner.space import MAX_ENUMERATED, IntRange, SpaceError, load_space, parse_space

RANGES = """
name = "r"
[hints.striping_unit]
range = { low = 65536, high = 1048576, step = 65536, log = true }
values = ["default", 262144]
default = "default"
[hints.cb_nodes]
range = { low = 1, high = 8 }
default = 1
[hints.romio_cb_write]
values = ["automatic", "disable"]
default = "automatic"
"""


def test_a_range_counts_every_point_and_enumerates_them_default_first() -> None:
    space = parse_space(RANGES, "r.toml")
    unit, nodes, _ = space.parameters
    assert unit.range == IntRange(65536, 1048576, 65536, log=True)
    assert unit.count == 16 + 1  # 64 KiB .. 1 MiB in 64 KiB steps, and "default"
    assert nodes.values == (1,) and nodes.count == 8  # the default is listed for it
    assert space.size == 17 * 8 * 2 and not space.listed
    configs = list(space.configurations())
    assert configs[0] == space.default()
    assert len(configs) == space.size
    assert len({tuple(c.values()) for c in configs}) == space.size
    assert {c["striping_unit"] for c in configs} == {"default", *range(65536, 1048577, 65536)}


def test_validate_takes_range_points_and_refuses_the_rest() -> None:
    space = parse_space(RANGES, "r.toml")
    assert space.validate({"striping_unit": "196608"})["striping_unit"] == 196608
    assert space.validate({"cb_nodes": 7.0})["cb_nodes"] == 7
    with pytest.raises(SpaceError, match=r"an integer in 65536\.\.1048576 step 65536"):
        space.validate({"striping_unit": 100000})  # between two points
    with pytest.raises(SpaceError, match=r"cb_nodes must be one of \[1\] or an integer in 1\.\.8"):
        space.validate({"cb_nodes": 9})


def test_what_training_may_learn_from() -> None:
    space = parse_space(RANGES, "r.toml")
    unit, nodes, cb_write = space.parameters
    assert unit.admits(100000) and unit.admits("default") and not unit.admits(2097152)
    assert nodes.admits(8) and not nodes.admits(0)
    assert not cb_write.admits("enable")  # a text value the space does not list
    listed = parse_space(
        'name = "l"\n[hints.cb_nodes]\nvalues = ["default", 1, 2, 4]\ndefault = "default"\n', "l"
    ).parameters[0]
    assert listed.admits(3) and listed.admits("16") and not listed.admits(0)


def test_sampling_is_seeded_and_stays_in_the_space() -> None:
    space = load_space("lustre-ranges")
    first = space.sample(500, np.random.default_rng(7))
    assert first == space.sample(500, np.random.default_rng(7))
    assert first != space.sample(500, np.random.default_rng(8))
    for config in first:
        assert space.validate(config) == config
    units = [c["striping_unit"] for c in first if isinstance(c["striping_unit"], int)]
    # log sampling: as many draws below 1 MiB (64 KiB .. 1 MiB) as above 4 MiB, roughly.
    small = sum(u <= 1 << 20 for u in units)
    assert small > len(units) / 5 and small < len(units) * 3 / 5
    for neighbour in space.neighbours(first[0]):
        assert space.validate(neighbour) == neighbour


def test_the_shipped_range_space_is_about_a_billion_and_not_enumerated() -> None:
    space = load_space("lustre-ranges")
    assert 5e8 < space.size < 2e9
    with pytest.raises(SpaceError, match="more than the 1,000,000 iotuner enumerates"):
        space.configurations()
    assert MAX_ENUMERATED == 1_000_000


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        ("range = { low = 8, high = 2 }\ndefault = 8", "low must not exceed high, got low 8"),
        ("range = { low = 1.5, high = 2 }\ndefault = 2", "range.low must be an integer, got 1.5"),
        ("range = { high = 2 }\ndefault = 2", "range.low must be an integer, got nothing"),
        ("range = { low = 0, high = 8, log = true }\ndefault = 1", "log range needs low > 0"),
        ("range = { low = 1, high = 8, step = 0 }\ndefault = 1", "step must be at least 1"),
        ("range = { low = 1, high = 8, step = 2 }\ndefault = 1", "high must be low plus a whole"),
        ("range = { low = 1, high = 8, lg = true }\ndefault = 1", "unknown key(s) lg"),
        ("range = [1, 8]\ndefault = 1", "must be a table like"),
        ("range = { low = 1, high = 8 }\nvalues = [2, 16]\ndefault = 2", "got [16]"),
        ("range = { low = 1, high = 8 }\ndefault = 9", "default must be one of [] or a point"),
        ("range = { low = 1, high = 8 }\ndefault = 'default'", "default must be one of []"),
        ("range = { low = 0, high = 8 }\ndefault = 1", "hint cb_nodes must be a count 1-65536"),
    ],
)
def test_bad_ranges_are_explained(spec: str, message: str) -> None:
    with pytest.raises(SpaceError) as raised:
        parse_space(f'name = "bad"\n[hints.cb_nodes]\n{spec}\n', "bad.toml")
    assert "bad.toml" in str(raised.value)
    assert message in str(raised.value)


def test_a_range_step_keeps_to_the_vocabulary_multiple() -> None:
    text = (
        'name = "bad"\n[hints.striping_unit]\n'
        "range = { low = 65536, high = 196608, step = 1024 }\ndefault = 65536\n"
    )
    with pytest.raises(SpaceError, match="multiple of 65536"):
        parse_space(text, "bad.toml")
