"""Parameter spaces: the knobs a sweep or a search may turn, read from a TOML file.

```toml
name = "romio-ufs"
description = "what this space is for"

[hints.romio_cb_write]                  # an MPI info key
values = ["automatic", "disable", "enable"]
default = "automatic"                   # what the library does when the key is absent

[hints.cb_nodes]
values = [1, 2, 4]
default = 1
with = { cb_config_list = "*:*" }       # keys passed along when the value is not the default

[app.buffer_size]                       # an application parameter
values = [1048576, 4194304]
default = 1048576
env = "APP_BUFFER_SIZE"                 # or no env: substituted as {buffer_size} in arguments

[hints.striping_unit]                   # a numeric knob as a range of integers
range = { low = 65536, high = 67108864, step = 65536, log = true }
values = ["default", 1048576]           # optional: suggested values, and words beside the range
default = "default"
```

A configuration assigns every parameter one of its values. A parameter at its default is
not passed at all, so the default configuration is exactly "no hints": what a user gets
without iotuner. The spaces we ship live in iotuner/spaces/ (`iotuner space list`).

Ranges. `range` makes a parameter take every integer low, low + step, ..., high (step 1
unless given; high must be one of them); `log = true` says the scale that matters is the
ratio (sizes, counts), so sampling is even in the logarithm and low must be positive. Its
`values` are then optional: integers listed there are suggestions and must be points of the
range, words ("default": not passed) are extra choices beside it. The default is a listed
value or a point of the range. A space's `size` counts every point; `configurations()`
enumerates them lazily, but refuses a space of more than MAX_ENUMERATED configurations (as
Python objects they would not fit in memory): bench and grid search need listed spaces of
that size, `sample()` draws from any space, and `tune` optimises over the model instead. For
an Optuna search a range is IntDistribution(low, high, step=step, log=log); Optuna accepts
log only with step 1, so a log range with a step maps to IntDistribution(low // step,
high // step, log=True) times step (low is then a multiple of step: see _range()).
"""

import dataclasses
import itertools
import math
import tomllib
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path
from typing import Any

import numpy as np

from iotuner._inputs import InputError, read_bounded_text
from iotuner.errors import IotunerError
from iotuner.formats import hint_vocabulary
from iotuner.measurement import NOT_SET

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

Value = str | int
Configuration = dict[str, Value]
"""Parameter name -> value; every parameter of the space has one."""


MAX_SPACE_BYTES = 1 << 20
"""The largest space file read (the shipped ones are a few KiB; a space of hundreds of
parameters stays far below)."""

MAX_ENUMERATED = 1_000_000
"""The most configurations `Space.configurations()` enumerates: a million configurations as
dictionaries already take about a gigabyte."""

SUGGESTED_SHARE = 0.25
"""In `Space.sample`, the chance that a range parameter takes one of its listed values
(suggestions, "default") rather than a point of its range."""


class SpaceError(IotunerError):
    """A parameter space file is missing, unreadable or not valid."""


@dataclass(frozen=True)
class IntRange:
    """The integers low, low + step, ..., high; `log`: the ratio matters (sampled evenly in
    the logarithm, neighbours by doubling and halving)."""

    low: int
    high: int
    step: int = 1
    log: bool = False

    @property
    def size(self) -> int:
        return (self.high - self.low) // self.step + 1

    def __contains__(self, value: object) -> bool:
        """Whether `value` is a point of the range (an integer on its grid)."""
        return (
            isinstance(value, int)
            and not isinstance(value, bool)
            and self.low <= value <= self.high
            and (value - self.low) % self.step == 0
        )

    def within_limits(self, value: int) -> bool:
        """Whether `value` lies between low and high (on the grid or not)."""
        return self.low <= value <= self.high

    def points(self) -> range:
        return range(self.low, self.high + 1, self.step)

    def snap(self, value: float) -> int:
        """The point of the range nearest to `value`."""
        k = round((min(max(value, self.low), self.high) - self.low) / self.step)
        return self.low + min(max(k, 0), self.size - 1) * self.step

    def sample(self, rng: np.random.Generator, n: int) -> list[int]:
        """`n` points drawn evenly (in the logarithm when `log`), repeats possible."""
        if not self.log:
            return [self.low + int(k) * self.step for k in rng.integers(0, self.size, n)]
        drawn = np.exp(rng.uniform(math.log(self.low), math.log(self.high), n))
        return [self.snap(float(x)) for x in drawn]

    def neighbours(self, value: int) -> list[int]:
        """Points near `value`, for a local search: one step either way, and twice or half
        the value (log ranges) or an eighth of the range either way (linear ones)."""
        if self.log:
            moves = [value - self.step, value + self.step, value * 2, value / 2]
        else:
            jump = max(self.step, (self.high - self.low) / 8)
            moves = [value - self.step, value + self.step, value - jump, value + jump]
        return sorted({self.snap(m) for m in moves} - {value})

    def text(self) -> str:
        step = f" step {self.step}" if self.step != 1 else ""
        return f"{self.low}..{self.high}{step}{' (log)' if self.log else ''}"


