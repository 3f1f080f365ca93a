"""Database and storage URLs in what iotuner prints (issue 24, item 2): a password given in
a --db or --storage URL, in its user part or its query, never reaches the terminal, a
report or a search's record; a URL that does not parse (bad port, bracket, unknown
scheme) and a server that is not there are one "iotuner: error:" line, no traceback.

Each case runs the real command line in a process of its own, on real files and, where a
database is needed, the real PostgreSQL server of conftest.py.
"""

import csv
import json
import os
import socket
import subprocess
import sys
from pathlib import Path

import psycopg
import pytest
from psycopg import sql

from iotuner.cli._common import ERROR_STATUS
from tests.store.conftest import PostgresServer

IOTUNER = str(Path(sys.executable).parent / "iotuner")
SECRET = "hunter2-Sekr3t"
CLI_SECONDS = 120


def _iotuner(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("IOTUNER_")}
    env.update(XDG_DATA_HOME=str(cwd / "data"), XDG_STATE_HOME=str(cwd / "state"))
    env["COLUMNS"] = "300"  # rich wraps at 80 without a terminal
    return subprocess.run(
        [IOTUNER, *args],
        capture_output=True,
        text=True,
        timeout=CLI_SECONDS,
        cwd=cwd,
        env=env,
        check=False,
    )


def _refused(completed: subprocess.CompletedProcess[str]) -> str:
    """The error of a command that must fail cleanly, with no secret in anything printed."""
    printed = completed.stdout + completed.stderr
    assert SECRET not in printed, printed
    assert "Traceback" not in printed, printed
    assert completed.returncode == ERROR_STATUS, printed
    # A search's progress bar may come first.
    errors = [line for line in completed.stderr.splitlines() if line.startswith("iotuner: error: ")]
    assert len(errors) == 1, printed
    return errors[0]


def _closed_port() -> int:
    """A TCP port nothing listens on (bound then closed)."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
    return port


BAD_URLS = [
    f"postgresql://user:{SECRET}@nohost.invalid/x",
    f"postgresql://user@nohost.invalid/x?password={SECRET}",
    f"postgresql://user@nohost.invalid/x?PassWord={SECRET}&sslmode=disable",
    f"mysql://user:{SECRET}@nohost.invalid/x",
    f"postgresql://user:{SECRET}@nohost.invalid:99x/x",
    f"postgresql://user:{SECRET}@[nohost.invalid/x",
    f"postgresql://user:p@{SECRET}@nohost.invalid/x",
]


@pytest.mark.parametrize("url", BAD_URLS)
def test_db_never_prints_the_password(url: str, tmp_path: Path) -> None:
    err = _refused(_iotuner("db", "status", "--db", url, cwd=tmp_path))
    assert "***" in err


# Each case starts the report's Optuna import (2.5 s): two in the README's run, all in CI.
@pytest.mark.parametrize(
    "url", [*BAD_URLS[:2], *(pytest.param(url, marks=pytest.mark.slow) for url in BAD_URLS[2:])]
)
def test_report_storage_never_prints_the_password(url: str, tmp_path: Path) -> None:
    err = _refused(_iotuner("report", "--storage", url, "-o", "r.html", cwd=tmp_path))
    assert "cannot open the Optuna storage" in err
    assert not (tmp_path / "r.html").exists()


@pytest.mark.slow  # CI's (report's twin below stays)
@pytest.mark.parametrize("url", BAD_URLS)
def test_search_storage_never_prints_the_password(url: str, tmp_path: Path) -> None:
    table = _grid(tmp_path)
    err = _refused(_iotuner("search", "--objective", str(table), "--storage", url, cwd=tmp_path))
    assert "***" in err


def test_search_with_no_server_says_it_could_not_connect(tmp_path: Path) -> None:
    port = _closed_port()
    url = f"postgresql://user:{SECRET}@127.0.0.1:{port}/x"
    err = _refused(
        _iotuner("search", "--objective", str(_grid(tmp_path)), "--storage", url, cwd=tmp_path)
    )
    assert "could not connect" in err
    assert f"user:***@127.0.0.1:{port}/x" in err
    assert "Connection refused" in err


@pytest.mark.slow  # a PostgreSQL server's start; CI's
def test_a_real_server_shows_the_url_masked(
    postgres_server: PostgresServer, tmp_path: Path
) -> None:
    """The test server trusts every local user, so the password in the query is ignored
    by it: the store opens, and every line naming it shows *** instead."""
    database = f"secret_urls_{os.getpid()}"
    where = {"host": str(postgres_server.root), "port": postgres_server.port}
    with psycopg.connect(**where, dbname="postgres", user="iotuner", autocommit=True) as conn:
        conn.execute(sql.SQL("CREATE DATABASE {}").format(sql.Identifier(database)))
    url = postgres_server.url(database) + f"&password={SECRET}"
    status = _iotuner("db", "status", "--db", url, cwd=tmp_path)
    assert status.returncode == 0, status.stderr
    assert SECRET not in status.stdout + status.stderr
    assert "password=***" in status.stdout.splitlines()[0]

    table = _grid(tmp_path)
    search = _iotuner(
        "search", "--objective", str(table), "--strategy", "grid", "--storage", url, "--json",
        cwd=tmp_path,
    )  # fmt: skip
    assert search.returncode == 0, search.stderr
    assert SECRET not in search.stdout + search.stderr
    assert json.loads(search.stdout)["storage"].endswith("&password=***")
    assert "password=***" in search.stderr

    report = _iotuner("report", "--storage", url, "-o", "r.html", cwd=tmp_path)
    assert report.returncode == 0, report.stderr
    assert SECRET not in report.stdout + report.stderr
    html = (tmp_path / "r.html").read_text()
    assert SECRET not in html
    assert "password=***" in html


def _grid(tmp_path: Path) -> Path:
    """A 2 x 2 table for an offline search (no program to run)."""
    path = tmp_path / "grid.csv"
    with path.open("w", newline="") as stream:
        writer = csv.writer(stream)
        writer.writerow(["a", "b", "bandwidth"])
        writer.writerows([[a, b, a * 10 + b] for a in (1, 2) for b in (1, 2)])
    return path
