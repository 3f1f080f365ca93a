"""What in a program's I/O costs time, read from a Darshan log: findings, each tied to the
counters it rests on (iotuner.diagnose._darshan), with every threshold in one place
(iotuner.diagnose._thresholds).

diagnose_darshan(log) takes the plain data of iotuner.ingest's Darshan reader (a
DarshanJob's `log`); diagnose_job(job) is the same for a DarshanJob.
"""

from iotuner.diagnose._darshan import diagnose_darshan
from iotuner.diagnose._finding import FIRST, LEVELS, Finding, ordered
from iotuner.ingest._darshan import DarshanJob

__all__ = ["FIRST", "LEVELS", "Finding", "diagnose_darshan", "diagnose_job", "ordered"]


def diagnose_job(job: DarshanJob) -> list[Finding]:
    """The findings of a log read by iotuner.ingest.read_darshan ([] when the job holds no
    reader data, as one built by hand)."""
    return diagnose_darshan(job.log) if job.log is not None else []
