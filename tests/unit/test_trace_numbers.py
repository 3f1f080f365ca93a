"""The trace writer's real numbers are exactly what printf's "%.9g" writes.

The interposer writes the real fields of a trace's op rows (time_stamp, duration,
bandwidth) without printf (interposer/src/json.c, iot__buf_g9): the C checker
`number_check` formats a million doubles both ways (every bit pattern, the range a trace
holds, exact decimal ties, neighbours of powers of ten) and counts the texts that differ.
The log format is unchanged only if that count is 0.

IOTUNER_TEST_NUMBER_CHECK names another checker to run (e.g. build/asan/number_check,
built with AddressSanitizer); it must then also print nothing on stderr.
"""

import os
import re
import subprocess
from pathlib import Path

from iotuner.runner import find_program

TIMEOUT = 300


def checker() -> Path:
    """The C checker: $IOTUNER_TEST_NUMBER_CHECK, else the installed one."""
    override = os.environ.get("IOTUNER_TEST_NUMBER_CHECK")
    return Path(override) if override else find_program("number_check")


def test_writer_numbers_match_printf() -> None:
    completed = subprocess.run(
        [str(checker()), "1000000", "12345"],
        capture_output=True,
        text=True,
        timeout=TIMEOUT,
        check=False,
    )
    summary = re.search(r"^number_check: values=(\d+) differ=(\d+)$", completed.stdout, re.M)
    assert summary, f"no summary line from number_check:\n{completed.stdout}{completed.stderr}"
    assert int(summary.group(1)) >= 1_000_000
    assert completed.returncode == 0 and summary.group(2) == "0", completed.stdout
    assert not completed.stderr, completed.stderr
