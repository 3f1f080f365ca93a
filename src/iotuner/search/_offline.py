"""Tables of measured results, read so that a search can be replayed without running anything;
OfflineObjective answers a search from one.

A recorded table is rarely a complete grid. It is often a random sample of a space with
numeric knobs (stripe sizes in 64 KiB steps, buffer sizes in bytes), holds several problems
or scales, and measures some configurations more than once. So: rows are filtered
(OfflineTable), the parameter columns chosen (OfflineTable._default_columns), the rows of a
configuration summarised (OfflineTable._build), failed runs recognised (_FAILED_CELLS), and
a trial is always a measured configuration (OfflineTable.nearest): each rule beside its code.
"""

import csv
import json
import math
import re
import statistics
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from iotuner.ingest import CSV_FIELDS
from iotuner.measurement import WORKLOAD_COLUMNS
from iotuner.search._common import DIRECTIONS, SearchError, TrialOutcome, better, target_value
from iotuner.search._objectives import Objective
from iotuner.search._result import OfflineSummary, TrialRecord
from iotuner.space import Configuration, Parameter, Space, config_key

__all__ = [
    "MEASURED_FIELDS",
    "MEASURED_UNITS",
    "MeasuredConfig",
    "OfflineObjective",
    "OfflineTable",
    "parse_filters",
]

_FAILED_CELLS = {"", "nan", "fail", "failed", "error"}
"""A row whose value cell is empty, `nan`, `fail`, `failed` or `error` is a failed run: a
configuration whose rows all failed answers as a failed trial."""

MEASURED_FIELDS = tuple(f for f in CSV_FIELDS if f not in WORKLOAD_COLUMNS)
"""What a run measures, as `iotuner ingest` reads it from a CSV file (bandwidth, seconds,
bytes, and the repeat count): its fields that are not the workload's."""

MEASURED_UNITS = {
    "time": ("s", "sec", "secs", "second", "seconds", "ms", "msec", "us", "usec", "ns"),
    "volume": ("b", "kb", "mb", "gb", "tb", "kib", "mib", "gib", "tib", "bytes"),
    "bandwidth": ("bps", "kbps", "mbps", "gbps", "kibps", "mibps", "gibps", "kb/s", "mb/s",
                  "gb/s", "kib/s", "mib/s", "gib/s"),
}  # fmt: skip
"""The units whose name ends a measured output's name (`write_s`, `read_GB`, `bw_MBps`),
lower case."""

_BANDWIDTH_WORDS = ("bw", "bandwidth", "throughput")
_WORD = re.compile(r"[^\W_]+(?:/[^\W_]+)?")
"""A word of a column name: letters and digits, a unit like MB/s kept whole."""


@dataclass(frozen=True)
class MeasuredConfig:
    """One configuration of the table: its summary over the rows that measured it."""

    config: Configuration
    value: float | None
    """Median of the successful rows, None when every row failed."""
    rows: int
    failed_rows: int
    low: float | None
    high: float | None


def parse_filters(texts: Sequence[str]) -> dict[str, str]:
    """COLUMN=VALUE conditions as a mapping. Each text holds one condition or several
    separated by commas (`nprocs=64,op=write`; --filter may also be repeated): every one
    must hold. SearchError, naming the condition and what was expected, for a condition
    without '=' or a column, and for one column given two values."""
    filters: dict[str, str] = {}
    for text in texts:
        for condition in text.split(","):
            column, sep, value = condition.partition("=")
            column, value = column.strip(), value.strip()
            if not sep or not column:
                raise SearchError(
                    f"--filter {text!r}: {condition.strip()!r} is not a condition: expected "
                    "COLUMN=VALUE, several separated by commas (e.g. nprocs=64,op=write)"
                )
            if filters.get(column, value) != value:
                raise SearchError(
                    f"--filter {text!r}: column {column!r} is given twice "
                    f"({filters[column]!r} and {value!r}): a row has one value"
                )
            filters[column] = value
    return filters


def _same_cell(cell: str, wanted: str) -> bool:
    """Equal as text, or as numbers (so 1048576.0 matches 1048576)."""
    if cell.strip() == wanted:
        return True
    try:
        return float(cell) == float(wanted)
    except ValueError:
        return False


