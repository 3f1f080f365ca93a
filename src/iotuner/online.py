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
3. the regression guard: when the program's last change has had GUARD_RUNS runs or more
   with the new hints, and the runs before it as many with the old ones, and the new runs
   are slower (their median below the lower quartile of the old ones, and an exact
   one-sided rank test at GUARD_P), the old entry is restored and the change is rolled
   back (`rollback`); a rolled-back configuration is not chosen again for the program;
4. every `refit_every` runs, the next configuration for the run's main workload (every
   run teaches: the one it tries is measured by the next run, and judged by that):
   a. measured: a configuration whose runs on this workload have their lower quartile
      above the upper quartile of the runs in force (two runs or more each) is taken, the
      best by median;
   b. calibrated: else the model (`model`'s kind, default random_forest) is fitted anew on
      the knowledge base and calibrated on held-out workloads (iotuner.models._calibrate,
      at most CALIBRATION_FOLDS folds); of the configurations this workload has not run
      yet, the one with the best calibrated bound of its gain over the one in force is
      tried, when held-out configurations predicted to gain as much gained in the median
      and lost no more than the training data's noise (tune.measurement_noise) in nine of
      ten. The calibration bounds gains over a workload's default; over the
      configuration in force it is the same curve, read as the gain of one configuration
      over another of the workload;
   c. uncalibrated (one workload in the knowledge base): the best configuration (highest
      lower bound) must beat the one in force by its lower bound above the current's
      upper bound, both bands at least the noise wide;
   then the program's entries are written (at open, view and collective access, as
   search writes a winner) with write-then-rename (`change`), otherwise `keep` says why.
   With too little data for a model, only (a) can change the entry.

The history is JSON lines next to the table (TABLE.history.jsonl): one object per event
with its time, program and scale, the hints before and after, the predicted gain and its
interval, the noise and the measurements a decision rests on.
"""

import json
import math
import statistics
import time
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
from scipy.stats import mannwhitneyu

from iotuner.formats import hint_vocabulary
from iotuner.measurement import Workload
from iotuner.space import Space, SpaceError, config_key
from iotuner.table import TableEntry, merge_entries, read_table, write_table
from iotuner.tracelog import read_tracelog

__all__ = ["GUARD_RUNS", "OnlineReport", "history_path", "learn_after_run", "read_history"]

GUARD_RUNS = 3
"""Runs with the new entry, and with the old one, before the guard judges a change."""
GUARD_P = 0.05
"""The rank test's level: 3 slower runs out of 3 against 3 give exactly 0.05."""
DEFAULT_MODEL = "random_forest"
CALIBRATION_FOLDS = 12
"""Workloads held out, one at a time, to calibrate the refitted model (a few seconds)."""
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
            if e["event"] == "change":
                said.append(
                    f"table: {e['program']} x{e['nprocs']}: {e['old'] or 'default'} -> "
                    f"{e['new']} (predicted x{e['gain']:.2f}, "
                    f"{e['interval'][0]:.2f}-{e['interval'][1]:.2f})"
                )
            elif e["event"] == "rollback":
                said.append(
                    f"table: {e['program']} x{e['nprocs']}: rolled back to "
                    f"{e['new'] or 'default'} ({e['reason']})"
                )
            elif e["event"] == "keep":
                said.append(f"table kept for {e['program']} x{e['nprocs']}: {e['reason']}")
        return said


def history_path(table: Path) -> Path:
    return table.with_name(table.name + ".history.jsonl")


def read_history(table: Path) -> list[dict[str, Any]]:
    path = history_path(table)
    if not path.exists():
        return []
    return [json.loads(line) for line in path.read_text().splitlines() if line.strip()]


def _append(table: Path, event: dict[str, Any], report: OnlineReport) -> None:
    # One write per line with O_APPEND: concurrent runs of the program do not interleave.
    with history_path(table).open("a", encoding="utf-8") as out:
        out.write(json.dumps(event, sort_keys=True, default=_plain) + "\n")
    report.events.append(event)


def _plain(value: Any) -> Any:
    """numpy's scalars (a frame's cells) as Python's, for JSON."""
    if hasattr(value, "item"):
        return value.item()
    raise TypeError(f"not JSON: {value!r}")


def _main_workload(logs: Sequence[Path]) -> tuple[str, int, Workload, float, str]:
    """Program, ranks, the workload that moved the most bytes, the run's bandwidth on it
    (MiB/s) and the host."""
    moved: Counter[Workload] = Counter()
    seconds: dict[Workload, float] = {}
    program, nprocs, host = "", 0, ""
    for path in logs:
        log = read_tracelog(path)
        program = str(log.job["program"])
        nprocs = int(log.job.get("nprocs") or log.job.get("size") or 0)
        host = str(log.job["host"]).split(".")[0]
        for index, row in enumerate(log.ops):
            if row["duration"] <= 0:
                continue
            workload = log.workload_of(index)
            moved[workload] += int(row["bytes"])
            seconds[workload] = seconds.get(workload, 0.0) + float(row["duration"])
            nprocs = nprocs or workload.nprocs
    if not moved:
        raise ValueError("the run's trace has no timed I/O operation")
    workload, total = moved.most_common(1)[0]
    return program, nprocs or workload.nprocs, workload, total / 1048576 / seconds[workload], host


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
    program, nprocs, workload, bandwidth, host = _main_workload(logs)
    now = time.time()
    current = _program_entries(table, program, nprocs)
    store = open_store(db)
    try:
        for log in logs:
            ingest_trace(store, log, kind="trace")
        base = {"time": now, "program": program, "nprocs": nprocs}
        _append(table, {**base, "event": "run", "hints": current, "bandwidth": bandwidth,
                        "logs": [str(p) for p in logs]}, report)  # fmt: skip
        history = read_history(table)
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
        rejected = [
            e["old"] for e in history
            if e["event"] == "rollback" and e["program"] == program and e["nprocs"] == nprocs
        ]  # fmt: skip
        event = _refit(data.frame, data.space, workload, current, rejected, model)
        if event.get("event") == "change":
            note = f"iotuner online: predicted x{event['gain']:.2f} over {current or 'default'}"
            _write_program(table, program, nprocs, event["new"], note)
        _append(table, {**base, **event}, report)
    finally:
        store.close()
    return report


