"""iotuner evaluate, predict and train's figures on a knowledge base made by `iotuner ingest`
from a CSV table: two programs (one per scale), 8 workloads, the 18 configurations of
demo-small, where one configuration is the best of every workload (tests/models/conftest)."""

import json
from collections.abc import Callable
from pathlib import Path

import pandas as pd
import pytest

from iotuner.cli import main
from iotuner.models import synthetic_summary_frame
from iotuner.space import config_key, load_space, shipped_spaces

from ..models.conftest import EFFECTS, GOOD

MAPPING = """
space = "demo-small"
[columns]
program = "program"
nprocs = "nprocs"
pattern = "pattern"
op = "op"
layout = "layout"
bytes_per_rank = "bytes_per_rank"
bandwidth = "bandwidth"
"cfg:romio_cb_write" = "romio_cb_write"
"cfg:romio_ds_write" = "romio_ds_write"
"cfg:cb_buffer_size" = "cb_buffer_size"

[defaults]
nodes = 1

[system]
host = "cluster"
fs_type = "lustre"
"""


@pytest.fixture(scope="module")
def knowledge(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The knowledge base, made once for the module's tests."""
    folder = tmp_path_factory.mktemp("kb")
    frame = synthetic_summary_frame(
        load_space("demo-small"),
        sizes=(65536, 1048576),
        nprocs=(1, 2),
        effects=EFFECTS,
        noise=0.05,
        seed=3,
    )
    frame = frame.assign(program=["alpha" if n == 1 else "beta" for n in frame["nprocs"]])
    table = frame.rename(columns=lambda c: c.removeprefix("cfg:"))
    table = table.rename(columns={"bw_median": "bandwidth"})
    table.to_csv(folder / "data.csv", index=False)
    (folder / "m.toml").write_text(MAPPING)
    db = folder / "kb.sqlite"
    argv = ["ingest", "--db", str(db), "--mapping", str(folder / "m.toml")]
    assert main([*argv, str(folder / "data.csv")]) == 0
    return db


def test_evaluate_prints_both_schemes_with_random_order(
    knowledge: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    argv = ["evaluate", "--db", str(knowledge), "--models", "decision_tree", "--quick"]
    assert main(argv) == 0
    out = capsys.readouterr().out
    assert "leave-one-workload-out: all 8 workloads held out one at a time" in out
    assert "leave-one-program-out: all 2 programs held out" in out and "(alpha," in out
    assert out.count("random order") == 2 and out.count("decision_tree") == 2


def test_evaluate_json(knowledge: Path, capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["evaluate", "--db", str(knowledge), "--models", "random_forest", "--quick"]
    assert main([*argv, "--by", "workload", "--budget", "3", "--max-folds", "4", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["budget"] == 3 and list(data["random"]) == ["workload"]
    (result,) = data["results"]
    assert (result["model"], result["scheme"], result["folds"]) == ("random_forest", "workload", 4)
    assert all(w["trials"] is None or 1 <= w["trials"] <= 3 for w in result["workloads"])
    assert result["figures"]["pick_mean"] > data["random"]["workload"]["pick_mean"]
    argv = ["evaluate", "--db", str(knowledge), "--models", "random_forest", "--quick"]
    assert main([*argv, "--by", "program", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    (result,) = data["results"]
    assert (result["scheme"], result["folds"]) == ("program", 2)
    assert {w["program"] for w in result["workloads"]} == {"alpha", "beta"}
    assert len(result["workloads"]) == 8


def test_evaluate_refuses_an_unknown_model(
    knowledge: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["evaluate", "--db", str(knowledge), "--models", "oracle"]) == 2
    assert "--models must be a comma-separated list of random_forest" in capsys.readouterr().err


@pytest.mark.slow  # CI's
def test_train_json_then_predict(
    knowledge: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    model = tmp_path / "model"
    argv = ["train", "--db", str(knowledge), "--quick", "--no-rules", "-o", str(model)]
    assert main([*argv, "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["chosen"] in {r["model"] for r in report["evaluation"]["results"]}
    assert report["baseline"] == "random_forest" and report["path"] == str(model)
    assert "pick" in report["rule"]

    workload = "nprocs=2,pattern=collective,op=write,layout=contiguous,size=1m"
    assert main(["predict", "--model", str(model), "--workload", workload, "--json"]) == 0
    predicted = json.loads(capsys.readouterr().out)
    assert predicted["configurations"] == 18 and len(predicted["predictions"]) == 10
    top = predicted["predictions"][0]
    assert top["key"] == GOOD and top["low"] <= top["high"]
    assert top["predicted_ratio"] > 1
    # The printed gain is the earned one (calibrated, or unknown), never the raw ratio.
    assert top["gain"]["basis"] in ("calibrated", "unknown")
    assert main(["predict", "--model", str(model), "--workload", workload]) == 0
    printed = capsys.readouterr().out
    (line,) = [row for row in printed.splitlines() if row.rstrip().endswith(GOOD)]
    assert top["gain"]["figure"] in line
    assert f"{top['predicted_ratio']:.2f}" not in line.replace(f"{top['predicted']:.1f}", "")
    assert predicted["system"]["learned"]["fs_type"] == "lustre"

    # Another system (this machine's disk, not the table's Lustre cluster): the order
    # alone, no interval, no gain, and why.
    there = ["predict", "--model", str(model), "--workload", workload, "--dir", str(tmp_path)]
    assert main([*there, "--json"]) == 0
    elsewhere = json.loads(capsys.readouterr().out)
    assert elsewhere["system"]["answer"].startswith("order only, no interval or gain: its ")
    assert [p["key"] for p in elsewhere["predictions"]] == [
        p["key"] for p in predicted["predictions"]
    ]
    for p in elsewhere["predictions"]:
        assert (
            p["low"] is None
            and p["high"] is None
            and p["predicted_ratio"] is None
            and p["gain"]["basis"] == "unknown"
        )
        assert p["calibrated_gain"] is None and "the model learned on lustre" in p["far_from_data"]
    assert main(there) == 0
    assert "no interval and no gain" in capsys.readouterr().out

    # A scale beyond the trained ones: a wider interval, and no held-out bounds of the gain.
    beyond = workload.replace("nprocs=2", "nprocs=16")
    assert main(["predict", "--model", str(model), "--workload", beyond, "--json"]) == 0
    far = json.loads(capsys.readouterr().out)["predictions"]
    assert all("nprocs 16 beyond the measured 1-2" in p["far_from_data"] for p in far)
    assert all(p["calibrated_gain"] is None for p in far)
    near = {p["key"]: p for p in predicted["predictions"]}
    for p in far:
        if p["key"] in near:
            assert p["high"] / p["low"] > near[p["key"]]["high"] / near[p["key"]]["low"]

    given = "romio_cb_write=disable,romio_ds_write=disable,cb_buffer_size=16777216"
    argv = ["predict", "--model", str(model), "--workload", workload, "--config", given]
    assert main(argv) == 0
    lines = capsys.readouterr().out.splitlines()
    assert "1 configuration(s) predicted" in lines[0] and len(lines) == 2
    assert main([*argv[:-1], "romio_cb_write=sometimes"]) == 2
    assert "romio_cb_write" in capsys.readouterr().err


@pytest.mark.slow  # CI's
def test_predict_finds_the_space_of_a_model_trained_on_a_space_file(
    knowledge: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """train --space FILE: the model keeps the space itself, so predict needs neither
    --space nor the file (it once looked the space's name up among the shipped ones)."""
    text = shipped_spaces()["demo-small"].read_text(encoding="utf-8")
    text = text.replace('name = "demo-small"', 'name = "my-demo"')
    assert 'name = "my-demo"' in text
    space_file = tmp_path / "spaces" / "my-demo.toml"
    space_file.parent.mkdir()
    space_file.write_text(text, encoding="utf-8")
    model = tmp_path / "model"
    argv = ["train", "--db", str(knowledge), "--space", str(space_file), "--quick"]
    assert main([*argv, "--no-rules", "-o", str(model), "--json"]) == 0
    capsys.readouterr()
    metadata_file = model / "model.json"
    metadata = json.loads(metadata_file.read_text())
    assert metadata["space"] == "my-demo" and metadata["space_definition"]["name"] == "my-demo"
    space_file.unlink()  # gone: the model does not need it

    workload = "nprocs=2,pattern=collective,op=write,layout=contiguous,size=1m"
    predict = ["predict", "--model", str(model), "--workload", workload, "--json"]
    assert main(predict) == 0
    predicted = json.loads(capsys.readouterr().out)
    assert predicted["space"] == "my-demo" and predicted["configurations"] == 18
    assert predicted["predictions"][0]["key"] == GOOD

    # A model saved before kept only the name: a clear error that says what to do.
    del metadata["space_definition"]
    metadata_file.write_text(json.dumps(metadata))
    assert main(predict) == 2
    err = " ".join(capsys.readouterr().err.split())
    assert "trained on space 'my-demo' and keeps only its name" in err
    assert "--space FILE" in err
    space_file.write_text(text, encoding="utf-8")
    assert main([*predict, "--space", str(space_file)]) == 0
    assert json.loads(capsys.readouterr().out)["space"] == "my-demo"


def test_predict_for_a_write_ranks_write_keys_only(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """first-sweep has read and write keys (162 configurations): for a collective write,
    the 9 settings of the read keys behave alike, so 18 are ranked, none with a read key
    changed (issue 31: predict ranked a write by romio_cb_read and romio_ds_read)."""
    from iotuner.models import fit_model, save_model

    space = load_space("first-sweep")
    shape = {"sizes": (65536, 1048576), "nprocs": (1, 2), "patterns": ("collective",)}
    frames = [
        synthetic_summary_frame(space, op=op, noise=0.3, seed=seed, **shape)
        for seed, op in enumerate(("write", "read"))
    ]
    import pandas as pd

    save_model(fit_model(pd.concat(frames, ignore_index=True), space, "random_forest"), tmp_path)
    workload = "nprocs=2,pattern=collective,op=write,layout=contiguous,size=1m"
    argv = ["predict", "--model", str(tmp_path), "--workload", workload, "--top", "200"]
    assert main([*argv, "--json"]) == 0
    predicted = json.loads(capsys.readouterr().out)
    assert predicted["configurations"] == 18
    assert "144 differing only in keys that cannot act here" in predicted["note"]
    for entry in predicted["predictions"]:
        assert entry["config"]["romio_cb_read"] == "automatic"
        assert entry["config"]["romio_ds_read"] == "automatic"


DEMO = load_space("demo-small")


def _model_without(tmp_path: Path, left_out: Callable[[pd.Series], pd.Series]) -> Path:
    """A model trained (quick) on the module's synthetic table without the rows whose
    configuration key `left_out` picks, through ingest and train as a user does."""
    frame = synthetic_summary_frame(
        DEMO, sizes=(65536, 1048576), nprocs=(1, 2), effects=EFFECTS, noise=0.05, seed=3
    )
    frame = frame[~left_out(frame["config"])]
    frame = frame.assign(program=["alpha" if n == 1 else "beta" for n in frame["nprocs"]])
    table = frame.rename(columns=lambda c: c.removeprefix("cfg:"))
    table.rename(columns={"bw_median": "bandwidth"}).to_csv(tmp_path / "data.csv", index=False)
    (tmp_path / "m.toml").write_text(MAPPING)
    db, model = tmp_path / "kb.sqlite", tmp_path / "model"
    argv = ["ingest", "--db", str(db), "--mapping", str(tmp_path / "m.toml")]
    assert main([*argv, str(tmp_path / "data.csv")]) == 0
    assert main(["train", "--db", str(db), "--quick", "--no-rules", "-o", str(model)]) == 0
    return model


@pytest.mark.slow  # a training; CI's
def test_no_calibrated_gain_over_a_default_never_measured(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Tables measured without the default configuration (calibration.default_rows 0):
    predict gives no calibrated gain over the default, and says unknown."""
    model = _model_without(tmp_path, lambda configs: configs == config_key(DEMO.default()))
    capsys.readouterr()
    workload = "nprocs=2,pattern=collective,op=write,layout=contiguous,size=1m"
    assert main(["predict", "--model", str(model), "--workload", workload, "--json"]) == 0
    predictions = json.loads(capsys.readouterr().out)["predictions"]
    assert predictions and all(p["calibrated_gain"] is None for p in predictions)
    assert all(p["gain"]["basis"] == "unknown" for p in predictions)


@pytest.mark.slow  # a training; CI's
def test_predict_marks_values_no_training_row_had(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Issue 41: predict ranked first configurations whose values no training row had
    (automatic, where the data had only enable and disable), without saying so."""
    model = _model_without(tmp_path, lambda configs: configs.str.contains("romio_cb_write=auto"))
    capsys.readouterr()
    workload = "nprocs=2,pattern=collective,op=write,layout=contiguous,size=1m"
    argv = ["predict", "--model", str(model), "--workload", workload, "--top", "18"]
    assert main([*argv, "--json"]) == 0
    predictions = json.loads(capsys.readouterr().out)["predictions"]
    for p in predictions:
        unseen = p["config"]["romio_cb_write"] == "automatic"
        assert p["untrained_values"] == (["romio_cb_write=automatic"] if unseen else []), p
    assert main(argv) == 0
    # The ranked rows (rank, prediction, ...), not the note on the default above them.
    rows = [line for line in capsys.readouterr().out.splitlines() if line[:6].strip().isdigit()]
    lines = [line for line in rows if "romio_cb_write=automatic" in line]
    assert lines and all("(no training row had romio_cb_write=automatic)" in line for line in lines)
