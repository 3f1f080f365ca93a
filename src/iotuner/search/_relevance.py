"""Which parameters a program's data accesses can reach; the others stay at their defaults.

A trial spent on a knob that cannot act on anything the program does measures only noise:
a write-only program gains nothing from `romio_ds_read` or `ind_rd_buffer_size`. Which
accesses each MPI info key acts on is defined once, in the `ops` column of
formats/hints.def (COLL_WRITE, COLL_READ, INDEP_WRITE, INDEP_READ: collective or
independent calls, writes or reads). The program's accesses come from its trace: the
`pattern` (collective or independent) and `kind` (read or write) of every `op` row.

A hint parameter none of whose accesses the trace shows is fixed at its default (the
search neither proposes nor passes it).
"""

from dataclasses import dataclass, field

from iotuner.acting import OP_ACCESSES as _OP_NAMES
from iotuner.acting import Access, accesses_from_logs, describe_accesses
from iotuner.formats import acting_hints, hint_scale, hint_vocabulary
from iotuner.space import Space

__all__ = ["Access", "Relevance", "accesses_from_logs", "describe_accesses", "relevance"]


@dataclass(frozen=True)
class Relevance:
    """What the search varies: `searched` is the space without the `fixed` parameters
    (name -> why it is fixed); `note` says what was decided and from what."""

    searched: Space
    fixed: dict[str, str] = field(default_factory=dict)
    note: str = ""


def relevance(
    space: Space,
    accesses: frozenset[Access] | None,
    *,
    enabled: bool = True,
    source: str = "",
    scale: tuple[int, int] | None = None,
) -> Relevance:
    """The parameters of `space` the `accesses` (None: unknown) can reach (module doc).

    `source` names where the accesses come from, for the note; `scale` (ranks, hosts) the
    program's, when known: a parameter every value of which acts as the default there
    (formats/hint_scale.def: cb_nodes on one host with one aggregator per host) is fixed.

    Nothing is fixed when that could hide a gain:

    * the trace shows no data access at all (nothing to go by);
    * the space has application parameters: they may change what the program does (a flag
      that turns collective I/O on, a read-back phase), and the trace is of the default ones;
    * the user asked for every parameter (`--all-parameters`).

    Deciding on collective-only keys for a program that only makes independent calls is safe
    for the same reason as reads and writes: collective buffering (`romio_cb_*`, `cb_*`, the
    aggregator keys) only runs inside collective calls, and the hints cannot change which
    calls the program makes.
    """
    if not enabled:
        return Relevance(space, note="every parameter is searched (--all-parameters)")
    if accesses is None:
        why = f" ({source})" if source else ""
        return Relevance(
            space, note=f"the program's accesses are unknown{why}: every parameter is searched"
        )
    done = f"the program does {describe_accesses(accesses)}" + (f" ({source})" if source else "")
    if not accesses:
        return Relevance(space, note=f"{done}: every parameter is searched")
    if any(p.kind == "app" for p in space.parameters):
        return Relevance(
            space,
            note=f"{done}; every parameter is searched: the application parameters may "
            "change what it does",
        )
    vocabulary = hint_vocabulary()
    fixed: dict[str, str] = {}
    for p in space.parameters:
        hint = vocabulary.get(p.name)
        if p.kind != "hint" or hint is None or p.count < 2:
            continue
        if not any(hint.acts_on(pattern, kind) for pattern, kind in accesses):
            acts = describe_accesses(_OP_NAMES[op] for op in hint.ops)
            fixed[p.name] = f"acts only on {acts}"
    if scale is not None:
        fixed.update(_default_at_scale(space, accesses, scale, set(fixed)))
    if not fixed:
        return Relevance(space, note=f"{done}: every parameter can act on it")
    searched = Space(
        space.name,
        space.description,
        tuple(p for p in space.parameters if p.name not in fixed),
        space.source,
    )
    note = (
        f"{done}: {len(fixed)} parameter(s) fixed at their defaults, "
        f"{searched.size} of {space.size} configurations left to search"
    )
    return Relevance(searched, fixed, note)


_MOST_VALUES_CHECKED = 256
"""A parameter with more values than this is never fixed by scale (checking is per value)."""


def _default_at_scale(
    space: Space, accesses: frozenset[Access], scale: tuple[int, int], fixed: set[str]
) -> dict[str, str]:
    """The one searched parameter of a hint_scale.def quantity (with its `with` keys)
    whose every value acts as the default on the program's accesses at `scale`; none when
    two such parameters are searched (together they may act)."""
    nprocs, nodes = scale
    scaled = {row.key for row in hint_scale()}
    candidates = [
        p
        for p in space.parameters
        if p.kind == "hint" and p.name not in fixed and p.count > 1 and p.name in scaled
    ]
    if len(candidates) != 1 or candidates[0].count > _MOST_VALUES_CHECKED:
        return {}
    (p,) = candidates
    for value in p.points():
        if value == p.default:
            continue
        hints = {p.name: str(value), **p.with_keys}
        for pattern, op in accesses:
            found = acting_hints(hints, pattern=pattern, op=op, nprocs=nprocs, nodes=nodes)
            if p.name in found:
                return {}
    return {
        p.name: f"every value acts as the default on {nprocs} rank(s) of {nodes} host(s) "
        "(formats/hint_scale.def)"
    }
