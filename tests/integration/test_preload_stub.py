"""The preload stub (libiotuner.so): no MPI in processes that do not use it, the core in
those that do, and never harm in between (interposer/stub/stub.c, issue 24).

A site may preload the interposer into every job: mpiexec, shells and programs without MPI
then load the stub only. Processes that call MPI get the core (libiotuner-core.so) at
their first MPI call when a mode is set, also where MPI comes in later with RTLD_LOCAL (as
Python's mpi4py loads it), and run untuned with one warning when the core cannot load.
"""

import os
import re
import shutil
import subprocess
from pathlib import Path

import pytest

from iotuner.runner import build_config, find_library, find_program

from .conftest import TIMEOUT, library_under_test, one_log, run_interposed, warnings_in

pytestmark = pytest.mark.never_harm

MPI_LIBRARY = re.compile(r"\blib(mpi|mpich|mpi_abi)\.so")


def stub() -> Path:
    return library_under_test() or find_library()


def plain_env() -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("IOTUNER_")}
    env.pop("LD_PRELOAD", None)
    return env


def preloaded_env(library: Path, mode: str, logs: Path) -> dict[str, str]:
    """The preload in the environment of everything (a site-wide LD_PRELOAD), with the
    sanitizer runtime first when the tests run the sanitizer build."""
    first = [p for p in os.environ.get("IOTUNER_TEST_PRELOAD", "").split(":") if p]
    env = plain_env()
    env.update(IOTUNER_MODE=mode, IOTUNER_LOG_DIR=str(logs))
    env["LD_PRELOAD"] = ":".join([*first, str(library)])
    if first:
        env.setdefault("ASAN_OPTIONS", "detect_leaks=0:abort_on_error=1")
    return env


def run(command: list[str], env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        command, env=env, capture_output=True, text=True, timeout=TIMEOUT, check=False
    )


def dynamic_mpi_names(library: Path) -> set[str]:
    listing = run(["readelf", "--dyn-syms", "-W", str(library)], plain_env()).stdout
    names = set()
    for line in listing.splitlines():
        fields = line.split()
        # Defined (not UND), global functions named MPI_ or PMPI_.
        if len(fields) >= 8 and fields[3] == "FUNC" and fields[6] != "UND":
            name = fields[7].split("@")[0]
            if name.startswith(("MPI_", "PMPI_")):
                names.add(name)
    return names


@pytest.mark.skipif(shutil.which("readelf") is None, reason="readelf (binutils) is missing")
def test_the_stub_needs_no_mpi_and_exports_every_routine_the_core_wraps() -> None:
    library = stub()
    core = library.with_name("libiotuner-core.so")
    needed = run(["readelf", "-d", str(library)], plain_env()).stdout
    assert "NEEDED" in needed and not MPI_LIBRARY.search(needed), needed
    assert MPI_LIBRARY.search(run(["readelf", "-d", str(core)], plain_env()).stdout)
    exported = dynamic_mpi_names(library)
    assert "PMPI_File_read_at_all" in exported and "MPI_Init" in exported
    assert exported == dynamic_mpi_names(core)


def test_a_process_without_mpi_loads_neither_mpi_nor_the_core(tmp_path: Path) -> None:
    env = preloaded_env(stub(), "tune,trace", tmp_path / "logs")
    env["LD_BIND_NOW"] = "1"  # every symbol bound at load: none may be left undefined
    maps = run(["cat", "/proc/self/maps"], env)
    assert maps.returncode == 0, maps.stderr
    assert "libiotuner.so" in maps.stdout
    assert "libiotuner-core.so" not in maps.stdout and not MPI_LIBRARY.search(maps.stdout)
    assert warnings_in(maps.stderr) == []


def iokernel(mpiexec: str, data: Path) -> list[str]:
    return [mpiexec, "-n", "2", str(find_program("iokernel")), "--file", str(data), "--op",
            "both", "--size", "256k"]  # fmt: skip


def test_a_site_wide_preload_with_bind_now_traces_the_ranks_only(tmp_path: Path) -> None:
    """mpiexec itself runs with the stub (no MPI symbol to bind) and its ranks trace."""
    mpiexec = build_config().mpiexec
    plain = run(iokernel(mpiexec, tmp_path / "plain.dat"), plain_env())
    assert plain.returncode == 0, plain.stderr
    env = preloaded_env(stub(), "trace", tmp_path / "logs")
    env["LD_BIND_NOW"] = "1"
    traced = run(iokernel(mpiexec, tmp_path / "traced.dat"), env)
    assert traced.returncode == 0, traced.stdout + traced.stderr
    assert warnings_in(traced.stderr) == []
    assert (tmp_path / "traced.dat").read_bytes() == (tmp_path / "plain.dat").read_bytes()
    [log] = list((tmp_path / "logs").glob("*.iotrace.jsonl"))
    assert log.stat().st_size > 0


