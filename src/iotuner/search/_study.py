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

import contextlib
import glob
import hashlib
import json
import math
import random
import threading
import time
import warnings
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import datetime, timedelta
from pathlib import Path

import optuna
import sqlalchemy
import sqlalchemy.exc
from optuna.exceptions import ExperimentalWarning
from optuna.samplers import RandomSampler
from optuna.storages import RDBStorage
from optuna.study import StudyDirection
from optuna.trial import FrozenTrial, TrialState

from iotuner._fileio import create_private_file
from iotuner._secrets import display_url, mask_secrets
from iotuner.measurement import Workload
from iotuner.search._common import LOGS_AT, SearchError, TrialOutcome
from iotuner.search._objectives import Objective
from iotuner.search._result import TrialRecord
from iotuner.search._samplers import INTERRUPTED
from iotuner.space import Space

__all__ = ["default_study_name", "storage_url", "unrecorded_logs"]

KIND = "iotuner:kind"
"""Trial attribute: "run" (measured), "cached" (answered from the cache) or "vetoed"."""
OUTCOME_ATTRS = ("reason", "seconds", "logs", "returncode", "answered_by", "repeats", "worst")
"""The fields of a TrialOutcome kept as trial attributes `iotuner:<name>`."""
VALUE = "iotuner:value"
"""Trial attribute of a measured trial: its value (None when it failed), kept beside the
study's own so a trial killed before it was told keeps its measurement (outcome_attrs)."""
FAILED_TAIL = "iotuner:stdout_tail"
"""Trial attribute of a failed trial: the last lines it printed (TrialOutcome.stdout_tail)."""
SIGNATURE = "iotuner:signature"
ENQUEUED = "iotuner:enqueued"
WORKLOAD = "iotuner:workload"
ACCESSES = "iotuner:accesses"
IDENTITY = "iotuner:identity"
SEED = "iotuner:seed"
"""Study attribute: the strategy's seed the study was made with (None: none given)."""
ABANDONED = "iotuner:abandoned"
"""Trial attribute: its run was stopped by an exception in this process (not a dead worker)."""
HEARTBEAT_SECONDS = 2
GRACE_SECONDS = 12
"""A running trial whose worker sent no heartbeat for this long is failed and run again.
RATIONALE: the heartbeat is a tiny write every 2 s per running trial; 12 s lets a busy
database or a loaded node miss five beats before a live worker's trial is taken from it."""
RETRIES = 2
SCHEMA_ATTEMPTS = 3
"""How many times a trial whose worker died is queued again (a configuration that kills
every worker that runs it is not retried forever)."""


def storage_url(text: str) -> str:
    """An Optuna storage URL from a URL or a plain file path (taken as SQLite).

    `postgresql://` (the knowledge base's form, IOTUNER_DB) goes through psycopg 3, the
    driver iotuner installs for its knowledge base: SQLAlchemy's default for it is
    psycopg2, which is not installed."""
    if text.startswith(("postgresql://", "postgres://")):
        return "postgresql+psycopg://" + text.split("://", 1)[1]
    return text if "://" in text else f"sqlite:///{text}"


def _sqlite_file(url: str) -> Path | None:
    """The file of an SQLite storage URL (sqlite:///PATH), None for another URL."""
    if not url.startswith("sqlite:///"):
        return None
    path = url[len("sqlite:///") :].partition("?")[0]
    return Path(path) if path and path != ":memory:" else None


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
            storage=_rdb_storage(storage),
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
    except sqlalchemy.exc.OperationalError as exc:
        # The driver's reason (no server, no such host, refused password), without the
        # URL's secrets; SQLAlchemy's text would add the URL's pieces and a web link.
        raise SearchError(
            f"could not connect to the Optuna storage {display_url(storage or '')} for the "
            f"study {name!r}: {storage_reason(exc, storage or '')}"
        ) from None
    except (ValueError, ImportError, RuntimeError, sqlalchemy.exc.SQLAlchemyError) as exc:
        raise SearchError(
            f"cannot open the study {name!r} in {display_url(storage or '')}: "
            f"{storage_reason(exc, storage or '')}"
        ) from None
    if study.direction.name.lower() != objective.direction:
        raise SearchError(
            f"the study {name!r} was made to {study.direction.name.lower()}, this search "
            f"would {objective.direction}; give another --study name"
        )
    _check_signature(study, objective, name)
    _check_seed(study, seed, name)
    return study


