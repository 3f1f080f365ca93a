"""trace_op_fields.def and trace_records.def: the columns of a trace log's `op` record
and the keys of its other records."""

import functools
from dataclasses import dataclass
from pathlib import Path

from iotuner.errors import FormatError
from iotuner.formats._reader import check_type, check_unique, formats_dir, invocations

_OP_TYPES = frozenset({"INT", "REAL", "TEXT"})
_RECORD_TYPES = frozenset({"INT", "NUMBER", "TEXT", "OBJECT", "LIST", "BOOL", "NULL"})
_PRESENCE = frozenset({"ALWAYS", "OPTIONAL"})


@dataclass(frozen=True)
class OpField:
    """One column of a trace `op` record: its name, type (INT, REAL, TEXT), whether logs
    written before it was added lack it (optional: read as -1, unknown) and meaning."""

    name: str
    type: str
    optional: bool
    description: str


@dataclass(frozen=True)
class RecordKey:
    """One key of a trace-log record other than `op` (trace_records.def)."""

    record: str
    key: str
    types: tuple[str, ...]
    optional: bool
    description: str


@functools.cache
def op_fields() -> tuple[OpField, ...]:
    """The columns of an `op` record (trace_op_fields.def), in order."""
    return parse_op_fields(formats_dir() / "trace_op_fields.def")


@functools.cache
def trace_records() -> tuple[RecordKey, ...]:
    """The keys of the trace log's records but `op` (trace_records.def), in order."""
    return parse_trace_records(formats_dir() / "trace_records.def")


def parse_op_fields(path: Path) -> tuple[OpField, ...]:
    """Parse and check a trace_op_fields.def file (unique names, known types)."""
    fields: list[OpField] = []
    for line, args in invocations(path, "IOT_OP_FIELD", "wwws"):
        name, type_, presence, description = (str(a) for a in args)
        check_type(path, line, name, type_, _OP_TYPES)
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
    check_unique(path, [f.name for f in fields])
    return tuple(fields)


def parse_trace_records(path: Path) -> tuple[RecordKey, ...]:
    """Parse and check a trace_records.def file (known types and presence, unique keys)."""
    keys = []
    for line, args in invocations(path, "IOT_RECORD_KEY", "wwtws"):
        record, key, types, presence, description = (str(a) for a in args)
        for type_ in types.split("|"):
            check_type(path, line, key, type_, _RECORD_TYPES)
        check_type(path, line, key, presence, _PRESENCE)
        keys.append(
            RecordKey(record, key, tuple(types.split("|")), presence == "OPTIONAL", description)
        )
    check_unique(path, [f"{k.record}.{k.key}" for k in keys])
    return tuple(keys)
