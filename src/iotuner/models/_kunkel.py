"""Kunkel, Zimmer and Betke (ISC 2015): decision trees as a performance model (PM) and as a
parameter-setting model (PSM), their rules printed for people, and the choices they make
judged against the default and the best by arithmetic and harmonic mean bandwidth.

* PM: a shallow DecisionTreeRegressor on the same features as `iotuner train` (workload
  and configuration), fitted on log bandwidth; its rules show predicted MiB/s in the
  leaves. Its accuracy is the MAPE of 5-fold cross-validated predictions over the rows.
* PSM: for each workload (the system and all workload columns), the label is the
  configuration with the highest bandwidth; a DecisionTreeClassifier (entropy criterion,
  as in the paper) on the workload features learns to name it.
* Judgement: per workload, the bandwidth of the default configuration, of the PSM's
  choice and of the best configuration. The PSM's choice for a workload comes from a tree
  that never saw that workload (k-fold over workloads, k = min(folds, workloads)). Like the
  paper, a workload whose learned choice was never measured is left out, and so is one
  without a default measurement; all choices are then averaged over the same workloads.
  The arithmetic mean is what a busy machine sees per run; the harmonic mean is the
  throughput of running all the workloads one after another, and slow cases dominate it.
  For reference, the best single configuration in hindsight (highest arithmetic mean over
  those workloads) is judged too, as the paper's Table 4 judges every fixed default.

The statistic is bw_median unless told otherwise: a choice is judged by the typical run
(Kunkel et al. used the mean of five repeats).
"""

import math
import re
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt
import pandas as pd
from sklearn.model_selection import KFold, cross_val_predict
from sklearn.tree import DecisionTreeClassifier, DecisionTreeRegressor, export_text

from iotuner.models._common import (
    BANDWIDTH_STATS,
    PATTERN_COLUMNS,
    ModelError,
    default_mask,
    positive_rows,
    require_columns,
    single_system,
)
from iotuner.models._features import Encoding, FeatureSchema, infer_schema
from iotuner.models._metrics import regression_metrics
from iotuner.space import Space

__all__ = [
    "ChoiceScore",
    "KunkelReport",
    "TreeRules",
    "judge_choices",
    "kunkel_report",
    "parameter_setting_tree",
    "performance_tree",
    "tree_rules",
]


@dataclass(frozen=True)
class TreeRules:
    """A fitted tree in words: its depth and leaves, and the rules as indented text."""

    model: str
    depth: int
    leaves: int
    text: str


@dataclass(frozen=True)
class ChoiceScore:
    """How one way of choosing a configuration did over the judged workloads.

    `arithmetic` and `harmonic` are mean bandwidths (MiB/s); `*_of_best` divide them by the
    best choice's; `fraction_of_best` is the mean over workloads of bandwidth / best;
    `best_count` is the number of workloads where this choice is (one of) the best.
    """

    choice: str
    arithmetic: float
    harmonic: float
    arithmetic_of_best: float
    harmonic_of_best: float
    fraction_of_best: float
    best_count: int


@dataclass(frozen=True)
class KunkelReport:
    """The PM and PSM with their rules and accuracy, and the judgement of choices."""

    stat: str
    rows: int
    workloads: int
    configurations: int
    judged: int
    pm: TreeRules
    pm_cv_mape: float
    psm: TreeRules
    psm_cv_best_fraction: float
    folds: int
    choices: list[ChoiceScore]
    notes: list[str]


def performance_tree(
    frame: pd.DataFrame,
    space: Space | None = None,
    *,
    stat: str = "bw_median",
    max_depth: int = 4,
) -> tuple[DecisionTreeRegressor, FeatureSchema]:
    """The PM: a regression tree of depth <= `max_depth` on log(`stat`), and its schema."""
    data = _rows(frame, stat)
    schema = infer_schema(data, space)
    tree = DecisionTreeRegressor(max_depth=max_depth, random_state=0)
    tree.fit(schema.transform(data), np.log(data[stat].to_numpy(dtype=float)))
    return tree, schema


