"""The README's path with the real kernel (issue 31, item 2): trace a program, bench with
its trace (`--from-logs`), ingest the trace, train, tune: the sweep measures the traced case
first and the table has an entry for it."""

import json
from pathlib import Path

import pytest

from iotuner.formats import size_group
from iotuner.table import read_table

from .conftest import Mpi
from .test_cli import iotuner

SPACE = """
name = "tiny"
[hints.romio_ds_write]
values = ["automatic", "disable"]
default = "automatic"
[hints.romio_cb_write]
values = ["automatic", "disable"]
default = "automatic"
"""

PROGRAM = ("--layout", "strided", "--block", "16k", "--fill", "0.25", "--size", "2m")
"""The README's example program: collective strided writes of 2 MiB per rank per call."""


@pytest.mark.slow  # a sweep and a training (the README's walk-through does the same)
def test_the_traced_case_is_measured_first_and_gets_an_entry(mpi: Mpi, tmp_path: Path) -> None:
    logs, data = tmp_path / "logs", tmp_path / "data"
    data.mkdir()
    iotuner(
        "run", "--log-dir", str(logs), "--",
        *mpi.command(2, "iokernel", "--file", str(tmp_path / "out.dat"), *PROGRAM),
    )  # fmt: skip
    space = tmp_path / "tiny.toml"
    space.write_text(SPACE)
    kb, results = tmp_path / "kb.sqlite", tmp_path / "r.bench.jsonl"
    said = iotuner(
        "bench", "--space", str(space), "--dir", str(data), "--nprocs", "2",
        "--patterns", "collective", "--layouts", "contiguous", "--ops", "write",
        "--sizes", "64k,512k", "--open-size", "1m", "--repeats", "2", "--time-budget", "3m",
        "--db", str(kb), "--results", str(results), "--from-logs", str(logs),
    ).stdout  # fmt: skip
    said = " ".join(said.split())
    assert "the programs' logs show 1 case(s), measured first" in said
    assert "2 ranks collective write strided:16384:0.25, 2,097,152 B per call" in said
    # The first measurements are the traced case's: its default and a cover of every value
    # (2 configurations x 2 repeats) before any other workload; model rounds among the
    # cases and, later, among every workload may add the case's other two.
    lines = [json.loads(line) for line in results.read_text().splitlines()]
    traced = [
        (w["layout"], w["block"], w["fill"], w["bytes_per_rank"])
        == ("strided", 16384, 0.25, 2 << 20)
        for w in (line["workload"] for line in lines)
    ]
    assert all(traced[:4]) and traced.count(True) >= 4, traced
    values = {(k, v) for line in lines[:4] for k, v in line["config"].items()}
    assert {v for k, v in values if k == "romio_cb_write"} == {"automatic", "disable"}
    assert {v for k, v in values if k == "romio_ds_write"} == {"automatic", "disable"}

    iotuner("ingest", str(logs), "--db", str(kb))  # the traced default run, as the README
    iotuner(
        "train", "--db", str(kb), "--space", str(space), "--quick", "-o", str(tmp_path / "model")
    )
    table = tmp_path / "table.jsonl"
    iotuner(
        "tune", "--db", str(kb), "--space", str(space), "--model", str(tmp_path / "model"),
        "-o", str(table),
    )  # fmt: skip
    entries = [
        e
        for e in read_table(table)
        if (e.nprocs, e.group, e.pattern, e.op, e.layout)
        == (2, size_group(2 << 20), "collective", "write", "strided")
    ]
    assert len(entries) == 1, [e.to_json() for e in read_table(table)]
    assert "measured" in (entries[0].note or "")
