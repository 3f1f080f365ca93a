"""Every log the interposer writes is read by every command (issue 42).

`odd_files` (programs/odd_files.c) has each rank open one name on MPI_COMM_SELF (rank 1
twice, so the ranks' counts of hints records part), then writes a file through a view on
MPI_COMM_WORLD and leaves a third open at MPI_Finalize. Before the fix, two ranks' records
of the self-opened name both had seq 0 and show, ingest and advise refused the whole log
("a second hints record for file ... seq 0"), and show stopped with an AttributeError on
the open file's record (`"pattern": null`). Here the real interposer writes the log, in
trace and in tune mode, and show, log2csv, ingest, advise and report each read it.
"""

import csv
import io
import json
from pathlib import Path

import pytest

from iotuner.tracelog import read_tracelog

from .conftest import Mpi, one_log, write_table
from .test_cli import iotuner

pytestmark = pytest.mark.never_harm  # every stack of .ci/run, and the sanitizer build

TABLE = [{"at": "open", "hints": {"romio_ds_write": "disable"}}]


@pytest.fixture(scope="module", params=["trace", "tune,trace"])
def odd_log(
    request: pytest.FixtureRequest, mpiexec: str, tmp_path_factory: pytest.TempPathFactory
) -> Path:
    folder = tmp_path_factory.mktemp("odd")
    mpi = Mpi(mpiexec=mpiexec, workdir=folder)
    (folder / "data").mkdir()
    table = write_table(folder / "table.jsonl", *TABLE)
    result = mpi.run(2, "odd_files", "--dir", str(folder / "data"), mode=request.param, table=table)
    assert result.stdout == "done\n"
    one_log(result)
    return result.logs[0]


def test_the_records_of_one_name_opened_by_two_ranks_stay_apart(odd_log: Path) -> None:
    log = read_tracelog(odd_log)
    self_name = str(odd_log.parent.parent / "data" / "self.dat")
    records = [h for h in log.hints if h["file"] == self_name and h["at"] == "open"]
    assert len(records) == 3  # rank 0's open and rank 1's two
    assert len({h["seq"] for h in log.hints}) == len(log.hints)
    # Each op row names the record its own rank wrote: the writer's world rank is seq % 2.
    by_seq = {(h["file"], h["seq"]): h for h in log.hints}
    self_rows = [op for op in log.ops if op["file"] == self_name]
    assert self_rows and all((self_name, op["hint_set"]) in by_seq for op in self_rows)
    assert {op["hint_set"] % 2 for op in self_rows} == {0, 1}
    left_open = [f for f in log.files if f["file"].endswith("open.dat")]
    assert left_open and all(f["closed_at"] is None for f in left_open)


def test_every_command_reads_the_log(odd_log: Path, tmp_path: Path) -> None:
    shown = iotuner("show", str(odd_log)).stdout
    assert "self.dat" in shown and "open.dat" in shown and "not closed before MPI_Finalize" in shown

    table = iotuner("log2csv", str(odd_log)).stdout
    rows = list(csv.DictReader(io.StringIO(table)))
    # The file left open has no rows (its group's ranks were not reduced): its file
    # record holds rank 0's bytes.
    assert {Path(r["file"]).name for r in rows} == {"self.dat", "world.dat"}

    ingested = iotuner("ingest", str(odd_log), "--db", str(tmp_path / "kb.sqlite")).stdout
    assert "added" in ingested and "skipped 0" in ingested

    advice = json.loads(iotuner("advise", "--json", str(odd_log)).stdout)
    assert advice, "advise gave nothing for the log"

    iotuner("report", "--logs", str(odd_log), "-o", str(tmp_path / "report.html"))
    program_page = tmp_path / "report.odd_files.html"
    assert "self.dat" in program_page.read_text() and "open.dat" in program_page.read_text()
