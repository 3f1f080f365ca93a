"""Fixtures for the tests that run programs of other languages and libraries (programs/lang/)
under the interposer, with the MPI it was built with (the install prefix: the virtual
environment, or $IOTUNER_PREFIX).

Each program is compiled with the compiler wrapper of that MPI, the sibling of the `mpicc`
in build.json (/usr/bin/mpicc.mpich -> mpicxx.mpich, mpif90.mpich, h5pcc.mpich), once per
test session. A wrapper or library this MPI lacks skips the test, saying what to install;
with IOTUNER_REQUIRE_STACKS=1 (CI) it fails instead (require()).
"""

import os
import re
import subprocess
import sys
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from iotuner.runner import RunResult, build_config, core_of, find_library

from ..integration.conftest import TIMEOUT, run_interposed, with_library_under_test

ROOT = Path(__file__).resolve().parents[2]
SOURCES = ROOT / "programs" / "lang"

REQUIRE = os.environ.get("IOTUNER_REQUIRE_STACKS") == "1"
"""Set by CI: a missing compiler or library fails the test instead of skipping it."""

DEBIAN_PACKAGES = {
    ("mpich", "mpicxx"): "apt-get install libmpich-dev g++",
    ("mpich", "mpif90"): "apt-get install libmpich-dev gfortran",
    ("mpich", "h5pcc"): "apt-get install libhdf5-mpich-dev",
    ("openmpi", "mpicxx"): "apt-get install libopenmpi-dev g++",
    ("openmpi", "mpif90"): "apt-get install libopenmpi-dev gfortran",
    ("openmpi", "h5pcc"): "apt-get install libhdf5-openmpi-dev",
}
"""What provides each wrapper for Debian's MPIs (mpicc.mpich, mpicc.openmpi)."""

FLAGS = {
    "mpicxx": ["-O2", "-Wall", "-Wextra", "-Werror", "-Wno-cast-function-type"],
    "mpif90": ["-O2", "-Wall", "-Wextra", "-Werror"],
    "h5pcc": ["-O2", "-Wall", "-Wextra", "-Werror"],
}
"""-Wno-cast-function-type: Open MPI 4.1's C++ binding headers (mpicxx.h) trip it."""


def require(found: str | None, what: str, install: str, *, installable: bool = True) -> str:
    """`found` (a path), else skip the test saying what to install; a failure instead with
    IOTUNER_REQUIRE_STACKS=1. Not `installable` (the MPI under test has no such part at
    all, as the PyPI mpich wheel has no Fortran): always a skip."""
    if found:
        return found
    message = f"{what} is missing: {install}"
    if REQUIRE and installable:
        pytest.fail(f"{message} (IOTUNER_REQUIRE_STACKS=1 makes this a failure)")
    pytest.skip(message)


@dataclass
class Stack:
    """The MPI under test: the interposer's build and what it was built with."""

    mpicc: str
    mpiexec: str
    flavor: str
    """"mpich" or "openmpi", from the libmpi the interposer links."""
    libmpi: Path
    """The MPI library the interposer links (mpi4py is pointed at it)."""
    build_dir: Path
    built: dict[tuple[str, str], Path] = field(default_factory=dict)

    @property
    def romio(self) -> bool:
        """True when MPI_File_get_info reports the values MPI uses (ROMIO of MPICH), False
        when it only echoes the keys given at open (Open MPI 4.1, OMPIO and romio321)."""
        return self.flavor == "mpich"

    @property
    def io(self) -> str:
        """The MPI-IO layer: romio, or Open MPI's ompio or romio321 (OMPI_MCA_io)."""
        if self.flavor == "mpich":
            return "romio"
        # Open MPI spells its MCA variables in lower case.
        component = os.environ.get("OMPI_MCA_io")  # noqa: SIM112
        return "romio321" if component == "romio321" else "ompio"

    def wrapper(self, tool: str) -> str:
        """The compiler wrapper `tool` (mpicxx, mpif90, h5pcc) of this MPI: mpicc's sibling
        with the same suffix. Skips (fails with REQUIRE) when it is not installed."""
        mpicc = Path(self.mpicc)
        sibling = mpicc.with_name(mpicc.name.replace("mpicc", tool, 1))
        found = str(sibling) if os.access(sibling, os.X_OK) else None
        if tool == "mpif90" and found is None:  # Open MPI's Debian package names it mpifort
            fortran = mpicc.with_name(mpicc.name.replace("mpicc", "mpifort", 1))
            found = str(fortran) if os.access(fortran, os.X_OK) else None
        debian = mpicc.name.endswith(f".{self.flavor}")
        install = DEBIAN_PACKAGES.get((self.flavor, tool)) if debian else None
        if install is None:
            install = (
                f"this MPI ({self.mpicc}) has none (the PyPI mpich wheel ships no Fortran "
                "and no HDF5); run with a prefix built with Debian's MPICH or Open MPI "
                "(IOTUNER_PREFIX=DIR IOTUNER_MPICC=/usr/bin/mpicc.mpich ./setup.sh)"
            )
        what = f"{sibling.name} for {self.flavor}"
        return require(found, what, install, installable=debian or tool == "mpicxx")

    def compile(self, tool: str, source: str) -> Path:
        """programs/lang/`source` compiled with `tool`, once per session."""
        key = (tool, source)
        if key not in self.built:
            wrapper = self.wrapper(tool)
            output = self.build_dir / f"{Path(source).stem}-{tool}"
            done = subprocess.run(
                [wrapper, *FLAGS[tool], "-o", str(output), str(SOURCES / source)],
                cwd=self.build_dir, capture_output=True, text=True, timeout=TIMEOUT,
                check=False,
            )  # fmt: skip
            assert done.returncode == 0, f"{wrapper} {source}:\n{done.stdout}{done.stderr}"
            self.built[key] = output
        return self.built[key]


