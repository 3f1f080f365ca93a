"""Tuning tables (formats/README.md, "Tuning table"): read, check, write and match.

The rules come from formats/: the entry keys (table_fields.def), the hint vocabulary
(hints.def), the limits (limits.def) and the rules a line can break, in the order they are
checked (table_rules.def). The interposer's C reader applies the same rules in the same
order; `check_table` gives the verdict per line that both report, and the tests compare
the two readers on one corpus. The matching rule mirrors the interposer too, so the Python
side can explain and test which entry a job will get.
"""

import json
import os
import os.path
import re
import stat
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from fnmatch import fnmatchcase
from pathlib import Path
from typing import Any

from iotuner._fileio import atomic_write_text
from iotuner._safejson import too_deep
from iotuner.errors import TableError
from iotuner.formats import TableField, hint_vocabulary, limits, table_fields

__all__ = [
    "HEADER",
    "LineVerdict",
    "TableCheck",
    "TableEntry",
    "check_table",
    "fs_type_problem",
    "match",
    "merge_entries",
    "read_table",
    "specificity",
    "table_fs_type",
    "table_problems",
    "write_table",
]

HEADER: dict[str, Any] = {"format": "iotuner-table", "version": 1}
"""The first line of every tuning table, which may add `fs_type` (HEADER_FS_TYPE)."""

HEADER_FS_TYPE = "fs_type"
"""The header's optional key: the file system the table was measured on, as
/proc/self/mounts names it (iotuner.measurement.System.fs_type). The interposer leaves a
file on another file system untuned; a table without it applies everywhere."""

_FS_TYPE = re.compile(r"[a-z0-9][a-z0-9._+-]*")


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

    @property
    def case(self) -> tuple[Any, ...]:
        """What the entry applies to: every key but its hints and note. Two entries with
        the same case compete for the same decision; a merge keeps one of them."""
        return tuple(
            getattr(self, f.name) for f in table_fields() if f.name not in ("hints", "note")
        )

    def to_json(self) -> dict[str, Any]:
        """The entry as a table line's object: keys in definition order, absent ones left out."""
        return {
            f.name: getattr(self, f.name)
            for f in table_fields()
            if getattr(self, f.name) is not None
        }


@dataclass(frozen=True)
class LineVerdict:
    """What a reader does with one line that holds an entry: keep it, or drop it (`rule`)."""

    line: int
    rule: str | None
    message: str = ""
    entry: TableEntry | None = None


@dataclass(frozen=True)
class TableCheck:
    """The verdicts on a whole table, as both readers reach them.

    `refused` is (rule, message) when the table is refused whole (a FILE rule: the
    interposer then runs the program untuned); otherwise `verdicts` has one item per line
    that holds an entry, in line order.
    """

    path: Path
    refused: tuple[str, str] | None
    verdicts: tuple[LineVerdict, ...]
    fs_type: str | None = None

    @property
    def entries(self) -> list[TableEntry]:
        return [v.entry for v in self.verdicts if v.entry is not None]

    @property
    def dropped(self) -> list[LineVerdict]:
        return [v for v in self.verdicts if v.rule is not None]

    def as_records(self) -> list[dict[str, Any]]:
        """The verdicts as the C checker (interposer/tools/table_check.c) prints them."""
        if self.refused is not None:
            return [{"verdict": "refused", "rule": self.refused[0], "message": self.refused[1]}]
        records: list[dict[str, Any]] = []
        if self.fs_type is not None:
            records.append({"line": 1, "verdict": "ok", "header": {HEADER_FS_TYPE: self.fs_type}})
        order = [f.name for f in table_fields()] + ["specificity"]
        for v in self.verdicts:
            if v.entry is None:
                records.append(
                    {"line": v.line, "verdict": "dropped", "rule": v.rule, "message": v.message}
                )
                continue
            shown = {k: val for k, val in v.entry.to_json().items() if k != "note"}
            shown["at"] = v.entry.at
            shown["hints"] = {k: str(val) for k, val in v.entry.hints.items()}
            shown["specificity"] = specificity(v.entry)
            ordered = {k: shown[k] for k in order if k in shown}
            records.append({"line": v.line, "verdict": "ok", "entry": ordered})
        return records


