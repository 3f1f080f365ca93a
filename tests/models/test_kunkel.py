"""iotuner.models after Kunkel et al.: the trees, their rules, and the judgement of choices."""

import re

import numpy as np
import pandas as pd
import pytest

from iotuner.models import (
    ModelError,
    judge_choices,
    kunkel_report,
    parameter_setting_tree,
    performance_tree,
    synthetic_summary_frame,
    tree_rules,
)
from iotuner.space import Space, config_key

from .conftest import EFFECTS, GOOD


@pytest.fixture(scope="module")
def summary(space: Space) -> pd.DataFrame:
    """conftest's frame with its factors on every row, independent ones included (made
    before keys were held to where they act): GOOD is then the best of every workload,
    which the parameter-setting rules below rest on. Kunkel's trees choose among the
    measured configurations and do not read the configuration features."""
    return synthetic_summary_frame(
        space, effects=EFFECTS, noise=0.05, seed=7, keys_act_everywhere=True
    )


def test_performance_rules_name_the_features(summary: pd.DataFrame, space: Space) -> None:
    tree, schema = performance_tree(summary, space, max_depth=3)
    assert tree.get_depth() == 3
    rules = tree_rules(tree, schema)
    assert (rules.model, rules.depth, rules.leaves) == ("performance model", 3, 8)
    tests = re.findall(r"\|--- (\S+) (?:<=|>|==|!=) ", rules.text)
    assert tests and set(tests) <= set(schema.sources)
    assert {"bytes_per_rank", "group"} & set(tests)  # size matters most in the fixture
    assert "cfg:romio_cb_write" in tests  # and so does collective buffering
    assert rules.text.count("predicted") == 8
    assert all(line.endswith("MiB/s") for line in rules.text.splitlines() if "predicted" in line)


def test_parameter_setting_rules_choose_configurations(summary: pd.DataFrame, space: Space) -> None:
    tree, schema = parameter_setting_tree(summary, space)
    assert schema.sources[0] == "nprocs" and not schema.parameters
    rules = tree_rules(tree, schema)
    # GOOD is the best configuration of every workload: a single leaf choosing it.
    assert rules.text == f"|--- choose {GOOD}"


def test_rules_of_a_size_dependent_choice() -> None:
    flip = synthetic_summary_frame(size_flip="romio_cb_write", seed=3)
    tree, schema = parameter_setting_tree(flip)
    text = tree_rules(tree, schema).text
    assert "bytes_per_rank <=" in text or "group <=" in text
    assert text.count("choose") >= 2


def test_judgement_orders_default_learned_best(summary: pd.DataFrame, space: Space) -> None:
    flip = synthetic_summary_frame(space, size_flip="romio_cb_write", seed=5)
    for frame in (summary, flip):
        choices, judged, learned_best, notes = judge_choices(frame, space)
        assert judged == 36 and not notes
        names = [c.choice for c in choices]
        assert names[0] == "default configuration"
        assert names[1].startswith("best fixed in hindsight: ")
        assert names[2] == "learned (PSM, 10-fold)" and names[3] == "best per workload"
        best = choices[-1]
        for c in choices:
            assert c.harmonic <= c.arithmetic
            assert c.arithmetic <= best.arithmetic and c.harmonic <= best.harmonic
            assert 0 < c.fraction_of_best <= 1
        assert best.best_count == 36 and best.arithmetic_of_best == 1.0
        assert 0.0 <= learned_best <= 1.0
    # In the fixture the learned choice is the best one everywhere; the default is not.
    choices, _, learned_best, _ = judge_choices(summary, space)
    assert learned_best == 1.0 and choices[2].fraction_of_best == 1.0
    assert choices[0].best_count == 0 and choices[0].fraction_of_best < 0.5


def test_unmeasured_choices_and_defaults_are_left_out(frame: pd.DataFrame, space: Space) -> None:
    small = frame["bytes_per_rank"] == 4096
    default = config_key(space.default())
    without = frame[~(small & (frame["config"] == default))]
    _, judged, _, notes = judge_choices(without, space)
    assert judged == 30
    assert any("no measurement of the default" in n for n in notes)
    # Where GOOD was not measured, the learned choice (GOOD) cannot be judged.
    missing_good = frame.drop(index=frame.index[frame["config"] == GOOD][0])
    _, judged, _, notes = judge_choices(missing_good, space)
    assert judged == 35 and any("1 workload(s) left out" in n for n in notes)


def test_report(summary: pd.DataFrame, space: Space) -> None:
    report = kunkel_report(summary, space, max_depth=3)
    assert (report.workloads, report.configurations, report.rows) == (36, 18, 648)
    assert report.stat == "bw_median" and report.judged == 36 and report.folds == 10
    assert report.pm.depth == 3 and 0 < report.pm_cv_mape < 100
    assert report.psm_cv_best_fraction == 1.0
    assert len(report.choices) == 4


def test_errors(frame: pd.DataFrame, space: Space) -> None:
    with pytest.raises(ModelError, match="stat"):
        kunkel_report(frame, space, stat="bandwidth")
    with pytest.raises(ModelError, match="one system"):
        kunkel_report(pd.concat([frame, frame.assign(system="b")]), space)
    with pytest.raises(ModelError, match="folds"):
        judge_choices(frame, space, folds=1)
    tree, _ = performance_tree(frame, space)
    with pytest.raises(ModelError, match="features"):
        tree_rules(tree, parameter_setting_tree(frame, space)[1])
    assert np.isfinite(frame["bw_median"]).all()
