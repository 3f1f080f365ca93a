"""The two table readers agree on every line of a corpus of tables, good and bad.

The interposer's C reader (run as the checker `table_check`, outside MPI) and the Python
reader (`check_table`) must reach the same verdict on every line: accepted with the same
entry, or dropped with the same rule of formats/table_rules.def; or refuse the whole
table with the same rule. Messages may differ. The corpus is tests/data/tables/*.jsonl,
the files tests/data/tables/generate.py writes (bytes not kept in git, large files) and
a few special files (a FIFO, a directory, /dev/zero, a missing file).

Each corpus file also says what the verdicts must be, in comments the readers skip:
`# expect: VERDICT` before an entry line, `# expect-refused: RULE` for a refused table,
`# expect-fs-type: TYPE` for an accepted header that names the file system (both readers
then print it as a first record, line 1).

IOTUNER_TEST_TABLE_CHECK names another checker to compare (e.g. build/asan/table_check,
the C reader built with AddressSanitizer); it must then also print nothing on stderr.
"""

import difflib
import importlib.util
import json
import os
import subprocess
import threading
from collections.abc import Callable
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from iotuner.cli import main
from iotuner.formats import hint_vocabulary, table_rules
from iotuner.runner import find_program
from iotuner.table import check_table

CORPUS = Path(__file__).resolve().parents[1] / "data" / "tables"
COMMITTED = sorted(CORPUS.glob("*.jsonl"))
TIMEOUT = 60


