"""Tuning tables (formats/README.md, "Tuning table"): read, validate, write and match.

Validation is driven by formats/table_fields.def, so a key added there is checked here
without new code; the matching rule mirrors what the interposer does, so the Python side
can explain and test which entry a job will get.
"""

import json
import os.path
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from fnmatch import fnmatchcase
from pathlib import Path
from typing import Any

from iotuner._fileio import atomic_write_text
from iotuner.errors import TableError
from iotuner.formats import TableField, table_fields

__all__ = [
    "HEADER",
    "MAX_HINT_KEY",
    "SPECIFICITY",
    "TableEntry",
    "match",
    "read_table",
    "specificity",
    "table_problems",
    "write_table",
]

HEADER: dict[str, Any] = {"format": "iotuner-table", "version": 1}
"""The first line of every tuning table."""

SPECIFICITY: dict[str, int] = {
    "program": 4,
    "file": 4,
    "nprocs": 2,
    "group": 1,
    "pattern": 1,
    "op": 1,
    "layout": 1,
}
"""What each key that an entry has adds to its specificity (formats/README.md, Matching)."""

MAX_HINT_KEY = 255
"""Longest MPI info key accepted (MPICH's MPI_MAX_INFO_KEY)."""


@dataclass(frozen=True)
class TableEntry:
    """One entry of a tuning table; None means the key is absent (matches anything).

    The fields are the keys of formats/table_fields.def (a unit test keeps them equal);
    `line` is where the entry was read from, for messages, and is not part of the table.
    """

    at: str = "access"
    program: str | None = None
    file: str | None = None
    nprocs: int | None = None
    group: int | None = None
    pattern: str | None = None
    op: str | None = None
    layout: str | None = None
    hints: dict[str, str | int] = field(default_factory=dict)
    note: str | None = None
    line: int | None = field(default=None, compare=False)

    def to_json(self) -> dict[str, Any]:
        """The entry as a table line's object: keys in definition order, absent ones left out."""
        return {
            f.name: getattr(self, f.name)
            for f in table_fields()
            if getattr(self, f.name) is not None
        }


def read_table(path: Path | str) -> list[TableEntry]:
    """Read and validate a tuning table.

    Every problem found is reported, one per line of the TableError's message, in the form
    "table.jsonl line 3: 'group' must be an integer 1-56, got 'big'".
    """
    try:
        text = Path(path).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise TableError(f"cannot read {path}: {exc}") from None
    entries: list[TableEntry] = []
    problems: list[str] = []
    lines = text.splitlines()
    if not lines:
        raise TableError(f"{path}: empty file, expected the header {json.dumps(HEADER)} on line 1")
    header_problem = _check_header(lines[0])
    if header_problem:
        problems.append(f"{path} line 1: {header_problem}")
    for number, line in enumerate(lines[1:], start=2):
        if not line.strip() or line.startswith("#"):
            continue
        try:
            obj = json.loads(line, object_pairs_hook=_unique_keys)
        except (json.JSONDecodeError, _DuplicateKeyError) as exc:
            problems.append(f"{path} line {number}: {_json_problem(exc)}")
            continue
        line_problems = table_problems(obj)
        problems.extend(f"{path} line {number}: {p}" for p in line_problems)
        if not line_problems:
            entries.append(TableEntry(**obj, line=number))
    if problems:
        raise TableError("\n".join(problems))
    return entries


def write_table(path: Path | str, entries: Iterable[TableEntry]) -> None:
    """Write a tuning table atomically (a job starting meanwhile reads the old or the new one).

    Entries are validated as read_table would, so a table this writes is one it reads.
    """
    lines = [json.dumps(HEADER)]
    problems: list[str] = []
    for index, entry in enumerate(entries, start=1):
        obj = entry.to_json()
        entry_problems = table_problems(obj)
        problems.extend(f"entry {index}: {p}" for p in entry_problems)
        if not entry_problems:
            lines.append(json.dumps(obj))
    if problems:
        raise TableError("\n".join(f"{path}: {p}" for p in problems))
    atomic_write_text(Path(path), "\n".join(lines) + "\n")


def table_problems(obj: object) -> list[str]:
    """What is wrong with one entry's decoded JSON (empty when it is valid)."""
    if not isinstance(obj, dict):
        return [f"an entry must be a JSON object, got {_shown(obj)}"]
    fields = {f.name: f for f in table_fields()}
    problems = []
    for key, value in obj.items():
        spec = fields.get(key)
        if spec is None:
            problems.append(f"unknown key {key!r} (expected one of {', '.join(fields)})")
        else:
            problems.extend(_value_problems(spec, value))
    if "hints" not in obj:
        problems.append("'hints' is required (an object of MPI info keys and values)")
    if obj.get("at") == "open" and any(key in obj for key in ("group", "pattern", "op", "layout")):
        problems.append(
            'an entry with "at": "open" cannot name group, pattern, op or layout '
            "(they are not known at open)"
        )
    return problems


