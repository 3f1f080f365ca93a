"""hints.def and hint_scale.def: the keys a table may set, and what a key does at a scale.

A key's row says its type and allowed values, when the interposer may set it (OPEN, ANY,
LOWER) and which data accesses it can change; hint_scale.def bounds the number of
aggregators by the keys that set it. acting_hints reads both to drop the keys that cannot
act on a workload.
"""

import functools
import re
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

from iotuner.errors import FormatError
from iotuner.formats._limits import limits
from iotuner.formats._reader import INT_RANGE, check_type, check_unique, formats_dir, invocations

_HINT_TYPES = frozenset({"ENUM", "SIZE", "COUNT"})
_HINT_WHEN = frozenset({"OPEN", "ANY", "LOWER"})
HINT_OPS = frozenset({"COLL_WRITE", "COLL_READ", "INDEP_WRITE", "INDEP_READ"})
"""The data accesses a hint may act on (hints.def's last column)."""
PHASES = ("open", "view", "access")
"""The points where the interposer sets hints (formats/README.md, "Decision points")."""
_PHASES_OF_WHEN = {"OPEN": ("open",), "ANY": PHASES, "LOWER": PHASES}
_SCALE_WORDS = frozenset({"VALUE", "PER_HOST", "HOSTS", "RANKS", "RANKS_PER_HOST"})
_NOT_SET_WORDS = frozenset({"default", "automatic"})


@dataclass(frozen=True)
class HintDef:
    """One key of the hint vocabulary (hints.def): what a tuning table may set, and when.

    `type` is ENUM, SIZE or COUNT; `allowed` the words of an ENUM ("a|b") or the range
    of a SIZE or COUNT ("lo-hi"); `multiple` what a SIZE
    or COUNT must be a multiple of; `when` OPEN, ANY or LOWER; `implementations` the
    MPI-IO layers that honour the key; `ops` the data accesses whose behaviour it can
    change (HINT_OPS: COLL_WRITE, COLL_READ, INDEP_WRITE, INDEP_READ).
    """

    key: str
    type: str
    allowed: str
    multiple: int
    when: str
    implementations: tuple[str, ...]
    description: str
    ops: frozenset[str]

    def acts_on(self, pattern: str, kind: str) -> bool:
        """Whether the key can change an access of a trace `op` row: `pattern`
        collective or independent, `kind` read or write."""
        prefix = {"collective": "COLL", "independent": "INDEP"}.get(pattern)
        return prefix is not None and f"{prefix}_{kind.upper()}" in self.ops

    @property
    def phases(self) -> tuple[str, ...]:
        """The points (PHASES) where setting the key can act: `when` OPEN is read at open
        only; ANY and LOWER at open, set_view and collective access (LOWER only lowered)."""
        return _PHASES_OF_WHEN[self.when]

    @property
    def choices(self) -> tuple[str, ...]:
        """The words an ENUM may take (empty for other types)."""
        return tuple(self.allowed.split("|")) if self.type == "ENUM" else ()

    @property
    def range(self) -> tuple[int, int]:
        """(lowest, highest) of a SIZE or COUNT; FormatError for other types."""
        match = INT_RANGE.fullmatch(self.allowed)
        if self.type not in ("SIZE", "COUNT") or match is None or match.group(2) is None:
            raise FormatError(f"hint '{self.key}' has no integer range")
        return int(match.group(1)), int(match.group(2))

    def problem(self, value: str) -> str | None:
        """Why `value` (as MPI would receive it) breaks this key's rule, or None."""
        max_chars = limits()["HINT_VALUE_MAX_CHARS"]
        if len(value.encode("utf-8", "surrogatepass")) > max_chars:
            return f"hint {self.key}: a value has at most {max_chars} characters, got {len(value)}"
        if self.type == "ENUM":
            if value in self.choices:
                return None
            return f"hint {self.key} must be one of {self.allowed}, got {value[:64]!r}"
        low, high = self.range  # SIZE or COUNT
        # Decimal digits only, no sign, space, suffix or leading zero (the C reader's rule).
        digits = re.fullmatch(r"0|[1-9][0-9]{0,18}", value) is not None
        if digits and low <= int(value) <= high and int(value) % self.multiple == 0:
            return None
        multiple = f" and a multiple of {self.multiple}" if self.multiple > 1 else ""
        kind = "a byte count" if self.type == "SIZE" else "a count"
        return (
            f"hint {self.key} must be {kind} {self.allowed}{multiple} (decimal digits "
            f"only), got {value[:64]!r}"
        )


