"""The search section: how each study converged (best so far per trial, one line per
strategy), its best trials, and, from a search's JSON record (`iotuner search --json`),
the re-measured top few with their spread and the verdict.

An Optuna study keeps the trials only (search/_study.py); the re-measures and the verdict
(search/_verdict.py) are not in it, but in the search's JSON record and, for the winner,
in the note of the tuning-table entries it wrote (the table section shows those).
"""

import json
import re
from pathlib import Path
from typing import Any

import optuna
from optuna.trial import TrialState

from iotuner._secrets import display_url, mask_secrets
from iotuner.errors import ConfigError
from iotuner.report import _plots

__all__ = ["load_studies", "read_search_record", "search_section"]

TOP_TRIALS = 5
"""Best trials listed per study."""

SEARCH_RECORD_FORMAT = "iotuner-search-result"
"""The `format` of `iotuner search --json` (search/_report.py: RECORD_FORMAT)."""

_STRATEGY_IN_NAME = re.compile(r"-(ga|random|grid|tpe|gp|model)(?:-seed-?\d+)?-[0-9a-f]{10}$")
"""A default study name ends in -<strategy>[-seed<n>]-<digest> (search/_study.py)."""

KIND = "iotuner:kind"
"""Trial attribute: "run" for a measured trial (search/_study.py)."""


def load_studies(storage: str, names: list[str]) -> list[optuna.Study]:
    """The named studies in `storage`, or all of them when none is named; ConfigError
    when the storage cannot be opened, holds no study, or lacks a named one."""
    url = storage if "://" in storage else f"sqlite:///{storage}"
    shown = display_url(storage)  # in messages: never the storage's password
    if "://" not in storage and not Path(storage).is_file():
        raise ConfigError(f"--storage {shown}: no such file (an Optuna storage)")
    optuna.logging.set_verbosity(optuna.logging.WARNING)
    try:
        known = optuna.get_all_study_names(storage=url)
    except Exception as exc:  # Optuna raises whatever its RDB layer meets
        reason = str(getattr(exc, "orig", None) or exc).strip().splitlines()
        raise ConfigError(
            f"cannot open the Optuna storage {shown}: "
            f"{mask_secrets(reason[0], storage) if reason else type(exc).__name__}"
        ) from None
    missing = [n for n in names if n not in known]
    if missing:
        raise ConfigError(
            f"no study {', '.join(map(repr, missing))} in {shown} "
            f"(studies: {', '.join(known) or 'none'})"
        )
    if not known:
        raise ConfigError(f"the Optuna storage {shown} holds no study")
    return [optuna.load_study(study_name=n, storage=url) for n in (names or known)]


def read_search_record(path: Path) -> dict[str, Any]:
    """A search's JSON record; ConfigError when it is not one."""
    try:
        record = json.loads(path.read_text(encoding="utf-8"))
    except OSError as exc:
        raise ConfigError(f"cannot read the search record {path}: {exc.strerror}") from None
    except json.JSONDecodeError as exc:
        raise ConfigError(f"{path}: not valid JSON ({exc.msg})") from None
    if not isinstance(record, dict) or record.get("format") != SEARCH_RECORD_FORMAT:
        raise ConfigError(
            f'{path}: expected the output of `iotuner search --json` ("format": '
            f'"{SEARCH_RECORD_FORMAT}")'
        )
    return record


def _strategy(study: optuna.Study) -> str:
    found = _STRATEGY_IN_NAME.search(study.study_name)
    return found.group(1) if found else study.study_name


def _measured(study: optuna.Study) -> list[optuna.trial.FrozenTrial]:
    """The trials the search measured, in order: not the cached duplicates nor the
    vetoed proposals (which a study without iotuner's attributes lacks: all count)."""
    done = study.get_trials(deepcopy=False, states=(TrialState.COMPLETE, TrialState.FAIL))
    return [t for t in done if t.user_attrs.get(KIND, "run") == "run"]


