"""CSV files of measurements made elsewhere, read through a column mapping (CsvMapping,
whose docstring is the mapping's format): every cell checked, every bad one reported with
its line and column, and nothing added when one is bad.

The parts: `_csv_mapping` (the mapping), `_csv_cells` (a cell's text as a field's value),
`_csv_formula` (a [computed] field's expression); here the file is read row by row.
"""

import csv
import hashlib
import io
import json
import math
import re
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from iotuner.ingest._common import (
    MAX_MEASUREMENTS_FILE_BYTES,
    MIB,
    IngestError,
    IngestResult,
    commit_run,
    decode_text,
    read_input,
)
from iotuner.ingest._csv_cells import LARGEST_INTEGER, _Bad, _convert, _expected, _is_cfg
from iotuner.ingest._csv_formula import Formula, _number_text
from iotuner.ingest._csv_mapping import (
    _SYSTEM_FIELDS,
    CSV_FIELDS,
    CsvMapping,
    _check_fields,
    load_mapping,
    mapping_from_dict,
)
from iotuner.measurement import (
    CONFIG_PREFIX,
    OPTIONAL_WORKLOAD_FIELDS,
    REQUIRED_WORKLOAD_FIELDS,
    Measurement,
    System,
    Workload,
)
from iotuner.space import config_key
from iotuner.store import Record, Store

__all__ = ["CSV_FIELDS", "CsvMapping", "Formula", "ingest_csv", "load_mapping", "mapping_from_dict"]

_MAX_PROBLEMS = 20
"""Bad cells reported per CSV file before giving up."""


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
    plan = _Plan.of(mapping, {**mapping.defaults, **(defaults or {})}, path)
    if system is None:
        system = plan.system()
    space = space or mapping.space or "csv"

    data = read_input(named, "a CSV file of measurements", MAX_MEASUREMENTS_FILE_BYTES)
    reader = csv.reader(
        io.StringIO(decode_text(path, data), newline=""), delimiter=mapping.delimiter
    )
    rows = plan.rows(path, _header(path, reader))
    records: list[Record] = []
    repeats: Counter[tuple[Workload, str]] = Counter()
    for measurement in rows.read(reader):
        key = (measurement.workload, config_key(measurement.config))
        if "repeat" not in rows.position and "repeat" not in plan.default_values:
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
            "defaults": dict(plan.defaults),
            "space": space,
        },
    )


@dataclass(frozen=True)
class _Plan:
    """A mapping checked against what a CSV file must give, before the file is read."""

    mapping: CsvMapping
    defaults: Mapping[str, str | int | float]
    default_values: dict[str, Any]
    formulas: dict[str, Formula]
    where: str

    @staticmethod
    def of(mapping: CsvMapping, defaults: Mapping[str, str | int | float], path: Path) -> "_Plan":
        """The plan for reading `path`; IngestError says what the mapping lacks."""
        where = f"the mapping for {path.name}"
        _check_fields(mapping.columns, f"{where}: [columns]")
        _check_fields(mapping.computed, f"{where}: [computed]")
        _check_fields(defaults, f"{where}: [defaults]")
        _check_fields(mapping.values, f"{where}: [values]")
        formulas = {
            name: Formula.parse(text, f"{where}: computed.{name}")
            for name, text in mapping.computed.items()
        }
        given = set(mapping.columns) | set(formulas) | set(defaults)
        missing = [f for f in REQUIRED_WORKLOAD_FIELDS if f not in given]
        if missing:
            raise IngestError(
                f"{where}: no column, computed field or default for required field(s) "
                f"{', '.join(missing)} (add them to [columns], [computed] or [defaults])"
            )
        if not {"bandwidth", "seconds"} & given:
            raise IngestError(
                f"{where}: expected a bandwidth (MiB/s) or a seconds column, got none"
            )
        default_values: dict[str, Any] = {}
        for name, value in defaults.items():
            try:
                default_values[name] = _convert(name, str(value))
            except _Bad as exc:
                raise IngestError(
                    f"{where}: defaults.{name}: expected {exc}, got {value!r}"
                ) from None
        return _Plan(mapping, defaults, default_values, formulas, where)

    def system(self) -> System:
        """The mapping's [system]: its host required, the other fields "unknown"."""
        if "host" not in self.mapping.system:
            raise IngestError(
                f"{self.where}: expected the system the measurements were made on "
                "([system] host = ... in the mapping, or --system-host)"
            )
        return System(**{f: self.mapping.system.get(f, "unknown") for f in _SYSTEM_FIELDS})

    def rows(self, path: Path, header: list[str]) -> "_CsvRows":
        """The reader of the file's rows, once every column the plan reads is in the
        header exactly once."""
        position = {}
        for name, column in self.mapping.columns.items():
            if header.count(column) != 1:
                problem = "twice in" if header.count(column) > 1 else "not in"
                raise IngestError(
                    f"{path}: column {column!r} (for {name}) is {problem} the header "
                    f"(columns: {', '.join(header)})"
                )
            position[name] = header.index(column)
        for name, formula in self.formulas.items():
            for column in formula.columns:
                if header.count(column) != 1:
                    problem = "twice in" if header.count(column) > 1 else "not in"
                    raise IngestError(
                        f"{path}: computed.{name} = {formula.text!r} reads column {column!r}, "
                        f"which is {problem} the header (columns: {', '.join(header)})"
                    )
        return _CsvRows(path, header, position, self.formulas, self.default_values, self.mapping)


