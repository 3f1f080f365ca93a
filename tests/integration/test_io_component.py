"""The MPI-IO component in use, and a table's hints changing what it does (issue 11).

Checked by behaviour, not by MPI_File_get_info's echo (Open MPI echoes the keys it was
given whichever component runs): iokernel --print-io prints the bytes each rank's process
wrote between open and close, so the test sees which ranks did the I/O. On one host every
implementation here aggregates a strided collective write of 4 ranks into one rank by
default; a table asking for collective buffering off (ROMIO's keys, rewritten for OMPIO by
formats/ompio_map.def) makes every rank write its own data. The test runs on whatever MPI
the installation was built with (IOTUNER_PREFIX) and component Open MPI selects
(OMPI_MCA_io), as CI's matrix sets them.
"""

import os
import re
from pathlib import Path

import pytest

from .conftest import Mpi, one_log, write_table

pytestmark = pytest.mark.never_harm

SIZE = 2 * 1024 * 1024
KERNEL = ("--size", "2m", "--layout", "strided", "--print-io")


def written_per_rank(stdout: str) -> list[int]:
    """The `io rank=R written=W read=B` lines of iokernel --print-io, as W by rank."""
    found = {int(r): int(w) for r, w in re.findall(r"^io rank=(\d+) written=(-?\d+)", stdout, re.M)}
    assert found, f"no --print-io lines in:\n{stdout}"
    return [found[r] for r in sorted(found)]


def expected_component(mpi_library: str) -> str:
    """What the interposer must report: ROMIO for MPICH; for Open MPI the component its
    `io` parameter selects (OMPIO by priority unless ROMIO is named or OMPIO excluded)."""
    if "Open MPI" not in mpi_library:
        return "romio"
    selection = os.environ.get("OMPI_MCA_io", "")  # noqa: SIM112 (Open MPI spells it so)
    if selection.startswith("^"):
        return "ompio" if "ompio" not in selection else "romio321"
    return selection.split(",")[0] if selection else "ompio"


def test_a_table_turning_collective_buffering_off_changes_which_ranks_write(
    mpi: Mpi, tmp_path: Path
) -> None:
    out = tmp_path / "out.bin"
    plain = mpi.run_plain(4, "iokernel", "--file", str(out), *KERNEL)
    assert sum(1 for w in written_per_rank(plain.stdout) if w > 0) == 1, plain.stdout

    table = write_table(
        tmp_path / "t.jsonl",
        {"at": "open", "hints": {"romio_cb_write": "disable", "romio_ds_write": "disable"}},
    )
    tuned = mpi.run(4, "iokernel", "--file", str(out), *KERNEL, mode="tune,trace", table=table)
    assert written_per_rank(tuned.stdout) == [SIZE] * 4, tuned.stdout

    log = one_log(tuned)
    component = expected_component(log.job["mpi_library"])
    assert log.job["io_component"] == component
    requested = log.hints[0]["requested"]
    if component == "ompio":
        # OMPIO ignores romio_* keys: the table reached it as OMPIO's own key, and the key
        # it has no per-file equivalent for is listed as left out.
        # Open MPI 4.1 reads any value but "false" as off; 5.0 reads "false" as off.
        off = "true" if re.search(r"Open MPI v[1-4]\.", log.job["mpi_library"]) else "false"
        assert requested == {"collective_buffering": off}
        assert log.job["hint_map"] == {
            "romio_cb_write=disable": f"collective_buffering={off}",
            "romio_ds_write=disable": None,
        }
        assert log.hints[0]["driver"] == "ompio"
    else:
        assert requested == {"romio_cb_write": "disable", "romio_ds_write": "disable"}
        assert "hint_map" not in log.job
        # ROMIO's file-system driver: reported by MPICH's, found as ROMIO finds it (statfs)
        # under Open MPI's, whose get_info does not say.
        assert log.hints[0]["driver"] in {"ufs", "nfs", "lustre", "gpfs", "beegfs"}


def test_the_program_s_own_romio_keys_are_never_rewritten(mpi: Mpi, tmp_path: Path) -> None:
    """Only the table's keys are put in OMPIO's terms; what the program asks for goes to
    MPI exactly as it asked."""
    table = write_table(tmp_path / "t.jsonl", {"at": "open", "hints": {"cb_nodes": "1"}})
    args = ("--file", str(tmp_path / "out.bin"), "--hint", "romio_cb_write=disable")
    result = mpi.run(2, "iokernel", *args, mode="tune,trace", table=table)
    requested = one_log(result).hints[0]["requested"]
    assert requested == {"romio_cb_write": "disable", "cb_nodes": "1"}


def test_collective_buffering_on_is_never_forced_on_ompio_for_the_job(
    mpi: Mpi, tmp_path: Path
) -> None:
    """OMPIO has no per-file key for collective buffering on, and the job-level one
    (OMPI_MCA_fcoll=vulcan) hides write errors (formats/hint_safety.md): `iotuner run` says
    so and leaves OMPIO's choice, which at 2 ranks writes from every rank. ROMIO takes the
    key: one rank writes everything."""
    out = tmp_path / "out.bin"
    plain = mpi.run_plain(2, "iokernel", "--file", str(out), *KERNEL)
    table = write_table(tmp_path / "t.jsonl", {"at": "open", "hints": {"romio_cb_write": "enable"}})
    tuned = mpi.run(2, "iokernel", "--file", str(out), *KERNEL, mode="tune,trace", table=table)
    if one_log(tuned).job["io_component"] == "ompio":
        assert written_per_rank(tuned.stdout) == written_per_rank(plain.stdout) == [SIZE, SIZE]
        assert "OMPI_MCA_fcoll=vulcan); not added" in tuned.stderr
    else:
        assert sorted(written_per_rank(tuned.stdout)) == [0, 2 * SIZE], tuned.stdout
        assert "OMPI_MCA_fcoll" not in tuned.stderr
