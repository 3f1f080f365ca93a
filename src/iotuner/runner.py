"""Running MPI programs under the interposer, and finding what setup.sh installed.

setup.sh builds the interposer and our MPI programs into the virtual environment
(`<prefix>/lib/iotuner/libiotuner.so`, the preload stub, beside `libiotuner-core.so`, the
interposer it loads; `<prefix>/libexec/iotuner/`) and records the MPI
compiler and launcher it used in `<prefix>/share/iotuner/build.json`. The prefix is the
virtual environment, or $IOTUNER_PREFIX for a build against another MPI (install_prefix()).
"""

import functools
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import uuid
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from iotuner._printable import printable
from iotuner._safejson import loads_json
from iotuner.errors import ConfigError, IotunerError, RunError, SetupError

__all__ = [
    "MODES",
    "POLICIES",
    "BuildConfig",
    "RunResult",
    "build_config",
    "core_of",
    "default_log_dir",
    "find_library",
    "find_program",
    "foreign_mpi",
    "install_prefix",
    "interposer_env",
    "make_log_dir",
    "run",
]

MODES = ("off", "trace", "tune", "tune,trace")
"""Values of IOTUNER_MODE: off (pass through), trace, tune, or both."""

POLICIES = ("table", "app")
"""Values of IOTUNER_HINT_POLICY: who wins when the table and the application set a key."""

_SETUP_HINT = "run ./setup.sh in the iotuner checkout to build and install it"
_LIBRARY_NAME = "libiotuner.so"
_CORE_NAME = "libiotuner-core.so"
_TAG = re.compile(r"[A-Za-z0-9_.-]+")


@dataclass(frozen=True)
class BuildConfig:
    """The MPI compiler wrapper (None when unknown) and launcher to use."""

    mpicc: str | None
    mpiexec: str


@dataclass(frozen=True)
class RunResult:
    """What one run gave: the command's exit status and the trace logs it wrote.

    `returncode` follows the shell's convention, 128 + N for a command killed by signal N.
    """

    returncode: int
    logs: list[Path]
    log_dir: Path
    tag: str
    stdout: str = ""
    stderr: str = ""


def install_prefix() -> Path:
    """Where setup.sh installed the interposer and our MPI programs: $IOTUNER_PREFIX (a
    build for another MPI, `IOTUNER_PREFIX=DIR IOTUNER_MPICC=... ./setup.sh`), else
    sys.prefix, the virtual environment."""
    return Path(os.environ.get("IOTUNER_PREFIX") or sys.prefix)


def find_library(prefix: Path | None = None) -> Path:
    """The interposer: $IOTUNER_LIB, else `<prefix>/lib/iotuner/libiotuner.so`.

    `prefix` defaults to install_prefix().
    """
    override = os.environ.get("IOTUNER_LIB")
    if override:
        library = Path(override)
        if not library.is_file():
            raise SetupError(f"IOTUNER_LIB names {library}, which does not exist")
        return library.absolute()
    library = (prefix or install_prefix()) / "lib" / "iotuner" / "libiotuner.so"
    if not library.is_file():
        raise SetupError(f"the interposer {library} is missing: {_SETUP_HINT}")
    return library


def core_of(library: Path) -> Path:
    """The library that links MPI for the interposer `library`: the core beside the stub
    (interposer/src/entries.h), or `library` itself when there is none (a core preloaded
    directly, or an older single-library build)."""
    core = library.with_name(_CORE_NAME)
    return core if library.name == _LIBRARY_NAME and core.is_file() else library


def find_program(name: str, prefix: Path | None = None) -> Path:
    """One of our MPI programs, `<prefix>/libexec/iotuner/<name>` (prefix: install_prefix())."""
    program = (prefix or install_prefix()) / "libexec" / "iotuner" / name
    if not program.is_file():
        raise SetupError(f"the MPI program {program} is missing: {_SETUP_HINT}")
    return program


def build_config(prefix: Path | None = None) -> BuildConfig:
    """The MPI tools setup.sh built with, from `<prefix>/share/iotuner/build.json`.

    Without that file (or without a usable `mpiexec` in it) the launcher is looked up
    on PATH, so an installation built by hand still runs.
    """
    path = (prefix or install_prefix()) / "share" / "iotuner" / "build.json"
    recorded: dict[str, object] = {}
    if path.is_file():
        try:
            recorded = loads_json(path.read_text(encoding="utf-8"))
        except (OSError, json.JSONDecodeError) as exc:
            raise SetupError(f"cannot read {path} ({exc}): {_SETUP_HINT}") from None
        if not isinstance(recorded, dict):
            raise SetupError(f'{path} must be {{"mpicc": ..., "mpiexec": ...}}: {_SETUP_HINT}')
    mpicc = recorded.get("mpicc")
    mpiexec = recorded.get("mpiexec")
    if not (isinstance(mpiexec, str) and shutil.which(mpiexec)):
        mpiexec = shutil.which("mpiexec")
    if mpiexec is None:
        raise SetupError(f"no MPI launcher: {path} names none and mpiexec is not on PATH")
    return BuildConfig(mpicc=mpicc if isinstance(mpicc, str) else None, mpiexec=mpiexec)


