"""The results file of an archive run (ResultsFile): JSON Lines, one row per log, each row
written and fsynced as it comes. A rerun with the same file skips the logs it holds already (the
same log_key: path, size and modification time) and cuts a last line torn by a crash.

row_problem is the one definition of a row (its fields, types and ranges): the rows written are
checked with it, and every reader (a resumed run, read_results for the report) reads with it."""

import contextlib
import json
import math
import os
from pathlib import Path
from typing import Any

from iotuner._fileio import create_private_file
from iotuner._inputs import InputError, checked_input
from iotuner.errors import IotunerError

__all__ = [
    "INT_RANGE",
    "NOT_STATED",
    "RESULTS_LIMIT",
    "ArchiveError",
    "ResultsFile",
    "log_key",
    "parse_results",
    "read_results",
    "row_problem",
]


class ArchiveError(IotunerError):
    """An archive run that cannot go on: an unreadable list or results file."""


NOT_STATED = -1
"""Size and modification time of a log that cannot be stat'ed (a dangling link, a listed
path that is missing): its row is an error row, and a rerun that still cannot stat it
takes that row back instead of trying again."""


def log_key(path: Path) -> tuple[str, int, int]:
    """What identifies a log across runs: its absolute path, size and modification time
    (ns); NOT_STATED for the last two when it cannot be stat'ed."""
    name = os.path.abspath(path)
    try:
        info = os.stat(name)
    except OSError:
        return name, NOT_STATED, NOT_STATED
    return name, info.st_size, info.st_mtime_ns


