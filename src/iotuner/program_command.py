"""The command line a log records of its program, and whether it can run again as recorded.

advise prints a measurement command (`iotuner search ... -- mpiexec -n N <program>`) only
when it would run as printed. A Darshan log's `exe` holds the program's argv joined by
single spaces (darshan-core.c), so it is split at whitespace: an argument that held a
space cannot be told apart, and Darshan records no working directory. The log holds no
usable command when the line is empty, anonymised (darshan-convert --obfuscate leaves a
bare number in its place), ends in Darshan's `<TRUNCATED>` mark, or carries `<unknown
args>` (Darshan could not read the arguments). Our trace logs record the program's name
only (the executable's base name, or the script's for Python): no path, no arguments.
A program not on this machine (an absolute or relative path that is no executable file
here, a bare name not on PATH) cannot run here either.
"""

import os
import shutil
from dataclasses import dataclass

__all__ = ["ProgramCommand", "from_darshan_exe", "from_trace_program"]

_TRUNCATED = "<TRUNCATED>"
_UNKNOWN_ARGS = "<unknown args>"


@dataclass(frozen=True)
class ProgramCommand:
    """The program's argv as it can be run here (empty when it cannot), and in words why
    not, or what to mind when it can."""

    argv: tuple[str, ...]
    words: str

    @property
    def python(self) -> bool:
        """The program is a Python interpreter running a script."""
        return bool(self.argv) and os.path.basename(self.argv[0]).startswith("python")


def from_darshan_exe(exe: str) -> ProgramCommand:
    """The command of a Darshan log's `exe` line (see the module docstring)."""
    line = exe.strip()
    if not line:
        return ProgramCommand((), "the Darshan log records no command line")
    if line.endswith(_TRUNCATED):
        return ProgramCommand(
            (), "the Darshan log's command line was cut at Darshan's length limit (<TRUNCATED>)"
        )
    if _UNKNOWN_ARGS in line:
        return ProgramCommand(
            (), "Darshan could not read the program's arguments (<unknown args> in the log)"
        )
    words = line.split()
    if len(words) == 1 and words[0].isdigit():
        return ProgramCommand(
            (),
            f"the Darshan log's command line is anonymised (the number {words[0]} stands in "
            "for it)",
        )
    program = _here(words[0])
    if program is None:
        return ProgramCommand(
            (),
            f"the log's program {words[0]} is not on this machine (as a path or on PATH): "
            "run advise where it is to get a command that runs",
        )
    return ProgramCommand(
        (program, *words[1:]),
        "from the Darshan log's command line (Darshan joins the arguments with spaces and "
        "keeps no working directory: run it from the job's directory)",
    )


def from_trace_program(program: str) -> ProgramCommand:
    """A trace log's program: its name only, never a command that runs."""
    return ProgramCommand(
        (),
        f"a trace log records the program's name ({program or 'unknown'}), not its path or "
        "arguments",
    )


def _here(program: str) -> str | None:
    """The program as it runs here: an absolute path for a path (relative ones resolved
    against this directory), the bare name for one found on PATH; None when neither."""
    if "/" in program:
        path = os.path.abspath(program)
        return path if os.path.isfile(path) and os.access(path, os.X_OK) else None
    return program if shutil.which(program) else None
