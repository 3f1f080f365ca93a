"""Fixtures for tests that run real MPI programs under the interposer.

They need what ./setup.sh installs into the virtual environment: the interposer, our MPI
programs and the MPI launcher they were built with.

IOTUNER_TEST_LIBRARY names another interposer for the runs under it (e.g.
build/asan/libiotuner.so from `make sanitize`), and IOTUNER_TEST_PRELOAD what must be
preloaded before it (the ASan runtime, `gcc -print-file-name=libasan.so`, which must come
first); sanitizer reports then fail the run (ASAN_OPTIONS and UBSAN_OPTIONS below, unless
set). Runs without the interposer (run_plain) stay without it.
"""

import functools
import json
import os
import re
import subprocess
import sys
import tempfile
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from iotuner.runner import RunResult, build_config, find_library, find_program, run
from iotuner.tracelog import TraceLog, read_tracelog

TIMEOUT = 180
"""Seconds one MPI job may take before the test fails (a hang is a failure, not a wait)."""

SANITIZER_OPTIONS = {
    # MPICH keeps its allocations to the end by design: leaks are not findings here.
    "ASAN_OPTIONS": "detect_leaks=0:abort_on_error=1",
    "UBSAN_OPTIONS": "print_stacktrace=1:halt_on_error=1",
}


def library_under_test() -> Path | None:
    """The interposer the tests run under instead of the installed one, or None."""
    library = os.environ.get("IOTUNER_TEST_LIBRARY")
    return Path(library).absolute() if library else None


def _preload_with(library: Path, others: list[str]) -> dict[str, str]:
    """LD_PRELOAD with IOTUNER_TEST_PRELOAD first, then `library`, then `others`, and the
    sanitizer options (those of this process when set)."""
    first = [p for p in os.environ.get("IOTUNER_TEST_PRELOAD", "").split(":") if p]
    rest = [p for p in others if p not in first]
    env = {"LD_PRELOAD": ":".join([*first, str(library), *rest])}
    env.update({name: os.environ.get(name, value) for name, value in SANITIZER_OPTIONS.items()})
    return env


def with_library_under_test(env: dict[str, str]) -> dict[str, str]:
    """`env` with the interposer in its LD_PRELOAD replaced by library_under_test(); `env`
    itself when there is none, or when `env` runs no interposer."""
    library = library_under_test()
    preload = [p for p in env.get("LD_PRELOAD", "").split(":") if p]
    interposers = {str(find_library()), str(library)}
    if library is None or not interposers & set(preload):
        return env
    return {**env, **_preload_with(library, [p for p in preload if p not in interposers])}


def run_interposed(
    command: Sequence[str], *, extra_env: Mapping[str, str] | None = None, **options: Any
) -> RunResult:
    """iotuner.runner.run, under library_under_test() when set: what tests that need any
    exit status call instead of run, so the sanitizer runs cover them too."""
    library = library_under_test()
    if library is not None:
        preload = [p for p in os.environ.get("LD_PRELOAD", "").split(":") if p]
        extra_env = {**_preload_with(library, preload), **(extra_env or {})}
    return run(command, library=library, extra_env=extra_env, **options)


@dataclass
class Mpi:
    """Runs our MPI programs, with or without the interposer, in a test's directory."""

    mpiexec: str
    workdir: Path

    def program(self, name: str) -> str:
        return str(find_program(name))

    def command(self, nprocs: int, name: str, *args: str) -> list[str]:
        return [self.mpiexec, "-n", str(nprocs), self.program(name), *args]

    def run(
        self,
        nprocs: int,
        name: str,
        *args: str,
        mode: str = "trace",
        table: Path | None = None,
        policy: str = "table",
        log_dir: Path | None = None,
        extra_env: dict[str, str] | None = None,
        call_rows: bool = False,
    ) -> RunResult:
        """Run under the interposer (library_under_test() when set); fail the test on a
        non-zero exit. call_rows: one op row per collective call (iotuner run --call-rows)."""
        result = run_interposed(
            self.command(nprocs, name, *args),
            mode=mode,
            table=table,
            policy=policy,
            log_dir=log_dir or self.workdir / "logs",
            capture=True,
            extra_env=extra_env,
            timeout=TIMEOUT,
            call_rows=call_rows,
        )
        assert result.returncode == 0, f"exit {result.returncode}\n{result.stdout}\n{result.stderr}"
        return result

    def run_plain(
        self, nprocs: int, name: str, *args: str, check: bool = True
    ) -> subprocess.CompletedProcess[str]:
        """Run without the interposer at all (no LD_PRELOAD): the reference."""
        env = {k: v for k, v in os.environ.items() if not k.startswith("IOTUNER_")}
        env.pop("LD_PRELOAD", None)
        return self.run_env(env, nprocs, name, *args, check=check)

    def run_env(
        self, env: dict[str, str], nprocs: int, name: str, *args: str, check: bool = True
    ) -> subprocess.CompletedProcess[str]:
        """Run with exactly this environment (but library_under_test() for the interposer
        in its LD_PRELOAD); fail the test on a non-zero exit unless `check` is false."""
        completed = subprocess.run(
            self.command(nprocs, name, *args),
            env=with_library_under_test(env),
            capture_output=True,
            text=True,
            timeout=TIMEOUT,
            check=False,
        )
        assert not check or completed.returncode == 0, completed.stdout + completed.stderr
        return completed


