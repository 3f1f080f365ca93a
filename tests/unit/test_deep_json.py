"""JSON nested without end ('[' * 100000) gives each reader's message, never a traceback."""

import json
import re
from pathlib import Path

import pytest

from iotuner._safejson import MAX_JSON_DEPTH, JsonTooDeepError, loads_json
from iotuner.cli import main
from iotuner.errors import IotunerError
from iotuner.ingest import load_mapping
from iotuner.measurement import measurement_from_json
from iotuner.models import load_model
from iotuner.runner import build_config
from iotuner.tracelog import read_tracelog

DEEP = "[" * 100_000
TOO_DEEP = f"expected at most {MAX_JSON_DEPTH} nested levels, got more"


def test_loads_json_accepts_the_limit_and_refuses_one_more() -> None:
    at_limit = "[" * MAX_JSON_DEPTH + "]" * MAX_JSON_DEPTH
    assert loads_json(at_limit) == json.loads(at_limit)
    with pytest.raises(JsonTooDeepError, match=TOO_DEEP) as raised:
        loads_json('{"a": ' + "[" * MAX_JSON_DEPTH + "]" * MAX_JSON_DEPTH + "}")
    assert raised.value.colno == len('{"a": ') + MAX_JSON_DEPTH
    with pytest.raises(json.JSONDecodeError, match=TOO_DEEP):
        loads_json(DEEP)


def test_brackets_inside_strings_are_text() -> None:
    text = json.dumps({"name": "[" * 1000, "quoted": '\\"' + "{" * 1000})
    assert loads_json(text) == json.loads(text)


def test_loads_json_passes_the_pairs_hook() -> None:
    assert loads_json('{"a": 1, "a": 2}', object_pairs_hook=list) == [("a", 1), ("a", 2)]


def _deep_log(tmp_path: Path, sample_log: Path) -> Path:
    """The sample log with its third line replaced by a deeply nested one."""
    lines = sample_log.read_text().splitlines()
    lines[2] = DEEP
    path = tmp_path / "deep.iotrace.jsonl"
    path.write_text("\n".join(lines) + "\n")
    return path


def test_trace_log_readers(
    tmp_path: Path, sample_log: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    log = _deep_log(tmp_path, sample_log)
    with pytest.raises(IotunerError, match=re.escape(f"{log} line 3: not valid JSON ({TOO_DEEP}")):
        read_tracelog(log)
    db = str(tmp_path / "kb.sqlite")
    for argv in (["show", str(log)], ["log2csv", str(log)], ["ingest", "--db", db, str(log)]):
        assert main(argv) == 2, argv
        assert f"deep.iotrace.jsonl line 3: not valid JSON ({TOO_DEEP}" in capsys.readouterr().err


def test_bench_results(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(ValueError, match=TOO_DEEP):
        measurement_from_json(DEEP)
    results = tmp_path / "sweep.bench.jsonl"
    results.write_text(DEEP + "\n")
    assert main(["ingest", "--db", str(tmp_path / "kb.sqlite"), str(results)]) == 2
    assert f"sweep.bench.jsonl:1: not valid JSON ({TOO_DEEP}" in capsys.readouterr().err


def test_an_unnamed_file_is_not_guessed_from_a_deep_first_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    unknown = tmp_path / "something.jsonl"
    unknown.write_text(DEEP + "\n")
    assert main(["ingest", "--db", str(tmp_path / "kb.sqlite"), str(unknown)]) == 2
    assert "cannot tell what kind of file this is" in capsys.readouterr().err


def test_csv_mappings(tmp_path: Path) -> None:
    as_json = tmp_path / "mapping.json"
    as_json.write_text(DEEP)
    with pytest.raises(IotunerError, match=re.escape(f"mapping.json: not valid JSON ({TOO_DEEP}")):
        load_mapping(as_json)
    as_toml = tmp_path / "mapping.toml"
    as_toml.write_text("columns = " + DEEP)
    with pytest.raises(
        IotunerError, match=re.escape("mapping.toml: expected a TOML mapping, got arrays")
    ):
        load_mapping(as_toml)


def test_model_metadata_and_build_record(tmp_path: Path) -> None:
    model = tmp_path / "model"
    model.mkdir()
    (model / "model.json").write_text(DEEP)
    with pytest.raises(IotunerError, match=re.escape(f"model.json: not valid JSON ({TOO_DEEP}")):
        load_model(model)
    build = tmp_path / "share" / "iotuner" / "build.json"
    build.parent.mkdir(parents=True)
    build.write_text(DEEP)
    with pytest.raises(IotunerError, match=re.escape(f"cannot read {build} ({TOO_DEEP}")):
        build_config(tmp_path)
