"""The one Python reader of the format definitions in formats/*.def.

The interposer includes the same files as X-macros, so the size groups, the columns of a
trace `op` record and the keys of a tuning-table entry are defined once for C and Python.
This module finds the files, parses the macro invocations and checks them; the parsed
definitions are cached for the life of the process.
"""

import bisect
import functools
import os
import re
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

from iotuner.errors import FormatError

__all__ = [
    "HINT_OPS",
    "NUM_SIZE_GROUPS",
    "PHASES",
    "HintDef",
    "HintScale",
    "OmpioJobSetting",
    "OpField",
    "RecordKey",
    "SizeGroup",
    "TableField",
    "TableRule",
    "acting_hints",
    "default_equivalent_keys",
    "formats_dir",
    "hint_quantities",
    "hint_scale",
    "hint_vocabulary",
    "limits",
    "ompio_job_settings",
    "ompio_map",
    "op_fields",
    "parse_hint_scale",
    "parse_hints",
    "parse_limits",
    "parse_op_fields",
    "parse_size_groups",
    "parse_table_fields",
    "parse_table_rules",
    "parse_trace_records",
    "size_group",
    "size_groups",
    "table_fields",
    "table_rules",
    "trace_records",
]

NUM_SIZE_GROUPS = 56
"""Number of data-size groups (the dissertation's §3.2)."""

_DEF_FILES = (
    "size_groups.def",
    "trace_op_fields.def",
    "table_fields.def",
    "hints.def",
    "limits.def",
    "table_rules.def",
    "trace_records.def",
    "ompio_map.def",
    "ompio_job.def",
    "hint_scale.def",
)
_OP_TYPES = frozenset({"INT", "REAL", "TEXT"})
_TABLE_TYPES = frozenset({"INT", "TEXT", "ENUM", "HINTS"})
_INT_RANGE = re.compile(r"(-?\d+)-(\d+)?")
_HINT_TYPES = frozenset({"ENUM", "SIZE", "COUNT"})
_HINT_WHEN = frozenset({"OPEN", "ANY", "LOWER"})
HINT_OPS = frozenset({"COLL_WRITE", "COLL_READ", "INDEP_WRITE", "INDEP_READ"})
"""The data accesses a hint may act on (hints.def's last column)."""
PHASES = ("open", "view", "access")
"""The points where the interposer sets hints (formats/README.md, "Decision points")."""
_PHASES_OF_WHEN = {"OPEN": ("open",), "ANY": PHASES, "LOWER": PHASES}
_SCALE_WORDS = frozenset({"VALUE", "PER_HOST", "HOSTS", "RANKS", "RANKS_PER_HOST"})
_NOT_SET_WORDS = frozenset({"default", "automatic"})
_RULE_SCOPES = frozenset({"FILE", "LINE"})
_RECORD_TYPES = frozenset({"INT", "NUMBER", "TEXT", "OBJECT", "LIST", "BOOL", "NULL"})
_PRESENCE = frozenset({"ALWAYS", "OPTIONAL"})


@dataclass(frozen=True)
class SizeGroup:
    """One data-size group: transfers of `first` <= n < `end` bytes per rank.

    `end` is None for the last, open-ended group.
    """

    number: int
    first: int
    end: int | None


@dataclass(frozen=True)
class OpField:
    """One column of a trace `op` record: its name, type (INT, REAL, TEXT), whether logs
    written before it was added lack it (optional: read as -1, unknown) and meaning."""

    name: str
    type: str
    optional: bool
    description: str


