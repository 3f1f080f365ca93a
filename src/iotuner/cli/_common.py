"""What the families of commands share: the type of the subcommand table, the --db and
--space options, the options naming what a model learns from (add_learning_source), the
knowledge base --db names, comma-separated lists, the command after `--`, and the form of
an error line."""

import argparse
import sys
from typing import TYPE_CHECKING, TypeAlias

from iotuner._dbpath import default_store_path
from iotuner.errors import ConfigError

if TYPE_CHECKING:
    from iotuner.store import Store

__all__ = [
    "ERROR_STATUS",
    "Subparsers",
    "add_db_argument",
    "add_learning_source",
    "add_space_argument",
    "comma_separated",
    "command_after_dashes",
    "print_error",
    "store_from_args",
]

Subparsers: TypeAlias = "argparse._SubParsersAction[argparse.ArgumentParser]"
"""What each family's `add_<command>` function adds its subcommand to."""

ERROR_STATUS = 2
"""The exit status of a command that failed on an error (argparse's, for usage errors)."""


def print_error(message: str) -> None:
    """Write `message` to stderr as iotuner's errors, "iotuner: error: " before each line;
    a control character in it (a name's ESC sequence, from a table or a trace) escaped."""
    from iotuner._printable import printable

    for line in message.splitlines():
        print(f"iotuner: error: {printable(line)}", file=sys.stderr)


def command_after_dashes(args: argparse.Namespace) -> list[str]:
    """The command a run or search names after its options, without the `--` before it."""
    command: list[str] = args.command
    return command[1:] if command[:1] == ["--"] else command


def comma_separated(
    text: str, allowed: tuple[str, ...] | None = None, what: str = "value"
) -> list[str]:
    """The items of a comma-separated option value (`what` names the option), each one of
    `allowed` when given; a ConfigError when there are none or one is not allowed."""
    items = [item.strip() for item in text.split(",") if item.strip()]
    bad = [item for item in items if allowed is not None and item not in allowed]
    if not items or bad:
        raise ConfigError(
            f"{what} must be a comma-separated list of {', '.join(allowed or ())}, got {text!r}"
        )
    return items


def add_space_argument(parser: argparse.ArgumentParser) -> None:
    """--space for the commands that measure a parameter space (bench, search)."""
    parser.add_argument("--space", default="romio-ufs", help="TOML file or shipped space name")


def add_db_argument(parser: argparse.ArgumentParser) -> None:
    """--db, the knowledge base a command reads or adds to (see store_from_args)."""
    parser.add_argument(
        "--db",
        metavar="PATH_OR_URL",
        help="knowledge base: an SQLite file (kb.sqlite or /srv/kb.sqlite; its folder must "
        "exist), sqlite:///relative/kb.sqlite, sqlite:////absolute/kb.sqlite (four slashes) "
        "or postgresql://USER@HOST/DB "
        f"(default: $IOTUNER_DB, else {str(default_store_path()).replace('%', '%%')})",
    )


def add_learning_source(parser: argparse.ArgumentParser) -> None:
    """--db, --system, --space and --kind: the measurements train, tune, analyze, evaluate
    and advise learn from (iotuner.learn.training_data)."""
    add_db_argument(parser)
    parser.add_argument(
        "--system",
        help="fingerprint (prefix) of the system to learn from, "
        "when the knowledge base holds several",
    )
    parser.add_argument(
        "--space",
        help="parameter space (file or shipped name; default: the space of the measurements)",
    )
    parser.add_argument(
        "--kind",
        choices=("bench", "trace", "csv", "search"),
        help="learn only from measurements of this kind",
    )


def store_from_args(args: argparse.Namespace) -> "Store":
    """The knowledge base a command names with --db (see add_db_argument), else the one
    $IOTUNER_DB names, else the default SQLite file (iotuner.store.open_named_store)."""
    from iotuner.store import open_named_store

    return open_named_store(getattr(args, "db", None))
