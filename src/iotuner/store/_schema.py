"""The knowledge base's tables: one definition, created alike on SQLite and PostgreSQL.

JSON values (run meta, configuration parameters, provenance) are stored as text, so both
backends hold the same thing and a reader never depends on a backend's JSON type.
"""

from collections.abc import Callable
from typing import Any

import sqlalchemy as sa

from iotuner.measurement import WORKLOAD_FIELDS

SCHEMA_VERSION = 5
"""Raised by one whenever a table or column changes; stores refuse a newer schema and
upgrade an older one (UPGRADES)."""

RUN_KINDS = ("bench", "trace", "csv", "search")
"""Where a run's measurements came from."""

metadata = sa.MetaData()

_COLUMN_TYPES: dict[str, Callable[[], sa.types.TypeEngine[Any]]] = {
    "integer": sa.Integer,
    "bigint": sa.BigInteger,
    "real": sa.Double,
    "word": lambda: sa.String(16),
    "text": sa.Text,
    "boolean": sa.Boolean,
}

_SERVER_DEFAULTS = {"calls_per_open": "1"}
"""Workload columns added by an upgrade: the value of the rows stored before them."""


def _workload_columns(nullable: tuple[str, ...] = ()) -> list[sa.Column[Any]]:
    """The measurements' workload columns, one per iotuner.measurement.Workload field (the
    column type and comment from its metadata), then `group`, which follows from the size
    and is stored so that a summary can group by it. A field that may be unknown (default
    None), or is named in `nullable`, is a nullable column: NULL is unknown."""
    columns = [
        sa.Column(
            f.name,
            _COLUMN_TYPES[f.metadata["column"]](),
            nullable=f.default is None or f.name in nullable,
            server_default=_SERVER_DEFAULTS.get(f.name),
            comment=f.metadata["doc"],
        )
        for f in WORKLOAD_FIELDS
    ]
    return [*columns, sa.Column("group", sa.Integer, nullable=False)]


schema_version = sa.Table(
    "schema_version",
    metadata,
    sa.Column("version", sa.Integer, primary_key=True, autoincrement=False),
)

systems = sa.Table(
    "systems",
    metadata,
    sa.Column("id", sa.Integer, primary_key=True),
    sa.Column("fingerprint", sa.String(64), nullable=False, unique=True),
    sa.Column("host", sa.Text, nullable=False),
    sa.Column("mpi_library", sa.Text, nullable=False),
    sa.Column("fs_type", sa.Text, nullable=False),
    sa.Column("fs_driver", sa.Text, nullable=False),
    sa.Column("fs_mount", sa.Text, nullable=False),
)

runs = sa.Table(
    "runs",
    metadata,
    sa.Column("id", sa.Integer, primary_key=True),
    sa.Column("uid", sa.Text, nullable=False, unique=True),
    sa.Column("kind", sa.String(16), nullable=False),
    sa.Column("source", sa.Text, nullable=False),
    sa.Column("program", sa.Text, nullable=True),
    sa.Column("started_at", sa.Double, nullable=True, comment="Unix seconds"),
    sa.Column("system_id", sa.Integer, sa.ForeignKey("systems.id"), nullable=True),
    sa.Column("meta", sa.Text, nullable=False, comment="JSON object"),
    sa.CheckConstraint(
        "kind IN (" + ", ".join(f"'{k}'" for k in RUN_KINDS) + ")", name="runs_kind"
    ),
)

configurations = sa.Table(
    "configurations",
    metadata,
    sa.Column("id", sa.Integer, primary_key=True),
    sa.Column("key", sa.Text, nullable=False, unique=True, comment="iotuner.space.config_key"),
    sa.Column("params", sa.Text, nullable=False, comment="JSON object"),
)

