"""A space: named parameters whose cartesian product is its configurations.

A configuration assigns every parameter one of its values; a parameter at its default is not
passed at all, so the default configuration is exactly "no hints". A space's `size` counts
every point; `configurations()` enumerates them lazily, but refuses a space of more than
MAX_ENUMERATED configurations (as Python objects they would not fit in memory): bench and
grid search need listed spaces of that size, `sample()` draws from any space, and `tune`
optimises over the model instead.
"""

import itertools
import math
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from iotuner.errors import IotunerError
from iotuner.measurement import NOT_SET
from iotuner.space._parameters import Parameter, Value, parameter_table

Configuration = dict[str, Value]
"""Parameter name -> value; every parameter of the space has one."""

MAX_ENUMERATED = 1_000_000
"""The most configurations `Space.configurations()` enumerates: a million configurations as
dictionaries already take about a gigabyte."""


class SpaceError(IotunerError):
    """A parameter space file is missing, unreadable or not valid."""


@dataclass(frozen=True)
class Space:
    """A named set of parameters; configurations are their cartesian product."""

    name: str
    description: str
    parameters: tuple[Parameter, ...]
    source: Path | None = None

    @property
    def size(self) -> int:
        """How many configurations the space holds (every point of every range)."""
        return math.prod(p.count for p in self.parameters)

    @property
    def listed(self) -> bool:
        """True when no parameter is a range."""
        return all(p.range is None for p in self.parameters)

    def parameter(self, name: str) -> Parameter:
        for p in self.parameters:
            if p.name == name:
                return p
        raise SpaceError(f"space {self.name!r} has no parameter {name!r}")

    def to_dict(self) -> dict[str, Any]:
        """The space as the tables of its TOML file, plus `order`, the parameters in the
        space's order (a JSON writer may sort the tables' keys); JSON-ready. space_from_dict
        reads it back (a saved model keeps its space so, iotuner.models._saved)."""
        data: dict[str, Any] = {"name": self.name, "description": self.description}
        for kind, section in (("hint", "hints"), ("app", "app")):
            table = {p.name: parameter_table(p) for p in self.parameters if p.kind == kind}
            if table:
                data[section] = table
        data["order"] = [p.name for p in self.parameters]
        return data

    def default(self) -> Configuration:
        return {p.name: p.default for p in self.parameters}

    def configurations(self) -> Iterator[Configuration]:
        """Every configuration, the default first, the rest in a fixed order; SpaceError
        for a space of more than MAX_ENUMERATED configurations."""
        if self.size > MAX_ENUMERATED:
            ranges = [p.name for p in self.parameters if p.range is not None]
            raise SpaceError(
                f"space {self.name!r} has {self.size:.3g} configurations, more than the "
                f"{MAX_ENUMERATED:,} iotuner enumerates"
                + (f" (ranges: {', '.join(ranges)})" if ranges else "")
                + ": bench and grid search need a space that lists fewer values; "
                "search it with a sampler, or tune over a model"
            )
        return self._enumerate()

    def _enumerate(self) -> Iterator[Configuration]:
        default = self.default()
        yield default
        names = [p.name for p in self.parameters]
        for values in itertools.product(*(p.points() for p in self.parameters)):
            config = dict(zip(names, values, strict=True))
            if config != default:
                yield config

    def sample(self, n: int, rng: np.random.Generator) -> list[Configuration]:
        """`n` configurations drawn independently per parameter (Parameter.sample); repeats
        are possible. The same generator state gives the same configurations."""
        columns = {p.name: p.sample(rng, n) for p in self.parameters}
        return [{name: column[i] for name, column in columns.items()} for i in range(n)]

    def neighbours(self, config: Configuration) -> Iterable[Configuration]:
        """The configurations one parameter away (Parameter.neighbours), for a local search."""
        for p in self.parameters:
            for value in p.neighbours(config[p.name]):
                yield {**config, p.name: value}

    def hints(self, config: Mapping[str, Value]) -> dict[str, str]:
        """The MPI info keys to pass for a configuration (defaults are left out)."""
        hints: dict[str, str] = {}
        for p in self.parameters:
            value = config.get(p.name, p.default)
            if p.kind != "hint" or value == p.default:
                continue
            hints[p.name] = str(value)
            hints.update(p.with_keys)
        return hints

    def app_values(self, config: Mapping[str, Value]) -> dict[str, str]:
        """The application parameters of a configuration, by name, as text."""
        return {
            p.name: str(config.get(p.name, p.default)) for p in self.parameters if p.kind == "app"
        }

    def validate(self, config: Mapping[str, Value]) -> Configuration:
        """The configuration completed with defaults; SpaceError for unknown names or values."""
        unknown = set(config) - {p.name for p in self.parameters}
        if unknown:
            raise SpaceError(
                f"unknown parameter(s) {', '.join(sorted(unknown))} for space {self.name!r}"
            )
        complete: Configuration = {}
        for p in self.parameters:
            value = p.value_of(config.get(p.name, p.default))
            if value is None:
                raise SpaceError(f"{p.name} must be {p.describe()}, got {config.get(p.name)!r}")
            complete[p.name] = value
        return complete


def config_key(config: Mapping[str, Value]) -> str:
    """A canonical text for a configuration (sorted name=value pairs), for keys and labels."""
    return ",".join(f"{name}={config[name]}" for name in sorted(config)) or NOT_SET
