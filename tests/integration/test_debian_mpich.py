"""The interposer built with Debian's MPICH (4.0), whose library version string is about
2,000 characters: it once overflowed a 512-byte field into the log directory's name, so
traces landed in a directory tree named after MPICH's configure line.

Skipped, saying so, when Debian's MPICH is not installed (`apt-get install mpich
libmpich-dev`; CI installs it).
"""

import hashlib
import os
import subprocess
from pathlib import Path

import pytest

from iotuner.tracelog import read_tracelog

from .conftest import write_table

ROOT = Path(__file__).resolve().parents[2]
MPICC = Path("/usr/bin/mpicc.mpich")
MPIEXEC = Path("/usr/bin/mpiexec.mpich")

pytestmark = pytest.mark.skipif(
    not (MPICC.exists() and MPIEXEC.exists()),
    reason="Debian's MPICH is not installed (apt-get install mpich libmpich-dev)",
)


@pytest.fixture(scope="module")
def debian_build(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    """libiotuner.so and iokernel built with Debian's mpicc."""
    build = tmp_path_factory.mktemp("debian-mpich")
    subprocess.run(
        ["make", "--no-print-directory", "-s", f"MPICC={MPICC}", f"BUILD={build}",
         f"{build}/libiotuner.so"],
        cwd=ROOT, check=True, capture_output=True, text=True,
    )  # fmt: skip
    # Without -Werror: MPICH 4.0's MPI_STATUSES_IGNORE trips gcc 12's stringop-overflow
    # check in our kernel (a known header problem; the interposer builds clean).
    kernel = build / "iokernel"
    subprocess.run(
        [str(MPICC), "-O2", "-std=c11", "-D_GNU_SOURCE", "-o", str(kernel),
         str(ROOT / "programs" / "iokernel.c")],
        check=True, capture_output=True, text=True,
    )  # fmt: skip
    return build / "libiotuner.so", kernel


def _run(library: Path | None, kernel: Path, workdir: Path, env: dict[str, str], data: Path) -> str:
    environment = {k: v for k, v in os.environ.items() if not k.startswith("IOTUNER_")}
    environment.pop("LD_PRELOAD", None)
    environment.update(env)
    if library is not None:
        environment["LD_PRELOAD"] = str(library)
    completed = subprocess.run(
        [str(MPIEXEC), "-n", "2", str(kernel), "--file", str(data), "--op", "both"],
        cwd=workdir, env=environment, capture_output=True, text=True, timeout=120, check=False,
    )  # fmt: skip
    assert completed.returncode == 0, completed.stdout + completed.stderr
    return completed.stderr


@pytest.mark.slow  # a build with Debian's MPICH; CI's
def test_the_long_version_string_stays_in_its_field(
    debian_build: tuple[Path, Path], tmp_path: Path
) -> None:
    library, kernel = debian_build
    workdir = tmp_path / "cwd"
    workdir.mkdir()
    logs = tmp_path / "logs"
    table = write_table(
        tmp_path / "table.jsonl",
        {"at": "open", "hints": {"cb_buffer_size": "1048576", "romio_cb_write": "enable"}},
        {"pattern": "collective", "hints": {"cb_buffer_size": "16777216"}},
    )
    plain = tmp_path / "plain.dat"
    _run(None, kernel, workdir, {}, plain)
    tuned = tmp_path / "tuned.dat"
    stderr = _run(
        library,
        kernel,
        workdir,
        {"IOTUNER_MODE": "tune,trace", "IOTUNER_TABLE": str(table), "IOTUNER_LOG_DIR": str(logs)},
        tuned,
    )
    assert "iotuner: warning" not in stderr
    assert list(workdir.iterdir()) == []  # nothing written where the program runs
    (log,) = logs.glob("*.iotrace.jsonl")
    job = read_tracelog(log).job
    assert job["mpi_library"].startswith("MPICH Version:\t4.")  # Debian's, not the wheel's
    assert "\n" not in job["mpi_library"]
    digest = [hashlib.sha256(p.read_bytes()).hexdigest() for p in (plain, tuned)]
    assert digest[0] == digest[1]
