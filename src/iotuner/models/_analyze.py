"""`iotuner analyze`: SCTuner's statistical benchmarking analysis (Tang, Xie et al., PDSW
2021) of a summary frame.

0. Compare like with like: a pattern where a single configuration was measured (a traced
   run of a workload no sweep measured, say) says nothing about how configurations
   compare, and normalised to itself it would score 1, the best; such patterns are left
   out (`lone`, their count).
1. Normalise: each row's bandwidth is divided by the best bandwidth of its pattern, so
   every value lies in (0, 1] and 1 marks the best configuration of that pattern. A pattern
   is SCTuner's term for what this project calls a workload: the system and every workload
   column (scale, pattern, op, layout, block, fill, size).
2. Summarise: the five-number summary (minimum, lower quartile, median, upper quartile,
   maximum) of each configuration's normalised values across patterns, plus their mean.
3. Cluster: each configuration is the vector of its normalised values over all patterns;
   a pattern where it was not measured takes the configuration's own mean over the
   patterns where it was (so a missing cell neither helps nor hurts it). The vectors are
   clustered hierarchically with Ward linkage on Euclidean distance (scipy). The number
   of clusters, unless given, is the one from 2 to min(8, configurations - 1) with the
   highest silhouette score; with fewer than 3 configurations each is its own cluster.
4. Name: clusters are numbered by their members' mean normalised value, 1 the highest.
   Cluster 1 is "consistently good", the last "consistently bad"; the default
   configuration's rank (by mean) and cluster are reported apart. When more than
   MAX_IMPUTED_FRACTION of the cells were filled in step 3, nothing is called consistently
   good or bad, and the report says why with the fraction: each vector is then mostly its
   configuration's own mean, so the clusters group configurations by where they happened
   to be measured, not by how they did across patterns. The summaries and clusters are
   still given.

The frame is a summary frame and the value used is bw_median unless told otherwise
(`stat`). A measurement frame (one row per repeat) works too with stat="bandwidth"; each
repeat is then normalised to the best repeat of its pattern.
"""

import math
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt
import pandas as pd
from scipy.cluster.hierarchy import fcluster, linkage
from sklearn.metrics import silhouette_score

from iotuner.models._common import (
    PATTERN_COLUMNS,
    ModelError,
    default_mask,
    positive_rows,
    require_columns,
)
from iotuner.space import Space

__all__ = ["AnalyzeReport", "ClusterSummary", "ConfigSummary", "analyze"]

MAX_CLUSTERS = 8
"""The largest number of clusters the silhouette rule considers."""

MAX_IMPUTED_FRACTION = 0.5
"""The largest fraction of the configuration-by-pattern cells that may be imputed (filled
with the configuration's own mean) for the analysis to name consistently good and bad
configurations. RATIONALE: "consistently" is a claim about the patterns a configuration
was measured in against the others'; past half, most of each vector is the configuration's
own mean, so a configuration measured in a few easy patterns looks good everywhere."""


@dataclass(frozen=True)
class ConfigSummary:
    """One configuration: its normalised values across patterns, summed up.

    `patterns` counts the patterns it was measured in; `rank` orders configurations by
    `mean`, 1 the highest; `cluster` is its cluster number (1 the best cluster).
    """

    config: str
    patterns: int
    minimum: float
    q1: float
    median: float
    q3: float
    maximum: float
    mean: float
    rank: int
    cluster: int
    is_default: bool


@dataclass(frozen=True)
class ClusterSummary:
    """One cluster: its members (best mean first) and their normalised values together."""

    cluster: int
    configs: list[str]
    mean: float
    minimum: float
    median: float
    maximum: float


