"""`iotuner export` used by real MPI runs without the interposer (issue 12, item 3).

The exported hints must reach MPI through the mechanism alone: iokernel runs with a plain
environment (no LD_PRELOAD, no IOTUNER_*), and the test checks both what MPI reports
(--print-info: MPI_File_get_info after the open) and what it did (--print-io: the bytes
each rank's process wrote between open and close). On one host a strided collective write
is aggregated into one rank by default (formats/ompio_map.def, test_io_component.py); the
exported configuration turning collective buffering off, or asking for one aggregator per
rank, makes every rank write its own data.

* ROMIO_HINTS under MPICH: the installation's MPI when it is MPICH, else Debian's.
* Open MPI's MCA parameters under OMPIO: the installation's MPI when it is Open MPI, else
  Debian's. iokernel is built from programs/iokernel.c with that MPI's mpicc when the
  installation has no such build.

A missing MPI skips, saying so; with IOTUNER_REQUIRE_STACKS=1 (CI) it fails.
"""

import json
import os
import re
import shlex
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from iotuner.runner import build_config, find_program

from .conftest import TIMEOUT, is_mpich, is_open_mpi, printed_info, write_table
from .test_io_component import written_per_rank

REQUIRE = os.environ.get("IOTUNER_REQUIRE_STACKS") == "1"
PROGRAMS = Path(__file__).resolve().parents[2] / "programs"
SIZE = 2 * 1024 * 1024
KERNEL = ("--size", "2m", "--layout", "strided", "--print-io", "--print-info")


def missing(message: str) -> None:
    if REQUIRE:
        pytest.fail(f"{message} (IOTUNER_REQUIRE_STACKS=1 makes this a failure)")
    pytest.skip(message)


def kernel_for(flavor: str, build: Path) -> tuple[str, str]:
    """(mpiexec, iokernel) of an MPI of this flavor ("mpich" or "openmpi")."""
    ours = is_mpich() if flavor == "mpich" else is_open_mpi()
    if ours:
        return build_config().mpiexec, str(find_program("iokernel"))
    mpicc, mpiexec = shutil.which(f"mpicc.{flavor}"), shutil.which(f"mpiexec.{flavor}")
    if mpicc is None or mpiexec is None:
        package = "mpich libmpich-dev" if flavor == "mpich" else "openmpi-bin libopenmpi-dev"
        missing(f"no {flavor} here: the installation's MPI is another; apt-get install {package}")
    assert mpicc is not None and mpiexec is not None
    kernel = build / f"iokernel-{flavor}"
    subprocess.run(
        [mpicc, "-O2", f"-I{PROGRAMS}", "-o", str(kernel), str(PROGRAMS / "iokernel.c")],
        check=True, capture_output=True, text=True, timeout=TIMEOUT,
    )  # fmt: skip
    return mpiexec, str(kernel)


def plain_env(**extra: str) -> dict[str, str]:
    """This environment without the interposer and without MPI-IO settings of its own."""
    env = {
        k: v
        for k, v in os.environ.items()
        if not k.startswith(("IOTUNER_", "OMPI_MCA_io", "ROMIO_", "OMPI_MCA_fcoll"))
    }
    env.pop("LD_PRELOAD", None)
    # Open MPI refuses root and more ranks than cores unless told (as .ci/run tells it).
    env.setdefault("OMPI_ALLOW_RUN_AS_ROOT", "1")
    env.setdefault("OMPI_ALLOW_RUN_AS_ROOT_CONFIRM", "1")
    env.setdefault("OMPI_MCA_rmaps_base_oversubscribe", "1")
    env.setdefault("PRTE_MCA_rmaps_default_mapping_policy", ":oversubscribe")
    return {**env, **extra}


def run(command: list[str], env: dict[str, str]) -> tuple[list[int], dict[str, str]]:
    """Bytes written per rank and the hints rank 0's MPI reported."""
    done = subprocess.run(
        command, env=env, capture_output=True, text=True, timeout=TIMEOUT, check=False
    )
    assert done.returncode == 0, done.stdout + done.stderr
    return written_per_rank(done.stdout), printed_info(done.stdout)


