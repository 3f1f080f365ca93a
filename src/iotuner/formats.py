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
from dataclasses import dataclass
from pathlib import Path

from iotuner.errors import FormatError

__all__ = [
    "NUM_SIZE_GROUPS",
    "OpField",
    "SizeGroup",
    "TableField",
    "formats_dir",
    "op_fields",
    "parse_op_fields",
    "parse_size_groups",
    "parse_table_fields",
    "size_group",
    "size_groups",
    "table_fields",
]

NUM_SIZE_GROUPS = 56
"""Number of data-size groups (the dissertation's §3.2)."""

_DEF_FILES = ("size_groups.def", "trace_op_fields.def", "table_fields.def")
_OP_TYPES = frozenset({"INT", "REAL", "TEXT"})
_TABLE_TYPES = frozenset({"INT", "TEXT", "ENUM", "HINTS"})
_INT_RANGE = re.compile(r"(-?\d+)-(\d+)?")


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
    """One column of a trace `op` record: its name, type (INT, REAL, TEXT) and meaning."""

    name: str
    type: str
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
    fields = []
    for line, args in _invocations(path, "IOT_OP_FIELD", "wws"):
        name, type_, description = (str(a) for a in args)
        _check_type(path, line, name, type_, _OP_TYPES)
        fields.append(OpField(name, type_, description))
    _check_unique(path, [f.name for f in fields])
    return tuple(fields)


def parse_table_fields(path: Path) -> tuple[TableField, ...]:
    """Parse and check a table_fields.def file (unique names, types and their ranges)."""
    fields = []
    for line, args in _invocations(path, "IOT_TABLE_FIELD", "wwss"):
        name, type_, allowed, description = (str(a) for a in args)
        _check_type(path, line, name, type_, _TABLE_TYPES)
        field = TableField(name, type_, allowed, description)
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
_ARG = re.compile(r'\s*(?:"((?:[^"\\\n]|\\.)*)"|(-?\w+))\s*([,)])')
_ARG_KINDS = {"i": "an integer", "w": "a word", "s": "a string literal"}


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
            elif kind == "w" and word is not None and re.fullmatch(r"[A-Za-z_]\w*", word):
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
