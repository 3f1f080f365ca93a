"""Online tuning: every production run traced into the knowledge base, the model refitted
every N runs, the program's table entries rewritten only with evidence, and a change that
made runs slower rolled back (`iotuner run --learn`).

When: after the program has ended, in the same process, synchronously. The program's exit
status and its own timing are untouched (it has finished when learning starts); the next
run of the program waits for no background process and finds the table the last run
left. A refit takes a few seconds for a program's cases; a failure to learn is one warning,
never the run's status.

What one run does (learn_after_run):

1. its trace logs go into the knowledge base (kind "trace");
2. the run's own bandwidth (bytes over the seconds of its operations of its main workload:
   the one that moved the most bytes) and the hints its table entry gave are appended to
   the history (`run`);
3. the regression guard: the old entry is restored and the change rolled back
   (`rollback`) when the first runs with the new hints all fell below the slowest run
   before it by more than the noise (one slow run is the price of a try), or, once the
   change has had GUARD_RUNS runs or more and the runs before it as many, when the new
   runs are slower (their median below the lower quartile of the old ones, and an exact
   one-sided rank test at GUARD_P); a rolled-back configuration is not chosen again for
   the program;
4. every `refit_every` runs, first a repair: values of the space's knobs that the space
   does not list (an entry written by hand or for another space) go back to the default,
   once, with a `repair` event; then the next configuration for the run's main workload (every
   run teaches: the one it tries is measured by the next run, and judged by that):
   a. measured: a configuration whose runs on this workload have their lower quartile
      above the upper quartile of the runs in force (two runs or more each) is taken, the
      best by median;
   b. calibrated: else the model (`model`'s kind, default random_forest) is fitted anew on
      the knowledge base and calibrated on held-out workloads (iotuner.models._calibrate,
      at most CALIBRATION_FOLDS folds); of the configurations this workload has not run
      yet, the one with the best calibrated bound of its gain over the best measured
      one (the one in force unless an earlier choice ran better) is tried, when
      held-out configurations predicted to gain as much gained in the median and, in
      nine of ten, lost no more below the default than the program's runs have earned
      (_risk_budget: the noise, tune.measurement_noise, per run so far and the next,
      plus what they gained over the default, less what tries lost, never a bound
      below MAX_TRY_LOSS of the default), and when the base was measured ahead of the default
      on this workload, that lead too. The predictions are moved by what
      the workload's runs measured (_gains_over), so a try that fell short of its
      prediction lets the next candidate run: one run per try, down the ranking, until
      nothing untried clears the bound; then, when the last try came out below an
      earlier choice, back to that one. The calibration bounds gains over a workload's
      default; over another configuration it is the same curve, read as the gain of
      one configuration over another of the workload. "In force" is what the trace
      shows the run had (the table's generic entries when the program has none of its
      own);
   then, when neither rule gives a try and the default never ran this workload while
   another configuration is in force (the table's, chosen without trial runs), the next
   run measures the default (a run with it is never slower than the default), so the
   measured rule can judge the configuration in force against it;
   c. uncalibrated (one workload in the knowledge base): the best configuration (highest
      lower bound) must beat the one in force by its lower bound above the current's
      upper bound, both bands at least the noise wide;
   then the program's entries are written (at open, view and collective access, as
   search writes a winner) with write-then-rename (`change`), otherwise `keep` says why.
   With too little data for a model, only (a) can change the entry. A key the program
   passes itself (the trace's `app` keys) has the program's value as its default: an
   entry that leaves it at the space's default does not name it, so "the default" is
   the program as it is, never ROMIO's value over the program's own.

The history is JSON lines next to the table (TABLE.history.jsonl): one object per event
with its time, program and scale, the hints before and after, the predicted gain and its
interval, the noise and the measurements a decision rests on.
"""

import json
import math
import statistics
import time
from collections import Counter
from collections.abc import Collection, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
from scipy.stats import mannwhitneyu

from iotuner._fileio import create_private_file
from iotuner.errors import IotunerError
from iotuner.formats import hint_vocabulary
from iotuner.measurement import Workload
from iotuner.space import Space, SpaceError, config_key
from iotuner.table import TableEntry, merge_entries, read_table, write_table
from iotuner.tracelog import read_tracelog

__all__ = [
    "GUARD_RUNS",
    "MAX_TRY_LOSS",
    "OnlineReport",
    "history_path",
    "learn_after_run",
    "read_history",
]

