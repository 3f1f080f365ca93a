"""One parameter of a space: an MPI info key or an application parameter, its listed values
and, for a numeric knob, an integer range.

`range` makes a parameter take every integer low, low + step, ..., high (step 1 unless
given; high must be one of them); `log = true` says the scale that matters is the ratio
(sizes, counts), so sampling is even in the logarithm and low must be positive. Its
`values` are then optional: integers listed there are suggestions and must be points of the
range, words ("default": not passed) are extra choices beside it. The default is a listed
value or a point of the range.
"""

import math
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from iotuner.measurement import NOT_SET

Value = str | int

SUGGESTED_SHARE = 0.25
"""In `Space.sample`, the chance that a range parameter takes one of its listed values
(suggestions, "default") rather than a point of its range."""


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
        text, number = str(value), integer(value)
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
        number = integer(value)
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


def integer(value: object) -> int | None:
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
        return integer(value.item())  # type: ignore[attr-defined]  # numpy scalars
    except (AttributeError, ValueError):
        return None


def parameter_table(p: Parameter) -> dict[str, Any]:
    """One parameter as its TOML table (the form _file reads back)."""
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