def _refit(
    frame: Any,
    space: Space,
    workload: Workload,
    current: dict[str, str | int],
    rejected: list[dict[str, Any]],
    model: str | None,
) -> dict[str, Any]:
    """The change (or keep) event of a refit (module text, step 4): the workload's own
    measurements first, then the model calibrated on held-out workloads, else the model's
    bands against the configuration in force."""
    from iotuner.models import ModelError, fit_model
    from iotuner.tune import measurement_noise, prediction_rows

    configs = list(space.configurations())
    keys = [config_key(c) for c in configs]
    noise = measurement_noise(frame)
    names = {p.name for p in space.parameters}

    def key_of(hints: dict[str, Any]) -> str:
        # Keys outside the space are not the space's to choose: left out.
        return config_key(space.validate({k: v for k, v in hints.items() if k in names}))

    cur = keys.index(key_of(current))
    banned = {key_of(r) for r in rejected}
    measured = _measured(frame, space, workload, keys)
    rows = int(frame["n"].sum()) if "n" in frame else len(frame)
    base = {"noise": noise, "measurements": rows, "workload": workload.as_row()}

    def change(best: int, gain: float, interval: list[float], **why: Any) -> dict[str, Any]:
        return {"event": "change", "old": dict(current), "new": dict(space.hints(configs[best])),
                "gain": gain, "interval": interval, **base, **why}  # fmt: skip

    # 1. Measured: a configuration whose runs on this workload beat the ones in force.
    m_median, m_low, m_high = measured
    beating = [
        i for i in range(len(keys))
        if keys[i] not in banned and np.isfinite(m_low[i]) and np.isfinite(m_high[cur])
        and m_low[i] > m_high[cur]
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
        return {
            "event": "keep",
            "model": f"the workload's measurements ({exc})",
            "reason": "no configuration's measured runs beat the ones in force",
            **base,
        }
    tried = {i for i in range(len(keys)) if np.isfinite(m_median[i])}
    if calibration is not None and calibration.gain_curve:
        # 2. Calibrated: try the untried configuration with the best calibrated bound of
        # its gain over the one in force, when held-out configurations predicted alike
        # gained in the median and lost no more than the noise in nine of ten.
        gains = np.log(np.clip(median, 1e-9, None) / max(float(median[cur]), 1e-9))
        bounds = [calibration.gain_bounds(float(g)) for g in gains]
        admissible = [
            i for i in range(len(keys))
            if i != cur and i not in tried and keys[i] not in banned and bounds[i] is not None
            and bounds[i][1] > 0 and math.exp(bounds[i][0]) >= 1 / (1 + noise)
        ]  # fmt: skip
        evidence = {"model": kind, "calibrated": True}
        if admissible:
            best = max(admissible, key=lambda i: (bounds[i][0], gains[i]))
            low_b, mid_b, high_b = bounds[best]
            return change(
                best,
                float(math.exp(mid_b)),
                [float(math.exp(low_b)), float(math.exp(high_b))],
                predicted=float(math.exp(gains[best])),
                evidence="calibrated: held-out configurations predicted alike gained in the "
                "median and lost no more than the noise in nine of ten",
                **evidence,
            )
        return {"event": "keep", "reason": (
            "no untried configuration's calibrated gain over the one in force clears the "
            f"noise ({noise:.0%}), and no measured one beats it"), **base, **evidence}  # fmt: skip
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


def _calibration(frame: Any, space: Space, name: str) -> Any:
    """The model's calibration on held-out workloads (a quick one: at most
    CALIBRATION_FOLDS folds), or None with fewer than two workloads."""
    from iotuner.models._calibrate import calibrate
    from iotuner.models._evaluate import model_choices

    (candidate,) = [c for c in model_choices([name], quick=True) if c.name == name]
    return calibrate(frame, space, candidate, max_folds=CALIBRATION_FOLDS)


def _measured(
    frame: Any, space: Space, workload: Workload, keys: list[str]
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Median, first and third quartile of the workload's measurements per configuration
    (NaN where a configuration has fewer than 2)."""
    row = workload.as_row()
    same = np.ones(len(frame), dtype=bool)
    for column in ("nprocs", "pattern", "op", "layout", "bytes_per_rank", "block", "fill"):
        if row.get(column) is not None and column in frame:
            same &= (frame[column] == row[column]).to_numpy()
    median, low, high = (np.full(len(keys), np.nan) for _ in range(3))
    counts: dict[str, int] = {}
    for _, r in frame[same & (frame["n"] >= 2).to_numpy()].iterrows():
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
            median[i], low[i], high[i] = r["bw_median"], r["bw_q1"], r["bw_q3"]
    return median, low, high
