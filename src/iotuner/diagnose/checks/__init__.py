"""The checks of a Darshan log, one module per concern, and CHECKS, their one registry.

Each module opens with what its checks read, what they find and the finding codes they can
raise, and declares each check as a Check (checks._helpers): its name, its function of a
Log (the view of the reader's plain data) and its codes with their meanings. CHECKS runs
in its order (iotuner.diagnose.diagnose_darshan); a new check is a function, a Check, and
a line here. codes_page() is docs/finding-codes.md, written by
`python -m iotuner.diagnose.checks docs/finding-codes.md`.

What every check keeps to: streams count only for the STDIO share; system files for
metadata time and their own finding, not the data checks (a thousand .pyc imports are
small reads, but not the program's data layout). Time at stake is per mean rank: a
module's time summed over the records over nprocs, scaled by the share of calls the
finding is about; for an imbalance, the slowest rank's time past the mean's.
"""

from iotuner.diagnose.checks._helpers import Check, Log
from iotuner.diagnose.checks.access import ACCESS, TRAFFIC
from iotuner.diagnose.checks.balance import IMBALANCE
from iotuner.diagnose.checks.collective import BLOCKING, INDEPENDENT
from iotuner.diagnose.checks.dxt import DXT
from iotuner.diagnose.checks.interfaces import INTERFACES
from iotuner.diagnose.checks.job import JOB
from iotuner.diagnose.checks.layers import HDF5, PNETCDF, USAGE
from iotuner.diagnose.checks.layout import LAYOUT
from iotuner.diagnose.checks.lustre import LUSTRE
from iotuner.diagnose.checks.metadata import METADATA, SYSTEM_FILES
from iotuner.diagnose.checks.requests import MISALIGNED, SMALL

__all__ = ["CHECKS", "UNREADABLE", "Check", "Log", "codes_page"]

CHECKS: tuple[Check, ...] = (
    JOB,
    INTERFACES,
    SMALL,
    MISALIGNED,
    ACCESS,
    TRAFFIC,
    METADATA,
    SYSTEM_FILES,
    IMBALANCE,
    LAYOUT,
    LUSTRE,
    INDEPENDENT,
    BLOCKING,
    USAGE,
    HDF5,
    PNETCDF,
    DXT,
)
"""Every check, in the order it runs (the findings are then ordered by importance)."""

UNREADABLE = {
    "job.unreadable": "a check could not read the log's counters (a damaged log): that "
    "check's findings are missing"
}
"""The code diagnose_darshan raises itself, for a check that raised."""


def codes_page() -> str:
    """docs/finding-codes.md: every finding code, by the check that raises it."""
    lines = [
        "# Finding codes",
        "",
        "Every code a finding of `iotuner.diagnose` can carry, with its meaning, by the check",
        "that raises it, in the order the checks run. Generated from the checks' registry",
        "(`iotuner.diagnose.checks.CHECKS`) by `python -m iotuner.diagnose.checks",
        "docs/finding-codes.md`; do not edit by hand.",
        "",
    ]
    sections = [(c.name, c.run.__module__, c.codes) for c in CHECKS]
    sections.append(("diagnose_darshan", "iotuner.diagnose._darshan", UNREADABLE))
    for name, module, codes in sections:
        lines += [f"## {name}", "", f"`{module}`", "", "| code | meaning |", "| --- | --- |"]
        lines += [f"| `{code}` | {meaning} |" for code, meaning in codes.items()]
        lines.append("")
    return "\n".join(lines)
