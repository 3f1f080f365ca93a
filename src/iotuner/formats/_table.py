"""table_fields.def and table_rules.def: the keys of a tuning-table entry, and the reasons
a table or one of its lines is refused, in the order both readers check them."""

import functools
import re
from dataclasses import dataclass
from pathlib import Path

from iotuner.errors import FormatError
from iotuner.formats._reader import INT_RANGE, check_type, check_unique, formats_dir, invocations

_TABLE_TYPES = frozenset({"INT", "TEXT", "ENUM", "HINTS"})
_RULE_SCOPES = frozenset({"FILE", "LINE"})


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
        match = INT_RANGE.fullmatch(self.allowed)
        if self.type != "INT" or match is None:
            raise FormatError(f"table field '{self.name}' has no integer range")
        high = match.group(2)
        return int(match.group(1)), None if high is None else int(high)


@dataclass(frozen=True)
class TableRule:
    """A reason a tuning-table line is refused (table_rules.def).

    `scope` FILE refuses the whole table, LINE drops the line. The order of the rules is
    the order in which both readers check them.
    """

    name: str
    scope: str
    description: str


@functools.cache
def table_fields() -> tuple[TableField, ...]:
    """The keys of a tuning-table entry (table_fields.def), in order."""
    return parse_table_fields(formats_dir() / "table_fields.def")


@functools.cache
def table_rules() -> tuple[TableRule, ...]:
    """The rules of table_rules.def, in the order both readers check them."""
    return parse_table_rules(formats_dir() / "table_rules.def")


def parse_table_fields(path: Path) -> tuple[TableField, ...]:
    """Parse and check a table_fields.def file (unique names, types and their ranges)."""
    fields = []
    for line, args in invocations(path, "IOT_TABLE_FIELD", "wwsis"):
        name, type_, allowed, _, description = (str(a) for a in args)
        check_type(path, line, name, type_, _TABLE_TYPES)
        field = TableField(name, type_, allowed, int(args[3]), description)
        if type_ == "INT" and not INT_RANGE.fullmatch(allowed):
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
    check_unique(path, [f.name for f in fields])
    return tuple(fields)


def parse_table_rules(path: Path) -> tuple[TableRule, ...]:
    """Parse and check a table_rules.def file (unique names, FILE or LINE scope)."""
    rules = []
    for line, args in invocations(path, "IOT_TABLE_RULE", "wws"):
        name, scope, description = (str(a) for a in args)
        check_type(path, line, name, scope, _RULE_SCOPES)
        rules.append(TableRule(name, scope, description))
    check_unique(path, [r.name for r in rules])
    return tuple(rules)
