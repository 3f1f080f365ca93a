"""A one-line warning when the machine is busy before a command measures: with more
runnable processes than cores, every rank waits its turn and the figures measure the
other jobs as much as the configuration (bench, demo and `run --learn` call this).

The load is the kernel's one-minute average (os.getloadavg), the cores those this process
may run on (its affinity mask; a container's or a batch job's limit). The check runs once,
before the command starts its own ranks, which would count in the average themselves.
IOTUNER_TEST_LOADAVG replaces the kernel's figure, for the tests only: the real average
moves too slowly for a test to set it."""

import os
import sys

__all__ = ["TEST_VARIABLE", "busy_note", "usable_cores", "warn_if_busy"]

TEST_VARIABLE = "IOTUNER_TEST_LOADAVG"


def busy_note(load: float, cores: int) -> str | None:
    """The warning when the one-minute `load` exceeds `cores`, else None."""
    if not load > cores:  # also a NaN load: nothing known, nothing said
        return None
    return (
        f"the machine is busy (load average {load:.1f} over the last minute on {cores} "
        f"core{'s' if cores != 1 else ''}): measurements taken now are noise; run when "
        "the load is below the cores"
    )


def usable_cores() -> int:
    """The cores this process may run on."""
    try:
        return len(os.sched_getaffinity(0))
    except (AttributeError, OSError):  # not on Linux
        return os.cpu_count() or 1


def _load() -> float | None:
    given = os.environ.get(TEST_VARIABLE)
    if given is not None:
        try:
            return float(given)
        except ValueError:
            return None
    try:
        return os.getloadavg()[0]
    except (AttributeError, OSError):  # no load average on this system
        return None


def warn_if_busy() -> bool:
    """Say on stderr, in one line, when the machine is busy; whether it said so."""
    load = _load()
    note = None if load is None else busy_note(load, usable_cores())
    if note is not None:
        print(f"iotuner: warning: {note}", file=sys.stderr)
    return note is not None
