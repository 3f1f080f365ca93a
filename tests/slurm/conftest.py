"""The tests' Slurm (cluster.py): skipped with the reason when Slurm is not installed,
unless IOTUNER_REQUIRE_SLURM=1 (CI), which makes that a failure."""

import os

import pytest

from tests.slurm.cluster import Cluster, missing, shared


def use_cluster(monkeypatch: pytest.MonkeyPatch) -> Cluster:
    """The shared cluster, with this process's environment pointed at it and outside any
    allocation (skip or fail when there can be none)."""
    why = missing()
    if why is not None:
        if os.environ.get("IOTUNER_REQUIRE_SLURM") == "1":
            pytest.fail(f"IOTUNER_REQUIRE_SLURM=1 but {why}")
        pytest.skip(why)
    cluster = shared()
    for name in [k for k in os.environ if k.startswith("SLURM_")]:
        monkeypatch.delenv(name)
    monkeypatch.setenv("SLURM_CONF", str(cluster.conf))
    return cluster


@pytest.fixture
def slurm(monkeypatch: pytest.MonkeyPatch) -> Cluster:
    return use_cluster(monkeypatch)