@dataclass(frozen=True)
class Parameter:
    """One knob: an MPI info key (kind "hint") or an application parameter (kind "app").

    `values` are the listed values, the default always among them; with a `range` they are
    its suggestions and the words beside it, and the parameter takes every point of the
    range as well."""

    name: str
    kind: str
    values: tuple[Value, ...]
    default: Value
    with_keys: Mapping[str, str] = field(default_factory=dict)
    env: str | None = None
    range: IntRange | None = None

    @property
    def numeric(self) -> bool:
        """True when every value is an integer (a model may treat it as a number)."""
        return all(isinstance(v, int) for v in self.values)

    @property
    def count(self) -> int:
        """How many values the parameter takes."""
        if self.range is None:
            return len(self.values)
        return self.range.size + sum(v not in self.range for v in self.values)

    def points(self) -> Iterator[Value]:
        """Every value: the listed ones in order, then the rest of the range."""
        yield from self.values
        if self.range is not None:
            listed = set(self.values)
            yield from (v for v in self.range.points() if v not in listed)

    def value_of(self, value: object) -> Value | None:
        """`value` as the parameter spells it (text "4" reads as 4 where 4 is a value), or
        None when it is not one of its values."""
        text, number = str(value), _integer(value)
        for listed in self.values:
            if str(listed) == text or (number is not None and listed == number):
                return listed
        if self.range is not None and number is not None and number in self.range:
            return number
        return None

    def admits(self, value: object) -> bool:
        """Whether a measured value can be learned from as a value of this parameter.

        A listed value; for a range, any integer within its limits (on its grid or not:
        the model reads it as a number); for a listed parameter whose values are integers
        (and perhaps "default"), any integer a model can read as one of them: positive when
        all the listed integers are, since such parameters are encoded by their logarithm
        (models/_features.py). Values that are neither stay out: a text value the space
        does not list could be what made a run fast."""
        if self.value_of(value) is not None:
            return True
        number = _integer(value)
        if number is None:
            return False
        if self.range is not None:
            return self.range.within_limits(number)
        return self._learns_integers() and (number > 0 or not self._positive())

    def _learns_integers(self) -> bool:
        ints = [v for v in self.values if isinstance(v, int)]
        words = [v for v in self.values if not isinstance(v, int)]
        return bool(ints) and words in ([], [NOT_SET])

    def _positive(self) -> bool:
        return all(v > 0 for v in self.values if isinstance(v, int))

    def admitted_text(self) -> str:
        """What `admits` takes, in words, for messages."""
        if self.range is not None:
            return f"{self.describe()} (or between its limits)"
        if self._learns_integers():
            kind = "positive integer" if self._positive() else "integer"
            return f"{self.describe()} or another {kind}"
        return self.describe()

    def describe(self) -> str:
        """The values in words, for messages: the listed ones and the range."""
        if self.range is None:
            return f"one of {list(self.values)}"
        return f"one of {list(self.values)} or an integer in {self.range.text()}"

    def sample(self, rng: np.random.Generator, n: int) -> list[Value]:
        """`n` values: uniform over a listed parameter; for a range, a listed value with
        chance SUGGESTED_SHARE, else a point drawn by IntRange.sample."""
        listed = [self.values[int(i)] for i in rng.integers(0, len(self.values), n)]
        if self.range is None:
            return listed
        points = self.range.sample(rng, n)
        pick = rng.random(n) < SUGGESTED_SHARE
        return [a if p else b for a, b, p in zip(listed, points, pick, strict=True)]

    def neighbours(self, value: Value) -> list[Value]:
        """Values next to `value` for a local search: the range's neighbours of a point, and
        every other listed value."""
        near: list[Value] = [v for v in self.values if v != value]
        if self.range is not None:
            if value in self.range:
                assert isinstance(value, int)
                near += self.range.neighbours(value)
            else:
                near += [self.range.low, self.range.high]
        return list(dict.fromkeys(near))


def _integer(value: object) -> int | None:
    """An integer from an int, an integral float or digit text; None otherwise."""
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return value
    if isinstance(value, float) and value.is_integer():
        return int(value)
    if isinstance(value, str):
        try:
            return int(value.strip())
        except ValueError:
            return None
    try:
        return _integer(value.item())  # type: ignore[attr-defined]  # numpy scalars
    except (AttributeError, ValueError):
        return None


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
            table = {p.name: _parameter_dict(p) for p in self.parameters if p.kind == kind}
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


