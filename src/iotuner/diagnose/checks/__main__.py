"""Writes docs/finding-codes.md from the checks' registry: `python -m iotuner.diagnose.checks
PATH` (to standard output without PATH)."""

import sys
from pathlib import Path

from iotuner.diagnose.checks import codes_page

if len(sys.argv) > 1:
    Path(sys.argv[1]).write_text(codes_page(), encoding="utf-8")
else:
    sys.stdout.write(codes_page())
