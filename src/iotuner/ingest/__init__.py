"""Bring measurements into the knowledge base: trace logs, bench result files, CSV files.

Every file is read and checked whole before anything is written, and then written in one
transaction, so a bad file adds nothing. Ingesting is idempotent: a measurement's uid says
where it came from, and a uid already stored is skipped.

* **Trace logs** (`*.iotrace.jsonl`, formats/README.md): one run per log (its uid is the
  sha256 of the file's bytes); each `op` row with a duration is a measurement.
* **Bench results** (`*.bench.jsonl`, iotuner.measurement.measurement_to_json): one run
  per file (the sweep's `bench_run` id when every line has the same, else the file's
  hash); a results file that grew since it was last ingested adds only its new lines.
* **CSV files** of measurements made elsewhere, read through a column mapping.
* **Darshan logs** (`*.darshan`, or a file that starts with Darshan's header): groups of
  files of one role become measurements when the configuration they ran with is given,
  else rows of the workloads table (what programs do); see `_darshan`.

The modules: `_common` (the error, the result, the one transaction), `_trace`, `_bench`
`_csv` and `_darshan` (one per kind of file, with the CSV column mapping described in
`_csv`).
"""

import json
from collections.abc import Iterable
from pathlib import Path

from iotuner._choices import INGEST_KINDS
from iotuner._inputs import InputError, checked_input
from iotuner._safejson import loads_json
from iotuner.ingest._bench import ingest_bench, ingest_bench_records
from iotuner.ingest._common import IngestError, IngestResult
from iotuner.ingest._csv import CSV_FIELDS, CsvMapping, ingest_csv, load_mapping, mapping_from_dict
from iotuner.ingest._darshan import (
    DarshanJob,
    DarshanReader,
    Evidence,
    FileGroup,
    darshan_system,
    ingest_darshan,
    is_darshan_log,
    is_system_file,
    read_darshan,
)
from iotuner.ingest._trace import ingest_trace
from iotuner.measurement import BENCH_FORMAT, System
from iotuner.store import Store
from iotuner.tracelog import configs_in_force

__all__ = [
    "CSV_FIELDS",
    "KINDS",
    "CsvMapping",
    "DarshanJob",
    "DarshanReader",
    "Evidence",
    "FileGroup",
    "IngestError",
    "IngestResult",
    "configs_in_force",
    "darshan_system",
    "guess_kind",
    "ingest_bench",
    "ingest_bench_records",
    "ingest_csv",
    "ingest_darshan",
    "ingest_file",
    "ingest_trace",
    "input_files",
    "is_darshan_log",
    "is_system_file",
    "load_mapping",
    "mapping_from_dict",
    "read_darshan",
]

KINDS = INGEST_KINDS
"""The kinds of file `iotuner ingest` reads (kept in iotuner._choices, which the
command line imports without importing this module)."""

_SUFFIXES = {
    "trace": ".iotrace.jsonl",
    "bench": ".bench.jsonl",
    "csv": ".csv",
    "darshan": ".darshan",
}

_FOLDER_KINDS = ("trace", "bench", "darshan")
"""The kinds a folder stands for without --kind (a CSV file needs its mapping)."""


def guess_kind(path: Path) -> str:
    """trace, bench, csv or darshan, from the file's name, else from its start (Darshan's
    header, or the first line of a trace log or bench result)."""
    for kind, suffix in _SUFFIXES.items():
        if path.name.endswith(suffix):
            return kind
    try:
        # A FIFO or device would block the peek below, or never end a line.
        checked_input(path, "a trace log, bench result, CSV table or Darshan log", 1 << 62)
    except InputError as exc:
        raise IngestError(str(exc)) from None
    if is_darshan_log(path):
        return "darshan"
    try:
        with path.open("rb") as f:
            first = loads_json(f.readline(1 << 20).decode("utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError):
        first = None
    if isinstance(first, dict) and first.get("record") == "job":
        return "trace"
    if isinstance(first, dict) and first.get("format") == BENCH_FORMAT:
        return "bench"
    raise IngestError(
        f"{path}: cannot tell what kind of file this is (expected a name ending in "
        f"{', '.join(_SUFFIXES.values())}, or a trace log, bench result or Darshan log "
        "inside); "
        "give --kind"
    )


def input_files(paths: Iterable[Path], kind: str | None = None) -> list[Path]:
    """The files to ingest: files as given; for a directory, the trace logs, bench
    results and Darshan logs directly inside (with `kind`, the files of that kind, CSV
    files included)."""
    suffixes = [_SUFFIXES[kind]] if kind else [_SUFFIXES[k] for k in _FOLDER_KINDS]
    files: list[Path] = []
    for path in paths:
        if path.is_dir():
            files.extend(
                sorted(
                    p for p in path.iterdir() if p.is_file() and p.name.endswith(tuple(suffixes))
                )
            )
        elif path.exists():
            files.append(path)
        else:
            raise IngestError(f"no such file or directory: {path}")
    return files


def ingest_file(
    store: Store,
    path: Path,
    kind: str | None = None,
    mapping: CsvMapping | None = None,
    system: System | None = None,
    *,
    darshan_config: dict[str, str] | None = None,
    nodes: int | None = None,
) -> IngestResult:
    """Ingest one file of the given kind (guessed when None); CSV needs a mapping. A
    Darshan log becomes measurements with `darshan_config` (the configuration it ran
    with, {} for the defaults; `nodes` the hosts of a job of several ranks), else
    workloads (ingest_darshan)."""
    kind = kind or guess_kind(path)
    if kind == "trace":
        return ingest_trace(store, path)
    if kind == "bench":
        return ingest_bench(store, path)
    if kind == "csv":
        if mapping is None:
            raise IngestError(f"{path}: a CSV file needs a column mapping (--mapping FILE)")
        return ingest_csv(store, path, mapping, system)
    if kind == "darshan":
        return ingest_darshan(store, path, config=darshan_config, system=system, nodes=nodes)
    raise IngestError(f"kind must be one of {', '.join(KINDS)}, got {kind!r}")
