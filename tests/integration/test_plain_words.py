"""What the README's commands say, in words (issue 32, item 7): no Python repr
(`Workload(nprocs=2, ...)`, `stride_min=None`) and no cut sentence reaches a user; `train`
says a summary and calls a fit that diverged so; `tune` without a model stops at once and
names `iotuner train`.

The commands run on a small knowledge base written here (no MPI): 6 workloads of the
demo-small space, every configuration measured twice, the bandwidth set by fixed factors
of the hints (as tests/models/conftest.py) and 5 % noise; beside it a sparse one, where
each workload has a few configurations only, so `analyze` withholds its verdict."""

import math
import re
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from iotuner.measurement import Measurement, System, Workload
from iotuner.space import config_key, load_space
from iotuner.store import open_store

ROOT = Path(__file__).resolve().parents[2]
IOTUNER = str(Path(sys.executable).parent / "iotuner")
SYSTEM = System("node01", "MPICH Version: 4.1.2", "ext4", "ufs", "/scratch")
EFFECTS = {"romio_cb_write": {"enable": 1.5, "disable": 0.5}, "cb_buffer_size": {1048576: 1.3}}
REPR = re.compile(r"\b[A-Za-z_]\w*\(\w+=|=None\b|\bNone\b|<[\w.]+ object at 0x")
"""A dataclass's repr (Workload(nprocs=2, ...)), a Python None, an object's default repr."""


def _write_kb(path: Path, sparse: bool) -> Path:
    space = load_space("demo-small")
    rng = np.random.default_rng(3)
    measurements = []
    for pattern in ("collective", "independent"):
        for size in (64 << 10, 1 << 20, 4 << 20):
            workload = Workload(2, 1, pattern, "write", "contiguous", size, 0, 1.0, 4)
            configs = list(space.configurations())
            if sparse:  # 3 of 18 per workload, a different 3 each: mostly imputed cells
                start = 3 * (size.bit_length() + len(pattern)) % len(configs)
                configs = [configs[0], *configs[start + 1 : start + 3]]
            for config in configs:
                bandwidth = 100.0 * math.log2(size)
                for key, factors in EFFECTS.items():
                    bandwidth *= factors.get(config.get(key), 1.0)  # type: ignore[call-overload]
                for repeat in range(2):
                    uid = f"{pattern}-{size}-{config_key(config)}-{repeat}"
                    value = bandwidth * rng.normal(1, 0.05)
                    measurements.append(
                        Measurement(uid, workload, config, value, 1.0, 2 * size * 4, repeat)
                    )
    with open_store(path) as store:
        run = store.add_run("r", "csv", "test", system=SYSTEM)
        store.add_measurements(run, measurements, SYSTEM, "demo-small")
    return path


def iotuner(*args: str, cwd: Path, ok: bool = True) -> subprocess.CompletedProcess[str]:
    done = subprocess.run(
        [IOTUNER, *args], cwd=cwd, capture_output=True, text=True, timeout=600, check=False
    )
    assert (done.returncode == 0) == ok, done.stdout + done.stderr
    return done


def said(done: subprocess.CompletedProcess[str]) -> str:
    return done.stdout + done.stderr


@pytest.fixture(scope="module")
def folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("words")
    _write_kb(folder / "kb.sqlite", sparse=False)
    _write_kb(folder / "sparse.sqlite", sparse=True)
    return folder


def test_tune_without_a_model_stops_at_once_and_names_train(folder: Path) -> None:
    """It read the knowledge base first (13 s on the README's) and then said only that it
    could not read iotuner-model."""
    done = iotuner("tune", "--db", "kb.sqlite", "-o", "t.jsonl", cwd=folder, ok=False)
    assert "learning from" not in done.stdout + done.stderr  # the knowledge base was not read
    assert "no model at iotuner-model: train one with `iotuner train -o iotuner-model`" in (
        done.stderr
    )
    assert len(done.stderr.splitlines()) == 1, done.stderr


@pytest.mark.slow
def test_the_readme_s_commands_speak_in_words(folder: Path) -> None:
    """About a minute (the whole zoo is trained and evaluated): CI's. The README's own
    walk-through (tests/test_readme.py) checks its output for reprs too."""
    train = iotuner("train", "--db", "kb.sqlite", "-o", "model", "--seeds", "2", cwd=folder)
    # A summary, with where the rest is; --verbose has every figure and the rules.
    lines = train.stdout.splitlines()
    assert len(lines) <= 40 and all(len(line) <= 80 for line in lines), train.stdout
    assert "iotuner train --verbose" in train.stdout and "★" in train.stdout
    assert "performance model" not in train.stdout  # Kunkel et al.'s trees: --verbose
    outputs = [train]
    outputs.append(iotuner("evaluate", "--db", "kb.sqlite", "--quick", cwd=folder))
    outputs.append(
        iotuner("predict", "--model", "model", "--workload",
                "nprocs=2,pattern=collective,op=write,layout=contiguous,size=1m", cwd=folder)
    )  # fmt: skip
    outputs.append(
        iotuner("tune", "--db", "kb.sqlite", "--model", "model", "-o", "t.jsonl", cwd=folder)
    )
    outputs.append(iotuner("analyze", "--db", "kb.sqlite", cwd=folder))
    sparse = iotuner("analyze", "--db", "sparse.sqlite", "--limit", "3", cwd=folder)
    outputs.append(sparse)
    log = ROOT / "tests" / "data" / "ior-20250101-120000-4242-0123456789ab.iotrace.jsonl"
    outputs.append(iotuner("show", str(log), cwd=folder))
    outputs.append(iotuner("space", "show", "demo-small", cwd=folder))
    for done in outputs:
        found = REPR.search(said(done))
        assert found is None, f"{done.args[1]} said {found.group()!r}:\n{said(done)}"

    # analyze's withheld verdict: whole sentences, said once, on the terminal and the page.
    text = " ".join(sparse.stdout.split())
    assert text.count("nothing is called consistently good or bad") == 1, text
    assert "(--kind bench, --space or --system). default: rank" in text, text
    iotuner("report", "--db", "sparse.sqlite", "-o", "r.html", cwd=folder)
    page = " ".join((folder / "r.html").read_text().split())
    assert page.lower().count("nothing is called consistently good or bad") == 1
    assert "(--kind bench, --space or --system).</span>" in page


def test_train_says_a_fit_diverged_instead_of_its_figures() -> None:
    from rich.console import Console

    from iotuner.models._metrics import Metrics
    from iotuner.models._render import DIVERGED_MAPE, _figures, _mape, diverged

    wild = Metrics(r=0.6, mape=6.0e22, rmspe=1e23, mae=1e20, rmse=1e21)
    fine = Metrics(r=0.9, mape=42.0, rmspe=60.0, mae=10.0, rmse=20.0)
    assert diverged(wild) and not diverged(fine)
    assert diverged(Metrics(r=0.1, mape=math.inf, rmspe=1, mae=1, rmse=1))
    assert not diverged(Metrics(r=0.1, mape=DIVERGED_MAPE, rmspe=1, mae=1, rmse=1))
    assert _mape(wild) == "diverged" and _mape(fine) == "42.0"
    cells = [mean for mean, _ in _figures(wild, fine)]
    assert "diverged" in cells and not any("e+" in c or "e22" in c for c in cells)
    console = Console(record=True, width=80)
    console.print(*cells)
    assert "6.0e22" not in console.export_text()
