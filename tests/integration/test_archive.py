"""`iotuner advise` over an archive: real Darshan logs (the examples the `darshan` wheel
ships and our trace log), a truncated one and a FIFO among them, advised by worker
processes and by a two-worker Dask cluster, killed with SIGKILL and resumed, ranked, and
written as HTML pages."""

import json
import os
import shutil
import signal
import subprocess
import time
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

import pytest

from iotuner.archive import io_seconds_of_log, rank_programs
from iotuner.report._archive import program_page_name

from .test_advise import darshan_examples
from .test_cli import IOTUNER, iotuner

DATA = Path(__file__).resolve().parents[1] / "data"


def make_archive(folder: Path, copies: int = 1) -> dict[str, Path]:
    """An archive as a centre keeps one (a folder per day) of the shipped logs (`copies`
    hard links of each under distinct names), our trace log, a truncated Darshan log and a
    FIFO named like a log. Returns the two bad ones by name."""
    for number in range(copies):
        day = folder / "2025" / f"{number % 28 + 1:02d}"
        day.mkdir(parents=True, exist_ok=True)
        for log in darshan_examples():
            os.link(log, day / f"c{number}-{log.name}")
    (trace,) = DATA.glob("*.iotrace.jsonl")
    shutil.copy(trace, folder / trace.name)
    (folder / "notes.txt").write_text("not a log: the walk leaves it out\n")
    corrupt = folder / "2025" / "corrupt.darshan"
    largest = max(darshan_examples(), key=lambda p: p.stat().st_size)
    corrupt.write_bytes(largest.read_bytes()[:3000])
    fifo = folder / "2025" / "fifo.darshan"
    os.mkfifo(fifo)
    return {"corrupt": corrupt, "fifo": fifo}


def logs_in(folder: Path) -> set[str]:
    return {
        os.path.abspath(p)
        for p in folder.rglob("*")
        if p.name.endswith((".darshan", ".iotrace.jsonl"))
    }


def rows_of(results: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in results.read_text().splitlines()]


@pytest.mark.slow  # CI's
def test_parallel_run_gives_one_row_per_log_and_error_rows(tmp_path: Path) -> None:
    bad = make_archive(tmp_path / "archive")
    results = tmp_path / "rows.jsonl"
    ran = iotuner(
        "advise", str(tmp_path / "archive"), "--jobs", "2", "--results", str(results), "--json"
    )
    summary = json.loads(ran.stdout)
    rows = rows_of(results)
    assert sorted(r["path"] for r in rows) == sorted(logs_in(tmp_path / "archive"))
    by_path = {r["path"]: r for r in rows}
    assert "truncated" in by_path[str(bad["corrupt"])]["error"]
    assert "FIFO" in by_path[str(bad["fifo"])]["error"]
    assert {r["path"] for r in rows if r["status"] == "error"} == {str(p) for p in bad.values()}
    assert summary["logs"] == len(rows) and summary["read"] == len(rows) - 2
    assert {e["path"] for e in summary["errors"]} == {str(p) for p in bad.values()}
    # The Darshan logs' programs and our trace's, each ranked once.
    names = [p["program"] for p in summary["programs"]]
    assert len(names) == len(set(names))
    assert {"ior", "vpicio_uni", "macsio", "app_write"} <= set(names)


def test_io_time_is_darshans_time_by_slowest(tmp_path: Path) -> None:
    """For logs without MPI-IO (no file counted in two modules), the I/O seconds are what
    darshan-util's own accumulation calls agg_time_by_slowest, summed over the modules."""
    import darshan  # type: ignore[import-untyped]
    from darshan.backend.cffi_backend import accumulate_records  # type: ignore[import-untyped]

    from iotuner.ingest._darshan import DarshanReader

    checked = 0
    with DarshanReader() as reader:
        for log in darshan_examples():
            with darshan.DarshanReport(str(log), read_all=True) as report:
                if "MPI-IO" in report.modules:
                    continue
                nprocs = report.metadata["job"]["nprocs"]
                expected = sum(
                    accumulate_records(
                        report.records[m].to_df(), m, nprocs
                    ).derived_metrics.agg_time_by_slowest
                    for m in ("POSIX", "STDIO")
                    if m in report.modules and len(report.records[m])
                )
            seconds, basis = io_seconds_of_log(reader.read(log)["frames"], nprocs)
            # rel 1e-6: darshan-util's sum differs by a float32 step on the 11,218 s of
            # dxt.darshan (0.00085 s); a missed or doubled file would be far more.
            assert seconds == pytest.approx(expected, rel=1e-6, abs=1e-9), log.name
            assert basis.startswith("slowest rank")
            checked += 1
    assert checked >= 3


