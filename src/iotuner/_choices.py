"""Names the command line offers as choices, kept apart from the modules that act on them.

RATIONALE: `iotuner` builds the parser of every subcommand before it runs any of them, so
whatever a parser needs is imported by `iotuner run` and `iotuner --version` too. The
modules that use these names import Optuna, SQLAlchemy or pandas; these tuples do not.
"""

__all__ = ["EXPORT_MECHANISMS", "INGEST_KINDS", "STRATEGIES"]

STRATEGIES = ("ga", "random", "grid", "tpe", "gp", "model")
"""The search strategies (iotuner.search.make_strategy)."""

INGEST_KINDS = ("trace", "bench", "csv", "darshan")
"""The kinds of file `iotuner ingest` reads (iotuner.ingest.KINDS)."""

EXPORT_MECHANISMS = ("romio-hints", "cray", "lfs", "mca", "iotuner")
"""The hint mechanisms `iotuner export` writes (iotuner.hint_exports.MECHANISMS)."""