GUARD_RUNS = 3
"""Runs with the new entry, and with the old one, before the guard judges a change."""
GUARD_P = 0.05
"""The rank test's level: 3 slower runs out of 3 against 3 give exactly 0.05."""
DEFAULT_MODEL = "random_forest"
CALIBRATION_FOLDS = 24
"""Workloads held out, one at a time, to calibrate the refitted model (a few seconds).

RATIONALE: the 10 % bound of a large predicted gain rests on the few held-out pairs
predicted alike; with 12 folds it swung between 0.82 and 0.97 as one traced run was added
to the real-programs knowledge base (bench/real_programs.py), with 24 it moves less and
costs 2.3 s instead of 1.5 s there."""
MAX_TRY_LOSS = 0.5
"""The most a try may risk at its calibrated 10 % bound: a run at half the default's
bandwidth (see _risk_budget)."""
ACCESSES = (
    ("write", "contiguous"),
    ("write", "strided"),
    ("read", "contiguous"),
    ("read", "strided"),
)
"""The collective accesses the program's entries cover (as search's winner entries)."""


@dataclass
class OnlineReport:
    """What learning after one run did: the events appended to the history."""

    events: list[dict[str, Any]] = field(default_factory=list)

    def lines(self) -> list[str]:
        """One line per decision, for stderr."""
        said = []
        for e in self.events:
            if e["event"] == "change" and e.get("gain") is None:
                said.append(
                    f"table: {e['program']} x{e['nprocs']}: {_entry_words(e['old'])} -> "
                    f"{_entry_words(e['new'])} ({e.get('purpose') or e.get('evidence')})"
                )
            elif e["event"] == "change":
                said.append(
                    f"table: {e['program']} x{e['nprocs']}: {_entry_words(e['old'])} -> "
                    f"{e['new']} (predicted x{e['gain']:.2f}, "
                    f"{e['interval'][0]:.2f}-{e['interval'][1]:.2f})"
                )
            elif e["event"] == "rollback":
                said.append(
                    f"table: {e['program']} x{e['nprocs']}: rolled back to "
                    f"{_entry_words(e['new'])} ({e['reason']})"
                )
            elif e["event"] == "repair":
                said.append(
                    f"table: {e['program']} x{e['nprocs']}: {e['old']} -> {_entry_words(e['new'])} "
                    f"({e['reason']})"
                )
            elif e["event"] == "keep":
                said.append(f"table kept for {e['program']} x{e['nprocs']}: {e['reason']}")
            elif e["event"] == "recovered":
                said.append(
                    f"stored {e['added']} measurements of an earlier run killed before it "
                    f"learned ({len(e['logs'])} log(s) tagged {e['tag']})"
                )
                said += [f"an earlier run's log could not be stored: {r}" for r in e["refused"]]
        return said


def _entry_words(hints: dict[str, Any]) -> str:
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


RECOVERY_STARTS = 50
"""Unmatched starts looked at by each run: older ones are left to `iotuner ingest`."""


def _unstored_logs(history: list[dict[str, Any]], own: Sequence[Path]) -> dict[str, list[Path]]:
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


def _append(table: Path, event: dict[str, Any], report: OnlineReport) -> None:
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


@dataclass
class RunSummary:
    """What one run did on its main workload (the one that moved the most bytes)."""

    program: str
    nprocs: int
    host: str
    workload: Workload
    bandwidth: float
    """MiB/s: its bytes over the seconds of its operations."""
    in_force: dict[str, str]
    """The configuration in force for most of its bytes, as MPI reported it: the table's
    program entry, or the generic entries that matched when the program has none."""
    app_keys: frozenset[str] = frozenset()
    """The hints the program itself passed to MPI for the workload's files (the trace's
    `app` keys): for them, the program's own value is its default."""