def default_log_dir() -> Path:
    """The interposer's default log directory (formats/README.md, Trace log).

    $XDG_STATE_HOME/iotuner/logs, else ~/.local/state/iotuner/logs.
    """
    state = os.environ.get("XDG_STATE_HOME") or str(Path.home() / ".local" / "state")
    return Path(state) / "iotuner" / "logs"


def make_log_dir(log_dir: Path) -> None:
    """Create `log_dir` and its missing parents with mode 0700; existing ones are left as
    they are. ConfigError when that fails.

    RATIONALE: trace logs name the user's files and programs, so they are private: the
    interposer writes them 0600 and makes its directories 0700, and a directory made here
    is no more open. An existing directory's mode is the user's choice (a shared project
    directory, say) and is never changed.
    """
    missing = []
    for directory in (log_dir, *log_dir.parents):
        if directory.is_dir():
            break
        missing.append(directory)
    try:
        for directory in reversed(missing):
            # exist_ok: another job may make it meanwhile (a file of that name still fails).
            directory.mkdir(mode=0o700, exist_ok=True)
    except OSError as exc:
        raise ConfigError(f"cannot create the log directory {log_dir}: {exc.strerror}") from None


def interposer_env(
    mode: str,
    table: Path | str | None,
    log_dir: Path | str,
    policy: str,
    tag: str,
    *,
    library: Path | None = None,
    base: Mapping[str, str] | None = None,
) -> dict[str, str]:
    """The environment for a command run under the interposer.

    Starts from `base` (default: this process's environment), puts `library` (default:
    find_library()) first in LD_PRELOAD and sets the IOTUNER_* variables; paths are made
    absolute because the MPI launcher may start the ranks in another directory. A table is
    needed in the tune modes.
    """
    if mode not in MODES:
        raise ConfigError(f"the mode must be one of {', '.join(MODES)}, got {mode!r}")
    if policy not in POLICIES:
        raise ConfigError(f"the hint policy must be one of {', '.join(POLICIES)}, got {policy!r}")
    if _tunes(mode) and table is None:
        raise ConfigError(f"mode {mode!r} needs a tuning table")
    if not _TAG.fullmatch(tag):
        raise ConfigError(f"a job tag may hold only letters, digits, '_', '.' and '-', got {tag!r}")
    env = dict(os.environ if base is None else base)
    preload = env.get("LD_PRELOAD")
    library = library or find_library()
    env["LD_PRELOAD"] = f"{library}:{preload}" if preload else str(library)
    env["IOTUNER_MODE"] = mode
    env["IOTUNER_LOG_DIR"] = str(Path(log_dir).absolute())
    env["IOTUNER_HINT_POLICY"] = policy
    env["IOTUNER_JOB_TAG"] = tag
    if table is None:
        env.pop("IOTUNER_TABLE", None)
    else:
        env["IOTUNER_TABLE"] = str(Path(table).absolute())
    return env


_HYDRA_NAMES = frozenset({"mpiexec.hydra", "mpirun.hydra", "mpiexec.mpich", "mpirun.mpich"})
_OPEN_MPI_NAMES = frozenset({"orterun", "prterun", "mpiexec.openmpi", "mpirun.openmpi"})


def launcher_kind(program: str) -> str | None:
    """ "hydra" (MPICH's launcher), "openmpi" (Open MPI's mpirun), or None, for the first
    word of a command: by the name it resolves to, or by its installation's siblings."""
    found = shutil.which(program)
    if found is None:
        return None
    path = Path(found)
    names = {path.name, path.resolve().name}
    if names & _HYDRA_NAMES:
        return "hydra"
    if names & _OPEN_MPI_NAMES:
        return "openmpi"
    if path.name not in ("mpiexec", "mpirun"):
        return None
    if (path.parent / "mpiexec.hydra").exists():
        return "hydra"
    if (path.parent / "ompi_info").exists():
        return "openmpi"
    return None


