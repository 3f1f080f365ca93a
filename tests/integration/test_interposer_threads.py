"""The interposer under MPI_THREAD_MULTIPLE: threads open, use and close files side by side.

Below MPI_THREAD_MULTIPLE the interposer takes no lock on the per-call path (MPI is never
entered by two threads at once), and every thread remembers the last file it looked up;
these runs check that with MPI_THREAD_MULTIPLE every call is still counted, on the right
file, and every byte lands where the program put it.
"""

import struct
from collections import Counter
from pathlib import Path

import pytest

from .conftest import Mpi, one_log

THREADS, ROUNDS, OPS = 4, 4, 20000


@pytest.mark.parametrize("mode", ["trace", "tune,trace"])
def test_threads_count_every_call_on_its_file(mpi: Mpi, tmp_path: Path, mode: str) -> None:
    table = tmp_path / "table.jsonl"
    table.write_text(
        '{"format": "iotuner-table", "version": 1}\n{"hints": {"romio_ds_write": "disable"}}\n'
    )
    args = ("--threads", str(THREADS), "--rounds", str(ROUNDS), "--ops", str(OPS))
    result = mpi.run(2, "threads", str(tmp_path / "f"), *args, mode=mode, table=table)
    assert "threads: ok" in result.stdout, result.stdout + result.stderr
    log = one_log(result)
    calls: Counter[tuple[str, str]] = Counter()
    moved: Counter[tuple[str, str]] = Counter()
    for row in log.ops:
        key = (Path(row["file"]).name, row["operation"])
        calls[key] += row["calls"]
        moved[key] += row["bytes"]
    shared = ("f.shared", "MPI_File_write_at")
    assert calls[shared] == 2 * THREADS * ROUNDS * OPS
    assert moved[shared] == 8 * calls[shared]
    # Each thread's own files: opened on MPI_COMM_SELF, one per rank, thread and round.
    for rank in range(2):
        for t in range(THREADS):
            for k in range(ROUNDS):
                name = f"f.p{rank}.t{t}.r{k}"
                assert calls[(name, "MPI_File_write_at")] == OPS, name
                assert moved[(name, "MPI_File_write_at")] == 8 * OPS, name
                assert calls[(name, "MPI_File_write_at_all")] == 1, name
                words = struct.unpack(f"<{OPS + 1}Q", (tmp_path / name).read_bytes())
                assert list(words) == [8 * i for i in range(OPS + 1)], name
    assert len(log.files) == 1 + 2 * THREADS * ROUNDS
    assert all(f["complete"] for f in log.files)