def _main_workload(logs: Sequence[Path]) -> RunSummary:
    """The run's main workload, its bandwidth and the configuration in force for it."""
    from iotuner.ingest import configs_in_force

    moved: Counter[Workload] = Counter()
    seconds: dict[Workload, float] = {}
    configs: dict[Workload, Counter[str]] = {}
    spelled: dict[str, dict[str, str]] = {}
    app_keys: dict[Workload, set[str]] = {}
    program, nprocs, host = "", 0, ""
    for path in logs:
        log = read_tracelog(path)
        program = str(log.job["program"])
        nprocs = int(log.job.get("nprocs") or log.job.get("size") or 0)
        host = str(log.job["host"]).split(".")[0]
        in_force, _ = configs_in_force(log.hints)
        asked: dict[str, set[str]] = {}
        for record in log.hints:
            asked.setdefault(record["file"], set()).update(record.get("app") or {})
        for index, row in enumerate(log.ops):
            if row["duration"] <= 0:
                continue
            workload = log.workload_of(index)
            moved[workload] += int(row["bytes"])
            seconds[workload] = seconds.get(workload, 0.0) + float(row["duration"])
            config = in_force.get((row["file"], row["hint_set"]), {})
            key = json.dumps(config, sort_keys=True)
            spelled[key] = config
            configs.setdefault(workload, Counter())[key] += int(row["bytes"])
            app_keys.setdefault(workload, set()).update(asked.get(row["file"], set()))
            nprocs = nprocs or workload.nprocs
    if not moved:
        raise ValueError("the run's trace has no timed I/O operation")
    workload, total = moved.most_common(1)[0]
    return RunSummary(
        program=program,
        nprocs=nprocs or workload.nprocs,
        host=host,
        workload=workload,
        bandwidth=total / 1048576 / seconds[workload],
        in_force=spelled[configs[workload].most_common(1)[0][0]],
        app_keys=frozenset(app_keys.get(workload, set())),
    )


def _program_entries(table: Path, program: str, nprocs: int) -> dict[str, str | int]:
    """The hints the table gives the program at open (its own entry), {} for none."""
    if not table.exists():
        return {}
    for entry in read_table(table):
        if entry.at == "open" and entry.program == program and entry.nprocs == nprocs:
            return dict(entry.hints)
    return {}


def _write_program(table: Path, program: str, nprocs: int, hints: dict[str, str | int],
                   note: str) -> None:  # fmt: skip
    """The program's entries at every decision point (as search writes a winner), in front;
    {} removes them (the program gets the table's other entries again)."""
    existing = read_table(table) if table.exists() else []
    kept = [e for e in existing if not (e.program == program and e.nprocs == nprocs)]
    if not hints:
        write_table(table, kept)
        return
    vocabulary = hint_vocabulary()
    later = {k: v for k, v in hints.items() if k not in vocabulary or vocabulary[k].when != "OPEN"}
    entries = [TableEntry(at="open", program=program, nprocs=nprocs, hints=hints, note=note)]
    entries += [
        TableEntry(at="view", program=program, nprocs=nprocs, layout=layout, hints=later)
        for layout in ("contiguous", "strided")
    ]
    entries += [
        TableEntry(
            program=program, nprocs=nprocs, pattern="collective", op=op, layout=layout, hints=later
        )
        for op, layout in ACCESSES
    ]
    write_table(table, merge_entries(kept, entries, in_front=True))


def _guard(history: list[dict[str, Any]], program: str, nprocs: int) -> dict[str, Any] | None:
    """A rollback event when the program's last change made its runs slower, else None."""
    mine = [e for e in history if e["program"] == program and e["nprocs"] == nprocs]
    changes = [i for i, e in enumerate(mine) if e["event"] in ("change", "rollback")]
    if not changes or mine[changes[-1]]["event"] != "change":
        return None
    change = mine[changes[-1]]
    old, new = change["old"], change["new"]
    before = [
        e["bandwidth"] for e in mine[: changes[-1]] if e["event"] == "run" and e["hints"] == old
    ]
    after = [
        e["bandwidth"] for e in mine[changes[-1] :] if e["event"] == "run" and e["hints"] == new
    ]
    before = before[-4 * GUARD_RUNS :]  # the recent runs with the old entry
    first = _first_runs_below(before, after, float(change.get("noise") or 0.0))
    if first is not None:
        return {"event": "rollback", "program": program, "nprocs": nprocs, "old": new,
                "new": old, "reason": first, "after": after, "before": before}  # fmt: skip
    if len(before) < GUARD_RUNS or len(after) < GUARD_RUNS:
        return None
    q1 = float(np.percentile(before, 25))
    p = float(mannwhitneyu(after, before, alternative="less", method="exact").pvalue)
    if not (statistics.median(after) < q1 and p <= GUARD_P):
        return None
    return {
        "event": "rollback",
        "program": program,
        "nprocs": nprocs,
        "old": new,
        "new": old,
        "reason": (
            f"{len(after)} runs with {new} at median {statistics.median(after):.1f} MiB/s, "
            f"below the lower quartile {q1:.1f} MiB/s of {len(before)} runs before "
            f"(rank test p = {p:.3f})"
        ),
        "after": after,
        "before": before,
        "p": p,
    }


