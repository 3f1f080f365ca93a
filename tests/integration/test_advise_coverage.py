"""`iotuner advise` says only what its knowledge base covers, and every command it prints
runs as printed.

The knowledge base is the session's small real sweep at 2 ranks on this machine's disk
(conftest.small_sweep, trained as test_advise does). The shipped Darshan logs come from
other systems (Lustre, GPFS) and mostly other scales: no group of theirs may get a hint
or a predicted gain (a 2-rank model once told a 512-rank Lustre run to disable collective
buffering). A Darshan log of our own kernel, run here under Darshan's runtime, is covered:
it gets a prediction with its interval, and the measurement and run commands advise
prints for it are run exactly as printed.
"""

import json
import os
import shlex
import shutil
import subprocess
from pathlib import Path

import pytest

from iotuner.runner import build_config
from iotuner.table import read_table

from .conftest import TIMEOUT, Mpi, write_table
from .test_advise import advise_here, darshan_examples, learned  # noqa: F401 (fixture)
from .test_cli import IOTUNER, iotuner
from .test_darshan_runtime import libdarshan  # noqa: F401 (fixture)

pytestmark = pytest.mark.slow
"""Two and a half minutes (a model trained for the module, Darshan's runtime, the printed
commands run): CI's. test_advise.py keeps advise's own path in the README's run."""


def example(name: str) -> Path:
    return next(p for p in darshan_examples() if p.name == name)