def storage_reason(exc: BaseException, url: str) -> str:
    """The first line of what the driver (or SQLAlchemy, Optuna) said about `url`, with
    the URL's secrets masked (_secrets.mask_secrets)."""
    lines = mask_secrets(str(getattr(exc, "orig", None) or exc), url).strip().splitlines()
    return lines[0] if lines else type(exc).__name__


def _rdb_storage(url: str | None) -> RDBStorage | None:
    """An RDB storage with heartbeats (below), or None (in memory).

    Many workers, one study: several searches (processes, on other nodes) may share one study
    in an RDB storage (PostgreSQL for many nodes). Each trial a worker runs sends a heartbeat
    to the storage (HEARTBEAT_SECONDS); a running trial without one for GRACE_SECONDS belongs
    to a worker that died, and is failed and queued again (Optuna's retry callback), so a
    killed worker loses no trial. A trial left running by a search interrupted in this process
    (an exception, ^C) is marked ABANDONED and failed by the next search at once.
    """
    if url is None:
        return None
    sqlite_file = _sqlite_file(url)
    if sqlite_file is not None and sqlite_file.parent.is_dir():
        # Private, like the knowledge base (_fileio): trials hold commands and values.
        create_private_file(sqlite_file)
    with warnings.catch_warnings():
        # The retry callback is marked experimental; its behaviour is what we rely on.
        warnings.simplefilter("ignore", ExperimentalWarning)
        # Optuna 4.9 renamed the callback and its argument; before, the old names.
        retry = getattr(optuna.storages, "RetryHeartbeatStaleTrialCallback", None)
        if retry is not None:
            callback = {"heartbeat_stale_trial_callback": retry(max_retry=RETRIES)}
        else:
            callback = {"failed_trial_callback": optuna.storages.RetryFailedTrialCallback(RETRIES)}
        for attempt in range(SCHEMA_ATTEMPTS):
            try:
                return RDBStorage(
                    url,
                    heartbeat_interval=HEARTBEAT_SECONDS,
                    grace_period=GRACE_SECONDS,
                    **callback,
                )
            except (sqlalchemy.exc.IntegrityError, sqlalchemy.exc.ProgrammingError):
                # Workers started at once on a new database race to make Optuna's tables
                # (PostgreSQL: a duplicate type or table); the loser finds them made on a
                # retry.
                if attempt == SCHEMA_ATTEMPTS - 1:
                    raise
                time.sleep(0.5 + random.random())
    raise AssertionError("unreachable")


def _heartbeat_interval(study: optuna.Study) -> int | None:
    # RATIONALE: Optuna beats only inside Study.optimize; the search asks and tells, so it
    # beats itself through the storage's public record_heartbeat.
    getter = getattr(study._storage, "get_heartbeat_interval", None)
    interval = getter() if getter is not None else None
    return interval if isinstance(interval, int) else None


def first_beat(study: optuna.Study, trial: optuna.Trial) -> None:
    """One beat at once for a trial just asked: a worker killed before its trial runs (or
    is told) still leaves a beat to go stale, else others would wait for it for ever."""
    if _heartbeat_interval(study) is not None:
        with contextlib.suppress(Exception):
            study._storage.record_heartbeat(trial._trial_id)  # type: ignore[attr-defined]


