"""Atomic file replacement, so readers (the interposer, a user's tools) never see half a
file; and the private modes of what iotuner writes.

RATIONALE: what iotuner writes (knowledge bases, tuning tables, reports, models, exported
settings) names the user's programs, files and commands and holds their measurements, so
it follows the trace logs' policy (the interposer writes them 0600 in 0700 folders): a
file iotuner creates is 0600, a folder 0700. A file or folder that exists keeps its mode:
a table a centre made readable to all (chmod 0644) stays so when iotuner rewrites it.
"""

import os
import stat
import uuid
from pathlib import Path

__all__ = ["PRIVATE_FILE", "atomic_write_text", "create_private_file", "make_private_dirs"]

PRIVATE_FILE = 0o600
PRIVATE_FOLDER = 0o700


def atomic_write_text(path: Path, text: str, mode: int = PRIVATE_FILE) -> None:
    """Write `text` to `path` through a temporary file in the same directory and os.replace.

    A new file gets `mode` (less the umask); a file that exists keeps its mode (module
    doc). The temporary file is removed when anything fails before the rename.
    """
    tmp = path.with_name(f".{path.name}.{os.getpid()}.{uuid.uuid4().hex[:8]}.tmp")
    try:
        kept: int | None = stat.S_IMODE(path.stat().st_mode)
    except OSError:
        kept = None
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, mode if kept is None else 0o600)
    try:
        if kept is not None:
            # os.open's mode is cut by the umask: the existing file's mode is set as it was.
            os.fchmod(fd, kept)
        with os.fdopen(fd, "w", encoding="utf-8", newline="") as out:
            out.write(text)
            out.flush()
            os.fsync(out.fileno())
        os.replace(tmp, path)
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise


def create_private_file(path: Path) -> None:
    """Create `path` empty with mode 0600 if it does not exist (left as it is if it does),
    so a library that then opens it (SQLite) does not create it 0644."""
    os.close(os.open(path, os.O_WRONLY | os.O_CREAT | os.O_CLOEXEC, PRIVATE_FILE))


def make_private_dirs(folder: Path) -> None:
    """Create `folder` and its missing parents with mode 0700; existing ones are left as
    they are (the same rule as runner.make_log_dir, which also says why)."""
    missing = []
    for directory in (folder, *folder.parents):
        if directory.is_dir():
            break
        missing.append(directory)
    for directory in reversed(missing):
        # exist_ok: another process may make it meanwhile (a file of that name still fails).
        directory.mkdir(mode=PRIVATE_FOLDER, exist_ok=True)
