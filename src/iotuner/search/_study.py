"""Which study a search belongs to, and what a resumed search takes back from it.

The study lives in Optuna's storage (an RDB URL such as `sqlite:///iotuner-search.db`, or
in memory). Run the same search again (same study name) and it goes on where it stopped:
trials already measured are not run again, a trial that was running when the search
stopped is marked interrupted and may be proposed again, and the budget counts every
measured trial of the study, old and new. A study is resumed only by the search it was
made for: its objective's signature (Objective.signature: the space, what is measured and
from what) is kept in the study and must match, and so is the strategy's seed. The seed
is part of the default study name, so `--seed 2` after `--seed 1` is a study of its own;
a study named with `--study` and opened with another seed is refused, never silently
resumed with the first seed's proposals.

Everything iotuner keeps in a study goes through Optuna's public API: user attributes of
the study (set_user_attr) and of a trial while it is asked and told (Trial.set_user_attr).
"""

import hashlib
import json
from pathlib import Path

import optuna
from optuna.samplers import RandomSampler
from optuna.study import StudyDirection
from optuna.trial import FrozenTrial, TrialState

from iotuner.measurement import Workload
from iotuner.search._common import SearchError, TrialOutcome
from iotuner.search._objectives import Objective
from iotuner.search._result import TrialRecord
from iotuner.search._samplers import INTERRUPTED
from iotuner.space import Space

__all__ = ["default_study_name", "storage_url"]

KIND = "iotuner:kind"
"""Trial attribute: "run" (measured), "cached" (answered from the cache) or "vetoed"."""
OUTCOME_ATTRS = ("reason", "seconds", "logs", "returncode", "answered_by", "repeats")
"""The fields of a TrialOutcome kept as trial attributes `iotuner:<name>`."""
FAILED_TAIL = "iotuner:stdout_tail"
"""Trial attribute of a failed trial: the last lines it printed (TrialOutcome.stdout_tail)."""
SIGNATURE = "iotuner:signature"
ENQUEUED = "iotuner:enqueued"
WORKLOAD = "iotuner:workload"
ACCESSES = "iotuner:accesses"
IDENTITY = "iotuner:identity"
SEED = "iotuner:seed"
"""Study attribute: the strategy's seed the study was made with (None: none given)."""


def storage_url(text: str) -> str:
    """An Optuna storage URL from a URL or a plain file path (taken as SQLite)."""
    return text if "://" in text else f"sqlite:///{text}"


def default_study_name(objective: Objective, strategy: str, seed: int | None = None) -> str:
    """A study name that is the same for the same command (or table and filters),
    objective, space, strategy and seed, so running the same search again resumes it and
    a search with another seed starts its own."""
    signature = objective.signature()
    digest = hashlib.sha256(json.dumps(signature, sort_keys=True).encode()).hexdigest()[:10]
    seeded = f"-seed{seed}" if seed is not None else ""
    return f"{objective.study_label()}-{strategy}{seeded}-{digest}"


def open_study(
    objective: Objective, name: str, storage: str | None, seed: int | None
) -> optuna.Study:
    """The study `name` in `storage`, made when missing, refused when it was made for
    another search (another direction or signature)."""
    try:
        study = optuna.create_study(
            storage=storage,
            study_name=name,
            direction=(
                StudyDirection.MAXIMIZE
                if objective.direction == "maximize"
                else StudyDirection.MINIMIZE
            ),
            # The strategy's sampler replaces it once the parameters to search are known.
            sampler=RandomSampler(seed=seed),
            load_if_exists=True,
        )
    except (ValueError, ImportError, RuntimeError) as exc:
        raise SearchError(f"cannot open the study {name!r} in {storage}: {exc}") from None
    if study.direction.name.lower() != objective.direction:
        raise SearchError(
            f"the study {name!r} was made to {study.direction.name.lower()}, this search "
            f"would {objective.direction}; give another --study name"
        )
    _check_signature(study, objective, name)
    _check_seed(study, seed, name)
    return study


def _seed_words(seed: int | None) -> str:
    return f"--seed {seed}" if seed is not None else "no --seed"


def _check_seed(study: optuna.Study, seed: int | None, name: str) -> None:
    """Keep the seed in a new study; refuse to resume one made with another seed (its
    trials came from that seed's proposals). A study made before the seed was kept
    takes this one."""
    if SEED not in study.user_attrs:
        study.set_user_attr(SEED, seed)
        return
    stored = study.user_attrs[SEED]
    if stored != seed:
        raise SearchError(
            f"the study {name!r} was made with {_seed_words(stored)}, this search gives "
            f"{_seed_words(seed)}: resuming it would not be the search that seed asks for; "
            f"give {_seed_words(stored)} to resume it, or another --study name"
        )