def _looks_measured(cells: Sequence[str]) -> bool:
    """Whether a column looks like a measured output, not a configuration
    (OfflineTable._default_columns): every cell that is not a failed run a number, some not
    an integer, and more distinct values than half the rows."""
    values = [c for c in cells if c.lower() not in _FAILED_CELLS]
    try:
        numbers = [float(c) for c in values]
    except ValueError:
        return False
    fractional = any(not n.is_integer() for n in numbers if math.isfinite(n))
    return fractional and len(set(values)) > len(cells) / 2


def _named_output(column: str) -> bool:
    """Whether a column's name says it holds a measured output
    (OfflineTable._default_columns)."""
    words = _WORD.findall(column.lower())
    if not words:
        return False
    units = {u for group in MEASURED_UNITS.values() for u in group}
    return (
        column.lower() in MEASURED_FIELDS
        or words[-1] in MEASURED_FIELDS
        or (len(words) > 1 and words[-1] in units)
        or any(w in _BANDWIDTH_WORDS for w in words)
    )


def _typed_values(cells: set[str]) -> tuple[tuple[str | int, ...], bool]:
    """The distinct values of a column, typed and ordered; and whether they are numeric.

    Each parameter's values are the distinct values seen, integers when every cell is one,
    ordered numerically when every cell is a number, else as text.
    """
    try:
        ints = sorted({int(c) for c in cells})
        if len(ints) == len(cells):
            return tuple(ints), True
    except ValueError:
        pass
    try:
        floats = sorted(cells, key=float)
        return tuple(floats), True
    except ValueError:
        return tuple(sorted(cells)), False