_LIBRARY_VERSION = """
import ctypes, sys
lib = ctypes.CDLL(sys.argv[1])
text = ctypes.create_string_buffer(65536)
length = ctypes.c_int(0)
lib.MPI_Get_library_version(text, ctypes.byref(length))
sys.stdout.write(text.value.decode(errors="replace"))
"""


@functools.cache
def mpi_library() -> str:
    """The first line of MPI_Get_library_version of the MPI our programs are linked with
    ("MPICH Version: 4.0.2", "Open MPI v4.1.4, package: ..."), read without the interposer
    and without starting MPI (the standard allows the call before MPI_Init), in a child
    process. What a test expects of one implementation only is decided by this, never by
    what the interposer says it found."""
    linked = subprocess.run(
        ["ldd", str(find_program("iokernel"))], capture_output=True, text=True, check=True
    ).stdout
    found = re.search(r"^\s*lib(?:mpi|mpich)\.so\S*\s+=>\s+(\S+)", linked, re.M)
    assert found, f"no MPI library in ldd's answer:\n{linked}"
    version = subprocess.run(
        [sys.executable, "-c", _LIBRARY_VERSION, found.group(1)],
        capture_output=True,
        text=True,
        check=True,
        timeout=60,
    ).stdout
    return version.split("\n")[0]


def is_open_mpi() -> bool:
    return mpi_library().startswith("Open MPI")


def is_mpich() -> bool:
    return mpi_library().startswith("MPICH")


@functools.cache
def nonblocking_collectives_work() -> bool:
    """Whether this MPI survives a nonblocking collective write without the interposer.
    Open MPI 4.1.4's romio321 does not: MPI_File_iwrite_at_all calls a NULL function
    pointer (MPIOI_File_iwrite_all) and dies of SIGSEGV. MPICH must (asserted), so this
    never hides a failure there."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("IOTUNER_")}
    env.pop("LD_PRELOAD", None)
    workdir = Path(os.environ.get("TMPDIR", "/tmp"))
    with tempfile.TemporaryDirectory(dir=workdir) as scratch:
        probe = subprocess.run(
            [build_config().mpiexec, "-n", "1", str(find_program("iokernel")),
             "--file", str(Path(scratch) / "probe"), "--nonblocking", "--size", "4k"],
            env=env, capture_output=True, text=True, timeout=TIMEOUT, check=False,
        )  # fmt: skip
    works = probe.returncode == 0
    assert works or not is_mpich(), probe.stdout + probe.stderr
    return works


@pytest.fixture(scope="session")
def mpiexec() -> str:
    return build_config().mpiexec


@pytest.fixture
def mpi(mpiexec: str, tmp_path: Path) -> Mpi:
    return Mpi(mpiexec=mpiexec, workdir=tmp_path)


SWEEP = ("--space", "demo-small", "--nprocs", "2", "--patterns", "collective,independent",
         "--layouts", "contiguous,strided:4k:0.5", "--ops", "write", "--sizes", "64k,512k",
         "--repeats", "2", "--open-size", "1m")  # fmt: skip
"""The small real sweep of small_sweep (2 ranks, 8 workloads)."""


@pytest.fixture(scope="session")
def small_sweep(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """`iotuner bench` of SWEEP, measured once for the session: its results
    (results.bench.jsonl), knowledge base (kb.sqlite) and data folder (data, left empty).
    test_learning checks the sweep itself and test_advise trains on it, which needed the
    same sweep measured twice before; they read it and write elsewhere."""
    folder = tmp_path_factory.mktemp("sweep")
    (folder / "data").mkdir()
    done = subprocess.run(
        [str(Path(sys.executable).parent / "iotuner"), "bench", *SWEEP, "--dir",
         str(folder / "data"), "--results", str(folder / "results.bench.jsonl"), "--db",
         str(folder / "kb.sqlite")],
        capture_output=True, text=True, timeout=TIMEOUT, check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stdout + done.stderr
    return folder


def one_log(result: RunResult) -> TraceLog:
    """The single trace log a run wrote."""
    assert len(result.logs) == 1, f"expected one log, got {result.logs}\n{result.stderr}"
    return read_tracelog(result.logs[0])


def write_table(path: Path, *entries: dict[str, object]) -> Path:
    """A tuning table file with these entries (raw JSON, so tests can also write bad ones)."""
    lines = [json.dumps({"format": "iotuner-table", "version": 1})]
    lines += [json.dumps(entry) for entry in entries]
    path.write_text("\n".join(lines) + "\n")
    return path


def printed_info(stdout: str) -> dict[str, str]:
    """The `info KEY=VALUE` lines iokernel --print-info prints."""
    info = {}
    for line in stdout.splitlines():
        if line.startswith("info "):
            key, _, value = line[5:].partition("=")
            info[key] = value
    return info


def warnings_in(stderr: str) -> list[str]:
    return [line for line in stderr.splitlines() if line.startswith("iotuner: warning:")]


Runner = Callable[..., RunResult]
Args = Sequence[str]


@pytest.fixture
def hogs() -> Iterator[None]:
    """A busy loop per core, beside the test's program: a busy machine."""
    started = [
        subprocess.Popen([sys.executable, "-c", "while True: pass"])
        for _ in range(os.cpu_count() or 1)
    ]
    try:
        yield
    finally:
        for hog in started:
            hog.kill()
            hog.wait()