def _parameter(kind: str, name: str, spec: Any, where: str) -> Parameter:
    if not isinstance(spec, dict):
        raise SpaceError(
            f"{where}: [{kind}.{name}] must be a table with values (or range) and default"
        )
    unknown = set(spec) - {"values", "range", "default", "with", "env"}
    if unknown:
        raise SpaceError(
            f"{where}: [{kind}.{name}] has unknown key(s) "
            f"{', '.join(sorted(unknown))} (expected values, range, default, with, env)"
        )
    span = _range(spec["range"], f"{where}: {kind}.{name}.range") if "range" in spec else None
    values = spec.get("values", [] if span is not None else None)
    if not isinstance(values, list) or (not values and span is None):
        raise SpaceError(
            f"{where}: {kind}.{name}.values must be a non-empty list (or give a range), "
            f"got {values!r}"
        )
    for value in values:
        if isinstance(value, bool) or not isinstance(value, str | int):
            raise SpaceError(
                f"{where}: {kind}.{name}.values must hold strings or integers, got {value!r}"
            )
    if len({str(v) for v in values}) != len(values):
        raise SpaceError(f"{where}: {kind}.{name}.values has duplicates: {values!r}")
    if span is not None:
        outside = [v for v in values if isinstance(v, int) and v not in span]
        if outside:
            raise SpaceError(
                f"{where}: {kind}.{name}: the integers listed beside a range are suggestions "
                f"and must be points of it ({span.text()}), got {outside!r}"
            )
    choices = f"one of {values!r}" + (f" or a point of {span.text()}" if span else "")
    if "default" not in spec:
        raise SpaceError(f"{where}: {kind}.{name}.default is missing ({choices})")
    default = spec["default"]
    if default not in values and not (span is not None and default in span):
        raise SpaceError(f"{where}: {kind}.{name}.default must be {choices}, got {default!r}")
    if default not in values:
        values = [default, *values]
    with_keys = spec.get("with", {})
    if kind != "hint" and with_keys:
        raise SpaceError(f"{where}: 'with' belongs to hints only, got it in app.{name}")
    if not isinstance(with_keys, dict) or not all(
        isinstance(v, str | int) and not isinstance(v, bool) for v in with_keys.values()
    ):
        raise SpaceError(
            f"{where}: {kind}.{name}.with must map info keys to values, got {with_keys!r}"
        )
    env = spec.get("env")
    if env is not None and (kind != "app" or not isinstance(env, str) or not env):
        raise SpaceError(f"{where}: 'env' must be a variable name, for app parameters only")
    if kind == "hint":
        passed = [v for v in values if v != default]
        if span is not None:
            # Every point is low + k * step: if low, the next point and high are allowed
            # (in the vocabulary's range, multiples of what it asks), all of them are.
            passed += sorted({span.low, min(span.low + span.step, span.high), span.high})
        _check_vocabulary(name, passed, with_keys, where)
    return Parameter(
        name=name,
        kind=kind,
        values=tuple(values),
        default=default,
        with_keys={k: str(v) for k, v in with_keys.items()},
        env=env,
        range=span,
    )


def _range(spec: Any, where: str) -> IntRange:
    """A range table: low and high (integers), optional step (a positive integer) and log."""
    if not isinstance(spec, dict):
        raise SpaceError(
            f"{where} must be a table like {{ low = 1, high = 64 }} (optional step, log), "
            f"got {spec!r}"
        )
    unknown = set(spec) - {"low", "high", "step", "log"}
    if unknown:
        raise SpaceError(
            f"{where} has unknown key(s) {', '.join(sorted(unknown))} "
            "(expected low, high, step, log)"
        )
    numbers: dict[str, int] = {}
    for key, fallback in (("low", None), ("high", None), ("step", 1)):
        value = spec.get(key, fallback)
        if isinstance(value, bool) or not isinstance(value, int):
            got = "nothing" if value is None else repr(value)
            raise SpaceError(f"{where}.{key} must be an integer, got {got}")
        numbers[key] = value
    low, high, step = numbers["low"], numbers["high"], numbers["step"]
    log = spec.get("log", False)
    if not isinstance(log, bool):
        raise SpaceError(f"{where}.log must be true or false, got {log!r}")
    if low > high:
        raise SpaceError(f"{where}: low must not exceed high, got low {low} and high {high}")
    if step < 1:
        raise SpaceError(f"{where}.step must be at least 1, got {step}")
    if (high - low) % step:
        raise SpaceError(
            f"{where}: high must be low plus a whole number of steps, got low {low}, high "
            f"{high}, step {step} (high {low + (high - low) // step * step} would be)"
        )
    if log and low <= 0:
        raise SpaceError(f"{where}: a log range needs low > 0, got low {low}")
    if log and step > 1 and low % step:
        raise SpaceError(
            f"{where}: a log range with a step needs low to be a multiple of it (so it maps "
            f"to an integer log range times the step), got low {low} and step {step}"
        )
    return IntRange(low, high, step, log)