def check_table(path: Path | str) -> TableCheck:
    """Read a tuning table and judge every line, as the interposer will; never raises for
    what the file holds (TableCheck.refused and the dropped verdicts say it)."""
    path = Path(path)
    data, refused = _read_bytes(path)
    if refused is not None:
        return TableCheck(path, refused, ())
    max_bytes = limits()["TABLE_MAX_BYTES"]
    if len(data) > max_bytes:
        return TableCheck(path, ("too_large", f"larger than {max_bytes} bytes"), ())
    lines = data.split(b"\n")
    header, fs_type = _header_problem(lines[0])
    if header is not None:
        return TableCheck(path, ("header", header), ())
    verdicts = []
    for number, raw in enumerate(lines[1:], start=2):
        if raw.startswith(b"#") or not raw.strip(b" \t\r"):
            continue
        verdicts.append(_line_verdict(number, raw))
    return TableCheck(path, None, tuple(verdicts), fs_type)


def table_fs_type(path: Path | str) -> str | None:
    """The header's fs_type of the table at `path`, None when it names none or the table
    is missing or refused (a rewrite of such a table keeps what it said: nothing)."""
    return check_table(path).fs_type


def fs_type_problem(value: object) -> str | None:
    """What is wrong with a header's fs_type (the C reader's iot__fs_type_valid), or None."""
    max_chars = limits()["FS_TYPE_MAX_CHARS"]
    if (
        isinstance(value, str)
        and _FS_TYPE.fullmatch(value)
        and len(value) <= max_chars
        and value != "unknown"
    ):
        return None
    return (
        f"fs_type must be a file system type as /proc/self/mounts names it (1 to {max_chars} "
        "of a-z, 0-9, '.', '_', '+', '-', starting with a letter or digit, not \"unknown\"), "
        f"got {_shown(value)}"
    )


def read_table(path: Path | str) -> list[TableEntry]:
    """Read a tuning table whose every line must be accepted (for tools that build on it).

    TableError lists every problem, one per line, in the form
    "table.jsonl line 3 (hint_value): hint cb_buffer_size must be ...".
    """
    checked = check_table(path)
    if checked.refused is not None:
        rule, message = checked.refused
        raise TableError(f"{path}: refused ({rule}): {message}")
    problems = [f"{path} line {v.line} ({v.rule}): {v.message}" for v in checked.dropped]
    if problems:
        raise TableError("\n".join(problems))
    return checked.entries


def write_table(
    path: Path | str, entries: Iterable[TableEntry], *, fs_type: str | None = None
) -> None:
    """Write a tuning table atomically (a job starting meanwhile reads the old or the new one).

    Entries are validated as read_table would, so a table this writes is one it reads.
    `fs_type`: the file system the entries were measured on (header, HEADER_FS_TYPE);
    None or "unknown" writes none (the table then applies on every file system).
    """
    header = dict(HEADER)
    if fs_type is not None and fs_type != "unknown":
        problem = fs_type_problem(fs_type)
        if problem is not None:
            raise TableError(f"{path}: {problem}")
        header[HEADER_FS_TYPE] = fs_type
    lines = [json.dumps(header)]
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


def merge_entries(
    table: Sequence[TableEntry], new: Sequence[TableEntry], *, in_front: bool = False
) -> list[TableEntry]:
    """`table` with the `new` entries in it: each replaces the entries of its case (the
    first such in its place, the others dropped); new cases go at the end, or all new
    entries in front when `in_front` (as trace history puts its derived entries).
    The order decides nothing the interposer matches (the most specific entry wins), but
    a table kept in a stable order reads and diffs well.
    """
    by_case = {entry.case: entry for entry in new}
    if in_front:
        return [*by_case.values(), *(e for e in table if e.case not in by_case)]
    merged: list[TableEntry] = []
    placed: set[tuple[Any, ...]] = set()
    for entry in table:
        if entry.case not in by_case:
            merged.append(entry)
        elif entry.case not in placed:
            merged.append(by_case[entry.case])
            placed.add(entry.case)
    return merged + [e for case, e in by_case.items() if case not in placed]


def table_problems(obj: object) -> list[str]:
    """What is wrong with one entry's decoded JSON (empty when it is valid): the first
    rule it breaks, in the readers' order, as a message."""
    verdict = _entry_problem(obj)
    return [] if verdict is None else [verdict[1]]


def specificity(entry: TableEntry) -> int:
    """How specific an entry is: the weight (table_fields.def) of each key it has, added up."""
    return sum(f.weight for f in table_fields() if getattr(entry, f.name) is not None)


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

    `at` is "open", "view" or "access"; `program` the program's file name (a path is reduced to it);
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


# ------------------------------------------------------------------ reading