def preload_ranks_only(
    command: Sequence[str], env: dict[str, str], launcher_preload: str | None
) -> tuple[list[str], dict[str, str]]:
    """The command and environment that give the interposer to the ranks only.

    RATIONALE: the interposer used to depend on libmpi and its fabrics; in the launcher's
    own LD_PRELOAD, mpiexec and every proxy it starts loaded them too, which cost 0.15-0.25
    s per job on the development machine (mpiexec -n 2 /bin/true: 0.02-0.08 s plain,
    0.22-0.31 s preloaded, 0.09-0.12 s with -genv). The preloaded stub now loads nothing in
    a process without MPI (bench/preload_cost.py measures it), and the launcher still gets
    only the LD_PRELOAD it had. MPICH's hydra takes `-genv NAME VALUE` and Open MPI's
    mpirun `-x NAME=VALUE` for the ranks; the launcher keeps the LD_PRELOAD it had. Other
    launchers (srun, a script) get the interposer through the environment, which they pass
    on."""
    kind = launcher_kind(command[0])
    if kind is None:
        return list(command), env
    ranks = env["LD_PRELOAD"]
    launcher_env = dict(env)
    if launcher_preload:
        launcher_env["LD_PRELOAD"] = launcher_preload
    else:
        launcher_env.pop("LD_PRELOAD", None)
    option = ["-genv", "LD_PRELOAD", ranks] if kind == "hydra" else ["-x", f"LD_PRELOAD={ranks}"]
    return [command[0], *option, *command[1:]], launcher_env


_MPI_LIBRARY = re.compile(r"(libmpi|libmpich|libmpi_abi)\.so")
"""File names of C MPI libraries (MPICH, Open MPI, the standard ABI), not their Fortran
or C++ layers (libmpifort, libmpi_mpifh, libmpi_cxx)."""


@functools.lru_cache(maxsize=256)
def _mpi_libraries(binary: Path, mtime_ns: int) -> frozenset[Path]:
    """The C MPI libraries `binary` loads, as ldd resolves them (real paths); empty when
    it loads none or ldd cannot tell. Cached per file version: a search runs the same
    program many times."""
    del mtime_ns  # part of the cache key only
    ldd = shutil.which("ldd")
    if ldd is None:
        return frozenset()
    try:
        listing = subprocess.run(
            [ldd, str(binary)], capture_output=True, text=True, timeout=30, check=False
        ).stdout
    except (OSError, subprocess.TimeoutExpired):
        return frozenset()
    found = set()
    for line in listing.splitlines():
        name, _, target = line.strip().partition(" => ")
        path = target.split(" (")[0].strip()
        if _MPI_LIBRARY.match(name) and path.startswith("/"):
            found.add(Path(path).resolve())
    return frozenset(found)


def _libraries_of(binary: Path) -> frozenset[Path]:
    """_mpi_libraries of a file by its path; empty when it is not there (a library named
    for the loader's search, such as a test's libc.so.6, is not one iotuner built)."""
    try:
        return _mpi_libraries(binary.resolve(), binary.stat().st_mtime_ns)
    except OSError:
        return frozenset()


def _is_elf(path: Path) -> bool:
    try:
        with path.open("rb") as binary:
            return binary.read(4) == b"\x7fELF"
    except OSError:
        return False


def foreign_mpi(command: Sequence[str], library: Path) -> str | None:
    """Why the program in `command` must run without the interposer `library`, or None.

    The interposer's wrappers take the MPI handles of the MPI it was built with; loaded into
    a program of another MPI (Open MPI's pointers for MPICH's integers, or the standard
    ABI's libmpi_abi.so) even passing a call through corrupts it, and two MPI libraries in
    one process may not even load. So every executable of the command (the launcher's
    program; arguments that name ELF files) is compared with the interposer by the MPI
    library each loads.
    """
    ours = _libraries_of(core_of(library))
    if not ours:
        return None
    for token in command[1:]:
        path = Path(token) if "/" in token else Path(shutil.which(token) or token)
        if token.startswith("-") or not path.is_file() or not _is_elf(path):
            continue
        theirs = _libraries_of(path)
        if theirs and not theirs & ours:
            return (
                f"{token} runs with the MPI library {min(theirs)}, but the interposer was built "
                f"with {min(ours)}; running it without iotuner (untuned, untraced). Build "
                "iotuner with the program's MPI: IOTUNER_MPICC=<its mpicc> ./setup.sh"
            )
    return None