measurements = sa.Table(
    "measurements",
    metadata,
    sa.Column("id", sa.Integer, primary_key=True),
    sa.Column("uid", sa.Text, nullable=False, unique=True),
    sa.Column("run_id", sa.Integer, sa.ForeignKey("runs.id"), nullable=False, index=True),
    sa.Column("system_id", sa.Integer, sa.ForeignKey("systems.id"), nullable=False, index=True),
    sa.Column("configuration_id", sa.Integer, sa.ForeignKey("configurations.id"), nullable=False),
    sa.Column("space", sa.Text, nullable=False),
    *_workload_columns(),
    sa.Column("bandwidth", sa.Double, nullable=False, comment="MiB/s"),
    sa.Column("seconds", sa.Double, nullable=False),
    sa.Column("bytes", sa.BigInteger, nullable=False),
    sa.Column("repeat", sa.Integer, nullable=False),
    sa.Column("provenance", sa.Text, nullable=False, comment="JSON object"),
)

workloads = sa.Table(
    "workloads",
    metadata,
    sa.Column("id", sa.Integer, primary_key=True),
    sa.Column("uid", sa.Text, nullable=False, unique=True, comment="source sha256:group"),
    sa.Column("kind", sa.String(16), nullable=False, comment="the source's kind: darshan"),
    sa.Column("source", sa.Text, nullable=False, comment="path of the file read"),
    sa.Column("source_uid", sa.Text, nullable=False, index=True, comment="sha256 of the file"),
    sa.Column("name", sa.Text, nullable=False, comment="file name or pattern of the group"),
    sa.Column("files_in_group", sa.Integer, nullable=False),
    sa.Column("through_mpiio", sa.Boolean, nullable=False),
    # A Darshan log does not record the hosts, so nodes may be unknown here.
    *_workload_columns(nullable=("nodes",)),
    sa.Column("bytes", sa.BigInteger, nullable=False, comment="all ranks"),
    sa.Column("seconds", sa.Double, nullable=True, comment="empty: unknown"),
    sa.Column("bandwidth", sa.Double, nullable=True, comment="MiB/s; empty: unknown"),
    sa.Column("started_at", sa.Double, nullable=True, comment="Unix seconds"),
    sa.Column("meta", sa.Text, nullable=False, comment="JSON object: evidence, notes"),
)
"""What programs do, without a configuration to tie a bandwidth to: groups of files of
Darshan logs whose hints are not known (iotuner.ingest._darshan)."""


UPGRADES: dict[int, tuple[str, ...]] = {
    # 1 -> 2: calls per open. Older rows were made one call per open (the kernel of then)
    # or do not tell, which iotuner.measurement.Workload also reads as 1.
    1: ("ALTER TABLE measurements ADD COLUMN calls_per_open BIGINT NOT NULL DEFAULT 1",),
    # 2 -> 3: the fields that tell problems apart (issue 10). Older rows do not tell, and
    # NULL is what iotuner.measurement.Workload reads as unknown.
    2: (
        "ALTER TABLE measurements ADD COLUMN ranks_per_node INTEGER",
        "ALTER TABLE measurements ADD COLUMN files INTEGER",
        "ALTER TABLE measurements ADD COLUMN interleaved BOOLEAN",
        "ALTER TABLE measurements ADD COLUMN stripe_count INTEGER",
        "ALTER TABLE measurements ADD COLUMN stripe_size BIGINT",
        "ALTER TABLE measurements ADD COLUMN program TEXT",
    ),
    # 3 -> 4: the workloads table (Darshan logs without a known configuration). It is a
    # new table, which metadata.create_all makes before the upgrades run; nothing to alter.
    3: (),
    # 4 -> 5: the memory layout of a call (issue 41: the trace's access shape). Older rows
    # do not tell: NULL, unknown.
    4: (
        "ALTER TABLE measurements ADD COLUMN memory_block BIGINT",
        "ALTER TABLE workloads ADD COLUMN memory_block BIGINT",
    ),
}
"""The statements that take a store from schema version N to N + 1 (same on both backends)."""
