"""What a finished search leaves behind: its trials' trace logs, stored in the knowledge
base (trial_logs, store_trial_logs), and its winner, merged into a tuning table
(table_winner). The command line says what was kept."""

from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from iotuner.errors import ConfigError, IotunerError
from iotuner.search._result import SearchResult
from iotuner.search._verdict import measured_fs_type, merge_winner, searched_keys, winner_entries

if TYPE_CHECKING:
    from iotuner.store import Store
    from iotuner.table import TableEntry

__all__ = ["StoredLogs", "store_trial_logs", "table_winner", "trial_logs"]


@dataclass(frozen=True)
class StoredLogs:
    """What store_trial_logs added: `added` measurements from the recorded trials' logs,
    `recovered` from logs of trials a killed search never recorded, and why each of the
    unrecorded logs it could not store was refused."""

    added: int
    recovered: int
    refused: list[str]


def trial_logs(result: SearchResult) -> tuple[list[Path], list[Path]]:
    """The trace logs of the search's trials (and re-measures and probes), and apart
    from them those of trials a killed search ran and never recorded."""
    # Every trial's logs, not only this run's: a search killed before it stored its
    # trials left their logs behind, and storing skips what is stored already.
    logs = [log for t in result.trials for log in t.outcome.logs if Path(log).is_file()]
    logs += [log for r in result.remeasured for log in r.logs] + result.probe_logs
    unrecorded = [log for log in result.unrecorded_logs if log not in logs]
    return logs, unrecorded


def store_trial_logs(store: "Store", logs: list[Path], unrecorded: list[Path]) -> StoredLogs:
    """Store the measurements of `logs` and `unrecorded` (trial_logs) as search runs."""
    from iotuner.ingest import ingest_trace

    added = sum(ingest_trace(store, log, kind="search").added for log in logs)
    # The logs of trials a killed search never recorded: whole logs are measurements;
    # one cut short by the kill is refused by its reader, and said.
    recovered, refused = 0, []
    for log in unrecorded:
        try:
            recovered += ingest_trace(store, log, kind="search").added
        except IotunerError as exc:
            refused.append(str(exc))
    return StoredLogs(added, recovered, refused)


def table_winner(table: Path, result: SearchResult, logs: list[Path]) -> list["TableEntry"]:
    """Merge the winner's entries into the tuning table `table` (--table), on the file
    system the trials' `logs` were on; the entries (none when the winner sets no hint,
    and the table is left as it was)."""
    if result.program is None or result.nprocs is None:
        raise ConfigError("--table needs a run's trace to name the program and its scale")
    entries = winner_entries(result, result.program, result.nprocs)
    if entries:
        fs_type = measured_fs_type(logs)
        merge_winner(table, entries, searched_keys(result), fs_type)
    return entries
