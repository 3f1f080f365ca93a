"""Online tuning (`iotuner run --learn`) over real runs of our kernel at 2 ranks.

The knob: data sieving for independent strided writes of 256-byte blocks at half fill
(romio_ds_write). With sieving off every block is its own write; on this kind of machine
that is several times slower than sieving on (ROMIO's `automatic` turns it on here), far
beyond the runs' noise (measured on the 2-core development machine, 3 runs each: 14-23 MiB/s
with sieving off, 57-81 MiB/s on). The knowledge base starts with two
traced runs of each value, as an earlier search would leave. The tests assert the decisions
recorded in the history, never timings."""

import json
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

from iotuner.ingest import ingest_trace
from iotuner.online import read_history
from iotuner.runner import build_config, find_program
from iotuner.store import open_store
from iotuner.table import TableEntry, match, read_table, write_table

SPACE = """
name = "ds-write"
[hints.romio_ds_write]
values = ["automatic", "disable", "enable"]
default = "automatic"
"""
IOTUNER = str(Path(sys.executable).parent / "iotuner")
SLOW = {"romio_ds_write": "disable"}


def _kernel(folder: Path) -> list[str]:
    return [
        build_config().mpiexec, "-n", "2", str(find_program("iokernel")),
        "--file", str(folder / "data.dat"), "--pattern", "independent", "--layout", "strided",
        "--block", "256", "--fill", "0.5", "--size", "1m", "--delete",
    ]  # fmt: skip


def _run(folder: Path, *options: str) -> subprocess.CompletedProcess[str]:
    command = [IOTUNER, "run", *options, "--log-dir", str(folder / "logs"), "--"]
    return subprocess.run(
        command + _kernel(folder), capture_output=True, text=True, timeout=120, check=False
    )


def _learn(folder: Path, *options: str) -> subprocess.CompletedProcess[str]:
    completed = _run(
        folder,
        "--learn", "--table", str(folder / "table.jsonl"), "--db", str(folder / "kb.sqlite"),
        "--space", str(folder / "space.toml"), *options,
    )  # fmt: skip
    assert completed.returncode == 0, completed.stdout + completed.stderr
    assert "learning from this run failed" not in completed.stderr, completed.stderr
    return completed


def _program_hints(folder: Path) -> dict[str, str | int]:
    """What the table gives the kernel's file at open (the learner's entry, or ours)."""
    entries = read_table(folder / "table.jsonl")
    found = match(entries, at="open", program="iokernel", file="data.dat", nprocs=2)
    return dict(found.hints) if found is not None else {}


def _set_program(folder: Path, hints: dict[str, str | int]) -> None:
    write_table(
        folder / "table.jsonl", [TableEntry(at="open", program="iokernel", nprocs=2, hints=hints)]
    )


