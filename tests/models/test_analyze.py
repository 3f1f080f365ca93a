"""iotuner.models.analyze (SCTuner): normalisation, summaries, clusters, good and bad."""

import pandas as pd
import pytest
from rich.console import Console

from iotuner.models import ModelError, analyze
from iotuner.models._analyze import MAX_IMPUTED_FRACTION
from iotuner.models._render import render_analyze
from iotuner.space import Space, config_key

from .conftest import BAD, GOOD


def test_normalised_values_lie_in_zero_one(summary: pd.DataFrame, space: Space) -> None:
    report = analyze(summary, space)
    assert report.stat == "bw_median" and report.patterns == 36 and report.rows == 648
    assert len(report.configs) == 18 and report.filled == 0 and report.dropped == 0
    for s in report.configs:
        assert 0 < s.minimum <= s.q1 <= s.median <= s.q3 <= s.maximum <= 1
        assert s.patterns == 36
    assert report.configs[0].config == GOOD and report.configs[0].maximum == 1.0
    assert [s.rank for s in report.configs] == list(range(1, 19))
    means = [s.mean for s in report.configs]
    assert means == sorted(means, reverse=True)


def test_good_and_bad_clusters(summary: pd.DataFrame, space: Space) -> None:
    report = analyze(summary, space)
    assert GOOD in report.good and BAD in report.bad
    assert report.clusters[0].configs == report.good
    assert report.clusters[-1].configs == report.bad
    assert [c.cluster for c in report.clusters] == list(range(1, len(report.clusters) + 1))
    assert [c.mean for c in report.clusters] == sorted(
        (c.mean for c in report.clusters), reverse=True
    )
    assert sum(len(c.configs) for c in report.clusters) == 18
    assert "silhouette" in report.cluster_rule


def test_the_default_configuration_is_placed(summary: pd.DataFrame, space: Space) -> None:
    report = analyze(summary, space)
    assert report.default is not None
    assert report.default.config == config_key(space.default()) and report.default.is_default
    # Better than it: GOOD's combination and every config with a x1.2 or x1.3 or x1.5 alone.
    assert 1 < report.default.rank < 18
    assert analyze(summary).default == report.default  # "default" cells suffice


def test_missing_cells_are_filled_and_counted(frame: pd.DataFrame, space: Space) -> None:
    frame = frame.drop(index=frame.index[frame["config"] == GOOD][:3])
    frame.loc[frame.index[:2], "bw_median"] = 0.0
    report = analyze(frame, space)
    assert report.filled == 3 + 2 and report.dropped == 2  # dropped rows leave cells too
    good = next(s for s in report.configs if s.config == GOOD)
    assert good.patterns == 33


def test_clusters_as_asked(summary: pd.DataFrame) -> None:
    report = analyze(summary, n_clusters=2)
    assert len(report.clusters) == 2 and report.cluster_rule == "2 clusters, as asked"
    assert GOOD in report.good and BAD in report.bad
    with pytest.raises(ModelError, match="n_clusters"):
        analyze(summary, n_clusters=19)


def test_few_configurations(summary: pd.DataFrame) -> None:
    two = summary[summary["config"].isin([GOOD, BAD])]
    report = analyze(two)
    assert report.good == [GOOD] and report.bad == [BAD]
    # One configuration alone is the best of every pattern: nothing is compared.
    with pytest.raises(ModelError, match="no pattern has more than one"):
        analyze(summary[summary["config"] == GOOD])


def test_a_pattern_measured_with_one_configuration_is_left_out(summary: pd.DataFrame) -> None:
    """A traced run of a workload no sweep measured: its one configuration would be the
    best there (1.0) and climb the ranking on nothing."""
    alone = summary[summary["config"] == BAD].head(1).assign(bytes_per_rank=123_456_789)
    report = analyze(pd.concat([summary, alone], ignore_index=True))
    assert report.lone == 1
    assert report.configs == analyze(summary).configs


def test_another_statistic_and_errors(summary: pd.DataFrame) -> None:
    assert analyze(summary, stat="bw_min").stat == "bw_min"
    with pytest.raises(ModelError, match="bandwidth"):
        analyze(summary, stat="bandwidth")
    with pytest.raises(ModelError, match="positive"):
        analyze(summary.assign(bw_median=0.0))


def test_mostly_imputed_cells_name_nothing_consistently_good(frame: pd.DataFrame) -> None:
    """Each configuration measured in only 4 of the 36 patterns (each pattern by two
    configurations, so each compares something): 32 of every 36 cells (89 %) would be its
    own mean, so the clusters would say nothing about consistency."""
    patterns = frame.groupby(["nprocs", "pattern", "bytes_per_rank"], sort=True).ngroup()
    configs = {c: i for i, c in enumerate(sorted(frame["config"].unique()))}
    position = frame["config"].map(configs)
    sparse = frame[(patterns - 2 * position) % 36 < 4]
    report = analyze(sparse)
    assert report.imputed_fraction == pytest.approx(32 / 36)
    assert report.lone == 0
    assert report.good == [] and report.bad == []
    assert "89%" in report.withheld and f"{MAX_IMPUTED_FRACTION:.0%}" in report.withheld
    console = Console(record=True, width=200)
    render_analyze(report, console)
    text = console.export_text()
    assert "consistently good:" not in text
    assert "89% of the cells are imputed" in text
    full = analyze(frame)
    assert full.imputed_fraction == 0 and full.withheld == "" and GOOD in full.good
