"""CSV files of measurements made elsewhere, read through a column mapping.

CSV column mapping
------------------
A TOML file (or JSON, with the same keys) that says which CSV column holds which of our
fields::

    # [columns]: our field = the CSV column that holds it
    [columns]
    nprocs = "np"
    pattern = "mode"
    op = "access"
    bytes_per_rank = "xfer_bytes"
    bandwidth = "bw_MBps"               # or seconds, or both
    "cfg:romio_cb_write" = "cb_write"   # a configuration parameter

    # [computed]: our field = arithmetic over CSV columns and numbers
    [computed]
    bytes_per_rank = "total_bytes / np"
    "cfg:striping_unit" = "stripe_kib * 1024"

    # [defaults]: one value for every row, for fields no column holds (or empty cells)
    [defaults]
    nodes = 1
    layout = "contiguous"
    "cfg:striping_factor" = 4

    # [values.<field>]: cell text -> our word
    [values.pattern]
    coll = "collective"
    ind = "independent"

    # [scale]: multiply a numeric column (here MB/s -> MiB/s)
    [scale]
    bandwidth = 0.95367431640625

    # [system]: where the measurements were made (the command line may override)
    [system]
    host = "cluster1"
    mpi_library = "Open MPI 4.1.5"
    fs_type = "lustre"
    fs_driver = "lustre"
    fs_mount = "/scratch"

    space = "site-sweep"    # name recorded with the measurements (default "csv")
    delimiter = ","         # one character (default ",")

Fields: nprocs, nodes, pattern (collective|independent), op (write|read), layout
(contiguous|strided) and bytes_per_rank are required (a column, a computed field or a
default); block (default 0) and fill (default 1) describe a strided layout;
calls_per_open (default 1) the calls per rank between open and close. Optional, unknown
when no column, computed field or default gives them and where a cell is empty:
ranks_per_node, files (1: one shared file, nprocs: a file per process), interleaved
(true|false, also yes|no|1|0), stripe_count, stripe_size (bytes) and program (one word).
bandwidth is MiB/s and seconds the time of one measurement: give one of them, the other
is derived with bytes (all ranks; default bytes_per_rank * nprocs); repeat (default: the
count of earlier rows of the file with the same workload and configuration).
`cfg:<parameter>` columns form the configuration; an empty cell leaves that parameter at
its default. A row's uid is made from its text, header and line number, so a file that
only grew adds only its new rows.

Computed fields: `[computed]` gives a field by an expression over the row's CSV columns
(by their header names) and numbers, with + - * / (true division) // (floor division),
unary minus and parentheses; nothing else (no functions, no powers). A column whose name
is not a Python identifier is written in backquotes: `` "`total MiB` * 1048576" ``. The
result goes through the field's checks like a cell: an integer field takes a result with
a fraction only as an error, naming the line. [scale] applies to computed fields too;
[values] does not.
"""

import ast
import csv
import hashlib
import io
import json
import math
import operator
import re
import tomllib
from collections import Counter
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, cast

from iotuner._inputs import InputError, read_bounded_text
from iotuner._safejson import loads_json
from iotuner.ingest._common import (
    MAX_MEASUREMENTS_FILE_BYTES,
    MIB,
    IngestError,
    IngestResult,
    commit_run,
    decode_text,
    read_input,
)
from iotuner.measurement import (
    CONFIG_PREFIX,
    LAYOUTS,
    OPS,
    OPTIONAL_WORKLOAD_FIELDS,
    PATTERNS,
    REQUIRED_WORKLOAD_FIELDS,
    WORKLOAD_COLUMNS,
    Measurement,
    System,
    Workload,
)
from iotuner.space import config_key
from iotuner.store import Record, Store, canonical_config

CSV_FIELDS = (
    *(column for column in WORKLOAD_COLUMNS if column != "group"),  # group follows from size
    "bandwidth",
    "seconds",
    "bytes",
    "repeat",
)
"""The fields a CSV mapping may name, besides cfg:<parameter>."""

