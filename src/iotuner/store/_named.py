"""The knowledge base a user names: the one given (a command's --db, an archive run's
setting), else the one $IOTUNER_DB names, else the default SQLite file. The command line
and the archive run open theirs here, so both read the name the same way."""

import os

from iotuner.store._open import open_store
from iotuner.store._store import Store
from iotuner.store._values import StoreError

__all__ = ["open_named_store"]


def open_named_store(given: str | None) -> Store:
    """The knowledge base `given` names (a path or URL, as open_store takes), else the one
    $IOTUNER_DB names, else the default SQLite file (default_store_path). A StoreError
    about a name from $IOTUNER_DB says where the name came from."""
    from_env = not given and bool(os.environ.get("IOTUNER_DB"))
    if from_env:
        given = os.environ["IOTUNER_DB"]
    try:
        # RATIONALE: a folder missing from a name the user gave is more likely a slip
        # (sqlite:///srv/kb.sqlite meant as absolute, a typo) than a wish, so it is an
        # error, not a new folder; the default file's folder is ours to make.
        return open_store(given or None, make_folder=not given)
    except StoreError as exc:
        if not from_env:
            raise
        raise StoreError(f"{exc} (named by $IOTUNER_DB)") from None