def _study_summary(study: optuna.Study) -> dict[str, Any]:
    maximise = study.direction.name == "MAXIMIZE"
    trials = _measured(study)
    best_so_far: list[float] = []
    for trial in trials:
        value = trial.value if trial.state == TrialState.COMPLETE else None
        if value is None:
            if best_so_far:
                best_so_far.append(best_so_far[-1])
            continue
        if not best_so_far:
            best_so_far.append(value)
        else:
            last = best_so_far[-1]
            best_so_far.append(max(last, value) if maximise else min(last, value))
    complete = [t for t in trials if t.state == TrialState.COMPLETE and t.value is not None]
    ranked = sorted(complete, key=lambda t: -(t.value or 0.0) if maximise else (t.value or 0.0))
    return {
        "name": study.study_name,
        "strategy": _strategy(study),
        "direction": study.direction.name.lower(),
        "trials": len(trials),
        "failed": sum(t.state == TrialState.FAIL for t in trials),
        "best_so_far": best_so_far,
        "top": [
            {
                "number": t.number,
                "value": float(t.value or 0.0),
                "params": ", ".join(f"{k}={v}" for k, v in sorted(t.params.items())),
            }
            for t in ranked[:TOP_TRIALS]
        ],
    }


def _record_summary(record: dict[str, Any]) -> dict[str, Any]:
    """A study's summary from a search record's trials, for a record whose study is not
    in a storage given (a search kept in memory: an offline one without --storage)."""
    maximise = record.get("direction", "maximize") == "maximize"
    trials = [t for t in record.get("trials") or [] if isinstance(t, dict)]
    best_so_far: list[float] = []
    for trial in trials:
        value = trial.get("value")
        if isinstance(value, int | float) and not trial.get("failed"):
            if best_so_far:
                value = max(best_so_far[-1], value) if maximise else min(best_so_far[-1], value)
            best_so_far.append(float(value))
        elif best_so_far:
            best_so_far.append(best_so_far[-1])
    complete = [
        t for t in trials if isinstance(t.get("value"), int | float) and not t.get("failed")
    ]
    ranked = sorted(complete, key=lambda t: -t["value"] if maximise else t["value"])
    return {
        "name": str(record.get("study")),
        "strategy": str(record.get("strategy")),
        "direction": "maximize" if maximise else "minimize",
        "trials": len(trials),
        "failed": sum(bool(t.get("failed")) for t in trials),
        "best_so_far": best_so_far,
        "top": [
            {
                "number": t.get("number"),
                "value": float(t["value"]),
                "params": _config_text(t.get("config")).replace("(the default)", ""),
            }
            for t in ranked[:TOP_TRIALS]
        ],
    }


def _config_text(config: Any) -> str:
    if not isinstance(config, dict) or not config:
        return "(the default)"
    return ", ".join(f"{k}={v}" for k, v in sorted(config.items()))


def _remeasured(record: dict[str, Any]) -> list[dict[str, Any]]:
    rows = []
    for r in record.get("remeasured") or []:
        if not isinstance(r, dict):
            continue
        values = [v for v in r.get("values") or [] if isinstance(v, int | float)]
        rows.append(
            {
                "config": "default" if r.get("is_default") else _config_text(r.get("config")),
                "search_value": r.get("search_value"),
                "values": values,
                "median": r.get("median"),
                "low": min(values) if values else None,
                "high": max(values) if values else None,
                "spread": r.get("spread"),
                "failures": len(r.get("failures") or []),
            }
        )
    return rows


def search_section(
    studies: list[optuna.Study], record: dict[str, Any] | None, record_path: str | None
) -> dict[str, Any]:
    summaries = [_study_summary(s) for s in studies]
    if record is not None and record.get("study") not in {s["name"] for s in summaries}:
        summaries.append(_record_summary(record))
    series = {
        f"{s['strategy']} ({s['trials']} trials)": s["best_so_far"]
        for s in summaries
        if s["best_so_far"]
    }
    plot = (
        _plots.convergence(
            series, "best value so far", "best value so far per trial, one line per strategy"
        )
        if series
        else None
    )
    result = None
    if record is not None:
        verdict = record.get("verdict")
        result = {
            "path": record_path,
            "study": record.get("study"),
            "strategy": record.get("strategy"),
            "objective": record.get("objective"),
            "remeasured": _remeasured(record),
            "verdict": verdict if isinstance(verdict, dict) else None,
            "winner": _config_text((record.get("winner") or {}).get("config"))
            if record.get("winner")
            else None,
            "winner_reason": record.get("winner_reason") or "",
        }
    return {"studies": summaries, "plot": plot, "record": result}
