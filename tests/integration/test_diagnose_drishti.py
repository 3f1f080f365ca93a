"""Drishti and iotuner on the same Darshan logs: every issue category Drishti reports has an
iotuner finding.

The logs: those the `darshan` package ships, and one made here by iokernel at 2 ranks under
the Darshan runtime built from third_party/darshan (rank 0 alone writes and reads 2,000
independent calls of 3,000 bytes on a file both ranks open: stragglers, unequal bytes, small
and misaligned requests, no collective call). Drishti (`drishti-io`) runs as its command
with --csv, which writes one row of True/False per issue code; a log Drishti cannot read is
skipped with its error.
"""

import csv
import os
import shutil
import subprocess
import sys
from pathlib import Path

import darshan
import pytest

from iotuner.diagnose import diagnose_job
from iotuner.ingest import read_darshan

from .conftest import Mpi
from .test_darshan_runtime import libdarshan  # noqa: F401  (the fixture)

pytestmark = pytest.mark.slow  # CI's slow stage (.ci/run)

PACKAGE = Path(darshan.__file__).resolve().parent
SHIPPED = sorted(
    {
        *PACKAGE.glob("examples/example_logs/*.darshan"),
        PACKAGE / "tests/input/noposixopens.darshan",
        PACKAGE / "tests/input/sample-dxt-simple.darshan",
        PACKAGE / "tests/input/sample-goodost.darshan",
        *PACKAGE.glob("examples/darshan-graph/pq_app_readAB*.darshan"),
    }
)
DRISHTI = Path(sys.executable).parent / "drishti"

COVERS = {
    "S01": {"interface.stdio"},
    "M01": {"interface.no_mpiio"},
    "P05": {"requests.small_read"},
    "P06": {"requests.small_write"},
    "P07": {"requests.misaligned_memory"},
    "P08": {"requests.misaligned_file"},
    # Drishti's "redundant" test is the highest offset past the bytes moved in all.
    "P09": {"traffic.redundant_read", "access.sparse_read"},
    "P10": {"traffic.redundant_write", "access.sparse_write"},
    "P11": {"access.random_read"},
    "P13": {"access.random_write"},
    "P15": {"requests.small_shared_read"},
    "P16": {"requests.small_shared_write"},
    "P17": {"metadata.time"},
    # Where collective buffering's aggregators explain the spread, iotuner says so
    # (mpiio.aggregation) instead of calling it a straggler.
    "P18": {"imbalance.bytes", "mpiio.aggregation"},
    "P19": {"imbalance.stragglers", "mpiio.aggregation"},
    "P21": {"imbalance.rank_bytes"},
    "P22": {"imbalance.rank_bytes"},
    "M02": {"mpiio.independent_read"},
    "M03": {"mpiio.independent_write"},
    "M06": {"mpiio.blocking"},
    "M07": {"mpiio.blocking"},
}
"""Drishti's issue codes (critical and warning) and the iotuner codes that say the same."""

NOT_ISSUES = {"P01", "P02", "P03", "P04", "P12", "P14", "M04", "M05", "M10"}
"""Drishti's statements that are not issues: read/write intensive (P01-P04), sequential
access (P12, P14), collective use (M04, M05), aggregators fine (M10)."""


def drishti_codes(log: Path, work: Path) -> set[str]:
    """The issue codes Drishti reports on a log (skips the test when it cannot read it)."""
    if not DRISHTI.exists():
        pytest.skip("drishti-io is not installed (pip install -e '.[dev]')")
    work.mkdir(parents=True, exist_ok=True)
    done = subprocess.run(
        [str(DRISHTI), str(log), "--csv", "--export_dir", str(work)],
        cwd=work, capture_output=True, text=True, timeout=600, check=False,
    )  # fmt: skip
    table = work / (log.name.removesuffix(".darshan") + ".csv")
    if done.returncode != 0 or not table.exists():
        pytest.skip(f"Drishti cannot read {log.name}: {done.stderr.strip()[-300:]}")
    with table.open() as f:
        header, row = list(csv.reader(f))[:2]
    return {code for code, value in zip(header, row, strict=True) if value == "True"}


def compare(log: Path, work: Path) -> tuple[set[str], set[str]]:
    found = drishti_codes(log, work)
    ours = {f.code for f in diagnose_job(read_darshan(log))}
    unknown = found - set(COVERS) - NOT_ISSUES
    assert not unknown, f"Drishti reported categories this test does not map: {unknown}"
    missed = {code for code in found & set(COVERS) if not COVERS[code] & ours}
    assert not missed, (
        f"{log.name}: Drishti found {sorted(missed)}, iotuner none of "
        + str({c: sorted(COVERS[c]) for c in missed})
        + f"; iotuner said {sorted(ours)}"
    )
    return found, ours


@pytest.mark.parametrize("log", SHIPPED, ids=lambda p: p.name[:28])
def test_iotuner_finds_what_drishti_finds_on_the_shipped_logs(log: Path, tmp_path: Path) -> None:
    compare(log, tmp_path)


def test_iotuner_finds_what_drishti_finds_on_a_log_of_our_runtime(
    libdarshan: Path,  # noqa: F811
    mpi: Mpi,
    tmp_path: Path,
) -> None:
    logs = tmp_path / "darshan"
    logs.mkdir()
    env = {k: v for k, v in os.environ.items() if not k.startswith(("IOTUNER_", "DARSHAN"))}
    env.update(LD_PRELOAD=str(libdarshan), DARSHAN_LOGPATH=str(logs))
    mpi.run_env(
        env, 2, "iokernel", "--file", str(tmp_path / "out.dat"), "--pattern", "independent",
        "--writers", "root", "--size", "6000000", "--calls", "2000", "--op", "both",
    )  # fmt: skip
    [log] = sorted(logs.glob("*.darshan"))
    found, ours = compare(log, tmp_path / "drishti")
    # What the program was made to do, Drishti and iotuner both see.
    assert {"P06", "P19", "M03"} <= found
    assert {"imbalance.stragglers", "requests.small_write", "mpiio.independent_write",
            "imbalance.bytes", "requests.misaligned_file"} <= ours  # fmt: skip
    shutil.rmtree(logs)
