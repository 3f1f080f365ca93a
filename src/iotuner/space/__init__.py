"""Parameter spaces: the knobs a sweep or a search may turn, read from a TOML file.

A configuration assigns every parameter one of its values. A parameter at its default is
not passed at all, so the default configuration is exactly "no hints": what a user gets
without iotuner. The spaces we ship live in iotuner/spaces/ (`iotuner space list`).

One parameter, its values and its range (_parameters); a space, its configurations
(enumerated, sampled, a configuration's neighbours) and their keys (_space); the TOML file
and the shipped spaces (_file, whose parse_space shows the format).
"""

from iotuner.space._file import MAX_SPACE_BYTES as MAX_SPACE_BYTES
from iotuner.space._file import load_space, parse_space, shipped_spaces, space_from_dict
from iotuner.space._parameters import SUGGESTED_SHARE as SUGGESTED_SHARE
from iotuner.space._parameters import IntRange, Parameter
from iotuner.space._parameters import Value as Value
from iotuner.space._space import MAX_ENUMERATED, Configuration, Space, SpaceError, config_key

__all__ = [
    "MAX_ENUMERATED",
    "Configuration",
    "IntRange",
    "Parameter",
    "Space",
    "SpaceError",
    "config_key",
    "load_space",
    "parse_space",
    "shipped_spaces",
    "space_from_dict",
]