@contextmanager
def heartbeat(study: optuna.Study, trial: optuna.Trial) -> Iterator[None]:
    """Beat for `trial` while the block runs (nothing for a storage without heartbeats)."""
    interval = _heartbeat_interval(study)
    if interval is None:
        yield
        return
    storage = study._storage
    stop = threading.Event()

    def beat() -> None:
        while True:
            # A missed beat must not stop the trial (the next one may get through).
            with contextlib.suppress(Exception):
                storage.record_heartbeat(trial._trial_id)  # type: ignore[attr-defined]
            if stop.wait(interval):
                return

    thread = threading.Thread(target=beat, name=f"heartbeat-{trial.number}", daemon=True)
    thread.start()
    try:
        yield
    finally:
        stop.set()
        thread.join()


def fail_stale(study: optuna.Study) -> int:
    """Fail the running trials of workers that died (no heartbeat for GRACE_SECONDS, or
    none ever: _never_beat) and mark them interrupted; how many. Their configurations
    are queued again by the storage's retry callback (those that never beat are not:
    the interrupted mark keeps them proposable)."""
    if _heartbeat_interval(study) is None:
        return 0
    before = {t.number for t in study.get_trials(deepcopy=False, states=(TrialState.RUNNING,))}
    if not before:
        return 0
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ExperimentalWarning)
        optuna.storages.fail_stale_trials(study)
    for trial in _never_beat(study):
        with contextlib.suppress(Exception):  # another worker may have failed it first
            study.tell(trial.number, state=TrialState.FAIL)
    after = {t.number for t in study.get_trials(deepcopy=False, states=(TrialState.RUNNING,))}
    stale = before - after
    stale = {
        t.number
        for t in study.get_trials(deepcopy=False, states=(TrialState.FAIL,))
        if t.number in stale
    }
    if stale:
        marked = set(study.user_attrs.get(INTERRUPTED, [])) | stale
        study.set_user_attr(INTERRUPTED, sorted(marked))
    return len(stale)


