"""`iotuner run` makes missing log directories private (0700) and leaves existing ones be."""

import os
import re
import stat
from collections.abc import Iterator
from pathlib import Path

import pytest

from iotuner.errors import ConfigError
from iotuner.runner import run

LIBC = Path("libc.so.6")  # harmless to preload


@pytest.fixture(autouse=True)
def usual_umask() -> Iterator[None]:
    """The common umask 022, under which a plain mkdir gives 0755."""
    old = os.umask(0o022)
    yield
    os.umask(old)


def _mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


def test_missing_directories_are_made_0700(tmp_path: Path) -> None:
    home = tmp_path / "home"
    home.mkdir(mode=0o755)
    log_dir = home / "state" / "iotuner" / "logs"
    assert run(["true"], log_dir=log_dir, library=LIBC).returncode == 0
    for made in (home / "state", home / "state" / "iotuner", log_dir):
        assert _mode(made) == 0o700, made
    assert _mode(home) == 0o755


def test_an_existing_directory_keeps_its_mode(tmp_path: Path) -> None:
    shared = tmp_path / "shared"
    shared.mkdir()
    os.chmod(shared, 0o775)
    run(["true"], log_dir=shared, library=LIBC)
    assert _mode(shared) == 0o775
    run(["true"], log_dir=shared / "mine", library=LIBC)
    assert _mode(shared) == 0o775
    assert _mode(shared / "mine") == 0o700


def test_a_file_in_the_way_is_a_clear_error(tmp_path: Path) -> None:
    (tmp_path / "logs").write_text("not a directory")
    with pytest.raises(
        ConfigError, match=re.escape(f"cannot create the log directory {tmp_path}/logs/new: ")
    ):
        run(["true"], log_dir=tmp_path / "logs" / "new", library=LIBC)
    with pytest.raises(
        ConfigError, match=re.escape(f"cannot create the log directory {tmp_path}/logs: ")
    ):
        run(["true"], log_dir=tmp_path / "logs", library=LIBC)