def test_ranking_orders_programs_by_io_core_hours(tmp_path: Path) -> None:
    make_archive(tmp_path / "archive")
    results = tmp_path / "rows.jsonl"
    summary = json.loads(
        iotuner(
            "advise", str(tmp_path / "archive"), "--jobs", "1", "--results", str(results), "--json"
        ).stdout
    )
    programs = summary["programs"]
    hours = [p["io_core_hours"] for p in programs]
    assert hours == sorted(hours, reverse=True) and hours[0] > 0
    # Without a model nothing has a predicted interval: the saving is unknown, not 0.
    assert all(p["save_core_hours"] is None for p in programs)
    # ior: two shipped logs (4 and 2048 ranks) and our trace (4 ranks); their hours add up,
    # each log's being its ranks times its I/O seconds.
    ior = next(p for p in programs if p["program"] == "ior")
    assert ior["logs"] == 3 and ior["nprocs"] == [4, 2048]
    rows = [r for r in rows_of(results) if r.get("program") == "ior"]
    assert all(r["io_core_hours"] == r["nprocs"] * r["io_seconds"] / 3600 for r in rows)
    assert ior["io_core_hours"] == pytest.approx(sum(r["io_core_hours"] for r in rows))
    assert all(f["logs"] >= 1 and f["code"] for p in programs for f in p["top_findings"])
    assert [r.program for r in rank_programs(reversed(rows_of(results)))] == [
        p["program"] for p in programs
    ]


@pytest.mark.slow  # CI's
def test_table_output_ranks_and_names_the_bad_logs(tmp_path: Path) -> None:
    bad = make_archive(tmp_path / "archive")
    out = iotuner("advise", str(tmp_path / "archive"), "--jobs", "2", columns=200).stdout
    assert "Programs by core-hours in I/O" in out
    assert out.index("ior") < out.index("vpicio_uni") < out.index("macsio")
    assert str(bad["fifo"]) in out and str(bad["corrupt"]) in out
    assert "unknown" in out  # to save, without a model


@pytest.mark.slow  # about a minute; CI's
def test_sigkill_then_resume_advises_every_log_exactly_once(tmp_path: Path) -> None:
    make_archive(tmp_path / "archive", copies=40)
    every = logs_in(tmp_path / "archive")
    results = tmp_path / "rows.jsonl"
    command = [IOTUNER, "advise", str(tmp_path / "archive"), "--jobs", "2",
               "--results", str(results), "--json"]  # fmt: skip
    run = subprocess.Popen(
        command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True
    )
    try:
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline and run.poll() is None:
            if results.exists() and results.read_bytes().count(b"\n") >= 20:
                break
            time.sleep(0.01)
        assert run.poll() is None, "the run ended before it could be killed"
        os.killpg(run.pid, signal.SIGKILL)  # the run, its pool workers, the forkserver
        run.wait()
    finally:
        if run.poll() is None:
            os.killpg(run.pid, signal.SIGKILL)
            run.wait()
    first = results.read_bytes()
    done = first.count(b"\n")
    assert 20 <= done < len(every)
    # A crash mid-write leaves a torn last line: the rerun cuts it.
    with results.open("ab") as f:
        f.write(b'{"path": "' + str(tmp_path).encode() + b"/arch")

    summary = json.loads(iotuner(*command[1:]).stdout)
    rows = rows_of(results)
    paths = [r["path"] for r in rows]
    assert sorted(paths) == sorted(every)  # each log exactly once, the torn line gone
    assert summary["skipped"] == done and summary["advised_now"] == len(every) - done
    assert results.read_bytes().startswith(first[: first.rindex(b"\n") + 1])


