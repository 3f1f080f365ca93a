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
(contiguous|strided) and bytes_per_rank are required (a column or a default); block
(default 0) and fill (default 1) describe a strided layout; bandwidth is MiB/s and seconds
the time of one measurement: give one of them, the other is derived with bytes (all
ranks; default bytes_per_rank * nprocs); repeat (default: the count of earlier rows of the
file with the same workload and configuration). `cfg:<parameter>` columns form the
configuration; an empty cell leaves that parameter at its default. A row's uid is made
from its text, header and line number, so a file that only grew adds only its new rows.
"""

import csv
import hashlib
import io
import json
import math
import tomllib
from collections import Counter
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from iotuner._safejson import loads_json
from iotuner.ingest._common import (
    MIB,
    IngestError,
    IngestResult,
    commit_run,
    decode_text,
    read_bytes,
)
from iotuner.measurement import (
    CONFIG_PREFIX,
    LAYOUTS,
    OPS,
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

_SCALABLE = ("block", "bytes_per_rank", "bandwidth", "seconds", "bytes")
_MAX_PROBLEMS = 20
"""Bad cells reported per CSV file before giving up."""


@dataclass(frozen=True)
class CsvMapping:
    """How to read a CSV file of measurements (the module docstring describes the file).

    `columns`: field -> CSV column; `defaults`: field -> value for every row (and for
    empty cells); `values`: field -> {cell text: our text}; `scale`: field -> factor;
    `system`: System fields; `space`: the name recorded with the measurements.
    """

    columns: Mapping[str, str]
    defaults: Mapping[str, str | int | float] = field(default_factory=dict)
    values: Mapping[str, Mapping[str, str]] = field(default_factory=dict)
    scale: Mapping[str, float] = field(default_factory=dict)
    system: Mapping[str, str] = field(default_factory=dict)
    space: str | None = None
    delimiter: str = ","


_MAPPING_KEYS = ("columns", "defaults", "values", "scale", "system", "space", "delimiter")
_SYSTEM_FIELDS = ("host", "mpi_library", "fs_type", "fs_driver", "fs_mount")


def load_mapping(path: Path | str) -> CsvMapping:
    """A CSV column mapping from a TOML file (JSON when the name ends in .json)."""
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise IngestError(f"cannot read the mapping {path}: {exc}") from None
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
        defaults=table("defaults", is_scalar, "strings or numbers"),
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
    path = Path(path).resolve()
    if not isinstance(mapping, CsvMapping):
        mapping = mapping_from_dict({"columns": dict(mapping)})
    all_defaults = {**mapping.defaults, **(defaults or {})}
    where = f"the mapping for {path.name}"
    _check_fields(mapping.columns, f"{where}: [columns]")
    _check_fields(all_defaults, f"{where}: [defaults]")
    _check_fields(mapping.values, f"{where}: [values]")
    missing = [
        f for f in REQUIRED_WORKLOAD_FIELDS if f not in mapping.columns and f not in all_defaults
    ]
    if missing:
        raise IngestError(
            f"{where}: no column and no default for required field(s) {', '.join(missing)} "
            f"(add them to [columns] or [defaults])"
        )
    timing = {"bandwidth", "seconds"} & (set(mapping.columns) | set(all_defaults))
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

    data = read_bytes(path)
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

    rows = _CsvRows(path, header, position, default_values, mapping)
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
        meta={"columns": dict(mapping.columns), "defaults": dict(all_defaults), "space": space},
    )


def _convert(name: str, text: str, scale: float | None = None) -> Any:
    """The value of field `name` from its text; _Bad says what was expected."""
    if _is_cfg(name):
        return canonical_config({name: text})[name]
    if scale is not None and name in ("block", "bytes_per_rank", "bytes"):
        return round(_number(text, 0, True) * scale)
    value = _CONVERTERS[name](text)
    return value * scale if scale is not None else value


@dataclass
class _CsvRows:
    """Turns CSV rows into measurements, collecting the problems of bad ones."""

    path: Path
    header: list[str]
    position: dict[str, int]
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
        for name in dict.fromkeys([*self.position, *self.defaults]):
            cell = row[self.position[name]].strip() if name in self.position else ""
            if cell:
                column = self.header[self.position[name]]
                text = self.mapping.values.get(name, {}).get(cell, cell)
                try:
                    value = _convert(name, text, self.mapping.scale.get(name))
                except _Bad as exc:
                    self.problems.append(
                        f"{self.path} line {line}, column {column!r} ({name}): "
                        f"expected {exc}, got {cell!r}"
                    )
                    continue
            elif name in self.defaults:
                value = self.defaults[name]
            elif _is_cfg(name):
                continue  # an empty cell: the parameter is at its default
            else:
                column = self.header[self.position[name]]
                self.problems.append(
                    f"{self.path} line {line}, column {column!r} ({name}): "
                    f"expected {_expected(name)}, got an empty cell"
                )
                continue
            if _is_cfg(name):
                config[name.removeprefix(CONFIG_PREFIX)] = value
            else:
                values[name] = value
        if len(self.problems) > before:
            return None
        nprocs = values["nprocs"]
        moved = values.get("bytes", values["bytes_per_rank"] * nprocs)
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


def _expected(name: str) -> str:
    """What field `name` expects, for messages."""
    try:
        _convert(name, "")
    except _Bad as exc:
        return str(exc)
    return "a value"
