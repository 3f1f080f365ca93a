"""The configuration in force in a trace log: for each (file, seq) hint set, the hints in
force and the MPI-IO driver that served the file, from the log's `hints` records.

An op row names its hint set (its file and `hint_set`, the seq of a hints record, -1 for
none); the configuration in force for it is every key requested for the file up to that
record, with the value MPI last reported for it (configs_in_force), and its driver that
record's, else any other of the file's, else the log's one driver (driver_in_force).
"""

from collections.abc import Iterable, Mapping
from typing import Any

InForce = tuple[dict[tuple[str, int], dict[str, str]], dict[tuple[str, int], str]]
"""configs_in_force's answer: (file, seq) -> the configuration in force; -> the driver."""


def configs_in_force(hints: Iterable[dict[str, Any]]) -> InForce:
    """For each (file, seq) hint set: the configuration in force and the driver.

    RATIONALE: a hints record lists only the keys passed at its decision point (an access
    record only the keys the table changed there), so the keys in force are those requested
    by the file's records up to this one; their values are what MPI last reported.
    """
    by_file: dict[str, list[dict[str, Any]]] = {}
    for record in hints:
        by_file.setdefault(record["file"], []).append(record)
    configs: dict[tuple[str, int], dict[str, str]] = {}
    drivers: dict[tuple[str, int], str] = {}
    for name, records in by_file.items():
        requested: dict[str, str] = {}
        effective: dict[str, str] = {}
        for record in sorted(records, key=lambda r: r["seq"]):
            requested.update({str(k): str(v) for k, v in record["requested"].items()})
            effective.update({str(k): str(v) for k, v in record["effective"].items()})
            configs[(name, record["seq"])] = {k: effective.get(k, v) for k, v in requested.items()}
            drivers[(name, record["seq"])] = record["driver"] or "unknown"
    return configs, drivers


def driver_in_force(drivers: Mapping[tuple[str, int], str], hint_set: tuple[str, int]) -> str:
    """The driver of a (file, seq) hint set, given configs_in_force's drivers: its hints
    record's; else the one any other hints record of the file reported; else the log's,
    when all its hints records name the same; else "unknown"."""
    every = set(drivers.values())
    return (
        drivers.get(hint_set)
        or _file_driver(drivers, hint_set[0])
        or (every.pop() if len(every) == 1 else "unknown")
    )


def _file_driver(drivers: Mapping[tuple[str, int], str], name: str) -> str | None:
    """The driver any hints record of file `name` reported, or None."""
    return next((d for (f, _), d in drivers.items() if f == name and d != "unknown"), None)


def app_keys_by_file(hints: Iterable[dict[str, Any]]) -> dict[str, frozenset[str]]:
    """File -> the hints the program itself passed to MPI for it (the `app` keys of its
    hints records)."""
    asked: dict[str, set[str]] = {}
    for record in hints:
        asked.setdefault(record["file"], set()).update(record.get("app") or {})
    return {name: frozenset(keys) for name, keys in asked.items()}
