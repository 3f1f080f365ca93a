"""A search over our MPI-IO kernel at 2 ranks, measured from its trace."""

import subprocess
import sys
from pathlib import Path

import numpy as np
import pandas as pd

from iotuner.measurement import Workload
from iotuner.runner import build_config, find_program, run
from iotuner.search import RunObjective, SearchSettings, parse_measure, run_search, winner_entries
from iotuner.space import load_space, parse_space
from iotuner.store import open_store
from iotuner.table import read_table
from iotuner.tracelog import read_tracelog

SPACE = """
name = "cb-write"
description = "collective buffering for writes: 3 configurations"

[hints.romio_cb_write]
values = ["automatic", "disable", "enable"]
default = "automatic"
"""


def kernel(tmp_path: Path, *extra: str) -> list[str]:
    """Our kernel at 2 ranks, 64 KiB per rank, a new file per trial (deleted after)."""
    return [
        build_config().mpiexec,
        "-n",
        "2",
        str(find_program("iokernel")),
        "--file",
        str(tmp_path / "data-{trial}.dat"),
        "--size",
        "64k",
        "--delete",
        *extra,
    ]


def test_grid_over_iokernel_at_two_ranks(tmp_path: Path) -> None:
    space = parse_space(SPACE, "test space")
    command = kernel(tmp_path, "--layout", "strided", "--block", "4k", "--fill", "0.5")
    objective = RunObjective(command, space, log_dir=tmp_path / "logs", timeout=120)
    result = run_search(objective, SearchSettings("grid", repeats=3))
    assert len(result.trials) == 3
    assert all(t.value is not None and t.value > 0 for t in result.trials)
    assert (result.program, result.nprocs) == ("iokernel", 2)
    for trial in result.trials:
        (log,) = [read_tracelog(p) for p in trial.outcome.logs]
        requested = log.hints[0]["requested"]
        wanted = space.hints(trial.config)
        assert {k: v for k, v in requested.items() if k in wanted} == wanted
    # The default and the best other configuration, three times each.
    assert [r.is_default for r in result.remeasured] == [True, False]
    assert all(len(r.values) == 3 for r in result.remeasured)
    # The traced run of the default that showed what the kernel does was the first trial.
    assert result.trials[0].config == space.default() and not result.probe_logs
    assert result.fixed == {} and "collective writes" in result.relevance_note
    assert result.winner is not None
    entries = winner_entries(result, result.program or "", result.nprocs or 0)
    # A winner that sets no hint (the default kept) leaves the table as it was.
    assert (entries == []) == (not space.hints(result.winner))
    assert all((e.program, e.nprocs) == ("iokernel", 2) for e in entries)
    assert not list(tmp_path.glob("data-*.dat"))  # --delete: the kernel removed its files


class _PreferEnable:
    """A model that predicts romio_cb_write=enable best, and records what it was asked."""

    def __init__(self) -> None:
        self.frames: list[pd.DataFrame] = []

    def predict_interval(self, frame: pd.DataFrame) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        self.frames.append(frame)
        values = np.where(frame["cfg:romio_cb_write"] == "enable", 100.0, 10.0)
        return values, values, values


def test_model_strategy_reads_the_workload_from_the_default_run(tmp_path: Path) -> None:
    space = parse_space(SPACE, "test space")
    command = kernel(tmp_path)
    objective = RunObjective(command, space, log_dir=tmp_path / "logs", timeout=120)
    predictor = _PreferEnable()
    settings = SearchSettings("model", budget=2, repeats=0, model_top_k=1)
    result = run_search(objective, settings, predictor=predictor)
    assert [t.config["romio_cb_write"] for t in result.trials] == ["automatic", "enable"]
    # One 64 KiB call per rank, side by side in one shared file (the trace's offsets).
    assert result.workload == Workload(
        2,
        1,
        "collective",
        "write",
        "contiguous",
        65536,
        ranks_per_node=2,
        files=1,
        interleaved=False,
        program="iokernel",
        memory_block=0,  # the trace's access shape: contiguous memory
    )
    assert (predictor.frames[0]["bytes_per_rank"] == 65536).all()


