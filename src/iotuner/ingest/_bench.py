"""Bench result files (`*.bench.jsonl`, iotuner.measurement.measurement_to_json) into
the knowledge base."""

import hashlib
import math
from pathlib import Path

from iotuner.ingest._common import IngestError, IngestResult, commit_run, decode_text, read_bytes
from iotuner.measurement import (
    measurement_from_json,
)
from iotuner.store import Record, Store, StoreError, canonical_config


def ingest_bench(store: Store, path: Path | str) -> IngestResult:
    """Ingest a bench result file (one measurement_to_json line per measurement).

    The first bad line is reported with its file and line, and nothing is added.
    """
    path = Path(path).resolve()
    data = read_bytes(path)
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
        except (ValueError, StoreError) as exc:
            raise IngestError(f"{path}:{number}: {exc}; nothing was added") from None
        records.append((measurement, system, space))
    bench_runs = {str(m.provenance.get("bench_run") or "") for m, _, _ in records}
    single = bench_runs.pop() if len(bench_runs) == 1 else ""
    run_uid = single or hashlib.sha256(data).hexdigest()
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