def _never_beat(study: optuna.Study) -> list[FrozenTrial]:
    """The running trials asked more than GRACE_SECONDS ago that never sent a heartbeat:
    their search was killed between asking and its first beat (first_beat).

    RATIONALE: Optuna's fail_stale_trials looks only at trials with a heartbeat, so such a
    trial stayed running for ever, and a resumed search whose budget it filled waited for
    it for ever (seen: SIGKILL on a search's process group). A live worker beats within
    milliseconds of asking. Optuna has no public reading of the beats: they are read from
    its table, and when that cannot be read, nothing is failed (as before)."""
    cutoff = datetime.now() - timedelta(seconds=GRACE_SECONDS)
    old = [
        t
        for t in study.get_trials(deepcopy=False, states=(TrialState.RUNNING,))
        if t.datetime_start is not None and t.datetime_start < cutoff
    ]
    # The RDB storage itself, or the one Optuna's cache wraps.
    storage = getattr(study._storage, "_backend", study._storage)
    engine = getattr(storage, "engine", None)
    if not old or not isinstance(engine, sqlalchemy.Engine):
        return []
    try:
        with engine.connect() as conn:
            beating = set(
                conn.execute(sqlalchemy.text("SELECT trial_id FROM trial_heartbeats")).scalars()
            )
    except sqlalchemy.exc.SQLAlchemyError:
        return []
    return [t for t in old if t._trial_id not in beating]


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

    With heartbeats (an RDB storage) that is a trial marked ABANDONED or whose worker died
    (fail_stale); one still beating belongs to a live worker and is left to it. Without
    (in memory) every running trial.

    RATIONALE: the mark is a study attribute listing their numbers, set before they are
    told failed: Optuna's public API sets a trial's attributes only while it runs in this
    process, and the mark is what keeps their configurations proposable (PoolSampler)."""
    stale = fail_stale(study)
    running = study.get_trials(deepcopy=False, states=(TrialState.RUNNING,))
    if _heartbeat_interval(study) is not None:
        running = [t for t in running if t.user_attrs.get(ABANDONED)]
    if not running:
        return stale
    marked = set(study.user_attrs.get(INTERRUPTED, [])) | {t.number for t in running}
    study.set_user_attr(INTERRUPTED, sorted(marked))
    for t in running:
        study.tell(t.number, state=TrialState.FAIL)
    return stale + len(running)


def unrecorded_logs(study: optuna.Study) -> list[Path]:
    """The trace logs of trials whose run started (LOGS_AT) and that were never recorded
    as measured (KIND), and of runs outside a trial (their logs may be a recorded trial's
    too: storing skips a log stored already): a search killed between its run and its
    record left them."""
    places = [
        t.user_attrs.get(LOGS_AT)
        for t in study.get_trials(deepcopy=False)
        if t.user_attrs.get(KIND) != "run"
    ]
    # Runs outside a trial (the traced default before it is recorded, re-measures).
    places += [v for k, v in study.user_attrs.items() if k.startswith(f"{LOGS_AT}:")]
    logs: list[Path] = []
    for at in places:
        if not isinstance(at, dict):
            continue
        tag, folder = str(at.get("tag", "")), at.get("log_dir")
        if tag and isinstance(folder, str) and Path(folder).is_dir():
            logs += sorted(Path(folder).glob(f"*-{glob.escape(tag)}.iotrace.jsonl"))
    return logs


def measured_trials(study: optuna.Study, space: Space) -> list[TrialRecord]:
    """The trials an earlier search of the study measured (run, not cached nor vetoed)."""
    return [
        record_from_trial(t, space)
        for t in study.get_trials(deepcopy=False, states=(TrialState.COMPLETE, TrialState.FAIL))
        if t.user_attrs.get(KIND) == "run"
    ]


def outcome_attrs(outcome: TrialOutcome) -> dict[str, object]:
    """The trial attributes that keep a measured outcome in the study, in the order they
    are to be set: KIND last.

    RATIONALE: each attribute is a write of its own, and the trial is told after them; a
    search killed in between leaves a running trial the next search fails as stale. KIND
    "run" marks the record whole (the value in VALUE, the logs): such a trial is read as
    measured, with its value (record_from_trial), and one killed before KIND as not
    measured, run again."""
    attrs: dict[str, object] = {VALUE: outcome.value}
    for name in OUTCOME_ATTRS:
        value = getattr(outcome, name)
        attrs[f"iotuner:{name}"] = [str(p) for p in value] if name == "logs" else value
    if outcome.failed and outcome.stdout_tail:
        attrs[FAILED_TAIL] = outcome.stdout_tail
    attrs[KIND] = "run"
    return attrs


def record_from_trial(trial: FrozenTrial, space: Space) -> TrialRecord:
    """The measured trial `trial` (KIND "run") as a record. A trial its search marked
    measured and was killed before telling (the study then failed it, its heartbeat
    stale) keeps its value in VALUE: that is its measurement, not a failure."""
    attrs = trial.user_attrs
    value = trial.value if trial.state == TrialState.COMPLETE else None
    reason = attrs.get("iotuner:reason") if trial.state != TrialState.COMPLETE else None
    if value is None and reason is None:
        kept = attrs.get(VALUE)
        if isinstance(kept, int | float) and math.isfinite(kept):
            value = float(kept)
        else:
            reason = "failed (no reason recorded)"
    outcome = TrialOutcome(
        value=value,
        reason=reason,
        seconds=float(attrs.get("iotuner:seconds", 0.0)),
        logs=tuple(Path(p) for p in attrs.get("iotuner:logs", [])),
        returncode=attrs.get("iotuner:returncode"),
        answered_by=attrs.get("iotuner:answered_by"),
        repeats=int(attrs.get("iotuner:repeats", 1)),
        stdout_tail=str(attrs.get(FAILED_TAIL, "")),
        worst=attrs.get("iotuner:worst"),
    )
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