_SCALABLE = ("block", "bytes_per_rank", "stripe_size", "bandwidth", "seconds", "bytes")
_WHOLE_BYTES = ("block", "bytes_per_rank", "stripe_size", "bytes")
"""Scaled fields that are byte counts: the scaled value is rounded to a whole byte."""
LARGEST_INTEGER = 2**63 - 1
"""The largest integer a field may hold: what the knowledge base's INTEGER columns take
(SQLite's and PostgreSQL's BIGINT)."""
MAX_MAPPING_BYTES = 1 << 20
"""The largest column mapping read (a mapping of a few hundred columns is a few KiB)."""
_MAX_PROBLEMS = 20
"""Bad cells reported per CSV file before giving up."""


@dataclass(frozen=True)
class CsvMapping:
    """How to read a CSV file of measurements (the module docstring describes the file).

    `columns`: field -> CSV column; `computed`: field -> expression over CSV columns
    (Formula); `defaults`: field -> value for every row (and for empty cells); `values`:
    field -> {cell text: our text}; `scale`: field -> factor; `system`: System fields;
    `space`: the name recorded with the measurements.
    """

    columns: Mapping[str, str]
    computed: Mapping[str, str] = field(default_factory=dict)
    defaults: Mapping[str, str | int | float] = field(default_factory=dict)
    values: Mapping[str, Mapping[str, str]] = field(default_factory=dict)
    scale: Mapping[str, float] = field(default_factory=dict)
    system: Mapping[str, str] = field(default_factory=dict)
    space: str | None = None
    delimiter: str = ","


_MAPPING_KEYS = (
    "columns",
    "computed",
    "defaults",
    "values",
    "scale",
    "system",
    "space",
    "delimiter",
)
_SYSTEM_FIELDS = ("host", "mpi_library", "fs_type", "fs_driver", "fs_mount")


def load_mapping(path: Path | str) -> CsvMapping:
    """A CSV column mapping from a TOML file (JSON when the name ends in .json)."""
    path = Path(path)
    try:
        text = read_bounded_text(path, "a CSV column mapping (TOML or JSON)", MAX_MAPPING_BYTES)
    except InputError as exc:
        raise IngestError(str(exc)) from None
    try:
        data = loads_json(text) if path.suffix == ".json" else tomllib.loads(text)
    except json.JSONDecodeError as exc:
        raise IngestError(f"{path}: not valid JSON ({exc.msg} at line {exc.lineno})") from None
    except tomllib.TOMLDecodeError as exc:
        raise IngestError(f"{path}: not valid TOML ({exc})") from None
    except RecursionError:
        # tomllib recurses once per level of nested arrays and inline tables.
        raise IngestError(
            f"{path}: expected a TOML mapping, got arrays or tables nested too deep to read"
        ) from None
    return mapping_from_dict(data, str(path))


