"""The linters and formatters the project keeps to, run as tests so CI enforces them."""

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
BIN = Path(sys.executable).parent
C_SOURCES = sorted(
    str(path.relative_to(ROOT))
    for folder in ("interposer/src", "interposer/stub", "interposer/tools", "programs", "bench")
    for path in (ROOT / folder).glob("*.[ch]")
)


def check(*command: str) -> None:
    completed = subprocess.run(command, cwd=ROOT, capture_output=True, text=True, check=False)
    assert completed.returncode == 0, completed.stdout + completed.stderr


@pytest.mark.parametrize(
    "command",
    [
        ("ruff", "check", "src", "tests", "bench"),
        ("ruff", "format", "--check", "src", "tests", "bench"),
        ("mypy", "src"),
    ],
    ids=lambda command: " ".join(command[:2]),
)
def test_python_linters(command: tuple[str, ...]) -> None:
    check(str(BIN / command[0]), *command[1:])


def test_c_is_clang_formatted() -> None:
    assert C_SOURCES
    check(str(BIN / "clang-format"), "--dry-run", "-Werror", *C_SOURCES)
