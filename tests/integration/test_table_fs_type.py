"""A table knows the file system it was measured on (its header's fs_type).

Issue 32: the interposer applied a table measured on ext4 to files on GlusterFS or
Lustre. A table whose header names a file system now tunes only files on that file
system (as /proc/self/mounts names it, the knowledge base's System.fs_type); a file on
another stays untuned, and its open hints record says why (`untuned`, formats/
trace_records.def). Where iotuner cannot tell a file's file system, the file stays
untuned too, with one warning per job, and the program sees what it sees without
iotuner. A table without fs_type applies everywhere (test_interposer covers that).
"""

import json
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

from iotuner._printable import CONTROL, printable
from iotuner.cli import main
from iotuner.measurement import System
from iotuner.runner import interposer_env

from .conftest import (
    TIMEOUT,
    Mpi,
    is_mpich,
    one_log,
    printed_info,
    run_interposed,
    warnings_in,
)

OPEN_HINTS = {"cb_buffer_size": "1048576", "romio_ds_write": "disable"}
ENTRIES: list[dict[str, object]] = [
    {"at": "open", "hints": OPEN_HINTS},
    {"pattern": "collective", "hints": {"romio_cb_write": "disable"}},
]


def table_on(path: Path, fs_type: str) -> Path:
    """A table measured on fs_type."""
    header = {"format": "iotuner-table", "version": 1, "fs_type": fs_type}
    lines = [json.dumps(header)] + [json.dumps(e) for e in ENTRIES]
    path.write_text("\n".join(lines) + "\n")
    return path


def here(path: Path) -> str:
    return System.detect(path, "", "").fs_type


