"""The `iotuner` command.

Each subcommand is one `add_<name>` function in the module of its family, which declares
its arguments and sets `handler` to the function that carries it out and returns the exit
status; adding a subcommand means writing those two functions and listing the first in
_main._SUBCOMMANDS. Only the command line turns errors into messages and exit codes: an
IotunerError gives "iotuner: error: ..." on stderr and exit status 2.

  _main      main and the parser: every subcommand, in the order of the loop
  _common    what the families share: --db and its knowledge base, --space, lists, errors
  _demo      demo: the whole loop on this machine
  _trace     run, show, log2csv, logs: run programs and read their trace logs
  _measure   space, bench, ingest, db: fill and read the knowledge base
  _learn     train, tune, analyze, table: from measurements to tuning tables
  _search    search: find settings by running the program or replaying results

RATIONALE: every subcommand's parser is built on every call, and `iotuner run` stands
between the user and the program. So these modules import at their top only what the
parsers and `run` need, none of it beyond the standard library; every other handler
imports its own modules (rich, SQLAlchemy, pandas, scikit-learn and Optuna come in through
bench, demo, ingest, learn, models, render, search, store and tune), and a parser's
choices come from iotuner._choices. tests/unit/test_startup.py holds `run`, `show`,
`log2csv`, `logs`, `table check` and `--version` to that.
"""

from iotuner.cli._common import store_from_args
from iotuner.cli._main import main

__all__ = ["main", "store_from_args"]