class OfflineTable:
    """The measured configurations of one CSV file, after filters, summarised."""

    def __init__(
        self,
        path: Path | str,
        *,
        value_column: str | None = None,
        param_columns: Sequence[str] | None = None,
        filters: Mapping[str, str] | None = None,
        space: Space | None = None,
    ) -> None:
        """`param_columns` None: the columns `space` names, or without a space every
        column but the value, the filters and the measured outputs (_default_columns).

        `filters` keep only the rows of one problem or scale (COLUMN=VALUE, all must hold).
        """
        self.path = Path(path)
        self.filters = dict(filters or {})
        header, rows = self._read()
        self.value_column = self._value_column(header, value_column)
        missing = [c for c in self.filters if c not in header]
        if missing:
            raise SearchError(
                f"{self.path}: no column {', '.join(map(repr, missing))} to filter on "
                f"(columns: {', '.join(header)})"
            )
        kept = [r for r in rows if all(_same_cell(r[1][c], v) for c, v in self.filters.items())]
        if not kept:
            seen = {c: sorted({r[1][c] for r in rows})[:10] for c in self.filters}
            raise SearchError(
                f"{self.path}: no row matches the filter(s) "
                f"{', '.join(f'{c}={v}' for c, v in self.filters.items())} "
                f"(values seen: {seen})"
            )
        self.columns_note = ""
        """How the parameter columns were chosen, when they were not given."""
        if param_columns is None:
            param_columns = self._default_columns(header, [r for _, r in kept], space)
        unknown = [c for c in param_columns if c not in header]
        if unknown or not param_columns:
            raise SearchError(
                f"{self.path}: the parameter columns must be columns of the table, got "
                f"{list(param_columns)!r} (columns: {', '.join(header)})"
            )
        if self.value_column in param_columns:
            raise SearchError(f"{self.path}: {self.value_column!r} is the value column")
        self.param_columns = list(param_columns)
        self.rows = len(kept)
        self._build(kept)

    def _default_columns(
        self, header: list[str], rows: list[dict[str, str]], space: Space | None
    ) -> list[str]:
        """The parameter columns when none are given, and self.columns_note saying why.

        The parameters are the configuration columns: those given (`--param-columns`, whatever
        they are named), else the columns the space names (`--space`), else every column but the
        value, the filters and the measured outputs; the note says which were taken and which
        were left out, and why. A column is a measured output by its name (MEASURED_UNITS,
        `_named_output`) or by its cells (`_looks_measured`):
        - by its name: the outputs a CSV mapping of `iotuner ingest` can name besides the
          workload (bandwidth, seconds, bytes, and the repeat count: ingest.CSV_FIELDS less
          measurement.WORKLOAD_COLUMNS), under that name or as the last word of it
          (`total_bytes`), a name of two words or more whose last is a unit of time, volume or
          bandwidth (`write_s`, `open_ms`, `read_GB`, `write_MiB`, `bw_MBps`; a column named `b`
          alone is no volume), or one with the word bw, bandwidth or throughput (`read_bw`).
          Times and volumes repeat from run to run (a volume is often the same in every row)
          and so do not look measured by their cells;
        - by its cells: every cell a number, some not an integer, and more distinct values than
          half the rows (a run's seconds or a second bandwidth figure rarely repeat, while a
          configuration column holds a few values, each measured in many rows).
        """
        excluded = {self.value_column, *self.filters}
        columns = ", ".join(header)
        if space is not None:
            names = [p.name for p in space.parameters]
            taken = [c for c in header if c in names and c not in excluded]
            if not taken:
                raise SearchError(
                    f"{self.path}: none of the parameters of space {space.name!r} "
                    f"({', '.join(names)}) is a column of the table (columns: {columns}); "
                    "name the configuration columns with --param-columns, or give a "
                    "--space whose parameters are the table's columns"
                )
            absent = [n for n in names if n not in header]
            self.columns_note = f"parameters: the columns space {space.name!r} names: " + (
                ", ".join(taken)
            )
            if absent:
                self.columns_note += f" (not in the table, so not searched: {', '.join(absent)})"
            return taken
        candidates = [c for c in header if c not in excluded]
        named = [c for c in candidates if _named_output(c)]
        looking = [
            c for c in candidates if c not in named and _looks_measured([r[c] for r in rows])
        ]
        taken = [c for c in candidates if c not in named and c not in looking]
        left_out = "; ".join(
            f"{', '.join(outputs)} {why}"
            for outputs, why in (
                (named, "(by their names: times, volumes, bandwidths or repeat counts)"),
                (looking, "(by their cells: numbers, not integers, rarely repeated)"),
            )
            if outputs
        )
        if not taken:
            raise SearchError(
                f"{self.path}: no configuration column: besides the value "
                f"{self.value_column!r} and the filters, "
                + (f"every column is a measured output: {left_out}" if left_out else "nothing")
                + f" (columns: {columns}); name the configuration columns with "
                "--param-columns, or give a --space naming them"
            )
        self.columns_note = f"parameters: the columns {', '.join(taken)}"
        if left_out:
            self.columns_note += f"; left out as measured outputs: {left_out}"
        self.columns_note += "; --param-columns or --space chooses them"
        return taken

    def _read(self) -> tuple[list[str], list[tuple[int, dict[str, str]]]]:
        try:
            with self.path.open(newline="", encoding="utf-8") as stream:
                reader = csv.DictReader(stream)
                header = [h.strip() for h in reader.fieldnames or []]
                rows = [
                    (number, {h.strip(): (v or "").strip() for h, v in row.items() if h})
                    for number, row in enumerate(reader, start=2)
                ]
        except OSError as exc:
            raise SearchError(f"cannot read the table {self.path}: {exc.strerror}") from None
        except (csv.Error, UnicodeDecodeError) as exc:
            raise SearchError(f"{self.path}: not a CSV file ({exc})") from None
        if not header or not rows:
            raise SearchError(f"{self.path}: expected a header line and at least one row")
        return header, rows

    def _value_column(self, header: list[str], value_column: str | None) -> str:
        if value_column is None:
            value_column = "bandwidth"
            if value_column not in header:
                raise SearchError(
                    f"{self.path}: no 'bandwidth' column; name the measured value with "
                    f"--value-column (columns: {', '.join(header)})"
                )
        elif value_column not in header:
            raise SearchError(
                f"{self.path}: no value column {value_column!r} (columns: {', '.join(header)})"
            )
        return value_column

    def _build(self, rows: list[tuple[int, dict[str, str]]]) -> None:
        """The rows of one configuration are summarised by the median of their values (the
        count is kept), so a configuration measured five times weighs as much as one measured once.
        """
        parameters = []
        self._numeric: dict[str, bool] = {}
        self._rank: dict[str, dict[str, int]] = {}
        for column in self.param_columns:
            values, numeric = _typed_values({r[column] for _, r in rows})
            self._numeric[column] = numeric
            self._rank[column] = {str(v): i for i, v in enumerate(values)}
            parameters.append(Parameter(column, "hint", values, values[0]))
        self.space = Space(
            f"table:{self.path.name}",
            f"the distinct values of the configuration columns of {self.path}",
            tuple(parameters),
            self.path,
        )
        measured: dict[str, list[tuple[Configuration, float | None]]] = {}
        for number, row in rows:
            config = self.space.validate({c: row[c] for c in self.param_columns})
            measured.setdefault(config_key(config), []).append(
                (config, self._value(row[self.value_column], number))
            )
        self.measured: dict[str, MeasuredConfig] = {}
        for key, entries in measured.items():
            ok = [v for _, v in entries if v is not None]
            self.measured[key] = MeasuredConfig(
                config=entries[0][0],
                value=statistics.median(ok) if ok else None,
                rows=len(entries),
                failed_rows=len(entries) - len(ok),
                low=min(ok) if ok else None,
                high=max(ok) if ok else None,
            )
        self._keys = sorted(self.measured)

    def _value(self, cell: str, number: int) -> float | None:
        if cell.lower() in _FAILED_CELLS:
            return None
        try:
            value = float(cell)
        except ValueError:
            raise SearchError(
                f"{self.path} line {number}: {self.value_column} must be a number (or empty, "
                f"nan, fail for a failed run), got {cell!r}"
            ) from None
        return None if math.isnan(value) else value

    @property
    def configurations(self) -> list[Configuration]:
        """The measured configurations, in canonical order."""
        return [self.measured[k].config for k in self._keys]

    @property
    def repeated(self) -> int:
        """How many configurations have more than one row."""
        return sum(1 for m in self.measured.values() if m.rows > 1)

    def best(self, direction: str) -> MeasuredConfig:
        """The measured configuration with the best summary value."""
        ok = [self.measured[k] for k in self._keys if self.measured[k].value is not None]
        if not ok:
            raise SearchError(f"{self.path}: every row of the table is a failed run")
        sign = 1.0 if direction == "maximize" else -1.0
        return max(ok, key=lambda m: sign * (m.value or 0.0))

    def lookup(self, config: Mapping[str, str | int]) -> tuple[MeasuredConfig, bool]:
        """The measured configuration that answers `config`, and whether it is `config`."""
        key = config_key(self.space.validate(config))
        if key in self.measured:
            return self.measured[key], True
        nearest = self.nearest(config)
        assert nearest is not None  # a table has at least one row
        return nearest, False

    def nearest(
        self, config: Mapping[str, str | int], exclude: Collection[str] = ()
    ) -> MeasuredConfig | None:
        """The measured configuration nearest to `config` (below) whose key is not in
        `exclude`; None when every one is.

        A trial is a configuration the table measured, never another: the strategies that
        choose from a list are offered the measured configurations, and when one that proposes
        from the whole product of the values (ga, tpe) names a configuration the table does not
        hold, that proposal is no trial (it uses no budget, and the result counts it as
        `replaced`): the search measures instead the nearest measured configuration not tried
        yet (OfflineObjective.stand_in; _loop). Nearest by the sum over parameters of the
        distance of their values: for a numeric parameter the difference of the values' ranks
        divided by the number of values less one, for a text parameter 0 when equal and 1
        otherwise; ties go to the configuration that comes first in canonical order, never to
        the better value. Asked directly (evaluate), the objective answers a configuration the
        table does not hold by the nearest measured one, and says which (`answered_by`).
        """
        keys = [k for k in self._keys if k not in exclude]
        if not keys:
            return None
        return self.measured[min(keys, key=lambda k: (self._distance(config, k), k))]

    def _distance(self, config: Mapping[str, str | int], key: str) -> float:
        other = self.measured[key].config
        total = 0.0
        for column in self.param_columns:
            a, b = str(config[column]), str(other[column])
            if self._numeric[column]:
                ranks = self._rank[column]
                total += abs(ranks[a] - ranks[b]) / max(len(ranks) - 1, 1)
            else:
                total += a != b
        return total


