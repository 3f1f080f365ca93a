"""The results file of a sweep: bench result lines (iotuner.measurement), one per
measurement, appended and synced to storage as each is made. Read back for a resume and for
the knowledge base (read_results, read_result_records); a last line torn by a kill is cut off
before a run appends to it (repair_results)."""

import os
from pathlib import Path
from typing import IO, TYPE_CHECKING, Any

from iotuner.errors import ConfigError
from iotuner.measurement import Measurement, measurement_from_json

if TYPE_CHECKING:
    from iotuner.store import Record

__all__ = ["read_result_records", "read_results", "repair_results", "sync"]


def read_results(results: Path) -> list[Measurement]:
    """The measurements of a results file (none when it does not exist); ConfigError
    naming the line that is not a bench result."""
    return [m for m, _, _ in read_result_records(results)]


def read_result_records(results: Path) -> list["Record"]:
    """The measurements of a results file with the system each was made on and its
    space's name (none when the file does not exist); ConfigError naming the line that is
    not a bench result."""
    if not results.exists():
        return []
    records = []
    for number, line in enumerate(results.read_text().splitlines(), start=1):
        if not line.strip():
            continue
        try:
            records.append(measurement_from_json(line))
        except ValueError as exc:
            raise ConfigError(f"{results} line {number}: {exc}") from None
    return records


def repair_results(results: Path) -> str:
    """Cut off the last line of `results` when a kill tore it (no newline at its end, and
    not a whole bench result): its measurement is not kept and is measured again. Returns
    what was done, in a sentence ("" when the file was whole).

    RATIONALE: lines are appended; one left torn would be glued to the next line written,
    and the file would then hold a line that is neither, which stops every later resume
    and ingest. A whole line without its newline only gets the newline."""
    if not results.exists():
        return ""
    with results.open("rb+") as file:
        data = file.read()
        if not data or data.endswith(b"\n"):
            return ""
        start = data.rfind(b"\n") + 1
        try:
            measurement_from_json(data[start:].decode("utf-8"))
        except (UnicodeDecodeError, ValueError):
            file.truncate(start)
            sync(file)
            return (
                f"{results}: removed a partial last line ({len(data) - start} bytes, written "
                f"when a run was killed): its measurement is made again"
            )
        file.write(b"\n")
        sync(file)
    return ""


def sync(file: IO[Any]) -> None:
    """Flush `file` and make it durable: the results file is the record of what was
    measured, written before the knowledge base (see iotuner.bench._jobs, KernelJobs._job)."""
    file.flush()
    os.fsync(file.fileno())