def _check_signature(study: optuna.Study, objective: Objective, name: str) -> None:
    signature = objective.signature()
    stored = study.user_attrs.get(SIGNATURE)
    if stored is None:
        if study.trials:
            raise SearchError(f"the study {name!r} exists but was not made by iotuner search")
        study.set_user_attr(SIGNATURE, signature)
    elif stored != signature:
        differs = sorted(
            k for k in set(stored) | set(signature) if stored.get(k) != signature.get(k)
        )
        raise SearchError(
            f"the study {name!r} in this storage was made for another search (its "
            f"{', '.join(differs)} differ); give another --study name or storage"
        )


def mark_interrupted(study: optuna.Study) -> int:
    """Mark the trials left running by an earlier search interrupted and fail them; how many.

    RATIONALE: the mark is a study attribute listing their numbers, set before they are
    told failed: Optuna's public API sets a trial's attributes only while it runs in this
    process, and the mark is what keeps their configurations proposable (PoolSampler)."""
    running = study.get_trials(deepcopy=False, states=(TrialState.RUNNING,))
    if not running:
        return 0
    marked = set(study.user_attrs.get(INTERRUPTED, [])) | {t.number for t in running}
    study.set_user_attr(INTERRUPTED, sorted(marked))
    for t in running:
        study.tell(t.number, state=TrialState.FAIL)
    return len(running)


def measured_trials(study: optuna.Study, space: Space) -> list[TrialRecord]:
    """The trials an earlier search of the study measured (run, not cached nor vetoed)."""
    return [
        _record_from_trial(t, space)
        for t in study.get_trials(deepcopy=False, states=(TrialState.COMPLETE, TrialState.FAIL))
        if t.user_attrs.get(KIND) == "run"
    ]


def outcome_attrs(outcome: TrialOutcome) -> dict[str, object]:
    """The trial attributes that keep a measured outcome in the study."""
    attrs: dict[str, object] = {KIND: "run"}
    for name in OUTCOME_ATTRS:
        value = getattr(outcome, name)
        attrs[f"iotuner:{name}"] = [str(p) for p in value] if name == "logs" else value
    if outcome.failed and outcome.stdout_tail:
        attrs[FAILED_TAIL] = outcome.stdout_tail
    return attrs


def _record_from_trial(trial: FrozenTrial, space: Space) -> TrialRecord:
    attrs = trial.user_attrs
    outcome = TrialOutcome(
        value=trial.value if trial.state == TrialState.COMPLETE else None,
        reason=attrs.get("iotuner:reason") if trial.state != TrialState.COMPLETE else None,
        seconds=float(attrs.get("iotuner:seconds", 0.0)),
        logs=tuple(Path(p) for p in attrs.get("iotuner:logs", [])),
        returncode=attrs.get("iotuner:returncode"),
        answered_by=attrs.get("iotuner:answered_by"),
        repeats=int(attrs.get("iotuner:repeats", 1)),
        stdout_tail=str(attrs.get(FAILED_TAIL, "")),
    )
    if outcome.value is None and outcome.reason is None:
        outcome = TrialOutcome(None, "failed (no reason recorded)", outcome.seconds, outcome.logs)
    return TrialRecord(trial.number, space.validate(trial.params), outcome, False)


def stored_workload(study: optuna.Study) -> Workload | None:
    """The model strategy's workload, as an earlier search of the study kept it."""
    data = study.user_attrs.get(WORKLOAD)
    return Workload(**data) if isinstance(data, dict) else None


def store_workload(study: optuna.Study, workload: Workload) -> None:
    study.set_user_attr(
        WORKLOAD,
        {
            "nprocs": workload.nprocs,
            "nodes": workload.nodes,
            "pattern": workload.pattern,
            "op": workload.op,
            "layout": workload.layout,
            "bytes_per_rank": workload.bytes_per_rank,
            "block": workload.block,
            "fill": workload.fill,
        },
    )


def stored_accesses(study: optuna.Study) -> frozenset[tuple[str, str]] | None:
    """The program's accesses, as the search that began the study read them."""
    stored = study.user_attrs.get(ACCESSES)
    if not isinstance(stored, list):
        return None
    return frozenset((str(a[0]), str(a[1])) for a in stored)


def store_accesses(study: optuna.Study, accesses: frozenset[tuple[str, str]]) -> None:
    study.set_user_attr(ACCESSES, sorted([list(a) for a in accesses]))


def stored_identity(study: optuna.Study) -> tuple[str | None, int | None]:
    """The program's name and number of ranks, as kept in the study (None, None)."""
    stored = study.user_attrs.get(IDENTITY)
    if isinstance(stored, list) and len(stored) == 2:
        return str(stored[0]), int(stored[1])
    return None, None


def store_identity(study: optuna.Study, program: str, nprocs: int) -> None:
    study.set_user_attr(IDENTITY, [program, nprocs])