def _first_runs_below(before: list[float], after: list[float], noise: float) -> str | None:
    """Why a change is rolled back after its first runs (before the rank test can judge):
    every run with it fell below the slowest run before it by more than the noise (the
    knowledge base's, or the earlier runs' own spread when wider). None otherwise.

    RATIONALE: a tried configuration that is slower costs one run, not GUARD_RUNS: the
    promise is that no run is slower than the default beyond the noise, and one run
    that far below every earlier one is evidence enough to go back to what was measured.
    """
    if not before or not after or len(after) >= GUARD_RUNS:
        return None
    spread = max(before) / min(before) - 1 if min(before) > 0 else 0.0
    floor = min(before) / (1 + max(noise, spread))
    if max(after) >= floor:
        return None
    return (
        f"{len(after)} run(s) with it at {max(after):.1f} MiB/s or less, below the slowest "
        f"of {len(before)} run(s) before ({min(before):.1f} MiB/s) by more than the noise "
        f"({max(noise, spread):.0%})"
    )


def _runs_since_refit(history: list[dict[str, Any]], program: str, nprocs: int) -> int:
    runs = 0
    for e in reversed(history):
        if e["program"] != program or e["nprocs"] != nprocs:
            continue
        if e["event"] in ("change", "keep"):
            break
        runs += e["event"] == "run"
    return runs


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
    from iotuner.ingest import ingest_trace
    from iotuner.learn import training_data
    from iotuner.store import open_store

    report = OnlineReport()
    run = _main_workload(logs)
    program, nprocs, workload, bandwidth, host = (
        run.program, run.nprocs, run.workload, run.bandwidth, run.host
    )  # fmt: skip
    now = time.time()
    current = _program_entries(table, program, nprocs)
    store = open_store(db)
    try:
        for log in logs:
            ingest_trace(store, log, kind="trace")
        base = {"time": now, "program": program, "nprocs": nprocs}
        earlier = read_history(table)
        for tag, left in _unstored_logs(earlier, logs).items():
            added, refused = 0, []
            for log in left:
                try:
                    added += ingest_trace(store, log, kind="trace").added
                except IotunerError as exc:  # a log cut short by the kill: said, not stored
                    refused.append(str(exc))
            _append(table, {**base, "event": "recovered", "tag": tag, "added": added,
                            "logs": [str(p) for p in left], "refused": refused},
                    report)  # fmt: skip
        _append(table, {**base, "event": "run", "hints": current, "in_force": run.in_force,
                        "bandwidth": bandwidth, "logs": [str(p) for p in logs]},
                report)  # fmt: skip
        history = earlier + report.events  # read once: this run's events are known
        rollback = _guard(history, program, nprocs)
        if rollback is not None:
            _write_program(table, program, nprocs, rollback["new"], "iotuner online: rollback")
            _append(table, {**base, **rollback}, report)
            return report
        if refit_every <= 0 or _runs_since_refit(history, program, nprocs) < refit_every:
            return report
        systems = [s for s in store.systems() if s.host == host]
        data = training_data(
            store,
            system=systems[0].fingerprint if len(systems) == 1 else None,
            space=space,
        )
        repair = _repair(data.space, current)
        if repair is not None:
            # Once: the entry is rewritten without the values, so the next run finds none.
            _write_program(table, program, nprocs, repair["new"], "iotuner online: repaired")
            _append(table, {**base, **repair}, report)
            current = repair["new"]
        rejected = [
            e["old"] for e in history
            if e["event"] == "rollback" and e["program"] == program and e["nprocs"] == nprocs
        ]  # fmt: skip
        runs = [
            float(e["bandwidth"]) for e in history
            if e["event"] == "run" and e["program"] == program and e["nprocs"] == nprocs
            and e.get("bandwidth")
        ]  # fmt: skip
        event = _refit(
            data.frame,
            data.space,
            workload,
            current,
            run.in_force,
            rejected,
            model,
            runs,
            run.app_keys,
        )
        if event.get("event") == "change":
            note = (
                f"iotuner online: {event['purpose']}"
                if event.get("gain") is None
                else f"iotuner online: predicted x{event['gain']:.2f} over {_entry_words(current)}"
            )
            _write_program(table, program, nprocs, event["new"], note)
        _append(table, {**base, **event}, report)
    finally:
        store.close()
    return report


def _repair(space: Space, hints: dict[str, str | int]) -> dict[str, Any] | None:
    """The repair event of an entry holding values of the space's knobs that the space
    does not hold (an entry written by hand or for another space, e.g. cb_buffer_size
    65536 where the space lists 4 MiB and 16 MiB): those keys go back to the default, the
    rest stays; None when the space can read every value."""
    names = {p.name for p in space.parameters}
    foreign = {
        k: v for k, v in hints.items() if k in names and space.parameter(k).value_of(v) is None
    }
    if not foreign:
        return None
    listed = ", ".join(f"{k}={v}" for k, v in sorted(foreign.items()))
    return {
        "event": "repair",
        "old": dict(hints),
        "new": {k: v for k, v in hints.items() if k not in foreign},
        "reason": f"{listed} not among the values of space {space.name!r}: the default kept for "
        f"{'it' if len(foreign) == 1 else 'them'}",
    }


