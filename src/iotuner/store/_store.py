"""The knowledge base on SQLAlchemy Core: one class for SQLite and PostgreSQL (Store).

Each method is a transaction, or joins the one `with store.transaction():` opens. Writes
skip what is stored already (by uid) and, on PostgreSQL, hold one advisory lock
(_lock_writes) so that processes writing at once do not race on a unique key. Opening and
the schema's upgrades: iotuner.store._open and Store._create_schema; the frames read back:
iotuner.store._frames; the checks values pass first: iotuner.store._values."""

import json
import re
from collections.abc import Iterable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from types import TracebackType
from typing import Any

import pandas as pd
import sqlalchemy as sa

from iotuner._secrets import display_url, mask_secrets
from iotuner.measurement import Measurement, System, Workload
from iotuner.space import config_key
from iotuner.store import _schema as schema
from iotuner.store._frames import (
    measurement_frame,
    measurement_query,
    summarize_repeats,
    with_config_columns,
)
from iotuner.store._values import Record, StoreError, canonical_config, finite, json_text

__all__ = ["Store"]

SCHEMA_LOCK = 0x696F74756E6572
"""PostgreSQL advisory lock key ("iotuner") held while the schema is created or upgraded."""
WRITE_LOCK = SCHEMA_LOCK + 1
"""PostgreSQL advisory lock key held by a transaction that adds rows (module: _lock_writes)."""
_CHUNK = 500
"""Values per IN (...) list and rows per INSERT batch."""


