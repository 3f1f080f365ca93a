"""iotuner.diagnose on the Darshan logs the `darshan` package ships: each finding's counters
are the log's own (read again here with PyDarshan), the DXT trace is bounded, and the
advice carries and prints the findings."""

import json
import subprocess
import sys
from pathlib import Path

import darshan
import pandas as pd
import pytest

import iotuner.ingest._darshan_worker as worker
from iotuner.advise import advise, read_source
from iotuner.diagnose import FIRST, LEVELS, Finding, diagnose_darshan, diagnose_job
from iotuner.diagnose import _thresholds as thresholds
from iotuner.ingest import read_darshan
from iotuner.ingest._darshan import is_system_file

PACKAGE = Path(darshan.__file__).resolve().parent
EXAMPLES = PACKAGE / "examples" / "example_logs"
IOR_HDF5 = EXAMPLES / "ior_hdf5_example.darshan"
MACSIO = next(EXAMPLES.glob("shane_macsio_*.darshan"))
IOTUNER = str(Path(sys.executable).parent / "iotuner")


def counters_of(path: Path, module: str) -> pd.DataFrame:
    with darshan.DarshanReport(str(path), read_all=False) as report:
        report.mod_read_all_records(module)
        frames = report.records[module].to_df()
        return pd.concat(
            [frames["counters"], frames["fcounters"].drop(columns=["rank", "id"])], axis=1
        )


def by_code(findings: list[Finding]) -> dict[str, list[Finding]]:
    found: dict[str, list[Finding]] = {}
    for f in findings:
        found.setdefault(f.code, []).append(f)
    return found


@pytest.mark.parametrize("log", sorted(EXAMPLES.glob("*.darshan")), ids=lambda p: p.name[:24])
def test_every_shipped_log_gets_well_formed_findings(log: Path) -> None:
    findings = diagnose_job(read_darshan(log))
    assert findings, f"no finding on {log.name}"
    for f in findings:
        assert f.level in LEVELS and f.words and f.code.count(".") == 1, f
        assert all(isinstance(v, float) for v in f.counters.values()), f
    # Statements about the log itself (FIRST) lead; the rest go by level.
    lead = [f.code for f in findings if f.code in FIRST]
    assert [f.code for f in findings[: len(lead)]] == lead
    ranks = [LEVELS.index(f.level) for f in findings[len(lead) :]]
    assert ranks == sorted(ranks), "findings are not ordered most important first"


def test_the_straggler_rests_on_the_slowest_and_fastest_rank_counters() -> None:
    found = by_code(diagnose_job(read_darshan(IOR_HDF5)))
    [straggler] = found["imbalance.stragglers"]
    posix = counters_of(IOR_HDF5, "POSIX")
    shared = posix[(posix["rank"] == -1) & (posix["POSIX_BYTES_WRITTEN"] > 0)]
    assert straggler.counters["POSIX_F_SLOWEST_RANK_TIME"] == pytest.approx(
        float(shared["POSIX_F_SLOWEST_RANK_TIME"].max())
    )
    assert straggler.counters["POSIX_F_FASTEST_RANK_TIME"] == pytest.approx(
        float(shared["POSIX_F_FASTEST_RANK_TIME"].max())
    )
    spread = (
        straggler.counters["POSIX_F_SLOWEST_RANK_TIME"]
        - straggler.counters["POSIX_F_FASTEST_RANK_TIME"]
    )
    summed = float(
        shared[["POSIX_F_READ_TIME", "POSIX_F_WRITE_TIME", "POSIX_F_META_TIME"]].sum(axis=1).max()
    )
    assert spread / summed > thresholds.STRAGGLER_TIME_SHARE
    [misaligned] = found["requests.misaligned_file"]
    assert misaligned.counters["POSIX_FILE_NOT_ALIGNED"] == float(
        posix["POSIX_FILE_NOT_ALIGNED"].sum()
    )
    assert "hdf5.usage" in found and "lustre.one_stripe" in found