@dataclass(frozen=True)
class AnalyzeReport:
    """SCTuner's analysis: per-configuration summaries (by rank), clusters (best first),
    the consistently good and bad configurations, and where the default stands."""

    stat: str
    rows: int
    dropped: int
    patterns: int
    filled: int
    cluster_rule: str
    configs: list[ConfigSummary]
    clusters: list[ClusterSummary]
    good: list[str]
    bad: list[str]
    default: ConfigSummary | None
    imputed_fraction: float = 0.0
    """The fraction of the configuration-by-pattern cells that were filled (`filled` of
    configurations x patterns)."""
    withheld: str = ""
    """Why `good` and `bad` are empty although there are clusters (too many imputed
    cells: MAX_IMPUTED_FRACTION), in whole sentences that follow "nothing is called
    consistently good or bad:" (the terminal and the report say that part); "" when they
    are given."""
    lone: int = 0
    """Patterns left out because a single configuration was measured in them (step 0)."""


def analyze(
    frame: pd.DataFrame,
    space: Space | None = None,
    *,
    stat: str = "bw_median",
    n_clusters: int | None = None,
) -> AnalyzeReport:
    """The SCTuner analysis of `frame` (see the module text).

    `space` only helps to recognise the default configuration (cfg cells equal to declared
    defaults); without it a row is the default when all its cfg cells are "default".
    """
    data, dropped, lone = _normalised_rows(frame, stat)
    default_configs = set(data.loc[default_mask(data, space), "config"])
    matrix = data.pivot_table(index="config", columns="_pattern", values="_norm", aggfunc="mean")
    means = matrix.mean(axis=1, skipna=True)
    filled = int(matrix.isna().to_numpy().sum())
    vectors = matrix.apply(lambda row: row.fillna(row.mean()), axis=1).to_numpy(dtype=float)
    labels, rule = _clusters(vectors, n_clusters)
    summaries = _config_summaries(data, matrix, means, labels, default_configs)
    clusters = _cluster_summaries(data, summaries)
    defaults = [s for s in summaries if s.is_default]
    imputed = filled / matrix.size if matrix.size else 0.0
    good = clusters[0].configs
    bad = clusters[-1].configs if len(clusters) > 1 else []
    withheld = ""
    if imputed > MAX_IMPUTED_FRACTION:
        good, bad = [], []
        withheld = (
            f"{imputed:.0%} of the cells are imputed ({filled} of {matrix.size}: "
            f"{len(matrix.index)} configurations x {matrix.shape[1]} patterns), more than the "
            f"{MAX_IMPUTED_FRACTION:.0%} the analysis allows; each configuration's vector is "
            "then mostly its own mean. Measure the configurations on the same patterns "
            "(iotuner bench), or analyze a part of the knowledge base in which they were "
            "measured on the same patterns (--kind bench, --space or --system)."
        )
    return AnalyzeReport(
        stat=stat,
        rows=len(data),
        dropped=dropped,
        patterns=int(matrix.shape[1]),
        filled=filled,
        cluster_rule=rule,
        configs=summaries,
        clusters=clusters,
        good=good,
        bad=bad,
        default=defaults[0] if defaults else None,
        imputed_fraction=imputed,
        withheld=withheld,
        lone=lone,
    )


def _normalised_rows(frame: pd.DataFrame, stat: str) -> tuple[pd.DataFrame, int, int]:
    """Steps 0 and 1: the rows of patterns with more than one configuration, with their
    pattern number (_pattern) and `stat` over the pattern's best (_norm); how many rows had
    no positive `stat`, and how many patterns had a single configuration."""
    require_columns(frame, [*PATTERN_COLUMNS, "config", stat], "the analysis")
    good_rows = positive_rows(frame, stat)
    data = frame.loc[good_rows].reset_index(drop=True)
    if data.empty:
        raise ModelError(f"the analysis needs rows with a positive {stat}; there are none")
    patterns = data.groupby(list(PATTERN_COLUMNS), sort=True, dropna=False).ngroup()
    compared = data.groupby(patterns)["config"].transform("nunique").to_numpy() > 1
    lone = int(patterns[~compared].nunique())
    if not compared.any():
        raise ModelError(
            "the analysis compares configurations measured on the same pattern; no pattern "
            f"has more than one ({lone} patterns, one configuration each)"
        )
    data = data.loc[compared].reset_index(drop=True)
    ids = data.groupby(list(PATTERN_COLUMNS), sort=True, dropna=False).ngroup().to_numpy()
    values = data[stat].to_numpy(dtype=float)
    best = pd.Series(values).groupby(ids).transform("max").to_numpy(dtype=float)
    data = data.assign(_pattern=ids, _norm=values / best, config=data["config"].astype(str))
    return data, int((~good_rows).sum()), lone