@pytest.fixture(scope="module")
def seeded(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A knowledge base with two traced runs of each value of the knob."""
    folder = tmp_path_factory.mktemp("seed")
    (folder / "space.toml").write_text(SPACE)
    logs: list[Path] = []
    for _ in range(2):
        for value in ("disable", "enable", "automatic"):
            table = folder / f"{value}.jsonl"
            write_table(table, [TableEntry(at="open", hints={"romio_ds_write": value})])
            before = set((folder / "logs").glob("*.iotrace.jsonl"))
            completed = _run(folder, "--mode", "tune,trace", "--table", str(table))
            assert completed.returncode == 0, completed.stderr
            logs += sorted(set((folder / "logs").glob("*.iotrace.jsonl")) - before)
    with open_store(folder / "kb.sqlite") as store:
        for log in logs:
            ingest_trace(store, log)
    return folder


@pytest.fixture
def folder(seeded: Path, tmp_path: Path) -> Path:
    for name in ("space.toml", "kb.sqlite"):
        shutil.copy(seeded / name, tmp_path / name)
    return tmp_path


def test_the_online_loop_leaves_a_slow_entry_for_the_best(folder: Path) -> None:
    _set_program(folder, SLOW)  # an earlier choice that turns data sieving off
    for _ in range(3):
        _learn(folder)
    history = read_history(folder / "table.jsonl")
    assert [e["event"] for e in history if e["event"] == "run"] == ["run"] * 3
    changes = [e for e in history if e["event"] == "change"]
    assert len(changes) == 1, history
    assert changes[0]["old"] == SLOW
    # The traced runs the knowledge base started with are no learning runs: they suggest
    # the try, and its gain stays unknown until the learning runs measure it.
    assert changes[0]["model"] == "the program's earlier traced runs", changes[0]
    assert changes[0]["gain"] is None and changes[0]["interval"] is None
    # Ends on sieving on: no entry (ROMIO's automatic, the measured best) or `enable`.
    assert _program_hints(folder).get("romio_ds_write", "automatic") in ("automatic", "enable")
    assert changes[0]["new"] == _program_hints(folder)
    # The runs after the change ran with the new entry, and it was kept.
    runs = [e for e in history if e["event"] == "run"]
    assert runs[0]["hints"] == SLOW and all(r["hints"] == changes[0]["new"] for r in runs[1:])
    # Each run also has the program's own clock on the file (its bytes over open to
    # close): the guard's second witness.
    assert all(r["phase_bandwidth"] > 0 for r in runs), runs
    # ... and every phase of that file (the guard judges each).
    main = runs[0]["workload"]
    key = f"{main['pattern']} {main['op']} {main['layout']} group {main['group']}"
    assert all(r["phases"][key] > 0 for r in runs), runs
    assert history[-1]["event"] == "keep"


def test_a_measured_change_rests_on_the_learner_s_own_runs(folder: Path) -> None:
    """The measured rule compares the program's learning runs, two or more each side:
    the knowledge base's traced runs of every value (the fixture's) do not count."""
    _set_program(folder, {"romio_ds_write": "enable"})
    for _ in range(2):
        _learn(folder, "--refit-every", "0")  # runs recorded, no refit
    _set_program(folder, SLOW)
    _learn(folder, "--refit-every", "0")
    _learn(folder)  # the second run with SLOW: two runs each, then the refit
    history = read_history(folder / "table.jsonl")
    (change,) = [e for e in history if e["event"] == "change"]
    assert change["model"] == "the workload's measurements", change
    assert change["old"] == SLOW and change["new"] == {"romio_ds_write": "enable"}
    assert change["gain"] > 1 and change["interval"][0] > 1


@pytest.mark.slow  # CI's
def test_a_change_that_made_runs_slower_is_rolled_back(folder: Path) -> None:
    _set_program(folder, {"romio_ds_write": "enable"})
    for _ in range(3):
        _learn(folder, "--refit-every", "0")  # runs recorded, no refit
    # A change as online tuning writes it, to a configuration that is in fact slower.
    _set_program(folder, SLOW)
    with (folder / "table.jsonl.history.jsonl").open("a") as out:
        change = {"event": "change", "program": "iokernel", "nprocs": 2, "file": "data.dat",
                  "time": 0.0, "old": {"romio_ds_write": "enable"}, "new": SLOW, "gain": 1.5,
                  "interval": [1.1, 2.0]}  # fmt: skip
        out.write(json.dumps(change) + "\n")
    for _ in range(6):  # at least 3 runs with it; more when noise hides the first 3
        _learn(folder, "--refit-every", "0")
        if any(e["event"] == "rollback" for e in read_history(folder / "table.jsonl")):
            break
    history = read_history(folder / "table.jsonl")
    (rollback,) = [e for e in history if e["event"] == "rollback"]
    assert rollback["old"] == SLOW and rollback["new"] == {"romio_ds_write": "enable"}
    assert len(rollback["before"]) == 3
    # Sieving off is several times slower: its first run falls below every run before
    # it by more than the spread, and the change goes back at once; otherwise the rank
    # test judges after three runs.
    assert len(rollback["after"]) >= 3 or "below the median" in rollback["reason"]
    assert _program_hints(folder) == {"romio_ds_write": "enable"}


@pytest.mark.slow  # CI's
def test_an_entry_the_space_cannot_read_is_repaired_once(folder: Path) -> None:
    """An entry holding a value the vocabulary allows but the space does not list (here
    sieving `disable` under a space of `automatic` and `enable`): the first learning run
    puts that key back to its default and says so, once; the next runs learn as usual."""
    (folder / "space.toml").write_text(SPACE.replace('"disable", ', ""))
    _set_program(folder, {**SLOW, "striping_factor": 2})  # a key outside the space stays
    first = _learn(folder)
    assert first.stderr.count("not among the values of space") == 1, first.stderr
    assert _program_hints(folder) in (
        {"striping_factor": 2},
        {"striping_factor": 2, "romio_ds_write": "enable"},
    ), _program_hints(folder)
    second = _learn(folder)
    assert "not among the values" not in second.stderr, second.stderr
    history = read_history(folder / "table.jsonl")
    (repair,) = [e for e in history if e["event"] == "repair"]
    assert repair["old"] == {**SLOW, "striping_factor": 2}
    assert repair["new"] == {"striping_factor": 2}


def test_a_failure_to_learn_is_a_warning_and_keeps_the_programs_status(folder: Path) -> None:
    completed = _run(
        folder, "--learn", "--table", str(folder / "table.jsonl"),
        "--db", str(folder / "missing" / "folder" / "kb.sqlite"), "--space", "no-such-space",
    )  # fmt: skip
    assert completed.returncode == 0, completed.stderr
    assert completed.stderr.count("learning from this run failed") == 1


def test_a_learning_run_on_a_busy_machine_says_so_once(
    folder: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Issue 32, item 7: what `run --learn` learns from is a measurement, which a load
    above the cores makes noise; it says so in one line, and learns as before. A run that
    learns nothing says nothing of the load."""
    monkeypatch.setenv("IOTUNER_TEST_LOADAVG", "64")  # the kernel's figure moves too slowly
    learned = _learn(folder)
    assert learned.stderr.count("iotuner: warning: the machine is busy (load average 64.0") == 1
    assert "run" in [e["event"] for e in read_history(folder / "table.jsonl")]  # it learned
    assert "the machine is busy" not in _run(folder).stderr