class Store:
    """The knowledge base: systems, runs, configurations and measurements.

    Made by open_store(). Every method is one transaction of its own, unless called inside
    `with store.transaction():`, which makes them one (all or nothing). A Store is for one
    thread; close() it (or use it as a context manager) when done.
    """

    def __init__(self, engine: sa.Engine) -> None:
        self._engine = engine
        self._conn: sa.Connection | None = None

    # ------------------------------------------------------------------ basics

    @property
    def url(self) -> str:
        """Where the knowledge base is, with any password hidden (display_url)."""
        return display_url(self._engine.url.render_as_string(hide_password=True))

    @property
    def backend(self) -> str:
        """ "sqlite" or "postgresql"."""
        return self._engine.url.get_backend_name()

    def close(self) -> None:
        """Release the connections; the store cannot be used after."""
        self._engine.dispose()

    def __enter__(self) -> "Store":
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.close()

    def __repr__(self) -> str:
        return f"Store({self.url!r})"

    @contextmanager
    def transaction(self) -> Iterator[None]:
        """Make every store call inside the block one transaction: on an exception, none
        of them leaves a trace. Nested blocks join the outer one."""
        if self._conn is not None:
            yield
            return
        with self._errors(), self._engine.begin() as conn:
            self._conn = conn
            try:
                yield
            finally:
                self._conn = None

    @contextmanager
    def _connect(self) -> Iterator[sa.Connection]:
        """The connection of the transaction in progress, or a new transaction's."""
        if self._conn is not None:
            yield self._conn
            return
        with self._errors(), self._engine.begin() as conn:
            yield conn

    @contextmanager
    def _errors(self) -> Iterator[None]:
        """Database failures as StoreError, naming the store."""
        try:
            yield
        except sa.exc.SQLAlchemyError as exc:
            raw = self._engine.url.render_as_string(hide_password=False)
            detail = mask_secrets(str(getattr(exc, "orig", None) or exc), raw).strip()
            lines = detail.splitlines()
            # RATIONALE: not chained: the driver's exception, shown in a traceback or a
            # log's exc_info, may quote the URL's password (_secrets).
            raise StoreError(
                f"knowledge base {self.url}: {lines[0] if lines else type(exc).__name__}"
            ) from None

    def _create_schema(self) -> None:
        """Create missing tables, bring an older schema up to this version, check it."""
        with self._connect() as conn:
            if conn.dialect.name == "postgresql":
                # Processes opening a new knowledge base at once (search workers) would race
                # to create its tables (a duplicate type); one at a time, till commit.
                conn.execute(_ADVISORY_LOCK, {"key": SCHEMA_LOCK})
            schema.metadata.create_all(conn)
            found = conn.execute(sa.select(sa.func.max(schema.schema_version.c.version)))
            version = found.scalar()
            if version is None:
                conn.execute(sa.insert(schema.schema_version).values(version=schema.SCHEMA_VERSION))
                return
            while version in schema.UPGRADES and version < schema.SCHEMA_VERSION:
                for statement in schema.UPGRADES[version]:
                    if not _adds_a_column_there_is(conn, statement):
                        conn.execute(sa.text(statement))
                version += 1
                conn.execute(sa.insert(schema.schema_version).values(version=version))
            if version != schema.SCHEMA_VERSION:
                raise StoreError(
                    f"knowledge base {self.url} has schema version {version}; this iotuner "
                    f"reads version {schema.SCHEMA_VERSION} "
                    + ("(upgrade iotuner)" if version > schema.SCHEMA_VERSION else "")
                )

    # ------------------------------------------------------------------ writing

    def add_run(
        self,
        uid: str,
        kind: str,
        source: str,
        program: str | None = None,
        system: System | None = None,
        meta: Mapping[str, Any] | None = None,
        *,
        started_at: float | None = None,
    ) -> int:
        """Record a run (one bench file or sweep, one trace log, one CSV file, one search)
        and return its id; the id of the run already recorded under `uid` if there is one.

        `kind` is one of bench, trace, csv, search; `source` where it came from (a path or
        command), `started_at` Unix seconds, `meta` anything else (stored as JSON).
        """
        if kind not in schema.RUN_KINDS:
            raise StoreError(f"run kind must be one of {', '.join(schema.RUN_KINDS)}, got {kind!r}")
        if not uid:
            raise StoreError("a run needs a non-empty uid")
        meta_text = json_text(dict(meta or {}), f"the meta of run {uid}")
        runs = schema.runs
        with self._connect() as conn:
            _lock_writes(conn)
            found = conn.execute(sa.select(runs.c.id).where(runs.c.uid == uid)).scalar()
            if found is not None:
                return int(found)
            system_id = self._system_id(conn, system, {}) if system is not None else None
            return _insert_id(
                conn,
                sa.insert(runs).values(
                    uid=uid,
                    kind=kind,
                    source=source,
                    program=program,
                    started_at=started_at,
                    system_id=system_id,
                    meta=meta_text,
                ),
            )

    def add_measurements(
        self, run_id: int, measurements: Iterable[Measurement], system: System, space: str
    ) -> int:
        """Add measurements of one run made on one system in one parameter space, in one
        transaction; return how many were new (uids already known are skipped)."""
        return self.add_records(run_id, ((m, system, space) for m in measurements))

    def add_records(self, run_id: int, records: Iterable[Record]) -> int:
        """Like add_measurements, for measurements whose systems or spaces differ."""
        unique: dict[str, Record] = {}
        for record in records:
            uid = record[0].uid
            if not uid:
                raise StoreError("a measurement needs a non-empty uid")
            unique.setdefault(uid, record)
        if not unique:
            return 0
        with self._connect() as conn:
            _lock_writes(conn)
            if (
                conn.execute(sa.select(schema.runs.c.id).where(schema.runs.c.id == run_id)).first()
                is None
            ):
                raise StoreError(f"no run with id {run_id} (add_run first)")
            known = self._known(conn, list(unique))
            systems: dict[str, int] = {}
            configs: dict[str, int] = {}
            # A log's rows share a few workloads and systems: their columns and
            # fingerprints (dataclasses.asdict and a digest) are made once each; on a
            # 300,000-row trace that was half of its ingest time.
            workload_rows: dict[Workload, dict[str, Any]] = {}
            system_ids: dict[System, int] = {}
            rows = []
            for uid, (m, system, space) in unique.items():
                if uid in known:
                    continue
                if system not in system_ids:
                    system_ids[system] = self._system_id(conn, system, systems)
                if m.workload not in workload_rows:
                    workload_rows[m.workload] = m.workload.as_row()
                rows.append(
                    {
                        "uid": uid,
                        "run_id": run_id,
                        "system_id": system_ids[system],
                        "configuration_id": self._config_id(conn, m, configs),
                        "space": space,
                        **workload_rows[m.workload],
                        "bandwidth": finite(m.bandwidth, "bandwidth", uid),
                        "seconds": finite(m.seconds, "seconds", uid),
                        "bytes": m.bytes,
                        "repeat": m.repeat,
                        "provenance": json_text(m.provenance, f"the provenance of {uid}"),
                    }
                )
            for start in range(0, len(rows), _CHUNK):
                conn.execute(sa.insert(schema.measurements), rows[start : start + _CHUNK])
            return len(rows)

    def add_workloads(self, rows: Iterable[Mapping[str, Any]]) -> int:
        """Add rows of the workloads table (what a program did, with no configuration to
        tie a bandwidth to); return how many were new (uids already stored are skipped).

        Each row has the table's columns: uid, kind, source, source_uid, name,
        files_in_group, through_mpiio, the workload fields (Workload.as_row(); nodes may be
        None), bytes, seconds, bandwidth, started_at, and `meta` as a JSON-able mapping.
        """
        unique: dict[str, dict[str, Any]] = {}
        for row in rows:
            uid = str(row.get("uid") or "")
            if not uid:
                raise StoreError("a workload row needs a non-empty uid")
            meta = json_text(dict(row.get("meta") or {}), f"the meta of workload {uid}")
            unique.setdefault(uid, {**row, "meta": meta})
        if not unique:
            return 0
        table = schema.workloads
        with self._connect() as conn:
            _lock_writes(conn)
            known: set[str] = set()
            uids = list(unique)
            for start in range(0, len(uids), _CHUNK):
                chunk = uids[start : start + _CHUNK]
                known.update(
                    conn.execute(sa.select(table.c.uid).where(table.c.uid.in_(chunk))).scalars()
                )
            new = [row for uid, row in unique.items() if uid not in known]
            for start in range(0, len(new), _CHUNK):
                conn.execute(sa.insert(table), new[start : start + _CHUNK])
            return len(new)

    def workloads(self) -> pd.DataFrame:
        """The workloads table, in the order the rows were added (meta as JSON text)."""
        table = schema.workloads
        with self._connect() as conn:
            rows = conn.execute(sa.select(table).order_by(table.c.id)).all()
        return pd.DataFrame([tuple(row) for row in rows], columns=list(table.c.keys()))

    def workload_count(self) -> int:
        """Rows of the workloads table (kept apart from counts(), whose tables hold
        measurements and what they refer to)."""
        table = schema.workloads
        with self._connect() as conn:
            return int(conn.execute(sa.select(sa.func.count()).select_from(table)).scalar_one())

    def _known(self, conn: sa.Connection, uids: Sequence[str]) -> set[str]:
        uid = schema.measurements.c.uid
        known: set[str] = set()
        for start in range(0, len(uids), _CHUNK):
            chunk = uids[start : start + _CHUNK]
            known.update(conn.execute(sa.select(uid).where(uid.in_(chunk))).scalars())
        return known

    def _system_id(self, conn: sa.Connection, system: System, cache: dict[str, int]) -> int:
        fingerprint = system.fingerprint
        if fingerprint not in cache:
            systems = schema.systems
            found = conn.execute(
                sa.select(systems.c.id).where(systems.c.fingerprint == fingerprint)
            ).scalar()
            if found is None:
                values = {
                    "fingerprint": fingerprint,
                    "host": system.host,
                    "mpi_library": system.mpi_library,
                    "fs_type": system.fs_type,
                    "fs_driver": system.fs_driver,
                    "fs_mount": system.fs_mount,
                }
                found = _insert_id(conn, sa.insert(systems).values(values))
            cache[fingerprint] = int(found)
        return cache[fingerprint]

    def _config_id(self, conn: sa.Connection, m: Measurement, cache: dict[str, int]) -> int:
        config = canonical_config(m.config, m.uid)
        key = config_key(config)
        if key not in cache:
            table = schema.configurations
            found = conn.execute(sa.select(table.c.id).where(table.c.key == key)).scalar()
            if found is None:
                params = json.dumps(config, sort_keys=True)
                insert = sa.insert(table).values(key=key, params=params)
                found = _insert_id(conn, insert)
            cache[key] = int(found)
        return cache[key]

    # ------------------------------------------------------------------ reading

    def has_measurement(self, uid: str) -> bool:
        """True when a measurement with this uid is stored."""
        with self._connect() as conn:
            return bool(self._known(conn, [uid]))

    def known_uids(self, uids: Iterable[str]) -> set[str]:
        """Those of `uids` that are stored."""
        with self._connect() as conn:
            return self._known(conn, list(dict.fromkeys(uids)))

    def measurement_uids(self, prefix: str = "") -> set[str]:
        """The uids of the stored measurements that start with `prefix` (to resume a sweep)."""
        uid = schema.measurements.c.uid
        query = sa.select(uid)
        if prefix:
            query = query.where(uid.startswith(prefix, autoescape=True))
        with self._connect() as conn:
            return set(conn.execute(query).scalars())

    def run_id(self, uid: str) -> int | None:
        """The id of the run recorded under `uid`, or None."""
        runs = schema.runs
        with self._connect() as conn:
            found = conn.execute(sa.select(runs.c.id).where(runs.c.uid == uid)).scalar()
        return None if found is None else int(found)

    def systems(self) -> list[System]:
        """Every system measurements were made on, by host (System.fingerprint names each)."""
        s = schema.systems
        query = sa.select(s.c.host, s.c.mpi_library, s.c.fs_type, s.c.fs_driver, s.c.fs_mount)
        with self._connect() as conn:
            rows = conn.execute(query.order_by(s.c.host, s.c.fingerprint)).all()
        return [System(*row) for row in rows]

    def counts(self) -> dict[str, int]:
        """Rows per table: systems, runs, configurations, measurements."""
        tables = (schema.systems, schema.runs, schema.configurations, schema.measurements)
        with self._connect() as conn:
            return {
                t.name: int(conn.execute(sa.select(sa.func.count()).select_from(t)).scalar_one())
                for t in tables
            }

    def measurement_counts(self) -> dict[tuple[str, str], int]:
        """Measurements per (system fingerprint, run kind)."""
        m, r, s = schema.measurements, schema.runs, schema.systems
        query = (
            sa.select(s.c.fingerprint, r.c.kind, sa.func.count())
            .select_from(m.join(r, m.c.run_id == r.c.id).join(s, m.c.system_id == s.c.id))
            .group_by(s.c.fingerprint, r.c.kind)
        )
        with self._connect() as conn:
            return {(fp, kind): int(n) for fp, kind, n in conn.execute(query)}

    def measurements(
        self, system: System | str | None = None, kind: str | None = None
    ) -> pd.DataFrame:
        """One row per measurement, in the order they were added: MEASUREMENT_COLUMNS, then
        one cfg:<parameter> column per parameter seen, sorted by name ("default" where a
        configuration does not set it). `system` (a System or its fingerprint) and `kind`
        (of the run) select; None takes all."""
        frame, params = self._measurement_rows(system, kind)
        return with_config_columns(frame, params)

    def summary(self, system: System | str | None = None, kind: str | None = None) -> pd.DataFrame:
        """The repeats of each (system, workload, configuration) summarised: exactly
        measurement.SUMMARY_COLUMNS (n and the five-number summary of the bandwidths in
        MiB/s, quartiles by numpy's linear percentile), then the cfg:<parameter> columns as
        in measurements(). Sorted by system, workload and configuration."""
        frame, params = self._measurement_rows(system, kind)
        return with_config_columns(summarize_repeats(frame), params)

    def _measurement_rows(
        self, system: System | str | None, kind: str | None
    ) -> tuple[pd.DataFrame, dict[str, dict[str, Any]]]:
        """The MEASUREMENT_COLUMNS frame and the parameters of each configuration in it."""
        query = measurement_query(system, kind)
        with self._connect() as conn:
            rows = conn.execute(query).all()
        return measurement_frame(rows)