def _config_summaries(
    data: pd.DataFrame,
    matrix: pd.DataFrame,
    means: pd.Series,
    labels: Sequence[int],
    default_configs: set[str],
) -> list[ConfigSummary]:
    """Steps 2 and 4: each configuration's summary by rank, with its cluster numbered by
    the clusters' mean normalised value (1 the highest)."""
    configs = [str(c) for c in matrix.index]
    order = sorted(range(len(configs)), key=lambda i: (-means.iloc[i], configs[i]))
    cluster_means = {
        label: float(np.mean([means.iloc[i] for i in range(len(configs)) if labels[i] == label]))
        for label in set(labels)
    }
    numbering = {
        label: n + 1
        for n, label in enumerate(sorted(cluster_means, key=lambda lb: -cluster_means[lb]))
    }
    norm_by_config = data.groupby("config")["_norm"]
    summaries = []
    for rank, i in enumerate(order, start=1):
        norms = norm_by_config.get_group(configs[i]).to_numpy(dtype=float)
        q = np.percentile(norms, [0, 25, 50, 75, 100])
        summaries.append(
            ConfigSummary(
                config=configs[i],
                patterns=int(matrix.iloc[i].notna().sum()),
                minimum=float(q[0]),
                q1=float(q[1]),
                median=float(q[2]),
                q3=float(q[3]),
                maximum=float(q[4]),
                mean=float(means.iloc[i]),
                rank=rank,
                cluster=numbering[labels[i]],
                is_default=configs[i] in default_configs,
            )
        )
    return summaries


def _cluster_summaries(
    data: pd.DataFrame, summaries: Sequence[ConfigSummary]
) -> list[ClusterSummary]:
    """Each cluster, best first: its members and their normalised values pooled."""
    clusters = []
    for number in sorted({s.cluster for s in summaries}):
        members = [s for s in summaries if s.cluster == number]
        pooled = data.loc[data["config"].isin([s.config for s in members]), "_norm"]
        clusters.append(
            ClusterSummary(
                cluster=number,
                configs=[s.config for s in members],
                mean=float(np.mean([s.mean for s in members])),
                minimum=float(pooled.min()),
                median=float(pooled.median()),
                maximum=float(pooled.max()),
            )
        )
    return clusters


def _clusters(vectors: npt.NDArray[np.float64], n_clusters: int | None) -> tuple[list[int], str]:
    """Cluster labels per configuration (Ward, Euclidean) and the rule that set their number."""
    count = len(vectors)
    if n_clusters is not None and not 1 <= n_clusters <= count:
        raise ModelError(f"n_clusters must be between 1 and {count}, got {n_clusters!r}")
    if count < 3 and n_clusters is None:
        return list(range(count)), "fewer than 3 configurations: each is its own cluster"
    tree = linkage(vectors, method="ward", metric="euclidean")
    if n_clusters is not None:
        labels = fcluster(tree, t=n_clusters, criterion="maxclust")
        return [int(v) for v in labels], f"{n_clusters} clusters, as asked"
    best_k, best_score, best_labels = 1, -math.inf, np.ones(count, dtype=int)
    for k in range(2, min(MAX_CLUSTERS, count - 1) + 1):
        labels = fcluster(tree, t=k, criterion="maxclust")
        found = len(set(labels.tolist()))
        if found < 2 or found >= count:
            continue
        score = float(silhouette_score(vectors, labels, metric="euclidean"))
        if score > best_score + 1e-12:
            best_k, best_score, best_labels = found, score, labels
    if best_k == 1:
        return [1] * count, "the configurations cannot be told apart: one cluster"
    return (
        [int(v) for v in best_labels],
        f"{best_k} clusters: the highest silhouette score ({best_score:.2f}) for 2 to "
        f"{min(MAX_CLUSTERS, count - 1)} clusters",
    )