def mapping_from_dict(data: Any, where: str = "mapping") -> CsvMapping:
    """A CsvMapping from the decoded file; IngestError says what is wrong with it."""
    if not isinstance(data, dict):
        raise IngestError(f"{where}: expected a table with [columns], got {type(data).__name__}")
    unknown = sorted(set(data) - set(_MAPPING_KEYS))
    if unknown:
        raise IngestError(
            f"{where}: unknown key(s) {', '.join(unknown)} (expected {', '.join(_MAPPING_KEYS)})"
        )

    def table(name: str, check: Callable[[Any], bool], expected: str) -> dict[str, Any]:
        value = data.get(name, {})
        if not isinstance(value, dict) or not all(
            isinstance(k, str) and check(v) for k, v in value.items()
        ):
            raise IngestError(f"{where}: [{name}] must map names to {expected}, got {value!r}")
        return value

    def is_scalar(v: Any) -> bool:
        return isinstance(v, str | int | float) and not isinstance(v, bool)

    columns = table("columns", lambda v: isinstance(v, str) and v != "", "CSV column names")
    if "columns" not in data:
        raise IngestError(f"{where}: [columns] is missing (our field = the CSV column)")
    computed = table(
        "computed", lambda v: isinstance(v, str) and v.strip() != "", "expressions (text)"
    )
    for name, text in computed.items():
        Formula.parse(text, f"{where}: computed.{name}")
    both = sorted(set(columns) & set(computed))
    if both:
        raise IngestError(
            f"{where}: {', '.join(both)} in both [columns] and [computed]; give each field once"
        )
    values = table(
        "values",
        lambda v: isinstance(v, dict) and all(is_scalar(x) for x in v.values()),
        "tables of cell text = our text",
    )
    scale = table(
        "scale",
        lambda v: is_scalar(v) and not isinstance(v, str) and math.isfinite(v) and v > 0,
        "factors > 0",
    )
    system = table("system", lambda v: isinstance(v, str) and v != "", "non-empty strings")
    unknown = sorted(set(system) - set(_SYSTEM_FIELDS))
    if unknown:
        raise IngestError(
            f"{where}: [system] has unknown key(s) {', '.join(unknown)} "
            f"(expected {', '.join(_SYSTEM_FIELDS)})"
        )
    bad_scale = sorted(set(scale) - set(_SCALABLE))
    if bad_scale:
        raise IngestError(
            f"{where}: [scale] may name {', '.join(_SCALABLE)}, got {', '.join(bad_scale)}"
        )
    space = data.get("space")
    if space is not None and (not isinstance(space, str) or not space):
        raise IngestError(f"{where}: 'space' must be a non-empty string, got {space!r}")
    delimiter = data.get("delimiter", ",")
    if not isinstance(delimiter, str) or len(delimiter) != 1:
        raise IngestError(f"{where}: 'delimiter' must be one character, got {delimiter!r}")
    return CsvMapping(
        columns=columns,
        computed=computed,
        defaults=table(
            "defaults", lambda v: is_scalar(v) or isinstance(v, bool), "strings or numbers"
        ),
        values={f: {str(k): str(v) for k, v in m.items()} for f, m in values.items()},
        scale={k: float(v) for k, v in scale.items()},
        system=system,
        space=space,
        delimiter=delimiter,
    )


class _Bad(ValueError):
    """A value that is not what a field expects; the message says what was expected."""


def _integer(text: str, minimum: int) -> int:
    try:
        number = float(text)
        value = int(number)
        if value != number:
            raise ValueError
    except (ValueError, OverflowError):
        raise _Bad(f"an integer >= {minimum}") from None
    if value < minimum:
        raise _Bad(f"an integer >= {minimum}")
    if value > LARGEST_INTEGER:
        raise _Bad(f"an integer >= {minimum} that fits in 64 bits (<= {LARGEST_INTEGER})")
    return value


def _number(text: str, minimum: float, inclusive: bool, maximum: float | None = None) -> float:
    relation = ">=" if inclusive else ">"
    expected = f"a number {relation} {minimum:g}" + (f" and <= {maximum:g}" if maximum else "")
    try:
        value = float(text)
    except ValueError:
        raise _Bad(expected) from None
    if (
        not math.isfinite(value)
        or value < minimum
        or (value == minimum and not inclusive)
        or (maximum is not None and value > maximum)
    ):
        raise _Bad(expected)
    return value


_TRUE = ("true", "yes", "1")
_FALSE = ("false", "no", "0")


def _flag(text: str) -> bool:
    word = text.strip().lower()
    if word not in _TRUE + _FALSE:
        raise _Bad("true or false (yes, no, 1, 0)")
    return word in _TRUE


def _program(text: str) -> str:
    if not text or text.split() != [text]:
        raise _Bad("a program name: one word")
    return text


def _word(choices: Sequence[str]) -> Callable[[str], str]:
    def convert(text: str) -> str:
        if text not in choices:
            raise _Bad(" or ".join(choices))
        return text

    return convert


