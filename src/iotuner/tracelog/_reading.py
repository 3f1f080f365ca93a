"""Reading a trace log: `read_tracelog`, one pass over the file, each line checked
(`_checks`) and kept as it comes (`_records`), the file's SHA-256 taken on the way.

Refused up front: anything but a regular file, and a file over TRACE_LOG_MAX_BYTES. The
first problem is reported alone, as one TraceLogError naming the file and line.
"""

import hashlib
import json
import os
import stat
from pathlib import Path
from typing import Any, BinaryIO, NoReturn

from iotuner._inputs import InputError, checked_input
from iotuner._safejson import loads_json
from iotuner.errors import TraceLogError
from iotuner.formats import limits
from iotuner.tracelog._checks import _RECORD_KEYS, _check_record, _kind_of, _op_values, _shown
from iotuner.tracelog._records import OpRows, TraceLog

TRACE_LOG_MAX_BYTES = 16 * limits()["LOG_MAX_BYTES"]
"""The largest trace log read (1 GiB); a larger file is refused up front.

RATIONALE: the interposer keeps at most LOG_MAX_BYTES of text per rank (64 MiB unless
IOTUNER_LOG_MAX_BYTES says otherwise) and most rows are rank 0's, so a real log of a
16-rank job at the defaults stays within this. The reader keeps about 0.6 bytes of memory
per byte of log (op rows as columns: 60 MB for a 100 MB log), so a log at the limit still
reads in some 600 MB; a file many times larger is no trace log of ours (or needs a raised
limit, not more patience).
"""


def read_tracelog(path: Path | str, *, allow_incomplete: bool = False) -> TraceLog:
    """Read and check a trace log; TraceLogError names the file, line and what was expected.

    Refused up front: anything but a regular file, and a file over TRACE_LOG_MAX_BYTES.
    Then each line, as it is read, must be one record of formats/trace_records.def (op:
    trace_op_fields.def) with values of the right types and in the ranges the format
    allows (_RANGES, _CHOICES), after the `job` record on line 1. A log without its `end`
    record is incomplete (the interposer renames a log into place only once written whole)
    and is an error unless `allow_incomplete`.

    RATIONALE: unlike a table, a log is written by a program, so the first problem is
    reported alone: it points at the bug, and the rest of the file often follows from it.
    The file is read once, line by line, with its SHA-256 taken on the way (ingest's run
    uid), and op rows are kept as columns (OpRows): memory grows with the rows' numbers,
    not with their text.
    """
    path = Path(path)
    try:
        checked_input(path, "a trace log", TRACE_LOG_MAX_BYTES)
    except InputError as exc:
        raise TraceLogError(f"cannot read {exc}") from None
    reader = _Reader(path)
    try:
        # O_NONBLOCK: should a FIFO take the file's place after the check, opening it
        # returns at once instead of waiting for a writer; fstat then refuses it.
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | os.O_CLOEXEC)
        with os.fdopen(fd, "rb") as source:
            if not stat.S_ISREG(os.fstat(source.fileno()).st_mode):
                raise TraceLogError(f"cannot read {path}: not a regular file any more")
            reader.read(source)
    except OSError as exc:
        raise TraceLogError(f"cannot read {path}: {exc.strerror or exc}") from None
    return reader.log(allow_incomplete)


