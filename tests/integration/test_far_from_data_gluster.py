"""Questions about a system the model never saw get no interval, and say which.

The model is the session's (test_advise.learned: trained on the small real sweep at 2 ranks
on this machine's disk). The other system is a GlusterFS volume of the same machine
(bench/gluster.py makes and mounts one, as root): a small real sweep of the kernel there,
and a traced run of the kernel there. On it:

* the sweep is a system of its own in the knowledge base (fuse.glusterfs), never mixed
  with the disk's;
* `predict --dir` on the volume gives the model's order alone, with no interval and no
  gain, and says it is another system; on the disk it gives the calibrated intervals;
* `advise` on the run's trace gives no hint and no gain, and says its files are on
  fuse.glusterfs;
* `tune` refuses to write a table for the volume's system with the disk's model.

These need a GlusterFS mount (fuse.glusterfs in /proc/mounts; IOTUNER_GLUSTER_MOUNT names
one when there are several) and skip without one: CI machines need not have it.
"""

import json
import os
import shutil
import subprocess
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest

from iotuner.learn import training_data
from iotuner.store import open_store

from .conftest import SWEEP, TIMEOUT, Mpi
from .test_advise import learned  # noqa: F401 (fixture)
from .test_cli import IOTUNER, iotuner

GLUSTER = "fuse.glusterfs"
WORKLOAD = "nprocs=2,pattern=collective,op=write,layout=contiguous,size=512k"


def gluster_mount() -> Path | None:
    """A writable GlusterFS mount of this machine, or None."""
    mounts = []
    for line in Path("/proc/self/mounts").read_text().splitlines():
        parts = line.split()
        if len(parts) >= 3 and parts[2] == GLUSTER:
            mounts.append(Path(parts[1].replace("\\040", " ")))
    wanted = os.environ.get("IOTUNER_GLUSTER_MOUNT")
    if wanted:
        mounts = [m for m in mounts if m == Path(wanted)]
    return next((m for m in mounts if os.access(m, os.W_OK)), None)


pytestmark = pytest.mark.skipif(
    gluster_mount() is None,
    reason="no writable GlusterFS mount (fuse.glusterfs): as root, "
    "python3 bench/gluster.py makes one",
)


@pytest.fixture(scope="module")
def on_gluster() -> Iterator[Path]:
    """A fresh folder on the GlusterFS volume, removed afterwards."""
    mount = gluster_mount()
    assert mount is not None
    folder = Path(tempfile.mkdtemp(prefix="iotuner-test-", dir=mount))
    yield folder
    shutil.rmtree(folder, ignore_errors=True)


@pytest.fixture(scope="module")
def both_systems(
    learned: Path,  # noqa: F811 (the imported fixture)
    on_gluster: Path,
    tmp_path_factory: pytest.TempPathFactory,
) -> Path:
    """A copy of the session's knowledge base with a part of the same small sweep (its
    contiguous 512 KiB writes) measured on the GlusterFS volume added."""
    folder = tmp_path_factory.mktemp("gluster")
    shutil.copy(learned / "kb.sqlite", folder / "kb.sqlite")
    (on_gluster / "sweep").mkdir()
    iotuner("bench", *SWEEP, "--layouts", "contiguous", "--sizes", "512k", "--dir",
            str(on_gluster / "sweep"), "--seed", "23",
            "--results", str(folder / "gluster.bench.jsonl"), "--db", str(folder / "kb.sqlite"),
            timeout=4 * TIMEOUT)  # fmt: skip
    return folder


def test_the_gluster_sweep_is_a_system_of_its_own(both_systems: Path) -> None:
    with open_store(str(both_systems / "kb.sqlite")) as store:
        systems = store.systems()
        assert sorted(s.fs_type for s in systems) == sorted(["ext4", GLUSTER]), systems
        (gluster,) = [s for s in systems if s.fs_type == GLUSTER]
        (disk,) = [s for s in systems if s.fs_type != GLUSTER]
        mine = training_data(store, system=gluster.fingerprint).frame
        theirs = training_data(store, system=disk.fingerprint).frame
    assert set(mine["system"]) == {gluster.fingerprint}
    assert set(theirs["system"]) == {disk.fingerprint}
    assert gluster.host == disk.host and gluster.mpi_library == disk.mpi_library