@pytest.mark.parametrize("prefix", ["", "ufs:"])
def test_a_table_for_another_file_system_leaves_the_file_untuned(
    mpi: Mpi, tmp_path: Path, prefix: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert here(tmp_path) != "lustre"
    table = table_on(tmp_path / "table.jsonl", "lustre")
    args = ("--file", prefix + str(tmp_path / "data"), "--print-info")
    plain_run = mpi.run_plain(2, "iokernel", *args, check=False)
    if prefix and plain_run.returncode != 0:
        pytest.skip(f"this MPI-IO does not take ROMIO's {prefix} prefix (OMPIO)")
    assert plain_run.returncode == 0, plain_run.stderr
    plain = printed_info(plain_run.stdout)
    result = mpi.run(2, "iokernel", *args, mode="tune,trace", table=table)
    assert warnings_in(result.stderr) == []
    info = printed_info(result.stdout)
    assert info == plain  # every key MPI reports, as without iotuner
    assert info.get("cb_buffer_size") != "1048576" and info.get("romio_ds_write") != "disable"
    log = one_log(result)
    opened = [h for h in log.hints if h["at"] == "open"]
    assert len(opened) == 1 and opened[0]["table"] == {}
    assert opened[0]["untuned"] == (
        f"the table was measured on lustre; the file is on {here(tmp_path)}"
    )
    # No access decision either: the file is untuned, not only its open.
    assert [h["at"] for h in log.hints] == ["open"]
    assert main(["show", str(log.path)]) == 0
    shown = " ".join(capsys.readouterr().out.split())
    assert "untuned: the table was measured on lustre" in shown


def test_a_table_for_this_file_system_tunes(mpi: Mpi, tmp_path: Path) -> None:
    table = table_on(tmp_path / "table.jsonl", here(tmp_path))
    args = ("--file", str(tmp_path / "data"), "--print-info")
    result = mpi.run(2, "iokernel", *args, mode="tune,trace", table=table)
    assert warnings_in(result.stderr) == []
    if is_mpich():  # what ROMIO reports; OMPIO names its own keys
        info = printed_info(result.stdout)
        assert info["cb_buffer_size"] == "1048576" and info["romio_ds_write"] == "disable"
    opened = [h for h in one_log(result).hints if h["at"] == "open"]
    # (Under OMPIO the table is put in its terms: romio_ds_write has none, ompio_map.def.)
    assert len(opened) == 1 and opened[0]["table"]["cb_buffer_size"] == "1048576"
    assert "untuned" not in opened[0]


@pytest.mark.never_harm
@pytest.mark.parametrize("handler", ["return", "user"])
def test_a_file_system_that_cannot_be_told_leaves_the_program_unharmed(
    mpi: Mpi, tmp_path: Path, handler: str
) -> None:
    """A file in a missing directory: iotuner cannot find its file system (the open fails
    too). The program prints what it prints without iotuner; one warning in the job."""
    options = ("--handler", handler, "--opens", "3")
    plain_dir, data = tmp_path / "plain", tmp_path / "data"
    plain_dir.mkdir()
    data.mkdir()
    plain = mpi.run_plain(2, "open_missing", "--dir", str(plain_dir), *options, check=False)
    table = table_on(tmp_path / "table.jsonl", here(tmp_path))
    result = run_interposed(
        mpi.command(2, "open_missing", "--dir", str(data), *options),
        mode="tune,trace",
        table=table,
        log_dir=tmp_path / "logs",
        capture=True,
        timeout=TIMEOUT,
    )
    assert result.returncode == plain.returncode == 0, result.stderr[-3000:]
    assert result.stdout == plain.stdout
    warned = warnings_in(result.stderr)
    assert len(warned) == 1 and "could not tell the file system" in warned[0], warned
    log = one_log(result)
    assert log.end is not None and len(log.end["warnings"]) == 1


def _odd_paths(ours: Path, other: Path) -> dict[str, tuple[Path, Path]]:
    """Paths whose open creates a file in `ours` or in `other` (two file systems): case ->
    (path, the directory the file lands in). The links are made here; the files they name
    do not exist yet."""
    (other / "sub").mkdir()
    (ours / "dirlink").symlink_to(other)
    (ours / "sublink").symlink_to(other / "sub")
    (ours / "dangling").symlink_to(other / "dangling-target.dat")
    (ours / "chain1").symlink_to("chain2")  # relative, then absolute and dangling
    (ours / "chain2").symlink_to(other / "chained.dat")
    # Not here: a relative dangling link whose target goes through a linked directory
    # ("../dirlink/x"), which ROMIO itself refuses to open ("Invalid file name": its own
    # resolution of a missing file's directory, ADIO_ResolveFileType).
    (other / "back").symlink_to(ours / "back-target.dat")
    return {
        "new file": (ours / "new.dat", ours),
        "dangling link to the other file system": (ours / "dangling", other),
        "new file in a linked directory": (ours / "dirlink" / "new.dat", other),
        "'..' after a linked directory": (ours / "sublink" / ".." / "dotdot.dat", other),
        "chain of links, the last dangling": (ours / "chain1", other),
        "dangling link back": (other / "back", ours),
    }


def test_the_interposer_and_ingest_tell_a_new_file_s_file_system_alike(
    mpi: Mpi, tmp_path: Path
) -> None:
    """Issue 42: a dangling symlink on ext4 to a file on tmpfs, created by the open, got
    the ext4 table's hints. The file system of a path is that of where the open creates
    it, for the interposer (its open hints record: tuned, or untuned and why) and for
    Python (System.detect, which ingest and advise use), over links, '..' and, as root, a
    bind mount."""
    shm = Path("/dev/shm")
    if not shm.is_dir() or here(shm) == here(tmp_path):
        pytest.skip("needs /dev/shm on another file system than the test's directory")
    other = Path(tempfile.mkdtemp(dir=shm, prefix="iotuner-fs-"))
    bind = tmp_path / "bind"
    bound = False
    try:
        paths = _odd_paths(tmp_path, other)
        if os.geteuid() == 0 and shutil.which("mount"):
            bind.mkdir()
            mounted = subprocess.run(
                ["mount", "--bind", str(other), str(bind)], capture_output=True
            )
            bound = mounted.returncode == 0
            if bound:
                paths["new file under a bind mount"] = (bind / "bound.dat", other)
        fs_there = here(other)
        table = table_on(tmp_path / "table.jsonl", fs_there)
        for case, (path, lands_in) in paths.items():
            python_says = System.detect(path, "", "").fs_type
            assert python_says == here(lands_in), case
            result = run_interposed(
                mpi.command(2, "iokernel", "--file", str(path), "--size", "64k"),
                mode="tune,trace",
                table=table,
                log_dir=tmp_path / "logs" / case.replace(" ", "-").replace("'", ""),
                capture=True,
                timeout=TIMEOUT,
            )
            assert result.returncode == 0, f"{case}: {result.stderr[-2000:]}"
            opened = [h for h in one_log(result).hints if h["at"] == "open"]
            assert opened, case
            if python_says == fs_there:
                assert "untuned" not in opened[0], f"{case}: {opened[0].get('untuned')}"
            else:
                assert opened[0]["untuned"].endswith(f"the file is on {python_says}"), case
    finally:
        if bound:
            subprocess.run(["umount", str(bind)], capture_output=True)
        shutil.rmtree(other, ignore_errors=True)


@pytest.mark.parametrize("fs_type", ["ext4\x1b[2J", "xfs\u202e4txe", "nfs\x9b31m", "gpfs\x7f"])
def test_the_interposer_prints_a_refused_fs_type_escaped(
    mpi: Mpi, tmp_path: Path, fs_type: str
) -> None:
    """Issue 42: the interposer's warning about a refused fs_type printed its text raw (an
    ESC reached the terminal) where `iotuner table check` prints it escaped. The
    interposer, preloaded without `iotuner run` (which now runs the program untuned before
    the interposer sees such a table), shows it by the CLI's printable rule."""
    table = table_on(tmp_path / "table.jsonl", fs_type)
    env = interposer_env("tune", table, tmp_path / "logs", "table", "escaped")
    done = mpi.run_env(env, 2, "iokernel", "--file", str(tmp_path / "data"), "--size", "64k")
    warned = warnings_in(done.stderr)
    assert len(warned) == 1, done.stderr
    assert printable(fs_type) in warned[0] and not CONTROL.search(warned[0]), warned[0]
    checked = subprocess.run(
        [str(Path(sys.executable).parent / "iotuner"), "table", "check", str(table)],
        capture_output=True,
        text=True,
        check=False,
    )
    assert printable(fs_type) in checked.stdout
    assert not any(CONTROL.search(line) for line in checked.stdout.splitlines())