@dataclass(frozen=True)
class TableField:
    """One key of a tuning-table entry.

    `type` is INT, TEXT, ENUM or HINTS; `allowed` is the value range of an INT ("1-" or
    "1-56") or the choices of an ENUM ("open|access"), empty otherwise.
    """

    name: str
    type: str
    allowed: str
    weight: int
    description: str

    @property
    def choices(self) -> tuple[str, ...]:
        """The words an ENUM may take, in definition order (empty for other types)."""
        return tuple(self.allowed.split("|")) if self.type == "ENUM" else ()

    @property
    def int_range(self) -> tuple[int, int | None]:
        """(lowest, highest or None for unbounded) of an INT; FormatError for other types."""
        match = _INT_RANGE.fullmatch(self.allowed)
        if self.type != "INT" or match is None:
            raise FormatError(f"table field '{self.name}' has no integer range")
        high = match.group(2)
        return int(match.group(1)), None if high is None else int(high)


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
        match = _INT_RANGE.fullmatch(self.allowed)
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


@dataclass(frozen=True)
class TableRule:
    """A reason a tuning-table line is refused (table_rules.def).

    `scope` FILE refuses the whole table, LINE drops the line. The order of the rules is
    the order in which both readers check them.
    """

    name: str
    scope: str
    description: str


@dataclass(frozen=True)
class RecordKey:
    """One key of a trace-log record other than `op` (trace_records.def)."""

    record: str
    key: str
    types: tuple[str, ...]
    optional: bool
    description: str


def formats_dir() -> Path:
    """The directory holding the .def files.

    Looked up in order: $IOTUNER_FORMATS_DIR; `_formats/` beside this module (an installed
    wheel); the repository's `formats/` two levels above the package (an editable install).
    """
    override = os.environ.get("IOTUNER_FORMATS_DIR")
    if override:
        candidates = [Path(override)]
    else:
        here = Path(__file__).resolve().parent
        candidates = [here / "_formats", here.parent.parent / "formats"]
    for directory in candidates:
        if all((directory / name).is_file() for name in _DEF_FILES):
            return directory
    tried = ", ".join(str(d) for d in candidates)
    raise FormatError(f"format definitions ({', '.join(_DEF_FILES)}) not found; looked in {tried}")


@functools.cache
def size_groups() -> tuple[SizeGroup, ...]:
    """The 56 size groups of size_groups.def, in order."""
    return parse_size_groups(formats_dir() / "size_groups.def")


@functools.cache
def op_fields() -> tuple[OpField, ...]:
    """The columns of an `op` record (trace_op_fields.def), in order."""
    return parse_op_fields(formats_dir() / "trace_op_fields.def")


@functools.cache
def table_fields() -> tuple[TableField, ...]:
    """The keys of a tuning-table entry (table_fields.def), in order."""
    return parse_table_fields(formats_dir() / "table_fields.def")


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


@functools.cache
def limits() -> dict[str, int]:
    """The limits of limits.def, by name (e.g. "TABLE_MAX_BYTES")."""
    return parse_limits(formats_dir() / "limits.def")


@functools.cache
def table_rules() -> tuple[TableRule, ...]:
    """The rules of table_rules.def, in the order both readers check them."""
    return parse_table_rules(formats_dir() / "table_rules.def")


@functools.cache
def trace_records() -> tuple[RecordKey, ...]:
    """The keys of the trace log's records but `op` (trace_records.def), in order."""
    return parse_trace_records(formats_dir() / "trace_records.def")


@functools.cache
def _group_firsts() -> tuple[int, ...]:
    return tuple(g.first for g in size_groups())


def size_group(nbytes: int) -> int:
    """The number (1-56) of the size group of a transfer of `nbytes` bytes per rank."""
    if nbytes < 0:
        raise ValueError(f"a byte count must be >= 0, got {nbytes}")
    return size_groups()[bisect.bisect_right(_group_firsts(), nbytes) - 1].number