def predicted(model: Path, folder: Path) -> dict[str, object]:
    done = iotuner("predict", "--model", str(model), "--workload", WORKLOAD,
                   "--dir", str(folder), "--json")  # fmt: skip
    result: dict[str, object] = json.loads(done.stdout)
    return result


def test_predict_on_another_system_gives_the_order_alone_and_says_so(
    learned: Path,  # noqa: F811
    on_gluster: Path,
) -> None:
    model = learned / "model"
    here = predicted(model, learned)  # the disk the model learned on
    there = predicted(model, on_gluster)
    assert here["system"]["answer"] == "the system the model learned on"  # type: ignore[index]
    assert all(p["low"] is not None and p["high"] is not None for p in here["predictions"])  # type: ignore[attr-defined]
    answer = there["system"]["answer"]  # type: ignore[index]
    assert answer.startswith("order only, no interval or gain: its files are on fuse.glusterfs")
    assert "the model learned on ext4" in answer
    for p in there["predictions"]:  # type: ignore[attr-defined]
        assert (
            p["low"] is None
            and p["high"] is None
            and p["predicted_ratio"] is None
            and p["gain"]["basis"] == "unknown"
        )
        assert p["far_from_data"].startswith("its files are on fuse.glusterfs")
    # The order is the model's, the same on both: what it knows, without the bounds.
    keys = [[p["key"] for p in r["predictions"]] for r in (here, there)]  # type: ignore[attr-defined]
    assert keys[0] == keys[1]
    printed = iotuner("predict", "--model", str(model), "--workload", WORKLOAD,
                      "--dir", str(on_gluster)).stdout  # fmt: skip
    assert "another system (its files are on fuse.glusterfs" in printed
    assert "no interval and no gain" in printed


def test_advise_gives_no_hint_for_a_run_on_gluster_and_says_why(
    learned: Path,  # noqa: F811
    on_gluster: Path,
    mpi: Mpi,
    tmp_path: Path,
) -> None:
    kernel = mpi.command(2, "iokernel", "--file", str(on_gluster / "out.dat"), "--size", "512k")
    iotuner("run", "--log-dir", str(tmp_path / "logs"), "--", *kernel)
    (traced,) = (tmp_path / "logs").glob("*.iotrace.jsonl")
    advised = json.loads(
        iotuner(
            "advise",
            str(traced),
            "--db",
            str(learned / "kb.sqlite"),
            "--model",
            str(learned / "model"),
            "--json",
        ).stdout
    )
    groups = [r for r in advised["recommendations"] if r["through_mpiio"]]
    assert groups
    for r in groups:
        assert not r["covered"] and r["hints"] == {} and r["predicted_gain"] is None, r
        assert f"its files are on {GLUSTER}" in r["reason"], r["reason"]


def test_tune_refuses_a_model_of_another_system(
    learned: Path,  # noqa: F811
    both_systems: Path,
) -> None:
    with open_store(str(both_systems / "kb.sqlite")) as store:
        (gluster,) = [s for s in store.systems() if s.fs_type == GLUSTER]
    table = both_systems / "table.jsonl"
    done = subprocess.run(
        [IOTUNER, "tune", "--db", str(both_systems / "kb.sqlite"), "--system",
         gluster.fingerprint, "--model", str(learned / "model"), "-o", str(table)],
        capture_output=True, text=True, timeout=TIMEOUT, check=False,
    )  # fmt: skip
    assert done.returncode != 0
    assert "the model learned on ext4" in done.stderr and "never saw" in done.stderr, done.stderr
    assert not table.exists()