def _refit(
    frame: Any,
    space: Space,
    workload: Workload,
    current: dict[str, str | int],
    in_force: dict[str, str],
    rejected: list[dict[str, Any]],
    model: str | None,
    runs: Sequence[float] = (),
    app_keys: Collection[str] = (),
) -> dict[str, Any]:
    """The change (or keep) event of a refit (module text, step 4): the workload's own
    measurements first, then the model calibrated on held-out workloads, else the model's
    bands against the configuration in force. `runs`: the bandwidths of the program's
    runs so far at this scale (the history's, this one included), which set how much a
    try may risk (_risk_budget). `app_keys`: the hints the program passes itself, whose
    default for it is its own value: a choice leaving them at the space's default does
    not write them (pio_noncontig sets its own cb_buffer_size; an entry "back to the
    default" of 16 MiB made its writes 35 % slower than the program as it is)."""
    from iotuner.models import ModelError, fit_model
    from iotuner.tune import (
        OPEN_ONLY_KEYS,
        measurement_noise,
        open_keys,
        prediction_rows,
        same_as_default,
    )

    configs = list(space.configurations())
    keys = [config_key(c) for c in configs]
    noise = measurement_noise(frame)
    names = {p.name for p in space.parameters}

    def key_of(hints: dict[str, Any]) -> str:
        # Keys outside the space are not the space's to choose, and values outside it
        # cannot be chosen again (a rollback's, from before a repair): both left out.
        return config_key(
            space.validate(
                {
                    k: v
                    for k, v in hints.items()
                    if k in names and space.parameter(k).value_of(v) is not None
                }
            )
        )

    # The configuration the run had (the table's generic entries when the program has
    # none of its own), not the program's entry: the one the next runs are judged against.
    cur = keys.index(key_of(in_force or current))
    default = keys.index(config_key(space.default()))
    banned = {key_of(r) for r in rejected}
    measured = _measured(frame, space, workload, keys)
    rows = int(frame["n"].sum()) if "n" in frame else len(frame)
    base = {"noise": noise, "measurements": rows, "workload": workload.as_row()}

    def entry_of(config: dict[str, Any]) -> dict[str, str | int]:
        # The program's entries win over the table's generic ones, so a key those set
        # and the choice leaves at its default is written with the default's value,
        # when the default is a value MPI takes: cb_nodes' "default" means "not set",
        # which no entry can say (the program's own value, or a generic entry's, stays).
        # Keys outside the space are not the space's to choose: the entry keeps them.
        hints: dict[str, str | int] = {k: v for k, v in current.items() if k not in names}
        hints.update(space.hints(config))
        vocabulary = hint_vocabulary()
        for name in names - set(hints):
            parameter = space.parameter(name)
            value = str(parameter.default)
            if (
                name in in_force
                and name not in app_keys
                and parameter.kind == "hint"
                and name in vocabulary
                and vocabulary[name].problem(value) is None
            ):
                hints[name] = value
        return hints

    def change(best: int, gain: float, interval: list[float], **why: Any) -> dict[str, Any]:
        return {"event": "change", "old": dict(current), "new": entry_of(configs[best]),
                "gain": gain, "interval": interval, **base, **why}  # fmt: skip

    m_median, m_low, m_high, m_runs = measured
    default_open = open_keys(space, configs[default])
    index_of = {k: i for i, k in enumerate(keys)}

    def acting(i: int) -> int:
        # The configuration that acts as `i` at the workload's scale: open keys that
        # give the default's aggregators here (cb_nodes=1 on one host) are the default's
        # (formats/hints.def), neither written nor tried apart from it (as tune does).
        mine = open_keys(space, configs[i])
        if mine == default_open or not same_as_default(mine, default_open, workload):
            return i
        config = {
            k: (configs[default][k] if k in OPEN_ONLY_KEYS else v) for k, v in configs[i].items()
        }
        return index_of.get(config_key(space.validate(config)), i)

    judged = m_runs >= 2  # quartiles that say something about the spread

    def measure_default() -> dict[str, Any] | None:
        # The default never ran this workload while another configuration is in force
        # (the table's, chosen without trial runs): one run with it measures what that
        # configuration gains, and a run with the default is never slower than the
        # default. Then the measured rule (1) keeps the better of the two.
        if cur == default or np.isfinite(m_median[default]) or keys[default] in banned:
            return None
        entry = entry_of(configs[default])
        if entry == dict(current):
            return None  # the program's own values are its default: nothing to measure
        return {"event": "change", "old": dict(current), "new": entry,
                "gain": None, "interval": None, "purpose": "measure the default", **base,
                "model": "the workload's measurements",
                "evidence": "the default never ran this workload: one run with it measures "
                "what the configuration in force gains"}  # fmt: skip

    # 1. Measured: a configuration whose runs on this workload beat the ones in force.
    beating = [
        i for i in range(len(keys))
        if keys[i] not in banned and judged[i] and judged[cur] and m_low[i] > m_high[cur]
    ]  # fmt: skip
    if beating:
        best = max(beating, key=lambda i: m_median[i])
        return change(
            best,
            float(m_median[best] / m_median[cur]),
            [float(m_low[best] / m_high[cur]), float(m_high[best] / m_low[cur])],
            model="the workload's measurements",
            evidence="measured: the lower quartile of its runs above the upper quartile in force",
        )
    try:
        trained = fit_model(frame, space, model or DEFAULT_MODEL)
        median, low, high = (
            np.asarray(a, dtype=float)
            for a in trained.predict_interval(prediction_rows([workload], configs))
        )
        calibration = _calibration(frame, space, trained.name)
        kind = trained.name
    except ModelError as exc:
        # Too little data for a model (a program's first runs, no sweep): the workload's
        # own measurements are all there is, and they showed nothing better.
        return measure_default() or {
            "event": "keep",
            "model": f"the workload's measurements ({exc})",
            "reason": "no configuration's measured runs beat the ones in force",
            **base,
        }
    tried = {i for i in range(len(keys)) if m_runs[i] >= 1}
    if calibration is not None and calibration.gain_curve:
        # 2. Calibrated: try the untried configuration with the best calibrated bound of
        # its gain over the best measured one, when held-out configurations predicted
        # alike gained in the median and lost no more than the runs have earned (_risk_budget).
        ref = _best_measured(m_median, tried - {keys.index(k) for k in banned if k in keys}, cur)
        gains, offset = _gains_over(median, m_median, tried, ref)
        bounds = [calibration.gain_bounds(float(g)) for g in gains]
        # The floor is the default's: a configuration measured above the default leaves
        # room to try one whose bound over it is below 1, as long as the try stays above
        # the default but for the noise (a conservative bandit).
        ahead = _measured_ahead(m_low[ref], m_high[default]) if ref != default else 0.0
        level = m_median[default] if np.isfinite(m_median[default]) else m_median[cur]
        budget = _risk_budget(runs, float(level), noise)
        floor = -budget - ahead
        admissible = [
            i for i in range(len(keys))
            if bounds[i] is not None and bounds[i][1] > 0 and bounds[i][0] >= floor
            and acting(i) != ref and acting(i) not in tried and keys[acting(i)] not in banned
        ]  # fmt: skip
        evidence: dict[str, Any] = {"model": kind, "calibrated": True}
        if admissible:
            # Ties (knobs the model finds no effect of) go to the fewest keys changed
            # from the default: an entry that sets only what it was predicted on.
            defaults = space.default()
            best = max(
                admissible,
                key=lambda i: (
                    bounds[i][0],
                    gains[i],
                    -sum(configs[i][k] != defaults[k] for k in defaults),
                ),
            )
            low_b, mid_b, high_b = bounds[best]
            return change(
                acting(best),
                float(math.exp(mid_b)),
                [float(math.exp(low_b)), float(math.exp(high_b))],
                predicted=float(math.exp(gains[best])),
                evidence="calibrated: held-out configurations predicted alike gained in the "
                "median and, in nine of ten, lost no more than the program's runs have earned"
                + (
                    f", over {'the one in force' if ref == cur else 'the best measured'}, "
                    f"the predictions moved x{math.exp(offset):.2f} by {len(tried)} measured "
                    "configuration(s) of the workload"
                    if tried and abs(offset) > 1e-12
                    else ""
                )
                + (
                    f", counted from the default's measured runs (the base is "
                    f"x{math.exp(ahead):.2f} ahead of them)"
                    if ahead > 0
                    else ""
                )
                + f"; the try may risk {-math.expm1(-budget):.0%} below the default "
                f"({len(runs)} run(s) so far)",
                risk=float(-math.expm1(-budget)),
                **evidence,
            )
        if ref != cur:
            # Nothing untried is worth a run, and a configuration this workload ran
            # before did better than the one in force (the last try): back to it.
            return change(
                ref,
                float(m_median[ref] / m_median[cur]),
                [float(m_low[ref] / m_high[cur]), float(m_high[ref] / m_low[cur])],
                purpose="back to the best measured",
                model="the workload's measurements",
                evidence=f"measured: {int(m_runs[ref])} run(s) at median "
                f"{m_median[ref]:.1f} MiB/s against {int(m_runs[cur])} at "
                f"{m_median[cur]:.1f} MiB/s in force, and no untried configuration's "
                "calibrated bound stays within the risk the runs have earned",
            )
        return measure_default() or {"event": "keep", "reason": (
            "no untried configuration's calibrated 10 % bound stays within the risk the "
            f"runs have earned ({-math.expm1(-budget - ahead):.0%} below the default; noise "
            f"{noise:.0%})" + _closest_words(bounds, gains, tried, banned, keys)
            + ", and no measured one beats it"), **base, **evidence}  # fmt: skip
    # 3. Uncalibrated (one workload in the knowledge base): the model's bands.
    lows = np.minimum(low, median / (1 + noise))
    highs = np.maximum(high, median * (1 + noise))
    order = [i for i in np.argsort(-lows) if keys[i] not in banned and np.isfinite(lows[i])]
    best = int(order[0]) if order else cur
    evidence = {
        "model": kind,
        "predicted": {
            keys[i]: [float(median[i]), float(lows[i]), float(highs[i])] for i in {best, cur}
        },
    }
    if best == cur:
        return {"event": "keep", "reason": "the entry in force is predicted best", **base,
                **evidence}  # fmt: skip
    gain = float(median[best] / median[cur])
    interval = [float(lows[best] / highs[cur]), float(highs[best] / lows[cur])]
    if not lows[best] > highs[cur]:
        return {
            "event": "keep",
            "reason": (
                f"{config_key(configs[best])} predicted x{gain:.2f}, within the noise "
                f"({noise:.0%}): its lower bound does not beat the upper bound in force"
            ),
            "candidate": dict(space.hints(configs[best])),
            "gain": gain,
            "interval": interval,
            **base,
            **evidence,
        }
    return change(best, gain, interval, **evidence)