def parse_size_groups(path: Path) -> tuple[SizeGroup, ...]:
    """Parse and check a size_groups.def file.

    The groups must be numbered 1..56 in order, start at 0 bytes, each start where the
    previous one ends, and only the last may be open-ended (end -1): size_group() relies
    on this to find a group by bisection.
    """
    groups: list[SizeGroup] = []
    for line, args in _invocations(path, "IOT_SIZE_GROUP", "iii"):
        number, first, end = (int(a) for a in args)
        where = f"{path} line {line}"
        start = groups[-1].end if groups else 0
        if number != len(groups) + 1:
            raise FormatError(f"{where}: expected group {len(groups) + 1}, got group {number}")
        if start is None:
            raise FormatError(f"{where}: group {number} follows the open-ended group")
        if first != start:
            raise FormatError(
                f"{where}: group {number} must start at {start} bytes (where the previous "
                f"group ends), got {first}"
            )
        if end != -1 and end <= first:
            raise FormatError(f"{where}: group {number} must end after {first} bytes, got {end}")
        groups.append(SizeGroup(number, first, None if end == -1 else end))
    if len(groups) != NUM_SIZE_GROUPS:
        raise FormatError(f"{path}: expected {NUM_SIZE_GROUPS} groups, got {len(groups)}")
    if groups[-1].end is not None:
        raise FormatError(f"{path}: the last group must be open-ended (end -1)")
    return tuple(groups)


def parse_op_fields(path: Path) -> tuple[OpField, ...]:
    """Parse and check a trace_op_fields.def file (unique names, known types)."""
    fields: list[OpField] = []
    for line, args in _invocations(path, "IOT_OP_FIELD", "wwws"):
        name, type_, presence, description = (str(a) for a in args)
        _check_type(path, line, name, type_, _OP_TYPES)
        if presence not in ("ALWAYS", "OPTIONAL"):
            raise FormatError(
                f"{path} line {line}: field '{name}' needs presence ALWAYS or OPTIONAL, "
                f"got {presence!r}"
            )
        if presence == "ALWAYS" and any(f.optional for f in fields):
            raise FormatError(
                f"{path} line {line}: ALWAYS field '{name}' after an OPTIONAL one "
                "(columns added later come last)"
            )
        fields.append(OpField(name, type_, presence == "OPTIONAL", description))
    _check_unique(path, [f.name for f in fields])
    return tuple(fields)


def parse_table_fields(path: Path) -> tuple[TableField, ...]:
    """Parse and check a table_fields.def file (unique names, types and their ranges)."""
    fields = []
    for line, args in _invocations(path, "IOT_TABLE_FIELD", "wwsis"):
        name, type_, allowed, _, description = (str(a) for a in args)
        _check_type(path, line, name, type_, _TABLE_TYPES)
        field = TableField(name, type_, allowed, int(args[3]), description)
        if type_ == "INT" and not _INT_RANGE.fullmatch(allowed):
            raise FormatError(
                f'{path} line {line}: INT field \'{name}\' needs a range like "1-" or "1-56", '
                f'got "{allowed}"'
            )
        if type_ == "ENUM" and not all(re.fullmatch(r"\w+", c) for c in field.choices):
            raise FormatError(
                f"{path} line {line}: ENUM field '{name}' needs words separated by \"|\", "
                f'got "{allowed}"'
            )
        fields.append(field)
    _check_unique(path, [f.name for f in fields])
    return tuple(fields)


def parse_hints(path: Path) -> tuple[HintDef, ...]:
    """Parse and check a hints.def file (unique keys, known types and times, valid ranges)."""
    hints = []
    for line, args in _invocations(path, "IOT_HINT", "wwsiwsst"):
        key, type_, allowed, _, when, implementations, description, ops = (str(a) for a in args)
        _check_type(path, line, key, type_, _HINT_TYPES)
        _check_type(path, line, key, when, _HINT_WHEN)
        for op in ops.split("|"):
            _check_type(path, line, key, op, HINT_OPS)
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
            match = _INT_RANGE.fullmatch(allowed)
            if match is None or match.group(2) is None or int(match.group(1)) < 0:
                raise FormatError(
                    f'{path} line {line}: hint \'{key}\' needs a range like "1-64", got "{allowed}"'
                )
        elif not allowed:
            raise FormatError(f"{path} line {line}: hint '{key}' needs its allowed values")
        hints.append(hint)
    _check_unique(path, [h.key for h in hints])
    return tuple(hints)