_CONVERTERS: dict[str, Callable[[str], Any]] = {
    "nprocs": lambda t: _integer(t, 1),
    "nodes": lambda t: _integer(t, 1),
    "pattern": _word(PATTERNS),
    "op": _word(OPS),
    "layout": _word(LAYOUTS),
    "block": lambda t: _integer(t, 0),
    "fill": lambda t: _number(t, 0, False, 1),
    "bytes_per_rank": lambda t: _integer(t, 0),
    "calls_per_open": lambda t: _integer(t, 1),
    "ranks_per_node": lambda t: _integer(t, 1),
    "files": lambda t: _integer(t, 1),
    "interleaved": _flag,
    "stripe_count": lambda t: _integer(t, 1),
    "stripe_size": lambda t: _integer(t, 1),
    "program": _program,
    "memory_block": lambda t: _integer(t, 0),
    "bandwidth": lambda t: _number(t, 0, False),
    "seconds": lambda t: _number(t, 0, False),
    "bytes": lambda t: _integer(t, 0),
    "repeat": lambda t: _integer(t, 0),
}


def _check_fields(names: Iterable[str], where: str) -> None:
    unknown = [n for n in names if n not in CSV_FIELDS and not _is_cfg(n)]
    if unknown:
        raise IngestError(
            f"{where} names unknown field(s) {', '.join(map(repr, unknown))} "
            f"(expected {', '.join(CSV_FIELDS)} or cfg:<parameter>)"
        )


def _is_cfg(name: str) -> bool:
    return name.startswith(CONFIG_PREFIX) and len(name) > len(CONFIG_PREFIX)


def ingest_csv(
    store: Store,
    path: Path | str,
    mapping: CsvMapping | Mapping[str, str],
    system: System | None = None,
    space: str | None = None,
    defaults: Mapping[str, str | int | float] | None = None,
) -> IngestResult:
    """Ingest a CSV file of measurements through a column mapping.

    `mapping` is a CsvMapping (load_mapping) or just its columns (field -> CSV column).
    `system` defaults to the mapping's [system] (host required, other fields "unknown"),
    `space` to the mapping's, else "csv"; `defaults` are added to the mapping's. Every bad
    cell is reported (up to 20) with its line, column, field and what was expected, and
    then nothing is added.
    """
    # Read under the name given (a link to /dev/zero is refused as the link), then
    # stored under the file's real path.
    named = Path(path)
    path = named.resolve()
    if not isinstance(mapping, CsvMapping):
        mapping = mapping_from_dict({"columns": dict(mapping)})
    all_defaults = {**mapping.defaults, **(defaults or {})}
    where = f"the mapping for {path.name}"
    _check_fields(mapping.columns, f"{where}: [columns]")
    _check_fields(mapping.computed, f"{where}: [computed]")
    _check_fields(all_defaults, f"{where}: [defaults]")
    _check_fields(mapping.values, f"{where}: [values]")
    formulas = {
        name: Formula.parse(text, f"{where}: computed.{name}")
        for name, text in mapping.computed.items()
    }
    given = set(mapping.columns) | set(formulas) | set(all_defaults)
    missing = [f for f in REQUIRED_WORKLOAD_FIELDS if f not in given]
    if missing:
        raise IngestError(
            f"{where}: no column, computed field or default for required field(s) "
            f"{', '.join(missing)} (add them to [columns], [computed] or [defaults])"
        )
    timing = {"bandwidth", "seconds"} & given
    if not timing:
        raise IngestError(f"{where}: expected a bandwidth (MiB/s) or a seconds column, got none")
    default_values: dict[str, Any] = {}
    for name, value in all_defaults.items():
        try:
            default_values[name] = _convert(name, str(value))
        except _Bad as exc:
            raise IngestError(f"{where}: defaults.{name}: expected {exc}, got {value!r}") from None
    if system is None:
        if "host" not in mapping.system:
            raise IngestError(
                f"{where}: expected the system the measurements were made on "
                "([system] host = ... in the mapping, or --system-host)"
            )
        system = System(**{f: mapping.system.get(f, "unknown") for f in _SYSTEM_FIELDS})
    space = space or mapping.space or "csv"

    data = read_input(named, "a CSV file of measurements", MAX_MEASUREMENTS_FILE_BYTES)
    reader = csv.reader(
        io.StringIO(decode_text(path, data), newline=""), delimiter=mapping.delimiter
    )
    try:
        header = [name.strip() for name in next(reader)]
    except StopIteration:
        raise IngestError(f"{path}: empty file, expected a header line of column names") from None
    except csv.Error as exc:
        raise IngestError(f"{path} line 1: not valid CSV ({exc})") from None
    position = {}
    for name, column in mapping.columns.items():
        if header.count(column) != 1:
            problem = "twice in" if header.count(column) > 1 else "not in"
            raise IngestError(
                f"{path}: column {column!r} (for {name}) is {problem} the header "
                f"(columns: {', '.join(header)})"
            )
        position[name] = header.index(column)
    for name, formula in formulas.items():
        for column in formula.columns:
            if header.count(column) != 1:
                problem = "twice in" if header.count(column) > 1 else "not in"
                raise IngestError(
                    f"{path}: computed.{name} = {formula.text!r} reads column {column!r}, "
                    f"which is {problem} the header (columns: {', '.join(header)})"
                )

    rows = _CsvRows(path, header, position, formulas, default_values, mapping)
    measurements: list[Measurement] = []
    try:
        for row in reader:
            if len(rows.problems) >= _MAX_PROBLEMS:
                break
            measurement = rows.measurement(reader.line_num, row)
            if measurement is not None:
                measurements.append(measurement)
    except csv.Error as exc:
        rows.problems.append(f"{path} line {reader.line_num}: not valid CSV ({exc})")
    if rows.problems:
        shown = rows.problems[:_MAX_PROBLEMS]
        more = " (the first ones)" if len(shown) < len(rows.problems) else ""
        raise IngestError(
            f"{path}: {len(shown)} bad value(s){more}, nothing was added:\n" + "\n".join(shown)
        )
    records: list[Record] = []
    repeats: Counter[tuple[Workload, str]] = Counter()
    for measurement in measurements:
        key = (measurement.workload, config_key(measurement.config))
        if "repeat" not in position and "repeat" not in default_values:
            measurement = replace(measurement, repeat=repeats[key])
        repeats[key] += 1
        records.append((measurement, system, space))
    return commit_run(
        store,
        path,
        "csv",
        hashlib.sha256(data).hexdigest(),
        records,
        0,
        system=system,
        meta={
            "columns": dict(mapping.columns),
            "computed": dict(mapping.computed),
            "defaults": dict(all_defaults),
            "space": space,
        },
    )


