"""ompio_map.def and ompio_job.def: what Open MPI's OMPIO gets for a table's keys, per
file (the interposer's mapping) and per job only (MCA parameters, SAFE or UNSAFE)."""

import functools
from dataclasses import dataclass
from pathlib import Path

from iotuner.errors import FormatError
from iotuner.formats._hints import hint_vocabulary
from iotuner.formats._reader import check_type, formats_dir, invocations


@dataclass(frozen=True)
class OmpioJobSetting:
    """A table key=value Open MPI's OMPIO sets only per job (ompio_job.def)."""

    key: str
    value: str
    parameter: str
    mca_value: str
    safe: bool
    evidence: str


def parse_ompio_job(path: Path) -> tuple[OmpioJobSetting, ...]:
    """Parse and check an ompio_job.def file (keys of the hint vocabulary, SAFE or UNSAFE)."""
    settings = []
    vocabulary = hint_vocabulary()
    for line, args in invocations(path, "IOT_OMPIO_JOB", "wswsws"):
        key, value, parameter, mca_value, safety, evidence = (str(a) for a in args)
        if key not in vocabulary:
            raise FormatError(f"{path} line {line}: {key} is not a key of hints.def")
        check_type(path, line, key, safety, frozenset({"SAFE", "UNSAFE"}))
        settings.append(
            OmpioJobSetting(key, value, parameter, mca_value, safety == "SAFE", evidence)
        )
    return tuple(settings)


def parse_ompio_map(path: Path) -> dict[tuple[str, str], tuple[str, str]]:
    """Parse and check an ompio_map.def file: (key, value) -> (OMPIO key, value), both
    keys of the hint vocabulary."""
    found: dict[tuple[str, str], tuple[str, str]] = {}
    vocabulary = hint_vocabulary()
    for line, args in invocations(path, "IOT_OMPIO_MAP", "wswss"):
        key, value, ompio_key, ompio_value = (str(a) for a in args[:4])
        for name in (key, ompio_key):
            if name not in vocabulary:
                raise FormatError(f"{path} line {line}: {name} is not a key of hints.def")
        found[(key, value)] = (ompio_key, ompio_value)
    return found


@functools.cache
def ompio_job_settings() -> tuple[OmpioJobSetting, ...]:
    """The job-level OMPIO settings of ompio_job.def, in order."""
    return parse_ompio_job(formats_dir() / "ompio_job.def")


@functools.cache
def ompio_map() -> dict[tuple[str, str], tuple[str, str]]:
    """ompio_map.def: a table's (key, value) -> what OMPIO gets per file."""
    return parse_ompio_map(formats_dir() / "ompio_map.def")