@pytest.fixture
def dask_cluster() -> Any:
    """A two-worker Dask LocalCluster of processes, started by the test."""
    from iotuner.archive import local_cluster

    with local_cluster(2) as cluster:
        yield cluster


@pytest.mark.slow  # a Dask cluster's start; CI's
def test_dask_cluster_gives_the_rows_of_a_local_run(tmp_path: Path, dask_cluster: Any) -> None:
    make_archive(tmp_path / "archive")
    local, remote = tmp_path / "local.jsonl", tmp_path / "dask.jsonl"
    iotuner("advise", str(tmp_path / "archive"), "--jobs", "1", "--results", str(local))
    on_dask = json.loads(
        iotuner(
            "advise", str(tmp_path / "archive"), "--dask", "--scheduler",
            dask_cluster.scheduler_address, "--results", str(remote), "--json",
        ).stdout
    )  # fmt: skip

    def essence(rows: list[dict[str, Any]]) -> dict[str, Any]:
        return {
            r["path"]: (r["status"], r.get("program"), r.get("io_seconds"), r.get("findings"))
            for r in rows
        }

    assert essence(rows_of(remote)) == essence(rows_of(local))
    assert on_dask["advised_now"] == len(rows_of(local))
    # The same resume: a rerun on Dask skips every log.
    again = json.loads(
        iotuner(
            "advise", str(tmp_path / "archive"), "--dask", "--scheduler",
            dask_cluster.scheduler_address, "--results", str(remote), "--json",
        ).stdout
    )  # fmt: skip
    assert again["advised_now"] == 0 and again["skipped"] == on_dask["advised_now"]
    assert again["programs"] == on_dask["programs"]