def _convert(name: str, text: str, scale: float | None = None) -> Any:
    """The value of field `name` from its text; _Bad says what was expected."""
    if _is_cfg(name):
        return canonical_config({name: text})[name]
    if scale is not None and name in _WHOLE_BYTES:
        scaled = round(_number(text, 0, True) * scale)
        if scaled > LARGEST_INTEGER:
            raise _Bad(f"a number whose scaled value is <= {LARGEST_INTEGER}")
        return scaled
    value = _CONVERTERS[name](text)
    return value * scale if scale is not None else value


@dataclass
class _CsvRows:
    """Turns CSV rows into measurements, collecting the problems of bad ones."""

    path: Path
    header: list[str]
    position: dict[str, int]
    formulas: dict[str, "Formula"]
    defaults: dict[str, Any]
    mapping: CsvMapping
    problems: list[str] = field(default_factory=list)

    def measurement(self, line: int, row: list[str]) -> Measurement | None:
        """The measurement of one row; None (and problems noted) for a blank or bad row."""
        if not any(cell.strip() for cell in row):
            return None
        if len(row) != len(self.header):
            self.problems.append(
                f"{self.path} line {line}: expected {len(self.header)} fields as in the "
                f"header, got {len(row)}"
            )
            return None
        values: dict[str, Any] = {}
        config: dict[str, str | int] = {}
        before = len(self.problems)
        for name in dict.fromkeys([*self.position, *self.formulas, *self.defaults]):
            formula = self.formulas.get(name)
            if formula is not None:
                # A formula over an empty cell is an empty cell (default, unknown, error).
                blank = [c for c in formula.columns if not row[self.header.index(c)].strip()]
                where = f"{self.path} line {line} (computed {name} = {formula.text!r})"
                cell = "" if blank else "computed"
            else:
                cell = row[self.position[name]].strip() if name in self.position else ""
                column = self.header[self.position[name]] if name in self.position else ""
                where = f"{self.path} line {line}, column {column!r} ({name})"
            if formula is not None and cell:
                try:
                    text = _number_text(formula.evaluate(self._numbers(formula.columns, row)))
                except _Bad as exc:
                    self.problems.append(f"{where}: expected {exc}")
                    continue
                try:
                    value = _convert(name, text, self.mapping.scale.get(name))
                except _Bad as exc:
                    self.problems.append(f"{where}: expected {exc}, got {text}")
                    continue
            elif cell:
                text = self.mapping.values.get(name, {}).get(cell, cell)
                try:
                    value = _convert(name, text, self.mapping.scale.get(name))
                except _Bad as exc:
                    self.problems.append(f"{where}: expected {exc}, got {cell!r}")
                    continue
            elif name in self.defaults:
                value = self.defaults[name]
            elif _is_cfg(name):
                continue  # an empty cell: the parameter is at its default
            elif name in OPTIONAL_WORKLOAD_FIELDS:
                continue  # an empty cell: unknown
            elif formula is not None:
                self.problems.append(
                    f"{where}: expected a number in column {blank[0]!r}, got an empty cell"
                )
                continue
            else:
                self.problems.append(f"{where}: expected {_expected(name)}, got an empty cell")
                continue
            if _is_cfg(name):
                config[name.removeprefix(CONFIG_PREFIX)] = value
            else:
                values[name] = value
        if len(self.problems) > before:
            return None
        nprocs = values["nprocs"]
        moved = values.get("bytes", values["bytes_per_rank"] * nprocs)
        if moved > LARGEST_INTEGER:
            self.problems.append(
                f"{self.path} line {line}: expected bytes_per_rank * nprocs (the bytes moved) "
                f"<= {LARGEST_INTEGER}, got {moved}"
            )
            return None
        bandwidth = values.get("bandwidth")
        seconds = values.get("seconds")
        if bandwidth is None:
            bandwidth = moved / MIB / seconds
        if seconds is None:
            seconds = moved / MIB / bandwidth
        try:
            workload = Workload.from_row(values)
        except ValueError as exc:
            self.problems.append(f"{self.path} line {line}: {exc}")
            return None
        digest = hashlib.sha256(json.dumps([self.header, row]).encode()).hexdigest()
        return Measurement(
            uid=f"csv:{digest[:24]}:{line}",
            workload=workload,
            config=config,
            bandwidth=float(bandwidth),
            seconds=float(seconds),
            bytes=moved,
            repeat=values.get("repeat", 0),
            provenance={
                "csv": str(self.path),
                "line": line,
                "row": dict(zip(self.header, row, strict=True)),
            },
        )

    def _numbers(self, columns: Sequence[str], row: list[str]) -> dict[str, int | float]:
        """The numbers in the cells of `columns`; _Bad names a cell that holds none."""
        numbers: dict[str, int | float] = {}
        for column in columns:
            cell = row[self.header.index(column)].strip()
            try:
                number: int | float = int(cell) if _INTEGER.fullmatch(cell) else float(cell)
            except ValueError:
                number = math.nan
            if not math.isfinite(number):
                what = "an empty cell" if not cell else repr(cell)
                raise _Bad(f"a number in column {column!r}, got {what}")
            numbers[column] = number
        return numbers


