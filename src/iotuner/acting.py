"""Which configurations of a space act differently on a workload.

Where each key can act (accesses, phase, scale) is data, in formats/hints.def and
formats/hint_scale.def, read by iotuner.formats.acting_hints. Two configurations whose
acting hints are the same, or set the same number of aggregators, behave alike on the
workload: the sweep measures one of them, tune and predict rank one of them (the one
with the fewest parameters changed), and the model sees the same features for both.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING

from iotuner.formats import acting_hints, hint_quantities, hint_scale

if TYPE_CHECKING:  # types only: `show` reads this module and must not load numpy
    from iotuner.measurement import Workload
    from iotuner.space import Configuration, Space
    from iotuner.tracelog import TraceLog

__all__ = [
    "OP_ACCESSES",
    "Access",
    "accesses_from_logs",
    "acting_config",
    "behaviour",
    "describe_accesses",
    "distinct_configurations",
]

Access = tuple[str, str]
"""(pattern, kind) of trace `op` rows: ("collective" | "independent", "write" | "read")."""

OP_ACCESSES = {
    "COLL_WRITE": ("collective", "write"),
    "COLL_READ": ("collective", "read"),
    "INDEP_WRITE": ("independent", "write"),
    "INDEP_READ": ("independent", "read"),
}
"""hints.def's ops, as the accesses of trace `op` rows."""


def accesses_from_logs(logs: Sequence[TraceLog]) -> frozenset[Access]:
    """The (pattern, kind) of every data access the trace logs record."""
    return frozenset((str(op["pattern"]), str(op["kind"])) for log in logs for op in log.ops)


def describe_accesses(accesses: Iterable[Access]) -> str:
    """'collective writes and independent reads', in a fixed order; 'no data access'."""
    order = list(OP_ACCESSES.values())
    found = sorted(set(accesses), key=lambda a: order.index(a) if a in order else len(order))
    if not found:
        return "no data access"
    words = [f"{pattern} {kind}s" for pattern, kind in found]
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " and " + words[-1]


def _acting(space: Space, config: Configuration, workload: Workload) -> dict[str, str]:
    return acting_hints(
        space.hints(config),
        pattern=workload.pattern,
        op=workload.op,
        nprocs=int(workload.nprocs),
        nodes=int(workload.nodes or 1),
    )


def acting_config(space: Space, config: Configuration, workload: Workload) -> Configuration:
    """`config` with every hint parameter that cannot act on `workload` at its default."""
    acting = _acting(space, config, workload)
    return {
        p.name: config.get(p.name, p.default) if p.kind != "hint" or p.name in acting else p.default
        for p in space.parameters
    }


def behaviour(space: Space, config: Configuration, workload: Workload) -> tuple[object, ...]:
    """What `config` does to `workload`: its acting hints, with the keys of a
    hint_scale.def quantity replaced by the quantity (cb_nodes=2 and cb_nodes=4 both give 2
    aggregators on 2 ranks), and its application parameters."""
    acting = _acting(space, config, workload)
    scaled = {row.key for row in hint_scale()}
    quantities = (
        hint_quantities(acting, nprocs=int(workload.nprocs), nodes=int(workload.nodes or 1))
        if scaled & set(acting)
        else {}
    )
    return (
        tuple(sorted((k, v) for k, v in acting.items() if k not in scaled)),
        tuple(sorted(quantities.items())),
        tuple(sorted(space.app_values(config).items())),
    )


def distinct_configurations(
    space: Space, configs: Iterable[Configuration], workload: Workload
) -> list[Configuration]:
    """One configuration per behaviour on `workload`, in the order the behaviours first
    come: of those that behave alike, the one with the fewest parameters changed (the
    earlier on a tie), with the parameters that cannot act at their defaults."""
    default = space.default()
    chosen: dict[tuple[object, ...], Configuration] = {}
    for config in configs:
        key = behaviour(space, config, workload)
        candidate = acting_config(space, config, workload)
        held = chosen.get(key)
        if held is None or _changed(candidate, default) < _changed(held, default):
            chosen[key] = candidate
    return list(chosen.values())


def _changed(config: Configuration, default: Configuration) -> int:
    return sum(config[name] != value for name, value in default.items())