def _insert_id(conn: sa.Connection, insert: sa.Insert) -> int:
    """Run an INSERT of one row and return the row's id."""
    key = conn.execute(insert).inserted_primary_key
    if key is None or key[0] is None:
        raise StoreError(f"the database returned no id for a new row of {insert.table}")
    return int(key[0])


_ADVISORY_LOCK = sa.text("SELECT pg_advisory_xact_lock(:key)")


def _lock_writes(conn: sa.Connection) -> None:
    """On PostgreSQL, one writing transaction at a time, till it commits.

    RATIONALE: adding rows looks a system, configuration or run up and inserts it when
    missing; two processes ingesting at once (search workers) would both insert it and one
    would fail on the unique key. Writes are short and rare; readers are not held."""
    if conn.dialect.name == "postgresql":
        conn.execute(_ADVISORY_LOCK, {"key": WRITE_LOCK})


_ADD_COLUMN = re.compile(r"ALTER TABLE (\w+) ADD COLUMN (\w+) ")


def _adds_a_column_there_is(conn: sa.Connection, statement: str) -> bool:
    """Whether `statement` adds a column its table has already. RATIONALE: a table that an
    older store lacked is made whole by create_all before the upgrades run (the workloads
    table of version 4), so a later upgrade's column is there already."""
    match = _ADD_COLUMN.match(statement)
    if match is None:
        return False
    table, column = match.groups()
    return column in {c["name"] for c in sa.inspect(conn).get_columns(table)}
