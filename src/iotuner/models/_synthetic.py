"""A synthetic summary frame with known structure, for tests, benchmarks and demos.

Bandwidth (MiB/s) of a workload and configuration, before noise:

    peak * nprocs**0.7 * size / (size + 64 KiB) * pattern * layout * prod(effects)

with peak 400 MiB/s, pattern factor 1 (collective) or 0.7 (independent), layout factor 1
(contiguous) or 0.6 * fill (strided). `effects[p][v]` multiplies the bandwidth when
parameter p has value v (missing: 1). Without `effects`, every non-default value gets a
factor exp(N(0, 0.35)) drawn from `seed`. `size_flip` names a parameter whose factors are
inverted for sizes of 1 MiB and more, so the best configuration depends on the size.
A key that cannot act on a workload (iotuner.acting: a read key on a write, a
collective-buffering key on independent access) has no effect there, as in MPI-IO, unless
`keys_act_everywhere` (the frames of tests written before that rule: every effect applies
to every workload, which the models' features now hide where a key cannot act).
Each row summarises `repeats` runs with log-normal noise of `noise`.
"""

import zlib
from collections.abc import Mapping, Sequence

import numpy as np
import numpy.typing as npt
import pandas as pd

from iotuner.acting import acting_config
from iotuner.formats import size_group
from iotuner.measurement import CONFIG_PREFIX, SUMMARY_COLUMNS, Workload
from iotuner.models._common import NOT_SET, Value
from iotuner.space import Space, config_key, load_space

__all__ = ["synthetic_summary_frame"]

_MIB = 1024 * 1024


def synthetic_summary_frame(
    space: Space | None = None,
    *,
    sizes: Sequence[int] = (4096, 65536, 262144, 1048576, 4194304, 16777216),
    nprocs: Sequence[int] = (1, 2, 4),
    patterns: Sequence[str] = ("collective", "independent"),
    layouts: Sequence[str] = ("contiguous",),
    op: str = "write",
    repeats: int = 5,
    noise: float = 0.1,
    effects: Mapping[str, Mapping[Value, float]] | None = None,
    size_flip: str | None = None,
    seed: int = 0,
    system: str = "synthetic",
    keys_act_everywhere: bool = False,
) -> pd.DataFrame:
    """A summary frame (SUMMARY_COLUMNS then cfg:<parameter>) over every workload of the
    given sizes, scales, patterns and layouts and every configuration of `space`
    (default: the shipped demo-small). Parameters at their default read "default"."""
    space = space if space is not None else load_space("demo-small")
    factors = dict(effects) if effects is not None else _random_effects(space, seed)
    rng = np.random.default_rng(seed)
    configs = list(space.configurations())
    rows = []
    for procs in nprocs:
        for pattern in patterns:
            for layout in layouts:
                strided = layout == "strided"
                for size in sizes:
                    workload = Workload(
                        nprocs=procs,
                        nodes=1,
                        pattern=pattern,
                        op=op,
                        layout=layout,
                        bytes_per_rank=size,
                        block=4096 if strided else 0,
                        fill=0.5 if strided else 1.0,
                    )
                    base = (
                        400.0
                        * procs**0.7
                        * size
                        / (size + 65536)
                        * (1.0 if pattern == "collective" else 0.7)
                        * (0.6 * workload.fill if strided else 1.0)
                    )
                    for config in configs:
                        effect = 1.0
                        acting = (
                            config
                            if keys_act_everywhere
                            else acting_config(space, config, workload)
                        )
                        for p in space.parameters:
                            value = acting[p.name]
                            factor = float(factors.get(p.name, {}).get(value, 1.0))
                            flip = p.name == size_flip and size >= _MIB
                            effect *= 1.0 / factor if flip else factor
                        runs = base * effect * np.exp(rng.normal(0.0, noise, repeats))
                        rows.append(_row(system, workload, space, config, runs))
    frame = pd.DataFrame(rows)
    cfg = [CONFIG_PREFIX + p.name for p in space.parameters]
    return frame[[*SUMMARY_COLUMNS, *cfg]]


def _random_effects(space: Space, seed: int) -> dict[str, dict[Value, float]]:
    effects: dict[str, dict[Value, float]] = {}
    for p in space.parameters:
        effects[p.name] = {}
        for value in p.values:
            if value == p.default:
                continue
            stream = np.random.default_rng([seed, zlib.crc32(f"{p.name}={value}".encode())])
            effects[p.name][value] = float(np.exp(stream.normal(0.0, 0.35)))
    return effects


def _row(
    system: str,
    workload: Workload,
    space: Space,
    config: Mapping[str, Value],
    runs: npt.NDArray[np.float64],
) -> dict[str, object]:
    q = np.percentile(runs, [0, 25, 50, 75, 100])
    row: dict[str, object] = {"system": system, **workload.as_row()}
    row["group"] = size_group(workload.bytes_per_rank)
    row["config"] = config_key(config)
    row.update(
        n=len(runs),
        bw_min=float(q[0]),
        bw_q1=float(q[1]),
        bw_median=float(q[2]),
        bw_q3=float(q[3]),
        bw_max=float(q[4]),
    )
    for p in space.parameters:
        value = config[p.name]
        row[CONFIG_PREFIX + p.name] = NOT_SET if value == p.default else value
    return row