def _closest_words(
    bounds: Sequence[tuple[float, float, float] | None],
    gains: np.ndarray,
    tried: set[int],
    banned: set[str],
    keys: list[str],
) -> str:
    """The untried configuration that came closest (highest calibrated 10 % bound), for
    a keep's reason: what would have been tried with a larger budget."""
    open_ = [
        i for i, b in enumerate(bounds)
        if b is not None and i not in tried and keys[i] not in banned and b[1] > 0
    ]  # fmt: skip
    if not open_:
        return ""
    best = max(open_, key=lambda i: (bounds[i][0], gains[i]))  # type: ignore[index]
    low, middle, _ = bounds[best]  # type: ignore[misc]
    return (
        f"; the closest, {keys[best]}, predicted x{math.exp(gains[best]):.2f}, calibrated "
        f"x{math.exp(middle):.2f} with its 10 % bound at x{math.exp(low):.2f}"
    )


def _best_measured(m_median: np.ndarray, tried: set[int], cur: int) -> int:
    """The configuration to improve on: the best by median of those the workload ran
    (the one in force when none beats it or it never ran)."""
    if not np.isfinite(m_median[cur]):
        return cur
    return max((i for i in tried if m_median[i] > m_median[cur]), key=lambda i: m_median[i],
               default=cur)  # fmt: skip