@pytest.mark.parametrize("log", darshan_examples(), ids=lambda p: p.name)
def test_no_hint_for_a_system_or_scale_the_knowledge_base_does_not_cover(
    learned: Path,  # noqa: F811 (the imported fixture)
    log: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    db, model = str(learned / "kb.sqlite"), str(learned / "model")
    advised = json.loads(advise_here(capsys, str(log), "--db", db, "--model", model, "--json"))
    for r in advised["recommendations"]:
        assert r["hints"] == {} and r["predicted_gain"] is None and r["interval"] is None, r
    for r in advised["recommendations"]:
        assert not r["covered"]
        if r["through_mpiio"]:
            assert r["reason"].startswith("not covered by the knowledge base (trained at 2 ranks")
    assert advised["exports"] == []


def test_the_reason_names_the_trained_and_the_job_s_scale_and_file_system(
    learned: Path,  # noqa: F811
    capsys: pytest.CaptureFixture[str],
) -> None:
    """IOR through HDF5 on 4 ranks of Lustre: the write group used to get a predicted
    gain from the 2-rank local-disk model; now the reason, with the numbers."""
    db, model = str(learned / "kb.sqlite"), str(learned / "model")
    log = str(example("ior_hdf5_example.darshan"))
    advised = json.loads(advise_here(capsys, log, "--db", db, "--model", model, "--json"))
    (write,) = [r for r in advised["recommendations"] if r["op"] == "write"]
    assert "its files are on lustre" in write["reason"]
    assert "it ran 4 ranks, outside the trained range" in write["reason"]
    assert write["predicted_gain"] is None
    assert any("MPI_File_write_at_all" in words for words in write["code_advice"])
    # ior is not on this machine: no command to run, and why.
    assert advised["measure_command"] is None and advised["run_command"] is None
    assert "not on this machine" in advised["measure_words"]
    printed = advise_here(capsys, log, "--db", db, "--model", model)
    assert "in the code (no hint does this): make the independent writes" in printed
    assert "to measure: no command to print" in printed


def test_an_anonymised_posix_only_log_gets_code_advice_and_no_command(
    learned: Path,  # noqa: F811
    tmp_path: Path,
) -> None:
    """noposix.darshan: 512 ranks, STDIO only, its command line a bare number. A stale
    table given to --table is replaced by an empty one, said on stderr."""
    stale = write_table(tmp_path / "advised.jsonl", {"at": "open", "hints": {"cb_nodes": "1"}})
    completed = iotuner("advise", str(example("noposix.darshan")), "--db",
                        str(learned / "kb.sqlite"), "--model", str(learned / "model"),
                        "--table", str(stale), "--json")  # fmt: skip
    advised = json.loads(completed.stdout)
    assert advised["source"]["command"] is None
    assert advised["measure_command"] is None
    assert "anonymised (the number 160345792" in advised["measure_words"]
    for r in advised["recommendations"]:
        assert not r["through_mpiio"]
        assert any("use MPI-IO collective calls" in words for words in r["code_advice"])
    assert read_table(stale) == []
    assert f"wrote {stale} with no entries: nothing to apply" in completed.stderr


def test_a_trace_log_names_no_command_that_cannot_run(
    learned: Path,  # noqa: F811
    mpi: Mpi,
    tmp_path: Path,
) -> None:
    """A trace log records the program's name only: advise prints no measurement command
    (the name alone, without path and arguments, would not run), and says so."""
    kernel = mpi.command(2, "iokernel", "--file", str(tmp_path / "out.dat"), "--size", "512k")
    iotuner("run", "--log-dir", str(tmp_path / "logs"), "--", *kernel)
    (traced,) = (tmp_path / "logs").glob("*.iotrace.jsonl")
    advised = json.loads(iotuner("advise", str(traced), "--db", str(learned / "kb.sqlite"),
                                 "--model", str(learned / "model"), "--json").stdout)  # fmt: skip
    assert advised["measure_command"] is None
    assert "records the program's name (iokernel)" in advised["measure_words"]
    (group,) = advised["recommendations"]
    # Same host and file system, 2 ranks, 512 KiB collective writes: covered.
    assert group["covered"], group["reason"]
    low, high = group["interval"]
    assert low <= group["predicted_gain"] <= high


def test_a_darshan_log_of_our_run_is_covered_and_its_printed_commands_run(
    learned: Path,  # noqa: F811
    libdarshan: Path,  # noqa: F811
    mpi: Mpi,
    tmp_path: Path,
) -> None:
    """The kernel at 2 ranks under Darshan, data in this machine's temporary directory:
    the knowledge base covers it, so the group gets a predicted gain inside its interval;
    the log's command line is the kernel's real path and arguments, and the measurement
    search and the tuned run advise prints are run as printed (split as a shell would,
    in the directory advise ran in, with the MPI's mpiexec first on PATH)."""
    work = tmp_path / "work"
    (work / "darshan").mkdir(parents=True)
    shutil.copy(learned / "kb.sqlite", work / "kb.sqlite")
    shutil.copytree(learned / "model", work / "model")
    env = {k: v for k, v in os.environ.items() if not k.startswith(("IOTUNER_", "DARSHAN"))}
    env.pop("LD_PRELOAD", None)
    # As a user with the virtual environment active: iotuner and the MPI's mpiexec first.
    first = [str(Path(IOTUNER).parent), str(Path(build_config().mpiexec).parent)]
    env["PATH"] = os.pathsep.join([*first, env.get("PATH", "")])
    kernel_args = ("--file", str(work / "out.dat"), "--size", "512k")
    darshan = {**env, "LD_PRELOAD": str(libdarshan), "DARSHAN_LOGPATH": str(work / "darshan")}
    ran = mpi.run_env(darshan, 2, "iokernel", *kernel_args)
    assert ran.returncode == 0
    (log,) = (work / "darshan").glob("*.darshan")

    def cli(*args: str) -> subprocess.CompletedProcess[str]:
        done = subprocess.run([IOTUNER, *args], capture_output=True, text=True, cwd=work,
                              env=env, timeout=TIMEOUT, check=False)  # fmt: skip
        assert done.returncode == 0, done.stdout + done.stderr
        return done

    advised = json.loads(cli("advise", str(log), "--db", "kb.sqlite", "--model", "model",
                             "--table", "advised.jsonl", "--json").stdout)  # fmt: skip
    assert advised["source"]["command"] == [mpi.program("iokernel"), *kernel_args]
    (group,) = [r for r in advised["recommendations"] if r["op"] == "write"]
    assert group["covered"], group["reason"]
    assert group["predicted_gain"] is not None and group["interval"] is not None
    low, high = group["interval"]
    assert low <= group["predicted_gain"] <= high

    measure = advised["measure_command"]
    assert measure.startswith("iotuner search --strategy model --budget 2 --model model --db ")
    assert measure.endswith(shlex.join(["mpiexec", "-n", "2", *advised["source"]["command"]]))
    printed = cli("advise", str(log), "--db", "kb.sqlite", "--model", "model").stdout
    assert any(measure in line for line in printed.splitlines()), printed  # one line to copy

    searched = subprocess.run(shlex.split(measure), capture_output=True, text=True, cwd=work,
                              env=env, timeout=TIMEOUT, check=False)  # fmt: skip
    assert searched.returncode == 0, searched.stdout + searched.stderr
    run = advised["run_command"]
    assert run.startswith("iotuner run --mode tune --table advised.jsonl -- mpiexec -n 2 ")
    tuned = subprocess.run(shlex.split(run), capture_output=True, text=True, cwd=work,
                           env=env, timeout=TIMEOUT, check=False)  # fmt: skip
    assert tuned.returncode == 0, tuned.stdout + tuned.stderr
