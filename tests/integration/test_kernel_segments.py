"""iokernel with many calls per open (--calls, --repeat): the same bytes as one call, read
back and verified, and the open, data and close phases reported apart."""

import subprocess
from pathlib import Path

import numpy as np
import pytest

from .conftest import Mpi

PHASES = ("open_s", "data_s", "close_s")


def expected_bytes(offsets: np.ndarray) -> np.ndarray:
    """The kernel's content function: byte o is ((o*131 + 7) ^ (o >> 9)) mod 256."""
    o = offsets.astype(np.uint64)
    return (((o * np.uint64(131) + np.uint64(7)) ^ (o >> np.uint64(9))) & 0xFF).astype(np.uint8)


def result_lines(stdout: str) -> list[dict[str, str]]:
    return [
        dict(part.split("=", 1) for part in line.split()[1:])
        for line in stdout.splitlines()
        if line.startswith("iokernel: ") and "op=" in line
    ]


# name: (arguments for one call per rank, the same data in many calls per open, calls per open)
CASES = {
    "contiguous calls": ("--size 96k", "--size 96k --calls 7", 7),
    # 4 segments of 96 KiB per rank: the same 768 KiB file as one 384 KiB call per rank
    "contiguous segments": ("--size 384k", "--size 96k --repeat 4", 4),
    "segments of calls, independent, nonblocking": (
        "--size 240k --pattern independent",
        "--size 48k --repeat 5 --calls 3 --pattern independent --nonblocking",
        15,
    ),
    "strided segments": (
        "--layout strided --block 4k --fill 0.5 --size 256k",
        "--layout strided --block 4k --fill 0.5 --size 32k --repeat 8 --calls 2",
        16,
    ),
}


def written_offsets(path: Path, args: tuple[str, ...]) -> np.ndarray:
    """The offsets the kernel wrote: all of the file, or the blocks of a strided layout
    (the holes between them may hold anything, see the kernel's top comment)."""
    size = path.stat().st_size
    if "strided" not in args:
        return np.arange(size, dtype=np.int64)
    block = 4096
    slot = 2 * block  # fill 0.5
    starts = np.arange(0, size, slot, dtype=np.int64)
    return (starts[:, None] + np.arange(block, dtype=np.int64)[None, :]).ravel()


@pytest.mark.parametrize("case", list(CASES))
def test_many_calls_per_open_write_the_same_bytes_as_one(mpi: Mpi, case: str) -> None:
    single_text, many_text, calls = CASES[case]
    single, many = tuple(single_text.split()), tuple(many_text.split())
    one, segmented = mpi.workdir / "one.dat", mpi.workdir / "many.dat"
    first = result_lines(mpi.run_plain(2, "iokernel", "--file", str(one), *single).stdout)
    second = result_lines(
        mpi.run_plain(2, "iokernel", "--file", str(segmented), "--op", "both", *many).stdout
    )
    assert [line["calls"] for line in first] == ["1"]
    assert [(line["op"], line["calls"]) for line in second] == [
        ("write", str(calls)),
        ("read", str(calls)),  # the read verified every byte (exit 0)
    ]
    assert first[0]["bytes"] == second[0]["bytes"] == second[1]["bytes"]
    offsets = written_offsets(one, single)
    assert one.stat().st_size == segmented.stat().st_size
    want = expected_bytes(offsets)
    got_one = np.fromfile(one, dtype=np.uint8)[offsets]
    got_many = np.fromfile(segmented, dtype=np.uint8)[offsets]
    assert np.array_equal(got_one, want)
    assert np.array_equal(got_many, want)


def test_a_segmented_read_finds_a_wrong_byte(mpi: Mpi) -> None:
    """The read-back verification of many calls per open can fail: one byte flipped."""
    data = mpi.workdir / "data"
    args = ("--file", str(data), "--size", "64k", "--repeat", "6", "--calls", "2")
    mpi.run_plain(2, "iokernel", *args)
    raw = bytearray(data.read_bytes())
    bad = 5 * 2 * 65536 + 1234  # in the last segment
    raw[bad] ^= 0xFF
    data.write_bytes(bytes(raw))
    completed = subprocess.run(
        mpi.command(2, "iokernel", *args, "--op", "read"),
        capture_output=True,
        text=True,
        timeout=180,
        check=False,
    )
    assert completed.returncode == 1
    assert f"first bad byte at offset {bad}" in completed.stderr


@pytest.mark.parametrize("extra", [(), ("--pattern", "independent", "--writers", "root")])
def test_open_data_and_close_are_reported_apart(mpi: Mpi, extra: tuple[str, ...]) -> None:
    out = mpi.run_plain(
        2, "iokernel", "--file", str(mpi.workdir / "d"), "--op", "both", "--size", "16k",
        "--repeat", "32", *extra,
    ).stdout  # fmt: skip
    lines = result_lines(out)
    assert [line["op"] for line in lines] == ["write", "read"]
    for line in lines:
        # The old fields stay for older parsers; each phase is a number of seconds.
        assert {"bytes", "seconds", "bandwidth_mib_s", "data_mib_s", *PHASES} <= set(line)
        phases = [float(line[name]) for name in PHASES]
        assert all(value >= 0 for value in phases)
        assert float(line["seconds"]) >= 0 and float(line["data_mib_s"]) >= 0
        writers = 1 if extra else 2
        assert int(line["bytes"]) == writers * 16384 * 32
        assert line["calls"] == "32"