class OfflineObjective(Objective):
    """Answers from a table of measured results (OfflineTable): nothing is run.

    A configuration the table holds gets its summary value (the median of its rows). The
    strategies that choose from a list (grid, random, gp, and the model's ranking) are
    offered the measured configurations through candidates(); the search measures only
    those (measures()), and instead of another one a strategy proposes, the nearest one
    not tried yet (stand_in()). evaluate() of a configuration the table does not hold
    answers the nearest measured configuration's value, and the outcome says which
    (`answered_by`). Asking again gives the same answer (not remeasurable: no verdict);
    the table's best is known, so summary() says how soon the search reached it.
    """

    def __init__(self, table: OfflineTable, direction: str = "maximize") -> None:
        if direction not in DIRECTIONS:
            raise SearchError(f"the direction must be maximize or minimize, got {direction!r}")
        self.table = table
        self.space = table.space
        self.direction = direction
        self.description = f"{table.value_column} from {table.path.name} (median of its rows)"

    def candidates(self) -> list[Configuration]:
        return self.table.configurations

    def measures(self, config: Configuration) -> bool:
        """Only the configurations the table measured: the search measures the nearest
        one not tried yet instead of any other (stand_in)."""
        return config_key(self.space.validate(config)) in self.table.measured

    def stand_in(self, config: Configuration, taken: Collection[str]) -> Configuration | None:
        nearest = self.table.nearest(self.space.validate(config), taken)
        return None if nearest is None else nearest.config

    def problem_key(self) -> str:
        """What the table measured (each configuration's summary), the value's column and
        the direction: the same for a copy of the table elsewhere, another for another
        problem of the same file (its filters keep other rows)."""
        measured = [
            [key, m.value, m.rows, m.failed_rows] for key, m in sorted(self.table.measured.items())
        ]
        problem = {
            "value": self.table.value_column,
            "direction": self.direction,
            "measured": measured,
        }
        return json.dumps(problem, sort_keys=True)

    def evaluate(self, config: Configuration, label: str, *, trace: bool = False) -> TrialOutcome:
        measured, exact = self.table.lookup(config)
        answered_by = None if exact else config_key(measured.config)
        if measured.value is None:
            return TrialOutcome(
                None,
                f"all {measured.rows} row(s) of this configuration are failed runs",
                answered_by=answered_by,
                repeats=measured.rows,
            )
        worst = measured.low if self.direction == "maximize" else measured.high
        return TrialOutcome(
            measured.value,
            answered_by=answered_by,
            repeats=measured.rows,
            worst=worst if measured.rows > 1 else None,
        )

    def signature(self) -> dict[str, object]:
        return {
            **super().signature(),
            "table": str(self.table.path.absolute()),
            "filters": self.table.filters,
        }

    def study_label(self) -> str:
        return self.space.name.removeprefix("table:")

    def best_known(self) -> tuple[Configuration, float]:
        best = self.table.best(self.direction)
        return best.config, best.value or 0.0

    def summary(self, trials: Sequence[TrialRecord], target_fraction: float) -> OfflineSummary:
        config, best = self.best_known()
        target = target_value(best, target_fraction, self.direction)
        reached = next(
            (
                i
                for i, t in enumerate(trials, start=1)
                if t.value is not None and not better(target, t.value, self.direction)
            ),
            None,
        )
        return OfflineSummary(
            rows=self.table.rows,
            configurations=len(self.table.measured),
            repeated=self.table.repeated,
            table_best=best,
            table_best_config=config,
            target_fraction=target_fraction,
            target=target,
            trials_to_target=reached,
            nearest_answers=sum(1 for t in trials if t.outcome.answered_by is not None),
        )

    def notes(self) -> list[str]:
        """How the parameter columns were chosen, when they were not given."""
        return [self.table.columns_note] if self.table.columns_note else []

    def describe(self, outcome: TrialOutcome) -> str:
        """Which measured configuration answered, and how many rows its value summarises."""
        words = []
        if outcome.answered_by:
            words.append(f"(answered by {outcome.answered_by})")
        if outcome.repeats > 1:
            words.append(f"[{outcome.repeats} rows]")
        return " ".join(words)
