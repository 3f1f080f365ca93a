"""A program built with another MPI than the interposer runs untouched (issue 11).

The interposer's wrappers take the handles of the MPI they were built with; inside a
program of another MPI, even passing a call through corrupts it (the standard ABI's
libmpi_abi.so crashed in every mode but off). `iotuner run` compares the MPI libraries
and runs such a program without the interposer, with one warning; the interposer itself,
preloaded by hand, refuses to trace or tune when it finds a second MPI library loaded.
The other MPI here is the standard-ABI compiler of the PyPI wheel (`mpicc_abi`) or another
MPI's compiler installed on the machine.
"""

import os
import shutil
import subprocess
from pathlib import Path

import pytest

from iotuner.runner import build_config, find_library, foreign_mpi

from .conftest import TIMEOUT, run_interposed, warnings_in

pytestmark = pytest.mark.never_harm

PROGRAM = r"""
#include <mpi.h>
#include <stdio.h>
#include <string.h>
int main(int argc, char **argv) {
    MPI_File fh;
    MPI_Comm half;
    int rank;
    char buf[32] = {0};
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    /* With "split", the file's communicator is one MPI made, not a predefined constant. */
    if (argc > 2 && strcmp(argv[2], "split") == 0)
        MPI_Comm_split(MPI_COMM_WORLD, 0, rank, &half);
    else
        half = MPI_COMM_WORLD;
    snprintf(buf, sizeof buf, "rank %d of another MPI", rank);
    MPI_File_open(half, argv[1], MPI_MODE_CREATE | MPI_MODE_WRONLY, MPI_INFO_NULL, &fh);
    MPI_File_write_at_all(fh, rank * 32, buf, 32, MPI_CHAR, MPI_STATUS_IGNORE);
    MPI_File_close(&fh);
    if (half != MPI_COMM_WORLD)
        MPI_Comm_free(&half);
    MPI_Finalize();
    return 0;
}
"""


def other_mpicc() -> tuple[str, str]:
    """A compiler wrapper of an MPI other than the interposer's, and its launcher."""
    ours = build_config()
    bindir = Path(ours.mpicc or "").parent
    abi = bindir / "mpicc_abi"
    if abi.is_file():
        return str(abi), ours.mpiexec
    for suffix in (".mpich", ".openmpi"):
        mpicc = shutil.which(f"mpicc{suffix}")
        if mpicc and Path(mpicc).resolve() != Path(ours.mpicc or "").resolve():
            return mpicc, shutil.which(f"mpiexec{suffix}") or "mpiexec"
    pytest.skip("no second MPI here: the PyPI wheel's mpicc_abi, or Debian's mpich/openmpi")


@pytest.fixture(scope="module")
def foreign(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, str]:
    mpicc, mpiexec = other_mpicc()
    build = tmp_path_factory.mktemp("foreign")
    (build / "foreign.c").write_text(PROGRAM)
    subprocess.run(
        [mpicc, "-o", str(build / "foreign"), str(build / "foreign.c")], check=True, timeout=120
    )
    return build / "foreign", mpiexec


def test_run_refuses_another_mpi_in_one_line_and_the_output_is_unchanged(
    foreign: tuple[Path, str], tmp_path: Path
) -> None:
    program, mpiexec = foreign
    plain_out, tuned_out = tmp_path / "plain.bin", tmp_path / "tuned.bin"
    plain = subprocess.run(
        [mpiexec, "-n", "2", str(program), str(plain_out), "split"],
        capture_output=True,
        text=True,
        timeout=TIMEOUT,
        check=False,
    )
    assert plain.returncode == 0, plain.stderr
    assert foreign_mpi([mpiexec, "-n", "2", str(program)], find_library()) is not None
    result = run_interposed(
        [mpiexec, "-n", "2", str(program), str(tuned_out), "split"],
        mode="trace",
        log_dir=tmp_path / "logs",
        capture=True,
        timeout=TIMEOUT,
    )
    assert result.returncode == 0, result.stderr
    [warning] = warnings_in(result.stderr)
    assert "runs with the MPI library" in warning and "without iotuner" in warning
    assert result.logs == []
    assert tuned_out.read_bytes() == plain_out.read_bytes()


def test_the_interposer_preloaded_by_hand_stands_aside_for_the_standard_abi(
    foreign: tuple[Path, str], tmp_path: Path
) -> None:
    """Preloaded by hand, the interposer cannot unload itself: its own check keeps a
    standard-ABI program whole where the program passes predefined handles (the ABI's are
    small integers, which the wrappers pass through unchanged). A communicator the program
    made is a pointer the wrappers cut to an int: only `iotuner run` avoids that (above),
    and formats/hint_safety.md says so."""
    program, mpiexec = foreign
    if (
        "libmpi_abi"
        not in subprocess.run(["ldd", str(program)], capture_output=True, text=True).stdout
    ):
        pytest.skip("the second MPI here is not the standard ABI")
    out = tmp_path / "out.bin"
    env = {**os.environ, "IOTUNER_MODE": "trace", "IOTUNER_LOG_DIR": str(tmp_path / "logs")}
    env["LD_PRELOAD"] = str(find_library())
    done = subprocess.run(
        [mpiexec, "-n", "2", str(program), str(out)],
        env=env,
        capture_output=True,
        text=True,
        timeout=TIMEOUT,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    [warning] = warnings_in(done.stderr)
    assert "libmpi_abi" in warning and "untuned and untraced" in warning
    assert out.stat().st_size == 64