def _read_bytes(path: Path) -> tuple[bytes, tuple[str, str] | None]:
    """The file's bytes, or a FILE rule: only a regular file, never blocking on a FIFO."""
    max_bytes = limits()["TABLE_MAX_BYTES"]
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | os.O_CLOEXEC)
    except OSError as exc:
        return b"", ("unreadable", f"cannot read {path}: {exc.strerror}")
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            return b"", ("not_regular", f"{path} is not a regular file")
        if info.st_size > max_bytes:
            return b"", (
                "too_large",
                f"{path} has {info.st_size} bytes, more than the {max_bytes} a table may have",
            )
        chunks, size = [], 0
        while size <= max_bytes:
            chunk = os.read(fd, max_bytes + 1 - size)
            if not chunk:
                break
            chunks.append(chunk)
            size += len(chunk)
        return b"".join(chunks), None
    except OSError as exc:
        return b"", ("unreadable", f"cannot read {path}: {exc.strerror}")
    finally:
        os.close(fd)


class _LineProblem(Exception):
    def __init__(self, rule: str, message: str) -> None:
        super().__init__(message)
        self.rule = rule
        self.message = message


def _decode_line(raw: bytes) -> Any:
    """One line as JSON, by the line rules in the C reader's order (encoding, length,
    depth, syntax, duplicate keys); _LineProblem otherwise."""
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        raise _LineProblem("encoding", "the line is not valid UTF-8") from None
    max_line = limits()["TABLE_MAX_LINE_BYTES"]
    if len(raw) > max_line:
        raise _LineProblem("line_too_long", f"the line is longer than {max_line} bytes")
    max_depth = limits()["JSON_MAX_DEPTH"]
    if too_deep(text, max_depth):
        raise _LineProblem("json", f"JSON nested deeper than {max_depth} levels")
    # A repeated key is only noted: a line that is not valid JSON is dropped for json (the
    # earlier rule) wherever the repeat is, as the C reader does.
    repeats = _Repeats()
    try:
        value = json.loads(
            text,
            object_pairs_hook=repeats.hook,
            parse_constant=_refuse_constant,
            parse_int=_bounded_int,
        )
    except (json.JSONDecodeError, ValueError):
        raise _LineProblem("json", "not valid JSON") from None
    if _has_bad_string(value) or repeats.lost_bad_string:
        raise _LineProblem("json", "not valid JSON") from None
    if repeats.keys:
        raise _LineProblem("duplicate_key", "an object names the same key twice")
    return value


def _refuse_constant(name: str) -> Any:
    raise ValueError(f"{name} is not JSON")


_INTEGER_MAX_CHARS = 30
"""The longest integer (with its sign) read as a number. RATIONALE: every longer one is out
of every range of table_fields.def and hints.def (whose largest fits in 19 digits), and
int() of more than 4,300 digits raises; the C reader needs no such bound."""


def _bounded_int(text: str) -> int | float:
    # A float says "not an integer in range" without int() raising on a huge one.
    return int(text) if len(text) <= _INTEGER_MAX_CHARS else float("inf")


def _has_bad_string(value: Any) -> bool:
    """Strings the C reader cannot hold: a NUL, or a lone surrogate (not UTF-8)."""
    if isinstance(value, str):
        return "\x00" in value or any("\ud800" <= c <= "\udfff" for c in value)
    if isinstance(value, dict):
        return any(_has_bad_string(k) or _has_bad_string(v) for k, v in value.items())
    if isinstance(value, list):
        return any(_has_bad_string(v) for v in value)
    return False


def _header_problem(raw: bytes) -> tuple[str | None, str | None]:
    """What is wrong with the header line (None when nothing), and its fs_type."""
    expected = f"line 1: expected the header {json.dumps(HEADER)}"
    try:
        obj = _decode_line(raw)
    except _LineProblem:
        return expected, None
    keys = {*HEADER, HEADER_FS_TYPE}
    if not isinstance(obj, dict) or set(obj) - keys or obj.get("format") != "iotuner-table":
        return expected, None
    version = obj.get("version")
    if _is_int(version) and version == HEADER["version"]:
        if HEADER_FS_TYPE not in obj:
            return None, None
        problem = fs_type_problem(obj[HEADER_FS_TYPE])
        return (f"{expected}: {problem}", None) if problem else (None, obj[HEADER_FS_TYPE])
    if isinstance(version, int | float) and not isinstance(version, bool):
        return f"{expected}: this interposer reads table version 1, got version {version}", None
    return expected, None


