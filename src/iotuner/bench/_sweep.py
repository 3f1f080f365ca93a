"""What a sweep starts from and ends with besides measuring: the programs' cases it
measures first (sweep_cases: the logs given with --from-logs), and the knowledge base's
share of its results file (store_unstored before measuring, unstored_count at the end)."""

from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from iotuner.bench._plan import LayoutSpec
from iotuner.bench._programs import ProgramCase, program_cases
from iotuner.bench._results import read_result_records, read_results
from iotuner.errors import ConfigError

if TYPE_CHECKING:
    from iotuner.store import Record, Store

__all__ = ["store_unstored", "sweep_cases", "unstored_count"]


def sweep_cases(
    logs: Sequence[Path], nprocs: Sequence[int], layouts: Sequence[LayoutSpec], open_bytes: int
) -> tuple[list[ProgramCase], list[str]]:
    """The cases of the programs' `logs` (program_cases) up to the sweep's largest scale,
    a strided case the logs give no block of standing in for the sweep's first strided
    layout, and a sentence per kind left out. ConfigError when logs are given and show
    no case the sweep can measure."""
    strided = next((layout for layout in layouts if layout.layout == "strided"), None)
    cases, left_out = program_cases(
        logs,
        max(nprocs),
        open_bytes,
        stand_in=None if strided is None else (strided.block, strided.fill),
    )
    if logs and not cases:
        raise ConfigError(
            "--from-logs: the logs show no case this sweep can measure"
            + (f" ({'; '.join(left_out)})" if left_out else " (no MPI-IO call with a duration)")
        )
    return cases, left_out


def store_unstored(store: "Store", results: Path) -> int:
    """Store the measurements of `results` the knowledge base does not hold (those of a
    run killed after writing them and before storing them); how many.

    RATIONALE: one run per sweep, as bench stores them (ingest_bench_records takes the
    sweep's id as the run's uid), so recovered lines join their sweep's run; the
    knowledge base skips a uid it holds, so this adds nothing twice."""
    from iotuner.ingest import ingest_bench_records

    records = read_result_records(results)
    known = store.known_uids(m.uid for m, _, _ in records)
    sweeps: dict[str, list[Record]] = {}
    for record in records:
        if record[0].uid not in known:
            sweep = str(record[0].provenance.get("bench_run") or "")
            sweeps.setdefault(sweep, []).append(record)
    return sum(ingest_bench_records(store, results, group).added for group in sweeps.values())


def unstored_count(store: "Store", results: Path) -> tuple[int, int]:
    """The measurements in `results`, and how many of them the knowledge base lacks."""
    uids = {m.uid for m in read_results(results)}
    return len(uids), len(uids - store.known_uids(uids))
