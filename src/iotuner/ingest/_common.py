"""What every kind of ingest shares: its error, its result, reading the file, and the one
transaction that stores a run with its new measurements."""

import hashlib
import os
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from iotuner._inputs import InputError, checked_input, read_bounded_bytes
from iotuner.errors import IotunerError
from iotuner.measurement import (
    System,
)
from iotuner.store import Record, Store

MIB = 1024 * 1024

MAX_MEASUREMENTS_FILE_BYTES = 256 * MIB
"""The largest CSV or bench results file read. RATIONALE: such a file is read whole and
every row becomes a measurement held in memory until the one transaction (a few KiB of
Python objects each); at 100-1000 bytes a row this is 0.25 to 2.5 million rows, more than
any sweep writes, while a larger file would take several GiB to hold."""


class IngestError(IotunerError):
    """A file to ingest, or a CSV mapping, is not what was expected."""


@dataclass(frozen=True)
class IngestResult:
    """What ingesting one file did.

    `read`: rows that could be measurements (op rows, result lines, CSV rows); `added`: new
    measurements stored; `skipped`: rows whose measurement was already stored; `ignored`:
    rows that are no measurement (a trace row with duration 0 has no bandwidth);
    `detail`: what a user should know of how the file was read (e.g. the system a Darshan
    log's measurements were put on), empty if nothing.
    """

    path: Path
    kind: str
    read: int
    added: int
    skipped: int
    ignored: int = 0
    detail: str = ""


def read_input(path: Path, what: str, max_bytes: int) -> bytes:
    """The bytes of a regular file of at most `max_bytes` (iotuner._inputs); IngestError
    naming the file and `what` was expected otherwise (a FIFO, a device, a directory, a
    file too large)."""
    try:
        return read_bounded_bytes(path, what, max_bytes)
    except InputError as exc:
        raise IngestError(str(exc)) from None


def hash_input(path: Path, what: str, max_bytes: int) -> str:
    """The sha256 of a regular file of at most `max_bytes`, read in pieces (a Darshan log
    is parsed by its reader, never held whole here); IngestError as read_input."""
    try:
        checked_input(path, what, max_bytes)
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | os.O_CLOEXEC)
    except InputError as exc:
        raise IngestError(str(exc)) from None
    except OSError as exc:
        raise IngestError(f"{path}: cannot read it ({exc.strerror}; expected {what})") from None
    digest = hashlib.sha256()
    seen = 0
    try:
        with os.fdopen(fd, "rb") as source:
            while piece := source.read(MIB):
                seen += len(piece)
                if seen > max_bytes:
                    raise IngestError(f"{path}: grew while read (expected {what})")
                digest.update(piece)
    except OSError as exc:
        raise IngestError(f"{path}: cannot read it ({exc.strerror}; expected {what})") from None
    return digest.hexdigest()


def decode_text(path: Path, data: bytes) -> str:
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise IngestError(
            f"{path}: expected UTF-8 text ({exc.reason} at byte {exc.start})"
        ) from None


def commit_run(
    store: Store,
    path: Path,
    kind: str,
    run_uid: str,
    records: Sequence[Record],
    ignored: int,
    *,
    program: str | None = None,
    system: System | None = None,
    meta: Mapping[str, Any] | None = None,
    started_at: float | None = None,
) -> IngestResult:
    """Store the run and its new measurements in one transaction.

    A run is recorded when it brings a new measurement (or was recorded before), so
    ingesting a known file again leaves no empty run behind.
    """
    read = len(records) + ignored
    with store.transaction():
        known = store.known_uids(m.uid for m, _, _ in records)
        if len(known) == len({m.uid for m, _, _ in records}) and store.run_id(run_uid) is None:
            return IngestResult(path, kind, read, 0, len(records), ignored)
        run_id = store.add_run(
            run_uid,
            kind,
            str(path),
            program=program,
            system=system,
            meta=meta,
            started_at=started_at,
        )
        added = store.add_records(run_id, records)
    return IngestResult(path, kind, read, added, len(records) - added, ignored)
