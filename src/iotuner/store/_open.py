"""Opening the knowledge base: a path or URL made an SQLAlchemy URL (SQLite or PostgreSQL
through psycopg 3), a new SQLite file and its folders made private, the schema created or
upgraded (open_store)."""

import re
from pathlib import Path
from typing import Any

import sqlalchemy as sa

from iotuner._dbpath import default_store_path
from iotuner._fileio import create_private_file, make_private_dirs
from iotuner._secrets import display_url, mask_secrets
from iotuner.store._store import Store
from iotuner.store._values import StoreError

__all__ = ["open_store"]

_URL_FORMS = "a file path, sqlite:///PATH or postgresql://[USER@]HOST/DATABASE"

_SLASHES = (
    "sqlite:///kb.sqlite is relative to the working directory and sqlite:////srv/kb.sqlite, "
    "with four slashes, absolute"
)

_SCHEME_ONLY = re.compile(r"(sqlite|postgres|postgresql)(\+\w+)?:", re.IGNORECASE)
"""A URL's scheme without the `//` that follows it: a slip, not a file name."""


def _url(url_or_path: str | Path | None) -> sa.URL:
    """The SQLAlchemy URL of a path, sqlite:///PATH or postgresql://... (psycopg 3)."""
    if url_or_path is None:
        url_or_path = default_store_path()
    text = str(url_or_path)
    if isinstance(url_or_path, Path) or "://" not in text:
        if not isinstance(url_or_path, Path) and _SCHEME_ONLY.match(text):
            raise StoreError(
                f"expected {_URL_FORMS} for the knowledge base, got {display_url(text)!r} "
                f"({_SLASHES})"
            )
        return sa.URL.create("sqlite", database=str(Path(text).expanduser()))
    try:
        url = sa.make_url(text)
        backend = url.get_backend_name()
    except (sa.exc.ArgumentError, ValueError) as exc:
        # A bad port (ValueError) or a bracket: SQLAlchemy's message may quote the URL.
        raise StoreError(
            f"expected {_URL_FORMS} for the knowledge base, got {display_url(text)!r}: "
            f"{mask_secrets(str(exc), text)}"
        ) from None
    if backend not in ("sqlite", "postgresql", "postgres"):
        raise StoreError(f"expected {_URL_FORMS} for the knowledge base, got {display_url(text)!r}")
    if backend == "sqlite":
        if url.get_driver_name() != "pysqlite":
            url = url.set(drivername="sqlite")
        return url
    return url.set(drivername="postgresql+psycopg")


def open_store(url_or_path: str | Path | None = None, *, make_folder: bool = True) -> Store:
    """Open (and on first use create) the knowledge base at a path or URL.

    A plain path or `sqlite:///PATH` is an SQLite file (sqlite:///kb.sqlite is relative to
    the working directory, sqlite:////srv/kb.sqlite absolute);
    `postgresql://USER[:PASSWORD]@HOST[:PORT]/DATABASE` (query `?host=/socket/dir` for a
    unix socket) is a PostgreSQL database reached through psycopg 3. None: the default
    path (default_store_path()). A new SQLite file is made 0600, its missing folders
    0700 (_fileio). An SQLite file's missing folder is made, unless
    `make_folder` is false: then StoreError names the folder. StoreError also when it
    cannot be opened or holds a schema this version does not know.
    """
    url = _url(url_or_path)
    if url.get_backend_name() == "sqlite" and url.database not in (None, "", ":memory:"):
        folder = Path(str(url.database)).parent
        if not make_folder and not folder.is_dir():
            raise StoreError(_no_folder(display_url(str(url_or_path)), str(url.database)))
        try:
            # Private, like the trace logs: the knowledge base holds paths and commands
            # (_fileio). A file: URI (?uri=true) is SQLite's to create.
            make_private_dirs(folder)
            if "uri" not in url.query:
                create_private_file(Path(str(url.database)))
        except OSError as exc:
            raise StoreError(f"cannot create {url.database} or its folder: {exc}") from None
    try:
        engine = sa.create_engine(url)
    except ImportError as exc:
        raise StoreError(
            f"no database driver for {url.get_backend_name()} ({exc}); "
            "PostgreSQL needs the psycopg package (pip install 'psycopg[binary]')"
        ) from None
    if url.get_backend_name() == "sqlite":
        sa.event.listen(engine, "connect", _sqlite_pragmas)
    store = Store(engine)
    try:
        store._create_schema()
    except BaseException:
        store.close()
        raise
    return store


def _no_folder(given: str, database: str) -> str:
    """Why the SQLite file `given` names cannot be made: its folder is missing."""
    folder = Path(database).parent
    what = "is not a folder" if folder.exists() else "does not exist"
    message = f"the folder {folder.absolute()} of the knowledge base {given} {what}"
    if given.lower().startswith("sqlite:") and not folder.is_absolute():
        # The likely slip: sqlite:///srv/kb.sqlite written for /srv/kb.sqlite.
        return (
            f"{message} (sqlite:///PATH is relative to the working directory; "
            f"for /{database} write sqlite:////{database})"
        )
    return f"{message}; create it, or name a file in an existing folder"


def _sqlite_pragmas(dbapi_connection: Any, _record: Any) -> None:
    cursor = dbapi_connection.cursor()
    cursor.execute("PRAGMA foreign_keys = ON")
    cursor.execute("PRAGMA busy_timeout = 30000")
    cursor.close()