def _header(path: Path, reader: Any) -> list[str]:
    try:
        return [name.strip() for name in next(reader)]
    except StopIteration:
        raise IngestError(f"{path}: empty file, expected a header line of column names") from None
    except csv.Error as exc:
        raise IngestError(f"{path} line 1: not valid CSV ({exc})") from None


_NO_VALUE = object()
"""A field a row leaves unset: an empty cell (the default, or unknown), or a bad one."""


@dataclass
class _CsvRows:
    """Turns CSV rows into measurements, collecting the problems of bad ones."""

    path: Path
    header: list[str]
    position: dict[str, int]
    formulas: dict[str, Formula]
    defaults: dict[str, Any]
    mapping: CsvMapping
    problems: list[str] = field(default_factory=list)

    def read(self, reader: Any) -> list[Measurement]:
        """Every row's measurement; IngestError with the problems when a row is bad."""
        measurements: list[Measurement] = []
        try:
            for row in reader:
                if len(self.problems) >= _MAX_PROBLEMS:
                    break
                measurement = self.measurement(reader.line_num, row)
                if measurement is not None:
                    measurements.append(measurement)
        except csv.Error as exc:
            self.problems.append(f"{self.path} line {reader.line_num}: not valid CSV ({exc})")
        if self.problems:
            shown = self.problems[:_MAX_PROBLEMS]
            more = " (the first ones)" if len(shown) < len(self.problems) else ""
            raise IngestError(
                f"{self.path}: {len(shown)} bad value(s){more}, nothing was added:\n"
                + "\n".join(shown)
            )
        return measurements

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
            value = self._value(name, line, row)
            if value is _NO_VALUE:
                continue
            if _is_cfg(name):
                config[name.removeprefix(CONFIG_PREFIX)] = value
            else:
                values[name] = value
        if len(self.problems) > before:
            return None
        return self._measurement(line, row, values, config)

    def _value(self, name: str, line: int, row: list[str]) -> Any:
        """Field `name` in one row: from its formula, its cell (through [values]) or its
        default; _NO_VALUE where it stays unset (a bad cell's problem noted)."""
        formula = self.formulas.get(name)
        blank: list[str] = []
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
                return _NO_VALUE
            return self._converted(name, text, where, text)
        if cell:
            text = self.mapping.values.get(name, {}).get(cell, cell)
            return self._converted(name, text, where, repr(cell))
        if name in self.defaults:
            return self.defaults[name]
        if _is_cfg(name) or name in OPTIONAL_WORKLOAD_FIELDS:
            return _NO_VALUE  # an empty cell: the parameter at its default, or unknown
        if formula is not None:
            self.problems.append(
                f"{where}: expected a number in column {blank[0]!r}, got an empty cell"
            )
        else:
            self.problems.append(f"{where}: expected {_expected(name)}, got an empty cell")
        return _NO_VALUE

    def _converted(self, name: str, text: str, where: str, shown: str) -> Any:
        try:
            return _convert(name, text, self.mapping.scale.get(name))
        except _Bad as exc:
            self.problems.append(f"{where}: expected {exc}, got {shown}")
            return _NO_VALUE

    def _measurement(
        self, line: int, row: list[str], values: dict[str, Any], config: dict[str, str | int]
    ) -> Measurement | None:
        """The measurement of a row whose every field was read; None (a problem noted)
        when its bytes or workload are not possible."""
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
