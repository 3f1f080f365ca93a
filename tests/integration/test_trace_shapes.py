"""The access shape of a trace (formats/README.md, "Access shape"): two real ranks of
programs/shapes.c, under the real interposer, make one access of each shape, and each op
row says what one call touched in the file and in memory, decoded from the datatypes the
program passed; the file's stride and gap come from the calls that carry its bytes.

The figures below are those programs/shapes.c's constructors give at 2 ranks, worked out
by hand from the MPI standard's type maps.
"""

from pathlib import Path
from typing import Any

import pytest

from iotuner.bench._programs import program_cases
from iotuner.cli import main
from iotuner.formats import size_group
from iotuner.tracelog import TraceLog

from .conftest import Mpi, one_log, write_table

RECORDS = 300
SHAPE = ("file_pieces", "file_piece", "file_piece_min", "file_stride", "mem_pieces", "mem_piece")

EXPECTED = {
    # 1024 ints a call through a vector of ints of stride 2: 4-byte pieces 8 bytes apart.
    ("vector", "MPI_File_write_all"): (1024, 4, 4, 8, 1, 4096),
    # Contiguous in the file, from 256 pairs of ints with two ints' hole between them.
    ("memory", "MPI_File_write_at_all"): (1, 2048, 2048, 0, 256, 8),
    # A 32 x 16 band of a 32 x 32 array of ints: 32 rows of 64 bytes, 128 bytes apart.
    ("subarray", "MPI_File_write_all"): (32, 64, 64, 128, 1, 2048),
    # All 32 rows, columns cyclic(2) over 2 ranks: 8 pieces of 2 ints a row, 16 bytes apart.
    ("darray", "MPI_File_write_all"): (256, 8, 8, 16, 1, 2048),
    # 100 {int, double} structs: the int, a 4-byte hole, the double running into the next
    # int: 101 pieces, of 4 and 8 bytes as the type map lists them.
    ("struct", "MPI_File_write_at_all"): (1, 1200, 1200, 0, 101, 8),
    # 2^18 one-byte pieces 2 bytes apart: past the 2^16 leaves the decoder walks, the count
    # is extrapolated from the bytes seen (exact for a regular type).
    ("large", "MPI_File_write_all"): (1 << 18, 1, 1, 2, 1, 1 << 18),
    # A rank's header, two 16-byte writes side by side...
    ("records", "MPI_File_write_at"): (1, 16, 16, 0, 1, 16),
    # ...then 116-byte records through a view of 116 bytes and a 4-byte hole.
    ("records", "MPI_File_write"): (1, 116, 116, 120, 1, 116),
}


def _rows(log: TraceLog) -> dict[tuple[str, str], dict[str, Any]]:
    return {(Path(op["file"]).name, op["operation"]): op for op in log.ops if op["kind"] == "write"}


@pytest.mark.parametrize("call_rows", [False, True], ids=["summed", "call-rows"])
def test_each_row_says_the_shape_the_program_passed(
    mpi: Mpi, tmp_path: Path, call_rows: bool
) -> None:
    out = tmp_path / "out"
    out.mkdir()
    log = one_log(mpi.run(2, "shapes", str(out), str(RECORDS), call_rows=call_rows))
    rows = _rows(log)
    assert set(rows) == set(EXPECTED)
    for case, expected in EXPECTED.items():
        got = tuple(rows[case][name] for name in SHAPE)
        assert got == pytest.approx(expected), f"{case}: {dict(zip(SHAPE, got, strict=True))}"
    assert rows[("struct", "MPI_File_write_at_all")]["mem_piece_min"] == 4


def test_the_pattern_comes_from_the_records_not_the_header(mpi: Mpi, tmp_path: Path) -> None:
    """Each rank writes two 16-byte header pieces side by side (gap 0), then RECORDS
    records 120 bytes apart (gap 4): the pattern is the records'."""
    out = tmp_path / "out"
    out.mkdir()
    log = one_log(mpi.run(2, "shapes", str(out), str(RECORDS)))
    (record,) = [r for r in log.files if Path(r["file"]).name == "records"]
    pattern = record["pattern"]
    assert (pattern["stride_min"], pattern["stride_max"]) == (120, 120)
    assert (pattern["gap_min"], pattern["gap_max"]) == (4, 4)
    workload = log.workload_of(
        next(i for i, op in enumerate(log.ops) if op["operation"] == "MPI_File_write")
    )
    # The header's two 16-byte calls fall into the records' size group (1) and count with
    # them in the calls per open.
    assert (workload.layout, workload.block) == ("strided", 116)
    assert workload.calls_per_open == RECORDS + 2


