"""bench's kernel jobs as child processes: a job that writes much to stderr finishes (the
pipe is drained while results are parsed), and its measurements reach the results file and
the knowledge base from memory."""

import threading
from pathlib import Path

import pytest
from rich.console import Console

import iotuner.bench._run as bench_run
from iotuner.bench import BenchPlan, parse_layout, run_bench
from iotuner.ingest import ingest_bench_records
from iotuner.measurement import Workload
from iotuner.space import load_space
from iotuner.store import open_store

NOISY = 'head -c 1048576 /dev/zero | tr "\\000" w >&2; exec "$@"'
"""1 MiB on stderr before the kernel starts: over a pipe's 64 KiB, so a reader that waits
for stdout's end before reading stderr waits forever."""


def test_a_kernel_job_with_a_mebibyte_of_stderr_finishes(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    real = bench_run.kernel_command

    def noisy(workload: Workload, target: Path, *extra: str) -> list[str]:
        return ["sh", "-c", NOISY, "sh", *real(workload, target, *extra)]

    monkeypatch.setattr(bench_run, "kernel_command", noisy)
    space = load_space("demo-small")
    plan = BenchPlan(
        space,
        [2],
        ["collective"],
        [parse_layout("contiguous")],
        ["write"],
        [4096],
        repeats=1,
        max_configs=2,
        open_bytes=64 * 1024,
    )
    results = tmp_path / "r.bench.jsonl"
    data = tmp_path / "data"
    data.mkdir()
    batches: list[int] = []
    with open_store(tmp_path / "kb.sqlite") as store:

        def after(records: list) -> None:  # type: ignore[type-arg]
            batches.append(ingest_bench_records(store, results, records).added)

        outcome: list[int] = []
        worker = threading.Thread(
            target=lambda: outcome.append(
                run_bench(plan, data, results, Console(quiet=True), after)
            ),
            daemon=True,
        )
        worker.start()
        worker.join(timeout=240)
        assert not worker.is_alive(), "bench hung on a kernel that fills its stderr pipe"
        assert outcome == [plan.measurements()] == [sum(batches)]
        assert len(results.read_text().splitlines()) == plan.measurements()
        assert store.counts()["measurements"] == plan.measurements()
