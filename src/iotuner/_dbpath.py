"""Where the knowledge base lives unless told, without importing the store (SQLAlchemy,
pandas): the command line shows this path in its help."""

import os
from pathlib import Path

__all__ = ["default_store_path"]


def default_store_path() -> Path:
    """Where the knowledge base lives unless told: $XDG_DATA_HOME/iotuner/knowledge.sqlite,
    else ~/.local/share/iotuner/knowledge.sqlite."""
    base = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(base) / "iotuner" / "knowledge.sqlite"