def parameter_setting_tree(
    frame: pd.DataFrame,
    space: Space | None = None,
    *,
    stat: str = "bw_median",
    max_depth: int = 4,
) -> tuple[DecisionTreeClassifier, FeatureSchema]:
    """The PSM: a classification tree from workload features to the best configuration."""
    table = _Workloads(_rows(frame, stat), space, stat)
    tree = _classifier(max_depth)
    tree.fit(table.X, table.best)
    return tree, table.schema


def tree_rules(tree: Any, schema: FeatureSchema) -> TreeRules:
    """The rules of a PM or PSM as text (sklearn's export_text, made readable).

    Tests on 0/1 features read ``op == write`` / ``op != write``; tests on log2 features
    read in the original unit (``bytes_per_rank <= 90.5 KiB``); a PM leaf shows its
    predicted bandwidth in MiB/s, a PSM leaf the configuration to choose.
    """
    names = schema.feature_names
    if getattr(tree, "n_features_in_", len(names)) != len(names):
        raise ModelError(
            f"the tree takes {tree.n_features_in_} features, the schema has {len(names)}"
        )
    classifier = isinstance(tree, DecisionTreeClassifier)
    raw = export_text(
        tree,
        feature_names=names,
        class_names=[str(c) for c in tree.classes_] if classifier else None,
        decimals=3,
        max_depth=100,
    )
    by_feature = {name: e for e in schema.encodings for name in e.features}
    text = "\n".join(_readable(line, by_feature) for line in raw.rstrip("\n").splitlines())
    if classifier and len(tree.classes_) == 1:
        # export_text prints a one-class tree as if it were a regression.
        text = f"|--- choose {tree.classes_[0]}"
    return TreeRules(
        model="parameter-setting model (classifier)" if classifier else "performance model",
        depth=int(tree.get_depth()),
        leaves=int(tree.get_n_leaves()),
        text=text,
    )


def judge_choices(
    frame: pd.DataFrame,
    space: Space | None = None,
    *,
    stat: str = "bw_median",
    max_depth: int = 4,
    folds: int = 10,
) -> tuple[list[ChoiceScore], int, float, list[str]]:
    """Default vs learned (cross-validated PSM) vs best, over the same workloads.

    Returns the choice scores (default, best fixed in hindsight, learned, best), the
    number of workloads judged, the fraction of workloads where the learned choice was a
    best one, and notes on what was left out.
    """
    table = _Workloads(_rows(frame, stat), space, stat)
    return _judge(table, max_depth, folds)


def kunkel_report(
    frame: pd.DataFrame,
    space: Space | None = None,
    *,
    stat: str = "bw_median",
    max_depth: int = 4,
    folds: int = 10,
) -> KunkelReport:
    """Everything of Kunkel et al.'s method for a summary frame of one system."""
    data = _rows(frame, stat)
    schema = infer_schema(data, space)
    X = schema.transform(data)
    y = np.log(data[stat].to_numpy(dtype=float))
    pm = DecisionTreeRegressor(max_depth=max_depth, random_state=0).fit(X, y)
    splits = min(5, len(data))
    predicted = cross_val_predict(
        DecisionTreeRegressor(max_depth=max_depth, random_state=0),
        X,
        y,
        cv=KFold(n_splits=splits, shuffle=True, random_state=0),
    )
    pm_mape = regression_metrics(np.exp(y), np.exp(predicted)).mape
    table = _Workloads(data, space, stat)
    psm = _classifier(max_depth).fit(table.X, table.best)
    choices, judged, learned_best, notes = _judge(table, max_depth, folds)
    return KunkelReport(
        stat=stat,
        rows=len(data),
        workloads=len(table.best),
        configurations=table.bandwidth.shape[1],
        judged=judged,
        pm=tree_rules(pm, schema),
        pm_cv_mape=pm_mape,
        psm=tree_rules(psm, table.schema),
        psm_cv_best_fraction=learned_best,
        folds=min(folds, len(table.best)),
        choices=choices,
        notes=notes,
    )


