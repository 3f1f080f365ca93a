"""Fixtures for the search: small measured tables made here, and a fake program.

The fake program is a Python script run directly (no MPI launcher): the search runs any
command, and the interposer's environment does nothing to a program that never calls MPI.
It appends what it received (its arguments, its environment parameter, the hints of the
tuning table it was given, the table's entries and the interposer's mode) to a record
file, prints `value=<number>`, and exits 1 when its parameter `x` is "bad".
"""

import csv
import json
import random
import sys
from pathlib import Path
from typing import Any

import pytest

from iotuner.space import Space, parse_space

GRID_BEST = {"a": 3, "b": "y"}

FAKE_PROGRAM = """
import json, os, sys

args = sys.argv[1:]
record, x = args[0], args[1]
hints = {}
entries = []
if "IOTUNER_TABLE" in os.environ:
    with open(os.environ["IOTUNER_TABLE"]) as table:
        entries = [json.loads(line) for line in table.read().splitlines()[1:]]
for entry in entries:
    if entry.get("at") == "open":
        hints = entry["hints"]
buf = os.environ.get("APP_BUF", "unset")
mode = os.environ.get("IOTUNER_MODE")
seen = {"args": args, "buf": buf, "hints": hints, "entries": entries, "mode": mode}
with open(record, "a") as out:
    out.write(json.dumps(seen) + "\\n")
if x == "bad":
    print("cannot work with x=bad", file=sys.stderr)
    sys.exit(1)
bonus = 1 if hints.get("romio_cb_write") == "enable" else 0
print("starting")
print(f"value={int(x) * int(buf) + bonus}")
print("done")
"""

FAKE_SPACE = """
name = "fake"
description = "the fake program's knobs"

[hints.romio_cb_write]
values = ["automatic", "disable", "enable"]
default = "automatic"

[app.x]
values = [1, 2, 3, "bad"]
default = 1

[app.buf]
values = [1, 4]
default = 1
env = "APP_BUF"
"""


def write_csv(path: Path, header: list[str], rows: list[list[object]]) -> Path:
    with path.open("w", newline="") as stream:
        writer = csv.writer(stream)
        writer.writerow(header)
        writer.writerows(rows)
    return path


@pytest.fixture
def grid_table(tmp_path: Path) -> Path:
    """A full 3 x 3 grid (a: 1-3, b: x/y/z) whose best is a=3, b=y (value 35)."""
    rows: list[list[object]] = [
        [a, b, 10 * a + {"x": 0, "y": 5, "z": 2}[b]] for a in (1, 2, 3) for b in ("x", "y", "z")
    ]
    return write_csv(tmp_path / "grid.csv", ["a", "b", "bandwidth"], rows)


@pytest.fixture
def sampled_table(tmp_path: Path) -> Path:
    """A random sample of a numeric space, as recorded tables are.

    Two problems ("small", "large") in one file; stripe sizes in 64 KiB steps (1-32 steps)
    and buffer sizes in bytes (4 values); 60 configurations per problem, each measured
    1-3 times; for "large" a few extra rows of failed runs (empty value). The value peaks
    at 16 steps and a 4 MiB buffer: 1000 for large, 100 for small, with repeats spread
    around it by +-10 %.
    """
    rng = random.Random(7)
    steps = list(range(1, 33))
    buffers = [1 << 20, 1 << 21, 1 << 22, 1 << 23]
    rows: list[list[object]] = []
    for problem, scale in (("small", 100.0), ("large", 1000.0)):
        configs = rng.sample([(s, b) for s in steps for b in buffers], 60)
        for step, buf in configs:
            base = scale / (1 + abs(step - 16) / 4) / (1 + abs(buffers.index(buf) - 2))
            for repeat in range(rng.choice((1, 2, 3))):
                factor = (0.9, 1.0, 1.1)[repeat]
                rows.append([problem, step * 65536, buf, round(base * factor, 3)])
        if problem == "large":
            rows.append([problem, configs[0][0] * 65536, configs[0][1], ""])
            rows.append([problem, 65536 * 3, 123, "nan"])
    return write_csv(tmp_path / "sampled.csv", ["problem", "stripe", "buffer", "bw"], rows)


@pytest.fixture
def fake_space() -> Space:
    return parse_space(FAKE_SPACE, "fake space")


@pytest.fixture
def fake_program(tmp_path: Path) -> list[str]:
    """The command prefix [python, script]: append the record file and arguments."""
    script = tmp_path / "fake_program.py"
    script.write_text(FAKE_PROGRAM)
    return [sys.executable, str(script)]


def records(path: Path) -> list[dict[str, Any]]:
    """What the fake program recorded, one dict per run."""
    if not path.exists():
        return []
    return [json.loads(line) for line in path.read_text().splitlines()]
