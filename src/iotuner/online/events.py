"""The learner's history: JSON lines next to the table (TABLE.history.jsonl), one event per
line (start, run, change, keep, rollback, repair, recovered), and their one-line words."""

import json
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from iotuner._fileio import create_private_file

__all__ = [
    "OnlineReport",
    "append_event",
    "history_path",
    "read_history",
    "record_start",
    "unstored_logs",
]

RECOVERY_STARTS = 50
"""Unmatched starts looked at by each run: older ones are left to `iotuner ingest`."""


@dataclass
class OnlineReport:
    """What learning after one run did: the events appended to the history."""

    events: list[dict[str, Any]] = field(default_factory=list)

    def lines(self) -> list[str]:
        """One line per decision, for stderr."""
        said = []
        for e in self.events:
            who = f"table: {e['program']} x{e['nprocs']}{_file_words(e)}"
            if e["event"] == "change":
                said.append(
                    f"{who}: {entry_words(e['old'])} -> {entry_words(e['new'])} ({_why(e)})"
                )
            elif e["event"] == "rollback":
                said.append(f"{who}: rolled back to {entry_words(e['new'])} ({e['reason']})")
            elif e["event"] == "repair":
                said.append(f"{who}: {e['old']} -> {entry_words(e['new'])} ({e['reason']})")
            elif e["event"] == "keep":
                said.append(f"table kept for {e['program']} x{e['nprocs']}: {e['reason']}")
            elif e["event"] == "recovered":
                said.append(
                    f"stored {e['added']} measurements of an earlier run killed before it "
                    f"learned ({len(e['logs'])} log(s) tagged {e['tag']})"
                )
                said += [f"an earlier run's log could not be stored: {r}" for r in e["refused"]]
        return said


def _file_words(event: dict[str, Any]) -> str:
    return f" {event['file']}" if event.get("file") else ""


def _why(change: dict[str, Any]) -> str:
    """A change's reason. Only an earned gain is a figure: measured on this workload
    against the runs in force, or calibrated on held-out workloads, and said which; a
    model's own prediction is no gain ("gain unknown")."""
    gain, interval = change.get("gain"), change.get("interval")
    if change.get("purpose"):
        head = str(change["purpose"])
    elif gain is None or interval is None:
        return f"gain unknown: {change.get('evidence') or change.get('model') or 'a try'}"
    else:
        head = ""
    if gain is None or interval is None:
        return head
    earned = "calibrated" if change.get("calibrated") else "measured"
    base = "the best measured" if change.get("base") == "best measured" else "the runs in force"
    figure = f"{earned} x{gain:.2f} over {base}, {interval[0]:.2f}-{interval[1]:.2f}"
    return f"{head}: {figure}" if head else figure


def entry_words(hints: dict[str, Any]) -> str:
    """A program's entry for messages: {} is no entry of its own, under which the table's
    generic entries (if any match) apply, not necessarily the default."""
    return str(hints) if hints else "no entry of its own"


def history_path(table: Path) -> Path:
    return table.with_name(table.name + ".history.jsonl")


def read_history(table: Path) -> list[dict[str, Any]]:
    path = history_path(table)
    if not path.exists():
        return []
    return [json.loads(line) for line in path.read_text().splitlines() if line.strip()]


def record_start(table: Path, tag: str, log_dir: Path) -> None:
    """Appends a `start` event before a run --learn job: its tag and log folder, so the
    next run stores its logs if it is killed between its end and its learning."""
    create_private_file(history_path(table))  # paths and measurements: the logs' policy
    with history_path(table).open("a", encoding="utf-8") as out:
        event = {"event": "start", "time": time.time(), "program": None, "nprocs": None,
                 "tag": tag, "log_dir": str(log_dir)}  # fmt: skip
        out.write(json.dumps(event, sort_keys=True) + "\n")


def unstored_logs(history: list[dict[str, Any]], own: Sequence[Path]) -> dict[str, list[Path]]:
    """By tag, the logs of earlier run --learn jobs that started and wrote their logs but
    never learned (no `run` or `recovered` event names them): killed after their job.

    RATIONALE: a job still running has no logs yet and is left for the next run to look
    at; a job whose logs exist but whose learning is still to come is stored twice at
    worst, which storing skips (measurements are unique by their log's digest).
    """
    done = {str(p) for e in history if e["event"] == "run" for p in e.get("logs", [])}
    done |= {str(p) for e in history if e["event"] == "recovered" for p in e.get("logs", [])}
    done |= {str(p) for p in own}
    starts = [e for e in history if e["event"] == "start"][-RECOVERY_STARTS:]
    found: dict[str, list[Path]] = {}
    for start in starts:
        logs = sorted(Path(start["log_dir"]).glob(f"*-{start['tag']}.iotrace.jsonl"))
        logs = [log for log in logs if str(log) not in done]
        if logs:
            found[start["tag"]] = logs
    return found


def append_event(table: Path, event: dict[str, Any], report: OnlineReport) -> None:
    # One write per line with O_APPEND: concurrent runs of the program do not interleave.
    create_private_file(history_path(table))  # paths and measurements: the logs' policy
    with history_path(table).open("a", encoding="utf-8") as out:
        out.write(json.dumps(event, sort_keys=True, default=_plain) + "\n")
    report.events.append(event)


def _plain(value: Any) -> Any:
    """numpy's scalars (a frame's cells) as Python's, for JSON."""
    if hasattr(value, "item"):
        return value.item()
    raise TypeError(f"not JSON: {value!r}")


def same_stream(event: dict[str, Any], program: str, nprocs: int, file: str | None = None) -> bool:
    """Whether `event` is about the entries of `program` at `nprocs` for the file pattern
    `file` (the learner's unit; None: events without a file, from before it learned per
    file)."""
    return (
        event.get("program") == program
        and event.get("nprocs") == nprocs
        and event.get("file") == file
    )