class _Workloads:
    """The rows of a frame arranged per workload: features, bandwidth per configuration,
    the best configuration and the default's bandwidth."""

    def __init__(self, data: pd.DataFrame, space: Space | None, stat: str) -> None:
        keys = list(PATTERN_COLUMNS)
        ids = data.groupby(keys, sort=True, dropna=False).ngroup().to_numpy()
        data = data.assign(_workload=ids, config=data["config"].astype(str))
        self.bandwidth: pd.DataFrame = data.pivot_table(
            index="_workload", columns="config", values=stat, aggfunc="mean"
        ).sort_index(axis=1)
        first = data.drop_duplicates("_workload").set_index("_workload").sort_index()
        self.schema = infer_schema(data, space).workload_only()
        self.X = self.schema.transform(first)
        self.best: npt.NDArray[np.str_] = np.asarray(
            self.bandwidth.idxmax(axis=1, skipna=True).to_numpy(), dtype=str
        )
        is_default = default_mask(data, space)
        defaults = data.loc[is_default].groupby("_workload")[stat].mean()
        self.default = defaults.reindex(self.bandwidth.index).to_numpy(dtype=float)
        self.has_default_config = bool(is_default.any())


def _judge(
    table: _Workloads, max_depth: int, folds: int
) -> tuple[list[ChoiceScore], int, float, list[str]]:
    if folds < 2:
        raise ModelError(f"folds must be an int >= 2, got {folds!r}")
    bw = table.bandwidth.to_numpy(dtype=float)
    configs = [str(c) for c in table.bandwidth.columns]
    column = {c: i for i, c in enumerate(configs)}
    rows = np.arange(len(bw))
    best = np.nanmax(bw, axis=1)
    notes: list[str] = []
    learned = np.full(len(bw), math.nan)
    if len(bw) >= 2:
        splitter = KFold(n_splits=min(folds, len(bw)), shuffle=True, random_state=0)
        for train, test in splitter.split(table.X):
            tree = _classifier(max_depth).fit(table.X[train], table.best[train])
            chosen = tree.predict(table.X[test])
            learned[test] = bw[test, [column[str(c)] for c in chosen]]
    else:
        notes.append("one workload only: the learned choice cannot be cross-validated")
    keep = np.isfinite(learned) if len(bw) >= 2 else np.ones(len(bw), dtype=bool)
    if len(bw) >= 2 and (~keep).any():
        notes.append(
            f"{int((~keep).sum())} workload(s) left out: the learned choice was never "
            "measured there"
        )
    if table.has_default_config:
        no_default = keep & ~np.isfinite(table.default)
        if no_default.any():
            notes.append(
                f"{int(no_default.sum())} workload(s) left out: no measurement of the "
                "default configuration"
            )
        keep &= np.isfinite(table.default)
    else:
        notes.append("no row has the default configuration: the default is not judged")
    judged = rows[keep]
    if judged.size == 0:
        notes.append("no workload can be judged")
        return [], 0, math.nan, notes
    learned_best = float(np.mean(learned[judged] >= best[judged])) if len(bw) >= 2 else math.nan
    complete = ~np.isnan(bw[judged]).any(axis=0)
    choices: list[tuple[str, npt.NDArray[np.float64]]] = []
    if table.has_default_config:
        choices.append(("default configuration", table.default[judged]))
    if complete.any():
        # Only the complete columns are averaged: a configuration measured in no judged
        # workload has no mean (numpy would warn "Mean of empty slice"), and cannot be
        # the best fixed one anyway.
        means = np.full(bw.shape[1], -np.inf)
        means[complete] = np.mean(bw[judged][:, complete], axis=0)
        fixed = int(np.argmax(means))
        choices.append((f"best fixed in hindsight: {configs[fixed]}", bw[judged, fixed]))
    if len(bw) >= 2:
        choices.append((f"learned (PSM, {min(folds, len(bw))}-fold)", learned[judged]))
    choices.append(("best per workload", best[judged]))
    return (
        [_score(name, values, best[judged]) for name, values in choices],
        int(judged.size),
        learned_best,
        notes,
    )