def _gains_over(
    predicted: np.ndarray, m_median: np.ndarray, tried: set[int], ref: int
) -> tuple[np.ndarray, float]:
    """The predicted gain (log) of every configuration over `ref`, and the shift applied.

    The model's predictions are moved by the median residual (measured over predicted,
    log) of the configurations the workload ran, and compared with `ref`'s measured
    bandwidth. With one measured configuration this is the model's own ratio; with more,
    a model that overrated the last try (measured below its prediction while the others
    met theirs) leaves the next candidates ahead of it, so the learner goes on down the
    ranking instead of stopping at the model's favourite.

    RATIONALE: the shared part of the residual is the model being off on this machine
    or program as a whole (the constant term of iotuner.models._online's belief); a
    configuration's own excess over it is what its measurement says about it alone.
    The calibration's curve is read at these moved gains: an approximation (it was
    fitted on unmoved predictions), which the guard's rollback bounds.
    """
    log_pred = np.log(np.clip(predicted, 1e-9, None))
    residuals = [math.log(m_median[i]) - log_pred[i] for i in tried if m_median[i] > 0]
    offset = float(np.median(residuals)) if residuals else 0.0
    if np.isfinite(m_median[ref]) and m_median[ref] > 0:
        level = math.log(m_median[ref])
    else:
        level = float(log_pred[ref]) + offset
    return log_pred + offset - level, offset


