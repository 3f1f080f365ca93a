"""Checking a trace log's records against the format: what `read_tracelog` refuses.

Each record must have exactly the keys formats/trace_records.def lists for it (op rows:
formats/trace_op_fields.def, of one of the generations `_records` knows), with values of
the right types (integers of 64 bits, finite numbers, text without NUL or lone
surrogates), in the ranges the interposer can write (_RANGES) and among the words it
writes (_CHOICES). `_op_values` decides an op row fast (nearly all of a log's lines);
`_check_record` says what is wrong with any record, as one TraceLogError naming the line,
the key, what was expected and what came.
"""

import functools
import json
import math
from collections.abc import Mapping
from typing import Any

from iotuner.errors import TraceLogError
from iotuner.formats import op_fields, size_groups, trace_records
from iotuner.tracelog._records import (
    _OP_GENERATIONS,
    _OP_KEY_SET,
    _OP_NAMES,
    _OP_TEXT_AT,
    _OP_UNKNOWN,
    _OP_VALUES,
    FORMAT,
    VERSION,
)

_NUMBER = (int, float)
_NONE = type(None)

_TYPES: dict[str, tuple[type, ...]] = {
    "INT": (int,),
    "NUMBER": _NUMBER,
    "TEXT": (str,),
    "OBJECT": (dict,),
    "LIST": (list,),
    "BOOL": (bool,),
    "NULL": (_NONE,),
}


def _schema(optional: bool) -> dict[str, dict[str, tuple[type, ...]]]:
    """Record -> key -> the Python types its value may have (formats/trace_records.def).
    bool is never accepted where int is."""
    schema: dict[str, dict[str, tuple[type, ...]]] = {}
    for spec in trace_records():
        keys = schema.setdefault(spec.record, {})
        if spec.optional == optional:
            keys[spec.key] = tuple(t for name in spec.types for t in _TYPES[name])
    return schema


def _objects(schema: dict[str, dict[str, tuple[type, ...]]]) -> dict[tuple[str, str], str]:
    """(record, key) -> the name under which trace_records.def lists the keys of that
    OBJECT value: `<record>_<key>` (file_pattern: the file record's pattern)."""
    return {
        (record, key): f"{record}_{key}"
        for record, keys in schema.items()
        for key, types in keys.items()
        if dict in types and f"{record}_{key}" in schema
    }


_ALL_KEYS = _schema(optional=False)
_ALL_OPTIONAL_KEYS = _schema(optional=True)
_OBJECT_KEYS = _objects(_ALL_KEYS)
"""The OBJECT values whose own keys are checked, and the name their keys are listed under."""
_RECORD_KEYS = {k: v for k, v in _ALL_KEYS.items() if k not in _OBJECT_KEYS.values()}
_OPTIONAL_KEYS = {k: v for k, v in _ALL_OPTIONAL_KEYS.items() if k not in _OBJECT_KEYS.values()}
_OP_TYPES: dict[str, tuple[type, ...]] = {"INT": (int,), "REAL": _NUMBER, "TEXT": (str,)}
_TYPE_NAMES = {
    int: "an integer",
    float: "a number",
    str: "a string",
    dict: "an object",
    list: "a list",
    bool: "true or false",
    _NONE: "null",
}


_INT64 = (-(1 << 63), (1 << 63) - 1)
"""The integers a log may hold: the writer's are C `long long`, and the knowledge base's
columns 64-bit; a larger one is no count the interposer made."""

_NPROCS = "the job's nprocs"
_LAST_RANK = "the job's last rank"
"""Upper bounds of _RANGES that a log gives: its job's nprocs, the highest rank number
(nprocs - 1)."""

