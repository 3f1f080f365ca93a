"""Bench result files (`*.bench.jsonl`, iotuner.measurement.measurement_to_json) into
the knowledge base."""

import hashlib
import math
from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path

from iotuner.bench import kernel_workload
from iotuner.ingest._common import (
    MAX_MEASUREMENTS_FILE_BYTES,
    IngestError,
    IngestResult,
    commit_run,
    decode_text,
    read_input,
)
from iotuner.measurement import measurement_from_json
from iotuner.store import Record, Store, StoreError, canonical_config


def ingest_bench(store: Store, path: Path | str) -> IngestResult:
    """Ingest a bench result file (one measurement_to_json line per measurement).

    Only bench sweeps (our kernel) write these files; a line from before the workload told
    its program gets the kernel's fields (ingest_bench_records). The first bad line is
    reported with its file and line, and nothing is added.
    """
    # Read under the name given (a link to /dev/zero is refused as the link), then
    # stored under the file's real path.
    data = read_input(Path(path), "a bench results file (JSON lines)", MAX_MEASUREMENTS_FILE_BYTES)
    path = Path(path).resolve()
    records: list[Record] = []
    for number, line in enumerate(decode_text(path, data).splitlines(), start=1):
        if not line.strip():
            continue
        try:
            measurement, system, space = measurement_from_json(line)
            canonical_config(measurement.config)
            for name in ("bandwidth", "seconds"):
                value = getattr(measurement, name)
                if not math.isfinite(value) or value < 0:
                    raise ValueError(f"{name} must be a finite number >= 0, got {value!r}")
            if not measurement.uid:
                raise ValueError("uid must be a non-empty string")
        # OverflowError: a number past a float's range (1e999) where an integer goes.
        except (ValueError, OverflowError, StoreError) as exc:
            raise IngestError(f"{path}:{number}: {exc}; nothing was added") from None
        records.append((measurement, system, space))
    return ingest_bench_records(store, path, records, hashlib.sha256(data).hexdigest())


def ingest_bench_records(
    store: Store, path: Path | str, records: Sequence[Record], file_hash: str = ""
) -> IngestResult:
    """Store measurements a sweep holds in memory as lines of the results file `path`,
    without reading the file again (bench stores each workload's new lines as it goes).

    The run is the sweep's `bench_run` id when every record has the same, else
    `file_hash`, else the hash of the records' uids. A measurement whose workload does not
    name its program is one of our kernel's from before the field: it gets the kernel's
    fields (iotuner.bench._plan.kernel_workload), as a sweep of today writes them.
    """
    path = Path(path).resolve()
    records = [
        (
            replace(m, workload=kernel_workload(m.workload)) if m.workload.program is None else m,
            s,
            sp,
        )
        for m, s, sp in records
    ]
    bench_runs = {str(m.provenance.get("bench_run") or "") for m, _, _ in records}
    single = bench_runs.pop() if len(bench_runs) == 1 else ""
    uids = "\n".join(sorted(m.uid for m, _, _ in records))
    run_uid = single or file_hash or hashlib.sha256(uids.encode()).hexdigest()
    file_systems = {system for _, system, _ in records}
    meta = {
        "spaces": sorted({space for _, _, space in records}),
        "systems": len(file_systems),
    }
    return commit_run(
        store,
        path,
        "bench",
        run_uid,
        records,
        0,
        system=file_systems.pop() if len(file_systems) == 1 else None,
        meta=meta,
    )