def _score(
    name: str, values: npt.NDArray[np.float64], best: npt.NDArray[np.float64]
) -> ChoiceScore:
    arithmetic = float(np.mean(values))
    harmonic = float(len(values) / np.sum(1.0 / values))
    best_arithmetic = float(np.mean(best))
    best_harmonic = float(len(best) / np.sum(1.0 / best))
    return ChoiceScore(
        choice=name,
        arithmetic=arithmetic,
        harmonic=harmonic,
        arithmetic_of_best=arithmetic / best_arithmetic,
        harmonic_of_best=harmonic / best_harmonic,
        fraction_of_best=float(np.mean(values / best)),
        best_count=int(np.sum(values >= best)),
    )


def _rows(frame: pd.DataFrame, stat: str) -> pd.DataFrame:
    if stat not in BANDWIDTH_STATS:
        raise ModelError(f"stat must be one of {', '.join(BANDWIDTH_STATS)}, got {stat!r}")
    require_columns(frame, [*PATTERN_COLUMNS, "config", stat], "Kunkel's method")
    single_system(frame, "Kunkel's method")
    data = frame.loc[positive_rows(frame, stat)].reset_index(drop=True)
    if len(data) < 2:
        raise ModelError(f"Kunkel's method needs at least 2 rows with a positive {stat}")
    return data


def _classifier(max_depth: int) -> DecisionTreeClassifier:
    return DecisionTreeClassifier(criterion="entropy", max_depth=max_depth, random_state=0)


_SPLIT = re.compile(r"^(?P<lead>[| ]*\|--- )(?P<name>.+?) (?P<op><=|>) +(?P<threshold>\S+)$")
_VALUE = re.compile(r"^(?P<lead>[| ]*\|--- )value: \[(?P<value>\S+)\]$")
_CLASS = re.compile(r"^(?P<lead>[| ]*\|--- )class: (?P<label>.*)$")
_BYTES_WORDS = ("bytes", "block", "size", "unit", "buffer")


def _readable(line: str, by_feature: dict[str, Encoding]) -> str:
    if match := _VALUE.match(line):
        mibs = math.exp(float(match["value"]))
        return f"{match['lead']}predicted {mibs:.4g} MiB/s"
    if match := _CLASS.match(line):
        return f"{match['lead']}choose {match['label']}"
    match = _SPLIT.match(line)
    if not match or match["name"] not in by_feature:
        return line
    name, lower = match["name"], match["op"] == "<="
    encoding, threshold = by_feature[name], float(match["threshold"])
    if "=" in name and not name.startswith("log2("):
        source, _, value = name.partition("=")
        return f"{match['lead']}{source} {'!=' if lower else '=='} {value}"
    if encoding.kind == "param" and encoding.flag and threshold < encoding.sentinel + 1:
        return f"{match['lead']}{encoding.source} {'==' if lower else '!='} default"
    if name.startswith("log2("):
        # The source holds integers, so x <= 2**t is x <= floor(2**t), and likewise for >.
        shown = _amount(math.floor(2.0**threshold + 1e-9), encoding.source)
        # "default" rows carry the lowest number (the sentinel): they go the <= way.
        extra = " or default" if encoding.flag and lower else ""
        return f"{match['lead']}{encoding.source} {'<=' if lower else '>'} {shown}{extra}"
    return f"{match['lead']}{name} {'<=' if lower else '>'} {threshold:g}"


def _amount(count: int, source: str) -> str:
    """A threshold in the unit of its column: binary units for byte counts (e.g. 1.5 MiB)."""
    if not any(word in source for word in _BYTES_WORDS) or count < 1024:
        return str(count)
    value, unit = float(count), "B"
    for larger in ("KiB", "MiB", "GiB", "TiB"):
        if value < 1024:
            break
        value, unit = value / 1024, larger
    return f"{value:.4g} {unit}"
