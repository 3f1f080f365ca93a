"""Atomic file replacement, so readers (the interposer, a user's tools) never see half a file."""

import os
import uuid
from pathlib import Path


def atomic_write_text(path: Path, text: str) -> None:
    """Write `text` to `path` through a temporary file in the same directory and os.replace.

    RATIONALE: the temporary file is created with mode 0666 less the umask, like a file
    opened normally, so the table a job reads keeps the usual permissions; it is removed
    when anything fails before the rename.
    """
    tmp = path.with_name(f".{path.name}.{os.getpid()}.{uuid.uuid4().hex[:8]}.tmp")
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666)
    try:
        with os.fdopen(fd, "w", encoding="utf-8", newline="") as out:
            out.write(text)
            out.flush()
            os.fsync(out.fileno())
        os.replace(tmp, path)
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise
