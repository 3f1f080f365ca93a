"""Online tuning (`iotuner run --learn`): after the program has ended, in the same process,
its trace goes into the knowledge base, the guard keeps or rolls back the last change
(guard), a refit chooses what the next run tries (choice, within the risk the runs have
earned: risk) and the program's entries are rewritten (table_writing). Every decision is
an event in TABLE.history.jsonl (events). The program's exit status and timing are
untouched; a failure to learn is one warning, never the run's status."""

import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from iotuner.errors import IotunerError
from iotuner.online.choice import DEFAULT_MODEL, choose_next
from iotuner.online.events import (
    OnlineReport,
    append_event,
    entry_words,
    history_path,
    read_history,
    record_start,
    same_stream,
    unstored_logs,
)
from iotuner.online.guard import GUARD_RUNS, rollback_event
from iotuner.online.risk import MAX_TRY_LOSS
from iotuner.online.runs import RunSummary, main_workload
from iotuner.online.table_writing import program_entries, repair_event, write_program

__all__ = [
    "DEFAULT_MODEL",
    "GUARD_RUNS",
    "MAX_TRY_LOSS",
    "OnlineReport",
    "history_path",
    "learn_after_run",
    "read_history",
    "record_start",
]


def learn_after_run(
    logs: Sequence[Path],
    table: Path,
    db: str | None,
    *,
    space: str | None = None,
    model: str | None = None,
    refit_every: int = 1,
) -> OnlineReport:
    """Learn from one finished run (module doc). Raises on failure: the caller warns."""
    from iotuner.store import open_store

    report = OnlineReport()
    run = main_workload(logs)
    current = program_entries(table, run.program, run.nprocs)
    base = {"time": time.time(), "program": run.program, "nprocs": run.nprocs}
    store = open_store(db)
    try:
        earlier = read_history(table)
        _store_logs(store, table, logs, earlier, base, report)
        append_event(table, {**base, "event": "run", "hints": current, "in_force": run.in_force,
                             "bandwidth": run.bandwidth, "logs": [str(p) for p in logs]},
                     report)  # fmt: skip
        history = earlier + report.events  # read once: this run's events are known
        rollback = rollback_event(history, run.program, run.nprocs)
        if rollback is not None:
            write_program(
                table, run.program, run.nprocs, rollback["new"], "iotuner online: rollback"
            )
            append_event(table, {**base, **rollback}, report)
        elif refit_every > 0 and _runs_since_refit(history, run) >= refit_every:
            _refit(store, table, run, current, history, base, space, model, report)
    finally:
        store.close()
    return report


def _store_logs(
    store: Any,
    table: Path,
    logs: Sequence[Path],
    earlier: list[dict[str, Any]],
    base: dict[str, Any],
    report: OnlineReport,
) -> None:
    """The run's logs into the knowledge base (kind "trace"), and those of earlier runs
    killed before they learned (a `recovered` event each)."""
    from iotuner.ingest import ingest_trace

    for log in logs:
        ingest_trace(store, log, kind="trace")
    for tag, left in unstored_logs(earlier, logs).items():
        added, refused = 0, []
        for log in left:
            try:
                added += ingest_trace(store, log, kind="trace").added
            except IotunerError as exc:  # a log cut short by the kill: said, not stored
                refused.append(str(exc))
        append_event(table, {**base, "event": "recovered", "tag": tag, "added": added,
                             "logs": [str(p) for p in left], "refused": refused},
                     report)  # fmt: skip


def _runs_since_refit(history: list[dict[str, Any]], run: RunSummary) -> int:
    runs = 0
    for e in reversed(history):
        if not same_stream(e, run.program, run.nprocs):
            continue
        if e["event"] in ("change", "keep"):
            break
        runs += e["event"] == "run"
    return runs


def _refit(
    store: Any,
    table: Path,
    run: RunSummary,
    current: dict[str, str | int],
    history: list[dict[str, Any]],
    base: dict[str, Any],
    space: str | None,
    model: str | None,
    report: OnlineReport,
) -> None:
    """A repair of values the space cannot read (once), then the next configuration."""
    from iotuner.learn import training_data

    systems = [s for s in store.systems() if s.host == run.host]
    data = training_data(
        store, system=systems[0].fingerprint if len(systems) == 1 else None, space=space
    )
    repair = repair_event(data.space, current)
    if repair is not None:
        # Once: the entry is rewritten without the values, so the next run finds none.
        write_program(table, run.program, run.nprocs, repair["new"], "iotuner online: repaired")
        append_event(table, {**base, **repair}, report)
        current = repair["new"]
    mine = [e for e in history if same_stream(e, run.program, run.nprocs)]
    rejected = [e["old"] for e in mine if e["event"] == "rollback"]
    runs = [float(e["bandwidth"]) for e in mine if e["event"] == "run" and e.get("bandwidth")]
    event = choose_next(
        data.frame, data.space, run.workload, current, run.in_force, rejected, model, runs,
        run.app_keys,
    )  # fmt: skip
    if event.get("event") == "change":
        note = (
            f"iotuner online: {event['purpose']}"
            if event.get("gain") is None
            else f"iotuner online: predicted x{event['gain']:.2f} over {entry_words(current)}"
        )
        write_program(table, run.program, run.nprocs, event["new"], note)
    append_event(table, {**base, **event}, report)
