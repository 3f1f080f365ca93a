"""The CSV column mapping: which CSV column, expression or default gives each of our
fields (its format is CsvMapping's docstring: `python -m pydoc iotuner.ingest.CsvMapping`)."""

import json
import math
import tomllib
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from iotuner._inputs import InputError, read_bounded_text
from iotuner._safejson import loads_json
from iotuner.ingest._common import IngestError
from iotuner.ingest._csv_cells import _is_cfg
from iotuner.ingest._csv_formula import Formula
from iotuner.measurement import WORKLOAD_COLUMNS

CSV_FIELDS = (
    *(column for column in WORKLOAD_COLUMNS if column != "group"),  # group follows from size
    "bandwidth",
    "seconds",
    "bytes",
    "repeat",
)
"""The fields a CSV mapping may name, besides cfg:<parameter>."""

_SCALABLE = ("block", "bytes_per_rank", "stripe_size", "bandwidth", "seconds", "bytes")
MAX_MAPPING_BYTES = 1 << 20
"""The largest column mapping read (a mapping of a few hundred columns is a few KiB)."""


@dataclass(frozen=True)
class CsvMapping:
    """How to read a CSV file of measurements: a CSV column mapping, a TOML file (or JSON,
    with the same keys) that says which CSV column holds which of our fields::

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

    The fields: `columns`: field -> CSV column; `computed`: field -> expression over CSV
    columns (Formula); `defaults`: field -> value for every row (and for empty cells);
    `values`: field -> {cell text: our text}; `scale`: field -> factor; `system`: System
    fields; `space`: the name recorded with the measurements.
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


def _check_fields(names: Iterable[str], where: str) -> None:
    unknown = [n for n in names if n not in CSV_FIELDS and not _is_cfg(n)]
    if unknown:
        raise IngestError(
            f"{where} names unknown field(s) {', '.join(map(repr, unknown))} "
            f"(expected {', '.join(CSV_FIELDS)} or cfg:<parameter>)"
        )