_INTEGER = re.compile(r"[+-]?[0-9]+")


def _number_text(value: int | float) -> str:
    """A computed value as cell text: integers (and whole floats) without a fraction."""
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return str(value)


_OPERATORS: dict[type[ast.operator], Callable[[Any, Any], Any]] = {
    ast.Add: operator.add,
    ast.Sub: operator.sub,
    ast.Mult: operator.mul,
    ast.Div: operator.truediv,
    ast.FloorDiv: operator.floordiv,
}

_SIGNS: dict[type[ast.unaryop], Callable[[Any], Any]] = {
    ast.USub: operator.neg,
    ast.UAdd: operator.pos,
}

_REFUSED = {
    ast.Pow: "**",
    ast.Mod: "%",
    ast.Call: "a function call",
    ast.Attribute: "an attribute",
    ast.Compare: "a comparison",
    ast.BoolOp: "and/or",
    ast.Subscript: "an index",
}

_ALLOWED = (ast.BinOp, ast.UnaryOp, ast.Load, *_OPERATORS, *_SIGNS)
"""The nodes a formula may have besides column names and numbers."""

_LONGEST_FORMULA = 1000
"""Characters a formula may have (evaluation recurses once per operator)."""

_BACKQUOTED = re.compile(r"`([^`]*)`")