def linked_mpi(library: Path) -> Path:
    """The MPI library `library` (the interposer) is linked with, from ldd."""
    done = subprocess.run(
        ["ldd", str(library)], capture_output=True, text=True, timeout=60, check=True
    )
    for line in done.stdout.splitlines():
        match = re.match(r"\s*(libmpi(?:ch)?\.so\.\d+) => (\S+)", line)
        if match:
            return Path(match.group(2))
    raise AssertionError(f"{library} links no libmpi:\n{done.stdout}")


@pytest.fixture(scope="session")
def stack(tmp_path_factory: pytest.TempPathFactory) -> Stack:
    config = build_config()
    if config.mpicc is None:
        pytest.fail("build.json names no mpicc: run ./setup.sh")
    libmpi = linked_mpi(core_of(find_library()))
    flavor = "openmpi" if libmpi.name.startswith("libmpi.so.40") else "mpich"
    return Stack(
        mpicc=config.mpicc,
        mpiexec=config.mpiexec,
        flavor=flavor,
        libmpi=libmpi,
        build_dir=tmp_path_factory.mktemp("lang"),
    )


@pytest.fixture(scope="session")
def mpi4py_env(stack: Stack, tmp_path_factory: pytest.TempPathFactory) -> dict[str, str]:
    """The environment that lets a Python rank import mpi4py bound to the MPI under test.

    mpi4py's PyPI wheel (4.1 and later) holds one extension per MPI ABI (MPICH's
    libmpi.so.12, Open MPI's libmpi.so.40) and picks one at import by the MPI library it
    finds: the one already loaded (the interposer's), else MPI4PY_LIBMPI. It is installed
    once per session into a directory of its own (PYTHONPATH) unless this Python has it.
    Debian's MPICH names its library libmpich.so.12, which the wheel's MPICH extension
    does not ask for: a directory with libmpi.so.12 pointing to it goes on
    LD_LIBRARY_PATH (the loader sees the same file and loads it once).
    """
    env = {"MPI4PY_LIBMPI": str(stack.libmpi)}
    try:
        import mpi4py  # noqa: F401
    except ImportError:
        target = tmp_path_factory.mktemp("mpi4py")
        done = subprocess.run(
            [sys.executable, "-m", "pip", "install", "--quiet", "--no-deps",
             "--target", str(target), "mpi4py>=4.1"],
            capture_output=True, text=True, timeout=TIMEOUT, check=False,
        )  # fmt: skip
        require(
            str(target) if done.returncode == 0 else None,
            "mpi4py",
            f"pip install 'mpi4py>=4.1' (pip said: {done.stderr.strip()[-300:]})",
        )
        env["PYTHONPATH"] = os.pathsep.join(
            p for p in (str(target), os.environ.get("PYTHONPATH")) if p
        )
    if stack.libmpi.name.startswith("libmpich."):
        abi = tmp_path_factory.mktemp("mpich-abi")
        (abi / "libmpi.so.12").symlink_to(stack.libmpi)
        env["MPI4PY_LIBMPI"] = str(abi / "libmpi.so.12")
        env["LD_LIBRARY_PATH"] = os.pathsep.join(
            p for p in (str(abi), os.environ.get("LD_LIBRARY_PATH")) if p
        )
    return env


def run_tuned(
    stack: Stack,
    command: Sequence[str],
    table: Path,
    log_dir: Path,
    extra_env: Mapping[str, str] | None = None,
) -> RunResult:
    """`command` at 2 ranks under the interposer, tuned by `table` and traced; fails the
    test on a non-zero exit."""
    result = run_interposed(
        [stack.mpiexec, "-n", "2", *command],
        mode="tune,trace",
        table=table,
        log_dir=log_dir,
        capture=True,
        extra_env=extra_env,
        timeout=TIMEOUT,
    )
    assert result.returncode == 0, f"exit {result.returncode}\n{result.stdout}\n{result.stderr}"
    return result


def run_plain(
    stack: Stack, command: Sequence[str], extra_env: Mapping[str, str] | None = None
) -> str:
    """`command` at 2 ranks without the interposer (the reference); its standard output."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("IOTUNER_")}
    env.pop("LD_PRELOAD", None)
    env.update(extra_env or {})
    done = subprocess.run(
        [stack.mpiexec, "-n", "2", *command],
        env=with_library_under_test(env), capture_output=True, text=True, timeout=TIMEOUT,
        check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stdout + done.stderr
    return done.stdout
