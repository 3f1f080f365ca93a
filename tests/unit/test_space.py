"""Parameter spaces: the shipped ones, and clear errors for bad files."""

import dataclasses
import json

import pytest

from iotuner.space import (
    SpaceError,
    config_key,
    load_space,
    parse_space,
    shipped_spaces,
    space_from_dict,
)

GOOD = """
name = "t"
[hints.romio_cb_write]
values = ["automatic", "disable", "enable"]
default = "automatic"
[hints.cb_nodes]
values = ["default", 1, 2]
default = "default"
with = { cb_config_list = "*:*" }
[app.buffer]
values = [1, 2]
default = 1
env = "BUF"
"""


def test_shipped_spaces_load() -> None:
    sizes = {name: load_space(name).size for name in shipped_spaces()}
    assert sizes["thesis-lustre"] == 6 * 6 * 3  # Table 5.1's 5 x 5 x 3, plus "default"
    assert sizes["demo-small"] == 18
    assert sizes["romio-ufs"] > 1000


def test_configurations_default_first_and_complete() -> None:
    space = parse_space(GOOD, "t.toml")
    configs = list(space.configurations())
    assert len(configs) == space.size == 3 * 3 * 2
    assert configs[0] == space.default()
    assert len({config_key(c) for c in configs}) == len(configs)


def test_hints_leave_defaults_out_and_bring_their_companions() -> None:
    space = parse_space(GOOD, "t.toml")
    assert space.hints(space.default()) == {}
    config = {**space.default(), "cb_nodes": 2, "buffer": 2}
    assert space.hints(config) == {"cb_nodes": "2", "cb_config_list": "*:*"}
    assert space.app_values(config) == {"buffer": "2"}


def test_validate_completes_and_checks() -> None:
    space = parse_space(GOOD, "t.toml")
    assert space.validate({"cb_nodes": "2"})["cb_nodes"] == 2
    with pytest.raises(SpaceError, match="cb_nodes must be one of"):
        space.validate({"cb_nodes": 7})
    with pytest.raises(SpaceError, match="unknown parameter"):
        space.validate({"nope": 1})


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("name = 't'\n[hints.a]\nvalues = [1, 2]\n", "a.default is missing"),
        ("name = 't'\n[hints.a]\nvalues = [1, 2]\ndefault = 3\n", "default must be one of"),
        ("name = 't'\n[hints.a]\nvalues = []\ndefault = 1\n", "non-empty list"),
        ("name = 't'\n[hints.a]\nvalues = [1, 1]\ndefault = 1\n", "duplicates"),
        ("name = 't'\n[hints.a]\nvalues = [1.5]\ndefault = 1.5\n", "strings or integers"),
        ("name = 't'\n[hints.a]\nvalues = [1]\ndefault = 1\nenv = 'X'\n", "env"),
        ("name = 't'\n[app.a]\nvalues = [1]\ndefault = 1\nwith = {b = 'c'}\n", "hints only"),
        ("name = 't'\n[hints.a]\nvalues = [1]\ndefault = 1\nvalue = 2\n", "unknown key"),
        ("name = 't'\n", "no parameters"),
        ("[hints.a]\nvalues = [1]\ndefault = 1\n", "'name' must be"),
        ("name = 't'\nsize = 3\n", "unknown key(s) size"),
        ("name = 't\n", "not valid TOML"),
    ],
)
def test_bad_space_files_are_explained(text: str, message: str) -> None:
    with pytest.raises(SpaceError) as raised:
        parse_space(text, "bad.toml")
    assert "bad.toml" in str(raised.value)
    assert message in str(raised.value)


def test_unknown_space_name_lists_the_shipped_ones() -> None:
    with pytest.raises(SpaceError, match="shipped: demo-small"):
        load_space("no-such-space")


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        ('[hints.cb_buffer_size]\nvalues = ["abc", 16777216]\ndefault = 16777216\n',
         "hint cb_buffer_size must be a byte count 65536-1073741824"),
        ('[hints.ind_rd_buffer_size]\nvalues = [0, 4194304]\ndefault = 4194304\n',
         "hint ind_rd_buffer_size must be a byte count"),
        ('[hints.romio_no_indep_rw]\nvalues = ["false", "true"]\ndefault = "false"\n',
         "hint romio_no_indep_rw must be one of false"),
        ('[hints.romio_go_faster]\nvalues = ["yes", "no"]\ndefault = "no"\n',
         "'romio_go_faster' is not in the hint vocabulary"),
        ('[hints.cb_nodes]\nvalues = ["default", 2]\ndefault = "default"\n'
         'with = { cb_config_list = "nosuchhost:1" }\n',
         "hint cb_config_list must be one of *:*|*:1"),
    ],
)  # fmt: skip
def test_a_space_may_only_pass_what_the_hint_vocabulary_allows(spec: str, message: str) -> None:
    with pytest.raises(SpaceError) as info:
        parse_space(f'name = "bad"\n{spec}', "bad.toml")
    assert message in str(info.value)


def test_the_shipped_spaces_keep_to_the_hint_vocabulary() -> None:
    for name in shipped_spaces():
        load_space(name)  # raises SpaceError for any value hints.def forbids


def test_a_space_survives_its_dict_form() -> None:
    """A saved model keeps its space as Space.to_dict (JSON); space_from_dict gives the same
    space back, ranges, companions (with) and environment variables included."""
    spaces = [load_space(name) for name in shipped_spaces()] + [parse_space(GOOD, "good")]
    for space in spaces:
        # sort_keys, as a model's metadata is written: the order survives in `order`.
        data = json.loads(json.dumps(space.to_dict(), sort_keys=True))
        assert space_from_dict(data, "saved") == dataclasses.replace(space, source=None)
    assert any(p.range is not None for s in spaces for p in s.parameters)
    assert load_space("demo-small").to_dict()["hints"]["cb_buffer_size"] == {
        "values": [1048576, 16777216],
        "default": 16777216,
    }
    with pytest.raises(SpaceError, match="saved: 'name' must be"):
        space_from_dict({"hints": {}}, "saved")
    with pytest.raises(SpaceError, match="must be a table"):
        space_from_dict(["name"], "saved")
    data = load_space("demo-small").to_dict()
    with pytest.raises(SpaceError, match="'order' must list the parameters"):
        space_from_dict({**data, "order": ["romio_ds_write"]}, "saved")
    with pytest.raises(SpaceError, match="unknown key"):  # a file has no order key
        parse_space('name = "x"\norder = []\n[hints.cb_nodes]\nvalues = [1]\ndefault = 1', "f")