def _line_verdict(number: int, raw: bytes) -> LineVerdict:
    try:
        obj = _decode_line(raw)
    except _LineProblem as problem:
        return LineVerdict(number, problem.rule, problem.message)
    verdict = _entry_problem(obj)
    if verdict is not None:
        return LineVerdict(number, verdict[0], verdict[1])
    assert isinstance(obj, dict)
    return LineVerdict(number, None, "", TableEntry(**obj, line=number))


def _entry_problem(obj: object) -> tuple[str, str] | None:
    """The first rule an entry breaks (rule, message), checked in the C reader's order."""
    if not isinstance(obj, dict):
        return "not_object", "an entry must be a JSON object"
    fields = {f.name: f for f in table_fields()}
    for key, value in obj.items():
        spec = fields.get(key)
        if spec is None:
            return "unknown_field", (f"unknown key {key[:64]!r} (expected {', '.join(fields)})")
        problem = _field_problem(spec, value)
        if problem is not None:
            return "field_value", problem
    if "hints" not in obj:
        return "hints_missing", "'hints' is required (an object of MPI info keys and values)"
    if obj.get("at") == "open" and any(key in obj for key in ("group", "pattern", "op", "layout")):
        return "open_with_access_field", (
            'an entry with "at": "open" cannot name group, pattern, op or layout '
            "(they are not known at open)"
        )
    if obj.get("at") == "view" and any(key in obj for key in ("group", "pattern", "op")):
        return "open_with_access_field", (
            'an entry with "at": "view" cannot name group, pattern or op '
            "(they are not known at set_view)"
        )
    if obj.get("at", "access") == "access" and obj.get("pattern") == "independent":
        return "unreachable", (
            "independent calls make no decision, so no decision point reaches this entry: "
            'give its hints in an "at": "open" or "view" entry'
        )
    vocabulary = hint_vocabulary()
    for key, value in obj["hints"].items():
        hint = vocabulary.get(key)
        if hint is None:
            return "hint_unknown", (
                f"hint {key[:64]!r} is not in the hint vocabulary (formats/hints.def)"
            )
        if not (isinstance(value, str) or _is_int(value)):
            return "hint_value", f"hint {key} must be a string or an integer"
        problem = hint.problem(str(value))
        if problem is not None:
            return "hint_value", problem
        if obj.get("at", "access") != "open" and hint.when == "OPEN":
            return "hint_when", (
                f'hint {key} is only read when a file is opened: put it in an "at": "open" entry'
            )
    return None


def _field_problem(spec: TableField, value: Any) -> str | None:
    """What is wrong with the value of one key, checked against its definition."""
    name = f"{spec.name!r}"
    if spec.type == "INT":
        low, high = spec.int_range
        in_range = f"{low}-{high}" if high is not None else f">= {low}"
        if not _is_int(value) or value < low or (high is not None and value > high):
            return f"{name} must be an integer {in_range}, got {_shown(value)}"
    elif spec.type == "ENUM":
        if value not in spec.choices:
            return f"{name} must be one of {', '.join(spec.choices)}, got {_shown(value)}"
    elif spec.type == "TEXT":
        max_chars = limits()["TEXT_MAX_CHARS"]
        if not isinstance(value, str) or len(value.encode("utf-8")) > max_chars:
            return f"{name} must be a string of at most {max_chars} bytes, got {_shown(value)}"
    elif spec.type == "HINTS" and not isinstance(value, dict):
        return f"{name} must be an object of MPI info keys and values, got {_shown(value)}"
    return None


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _shown(value: Any) -> str:
    """A value as a message shows it: strings quoted, everything else as JSON."""
    text = repr(value) if isinstance(value, str) else json.dumps(value, default=repr)
    return text if len(text) <= 80 else text[:77] + "..."


@dataclass
class _Repeats:
    """A json object hook that notes repeated keys (readers disagree on which one wins, so
    such a line is dropped). A value an object loses to a repeat is checked for strings the
    C reader cannot hold while it is still seen (`lost_bad_string`)."""

    keys: list[str] = field(default_factory=list)
    lost_bad_string: bool = False

    def hook(self, pairs: list[tuple[str, Any]]) -> dict[str, Any]:
        obj: dict[str, Any] = {}
        for key, value in pairs:
            if key in obj:
                self.keys.append(key)
                self.lost_bad_string = self.lost_bad_string or _has_bad_string(obj[key])
            obj[key] = value
        return obj
