"""The first check of every file iotuner reads: a regular file, of a size worth reading.

Every reader (Darshan logs, trace logs, tables, CSV tables, spaces, bench results) calls
`checked_input` before it opens a file for its content, so a FIFO, a device, a
directory or a 20 GiB file is refused up front with the reason, instead of blocking,
filling the memory or being reported as "no such file". The limits are the readers'
own: each passes the largest size it can read within its memory bound.
"""

import os
import stat
from pathlib import Path

from iotuner.errors import IotunerError

__all__ = ["InputError", "checked_input", "read_bounded_bytes", "read_bounded_text"]

MIB = 1 << 20


class InputError(IotunerError):
    """A file given to iotuner cannot be read as what it should be: missing, not a
    regular file, unreadable or too large. Readers turn it into their own error class
    when they have one, keeping the message."""


def _kind(mode: int) -> str:
    if stat.S_ISDIR(mode):
        return "a directory"
    if stat.S_ISFIFO(mode):
        return "a FIFO (named pipe)"
    if stat.S_ISCHR(mode):
        return "a character device"
    if stat.S_ISBLK(mode):
        return "a block device"
    if stat.S_ISSOCK(mode):
        return "a socket"
    return "not a regular file"


def checked_input(path: Path | str, what: str, max_bytes: int) -> int:
    """The size of `path` when it is a regular file (symbolic links followed) of at most
    `max_bytes`; InputError otherwise, naming the file, `what` was expected and what came.

    `what` completes "expected ...", e.g. "a Darshan log".
    """
    path = Path(path)
    try:
        info = path.stat()
    except FileNotFoundError:
        raise InputError(f"{path}: no such file (expected {what})") from None
    except OSError as exc:
        raise InputError(f"{path}: cannot read it ({exc.strerror}; expected {what})") from None
    if not stat.S_ISREG(info.st_mode):
        raise InputError(f"{path}: {_kind(info.st_mode)}, not a regular file (expected {what})")
    if info.st_size > max_bytes:
        raise InputError(
            f"{path}: {_size(info.st_size)}, larger than the {_size(max_bytes)} read for "
            f"{what}; is it the right file?"
        )
    if not os.access(path, os.R_OK):
        raise InputError(f"{path}: permission denied (expected {what})")
    return info.st_size


def read_bounded_bytes(path: Path | str, what: str, max_bytes: int) -> bytes:
    """The bytes of a regular file of at most `max_bytes` (checked_input), never more than
    `max_bytes` read even if the file grows meanwhile."""
    checked_input(path, what, max_bytes)
    try:
        # O_NONBLOCK: should a FIFO take the file's place after the check, opening it
        # returns at once instead of waiting for a writer (reading it then gives EOF).
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | os.O_CLOEXEC)
        with os.fdopen(fd, "rb") as source:
            if not stat.S_ISREG(os.fstat(source.fileno()).st_mode):
                raise InputError(f"{path}: not a regular file any more (expected {what})")
            data = source.read(max_bytes + 1)
    except OSError as exc:
        raise InputError(f"{path}: cannot read it ({exc.strerror}; expected {what})") from None
    if len(data) > max_bytes:
        raise InputError(f"{path}: grew past {_size(max_bytes)} while read (expected {what})")
    return data


def read_bounded_text(path: Path | str, what: str, max_bytes: int) -> str:
    """The UTF-8 text of a regular file of at most `max_bytes` (read_bounded_bytes);
    InputError when it is not UTF-8."""
    data = read_bounded_bytes(path, what, max_bytes)
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise InputError(
            f"{path}: not UTF-8 text (byte {exc.start}: {data[exc.start : exc.start + 1]!r}; "
            f"expected {what})"
        ) from None


def _size(n: int) -> str:
    if n >= 1 << 30:
        return f"{n / (1 << 30):.1f} GiB"
    if n >= MIB:
        return f"{n / MIB:.1f} MiB"
    if n >= 1024:
        return f"{n / 1024:.1f} KiB"
    return f"{n} bytes"