_RANGES: dict[str, dict[str, tuple[int, int | str | None]]] = {
    "job": {"nprocs": (1, None), "nodes": (1, _NPROCS), "ranks_per_node": (1, _NPROCS)},
    "hints": {"seq": (0, None)},
    "file": {"nprocs": (1, _NPROCS), "bytes_read": (0, None), "bytes_written": (0, None)},
    "file_pattern": {
        "nodes": (1, _NPROCS),
        "ranks_per_node": (1, _NPROCS),
        "ranks_with_io": (0, _NPROCS),
        "burst_bytes": (0, None),
        "first_offset": (-1, None),
        "first_offset_max": (-1, None),
        "view_block": (1, None),
    },
    "meta": {
        "duration": (0, None),
        "result": (0, None),
        "calls": (1, None),
        "rank": (0, _LAST_RANK),
    },
    "no_entry": {"nprocs": (1, _NPROCS), "group": (1, len(size_groups()))},
    "end": {"rows": (0, None), "dropped_rows": (0, None)},
    "op": {
        "group": (1, len(size_groups())),
        "bytes": (0, None),
        "duration": (0, None),
        "bandwidth": (0, None),
        "calls": (1, None),
        "ranks": (0, _NPROCS),
        "bytes_per_rank": (0, None),
        "summary": (0, 2),
        "hint_set": (-1, None),
        **dict.fromkeys(_OP_UNKNOWN, (-1, None)),
    },
}
"""Record -> key -> the least and greatest value the format allows (None: no bound).

RATIONALE: these are what the interposer can write (formats/README.md, trace.c): counts of
ranks within the job's MPI_COMM_WORLD (a file's communicator is part of it; a rank number
is below it), one or more calls in a row, sizes and durations never negative, size groups
of formats/size_groups.def, hint_set -1 for none. Times are only required to be finite:
they come from two clocks made to agree, and a rank that started a call a hair before
MPI_Init returned on another would be no error. A value outside is a log iotuner did not
write, or one damaged since; reading on would only move the error to a worse place (a
KeyError in the workloads, a division by zero, an integer the knowledge base cannot
store).
"""

_CHOICES: dict[str, dict[str, frozenset[str]]] = {
    "job": {"policy": frozenset({"table", "app"})},
    "hints": {"at": frozenset({"open", "set_view", "set_info", "access"})},
    "no_entry": {
        "at": frozenset({"open", "set_view", "set_info", "access"}),
        "pattern": frozenset({"collective", "independent"}),
        "op": frozenset({"read", "write"}),
        "layout": frozenset({"contiguous", "strided"}),
    },
}
"""Record -> key -> the words the format allows. An op row's pattern and kind are left to
TraceLog.workload_of, which names such a row as no workload iotuner knows while the other
rows of the log still read."""

_FREE_OBJECTS: dict[tuple[str, str], tuple[type, ...]] = {
    ("hints", "requested"): (str,),
    ("hints", "table"): (str,),
    ("hints", "app"): (str,),
    ("hints", "effective"): (str,),
    ("job", "hint_map"): (str, _NONE),
}
"""OBJECT values whose keys are hint names (any), and the types of their values: MPI
info values are strings; the hint map's are null where OMPIO has no equivalent."""

_ORDERED_PAIRS = (("stride_min", "stride_max"), ("gap_min", "gap_max"))
"""Keys of a file's pattern of which the first, a least over the ranks, cannot exceed the
second, the greatest."""


def _kind_of(value: Any) -> str:
    """What a JSON value is, in words."""
    return _TYPE_NAMES.get(type(value), type(value).__name__)


def _shown(value: Any, limit: int = 80) -> str:
    """A value as JSON for a message: ASCII only (a control character or a lone surrogate
    is shown escaped, never sent to the terminal as it is), cut after `limit` characters."""
    text = json.dumps(value, ensure_ascii=True)
    return text if len(text) <= limit else text[: limit - 3] + "..."


def _name(key: str, limit: int = 60) -> str:
    """A key for a message: repr, which escapes what a terminal would act on, cut."""
    return repr(key) if len(key) <= limit else repr(key[:limit]) + "..."


def _text_problem(text: str) -> str | None:
    """What a string of a log must be and this one is not, or None.

    RATIONALE: the writer's strings are C strings of UTF-8, so never hold NUL, and JSON
    escapes can still spell a lone surrogate (\\ud800), which Python decodes but cannot
    write as UTF-8 again: such a string would fail later, in a path, the terminal or the
    knowledge base, far from its line.
    """
    if "\x00" in text:
        return "text without NUL characters"
    if not text.isascii():
        try:
            text.encode("utf-8")
        except UnicodeEncodeError:
            return "text of Unicode characters (no lone surrogate)"
    return None


def _value_problem(value: Any) -> str | None:
    """What a value of the right JSON type must also be and is not, or None: integers fit
    64 bits, numbers are finite, strings are text (_text_problem)."""
    kind = type(value)
    if kind is int:
        low, high = _INT64
        return None if low <= value <= high else "an integer of at most 64 bits"
    if kind is float:
        return None if math.isfinite(value) else "a finite number"
    if kind is str:
        return _text_problem(value)
    return None


