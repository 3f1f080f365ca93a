"""What in a program's I/O costs time, read from a Darshan log: findings, each tied to the
counters it rests on (iotuner.diagnose._darshan), with every threshold in one place
(iotuner.diagnose._thresholds).

diagnose_darshan(log) takes the plain data of iotuner.ingest's Darshan reader (a
DarshanJob's `log`); diagnose_job(job) is the same for a DarshanJob. The checks, one module
per concern, and their registry: iotuner.diagnose.checks; the finding codes they raise:
docs/finding-codes.md. SMALL_REQUEST_BYTES: the size under which a call is small.
"""

from iotuner.diagnose._darshan import diagnose_darshan
from iotuner.diagnose._finding import FIRST, LEVELS, Finding, ordered
from iotuner.diagnose._thresholds import SMALL_REQUEST_BYTES
from iotuner.ingest import DarshanJob

__all__ = [
    "FIRST",
    "LEVELS",
    "SMALL_REQUEST_BYTES",
    "Finding",
    "diagnose_darshan",
    "diagnose_job",
    "ordered",
]


def diagnose_job(job: DarshanJob) -> list[Finding]:
    """The findings of a log read by iotuner.ingest.read_darshan ([] when the job holds no
    reader data, as one built by hand)."""
    return diagnose_darshan(job.log) if job.log is not None else []
