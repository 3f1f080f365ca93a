"""`iotuner advise` as a user runs it: on a trace of our kernel (its recommendation is what
`iotuner run --mode tune` applies with tune's table), on every example Darshan log the
`darshan` wheel ships, and without a model."""

import importlib.resources
import json
import shutil
from pathlib import Path

import pytest

from iotuner.advise import groups_of_trace, recommend_from_table
from iotuner.cli._main import main
from iotuner.formats import size_group
from iotuner.table import read_table, table_fs_type
from iotuner.tracelog import read_tracelog

from .conftest import Mpi, write_table
from .test_cli import iotuner


@pytest.fixture(scope="module")
def learned(small_sweep: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A model trained on the session's small real sweep at 2 ranks (conftest.small_sweep),
    beside a copy of its knowledge base."""
    folder = tmp_path_factory.mktemp("advise")
    shutil.copy(small_sweep / "kb.sqlite", folder / "kb.sqlite")
    iotuner("train", "--db", str(folder / "kb.sqlite"), "--quick", "-o", str(folder / "model"))
    return folder


def darshan_examples() -> list[Path]:
    root = importlib.resources.files("darshan") / "examples"
    logs = sorted(Path(str(root)).rglob("*.darshan"))
    assert logs, "the darshan wheel ships example logs"
    return logs


def requested_hints(log_path: Path) -> dict[str, str]:
    """What the interposer asked MPI for, for the file of the data operations: every key
    requested in the hint sets up to the last one in force (open, then accesses)."""
    log = read_tracelog(log_path)
    asked: dict[str, str] = {}
    for op in log.ops:
        for hints in log.hints:
            if hints["file"] == op["file"] and hints["seq"] <= op["hint_set"]:
                asked.update({k: str(v) for k, v in hints["requested"].items()})
    return asked


def test_advise_on_a_trace_recommends_what_tune_applies(
    learned: Path, mpi: Mpi, tmp_path: Path
) -> None:
    db, model = str(learned / "kb.sqlite"), str(learned / "model")
    kernel = mpi.command(2, "iokernel", "--file", str(tmp_path / "out.dat"), "--size", "512k")
    iotuner("run", "--log-dir", str(tmp_path / "plain"), "--", *kernel)
    (traced,) = (tmp_path / "plain").glob("*.iotrace.jsonl")

    advised = json.loads(
        iotuner(
            "advise",
            str(traced),
            "--db",
            db,
            "--model",
            model,
            "--json",
            "--table",
            str(tmp_path / "advised.jsonl"),
        ).stdout
    )
    (group,) = advised["recommendations"]
    assert group["op"] == "write" and group["through_mpiio"]
    assert group["workload"]["pattern"] == "collective"
    assert group["workload"]["bytes_per_rank"] == 512 * 1024
    assert group["predicted_gain"] is not None and group["interval"] is not None
    low, high = group["interval"]
    assert low <= group["predicted_gain"] <= high or group["kept_default"]
    # What advise prints as the gain is the earned one (iotuner.gains), never a raw ratio.
    assert group["gain_basis"] in ("measured", "calibrated", "unknown")
    assert (group["gain"] == "unknown") == (group["gain_basis"] == "unknown")
    printed = iotuner("advise", str(traced), "--db", db, "--model", model).stdout
    assert group["gain"] in " ".join(printed.split())

    iotuner("tune", "--db", db, "--model", model, "-o", str(tmp_path / "tuned.jsonl"))
    iotuner("run", "--mode", "tune,trace", "--table", str(tmp_path / "tuned.jsonl"),
            "--log-dir", str(tmp_path / "tuned"), "--", *kernel)  # fmt: skip
    (tuned,) = (tmp_path / "tuned").glob("*.iotrace.jsonl")
    assert group["hints"] == requested_hints(tuned)

    # Both tables name the knowledge base's file system, the file's here: they apply.
    assert table_fs_type(tmp_path / "advised.jsonl") == table_fs_type(tmp_path / "tuned.jsonl")
    assert table_fs_type(tmp_path / "tuned.jsonl") not in (None, "unknown")
    # The table advise wrote gives the same run the same hints.
    iotuner("run", "--mode", "tune,trace", "--table", str(tmp_path / "advised.jsonl"),
            "--log-dir", str(tmp_path / "again"), "--", *kernel)  # fmt: skip
    (again,) = (tmp_path / "again").glob("*.iotrace.jsonl")
    assert requested_hints(again) == group["hints"]


def advise_here(capsys: pytest.CaptureFixture[str], *args: str) -> str:
    """`iotuner advise ARGS` in this process (the command's own code, without starting
    Python and scikit-learn again for each of the many logs); its stdout."""
    capsys.readouterr()
    assert main(["advise", *args]) == 0
    return capsys.readouterr().out


def test_advise_matches_the_hints_the_interposer_applies(mpi: Mpi, tmp_path: Path) -> None:
    """The same lookup with hints that change something: a table whose open and access
    entries both apply to the kernel's file; advise's hints for the traced group equal the
    hints the interposer asked MPI for when the kernel ran under that table."""
    kernel = mpi.command(2, "iokernel", "--file", str(tmp_path / "out.dat"), "--size", "512k")
    iotuner("run", "--log-dir", str(tmp_path / "plain"), "--", *kernel)
    (traced,) = (tmp_path / "plain").glob("*.iotrace.jsonl")
    (group,) = groups_of_trace(read_tracelog(traced))
    table = write_table(
        tmp_path / "table.jsonl",
        {"at": "open", "nprocs": 2, "hints": {"cb_nodes": "1"}},
        {"at": "open", "nprocs": 4, "hints": {"cb_nodes": "4"}},
        {"nprocs": 2, "group": size_group(512 * 1024), "pattern": "collective", "op": "write",
         "layout": "contiguous", "hints": {"romio_cb_write": "enable"}},
        {"nprocs": 2, "group": size_group(512 * 1024), "pattern": "collective", "op": "read",
         "hints": {"romio_cb_read": "disable"}},
    )  # fmt: skip
    advised = recommend_from_table(group, "iokernel", read_table(table))
    assert advised.hints == {"cb_nodes": "1", "romio_cb_write": "enable"}
    iotuner("run", "--mode", "tune,trace", "--table", str(table),
            "--log-dir", str(tmp_path / "tuned"), "--", *kernel)  # fmt: skip
    (tuned,) = (tmp_path / "tuned").glob("*.iotrace.jsonl")
    assert requested_hints(tuned) == advised.hints


@pytest.mark.parametrize("log", darshan_examples(), ids=lambda p: p.name)
def test_advise_on_each_example_darshan_log(
    learned: Path, log: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db, model = str(learned / "kb.sqlite"), str(learned / "model")
    advised = json.loads(advise_here(capsys, str(log), "--db", db, "--model", model, "--json"))
    assert advised["source"]["kind"] == "darshan"
    assert advised["source"]["nprocs"] >= 1
    for r in advised["recommendations"]:
        assert r["reason"]
        for e in r["evidence"]:
            assert e["words"] and e["counter"]
    if any(r["hints"] for r in advised["recommendations"]):
        assert {e["mechanism"] for e in advised["exports"]} >= {"romio-hints", "cray", "mca"}
    printed = advise_here(capsys, str(log), "--db", db, "--model", model)
    assert "processes" in printed
    if advised["recommendations"]:
        assert "recommendation:" in printed
        assert "How to apply it" in printed


def test_advise_without_a_model_gives_the_evidence(tmp_path: Path) -> None:
    log = next(p for p in darshan_examples() if p.name == "example.darshan")
    completed = iotuner("advise", str(log), "--model", str(tmp_path / "none"),
                        "--db", str(tmp_path / "kb.sqlite"))  # fmt: skip
    assert "evidence only" in completed.stdout
    assert "recommendation: none" in completed.stdout


def test_advise_rejects_what_is_not_a_log(tmp_path: Path) -> None:
    import subprocess

    from .test_cli import IOTUNER

    text = tmp_path / "notes.txt"
    text.write_text("hello\n")
    for path, words in ((tmp_path / "missing.darshan", "no such file"), (text, "Darshan")):
        completed = subprocess.run([IOTUNER, "advise", str(path)], capture_output=True,
                                   text=True, check=False)  # fmt: skip
        assert completed.returncode != 0
        assert words in completed.stderr
        assert "Traceback" not in completed.stderr