def test_small_requests_come_from_the_histogram_not_the_mean() -> None:
    found = by_code(diagnose_job(read_darshan(MACSIO)))
    mpiio = counters_of(MACSIO, "MPI-IO")
    small = next(f for f in found["requests.small_write"] if f.module == "MPI-IO")
    bins = [
        f"MPIIO_SIZE_WRITE_AGG_{b}" for b in ("0_100", "100_1K", "1K_10K", "10K_100K", "100K_1M")
    ]
    assert {b: small.counters[b] for b in bins} == {b: float(mpiio[b].sum()) for b in bins}
    assert "mpiio.independent_write" in found
    # The HDF5 file is the program's data: a group of its own, not summarised as small.
    job = read_darshan(MACSIO)
    assert any(g.name.endswith("macsio_hdf5_000.h5") for g in job.groups)


def test_system_files_are_not_the_programs_data() -> None:
    for name in ("/usr/lib/python3.11/os.py", "/home/u/env/lib/python3.11/site-packages/np/x.so",
                 "/home/u/app/__pycache__/m.cpython-311.pyc", "/etc/hosts", "/proc/self/maps",
                 "/tmp/ompi.node.1000/pid.7/1/f.sm", "/lib64/libz.so.1.2.13"):  # fmt: skip
        assert is_system_file(name), name
    for name in ("/scratch/run/out.h5", "/home/u/data/train.tfrecord", "/tmp/test/macsio.log"):
        assert not is_system_file(name), name


def test_dxt_is_read_bounded_and_its_per_rank_sums_cover_every_segment(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    full = worker.read_log(str(IOR_HDF5))["dxt"]["DXT_POSIX"]
    assert not full["capped"] and len(full["segments"]) == full["total"] > 10
    monkeypatch.setattr(worker, "DXT_SEGMENTS_KEPT", 10)
    capped = worker.read_log(str(IOR_HDF5))["dxt"]["DXT_POSIX"]
    assert capped["capped"] and len(capped["segments"]) == 10 and capped["total"] == full["total"]
    assert capped["ranks"] == full["ranks"]
    assert sum(v[1] for v in full["ranks"].values()) == int(full["segments"]["length"].sum())
    codes = {f.code for f in diagnose_darshan(worker.read_log(str(IOR_HDF5)))}
    assert {"dxt.capped", "dxt.rank_spread"} <= codes


def test_io_that_went_around_posix_through_dfs_is_said() -> None:
    """A log whose bytes moved through DAOS's file interface only: the finding says them,
    and the job's note does not claim that nothing moved."""
    log = worker.read_log(str(IOR_HDF5))
    written = 16 << 20
    dfs = pd.DataFrame(
        {"rank": [-1], "id": [42], "DFS_BYTES_READ": [written], "DFS_BYTES_WRITTEN": [written],
         "DFS_F_READ_TIME": [0.5], "DFS_F_WRITE_TIME": [0.5], "DFS_F_META_TIME": [0.1]}
    )  # fmt: skip
    log = {**log, "frames": {"DFS": dfs}, "names": {42: "/daos/cont/file"}, "dxt": {}}
    [usage] = [f for f in diagnose_darshan(log) if f.code == "dfs.usage"]
    assert usage.counters["DFS_BYTES_WRITTEN"] == written and "16.0 MiB written" in usage.words


def test_advise_carries_the_findings_in_json_and_prints_them_first(tmp_path: Path) -> None:
    advice = advise(read_source(IOR_HDF5), None, None, None)
    data = advice.to_dict()
    assert [f["code"] for f in data["findings"]] == [f.code for f in advice.findings]
    json.dumps(data, allow_nan=False)
    done = subprocess.run(
        [IOTUNER, "advise", "--model", str(tmp_path / "none"), str(IOR_HDF5)],
        capture_output=True, text=True, check=True, env={"COLUMNS": "400", "PATH": ""},
    )  # fmt: skip
    lines = done.stdout.splitlines()
    header = next(i for i, line in enumerate(lines) if line.startswith("ior with 4 processes"))
    assert lines[header + 1] == "Findings", lines[: header + 2]
    assert any("POSIX_F_SLOWEST_RANK_TIME = " in line for line in lines)
    assert any(line.strip().startswith("do: ") for line in lines)