def specificity(entry: TableEntry) -> int:
    """How specific an entry is: the SPECIFICITY of each key it has, added up."""
    return sum(weight for key, weight in SPECIFICITY.items() if getattr(entry, key) is not None)


def match(
    entries: Sequence[TableEntry],
    *,
    at: str,
    program: str,
    file: str,
    nprocs: int,
    group: int | None = None,
    pattern: str | None = None,
    op: str | None = None,
    layout: str | None = None,
) -> TableEntry | None:
    """The entry the interposer applies at one decision point, or None when none applies.

    `at` is "open" or "access"; `program` the program's file name (a path is reduced to it);
    `file` the name passed to MPI_File_open. An entry applies when every key it has matches:
    `program` and `file` as globs (`file` against the base name unless the glob has a '/'),
    the others by equality; a key the decision point does not know (None, e.g. `group` at
    open) matches no entry that has it. The most specific entry wins, the earlier on a tie.
    """
    program = os.path.basename(program)
    wanted = {"nprocs": nprocs, "group": group, "pattern": pattern, "op": op, "layout": layout}
    best: TableEntry | None = None
    best_score = -1
    for entry in entries:
        if entry.at != at:
            continue
        if entry.program is not None and not fnmatchcase(program, entry.program):
            continue
        if entry.file is not None:
            name = file if "/" in entry.file else os.path.basename(file)
            if not fnmatchcase(name, entry.file):
                continue
        if any(getattr(entry, k) not in (None, v) for k, v in wanted.items()):
            continue
        score = specificity(entry)
        if score > best_score:
            best, best_score = entry, score
    return best


def _check_header(line: str) -> str | None:
    """What is wrong with the header line, or None."""
    try:
        obj = json.loads(line)
    except json.JSONDecodeError:
        obj = None
    if not isinstance(obj, dict) or obj.get("format") != HEADER["format"]:
        return f"expected the header {json.dumps(HEADER)}, got {line[:80]!r}"
    if obj.get("version") != HEADER["version"]:
        return (
            f"unsupported table version {_shown(obj.get('version'))} "
            f"(this iotuner reads version {HEADER['version']})"
        )
    if set(obj) != set(HEADER):
        return f"the header has only 'format' and 'version', got {', '.join(map(repr, obj))}"
    return None


def _value_problems(spec: TableField, value: Any) -> list[str]:
    """What is wrong with the value of one key, checked against its definition."""
    name = f"{spec.name!r}"
    if spec.type == "INT":
        low, high = spec.int_range
        in_range = f"{low}-{high}" if high is not None else f">= {low}"
        if not _is_int(value) or value < low or (high is not None and value > high):
            return [f"{name} must be an integer {in_range}, got {_shown(value)}"]
    elif spec.type == "ENUM":
        if value not in spec.choices:
            return [f"{name} must be one of {', '.join(spec.choices)}, got {_shown(value)}"]
    elif spec.type == "TEXT":
        if not isinstance(value, str):
            return [f"{name} must be a string, got {_shown(value)}"]
    elif spec.type == "HINTS":
        if not isinstance(value, dict):
            return [f"{name} must be an object of MPI info keys and values, got {_shown(value)}"]
        return [p for key, hint in value.items() for p in _hint_problems(key, hint)]
    return []


def _hint_problems(key: Any, value: Any) -> list[str]:
    problems = []
    if not isinstance(key, str) or not key or len(key) > MAX_HINT_KEY:
        shown = _shown(key[:40] + "..." if isinstance(key, str) and len(key) > 40 else key)
        problems.append(f"hint keys must be strings of 1-{MAX_HINT_KEY} characters, got {shown}")
    if not (isinstance(value, str) or _is_int(value)):
        problems.append(f"hint {key!r} must be a string or an integer, got {_shown(value)}")
    return problems


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _shown(value: Any) -> str:
    """A value as a message shows it: strings quoted, everything else as JSON."""
    return repr(value) if isinstance(value, str) else json.dumps(value, default=repr)


class _DuplicateKeyError(ValueError):
    pass


def _unique_keys(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    """json object hook refusing a repeated key (readers disagree on which one wins)."""
    obj: dict[str, Any] = {}
    for key, value in pairs:
        if key in obj:
            raise _DuplicateKeyError(f"key {key!r} appears twice")
        obj[key] = value
    return obj


def _json_problem(exc: ValueError) -> str:
    if isinstance(exc, json.JSONDecodeError):
        return f"not valid JSON ({exc.msg} at column {exc.colno})"
    return str(exc)