_OP_TYPES_WRITTEN = tuple({"INT": int, "REAL": float, "TEXT": str}[f.type] for f in op_fields())
_OP_INT_AT = tuple(i for i, f in enumerate(op_fields()) if f.type == "INT")
_OP_REAL_AT = tuple(i for i, f in enumerate(op_fields()) if f.type == "REAL")
_OP_RANGES = tuple(
    (_OP_NAMES.index(name), low, high if isinstance(high, int) else None, high == _NPROCS)
    for name, (low, high) in _RANGES["op"].items()
)
"""_RANGES of an op row: (index of the column, least, greatest or None, whether the
job's nprocs bounds it)."""


def _op_values(
    record: dict[str, Any], nprocs: int, known_texts: Mapping[str, str]
) -> tuple[Any, ...] | None:
    """An op record's values in the order of trace_op_fields.def when it passes
    _check_record, else None (and _check_record says what is wrong); decided fast, as the
    op rows are nearly all of a log. `known_texts`: strings already found to be text."""
    if record.keys() != _OP_KEY_SET:
        lacking = _OP_GENERATIONS.get(frozenset(record.keys()))
        if lacking is None:
            return None
        record = {**record, **lacking}  # a log from before some optional columns
    values: tuple[Any, ...] = _OP_VALUES(record)
    if tuple(map(type, values)) != _OP_TYPES_WRITTEN:
        for value, written in zip(values, _OP_TYPES_WRITTEN, strict=True):
            # A REAL may be written as an integer: %.9g writes 0 as 0.
            if type(value) is not written and not (written is float and type(value) is int):
                return None
    low, high = _INT64
    for at in _OP_INT_AT:
        if not low <= values[at] <= high:
            return None
    for at in _OP_REAL_AT:
        value = values[at]
        if not (math.isfinite(value) if type(value) is float else low <= value <= high):
            return None
    for at in _OP_TEXT_AT:
        if values[at] not in known_texts and _text_problem(values[at]) is not None:
            return None
    for at, least, most, by_nprocs in _OP_RANGES:
        value = values[at]
        if value < least or value > (nprocs if by_nprocs else value if most is None else most):
            return None
    return values


@functools.cache
def _op_keys() -> dict[str, tuple[type, ...]]:
    """The columns of an `op` record and the Python types of their values."""
    return {f.name: _OP_TYPES[f.type] for f in op_fields() if not f.optional}


@functools.cache
def _op_optional_keys() -> dict[str, tuple[type, ...]]:
    """The optional columns of an `op` record and the Python types of their values."""
    return {f.name: _OP_TYPES[f.type] for f in op_fields() if f.optional}


def _check_keys(
    where: str,
    record: dict[str, Any],
    keys: dict[str, tuple[type, ...]],
    optional: dict[str, tuple[type, ...]],
    ignore: frozenset[str] = frozenset(),
) -> None:
    """Check that an object has exactly these keys (but `ignore`), with values of the right
    types (_value_problem)."""
    for key, types in {**keys, **optional}.items():
        if key not in record:
            if key in optional:
                continue
            raise TraceLogError(f"{where}: {key!r} is missing")
        value = record[key]
        if not isinstance(value, types) or (isinstance(value, bool) and bool not in types):
            expected = " or ".join(_TYPE_NAMES[t] for t in types)
            raise TraceLogError(f"{where}: {key!r} must be {expected}, got {_shown(value)}")
        problem = _value_problem(value)
        if problem is not None:
            raise TraceLogError(f"{where}: {key!r} must be {problem}, got {_shown(value)}")
    unknown = set(record) - set(keys) - set(optional) - ignore
    if unknown:
        names = ", ".join(_name(key) for key in sorted(unknown)[:10])
        more = f" and {len(unknown) - 10} more" if len(unknown) > 10 else ""
        raise TraceLogError(f"{where}: unknown key(s) {names}{more}")