@pytest.mark.never_harm  # every stack, and the sanitizer build
def test_decoding_changes_no_byte(mpi: Mpi, tmp_path: Path) -> None:
    """The decoder asks MPI about the program's datatypes (and frees what it was handed):
    the files are the same bytes with and without it."""
    traced, plain = tmp_path / "traced", tmp_path / "plain"
    traced.mkdir()
    plain.mkdir()
    mpi.run(2, "shapes", str(traced), str(RECORDS))
    mpi.run_plain(2, "shapes", str(plain), str(RECORDS))
    names = sorted(p.name for p in plain.iterdir())
    assert names == sorted(EXPECTED_FILES)
    for name in names:
        assert (traced / name).read_bytes() == (plain / name).read_bytes(), name


EXPECTED_FILES = {name for name, _ in EXPECTED}


def test_the_workloads_and_the_sweeps_cases_keep_the_programs_pieces(
    mpi: Mpi, tmp_path: Path
) -> None:
    """A vector view's 4-byte pieces are the workload's block, noncontiguous memory its
    memory_block; bench --from-logs plans each case with those pieces, not others."""
    out = tmp_path / "out"
    out.mkdir()
    result = mpi.run(2, "shapes", str(out), str(RECORDS))
    log = one_log(result)
    workloads = {
        (Path(op["file"]).name, op["operation"]): log.workload_of(i)
        for i, op in enumerate(log.ops)
        if op["kind"] == "write"
    }
    vector = workloads[("vector", "MPI_File_write_all")]
    assert (vector.layout, vector.block, vector.fill, vector.memory_block) == (
        "strided",
        4,
        1.0,
        0,
    )
    darray = workloads[("darray", "MPI_File_write_all")]
    assert (darray.layout, darray.block, darray.fill) == ("strided", 8, 1.0)
    memory = workloads[("memory", "MPI_File_write_at_all")]
    assert (memory.layout, memory.memory_block) == ("contiguous", 8)

    cases, _ = program_cases([result.logs[0]], max_nprocs=2, stand_in=(4096, 0.5))
    said = [case.describe() for case in cases]
    planned = {(c.workload.layout, c.workload.block, c.workload.memory_block) for c in cases}
    assert ("strided", 4, 0) in planned, said
    assert ("contiguous", 0, 8) in planned, said
    assert not any(case.stand_in for case in cases), said
    assert any("memory in 8-byte pieces" in text for text in said), said
    for case in cases:
        w = case.workload
        assert (
            w.bytes_per_rank % max(w.block, 1) == 0
            and w.bytes_per_rank % max(w.memory_block or 1, 1) == 0
        ), case.describe()


def test_the_kernel_writes_from_the_memory_shape_it_is_given(mpi: Mpi, tmp_path: Path) -> None:
    """iokernel --memory-block, which bench runs for such a case: the trace sees its
    pieces, and the file gets the bytes a contiguous buffer gives (read back verified)."""
    common = ("--op", "both", "--size", "4k", "--repeat", "3")
    spread = one_log(
        mpi.run(2, "iokernel", "--file", str(tmp_path / "spread"), *common, "--memory-block", "8")
    )
    mpi.run(2, "iokernel", "--file", str(tmp_path / "packed"), *common)
    rows = [op for op in spread.ops if op["kind"] in ("write", "read")]
    assert {(op["kind"], op["mem_pieces"], op["mem_piece"]) for op in rows} == {
        ("write", 512, 8),
        ("read", 512, 8),
    }
    assert (tmp_path / "spread").read_bytes() == (tmp_path / "packed").read_bytes()


def test_derive_says_what_the_table_does_to_each_traced_program(
    mpi: Mpi, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The README path's last step says, per traced program, which of its accesses get
    hints and what each rests on, or that the defaults stay."""
    out = tmp_path / "out"
    out.mkdir()
    log = one_log(mpi.run(2, "shapes", str(out), str(RECORDS)))
    note = (
        "predicted 30.0 MiB/s [25.0, 35.0] vs default 10.0; gain x2.90 [2.10, 3.40] "
        "measured; its worst repeat beat the default's best"
    )
    table = write_table(
        tmp_path / "table.jsonl",
        {"nprocs": 2, "group": size_group(4096), "pattern": "collective", "op": "write",
         "layout": "strided", "hints": {"romio_ds_write": "disable"}, "note": note},
    )  # fmt: skip
    assert (
        main(["table", "derive", str(table), str(log.path), "-o", str(tmp_path / "t.jsonl")]) == 0
    )
    lines = capsys.readouterr().out.splitlines()
    (line,) = [text for text in lines if text.startswith("shapes: ")]
    assert "1 of " in line and "accesses get hints" in line
    assert "romio_ds_write=disable (access entry, gain x2.90 measured)" in line
    assert "independent write strided" in line and "the defaults stay" in line

    empty = write_table(tmp_path / "empty.jsonl")
    assert (
        main(["table", "derive", str(empty), str(log.path), "-o", str(tmp_path / "e.jsonl")]) == 0
    )
    (line,) = [t for t in capsys.readouterr().out.splitlines() if t.startswith("shapes: ")]
    assert line.startswith("shapes: 0 of ") and "no entry applies" in line