def _ompio_job_settings(table: Path | str, env: dict[str, str], library: Path) -> list[str]:
    """Adds to `env` what the table asks of Open MPI's OMPIO for the whole job (iotuner.
    openmpi) when the interposer is built with Open MPI and OMPIO is selected; the lines
    that say so."""
    from iotuner.openmpi import is_open_mpi_library, ompio_job_env, ompio_selected

    ours = _libraries_of(core_of(library))
    if not is_open_mpi_library(ours) or not ompio_selected(env):
        return []
    added, lines = ompio_job_env(table, env)
    env.update(added)
    return [f"iotuner: {line}" for line in lines]


def new_tag() -> str:
    """A fresh job tag (IOTUNER_JOB_TAG): it names the logs of one run."""
    return uuid.uuid4().hex[:12]


def run(
    command: Sequence[str],
    *,
    mode: str = "trace",
    table: Path | str | None = None,
    log_dir: Path | str | None = None,
    policy: str = "table",
    library: Path | None = None,
    capture: bool = False,
    extra_env: Mapping[str, str] | None = None,
    timeout: float | None = None,
    tag: str | None = None,
    call_rows: bool = False,
) -> RunResult:
    """Run `command` (launcher, program, arguments; no shell) under the interposer.

    The run gets a fresh job tag (or `tag`, when the caller must know it before the job
    starts: run --learn records it, to find the logs of a run killed before it learned),
    so the logs it wrote are told apart from those of other runs by name:
    `<log dir>/<program>-<YYYYmmdd-HHMMSS>-<pid>-<tag>.iotrace.jsonl`.
    In the tune modes the table is validated first: a missing, empty or refused one makes
    the run untuned, with one warning (_untuned_if_refused). With `capture`, the command's
    standard output and error are returned as text instead of passed through; `extra_env`
    adds variables (e.g. a program's parameters); after `timeout` seconds the command is
    stopped, with every process it started, and RunError raised (run_child). With `call_rows`, each
    collective call gets an op row of its own (up to limits.def's TRACE_MAX_RECORDS per
    file), and every call is timed, for a person studying the calls; otherwise calls are
    summed per routine and size group, and of short calls only a sample is timed, which is
    what the learner reads and costs the program less (bench/trace_cost.py).
    """
    if not command:
        raise ConfigError("no command to run")
    command, launcher_note = with_known_launcher(command)
    tag = tag or new_tag()
    log_dir = Path(log_dir or default_log_dir()).absolute()
    mode, refusal = _untuned_if_refused(mode, table)
    env = interposer_env(mode, table, log_dir, policy, tag, library=library)
    if call_rows:
        from iotuner.formats import limits

        env["IOTUNER_TRACE_MAX_RECORDS"] = str(limits()["TRACE_MAX_RECORDS"])
        env["IOTUNER_TRACE_SAMPLE_BELOW_US"] = "0"
    env.update(extra_env or {})
    mismatch = foreign_mpi(command, library or find_library()) if mode != "off" else None
    if mismatch:
        env = {**os.environ, **(extra_env or {})}
        # No interposer at all, wherever it came from (extra_env may preload one).
        kept = [
            p
            for p in env.get("LD_PRELOAD", "").split(":")
            if p and Path(p).name not in (_LIBRARY_NAME, _CORE_NAME)
        ]
        env["LD_PRELOAD"] = ":".join(kept)
    else:
        command, env = preload_ranks_only(command, env, os.environ.get("LD_PRELOAD"))
    notes = [f"iotuner: warning: {mismatch}"] if mismatch else []
    notes += [refusal] if refusal else []
    if launcher_note:
        notes.insert(0, launcher_note)
    if not mismatch and table is not None and _tunes(mode):
        notes += _ompio_job_settings(table, env, library or find_library())
    make_log_dir(log_dir)
    if notes and not capture:
        print("\n".join(notes), file=sys.stderr, flush=True)
    code, stdout, stderr = run_child(command, env, capture=capture, timeout=timeout)
    if notes and capture:
        stderr = "".join(f"{note}\n" for note in notes) + stderr
    return RunResult(
        returncode=128 + abs(code) if code < 0 else code,
        logs=sorted(log_dir.glob(f"*-{tag}.iotrace.jsonl")),
        log_dir=log_dir,
        tag=tag,
        stdout=stdout,
        stderr=stderr,
    )