def test_search_command_keeps_every_trial_and_the_winner(tmp_path: Path) -> None:
    """The CLI as a user runs it: trials into the knowledge base, the winner into a table."""
    (tmp_path / "space.toml").write_text(SPACE)
    iotuner = str(Path(sys.executable).parent / "iotuner")
    command = [
        iotuner, "search", "--space", str(tmp_path / "space.toml"), "--strategy", "grid",
        "--repeats", "3", "--db", str(tmp_path / "kb.sqlite"),
        "--table", str(tmp_path / "table.jsonl"), "--storage", str(tmp_path / "study.db"),
        "--log-dir", str(tmp_path / "logs"), "--",
        build_config().mpiexec, "-n", "2", str(find_program("iokernel")),
        "--file", str(tmp_path / "data-{trial}.dat"), "--size", "64k", "--delete",
    ]  # fmt: skip
    completed = subprocess.run(command, capture_output=True, text=True, timeout=300, check=False)
    assert completed.returncode == 0, completed.stdout + completed.stderr
    store = open_store(tmp_path / "kb.sqlite")
    measured = store.measurements()
    store.close()
    assert set(measured["kind"]) == {"search"}
    # Three trials and the re-measurements, one collective write each.
    assert len(measured) >= 3
    assert set(measured["cfg:romio_cb_write"]) >= {"disable", "enable"}
    if "left as it was" in " ".join(completed.stdout.split()):  # the default kept: no entries
        assert not (tmp_path / "table.jsonl").exists()
        return
    entry, *kept = read_table(tmp_path / "table.jsonl")
    assert (entry.at, entry.program, entry.nprocs) == ("open", "iokernel", 2)
    assert all(e.program == "iokernel" and e.hints == entry.hints for e in kept)


def test_walltime_search_measures_the_program_untraced_over_what_it_does(tmp_path: Path) -> None:
    """End to end with the shipped space: a write-only kernel, its read-side knobs fixed,
    trials untraced (the figure the kernel prints), the verdict on 3 + 3 re-measures."""
    space = load_space("romio-ufs")
    command = kernel(tmp_path, "--calls", "4", "--print-info")
    kind, pattern = parse_measure("regex:data_mib_s=([0-9.]+)")
    objective = RunObjective(
        command, space, measure=kind, pattern=pattern, log_dir=tmp_path / "logs", timeout=120
    )
    result = run_search(objective, SearchSettings("random", budget=4, seed=5, repeats=3))
    assert set(result.fixed) == {"romio_cb_read", "romio_ds_read", "ind_rd_buffer_size"}
    assert len(result.trials) == 4  # the traced run of the default is not one of them
    for trial in result.trials:
        assert not trial.outcome.logs  # untraced
        for name in result.fixed:
            assert trial.config[name] == space.parameter(name).default
    (probe,) = result.probe_logs
    assert read_tracelog(probe).hints  # the default's run was traced, to read its accesses
    assert (result.program, result.nprocs) == ("iokernel", 2)
    assert result.trial_mode == "tune"
    default, best = result.remeasured
    assert default.is_default and len(default.values) == 3 and len(best.values) == 3
    assert result.verdict is not None and result.verdict.level == 0.05
    assert result.winner in (default.config, best.config)
    # The route the trials took (one open entry, mode tune, no trace) sets the hints in MPI.
    tried = next(t for t in result.trials if space.hints(t.config))
    table = tmp_path / "logs" / "tables" / f"{tried.number}.jsonl"
    rerun = run(command, mode="tune", table=table, log_dir=tmp_path / "logs", capture=True)
    assert rerun.returncode == 0 and not rerun.logs
    info = dict(
        line.removeprefix("info ").split("=", 1)
        for line in rerun.stdout.splitlines()
        if line.startswith("info ")
    )
    for key, value in space.hints(tried.config).items():
        # ROMIO takes at most one aggregator per rank: more cb_nodes read back as 2.
        expected = str(min(int(value), 2)) if key == "cb_nodes" else value
        assert info[key] == expected, (key, info)


def test_a_resumed_search_fixes_the_same_parameters_without_tracing_again(tmp_path: Path) -> None:
    space = load_space("romio-ufs")
    objective = RunObjective(
        kernel(tmp_path), space, measure="walltime", log_dir=tmp_path / "logs", timeout=120
    )
    storage = f"sqlite:///{tmp_path / 'study.db'}"
    first = run_search(
        objective, SearchSettings("random", budget=1, seed=2, repeats=0, storage=storage)
    )
    second = run_search(
        objective, SearchSettings("random", budget=2, seed=2, repeats=0, storage=storage)
    )
    assert len(first.probe_logs) == 1 and not second.probe_logs
    assert (
        set(second.fixed)
        == set(first.fixed)
        == {"romio_cb_read", "romio_ds_read", "ind_rd_buffer_size"}
    )
    assert "read when this study began" in second.relevance_note
    assert (second.program, second.nprocs) == ("iokernel", 2)  # kept in the study
    assert len(second.trials) == 2 and sum(t.new for t in second.trials) == 1