def _risk_budget(runs: Sequence[float], level: float, noise: float) -> float:
    """How far (log) below the default the next run may fall if a try goes wrong: the
    budget of a conservative bandit (Wu et al., "Conservative Bandits", ICML 2016) whose
    runs together must stay within the noise of as many runs at the default.

    Each run, the next one included, earns the noise, log(1 + noise); each run so far
    adds what it measured over the default's level `level` (a run at the default adds
    about nothing, a try that lost spends its loss, a lead over the default is earned);
    at most a run at MAX_TRY_LOSS of the default's bandwidth, however long the program ran
    well.

    RATIONALE: one run's noise (the rule before) let nothing be tried on real programs:
    the calibrated 10 % bound of the best candidates was -16 to -18 % against a noise of
    9 % (IOR's strided-view reads, bench/real_programs.py), while their calibrated median
    was x2.5-x2.8. A try is judged by the one run that makes it (the guard rolls it back
    after one run far below), so its price is one run; the budget makes the program pay
    for it with runs that were not slower, and stops trying after tries that lost until
    runs at the baseline have earned it again. With no runs known, one run's noise.
    The cap is the one thing a single run is promised: a try's 10 % bound never lies
    below half the default's bandwidth (a try predicted x2.5 on IOR's interleaved 4 KiB
    collective reads had its bound at -30 %: with a 9 % noise, four runs earn it).
    """
    per_run = math.log1p(noise)
    earned = 0.0
    if math.isfinite(level) and level > 0:
        earned = sum(math.log(b / level) for b in runs if b > 0)
    budget = (len(runs) + 1) * per_run + earned
    return max(0.0, min(budget, -math.log1p(-MAX_TRY_LOSS)))


def _measured_ahead(low_in_force: float, high_default: float) -> float:
    """How far (log) the configuration in force is measured ahead of the default on the
    workload: its lower quartile over the default's upper quartile; 0 when unknown or
    not ahead."""
    if not (np.isfinite(low_in_force) and np.isfinite(high_default)) or high_default <= 0:
        return 0.0
    return max(0.0, math.log(low_in_force / high_default))


def _calibration(frame: Any, space: Space, name: str) -> Any:
    """The model's calibration on held-out workloads (a quick one: at most
    CALIBRATION_FOLDS folds), or None with fewer than two workloads."""
    from iotuner.models._calibrate import calibrate
    from iotuner.models._evaluate import model_choices

    (candidate,) = [c for c in model_choices([name], quick=True) if c.name == name]
    return calibrate(frame, space, candidate, max_folds=CALIBRATION_FOLDS)


def _measured(
    frame: Any, space: Space, workload: Workload, keys: list[str]
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Median, first and third quartile of the workload's measurements per configuration,
    and the number of runs (NaN and 0 where a configuration never ran the workload; one
    run is its own median and quartiles)."""
    row = workload.as_row()
    same = np.ones(len(frame), dtype=bool)
    for column in ("nprocs", "pattern", "op", "layout", "bytes_per_rank", "block", "fill"):
        if row.get(column) is not None and column in frame:
            same &= (frame[column] == row[column]).to_numpy()
    median, low, high = (np.full(len(keys), np.nan) for _ in range(3))
    runs = np.zeros(len(keys))
    counts: dict[str, int] = {}
    for _, r in frame[same & (frame["n"] >= 1).to_numpy()].iterrows():
        # A run without an entry for a knob ran with its default ("default" in the frame).
        config = {p.name: r.get(f"cfg:{p.name}", "default") for p in space.parameters}
        config = {k: v for k, v in config.items() if v != "default"}
        try:
            key = config_key(space.validate(config))
        except SpaceError:
            continue  # a value outside the space
        # Runs without an entry and with the default named are one configuration: the
        # row with more runs speaks for it.
        if key in keys and not counts.get(key, 0) > r["n"]:
            counts[key] = int(r["n"])
            i = keys.index(key)
            median[i], runs[i] = r["bw_median"], r["n"]
            low[i], high[i] = (
                (r["bw_q1"], r["bw_q3"]) if r["n"] >= 2 else (r["bw_median"], r["bw_median"])
            )
    return median, low, high, runs
