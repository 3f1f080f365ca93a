"""A finding: one fact of a log that costs time, with the counters it rests on."""

from dataclasses import dataclass

__all__ = ["FIRST", "LEVELS", "Finding", "ordered"]

LEVELS = ("critical", "warning", "info")
"""The levels, loudest first."""

FIRST = ("job.partial", "job.time_doubtful")
"""Findings about the log itself, in this order: each qualifies every finding after it
("may undercount", "an upper bound"), so they lead whatever their level."""


@dataclass(frozen=True)
class Finding:
    """One diagnosis.

    code: a stable id ("imbalance.stragglers"); level: one of LEVELS; module: the layer it
    was read from ("POSIX", "MPI-IO", "HDF5", "PnetCDF", "DFS", "DAOS", "STDIO", "DXT",
    "LUSTRE", "job"); subject: the file, group or "job" it is about; words: one sentence
    with the numbers; counters: the counters and values it rests on (summed over the records
    named in `words` unless the name says otherwise); action: what to do ("" if nothing);
    seconds: the time at stake (what the mean rank could save, or the slowest rank's lead),
    when the log gives times, else None.
    """

    code: str
    level: str
    module: str
    subject: str
    words: str
    counters: dict[str, float]
    action: str
    seconds: float | None


def ordered(findings: list[Finding]) -> list[Finding]:
    """Statements about the log first (FIRST), then the most important: by level, then by
    time at stake (unknown last), then code."""
    return sorted(
        findings,
        key=lambda f: (
            FIRST.index(f.code) if f.code in FIRST else len(FIRST),
            LEVELS.index(f.level) if f.level in LEVELS else len(LEVELS),
            -(f.seconds or 0.0) if f.seconds is not None else 1.0,
            f.code,
            f.subject,
        ),
    )