@pytest.mark.parametrize("mode", ["off", "trace"])
def test_the_core_is_loaded_only_with_a_mode_set(mode: str, tmp_path: Path) -> None:
    env = preloaded_env(stub(), mode, tmp_path / "logs")
    env["LD_DEBUG"] = "files"  # the loader names every object it opens, on stderr
    done = run(iokernel(build_config().mpiexec, tmp_path / "out.dat"), env)
    assert done.returncode == 0, done.stdout + done.stderr[-3000:]
    opened = re.findall(r"file=\S*libiotuner-core\.so \[0\];\s+dynamically loaded", done.stderr)
    assert len(opened) == (2 if mode == "trace" else 0), done.stderr[-3000:]


def test_without_its_core_the_stub_runs_untuned_with_one_warning(tmp_path: Path) -> None:
    lonely = tmp_path / "lonely"
    lonely.mkdir()
    shutil.copy(stub(), lonely / "libiotuner.so")
    mpiexec = build_config().mpiexec
    plain = run(iokernel(mpiexec, tmp_path / "plain.dat"), plain_env())
    assert plain.returncode == 0, plain.stderr
    env = preloaded_env(lonely / "libiotuner.so", "tune,trace", tmp_path / "logs")
    env["IOTUNER_TABLE"] = str(tmp_path / "no-table.jsonl")
    done = run(iokernel(mpiexec, tmp_path / "out.dat"), env)
    assert done.returncode == 0, done.stdout + done.stderr
    [warning] = warnings_in(done.stderr)
    assert "cannot load the interposer" in warning and "libiotuner-core.so" in warning
    assert "running untuned and untraced" in warning
    assert (tmp_path / "out.dat").read_bytes() == (tmp_path / "plain.dat").read_bytes()
    assert not (tmp_path / "logs").exists() or not list((tmp_path / "logs").iterdir())


# MPI reached only through a library the program opens with RTLD_LOCAL, as Python opens
# mpi4py's extension: the program itself links no MPI.
USER_LIBRARY = r"""
#include <mpi.h>
#include <string.h>
int user_main(const char *path) {
    int rank;
    char buf[64];
    MPI_File fh;
    MPI_Init(NULL, NULL);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    memset(buf, 'a' + rank, sizeof buf);
    int rc = MPI_File_open(MPI_COMM_WORLD, path, MPI_MODE_CREATE | MPI_MODE_WRONLY,
                           MPI_INFO_NULL, &fh);
    if (rc == MPI_SUCCESS)
        rc = MPI_File_write_at_all(fh, rank * 64, buf, 64, MPI_CHAR, MPI_STATUS_IGNORE);
    if (rc == MPI_SUCCESS)
        rc = MPI_File_close(&fh);
    MPI_Finalize();
    return rc;
}
"""

HOST = r"""
#include <dlfcn.h>
#include <stdio.h>
int main(int argc, char **argv) {
    void *user = argc == 3 ? dlopen(argv[1], RTLD_NOW | RTLD_LOCAL) : NULL;
    int (*user_main)(const char *) = user ? (int (*)(const char *))dlsym(user, "user_main") : NULL;
    if (!user_main) {
        fprintf(stderr, "host: %s\n", dlerror());
        return 2;
    }
    return user_main(argv[2]) == 0 ? 0 : 1;
}
"""


@pytest.fixture(scope="module")
def rtld_local_program(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    mpicc = build_config().mpicc
    compiler = shutil.which("cc") or shutil.which("gcc")
    if not mpicc or not compiler:
        pytest.skip("no mpicc recorded by setup.sh, or no C compiler")
    build = tmp_path_factory.mktemp("rtld-local")
    (build / "user.c").write_text(USER_LIBRARY)
    (build / "host.c").write_text(HOST)
    subprocess.run([mpicc, "-shared", "-fPIC", "-o", str(build / "user.so"),
                    str(build / "user.c")], check=True, timeout=120)  # fmt: skip
    subprocess.run([compiler, "-o", str(build / "host"), str(build / "host.c"), "-ldl"],
                   check=True, timeout=120)  # fmt: skip
    linked = run(["ldd", str(build / "host")], plain_env()).stdout
    assert not MPI_LIBRARY.search(linked), linked
    return build / "host", build / "user.so"


@pytest.mark.parametrize("bind_now", [False, True])
def test_mpi_opened_with_rtld_local_is_traced(
    rtld_local_program: tuple[Path, Path], bind_now: bool, tmp_path: Path
) -> None:
    host, user = rtld_local_program
    mpiexec = build_config().mpiexec
    plain = run([mpiexec, "-n", "2", str(host), str(user), str(tmp_path / "plain.dat")],
                plain_env())  # fmt: skip
    assert plain.returncode == 0, plain.stdout + plain.stderr
    extra = {"LD_BIND_NOW": "1"} if bind_now else {}
    result = run_interposed(
        [mpiexec, "-n", "2", str(host), str(user), str(tmp_path / "out.dat")],
        mode="trace",
        log_dir=tmp_path / "logs",
        capture=True,
        extra_env=extra,
        timeout=TIMEOUT,
    )
    assert result.returncode == 0, result.stdout + result.stderr
    assert warnings_in(result.stderr) == []
    assert (tmp_path / "out.dat").read_bytes() == (tmp_path / "plain.dat").read_bytes()
    log = one_log(result)
    written = [op for op in log.ops if op["operation"] == "MPI_File_write_at_all"]
    assert sum(op["bytes"] for op in written) == 128