def export(table: Path, *args: str) -> subprocess.CompletedProcess[str]:
    done = subprocess.run(
        [str(Path(sys.executable).parent / "iotuner"), "export", str(table), *args],
        capture_output=True, text=True, timeout=TIMEOUT, check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    return done


def test_a_romio_hints_export_changes_what_mpich_does(tmp_path: Path) -> None:
    mpiexec, kernel = kernel_for("mpich", tmp_path)
    table = write_table(
        tmp_path / "t.jsonl",
        {"at": "open", "nprocs": 2, "hints": {"cb_buffer_size": "1048576"}},
        {"nprocs": 2, "group": 31, "pattern": "collective", "op": "write", "layout": "strided",
         "hints": {"romio_cb_write": "disable", "romio_ds_write": "disable"},
         "note": "predicted 90.0 MiB/s [80.0, 99.0] vs default 30.0; best lower bound"},
    )  # fmt: skip
    hints_file = tmp_path / "romio-hints"
    done = export(table, "--to", "romio-hints", "--nprocs", "2", "-o", str(hints_file))
    (usage,) = re.findall(r"^\s*export ROMIO_HINTS=(\S+)$", done.stdout, re.M)
    assert Path(usage) == hints_file.absolute()

    command = [mpiexec, "-n", "2", kernel, "--file", str(tmp_path / "out.bin"), *KERNEL]
    written, info = run(command, plain_env())
    assert sum(1 for w in written if w > 0) == 1, written  # aggregated into one rank
    assert info["romio_cb_write"] == "automatic"
    assert info["cb_buffer_size"] != "1048576"

    written, info = run(command, plain_env(ROMIO_HINTS=usage))
    assert written == [SIZE, SIZE]  # collective buffering off: each rank wrote its own
    assert info["romio_cb_write"] == "disable"
    assert info["romio_ds_write"] == "disable"
    assert info["cb_buffer_size"] == "1048576"

    # The program's own hints win over the file's, as ROMIO documents for its hints file.
    written, info = run([*command, "--hint", "romio_cb_write=enable"], plain_env(ROMIO_HINTS=usage))
    assert info["romio_cb_write"] == "enable"
    assert sum(1 for w in written if w > 0) == 1, written


@pytest.mark.slow  # Open MPI's jobs; CI's
@pytest.mark.parametrize(
    ("hints", "parameter"),
    [
        ({"cb_nodes": "4"}, ("io_ompio_num_aggregators", "4")),
        ({"romio_cb_write": "disable"}, ("fcoll", "individual")),
    ],
    ids=["aggregators", "collective-buffering-off"],
)
def test_an_mca_export_changes_what_open_mpi_s_ompio_does(
    tmp_path: Path, hints: dict[str, str], parameter: tuple[str, str]
) -> None:
    mpiexec, kernel = kernel_for("openmpi", tmp_path)
    table = write_table(tmp_path / "t.jsonl", {"at": "open", "nprocs": 4, "hints": hints})
    done = export(table, "--to", "mca", "--nprocs", "4", "--json")
    exported = json.loads(done.stdout)
    environment = dict(re.findall(r"^export OMPI_MCA_(\w+)=(\S+)$", exported["text"], re.M))
    assert environment == dict([parameter])
    words = shlex.split(exported["usage"][0])
    assert words[:3] == ["mpiexec", "--mca", parameter[0]]
    options = words[1 : words.index("-n")]

    program = [kernel, "--file", str(tmp_path / "out.bin"), *KERNEL]
    plain, _ = run([mpiexec, "-n", "4", *program], plain_env())
    assert sum(1 for w in plain if w > 0) == 1, plain  # OMPIO: one aggregator on one host

    # The command-line form, then the environment form.
    by_option, _ = run([mpiexec, *options, "-n", "4", *program], plain_env())
    assert by_option == [SIZE] * 4
    by_env, _ = run(
        [mpiexec, "-n", "4", *program],
        plain_env(**{f"OMPI_MCA_{k}": v for k, v in environment.items()}),
    )
    assert by_env == [SIZE] * 4
