"""The README's test command leaves out the tests marked slow (issue 32, item 7: it took
19-21 minutes on 2 cores); CI runs that command and then the slow rest with the same
variables, and its other stages select what they selected before."""

import re
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
TESTS = """
import pytest

def test_fast():
    pass

@pytest.mark.slow
def test_slow():
    pass

@pytest.mark.never_harm
@pytest.mark.slow
def test_slow_never_harm():
    pass
"""


def _pytest(folder: Path, *args: str) -> str:
    done = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", *args],
        cwd=folder, capture_output=True, text=True, timeout=120, check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stdout + done.stderr
    return done.stdout.splitlines()[-1]


def test_the_default_run_leaves_out_the_slow_tests(tmp_path: Path) -> None:
    (tmp_path / "tests").mkdir()
    shutil.copy(ROOT / "tests" / "conftest.py", tmp_path / "tests" / "conftest.py")
    (tmp_path / "tests" / "test_some.py").write_text(TESTS)
    pyproject = (ROOT / "pyproject.toml").read_text()
    options = re.search(r"(?ms)^\[tool\.pytest\.ini_options\].*?(?=^\[|\Z)", pyproject)
    assert options is not None
    (tmp_path / "pyproject.toml").write_text(options.group())
    assert re.match(r"1 passed, 2 deselected", _pytest(tmp_path))  # the README's command
    assert re.match(r"2 passed, 1 deselected", _pytest(tmp_path, "-m", "slow"))  # CI's rest
    assert re.match(r"1 passed, 2 deselected", _pytest(tmp_path, "-m", "never_harm"))
    assert re.match(r"3 passed", _pytest(tmp_path, "tests/test_some.py"))  # named: all of it


def test_ci_runs_the_readme_command_and_then_the_slow_rest() -> None:
    ci = (ROOT / ".ci" / "run").read_text()
    readme = (ROOT / "README.md").read_text()
    assert "./setup.sh && .venv/bin/python -m pytest " in readme
    variables = "IOTUNER_REQUIRE_DARSHAN=1 IOTUNER_REQUIRE_BROWSER=1 IOTUNER_REQUIRE_SLURM=1"
    main = ci.index(f"{variables} .venv/bin/python -m pytest || exit $?\ntook tests\n")
    rest = ci.index(f"{variables} .venv/bin/python -m pytest -m slow || exit $?\ntook tests-slow\n")
    assert main < rest
