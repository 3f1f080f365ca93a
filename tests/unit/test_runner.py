"""iotuner.runner without MPI: locating the installation, the environment, finding logs."""

import json
import os
import sys
import time
from pathlib import Path

import pytest

from iotuner.errors import ConfigError, RunError, SetupError
from iotuner.runner import (
    build_config,
    core_of,
    find_library,
    find_program,
    interposer_env,
    launcher_kind,
    preload_ranks_only,
    run,
    run_child,
)

LIB = Path("/opt/iotuner/lib/libiotuner.so")


def test_core_of_names_the_library_that_links_mpi(tmp_path: Path) -> None:
    """The stub links no MPI: the MPI the interposer was built with is the core's."""
    stub = tmp_path / "libiotuner.so"
    stub.write_bytes(b"")
    assert core_of(stub) == stub  # an older single-library build
    (tmp_path / "libiotuner-core.so").write_bytes(b"")
    assert core_of(stub) == tmp_path / "libiotuner-core.so"
    other = tmp_path / "libother.so"
    assert core_of(other) == other


def test_find_library_under_the_prefix(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("IOTUNER_LIB", raising=False)
    with pytest.raises(SetupError, match=r"libiotuner.so is missing: run ./setup.sh"):
        find_library(tmp_path)
    library = tmp_path / "lib" / "iotuner" / "libiotuner.so"
    library.parent.mkdir(parents=True)
    library.touch()
    assert find_library(tmp_path) == library


def test_find_library_from_the_environment(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("IOTUNER_LIB", str(tmp_path / "libx.so"))
    with pytest.raises(SetupError, match=r"IOTUNER_LIB names .*libx\.so, which does not exist"):
        find_library(tmp_path)
    (tmp_path / "libx.so").touch()
    assert find_library() == tmp_path / "libx.so"


def test_find_program(tmp_path: Path) -> None:
    with pytest.raises(SetupError, match=r"libexec/iotuner/iobench is missing: run ./setup.sh"):
        find_program("iobench", tmp_path)
    program = tmp_path / "libexec" / "iotuner" / "iobench"
    program.parent.mkdir(parents=True)
    program.touch()
    assert find_program("iobench", tmp_path) == program


def test_an_install_prefix_from_the_environment_is_used_for_everything(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """IOTUNER_PREFIX selects a build against another MPI (setup.sh with IOTUNER_PREFIX)."""
    monkeypatch.delenv("IOTUNER_LIB", raising=False)
    monkeypatch.setenv("IOTUNER_PREFIX", str(tmp_path))
    with pytest.raises(SetupError, match=rf"{tmp_path}/lib/iotuner/libiotuner.so is missing"):
        find_library()
    for part in ("lib/iotuner/libiotuner.so", "libexec/iotuner/iokernel"):
        (tmp_path / part).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / part).touch()
    (tmp_path / "share" / "iotuner").mkdir(parents=True)
    (tmp_path / "share" / "iotuner" / "build.json").write_text(
        json.dumps({"mpicc": "/other/mpicc", "mpiexec": sys.executable})
    )
    assert find_library() == tmp_path / "lib" / "iotuner" / "libiotuner.so"
    assert find_program("iokernel") == tmp_path / "libexec" / "iotuner" / "iokernel"
    assert build_config().mpicc == "/other/mpicc"


def test_build_config_reads_build_json(tmp_path: Path) -> None:
    config = tmp_path / "share" / "iotuner" / "build.json"
    config.parent.mkdir(parents=True)
    config.write_text(json.dumps({"mpicc": "/mpi/bin/mpicc", "mpiexec": sys.executable}))
    assert build_config(tmp_path).mpicc == "/mpi/bin/mpicc"
    assert build_config(tmp_path).mpiexec == sys.executable
    config.write_text("{")
    with pytest.raises(SetupError, match=r"cannot read .*build\.json"):
        build_config(tmp_path)


def test_build_config_falls_back_to_path(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "bin").mkdir()
    mpiexec = tmp_path / "bin" / "mpiexec"
    mpiexec.write_text("#!/bin/sh\n")
    mpiexec.chmod(0o755)
    monkeypatch.setenv("PATH", str(tmp_path / "bin"))
    config = build_config(tmp_path)
    assert (config.mpicc, config.mpiexec) == (None, str(mpiexec))
    monkeypatch.setenv("PATH", str(tmp_path))
    with pytest.raises(SetupError, match="no MPI launcher"):
        build_config(tmp_path)


def test_interposer_env(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    base = {"LD_PRELOAD": "libdarshan.so", "IOTUNER_TABLE": "stale.jsonl", "HOME": "/home/u"}
    env = interposer_env("tune,trace", "t.jsonl", "logs", "app", "abc", library=LIB, base=base)
    assert env["LD_PRELOAD"] == f"{LIB}:libdarshan.so"
    assert env["IOTUNER_MODE"] == "tune,trace"
    assert env["IOTUNER_TABLE"] == str(tmp_path / "t.jsonl")
    assert env["IOTUNER_LOG_DIR"] == str(tmp_path / "logs")
    assert env["IOTUNER_HINT_POLICY"] == "app"
    assert env["IOTUNER_JOB_TAG"] == "abc"
    assert env["HOME"] == "/home/u"
    env = interposer_env("trace", None, "/logs", "table", "abc", library=LIB, base=base)
    assert env["LD_PRELOAD"] == f"{LIB}:libdarshan.so"
    assert "IOTUNER_TABLE" not in env
    assert interposer_env("off", None, "/l", "table", "t", library=LIB, base={})["LD_PRELOAD"] == (
        str(LIB)
    )


@pytest.mark.parametrize(
    ("mode", "table", "policy", "tag", "message"),
    [
        ("optimize", None, "table", "t", "mode must be one of off, trace, tune, tune,trace"),
        ("trace,tune", "t", "table", "t", "got 'trace,tune'"),
        ("tune", None, "table", "t", "mode 'tune' needs a tuning table"),
        ("trace", None, "mpi", "t", "hint policy must be one of table, app, got 'mpi'"),
        ("trace", None, "table", "a/b", "a job tag may hold only"),
    ],
)
def test_interposer_env_refuses_bad_settings(
    mode: str, table: str | None, policy: str, tag: str, message: str
) -> None:
    with pytest.raises(ConfigError, match=message):
        interposer_env(mode, table, "/logs", policy, tag, library=LIB, base={})


# A stand-in for `mpiexec ... program`: it writes a log named as the interposer does, one
# of another job beside it, and exits with status 3.
FAKE_JOB = """
import os, pathlib
d = pathlib.Path(os.environ["IOTUNER_LOG_DIR"])
tag = os.environ["IOTUNER_JOB_TAG"]
assert os.environ["IOTUNER_MODE"] == "trace"
(d / f"prog-20250101-120000-99-{tag}.iotrace.jsonl").write_text("{}")
(d / "prog-20250101-120000-98-othertag0000.iotrace.jsonl").write_text("{}")
(d / f".prog-{tag}.tmp").write_text("")
raise SystemExit(3)
"""


def test_run_finds_the_logs_of_its_own_job(tmp_path: Path) -> None:
    result = run(
        [sys.executable, "-c", FAKE_JOB],
        log_dir=tmp_path / "logs",
        library=Path("libc.so.6"),  # harmless to preload
    )
    assert result.returncode == 3
    assert result.log_dir == tmp_path / "logs"
    assert result.logs == [result.log_dir / f"prog-20250101-120000-99-{result.tag}.iotrace.jsonl"]


def test_run_reports_a_signal_as_the_shell_does(tmp_path: Path) -> None:
    kill = "import os, signal; os.kill(os.getpid(), signal.SIGTERM)"
    result = run([sys.executable, "-c", kill], log_dir=tmp_path, library=Path("libc.so.6"))
    assert result.returncode == 128 + 15
    assert result.logs == []


def test_run_refuses_what_cannot_run(tmp_path: Path, sample_table: Path) -> None:
    libc = Path("libc.so.6")
    with pytest.raises(ConfigError, match="no command"):
        run([], log_dir=tmp_path, library=libc)
    with pytest.raises(RunError, match="cannot run 'no-such-launcher'"):
        run(["no-such-launcher"], log_dir=tmp_path, library=libc)
    tuned = run(["true"], mode="tune", table=sample_table, log_dir=tmp_path, library=libc)
    assert tuned.returncode == 0


@pytest.mark.parametrize("mode", ["tune", "tune,trace"])
@pytest.mark.parametrize("table_text", [None, "", "{}\n", '{"format": "iotuner-table"'])
def test_a_missing_empty_or_refused_table_runs_the_program_untuned(
    tmp_path: Path, mode: str, table_text: str | None
) -> None:
    """Issue 42: `run --mode tune` with a truncated table exited 2 without starting the
    program; it now runs, untuned, with one warning naming the table and why."""
    table = tmp_path / "table.jsonl"
    if table_text is not None:
        table.write_text(table_text)
    marker = tmp_path / "ran"
    result = run(
        [
            sys.executable,
            "-c",
            f"import os; open({str(marker)!r}, 'w').write(os.environ['IOTUNER_MODE'])",
        ],
        mode=mode,
        table=table,
        log_dir=tmp_path / "logs",
        library=Path("libc.so.6"),
        capture=True,
    )
    assert result.returncode == 0
    assert marker.read_text() == ("trace" if "trace" in mode else "off")
    warnings = [line for line in result.stderr.splitlines() if "warning" in line]
    assert len(warnings) == 1 and f"{table} refused (" in warnings[0]
    untuned = "the program runs untuned" + (" (traced)" if "trace" in mode else "")
    assert warnings[0].endswith(untuned)


def _launchers(tmp_path: Path) -> dict[str, Path]:
    """Fake installations, laid out as MPICH's and Open MPI's are (only names matter)."""
    made = {}
    for kind, names in (
        ("mpich", ["mpiexec", "mpiexec.hydra"]),
        ("openmpi", ["mpirun", "ompi_info"]),
        ("other", ["srun"]),
    ):
        (tmp_path / kind).mkdir()
        for name in names:
            path = tmp_path / kind / name
            path.write_text("#!/bin/sh\n")
            path.chmod(0o755)
        made[kind] = tmp_path / kind / names[0]
    return made


@pytest.mark.parametrize(
    ("kind", "option"),
    [
        ("mpich", ["-genv", "LD_PRELOAD", "/lib/libiotuner.so:/x.so"]),
        ("openmpi", ["-x", "LD_PRELOAD=/lib/libiotuner.so:/x.so"]),
    ],
)
def test_the_interposer_goes_to_the_ranks_not_into_the_launcher(
    tmp_path: Path, kind: str, option: list[str]
) -> None:
    launcher = _launchers(tmp_path)[kind]
    env = {"LD_PRELOAD": "/lib/libiotuner.so:/x.so", "IOTUNER_MODE": "trace"}
    command, launcher_env = preload_ranks_only([str(launcher), "-n", "2", "./a"], env, "/x.so")
    assert command == [str(launcher), *option, "-n", "2", "./a"]
    assert launcher_env == {"LD_PRELOAD": "/x.so", "IOTUNER_MODE": "trace"}
    assert launcher_kind(str(launcher)) == ("hydra" if kind == "mpich" else "openmpi")


def test_other_launchers_get_the_interposer_through_the_environment(tmp_path: Path) -> None:
    srun = _launchers(tmp_path)["other"]
    env = {"LD_PRELOAD": "/lib/libiotuner.so"}
    assert preload_ranks_only([str(srun), "./a"], env, None) == ([str(srun), "./a"], env)
    assert preload_ranks_only(["no-such-launcher-here"], env, None)[1] == env


def test_a_child_that_fills_its_stderr_pipe_finishes(tmp_path: Path) -> None:
    """1 MiB on stderr and lines on stdout, read together: no pipe fills while the other is
    read to its end."""
    script = "head -c 1048576 /dev/zero | tr '\\0' e >&2; echo out"
    code, out, err = run_child(["sh", "-c", script], os.environ, capture=True, timeout=60)
    assert (code, out, len(err)) == (0, "out\n", 1 << 20)


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    return True


def test_a_timed_out_command_is_stopped_with_every_process_it_started(tmp_path: Path) -> None:
    """The launcher and the processes it started (a rank writing a file) all stop; before,
    only the launcher was killed and its children went on writing."""
    pids, out = tmp_path / "pids", tmp_path / "written"
    script = (
        f"(while :; do echo x >> {out}; sleep 0.02; done) & echo $! >> {pids}; "
        f"trap '' TERM; echo $$ >> {pids}; wait"  # the launcher ignores SIGTERM
    )
    with pytest.raises(RunError, match="did not finish within 1 s; it was stopped"):
        run_child(["sh", "-c", script], os.environ, capture=True, timeout=1)
    for pid in map(int, pids.read_text().split()):
        assert not _alive(pid) or Path(f"/proc/{pid}/stat").read_text().split()[2] == "Z"
    size = out.stat().st_size
    time.sleep(0.3)
    assert out.stat().st_size == size  # nothing writes any more
