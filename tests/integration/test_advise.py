"""`iotuner advise` as a user runs it: on a trace of our kernel (its recommendation is what
`iotuner run --mode tune` applies with tune's table), on every example Darshan log the
`darshan` wheel ships, and without a model."""

import importlib.resources
import json
import re
import shlex
import shutil
import subprocess
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


@pytest.mark.slow  # CI's: runs each export with MPICH and Open MPI
def test_the_exports_advise_prints_apply_when_run(learned: Path, mpi: Mpi, tmp_path: Path) -> None:
    """`advise --table T` writes the ROMIO hints file and the MCA file beside T and prints
    commands that name them, never T (ROMIO reads a JSON table as no hints; `. T` fails).
    Each printed command is run as printed with a real program: MPICH reports the ROMIO
    hints after the open (MPI_File_get_info), Debian's Open MPI writes as the MCA
    parameters say (skipped without it). MPICH_MPIIO_HINTS acts on Cray's MPICH only (this
    MPICH ignores it): its command must carry the setting itself, not name a file."""
    from .test_hint_exports_mpi import KERNEL, kernel_for, plain_env, run

    db, model = str(learned / "kb.sqlite"), str(learned / "model")
    kernel = mpi.command(2, "iokernel", "--file", str(tmp_path / "traced.dat"), "--size",
                         "512k", "--layout", "strided")  # fmt: skip
    iotuner("run", "--log-dir", str(tmp_path / "plain"), "--", *kernel)
    (traced,) = (tmp_path / "plain").glob("*.iotrace.jsonl")
    table = tmp_path / "advised.jsonl"
    advised = json.loads(
        iotuner("advise", str(traced), "--db", db, "--model", model, "--json",
                "--table", str(table)).stdout
    )  # fmt: skip
    (group,) = advised["recommendations"]
    if not group["hints"]:
        # The shared sweep is two repeats on a shared machine: on a loaded one no
        # configuration's worst repeat may beat the default's best, and advise rightly
        # keeps the defaults: there is then nothing whose export could be run.
        pytest.skip(f"the small sweep's model advised no change: {group['reason']}")
    exports = {e["mechanism"]: e for e in advised["exports"]}
    for mechanism, export in exports.items():
        if mechanism != "iotuner":
            assert str(table) not in "\n".join(export["usage"]), export["usage"]
    assert exports["cray"]["file"] is None
    assert "MPICH_MPIIO_HINTS='*:" in exports["cray"]["usage"][0]

    romio = exports["romio-hints"]
    (named,) = re.findall(r"^export ROMIO_HINTS=(\S+)$", "\n".join(romio["usage"]), re.M)
    assert named == romio["file"] == str(table.with_suffix(".romio-hints"))
    assert Path(named).read_text() == romio["text"]
    carried = dict(
        line.split() for line in romio["text"].splitlines() if line and not line.startswith("#")
    )
    assert carried and carried.items() <= group["hints"].items()
    mpiexec, program = kernel_for("mpich", tmp_path)
    written = [program, "--file", str(tmp_path / "out.bin"), *KERNEL]
    shell = f'export ROMIO_HINTS={shlex.quote(named)} && exec "$@"'
    _, info = run(["sh", "-c", shell, "sh", mpiexec, "-n", "2", *written], plain_env())
    assert {key: info.get(key) for key in carried} == carried

    mca = exports["mca"]
    assert Path(mca["file"]).read_text() == mca["text"]
    parameters = dict(re.findall(r"^export OMPI_MCA_(\w+)=(\S+)$", mca["text"], re.M))
    if parameters:
        assert f". {shlex.quote(mca['file'])}" in mca["usage"]
        open_mpi_applies(mca["file"], parameters, tmp_path)
    else:  # keys OMPIO has no parameter for (romio_ds_write): no line to run, and why
        assert mca["usage"] == [] and mca["dropped"], mca

    # Advice that changes nothing (another system's log) leaves no setting of this one in
    # the files, as it leaves an empty table: no earlier advice is applied by mistake.
    other = next(p for p in darshan_examples() if p.name == "example.darshan")
    iotuner("advise", str(other), "--db", db, "--model", model, "--table", str(table))
    for name in (romio["file"], mca["file"]):
        assert all(line.startswith("#") for line in Path(name).read_text().splitlines())


def open_mpi_applies(mca_file: str, parameters: dict[str, str], tmp_path: Path) -> None:
    """`. MCA_FILE` then Open MPI, as advise prints it: OMPIO reports no hint through
    MPI_File_get_info, so Open MPI's own ompi_info, run the same way, must say each
    parameter is set, from the environment; and a strided collective write, aggregated
    into one rank on one host by default, is written by every rank with collective
    buffering off (fcoll individual)."""
    from .conftest import TIMEOUT
    from .test_hint_exports_mpi import KERNEL, SIZE, kernel_for, plain_env, run

    mpiexec, program = kernel_for("openmpi", tmp_path)
    sourced = ["sh", "-c", f'. {shlex.quote(mca_file)} && exec "$@"', "sh"]
    ompi_info = shutil.which("ompi_info", path=str(Path(mpiexec).parent)) or "ompi_info"
    listed = subprocess.run(
        [*sourced, ompi_info, "--param", "all", "all", "--level", "9", "--parsable"],
        env=plain_env(), capture_output=True, text=True, timeout=TIMEOUT, check=True,
    ).stdout  # fmt: skip
    for name, value in parameters.items():
        assert f":param:{name}:value:{value}\n" in listed, name
        assert f":param:{name}:source:environment\n" in listed, name
    written = [program, "--file", str(tmp_path / "out.bin"), *KERNEL]
    plain, _ = run([mpiexec, "-n", "4", *written], plain_env())
    by_file, _ = run([*sourced, mpiexec, "-n", "4", *written], plain_env())
    if parameters.get("fcoll") == "individual":
        assert sum(1 for w in plain if w > 0) == 1, plain
        assert by_file == [SIZE] * 4, by_file