class _Links(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.links: list[str] = []
        self.images: list[str] = []
        self.scripts = 0

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        values = dict(attrs)
        if tag == "a" and values.get("href"):
            self.links.append(str(values["href"]))
        if tag == "img":
            self.images.append(str(values.get("src")))
        self.scripts += tag == "script"


@pytest.mark.slow  # CI's
def test_html_pages_rank_and_describe_each_program(tmp_path: Path) -> None:
    make_archive(tmp_path / "archive")
    pages = tmp_path / "pages"
    summary = json.loads(
        iotuner("advise", str(tmp_path / "archive"), "--jobs", "2", "--html", str(pages),
                "--json").stdout
    )  # fmt: skip
    index = _Links()
    index.feed((pages / "index.html").read_text())
    programs = [p["program"] for p in summary["programs"]]
    pages_of = [f"programs/{program_page_name(p)}" for p in programs]
    # Each program's link, and where its saving is unknown, a link to the page's why.
    assert [link for link in index.links if "#" not in link] == pages_of
    assert {link.split("#")[0] for link in index.links} == set(pages_of)
    assert index.images and all(src.startswith("data:image/png;base64,") for src in index.images)
    assert index.scripts == 0
    assert "fifo.darshan" in (pages / "index.html").read_text()
    for program in programs:
        page = (pages / "programs" / program_page_name(program)).read_text()
        assert f"<h1>{program}</h1>" in page
        assert 'id="findings"' in page and 'id="advice"' in page and 'id="logs"' in page
        links = _Links()
        links.feed(page)
        assert [x for x in links.links if not x.startswith("#")] == ["../index.html"]
        assert links.scripts == 0
    ior = (pages / "programs" / program_page_name("ior")).read_text()
    assert "sample-badost.darshan" in ior and "ior_hdf5_example.darshan" in ior


@pytest.mark.slow  # CI's
def test_the_report_gives_each_program_one_page_with_its_archive_part_and_its_runs(
    tmp_path: Path,
) -> None:
    """`iotuner report --archive RESULTS --logs TRACE`: the index ranks the archive's
    programs, and the traced program's page holds both its archive part (findings,
    advice, logs) and its runs; an archive-only program's page has no runs section."""
    make_archive(tmp_path / "archive")
    results = tmp_path / "r.jsonl"
    iotuner("advise", str(tmp_path / "archive"), "--jobs", "2", "--results", str(results))
    (trace,) = DATA.glob("*.iotrace.jsonl")
    out = tmp_path / "report.html"
    iotuner("report", "--archive", str(results), "--logs", str(trace), "-o", str(out))
    index = out.read_text()
    links = _Links()
    links.feed(index)
    ranked = [p.program for p in rank_programs(rows_of(results))]
    assert 'id="ranking"' in index and links.scripts == 0
    pages = {name: tmp_path / name for name in links.links if name.endswith(".html")}
    assert len(pages) >= len(ranked) and all(p.is_file() for p in pages.values())
    by_title = {}
    for page in pages.values():
        text = page.read_text()
        title = text.split("<h1>", 1)[1].split("</h1>", 1)[0]
        by_title[title] = text
    assert set(ranked) <= set(by_title)
    traced = json.loads(trace.read_text().splitlines()[0])["program"]
    both = by_title[traced]
    assert 'id="archive"' in both and 'id="findings"' in both and 'id="runs"' in both
    alone = by_title[next(p for p in ranked if p != traced)]
    assert 'id="findings"' in alone and 'id="runs"' not in alone


def test_a_log_that_is_not_there_is_an_error_row_the_next_run_and_the_report_read(
    tmp_path: Path,
) -> None:
    """A dangling link in the archive and a listed log that is missing: each one error row
    with its reason, which the rerun takes back (it does not refuse its own file) and the
    report shows among the logs not read."""
    archive = tmp_path / "archive"
    archive.mkdir()
    (trace,) = DATA.glob("*.iotrace.jsonl")
    shutil.copy(trace, archive / trace.name)
    (archive / "dangling.darshan").symlink_to(tmp_path / "moved-away.darshan")
    listed = tmp_path / "list.txt"
    listed.write_text(f"{tmp_path / 'missing.darshan'}\n")
    results = tmp_path / "r.jsonl"
    command = ["advise", str(archive), "--from-list", str(listed), "--jobs", "1",
               "--results", str(results), "--json"]  # fmt: skip
    first = json.loads(iotuner(*command).stdout)
    assert first["advised_now"] == 3 and first["read"] == 1
    errors = {Path(e["path"]).name: e["error"] for e in first["errors"]}
    assert set(errors) == {"dangling.darshan", "missing.darshan"}
    assert all("no such file" in words for words in errors.values())

    again = json.loads(iotuner(*command).stdout)
    assert again["skipped"] == 3 and again["advised_now"] == 0
    assert again["errors"] == first["errors"]
    report = tmp_path / "report.html"
    iotuner("report", "--archive", str(results), "-o", str(report))
    page = report.read_text()
    assert "dangling.darshan" in page and "missing.darshan" in page


def test_a_400_digit_number_in_the_results_is_a_one_line_error(tmp_path: Path) -> None:
    """A results file edited or damaged by hand: the report and a rerun say which file,
    line and field, never a traceback (tests/unit/test_archive_results.py: other values)."""
    row = {"path": "/a/x.darshan", "size": 1, "mtime_ns": 2, "status": "ok", "program": "p",
           "nprocs": 2, "io_seconds": 1.0, "io_core_hours": 0.1, "io_basis": "b",
           "findings": [], "advice": []}  # fmt: skip
    good = json.dumps({**row, "path": "/a/y.darshan"})
    results = tmp_path / "r.jsonl"
    results.write_text(f"{good}\n{json.dumps({**row, 'io_seconds': 10**400})}\n{good}\n")
    for command in (
        ["report", "--archive", str(results), "-o", str(tmp_path / "report.html")],
        ["advise", str(tmp_path), "--results", str(results), "--jobs", "1"],
    ):
        done = subprocess.run([IOTUNER, *command], capture_output=True, text=True, check=False)
        assert done.returncode == 2, done.stdout + done.stderr
        (line,) = done.stderr.strip().splitlines()
        assert f"{results}: line 2 is not a row" in line and "io_seconds" in line
