"""The exceptions iotuner raises: one hierarchy rooted at IotunerError.

Library code raises these with a message meant for the user (what was expected, what
came instead, and where); only the command line turns them into exit codes.
"""

__all__ = [
    "ConfigError",
    "FormatError",
    "IotunerError",
    "RunError",
    "SetupError",
    "TableError",
    "TraceLogError",
]


class IotunerError(Exception):
    """Root of every error iotuner reports to the user."""


class FormatError(IotunerError):
    """A format definition (formats/*.def) is missing or malformed."""


class TableError(IotunerError):
    """A tuning table is invalid; the message has one line per problem found."""


class TraceLogError(IotunerError):
    """A trace log is malformed or incomplete."""


class SetupError(IotunerError):
    """A piece of the installation (interposer, MPI programs, MPI launcher) is missing."""


class ConfigError(IotunerError):
    """A setting given to iotuner (mode, policy, command, ...) is invalid."""


class RunError(IotunerError):
    """A command iotuner ran could not start, or did not finish in time (and was stopped,
    with every process it started). Not a ConfigError: a search counts it as a failed
    trial, while a bad setting must stop the search."""