def _load_generator() -> ModuleType:
    spec = importlib.util.spec_from_file_location("table_corpus_generate", CORPUS / "generate.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


GENERATED: dict[str, bytes] = _load_generator().tables()

# name: (how to make it in a directory, the rule it is refused with)
SPECIAL: dict[str, tuple[Callable[[Path], Path], str]] = {
    "missing": (lambda d: d / "absent.jsonl", "unreadable"),
    "dangling-symlink": (lambda d: _symlink(d / "dangling.jsonl", d / "absent"), "unreadable"),
    "not-a-directory": (lambda d: _file(d / "plain") / "table.jsonl", "unreadable"),
    "directory": (lambda d: d, "not_regular"),
    "fifo": (lambda d: _fifo(d / "fifo.jsonl"), "not_regular"),
    "dev-zero": (lambda d: Path("/dev/zero"), "not_regular"),
    "dev-null": (lambda d: Path("/dev/null"), "not_regular"),
    "symlink-to-dev-zero": (
        lambda d: _symlink(d / "zero.jsonl", Path("/dev/zero")),
        "not_regular",
    ),
    "empty": (lambda d: _file(d / "empty.jsonl"), "header"),
    "sparse-5mb": (lambda d: _file(d / "sparse.jsonl", size=5 * 2**20), "too_large"),
}


def _symlink(link: Path, target: Path) -> Path:
    link.symlink_to(target)
    return link


def _file(path: Path, size: int = 0) -> Path:
    with path.open("wb") as out:
        out.truncate(size)
    return path


def _fifo(path: Path) -> Path:
    os.mkfifo(path)
    return path


def checker() -> Path:
    """The C checker to compare: $IOTUNER_TEST_TABLE_CHECK, else the installed one."""
    override = os.environ.get("IOTUNER_TEST_TABLE_CHECK")
    return Path(override) if override else find_program("table_check")


def c_records(path: Path) -> list[dict[str, Any]]:
    """The C checker's verdicts on `path`, one record per line it printed."""
    completed = subprocess.run(
        [str(checker()), str(path)], capture_output=True, timeout=TIMEOUT, check=False
    )
    stdout = completed.stdout.decode("utf-8", errors="replace")
    stderr = completed.stderr.decode("utf-8", errors="replace")
    assert completed.returncode in (0, 1) and not stderr, (
        f"table_check {path} exited with {completed.returncode}\n{stderr}"
    )
    # Lines end at "\n" only: an entry may hold U+2028, which str.splitlines splits at.
    records = [json.loads(line) for line in stdout.split("\n") if line]
    all_ok = all(r["verdict"] == "ok" for r in records)
    assert completed.returncode == (0 if all_ok else 1), f"exit {completed.returncode}: {records}"
    return records


_python_cache: dict[Path, list[dict[str, Any]]] = {}


def py_records(path: Path) -> list[dict[str, Any]]:
    """The Python reader's verdicts on `path`; it must answer within TIMEOUT (a FIFO must
    not block it)."""
    if path in _python_cache:
        return _python_cache[path]
    result: list[list[dict[str, Any]]] = []
    worker = threading.Thread(
        target=lambda: result.append(check_table(path).as_records()), daemon=True
    )
    worker.start()
    worker.join(TIMEOUT)
    assert result, f"check_table({path}) did not return within {TIMEOUT} s"
    _python_cache[path] = result[0]
    return result[0]


def _shown(record: dict[str, Any]) -> str:
    """What must agree, as one line of text: line, verdict, rule, and an accepted entry."""
    where = f"line {record['line']}" if "line" in record else "table"
    if "header" in record:
        return f"{where}: ok header {json.dumps(record['header'], sort_keys=True)}"
    if record["verdict"] == "ok":
        return f"{where}: ok {json.dumps(record['entry'], sort_keys=True)}"
    return f"{where}: {record['verdict']} ({record['rule']})"


def assert_readers_agree(path: Path) -> list[dict[str, Any]]:
    """Compare the readers on `path`; the (agreed) records."""
    c, py = c_records(path), py_records(path)
    c_lines, py_lines = [_shown(r) for r in c], [_shown(r) for r in py]
    if c_lines != py_lines:
        diff = difflib.unified_diff(
            c_lines, py_lines, "C table_check", "Python check_table", n=1, lineterm=""
        )
        messages = [
            f"  C {_shown(r)}: {r.get('message', '')[:200]}" for r in c if r["verdict"] != "ok"
        ] + [f"  Python {_shown(r)}: {r.get('message', '')[:200]}" for r in py if "rule" in r]
        pytest.fail(
            f"the readers disagree on {path} (checker: {checker()}, built from the formats/ "
            "of its time: run ./setup.sh after changing them):\n"
            + "\n".join(line[:300] for line in diff)
            + "\nmessages:\n"
            + "\n".join(messages[:40])
        )
    return py


def expectations(data: bytes) -> tuple[str | None, dict[int, str]]:
    """The `# expect-refused: RULE` of a table, and `# expect: VERDICT` by entry line
    (line 1, the header: `# expect-fs-type: TYPE`, "ok TYPE")."""
    refused, pending, by_line = None, None, {}
    for number, raw in enumerate(data.split(b"\n"), start=1):
        stripped = raw.strip(b" \t\r")
        if raw.startswith(b"# expect-refused:"):
            refused = raw.split(b":", 1)[1].strip().decode()
        elif raw.startswith(b"# expect-fs-type:"):
            by_line[1] = "ok " + raw.split(b":", 1)[1].strip().decode()
        elif raw.startswith(b"# expect:"):
            pending = raw.split(b":", 1)[1].strip().decode()
        elif number > 1 and stripped and not raw.startswith(b"#") and pending is not None:
            by_line[number], pending = pending, None
    return refused, by_line


def assert_as_annotated(path: Path, data: bytes, records: list[dict[str, Any]]) -> None:
    refused, by_line = expectations(data)
    if refused is not None or (records and "line" not in records[0]):
        got = records[0]["rule"] if records and records[0]["verdict"] == "refused" else None
        assert got == refused, f"{path}: expected the table refused ({refused}), got {records}"
        return
    got = {
        r["line"]: f"ok {r['header']['fs_type']}" if "header" in r else r.get("rule", "ok")
        for r in records
    }
    problems = [
        f"line {line}: expected {by_line.get(line, '(no # expect: comment)')}, got {verdict}"
        for line, verdict in got.items()
        if by_line.get(line) != verdict
    ] + [
        f"line {line}: expected {v}, got no verdict"
        for line, v in by_line.items()
        if line not in got
    ]
    assert not problems, f"{path}:\n" + "\n".join(problems)


@pytest.fixture(scope="module")
def generated_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    directory = tmp_path_factory.mktemp("generated-tables")
    for name, data in GENERATED.items():
        (directory / name).write_bytes(data)
    return directory


@pytest.mark.parametrize("path", COMMITTED, ids=lambda p: p.name)
def test_committed_tables(path: Path) -> None:
    records = assert_readers_agree(path)
    assert_as_annotated(path, path.read_bytes(), records)


@pytest.mark.parametrize("name", sorted(GENERATED))
def test_generated_tables(name: str, generated_dir: Path) -> None:
    path = generated_dir / name
    records = assert_readers_agree(path)
    assert_as_annotated(path, GENERATED[name], records)


@pytest.mark.parametrize("name", sorted(SPECIAL))
def test_special_files(name: str, tmp_path: Path) -> None:
    make, rule = SPECIAL[name]
    path = make(tmp_path)
    records = assert_readers_agree(path)
    assert [(r["verdict"], r["rule"]) for r in records] == [("refused", rule)]


def test_the_corpus_breaks_every_rule(generated_dir: Path, tmp_path: Path) -> None:
    """Every rule of table_rules.def is met by some input, so the corpus stays complete."""
    paths = COMMITTED + [generated_dir / name for name in GENERATED]
    paths += [make(tmp_path) for make, _ in SPECIAL.values()]
    hit = {r["rule"] for path in paths for r in py_records(path) if "rule" in r}
    missing = [rule.name for rule in table_rules() if rule.name not in hit]
    assert not missing, f"no corpus file breaks {missing}: add one to {CORPUS}"


def test_the_corpus_accepts_every_hint_key(generated_dir: Path) -> None:
    """Every key of hints.def is in an accepted entry, at every decision point it may be."""
    accepted: set[tuple[str, str]] = set()
    for path in COMMITTED + [generated_dir / name for name in GENERATED]:
        for r in py_records(path):
            if r["verdict"] == "ok" and "entry" in r:
                accepted |= {(r["entry"]["at"], key) for key in r["entry"]["hints"]}
    wanted = {
        (at, hint.key)
        for hint in hint_vocabulary().values()
        for at in (("open",) if hint.when == "OPEN" else ("open", "access"))
    }
    assert not wanted - accepted, f"no accepted entry sets {sorted(wanted - accepted)}"


def test_every_corpus_file_is_annotated() -> None:
    """Each committed file says what the readers must do with each of its entry lines."""
    for path in COMMITTED:
        refused, by_line = expectations(path.read_bytes())
        records = py_records(path)
        if refused is None and records:
            assert by_line, f"{path} has no '# expect:' comments"


@pytest.mark.parametrize("name", ["ok-readme.jsonl", "rule-json.jsonl", "header-version-2.jsonl"])
def test_the_cli_prints_the_same_records(name: str, capsys: pytest.CaptureFixture[str]) -> None:
    """`iotuner table check --json` prints what check_table(...).as_records() gives."""
    path = CORPUS / name
    status = main(["table", "check", "--json", str(path)])
    printed = [json.loads(line) for line in capsys.readouterr().out.split("\n") if line]
    assert printed == py_records(path)
    assert status == (0 if all(r["verdict"] == "ok" for r in printed) else 1)