class _Reader:
    """One reading of a trace log: the records so far, checked as they come."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.number = 0
        self.nprocs = 0
        self.job: dict[str, Any] | None = None
        self.end: dict[str, Any] | None = None
        self.ops = OpRows()
        self.others: dict[str, list[dict[str, Any]]] = {kind: [] for kind in _RECORD_KEYS}
        self.hint_sets: set[tuple[str, int]] = set()
        self.op_hint_sets: dict[tuple[str, int], int] = {}
        """(file, hint_set) of the op rows -> the first line naming it."""
        self.digest = hashlib.sha256()

    def where(self, number: int | None = None) -> str:
        return f"{self.path} line {self.number if number is None else number}"

    def fail(self, message: str) -> NoReturn:
        raise TraceLogError(f"{self.where()}: {message}")

    def read(self, source: BinaryIO) -> None:
        read = 0
        for number, line in enumerate(source, start=1):
            read += len(line)
            if read > TRACE_LOG_MAX_BYTES:
                raise TraceLogError(
                    f"{self.path}: grew past {TRACE_LOG_MAX_BYTES} bytes while read "
                    "(expected a trace log, which is written whole before it is renamed)"
                )
            self.digest.update(line)
            self.number = number
            self.take(line)

    def take(self, line: bytes) -> None:
        """Check one line and keep its record."""
        if self.end is not None:
            self.fail("nothing may follow the 'end' record")
        record = self.decode(line)
        kind = record["record"]
        if (self.number == 1) != (kind == "job"):
            expected = "the 'job' record" if self.number == 1 else "one 'job' record, on line 1"
            self.fail(f"expected {expected}, got a {kind!r} record")
        if kind == "op":
            values = _op_values(record, self.nprocs, self.ops.texts)
            if values is None:
                _check_record(self.where(), "op", record, self.nprocs)
                self.fail(f"op record: not as formats/trace_op_fields.def says: {_shown(record)}")
            self.ops.append_values(values, self.number)
            hint_set = (record["file"], record["hint_set"])
            if hint_set[1] != -1 and hint_set not in self.op_hint_sets:
                self.op_hint_sets[hint_set] = self.number
            return
        _check_record(self.where(), kind, record, self.nprocs)
        if kind == "job":
            self.job, self.nprocs = record, record["nprocs"]
        elif kind == "end":
            self.end = record
        elif kind == "hints":
            hint_set = (record["file"], record["seq"])
            if hint_set in self.hint_sets:
                self.fail(f"a second hints record for file {hint_set[0]!r} seq {hint_set[1]}")
            self.hint_sets.add(hint_set)
        self.others[kind].append(record)

    def decode(self, line: bytes) -> dict[str, Any]:
        """One line as a record: a JSON object with a known `record` key."""
        try:
            text = line.decode("utf-8")
        except UnicodeDecodeError as exc:
            self.fail(
                f"expected UTF-8 text, got byte {line[exc.start : exc.start + 1]!r} at "
                f"column {exc.start + 1}"
            )
        try:
            record = loads_json(text)
        except json.JSONDecodeError as exc:
            self.fail(f"not valid JSON ({exc.msg} at column {exc.colno})")
        except ValueError as exc:  # e.g. an integer of more than 4300 digits
            self.fail(f"not valid JSON ({exc})")
        if type(record) is not dict:
            self.fail(f"expected a JSON object, got {_kind_of(record)}: {_shown(record)}")
        kind = record.get("record")
        if type(kind) is not str or (kind != "op" and kind not in _RECORD_KEYS):
            known = ", ".join(["op", *_RECORD_KEYS])
            got = _shown(kind) if "record" in record else "no 'record' key"
            self.fail(f"'record' must be one of {known}, got {got}")
        return record

    def log(self, allow_incomplete: bool) -> TraceLog:
        """The log read, once the checks that need all of it pass."""
        if self.job is None:
            raise TraceLogError(f"{self.path}: empty file, expected a 'job' record on line 1")
        # Checked once all are read: the writer need not put a hints record before its ops.
        missing = [
            (number, hint_set)
            for hint_set, number in self.op_hint_sets.items()
            if hint_set not in self.hint_sets
        ]
        if missing:
            number, (name, seq) = min(missing)
            raise TraceLogError(
                f"{self.where(number)}: hint_set {seq} of file {name!r} names no hints "
                f"record (expected a seq of one, or -1)"
            )
        if self.end is None and not allow_incomplete:
            raise TraceLogError(
                f"{self.path}: incomplete log, expected an 'end' record on the last line"
            )
        return TraceLog(
            path=self.path,
            job=self.job,
            hints=self.others["hints"],
            ops=self.ops,
            files=self.others["file"],
            metas=self.others["meta"],
            end=self.end,
            no_entries=self.others["no_entry"],
            sha256=self.digest.hexdigest(),
        )