class ResultsFile:
    """The rows of an archive run, one JSON line per log, appended and fsynced one by one.

    Opening reads the rows already there (`rows`, by log_key) and cuts a last line a crash
    tore (no newline, or not JSON); a damaged line before the last is an error: the file
    is not one this class wrote."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.rows: dict[tuple[str, int, int], dict[str, Any]] = {}
        if not path.exists():
            create_private_file(path)
        self._read()
        self._fd = os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CLOEXEC)

    def _read(self) -> None:
        self.rows, good_end, size = parse_results(self.path, "--results")
        if good_end < size:
            with self.path.open("r+b") as f:
                f.truncate(good_end)
                f.flush()
                os.fsync(f.fileno())

    def append(self, row: dict[str, Any]) -> None:
        line = (json.dumps(row, allow_nan=False) + "\n").encode()
        os.write(self._fd, line)
        os.fsync(self._fd)

    def close(self) -> None:
        with contextlib.suppress(OSError):
            os.close(self._fd)


def read_results(path: Path) -> list[dict[str, Any]]:
    """The rows of an archive run's results file (ResultsFile), read only: a torn last line
    is left out (and left in the file). ArchiveError when it is no such file."""
    try:
        checked_input(path, "the results file of an `iotuner advise` archive run", RESULTS_LIMIT)
    except InputError as exc:
        raise ArchiveError(str(exc)) from None
    return list(parse_results(path, "--archive")[0].values())


RESULTS_LIMIT = 4 << 30
"""The largest results file read back (a few KiB a log with every finding in it, 10 KiB at
most on the shipped examples: about a million logs)."""


INT_RANGE = (-(1 << 63), (1 << 63) - 1)
"""The integers a row holds: 64-bit, as the sizes, times and counts they come from. A
larger one (a damaged or hand-made file) is out of range, not a float overflow later."""


def _number(value: Any, low: float = 0.0) -> bool:
    """A finite JSON number at least `low` that float() takes (not a bool)."""
    if isinstance(value, bool) or not isinstance(value, int | float):
        return False
    if isinstance(value, int) and not INT_RANGE[0] <= value <= INT_RANGE[1]:
        return False
    return math.isfinite(value) and value >= low


def _integer(value: Any, low: int) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and low <= value <= INT_RANGE[1]


def _finding_ok(f: Any) -> bool:
    """A finding as _top_findings writes it (diagnose.Finding): the fields the pages show."""
    return (
        isinstance(f, dict)
        and isinstance(f.get("code"), str)
        and isinstance(f.get("level"), str | None)
        and all(isinstance(f.get(k, ""), str) for k in ("words", "action", "subject", "module"))
        and isinstance(f.get("counters", {}), dict)
        and all(_number(v, -math.inf) for v in f.get("counters", {}).values())
        and (f.get("seconds") is None or _number(f["seconds"]))
    )


def _advice_ok(a: Any) -> bool:
    """One recommendation as _summary writes it."""
    interval = a.get("interval") if isinstance(a, dict) else None
    return (
        isinstance(a, dict)
        and isinstance(a.get("group"), str)
        and isinstance(a.get("op"), str)
        and isinstance(a.get("hints", {}), dict)
        and isinstance(a.get("reason", ""), str)
        and (
            interval is None
            or (
                isinstance(interval, list)
                and len(interval) == 2
                and all(_number(x) for x in interval)
            )
        )
    )


def row_problem(row: Any) -> str | None:
    """What makes `row` no row of an archive run (the fields the ranking, the pages and a
    resumed run read, with their types and ranges), or None. This is the one definition of
    a row: advise_log checks what it writes with it, and every reader reads with it."""
    if not isinstance(row, dict):
        return f"a JSON {type(row).__name__}, not an object"
    error = row.get("status") == "error"
    # A log that could not be stat'ed has NOT_STATED for both; only its error row says so.
    unstated = error and row.get("size") == row.get("mtime_ns") == NOT_STATED
    checks: list[tuple[str, bool]] = [
        ("path", isinstance(row.get("path"), str)),
        ("size", unstated or _integer(row.get("size"), 0)),
        ("mtime_ns", unstated or _integer(row.get("mtime_ns"), INT_RANGE[0])),
        ("status", row.get("status") in ("ok", "error")),
    ]
    if error:
        checks.append(("error", isinstance(row.get("error"), str)))
    elif row.get("status") == "ok":
        findings, advice = row.get("findings"), row.get("advice")
        checks += [
            ("program", isinstance(row.get("program"), str)),
            ("nprocs", _integer(row.get("nprocs"), 1)),
            ("io_seconds", _number(row.get("io_seconds"))),
            ("io_core_hours", _number(row.get("io_core_hours"))),
            ("io_basis", isinstance(row.get("io_basis"), str)),
            ("run_seconds", row.get("run_seconds") is None or _number(row["run_seconds"])),
            (
                "save_core_hours",
                row.get("save_core_hours") is None or _number(row["save_core_hours"]),
            ),
            ("findings", isinstance(findings, list) and all(map(_finding_ok, findings))),
            ("advice", isinstance(advice, list) and all(map(_advice_ok, advice))),
        ]
    wrong = [name for name, ok in checks if not ok]
    return f"wrong, out of range or missing: {', '.join(wrong)}" if wrong else None


def parse_results(
    path: Path, option: str
) -> tuple[dict[tuple[str, int, int], dict[str, Any]], int, int]:
    """The rows of a results file by log_key, the end of its last whole line, its size."""
    try:
        data = path.read_bytes()
    except OSError as exc:
        raise ArchiveError(
            f"{option} {path}: cannot read it ({exc.strerror}; expected a JSON Lines file "
            "of an earlier archive run, or no file)"
        ) from None
    rows: dict[tuple[str, int, int], dict[str, Any]] = {}
    # Complete lines end with a newline; what follows the last one is a torn write.
    *complete, _torn = data.split(b"\n")
    good_end = 0
    for number, line in enumerate(complete, 1):
        if line.strip():
            try:
                row = json.loads(line)
                wrong = row_problem(row)
            except (ValueError, RecursionError):
                row, wrong = None, "not JSON"
            if wrong is not None:
                if number == len(complete) and row is None:
                    # A last line the crash left unparsable (zeros a file system filled
                    # in): cut too. A whole JSON line was written whole: its figures are
                    # refused like any other line's, not dropped unsaid.
                    break
                raise ArchiveError(
                    f"{option} {path}: line {number} is not a row of an archive run ({wrong}; "
                    "expected one JSON object per log with path, size, mtime_ns, status and "
                    "what the status needs)"
                ) from None
            rows[(row["path"], row["size"], row["mtime_ns"])] = row
        good_end += len(line) + 1
    return rows, good_end, len(data)