@dataclass(frozen=True)
class Formula:
    """A computed field's expression over CSV columns: parsed with `ast`, evaluated by
    walking only the nodes it allows (numbers, column names, + - * / //, unary - and +);
    never eval. `columns` are the CSV columns it reads, each once."""

    text: str
    tree: ast.expr = field(compare=False)
    columns: tuple[str, ...]
    names: Mapping[str, str] = field(compare=False)
    """Identifier in the tree -> CSV column (backquoted names are renamed for `ast`)."""

    @staticmethod
    def parse(text: str, where: str) -> "Formula":
        """The formula of `text`; IngestError (starting with `where`) says what is wrong."""
        names: dict[str, str] = {}

        def rename(match: re.Match[str]) -> str:
            identifier = f"_column{len(names)}_"
            names[identifier] = match.group(1)
            return identifier

        source = _BACKQUOTED.sub(rename, text)
        expected = (
            "an expression of CSV columns and numbers with + - * / // and parentheses "
            '(e.g. "total_bytes / np")'
        )
        if len(text) > _LONGEST_FORMULA:
            raise IngestError(
                f"{where}: expected {expected} of at most {_LONGEST_FORMULA} characters, "
                f"got {len(text)}"
            )
        try:
            tree = ast.parse(source.strip(), mode="eval").body
        except (SyntaxError, ValueError, RecursionError, MemoryError):
            raise IngestError(f"{where}: expected {expected}, got {text!r}") from None
        columns: list[str] = []
        for node in ast.walk(tree):
            if isinstance(node, ast.Name):
                column = names.get(node.id, node.id)
                names.setdefault(node.id, column)
                columns.append(column)
            elif isinstance(node, ast.Constant):
                if isinstance(node.value, bool) or not isinstance(node.value, int | float):
                    raise IngestError(
                        f"{where}: expected {expected}, got the constant {node.value!r} in {text!r}"
                    )
            elif not isinstance(node, _ALLOWED):
                what = _REFUSED.get(type(node), type(node).__name__)
                raise IngestError(f"{where}: expected {expected}, got {what} in {text!r}")
        return Formula(text, tree, tuple(dict.fromkeys(columns)), names)

    def evaluate(self, cells: Mapping[str, int | float]) -> int | float:
        """The value for one row, given the numbers of its columns; _Bad for a division by
        zero or a result too large."""
        try:
            value = self._value(self.tree, cells)
        except ZeroDivisionError:
            raise _Bad(
                f"a division by a non-zero number, got a division by zero in {self.text!r}"
            ) from None
        except OverflowError:
            raise _Bad(f"a result of a sensible size from {self.text!r}, got an overflow") from None
        if isinstance(value, float) and not math.isfinite(value):
            raise _Bad(f"a finite number from {self.text!r}, got {value}")
        return value

    def _value(self, node: ast.expr, cells: Mapping[str, int | float]) -> int | float:
        result: int | float
        if isinstance(node, ast.Constant):
            result = cast(int | float, node.value)  # parse let only numbers through
        elif isinstance(node, ast.Name):
            result = cells[self.names[node.id]]
        elif isinstance(node, ast.UnaryOp):
            result = _SIGNS[type(node.op)](self._value(node.operand, cells))
        elif isinstance(node, ast.BinOp):
            left, right = self._value(node.left, cells), self._value(node.right, cells)
            result = _OPERATORS[type(node.op)](left, right)
        else:
            raise AssertionError(f"parse let {type(node).__name__} through")
        return result


def _expected(name: str) -> str:
    """What field `name` expects, for messages."""
    try:
        _convert(name, "")
    except _Bad as exc:
        return str(exc)
    return "a value"