def _check_ranges(where: str, ranges: str, record: dict[str, Any], bounds: dict[str, int]) -> None:
    """Check the values of `record` against _RANGES[ranges] (null values pass); `bounds`
    gives the named upper bounds (_NPROCS, ...)."""
    for key, (least, most) in _RANGES.get(ranges, {}).items():
        value = record.get(key)
        if value is None:
            continue
        high = bounds[most] if isinstance(most, str) else most
        if value < least or (high is not None and value > high):
            expected = (
                f"at least {least}"
                if high is None
                else f"between {least} and {high}" + (f" ({most})" if isinstance(most, str) else "")
            )
            raise TraceLogError(f"{where}: {key!r} must be {expected}, got {_shown(value)}")


def _check_record(where: str, kind: str, record: dict[str, Any], nprocs: int) -> None:
    """Check that a record has exactly its keys, with values of the right types and in
    the ranges of the format, and so have the objects whose keys trace_records.def lists.
    `nprocs`: the job's (ignored for the job record, which gives it)."""
    where = f"{where}: {kind} record"
    keys = _op_keys() if kind == "op" else _RECORD_KEYS[kind]
    optional = _op_optional_keys() if kind == "op" else _OPTIONAL_KEYS.get(kind, {})
    _check_keys(where, record, keys, optional, frozenset({"record"}))
    present = [k in record for k in optional]
    if kind == "op" and present != sorted(present, reverse=True):
        # A writer writes the columns added up to its version, in the order they came.
        missing = ", ".join(
            repr(k) for k, there in zip(optional, present, strict=True) if not there
        )
        raise TraceLogError(
            f"{where}: the columns added to op records come in the order they were added "
            f"(trace_op_fields.def), got them without {missing}"
        )
    if kind == "job":
        if (record["format"], record["version"]) != (FORMAT, VERSION):
            raise TraceLogError(
                f"{where}: expected format {FORMAT!r} version {VERSION}, "
                f"got {record['format']!r} version {record['version']}"
            )
        nprocs = record["nprocs"]
    bounds = {_NPROCS: nprocs, _LAST_RANK: nprocs - 1}
    _check_ranges(where, kind, record, bounds)
    for key, words in _CHOICES.get(kind, {}).items():
        if record[key] not in words:
            expected = " or ".join(repr(word) for word in sorted(words))
            raise TraceLogError(f"{where}: {key!r} must be {expected}, got {_shown(record[key])}")
    for (owner, key), listed in _OBJECT_KEYS.items():
        if owner == kind and isinstance(record[key], dict):
            inner = f"{where}'s {key!r}"
            _check_keys(
                inner, record[key], _ALL_KEYS.get(listed, {}), _ALL_OPTIONAL_KEYS.get(listed, {})
            )
            _check_ranges(inner, listed, record[key], bounds)
            for least, most in _ORDERED_PAIRS:
                low, high = record[key].get(least), record[key].get(most)
                if isinstance(low, int) and isinstance(high, int) and low > high:
                    raise TraceLogError(
                        f"{inner}: {least!r} ({low}) must not exceed {most!r} ({high})"
                    )
    for (owner, key), types in _FREE_OBJECTS.items():
        if owner == kind and isinstance(record.get(key), dict):
            _check_free_object(f"{where}'s {key!r}", record[key], types)
    if kind == "hints":
        for item in record["unhonoured"]:
            if not (
                isinstance(item, dict)
                and set(item) == {"key", "reason"}
                and all(isinstance(v, str) and _text_problem(v) is None for v in item.values())
            ):
                raise TraceLogError(
                    f'{where}: \'unhonoured\' items must be {{"key": "...", "reason": "..."}}, '
                    f"got {_shown(item)}"
                )
    if kind == "end" and not all(
        isinstance(w, str) and _text_problem(w) is None for w in record["warnings"]
    ):
        raise TraceLogError(f"{where}: 'warnings' must be a list of strings")


def _check_free_object(where: str, values: dict[str, Any], types: tuple[type, ...]) -> None:
    """Check an object whose keys are any names (hints): keys are text, values of `types`."""
    expected = " or ".join(_TYPE_NAMES[t] for t in types)
    for key, value in values.items():
        problem = _text_problem(key)
        if problem is not None:
            raise TraceLogError(f"{where}: a key must be {problem}, got {_shown(key)}")
        if not isinstance(value, types):
            raise TraceLogError(f"{where}: {_name(key)} must be {expected}, got {_shown(value)}")
        problem = _value_problem(value)
        if problem is not None:
            raise TraceLogError(f"{where}: {_name(key)} must be {problem}, got {_shown(value)}")