def parse_hint_scale(path: Path) -> tuple[HintScale, ...]:
    """Parse and check a hint_scale.def file (keys of hints.def, once each; bounds made of
    integers and the known words)."""
    rows = []
    vocabulary = hint_vocabulary()
    for line, args in _invocations(path, "IOT_HINT_SCALE", "wwsss"):
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
    _check_unique(path, [r.key for r in rows])
    return tuple(rows)


def parse_limits(path: Path) -> dict[str, int]:
    """Parse and check a limits.def file (unique names, positive values)."""
    found: dict[str, int] = {}
    for line, args in _invocations(path, "IOT_LIMIT", "wis"):
        name, value = str(args[0]), int(args[1])
        if value <= 0 or name in found:
            raise FormatError(f"{path} line {line}: limit {name} must be unique and > 0")
        found[name] = value
    return found


def parse_table_rules(path: Path) -> tuple[TableRule, ...]:
    """Parse and check a table_rules.def file (unique names, FILE or LINE scope)."""
    rules = []
    for line, args in _invocations(path, "IOT_TABLE_RULE", "wws"):
        name, scope, description = (str(a) for a in args)
        _check_type(path, line, name, scope, _RULE_SCOPES)
        rules.append(TableRule(name, scope, description))
    _check_unique(path, [r.name for r in rules])
    return tuple(rules)


@dataclass(frozen=True)
class OmpioJobSetting:
    """A table key=value Open MPI's OMPIO sets only per job (ompio_job.def)."""

    key: str
    value: str
    parameter: str
    mca_value: str
    safe: bool
    evidence: str


def parse_ompio_job(path: Path) -> tuple[OmpioJobSetting, ...]:
    """Parse and check an ompio_job.def file (keys of the hint vocabulary, SAFE or UNSAFE)."""
    settings = []
    vocabulary = hint_vocabulary()
    for line, args in _invocations(path, "IOT_OMPIO_JOB", "wswsws"):
        key, value, parameter, mca_value, safety, evidence = (str(a) for a in args)
        if key not in vocabulary:
            raise FormatError(f"{path} line {line}: {key} is not a key of hints.def")
        _check_type(path, line, key, safety, frozenset({"SAFE", "UNSAFE"}))
        settings.append(
            OmpioJobSetting(key, value, parameter, mca_value, safety == "SAFE", evidence)
        )
    return tuple(settings)


def parse_ompio_map(path: Path) -> dict[tuple[str, str], tuple[str, str]]:
    """Parse and check an ompio_map.def file: (key, value) -> (OMPIO key, value), both
    keys of the hint vocabulary."""
    found: dict[tuple[str, str], tuple[str, str]] = {}
    vocabulary = hint_vocabulary()
    for line, args in _invocations(path, "IOT_OMPIO_MAP", "wswss"):
        key, value, ompio_key, ompio_value = (str(a) for a in args[:4])
        for name in (key, ompio_key):
            if name not in vocabulary:
                raise FormatError(f"{path} line {line}: {name} is not a key of hints.def")
        found[(key, value)] = (ompio_key, ompio_value)
    return found


@functools.cache
def ompio_job_settings() -> tuple[OmpioJobSetting, ...]:
    """The job-level OMPIO settings of ompio_job.def, in order."""
    return parse_ompio_job(formats_dir() / "ompio_job.def")


@functools.cache
def ompio_map() -> dict[tuple[str, str], tuple[str, str]]:
    """ompio_map.def: a table's (key, value) -> what OMPIO gets per file."""
    return parse_ompio_map(formats_dir() / "ompio_map.def")