def test_the_site_wide_setting_learns_and_never_stops_a_run(
    folder: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("IOTUNER_LEARN", "1")
    monkeypatch.setenv("IOTUNER_DB", str(folder / "kb.sqlite"))
    completed = _run(folder, "--table", str(folder / "table.jsonl"), "--space", "no-such-space")
    assert completed.returncode == 0, completed.stderr
    assert [e["event"] for e in read_history(folder / "table.jsonl")] == ["start", "run"]
    completed = _run(folder)  # no table: run as asked, one warning
    assert completed.returncode == 0, completed.stderr
    assert "IOTUNER_LEARN is set, no --table: not learning" in completed.stderr


def test_a_refit_with_enough_data_uses_the_model_and_the_evidence_rule() -> None:
    """The refit on a knowledge base large enough for a model (a synthetic one whose best
    is known: `disable` at a fifth of the bandwidth), without MPI: the workload's own
    measurements decide where it has them; where it has run only the slow setting, the
    calibrated model picks an untried configuration to try next."""
    from iotuner.measurement import Workload
    from iotuner.models import synthetic_summary_frame
    from iotuner.online.choice import choose_next
    from iotuner.space import config_key, parse_space

    space = parse_space(SPACE, "test space")
    frame = synthetic_summary_frame(space, effects={"romio_ds_write": {"disable": 0.2}})
    workload = Workload.from_row(frame.iloc[0])
    measured = choose_next(frame, space, workload, SLOW, SLOW, [], None)
    assert measured["event"] == "change" and measured["old"] == SLOW
    assert measured["model"] == "the workload's measurements" and measured["interval"][0] > 1
    assert measured["new"].get("romio_ds_write", "automatic") != "disable"
    json.dumps(measured, default=lambda v: v.item())  # numpy cells are written as numbers
    kept = choose_next(frame, space, workload, measured["new"], measured["new"], [], None)
    assert kept["event"] == "keep"
    # The workload ran only with sieving off: the model, calibrated on the other
    # workloads, says which untried setting to try.
    same = (frame["nprocs"] == workload.nprocs) & (frame["pattern"] == workload.pattern)
    same &= frame["bytes_per_rank"] == workload.bytes_per_rank
    first = frame[~same | (frame["config"] == config_key(space.validate(SLOW)))]
    tried = choose_next(first, space, workload, SLOW, SLOW, [], None)
    assert tried["event"] == "change" and tried["calibrated"] is True
    assert tried["model"] == "random_forest"
    assert tried["new"].get("romio_ds_write", "automatic") != "disable"
    assert tried["interval"][0] >= 1 / (1 + tried["noise"])
    # A configuration rolled back is never chosen again.
    banned = choose_next(first, space, workload, SLOW, SLOW, [tried["new"]], None)
    assert banned["event"] in ("change", "keep")
    assert banned.get("new") != tried["new"]


def test_the_keys_the_program_passes_itself_are_known(tmp_path: Path) -> None:
    """The run's summary names the hints the program passed to MPI itself (the trace's
    `app` keys), and only those: for them, the program's own value is its default."""
    from iotuner.online.runs import main_workload

    command = [IOTUNER, "run", "--mode", "trace", "--log-dir", str(tmp_path / "logs"), "--"]
    kernel = [*_kernel(tmp_path), "--hint", "romio_ds_write=enable"]
    completed = subprocess.run(
        command + kernel, capture_output=True, text=True, timeout=120, check=False
    )
    assert completed.returncode == 0, completed.stdout + completed.stderr
    run = main_workload(sorted((tmp_path / "logs").glob("*.iotrace.jsonl")))
    assert run.app_keys == {"romio_ds_write"}
    assert run.in_force.get("romio_ds_write") == "enable"


OTHER_FILES = [
    TableEntry(at="open", program="iokernel", file=name, nprocs=2,
               hints={"romio_ds_write": "enable"}, note="from trace history")
    for name in ("ckpt_*.h5", "restart.mpio", "out_*.dat", "log.dat")
] + [
    TableEntry(program="iokernel", file="ckpt_*.h5", nprocs=2, group=20, pattern="collective",
               op="write", layout="contiguous", hints={"romio_cb_write": "enable"}),
]  # fmt: skip


def test_learning_changes_only_the_entries_of_the_file_it_measured(folder: Path) -> None:
    """Issue 31: `table derive` wrote five per-file entries, and the learner's first run
    replaced them with one entry for the whole program. It changes the entries of the
    file (and size group) its run measured, and leaves every other one as it was."""
    table = folder / "table.jsonl"
    mine = TableEntry(at="open", program="iokernel", file="data.dat", nprocs=2, hints=SLOW)
    write_table(table, [mine, *OTHER_FILES])
    _learn(folder)
    entries = read_table(table)
    assert [e for e in entries if e.file != "data.dat"] == OTHER_FILES
    (change,) = [e for e in read_history(table) if e["event"] == "change"]
    assert change.get("file") == "data.dat" and change["old"] == SLOW
    assert _program_hints(folder) == change["new"] != SLOW


@pytest.mark.slow  # CI's
def test_a_missing_empty_or_refused_table_never_stops_the_program(folder: Path) -> None:
    """Issue 31: `iotuner run --learn` exited 2 on an empty table file and never started
    the program. Missing or empty: one warning, the program runs untuned, and learning
    writes the table; refused: one warning, the program runs untuned, the file is left."""
    table = folder / "table.jsonl"
    for state, content in (("does not exist yet", None), ("is empty", "")):
        table.unlink(missing_ok=True)
        if content is not None:
            table.write_text(content)
        completed = _learn(folder)
        assert completed.stderr.count("iotuner: warning:") == 1, completed.stderr
        assert state in completed.stderr and "trace log:" in completed.stderr
        assert (
            read_history(table)[-2]["event"] == "run" or read_history(table)[-1]["event"] == "run"
        )
        if table.exists() and table.read_text().strip():
            read_table(table)  # what learning wrote, a table one can read
    table.write_text('{"not": "a table"}\n')
    completed = _run(
        folder, "--learn", "--table", str(table), "--db", str(folder / "kb.sqlite"),
        "--space", str(folder / "space.toml"),
    )  # fmt: skip
    assert completed.returncode == 0, completed.stderr
    assert completed.stderr.count("iotuner: warning:") == 1, completed.stderr
    assert "refused" in completed.stderr and "trace log:" in completed.stderr
    assert table.read_text() == '{"not": "a table"}\n'


def test_learning_on_the_run_s_own_system_among_several_of_its_host(
    folder: Path, tmp_path_factory: pytest.TempPathFactory
) -> None:
    """Issue 31: with two file systems of one host in the knowledge base, learning failed
    ("name one with --system", and `run` has no --system). The run's own system is the
    file system its main file is on, as ingesting its trace stores it."""
    import os

    shm = Path("/dev/shm")
    if not shm.is_dir() or os.statvfs(shm).f_fsid == os.statvfs(folder).f_fsid:
        pytest.skip("needs /dev/shm on another file system than the test's folder")
    other = Path(tempfile.mkdtemp(dir=shm))
    try:
        logs = folder / "shm-logs"
        command = [IOTUNER, "run", "--mode", "trace", "--log-dir", str(logs), "--"]
        kernel = _kernel(other)
        traced = subprocess.run(command + kernel, capture_output=True, text=True, timeout=120)
        assert traced.returncode == 0, traced.stderr
        with open_store(folder / "kb.sqlite") as store:
            for log in logs.glob("*.iotrace.jsonl"):
                ingest_trace(store, log)
            assert len({s.fs_type for s in store.systems()}) >= 2
    finally:
        shutil.rmtree(other, ignore_errors=True)
    _set_program(folder, SLOW)
    _learn(folder)  # asserts that learning did not fail
    assert [e["event"] for e in read_history(folder / "table.jsonl")][-2:] in (
        ["run", "change"],
        ["run", "keep"],
    )


def test_a_system_with_nothing_the_space_can_read_keeps_the_table(folder: Path) -> None:
    """Seen in bench/real_programs.py: on /dev/shm, whose only rows were the program's own
    runs with a hint the space lacks, every learn step failed with a warning. It is a
    state, said after each run as the reason the table is kept."""
    import os

    shm = Path("/dev/shm")
    if not shm.is_dir() or os.statvfs(shm).f_fsid == os.statvfs(folder).f_fsid:
        pytest.skip("needs /dev/shm on another file system than the test's folder")
    other = Path(tempfile.mkdtemp(dir=shm))
    try:
        # cb_buffer_size is not in the test's space: a row that sets it cannot be read.
        _set_program(folder, {"cb_buffer_size": "1048576"})
        command = [
            IOTUNER, "run", "--learn", "--table", str(folder / "table.jsonl"),
            "--db", str(folder / "kb.sqlite"), "--space", str(folder / "space.toml"),
            "--log-dir", str(folder / "logs"), "--", *_kernel(other),
        ]  # fmt: skip
        completed = subprocess.run(command, capture_output=True, text=True, timeout=120)
    finally:
        shutil.rmtree(other, ignore_errors=True)
    assert completed.returncode == 0, completed.stderr
    assert "learning from this run failed" not in completed.stderr, completed.stderr
    last = read_history(folder / "table.jsonl")[-1]
    assert last["event"] == "keep", last
    assert "nothing to learn from on the run's system" in last["reason"]
    assert "cb_buffer_size" in last["reason"]
