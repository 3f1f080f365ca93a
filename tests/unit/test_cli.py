"""The iotuner command: log2csv, show and table check on the sample files."""

import csv
import io
import json
import os
from pathlib import Path

import pytest

from iotuner.cli import main
from iotuner.formats import op_fields
from iotuner.summary import summarize
from iotuner.trace_export import op_table
from iotuner.tracelog import read_tracelog


def _csv_rows(text: str) -> list[dict[str, str]]:
    return list(csv.DictReader(io.StringIO(text)))


def test_log2csv_columns(sample_log: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["log2csv", str(sample_log)]) == 0
    header = capsys.readouterr().out.splitlines()[0].split(",")
    fields = [f.name for f in op_fields()]
    assert header[:6] == ["group", "time_stamp", "operation", "bytes", "duration", "bandwidth"]
    assert header[: len(fields)] == fields
    assert header[len(fields) :] == [
        "cb_nodes",
        "requested:cb_nodes",
        "romio_cb_write",
        "requested:romio_cb_write",
        "striping_factor",
        "requested:striping_factor",
    ]


def test_log2csv_hint_columns_follow_the_hint_set_in_force(
    sample_log: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    main(["log2csv", str(sample_log)])
    rows = _csv_rows(capsys.readouterr().out)
    first, second, _, unhinted = rows
    assert (first["bytes"], first["group"], first["hint_set"]) == ("6431504", "35", "0")
    # Hint set 0: requested at open, romio_cb_write only reported by MPI.
    assert (first["romio_cb_write"], first["requested:romio_cb_write"]) == ("automatic", "")
    assert (first["striping_factor"], first["requested:striping_factor"]) == ("16", "16")
    # Hint set 1: the table asked for romio_cb_write at this access.
    assert (second["romio_cb_write"], second["requested:romio_cb_write"]) == ("enable", "enable")
    assert (second["cb_nodes"], second["requested:cb_nodes"]) == ("2", "")
    # hint_set -1: no hints recorded for log.txt.
    assert unhinted["hint_set"] == "-1"
    assert all(unhinted[k] == "" for k in ("cb_nodes", "requested:cb_nodes"))


def test_log2csv_to_a_file(
    sample_log: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "ops.csv"
    assert main(["log2csv", str(sample_log), "-o", str(out)]) == 0
    assert capsys.readouterr().out == ""
    assert os.listdir(tmp_path) == ["ops.csv"]
    columns, rows = op_table(read_tracelog(sample_log))
    assert _csv_rows(out.read_text()) == [
        {c: str(v) for c, v in zip(columns, row, strict=True)} for row in rows
    ]


def test_show(
    sample_log: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("COLUMNS", "200")  # no wrapping inside table cells
    assert main(["show", str(sample_log)]) == 0
    out = capsys.readouterr().out
    assert "ior: 4 processes (2 nodes x 2 ranks/node)" in out
    assert "MPICH Version: 4.1.2" in out
    for text in ("out.dat", "log.txt", "MPI_File_write_at_all", "burst_bytes=1607876"):
        assert text in out
    assert "⚠ unhonoured: the ufs driver does not stripe" in out
    assert "log.txt was still open at MPI_Finalize" in out


def test_show_marks_times_estimated_from_a_sample(
    sample_log: Path,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A row whose time is estimated from a timed sample of its calls (summary 2) shows
    "~" before its time and bandwidth, and a line says why; measured times do not."""
    monkeypatch.setenv("COLUMNS", "200")
    assert main(["show", str(sample_log)]) == 0
    assert "estimated" not in capsys.readouterr().out
    lines = sample_log.read_text().splitlines()
    read_row = next(i for i, line in enumerate(lines) if '"MPI_File_read_at"' in line)
    lines[read_row] = lines[read_row].replace('"summary": 1', '"summary": 2')
    log = tmp_path / sample_log.name
    log.write_text("\n".join(lines) + "\n")
    assert main(["show", str(log)]) == 0
    out = capsys.readouterr().out
    (row,) = [line for line in out.splitlines() if "MPI_File_read_at " in line]
    assert "~0.001000" in row and "~0.08" in row
    assert "~ estimated: of these short calls only a sample was timed" in out
    (written,) = [line for line in out.splitlines() if "MPI_File_write_at_all" in line]
    assert "~" not in written


def test_summary_figures(sample_log: Path) -> None:
    summary = summarize(read_tracelog(sample_log))
    out_dat = summary.files[0]
    assert (out_dat.file, out_dat.bytes_read, out_dat.bytes_written) == ("out.dat", 80, 12863008)
    writes = out_dat.operations[0]
    assert (writes.operation, writes.calls, writes.bytes) == ("MPI_File_write_at_all", 8, 12863008)
    assert writes.bandwidth == pytest.approx(12863008 / 0.09 / 2**20)
    striping = next(r for r in out_dat.hint_sets[0].rows if r.key == "striping_factor")
    assert striping.unhonoured == "the ufs driver does not stripe"
    assert summary.files[1].reduced is False


def test_table_check(sample_table: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["table", "check", str(sample_table)]) == 0
    assert capsys.readouterr().out.splitlines() == [
        f"{sample_table}: valid, 3 entries",
        "  at open: 2",
        "  at access: 1",
        "  at view: 0",
    ]


def test_table_check_lists_dropped_lines_and_exits_1(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    table = tmp_path / "table.jsonl"
    table.write_text(
        '{"format": "iotuner-table", "version": 1}\n'
        '{"hints": {"cb_buffer_size": "abc"}}\n'
        '{"at": "open", "hints": {"cb_nodes": 2}}\n'
    )
    assert main(["table", "check", str(table)]) == 1
    out = capsys.readouterr().out.splitlines()
    assert out[0] == f"{table}: 1 lines dropped, 1 entries"
    assert out[-1].startswith("  line 2 dropped (hint_value): hint cb_buffer_size must be")
    table.write_text("not a header\n")
    assert main(["table", "check", str(table)]) == 1
    assert "refused (header)" in capsys.readouterr().out


def test_errors_become_messages_and_status_2(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    table = tmp_path / "table.jsonl"
    table.write_text('{"format": "iotuner-table", "version": 1}\n{"group": "big", "hints": {}}\n')
    out = tmp_path / "derived.jsonl"
    assert main(["table", "derive", str(table), str(tmp_path), "-o", str(out)]) == 2
    assert capsys.readouterr().err == (
        f"iotuner: error: {table} line 2 (field_value): 'group' must be an integer 1-56, "
        "got 'big'\n"
    )
    assert not out.exists()
    assert main(["show", str(tmp_path / "absent.iotrace.jsonl")]) == 2
    assert capsys.readouterr().err.startswith("iotuner: error: cannot read ")


def test_show_summarises_a_long_mpi_version_and_wraps_at_words(
    sample_log: Path,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # Debian MPICH's version string is ~2,000 characters over many lines (issue 13).
    version = "MPICH Version:\t4.0.2\nMPICH Release date:\tThu Apr  7 2022\nMPICH configure:\t"
    version += " ".join(f"--with-option-{i}=/usr/lib/x86_64-linux-gnu" for i in range(50))
    lines = sample_log.read_text().splitlines()
    job = json.loads(lines[0])
    job["mpi_library"] = version
    log = tmp_path / "ior-20250101-120000-4242-0123456789ab.iotrace.jsonl"
    log.write_text("\n".join([json.dumps(job), *lines[1:]]) + "\n")
    monkeypatch.setenv("COLUMNS", "80")
    assert main(["show", str(log)]) == 0
    out = capsys.readouterr().out
    header = out.split("\n\n")[0]
    assert "MPICH Version: 4.0.2 (" in " ".join(header.split())
    assert "more characters not shown)" in " ".join(header.split()) and "--with-" not in out
    assert all(len(line) <= 80 for line in out.splitlines())
    # Every word of the header is whole on its line.
    words = " ".join(header.split()).split(" ")
    assert [w for line in header.splitlines() for w in line.split()] == words


def test_space_check_agrees_with_space_help(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit):
        main(["space", "--help"])
    assert "check" in capsys.readouterr().out
    assert main(["space", "check", "demo-small"]) == 0
    assert "demo-small: valid, space demo-small: 3 parameters, 18 configurations" in (
        capsys.readouterr().out
    )
    bad = tmp_path / "bad.toml"
    bad.write_text('[space]\nname = "x"\n')
    assert main(["space", "check", str(bad)]) == 1
    out = capsys.readouterr().out
    assert out.startswith(f"{bad}: not valid: unknown key(s) space")


def test_bench_checks_its_options_before_printing_the_plan(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    base = ["bench", "--space", "demo-small", "--sizes", "64k", "--no-db"]
    for dir_, message in (
        (tmp_path / "missing", "does not exist"),
        (tmp_path / "bad.toml", "is not a directory"),
    ):
        (tmp_path / "bad.toml").write_text("")
        assert main([*base, "--dir", str(dir_)]) == 2
        said = capsys.readouterr()
        assert said.out == "" and message in said.err
    (tmp_path / "data").mkdir()
    missing = tmp_path / "nowhere" / "r.bench.jsonl"
    assert main([*base, "--dir", str(tmp_path / "data"), "--results", str(missing)]) == 2
    said = capsys.readouterr()
    assert said.out == "" and "results file" in said.err
