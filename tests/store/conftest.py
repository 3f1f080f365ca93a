"""Fixtures for the knowledge-base tests: every test that takes `store` runs twice, on an
SQLite file and on a real PostgreSQL server that this module starts for the session.

The server is a throw-away cluster in a temporary folder, reached only through a unix
socket in that folder (no TCP), with fsync off. initdb refuses to run as root, so as root
(CI) the server commands run as the `postgres` user. Without PostgreSQL's programs
(initdb, pg_ctl, postgres on PATH or in /usr/lib/postgresql/*/bin) the PostgreSQL half is
skipped and says why.
"""

import glob
import os
import pwd
import shutil
import socket
import subprocess
import tempfile
from collections.abc import Iterator
from dataclasses import dataclass
from itertools import count
from pathlib import Path
from typing import Any, LiteralString

import pytest

from iotuner.measurement import Measurement, System, Workload, measurement_to_json
from iotuner.store import Store, open_store

DATA = Path(__file__).resolve().parent.parent / "data"
SAMPLE_LOG = DATA / "ior-20250101-120000-4242-0123456789ab.iotrace.jsonl"
PG_TIMEOUT = 60
"""Seconds the server may take to start or stop."""

SYSTEM_A = System("node01", "MPICH Version: 4.1.2", "ext4", "ufs", "/")
SYSTEM_B = System("cluster", "Open MPI 5.0.3", "lustre", "lustre", "/scratch")


@dataclass
class PostgresServer:
    """A running PostgreSQL cluster of our own."""

    bindir: Path
    root: Path
    port: int
    as_user: list[str]

    def url(self, database: str) -> str:
        return f"postgresql://iotuner@/{database}?host={self.root}&port={self.port}"


def _pg_bindir() -> Path | None:
    """The folder with initdb, pg_ctl and postgres: from PATH, else the newest Debian one."""
    found = shutil.which("pg_ctl")
    candidates = [str(Path(found).resolve().parent)] if found else []
    candidates += sorted(
        glob.glob("/usr/lib/postgresql/*/bin"),
        key=lambda d: int(Path(d).parent.name) if Path(d).parent.name.isdigit() else 0,
        reverse=True,
    )
    for folder in candidates:
        if all((Path(folder) / name).is_file() for name in ("initdb", "pg_ctl", "postgres")):
            return Path(folder)
    return None


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def _run(command: list[str], cwd: Path) -> None:
    completed = subprocess.run(
        command,
        cwd=cwd,
        env={**os.environ, "LC_ALL": "C", "LANG": "C"},
        capture_output=True,
        text=True,
        timeout=PG_TIMEOUT,
        check=False,
    )
    if completed.returncode != 0:
        raise RuntimeError(
            f"{' '.join(command)} failed ({completed.returncode}):\n"
            f"{completed.stdout}{completed.stderr}"
        )


@pytest.fixture(scope="session")
def postgres_server() -> Iterator[PostgresServer]:
    bindir = _pg_bindir()
    if bindir is None:
        pytest.skip(
            "PostgreSQL is not installed (no initdb, pg_ctl and postgres on PATH or in "
            "/usr/lib/postgresql/*/bin; on Debian: apt-get install postgresql)"
        )
    as_user: list[str] = []
    owner = None
    if os.geteuid() == 0:
        try:
            owner = pwd.getpwnam("postgres")
        except KeyError:
            pytest.skip("running as root, and there is no 'postgres' user to run PostgreSQL as")
        if shutil.which("runuser"):
            as_user = ["runuser", "-u", "postgres", "--"]
        elif shutil.which("setpriv"):
            as_user = ["setpriv", f"--reuid={owner.pw_uid}", f"--regid={owner.pw_gid}"]
            as_user += ["--init-groups", "--"]
        else:
            pytest.skip("running as root, and neither runuser nor setpriv is there to drop it")
    root = Path(tempfile.mkdtemp(prefix="iotuner-pg-"))
    if owner is not None:
        os.chown(root, owner.pw_uid, owner.pw_gid)
    data = root / "data"
    server = PostgresServer(bindir, root, _free_port(), as_user)
    started = False
    try:
        initdb = [str(bindir / "initdb"), "-D", str(data), "-U", "iotuner", "-A", "trust"]
        _run([*as_user, *initdb, "-E", "UTF8", "--locale=C", "--no-sync"], root)
        with (data / "postgresql.conf").open("a") as conf:
            conf.write(
                f"port = {server.port}\nlisten_addresses = ''\n"
                f"unix_socket_directories = '{root}'\n"
                "fsync = off\nsynchronous_commit = off\nfull_page_writes = off\n"
            )
        pg_ctl = [*as_user, str(bindir / "pg_ctl"), "-D", str(data), "-w", "-t", str(PG_TIMEOUT)]
        _run([*pg_ctl, "-l", str(root / "server.log"), "start"], root)
        started = True
        yield server
    finally:
        if started:
            _run([*pg_ctl, "-m", "immediate", "stop"], root)
        shutil.rmtree(root, ignore_errors=True)


_databases = count()


@pytest.fixture(params=["sqlite", "postgresql"])
def store_url(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    """Where a fresh, empty knowledge base is: an SQLite file, or a new PostgreSQL database."""
    if request.param == "sqlite":
        yield str(tmp_path / "kb" / "knowledge.sqlite")
        return
    import psycopg
    from psycopg import sql

    server: PostgresServer = request.getfixturevalue("postgres_server")
    database = f"test_{os.getpid()}_{next(_databases)}"

    def admin(statement: LiteralString) -> None:
        where = {"host": str(server.root), "port": server.port, "dbname": "postgres"}
        with psycopg.connect(**where, user="iotuner", autocommit=True) as conn:
            conn.execute(sql.SQL(statement).format(sql.Identifier(database)))

    admin("CREATE DATABASE {}")
    yield server.url(database)
    admin("DROP DATABASE {} WITH (FORCE)")


@pytest.fixture
def store(store_url: str) -> Iterator[Store]:
    """An open, empty knowledge base on each backend."""
    with open_store(store_url) as opened:
        yield opened


def workload(**changes: object) -> Workload:
    """A small collective write workload, with any field changed."""
    fields: dict[str, Any] = {"nprocs": 2, "nodes": 1, "pattern": "collective", "op": "write"}
    fields.update(layout="contiguous", bytes_per_rank=65536)
    fields.update(changes)
    return Workload(**fields)


def measurement(
    uid: str,
    bandwidth: float,
    config: dict[str, str | int] | None = None,
    repeat: int = 0,
    **workload_changes: object,
) -> Measurement:
    w = workload(**workload_changes)
    return Measurement(
        uid=uid,
        workload=w,
        config=config or {},
        bandwidth=bandwidth,
        seconds=w.bytes_per_rank * w.nprocs / 1048576 / bandwidth,
        bytes=w.bytes_per_rank * w.nprocs,
        repeat=repeat,
        provenance={"bench_run": "sweep1", "test": True},
    )


def bench_lines(*measurements: Measurement, system: System = SYSTEM_A) -> list[str]:
    return [measurement_to_json(m, system, "romio-ufs") for m in measurements]