@dataclass(frozen=True)
class HintScale:
    """One row of hint_scale.def: `key` bounds `quantity` (AGGREGATORS) by the bound
    `when_set` when it has a value and by `when_unset` when not set. A bound is terms
    separated by ',' (the least of them), each a product ('*') of integers and the words
    VALUE, PER_HOST, HOSTS, RANKS, RANKS_PER_HOST."""

    key: str
    quantity: str
    when_set: str
    when_unset: str
    evidence: str

    def bound(self, value: str | None, *, nprocs: int, nodes: int) -> int | None:
        """The bound the key puts on its quantity with `value` (None: not set) at a scale
        of `nprocs` ranks on `nodes` hosts; None when the value cannot be read (a host
        list)."""
        hosts, ranks = max(1, nodes), max(1, nprocs)
        words = {"HOSTS": hosts, "RANKS": ranks, "RANKS_PER_HOST": max(1, ranks // hosts)}
        if value is None or value in _NOT_SET_WORDS:
            expression = self.when_unset
        else:
            expression = self.when_set
            per_host = value[2:] if value.startswith("*:") else ""
            if value.isdigit():
                words["VALUE"] = int(value)
            if per_host == "*" or per_host.isdigit():
                words["PER_HOST"] = words["RANKS_PER_HOST"] if per_host == "*" else int(per_host)
        terms = []
        for term in expression.split(","):
            product = 1
            for factor in term.split("*"):
                number = int(factor) if factor.isdigit() else words.get(factor)
                if number is None:
                    return None
                product *= number
            terms.append(product)
        return min(terms)


@functools.cache
def hint_vocabulary() -> dict[str, HintDef]:
    """The hint vocabulary of hints.def, by key, in definition order."""
    return {h.key: h for h in parse_hints(formats_dir() / "hints.def")}


@functools.cache
def hint_scale() -> tuple[HintScale, ...]:
    """The rows of hint_scale.def, in order."""
    return parse_hint_scale(formats_dir() / "hint_scale.def")


def hint_quantities(hints: Mapping[str, str], *, nprocs: int, nodes: int) -> dict[str, int | None]:
    """What the keys of hint_scale.def set at a scale, by quantity (AGGREGATORS -> the
    number of aggregators `hints` give on `nprocs` ranks and `nodes` hosts): the least
    bound over the quantity's keys; None when one of its values cannot be read."""
    bounds: dict[str, list[int | None]] = {}
    for row in hint_scale():
        value = hints.get(row.key)
        bound = row.bound(None if value is None else str(value), nprocs=nprocs, nodes=nodes)
        bounds.setdefault(row.quantity, []).append(bound)
    return {
        quantity: None if None in found else min(b for b in found if b is not None)
        for quantity, found in bounds.items()
    }


def default_equivalent_keys(hints: Mapping[str, str], *, nprocs: int, nodes: int) -> set[str]:
    """The keys of `hints` that act as the default at a scale: every key of a
    hint_scale.def quantity that `hints` leave where no key of it set would (cb_nodes
    equal to the hosts; cb_nodes=2 or cb_config_list=*:* on one host with "*:1")."""
    if not any(row.key in hints for row in hint_scale()):
        return set()
    given = hint_quantities(hints, nprocs=nprocs, nodes=nodes)
    unset = hint_quantities({}, nprocs=nprocs, nodes=nodes)
    return {
        row.key
        for row in hint_scale()
        if row.key in hints
        and given[row.quantity] is not None
        and given[row.quantity] == unset[row.quantity]
    }


def acting_hints(
    hints: Mapping[str, str],
    *,
    pattern: str,
    op: str,
    nprocs: int,
    nodes: int,
    phase: str = "open",
) -> dict[str, str]:
    """`hints` without the keys that cannot act on a workload: data accesses of `pattern`
    (collective, independent) and `op` (write, read) by `nprocs` ranks on `nodes` hosts,
    the hints set at `phase` (open, view, access). A key is kept when hints.def says it
    acts on that access (ops) at that phase (when), and it does not act as the default at
    that scale (hint_scale.def). Keys not in the vocabulary are kept (nothing is known
    of them). What is removed is the same, for that workload, as not setting it."""
    if phase not in PHASES:
        raise ValueError(f"a phase must be one of {', '.join(PHASES)}, got {phase!r}")
    vocabulary = hint_vocabulary()
    kept = {
        key: value
        for key, value in hints.items()
        if key not in vocabulary
        or (vocabulary[key].acts_on(pattern, op) and phase in vocabulary[key].phases)
    }
    for key in default_equivalent_keys(kept, nprocs=nprocs, nodes=nodes):
        del kept[key]
    return kept


def parse_hints(path: Path) -> tuple[HintDef, ...]:
    """Parse and check a hints.def file (unique keys, known types and times, valid ranges)."""
    hints = []
    for line, args in invocations(path, "IOT_HINT", "wwsiwsst"):
        key, type_, allowed, _, when, implementations, description, ops = (str(a) for a in args)
        check_type(path, line, key, type_, _HINT_TYPES)
        check_type(path, line, key, when, _HINT_WHEN)
        for op in ops.split("|"):
            check_type(path, line, key, op, HINT_OPS)
        multiple = int(args[3])
        hint = HintDef(
            key,
            type_,
            allowed,
            multiple,
            when,
            tuple(implementations.split("|")),
            description,
            frozenset(ops.split("|")),
        )
        if multiple < 1:
            raise FormatError(f"{path} line {line}: hint '{key}' needs a multiple >= 1")
        if type_ in ("SIZE", "COUNT"):
            match = INT_RANGE.fullmatch(allowed)
            if match is None or match.group(2) is None or int(match.group(1)) < 0:
                raise FormatError(
                    f'{path} line {line}: hint \'{key}\' needs a range like "1-64", got "{allowed}"'
                )
        elif not allowed:
            raise FormatError(f"{path} line {line}: hint '{key}' needs its allowed values")
        hints.append(hint)
    check_unique(path, [h.key for h in hints])
    return tuple(hints)


def parse_hint_scale(path: Path) -> tuple[HintScale, ...]:
    """Parse and check a hint_scale.def file (keys of hints.def, once each; bounds made of
    integers and the known words)."""
    rows = []
    vocabulary = hint_vocabulary()
    for line, args in invocations(path, "IOT_HINT_SCALE", "wwsss"):
        row = HintScale(*(str(a) for a in args))
        if row.key not in vocabulary:
            raise FormatError(f"{path} line {line}: {row.key} is not a key of hints.def")
        for bound in (row.when_set, row.when_unset):
            factors = [f for term in bound.split(",") for f in term.split("*")]
            bad = [f for f in factors if not f.isdigit() and f not in _SCALE_WORDS]
            if bad:
                raise FormatError(
                    f"{path} line {line}: a bound of {row.key} is made of integers and "
                    f"{', '.join(sorted(_SCALE_WORDS))} joined by '*' and ',', got {bound!r}"
                )
        rows.append(row)
    check_unique(path, [r.key for r in rows])
    return tuple(rows)