def _check_vocabulary(name: str, passed: list[Any], with_keys: dict[str, Any], where: str) -> None:
    """A hint parameter may only pass what the hint vocabulary (formats/hints.def) allows:
    the values other than its default (which is never passed) and its `with` keys."""
    vocabulary = hint_vocabulary()
    for key, values in [(name, passed), *((k, [v]) for k, v in with_keys.items())]:
        hint = vocabulary.get(key)
        if hint is None:
            raise SpaceError(
                f"{where}: hint {key!r} is not in the hint vocabulary (formats/hints.def: "
                f"{', '.join(vocabulary)})"
            )
        for value in values:
            problem = hint.problem(str(value))
            if problem is not None:
                raise SpaceError(f"{where}: hints.{name}: {problem}")


def _parameter_dict(p: Parameter) -> dict[str, Any]:
    """One parameter as its TOML table (see _parameter)."""
    table: dict[str, Any] = {"values": list(p.values), "default": p.default}
    if p.range is not None:
        table["range"] = {
            "low": p.range.low,
            "high": p.range.high,
            "step": p.range.step,
            "log": p.range.log,
        }
    if p.with_keys:
        table["with"] = dict(p.with_keys)
    if p.env is not None:
        table["env"] = p.env
    return table


def parse_space(text: str, where: str, source: Path | None = None) -> Space:
    """A space from TOML text; `where` names it in messages."""
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise SpaceError(f"{where}: not valid TOML ({exc})") from None
    return _space_from_tables(data, where, source)


def space_from_dict(data: Any, where: str) -> Space:
    """A space from Space.to_dict's form (the tables of its TOML file and the parameters'
    order), checked as parse_space checks a file; `where` names it in messages."""
    if not isinstance(data, Mapping):
        raise SpaceError(f"{where}: a space must be a table, got {type(data).__name__}")
    tables = {k: v for k, v in data.items() if k != "order"}
    space = _space_from_tables(tables, where, None)
    order = data.get("order")
    if order is None:
        return space
    names = [p.name for p in space.parameters]
    if not isinstance(order, list) or sorted(map(str, order)) != sorted(names):
        raise SpaceError(f"{where}: 'order' must list the parameters {names!r}, got {order!r}")
    return dataclasses.replace(
        space, parameters=tuple(space.parameter(str(name)) for name in order)
    )


def _space_from_tables(data: Mapping[str, Any], where: str, source: Path | None) -> Space:
    unknown = set(data) - {"name", "description", "hints", "app"}
    if unknown:
        raise SpaceError(
            f"{where}: unknown key(s) {', '.join(sorted(unknown))} (expected "
            "name, description, [hints.*], [app.*])"
        )
    name = data.get("name")
    if not isinstance(name, str) or not name:
        raise SpaceError(f"{where}: 'name' must be a non-empty string, got {name!r}")
    parameters = []
    for kind, section in (("hint", "hints"), ("app", "app")):
        table = data.get(section, {})
        if not isinstance(table, dict):
            raise SpaceError(f"{where}: [{section}] must be a table of parameters")
        parameters += [_parameter(kind, n, spec, where) for n, spec in table.items()]
    if not parameters:
        raise SpaceError(f"{where}: no parameters: add [hints.<key>] or [app.<name>] tables")
    return Space(name, str(data.get("description", "")), tuple(parameters), source)


def shipped_spaces() -> dict[str, Path]:
    """The spaces shipped with iotuner, by file stem."""
    folder = resources.files("iotuner") / "spaces"
    return {
        Path(entry.name).stem: Path(str(entry))
        for entry in folder.iterdir()
        if entry.name.endswith(".toml")
    }


def load_space(name_or_path: str | Path) -> Space:
    """A space from a TOML file, or one we ship by name (e.g. "thesis-lustre").

    SpaceError for a name that is neither, a file that is no regular file (a FIFO, a
    device, a directory) or larger than MAX_SPACE_BYTES, and for text that is not a
    valid space."""
    path = Path(name_or_path)
    if not path.is_file():
        shipped = shipped_spaces()
        if str(name_or_path) in shipped:
            path = shipped[str(name_or_path)]
        elif not path.exists():
            raise SpaceError(
                f"no space file {path} and no shipped space of that name "
                f"(shipped: {', '.join(sorted(shipped))})"
            )
    try:
        text = read_bounded_text(path, "a parameter space (TOML)", MAX_SPACE_BYTES)
    except InputError as exc:
        raise SpaceError(str(exc)) from None
    try:
        return parse_space(text, str(path), path)
    except RecursionError:
        # tomllib recurses once per level of nested arrays and inline tables.
        raise SpaceError(
            f"{path}: expected a parameter space (TOML), got arrays or tables nested too "
            "deep to read"
        ) from None