def parse_trace_records(path: Path) -> tuple[RecordKey, ...]:
    """Parse and check a trace_records.def file (known types and presence, unique keys)."""
    keys = []
    for line, args in _invocations(path, "IOT_RECORD_KEY", "wwtws"):
        record, key, types, presence, description = (str(a) for a in args)
        for type_ in types.split("|"):
            _check_type(path, line, key, type_, _RECORD_TYPES)
        _check_type(path, line, key, presence, _PRESENCE)
        keys.append(
            RecordKey(record, key, tuple(types.split("|")), presence == "OPTIONAL", description)
        )
    _check_unique(path, [f"{k.record}.{k.key}" for k in keys])
    return tuple(keys)


def _check_type(path: Path, line: int, name: str, type_: str, known: frozenset[str]) -> None:
    if type_ not in known:
        raise FormatError(
            f"{path} line {line}: type of '{name}' must be one of "
            f"{', '.join(sorted(known))}, got {type_}"
        )


def _check_unique(path: Path, names: list[str]) -> None:
    seen = set()
    for name in names:
        if name in seen:
            raise FormatError(f"{path}: '{name}' is defined twice")
        seen.add(name)


# What a .def file may contain: blanks, C comments and macro invocations whose arguments
# are integers, identifiers or string literals (which may hold commas and parentheses).
_SKIP = re.compile(r"\s+|/\*.*?\*/|//[^\n]*", re.S)
_CALL = re.compile(r"(\w+)\s*\(")
_ARG = re.compile(r'\s*(?:"((?:[^"\\\n]|\\.)*)"|(-?\w+(?:\|\w+)*))\s*([,)])')
_WORD_PATTERNS = {"w": r"[A-Za-z_]\w*", "t": r"[A-Za-z_]\w*(\|\w+)*"}
_ARG_KINDS = {
    "i": "an integer",
    "w": "a word",
    "t": "words joined by '|'",
    "s": "a string literal",
}


def _invocations(path: Path, macro: str, kinds: str) -> list[tuple[int, list[int | str]]]:
    """The (line, arguments) of every `macro(...)` in `path`, in order.

    `kinds` has one letter per expected argument: i integer, w word, s string literal.
    Anything else in the file (another macro, a preprocessor line) is a FormatError.
    """
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as exc:
        raise FormatError(f"cannot read {path}: {exc.strerror}") from None
    calls: list[tuple[int, list[int | str]]] = []
    pos = 0
    while pos < len(text):
        skipped = _SKIP.match(text, pos)
        if skipped:
            pos = skipped.end()
            continue
        line = text.count("\n", 0, pos) + 1
        call = _CALL.match(text, pos)
        if call is None or call.group(1) != macro:
            raise FormatError(f"{path} line {line}: expected {macro}(...)")
        pos = call.end()
        args: list[int | str] = []
        while True:
            arg = _ARG.match(text, pos)
            kind = kinds[len(args)] if len(args) < len(kinds) else ""
            if arg is None or not kind:
                raise FormatError(
                    f"{path} line {line}: {macro} takes {len(kinds)} arguments "
                    f"({', '.join(_ARG_KINDS[k] for k in kinds)})"
                )
            literal, word, separator = arg.groups()
            if kind == "s" and literal is not None:
                args.append(re.sub(r'\\(["\\])', r"\1", literal))
            elif kind == "i" and word is not None and re.fullmatch(r"-?\d+", word):
                args.append(int(word))
            elif kind in _WORD_PATTERNS and word and re.fullmatch(_WORD_PATTERNS[kind], word):
                args.append(word)
            else:
                raise FormatError(
                    f"{path} line {line}: argument {len(args) + 1} of {macro} must be "
                    f"{_ARG_KINDS[kind]}, got {word if literal is None else repr(literal)}"
                )
            pos = arg.end()
            if separator == ")":
                break
        if len(args) != len(kinds):
            raise FormatError(
                f"{path} line {line}: {macro} takes {len(kinds)} arguments, got {len(args)}"
            )
        calls.append((line, args))
    return calls