def with_known_launcher(command: Sequence[str]) -> tuple[list[str], str | None]:
    """A bare `mpiexec` or `mpirun` that is not on PATH stands for the launcher of the MPI
    iotuner was built with (setup.sh keeps it in .venv/bin, which need not be on PATH), and
    a note says so. One that is on PATH but belongs to another MPI than that launcher (the
    system's Open MPI before the venv's MPICH, say) runs as given, with a warning: its ranks
    would start as separate one-rank jobs if the program is built with iotuner's MPI, and
    it is right if the program is built with that other MPI."""
    first = command[0]
    if first not in ("mpiexec", "mpirun"):
        return list(command), None
    try:
        launcher = build_config().mpiexec
    except SetupError:
        return list(command), None  # run_child then says it cannot run it
    found = shutil.which(first)
    if found is None:
        return [launcher, *command[1:]], (
            f"iotuner: note: {first} is not on PATH; running {launcher}, the launcher of the "
            "MPI iotuner was built with"
        )
    theirs, ours = launcher_kind(first), launcher_kind(launcher)
    if theirs and ours and theirs != ours:
        names = {"hydra": "MPICH's", "openmpi": "Open MPI's"}
        return list(command), (
            f"iotuner: warning: {first} on PATH ({found}) is {names[theirs]} launcher, but "
            f"iotuner was built with {names[ours]} ({launcher}): a program built with that "
            f"MPI would start as separate one-rank jobs; run `. .venv/bin/activate` first or "
            f"name the launcher"
        )
    return list(command), None


GRACE_SECONDS = 5.0
"""How long a stopped command's processes get between SIGTERM and SIGKILL."""


def stop_group(process: subprocess.Popen[Any]) -> None:
    """SIGTERM to the process group of `process` (its own, see run_child), SIGKILL to what
    is left after GRACE_SECONDS. RATIONALE: killing only mpiexec leaves its ranks writing
    into the next trial's files."""
    for sig, wait in ((signal.SIGTERM, GRACE_SECONDS), (signal.SIGKILL, GRACE_SECONDS)):
        try:
            os.killpg(process.pid, sig)
        except ProcessLookupError:
            return
        try:
            process.wait(timeout=wait)
            # The launcher is gone; its group may still hold ranks that ignored SIGTERM.
            os.killpg(process.pid, 0)
        except ProcessLookupError:
            return
        except subprocess.TimeoutExpired:
            pass


def run_child(
    command: Sequence[str],
    env: Mapping[str, str],
    *,
    capture: bool = False,
    timeout: float | None = None,
) -> tuple[int, str, str]:
    """Run a command; its exit status, and with `capture` its stdout and stderr (read
    together, so a child that fills one pipe while the other is read cannot block).

    With a timeout (the unattended runs: tests, bench, search, demo) the command runs in a
    process group of its own, and on timeout or interrupt the whole group is stopped and
    RunError raised. Without one (`iotuner run` at a terminal) it stays in the terminal's
    foreground group, so ^C and input reach it as they would without iotuner.
    """
    pipe = subprocess.PIPE if capture else None
    try:
        process = subprocess.Popen(
            list(command),
            env=dict(env),
            stdout=pipe,
            stderr=pipe,
            text=capture,
            process_group=0 if timeout is not None else None,
        )
    except OSError as exc:
        raise RunError(f"cannot run {command[0]!r}: {exc.strerror}") from None
    try:
        stdout, stderr = process.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        stop_group(process)
        process.communicate()
        raise RunError(
            f"{command[0]!r} did not finish within {timeout} s; it was stopped with every "
            "process it started"
        ) from None
    except BaseException:
        if timeout is not None:
            stop_group(process)
        raise
    return process.returncode, stdout or "", stderr or ""


def table_refusal(table: Path | str) -> tuple[str, str] | None:
    """Why the interposer would refuse `table` (the rule and its words), or None: what
    `iotuner table check` says, a file that cannot be read being "unreadable"."""
    # Imported here: `iotuner run --mode trace` starts without the table reader.
    from iotuner.table import check_table

    try:
        return check_table(table).refused
    except (OSError, IotunerError) as exc:
        return ("unreadable", str(exc))


def _untuned_if_refused(mode: str, table: Path | str | None) -> tuple[str, str | None]:
    """The mode to run in, and the warning to give, when a tune mode's table is missing,
    empty or refused: the program runs untuned (still traced when asked), never stopped
    (issue 42: a job script whose table was truncated lost its run). The interposer, which
    would refuse the table too, is not given it, so the job gets one warning, this one.
    Lines the interposer drops are its to report (one warning each, the rest applies)."""
    if table is None or not _tunes(mode):
        return mode, None
    refused = table_refusal(table)
    if refused is None:
        return mode, None
    untuned = "trace" if "trace" in mode.split(",") else "off"
    return untuned, (
        f"iotuner: warning: {printable(str(table))} refused ({refused[0]}): "
        f"{printable(refused[1])}; the program runs untuned"
        + (" (traced)" if untuned == "trace" else "")
    )


def _tunes(mode: str) -> bool:
    return "tune" in mode.split(",")
