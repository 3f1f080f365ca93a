"""Online tuning (`iotuner run --learn`): after the program has ended, in the same process,
its trace goes into the knowledge base, the guard keeps or rolls back the last change
(guard), a refit chooses what the next run tries (choice, within the risk the runs have
earned: risk; one try at a time, judged by the guard before the next) and the program's
entries are rewritten (table_writing). Every decision is an event in TABLE.history.jsonl
(events). The program's exit status and timing are untouched; a failure to learn is one
warning, never the run's status."""

import time
from collections.abc import Sequence
from dataclasses import dataclass
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
from iotuner.online.guard import GUARD_RUNS, awaiting_judgement, rollback_event
from iotuner.online.risk import MAX_TRY_LOSS
from iotuner.online.runs import RunSummary, main_workload
from iotuner.online.table_writing import (
    Scope,
    program_entry,
    repair_event,
    restore_entries,
    scope_lines,
    write_entries,
)

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
    model_dir: Path | None = None,
    refit_every: int = 1,
) -> OnlineReport:
    """Learn from one finished run (module doc). `model`: the kind to refit; `model_dir`:
    `train`'s saved model, whose kind and calibration are used when it learned on the
    run's system and space. Raises on failure: the caller warns."""
    from iotuner.store import open_store

    report = OnlineReport()
    run = main_workload(logs)
    scope, current = program_entry(table, run)
    base = {"time": time.time(), "program": run.program, "nprocs": run.nprocs, "file": scope.file}
    store = open_store(db)
    try:
        earlier = read_history(table)
        _store_logs(store, table, logs, earlier, base, report)
        append_event(table, {**base, "event": "run", "hints": current, "in_force": run.in_force,
                             "bandwidth": run.bandwidth, "phase_bandwidth": run.phase_bandwidth,
                             "phases": run.phases, "workload": run.workload.as_row(),
                             "logs": [str(p) for p in logs]}, report)  # fmt: skip
        history = earlier + report.events  # read once: this run's events are known
        rollback = rollback_event(history, *scope.stream)
        if rollback is not None:
            lines = rollback.pop("entries_before", None)
            if not (isinstance(lines, list) and restore_entries(table, scope, lines)):
                write_entries(table, scope, rollback["new"], "iotuner online: rollback")
            append_event(table, {**base, **rollback}, report)
        elif refit_every > 0 and _runs_since_refit(history, scope.stream) >= refit_every:
            waiting = awaiting_judgement(history, *scope.stream)
            if waiting is not None:
                append_event(table, {**base, "event": "keep", "reason": waiting}, report)
                return report
            learner = _Learner(store, table, run, scope, history, base, report)
            learner.refit(current, space, model, model_dir)
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


def _runs_since_refit(history: list[dict[str, Any]], stream: tuple[str, int, str]) -> int:
    runs = 0
    for e in reversed(history):
        if not same_stream(e, *stream):
            continue
        if e["event"] in ("change", "keep"):
            break
        runs += e["event"] == "run"
    return runs


@dataclass
class _Learner:
    """One refit: what it reads and where it writes."""

    store: Any
    table: Path
    run: RunSummary
    scope: Scope
    history: list[dict[str, Any]]
    base: dict[str, Any]
    report: OnlineReport

    def refit(
        self,
        current: dict[str, str | int],
        space: str | None,
        model: str | None,
        model_dir: Path | None,
    ) -> None:
        """A repair of values the space cannot read (once), then the next configuration."""
        from iotuner.learn import NothingToLearn, training_data

        try:
            data = training_data(self.store, system=self._system(), space=space)
        except NothingToLearn as exc:
            # The run's own system has only rows the space cannot read (a program that
            # sets hints the space lacks, on a file system no sweep measured): a state
            # to say after each run, not a failure to learn.
            reason = f"nothing to learn from on the run's system: {exc}"
            append_event(self.table, {**self.base, "event": "keep", "reason": reason},
                         self.report)  # fmt: skip
            return
        repair = repair_event(data.space, current)
        if repair is not None:
            # Once: the entry is rewritten without the values, so the next run finds none.
            self._write(repair, "iotuner online: repaired")
            current = repair["new"]
        predictions = self.table.with_name(self.table.name + ".predictions.json")
        saved, kind = _saved_model(model_dir, data.space.name, data.system, model, predictions)
        mine = [e for e in self.history if same_stream(e, *self.scope.stream)]
        event = choose_next(
            data.frame,
            data.space,
            self.run.workload,
            current,
            self.run.in_force,
            [e["old"] for e in mine if e["event"] == "rollback"],
            kind,
            [float(e["bandwidth"]) for e in mine if e["event"] == "run" and e.get("bandwidth")],
            self.run.app_keys,
            saved=saved,
            calibration_cache=self.table.with_name(self.table.name + ".calibration.json"),
            own_runs=[e for e in mine if e["event"] == "run"],
        )
        if event.get("event") == "change":
            self._write(event, _note(event, current))
        else:
            append_event(self.table, {**self.base, **event}, self.report)

    def _write(self, event: dict[str, Any], note: str) -> None:
        if event["event"] == "change":
            event = {**event, "entries_before": scope_lines(self.table, self.scope)}
        write_entries(self.table, self.scope, event["new"], note)
        append_event(self.table, {**self.base, **event}, self.report)

    def _system(self) -> str | None:
        """The system to learn on: the run's own (the file system its main file is on),
        else the one system of its host the knowledge base holds; None lets training_data
        take the knowledge base's only system or say which to name."""
        systems = self.store.systems()
        if any(s.fingerprint == self.run.system for s in systems):
            return self.run.system
        on_host = [s for s in systems if s.host == self.run.host]
        return on_host[0].fingerprint if len(on_host) == 1 else None


def _saved_model(
    model_dir: Path | None, space: str, system: Any, kind: str | None, cache: Path
) -> tuple[Any, str | None]:
    """`train`'s model when it learned on this space and system (used as it is, its
    predictions kept in `cache`: evidence.SavedModel), and the kind to refit otherwise:
    `kind` when named, else the saved model's (the kind train chose), else None
    (choice.DEFAULT_MODEL)."""
    if model_dir is None or not (model_dir / "model.json").exists():
        return None, kind
    from iotuner.online.evidence import SavedModel

    saved = SavedModel(model_dir, cache)
    fingerprint = getattr(system, "fingerprint", system)
    learned = saved.metadata.get("systems") or []
    fits = saved.metadata.get("space") == space and (not learned or fingerprint in learned)
    if kind is not None and kind != saved.name:
        return None, kind
    return (saved if fits else None), saved.name


def _note(event: dict[str, Any], current: dict[str, str | int]) -> str:
    if event.get("gain") is None:
        return f"iotuner online: {event.get('purpose') or 'try'}"
    return f"iotuner online: x{event['gain']:.2f} over {entry_words(current)} ({event['model']})"
