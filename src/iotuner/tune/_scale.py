"""The entries of one scale: one assignment of the open-time keys (the one with the most
evidenced gain, never one that acts as the default here), the access choice of every
collective case within it (sizes between measured groups, and beyond the trained range),
and one view entry for independent strided access.
"""

import math

from iotuner.formats import hint_quantities, hint_scale
from iotuner.measurement import Workload
from iotuner.space import Configuration, Space, config_key
from iotuner.table import TableEntry
from iotuner.tune._cases import (
    OPEN_ONLY_KEYS,
    Case,
    OpenKeys,
    open_keys,
)
from iotuner.tune._evidence import (
    access_default,
    decide_case,
    has_evidence,
    not_slower,
    within_open_keys,
)
from iotuner.tune._result import (
    Choice,
    choice_note,
)

__all__ = [
    "same_as_default",
    "tune_scale",
]


def same_as_default(keys: OpenKeys, default_keys: OpenKeys, workload: Workload) -> bool:
    """The open keys act as the default's at the workload's scale: the quantities of
    formats/hint_scale.def (the number of aggregators cb_nodes and cb_config_list give)
    are the default's, and every other key is as the default gives it."""
    scale = {"nprocs": int(workload.nprocs), "nodes": int(workload.nodes or 1)}
    mine, default = (
        hint_quantities(dict(keys), **scale),
        hint_quantities(dict(default_keys), **scale),
    )
    if None in mine.values() or mine != default:
        return False  # a value the rule cannot read (a host list) is never the default

    scaled = {row.key for row in hint_scale()}
    return [kv for kv in keys if kv[0] not in scaled] == [
        kv for kv in default_keys if kv[0] not in scaled
    ]


def tune_scale(
    cases: list[Case], space: Space, noise: float, trained: list[int]
) -> tuple[list[TableEntry], list[Choice]]:
    """The entries and choices of one scale's cases: its open-only keys, an entry per
    collective case, the view entry of its independent strided cases, and what its
    independent contiguous cases get (the open entry alone)."""
    inside = [c for c in cases if c.distance == 0]
    nprocs = inside[0].first.nprocs if inside else cases[0].first.nprocs
    keys, entries = _open_entries(cases, inside, space, noise, nprocs)
    choices = _collective_choices(cases, space, keys, noise, trained, entries)
    view = _view_choice(
        [c for c in inside if c.first.pattern == "independent" and c.first.layout == "strided"],
        space,
        keys,
        noise,
    )
    if view is not None:
        view_choices, hints, note = view
        choices += view_choices
        # Also when it keeps the defaults: the entry says why, so that every traced case
        # has an entry (a table without one read as "not covered", issue 41).
        entries.append(
            TableEntry(at="view", nprocs=nprocs, layout="strided", hints=hints, note=note)
        )
    for case in inside:
        if case.first.pattern == "independent" and case.first.layout == "contiguous":
            fallback = access_default(case, space, keys)
            index = fallback if fallback is not None else 0
            choices.append(
                _choice(
                    case,
                    space,
                    index,
                    "independent contiguous access: only the open entry's keys act on it",
                )
            )
    return entries, choices


def _open_entries(
    cases: list[Case], inside: list[Case], space: Space, noise: float, nprocs: int
) -> tuple[OpenKeys, list[TableEntry]]:
    """The open-only keys with the most summed gain over the scale's measured cases, and
    the open entry that sets them (or says why the defaults stay)."""
    default_keys = open_keys(space, space.default())
    first = (inside or cases)[0].first
    # An assignment that gives this scale the default's aggregators and nothing else is
    # the default here: neither written nor credited (a gain the model gives it is noise).
    candidates = sorted(
        {
            k
            for c in inside
            for k in c.open_keys
            if k == default_keys or not same_as_default(k, default_keys, first)
        }
    )

    baseline = {id(case): decide_case(case, space, default_keys, noise) for case in inside}

    def score(keys: OpenKeys) -> float | None:
        """Summed log gain over what the default open keys would run, credited only where
        it is beyond the noise; a predicted loss always counts. None: unsafe somewhere."""
        total = 0.0
        for case in inside:
            decided, base = decide_case(case, space, keys, noise), baseline[id(case)]
            if decided is None or base is None:
                return None
            ratio = math.log(max(case.median[decided[0]], 1e-9) / max(case.median[base[0]], 1e-9))
            evidenced = has_evidence(case, decided[0], noise, versus=base[0])
            total += ratio if evidenced else min(ratio, 0.0)
        return total

    scores = {keys: score(keys) for keys in candidates}
    keys = default_keys
    for candidate, value in scores.items():
        if value is not None and value > (scores.get(keys) or 0.0) + 1e-12:
            keys = candidate
    if keys != default_keys and keys:
        return keys, [
            TableEntry(
                at="open",
                nprocs=nprocs,
                hints=dict(keys),
                note=f"open-only hints with the most predicted gain at this scale "
                f"(summed log gain {scores[keys]:+.2f} over {len(inside)} cases)",
            )
        ]
    if inside and len(candidates) > 1:
        # Also when they stay: the entry says why, so that every traced case has an
        # entry (independent contiguous access gets only the open entry, issue 41).
        return keys, [TableEntry(at="open", nprocs=nprocs, hints={},
                                 note=_open_defaults_note(scores, keys, len(inside)))]  # fmt: skip
    return keys, []


def _collective_choices(
    cases: list[Case],
    space: Space,
    keys: OpenKeys,
    noise: float,
    trained: list[int],
    entries: list[TableEntry],
) -> list[Choice]:
    """Each collective case's choice under the open keys, its entry added to `entries`:
    decided on its own measurements, or taken from the nearest measured scale."""
    choices: list[Choice] = []
    for case in cases:
        if case.first.pattern == "independent":
            continue
        decided = (
            decide_case(case, space, keys, noise)
            if case.distance == 0
            else _extrapolate(case, cases, space, keys, noise, trained)
        )
        kept = decided is None or _rest(space, case.configs[decided[0]]) == _rest(
            space, case.configs[0]
        )
        if case.distance == 0 and kept and not _measured_alternatives(case):
            decided = _between_measured(case, cases, space, keys, noise) or decided
        if decided is None:
            continue
        choice = _choice(case, space, *decided)
        choices.append(choice)
        entries.append(
            TableEntry(
                nprocs=choice.nprocs,
                group=choice.group,
                pattern=choice.pattern,
                op=choice.op,
                layout=choice.layout,
                hints=_rest(space, case.configs[decided[0]]),
                note=choice_note(choice),
            )
        )
    return choices


def _open_defaults_note(scores: dict[OpenKeys, float | None], kept: OpenKeys, cases: int) -> str:
    """Why the open-only keys stay at their defaults at a scale: of the other
    assignments, how many would slow some case beyond the noise, how many gain nothing."""
    others = [v for k, v in scores.items() if k != kept]
    unsafe = sum(v is None for v in others)
    return (
        f"open-only hints: the defaults stay at this scale; of {len(others)} other "
        f"assignments, {unsafe} would slow a case beyond the noise and "
        f"{len(others) - unsafe} gain nothing beyond it over the {cases} cases"
    )


def _rest(space: Space, config: Configuration) -> dict[str, str | int]:
    return {k: v for k, v in space.hints(config).items() if k not in OPEN_ONLY_KEYS}


def _measured_alternatives(case: Case) -> bool:
    """Whether the training data measured any configuration of the case but the default
    (then the case's own measurements decide; a traced run of a program measures its
    default only, which leaves the choice to the sizes the sweep measured)."""
    default = config_key(case.configs[0])
    return any(key != default and any(stats) for key, stats in case.measured.items())


def _measured_choice(
    twin: Case, space: Space, keys: OpenKeys, noise: float
) -> tuple[str, int] | None:
    """The configuration (key) a twin case's own measurements chose over its default."""
    decided = decide_case(twin, space, keys, noise)
    if decided is None or twin.measured_verdict(decided[0]) is not True:
        return None
    return config_key(twin.configs[decided[0]]), twin.group


def _between_measured(
    case: Case, cases: list[Case], space: Space, keys: OpenKeys, noise: float
) -> tuple[int, str] | None:
    """For a size inside the trained range whose own measurements compared nothing with
    the default: the configuration the measurements of the nearest measured size groups
    (same pattern, op and layout) show beating the default. Between two such groups, when
    both chose the same one and the model does not predict it slower here beyond the
    noise; past the last one (a program's traced size beyond the sweep's), when the model
    also predicts it a gain here (the calibrated median, or the prediction). Else None."""
    twins = [
        c
        for c in cases
        if _measured_alternatives(c)
        and c.distance == 0
        and (c.first.pattern, c.first.op, c.first.layout)
        == (case.first.pattern, case.first.op, case.first.layout)
    ]
    below = max((c for c in twins if c.group < case.group), key=lambda c: c.group, default=None)
    above = min((c for c in twins if c.group > case.group), key=lambda c: c.group, default=None)
    sides = [t for t in (below, above) if t is not None]
    chosen = [_measured_choice(t, space, keys, noise) for t in sides]
    if not chosen or any(c is None for c in chosen) or len({c[0] for c in chosen if c}) != 1:
        return None
    key = chosen[0][0] if chosen[0] else ""
    index = next((i for i, c in enumerate(case.configs) if config_key(c) == key), None)
    if index is None or index == 0 or not not_slower(case, index, noise):
        return None
    if len(sides) == 2:
        return index, (
            f"between size groups {sides[0].group} and {sides[1].group}, whose measurements "
            "both show it beating the default; the model does not predict it slower here"
        )
    calibrated = case.calibrated_gain(index)
    gain = calibrated[1] if calibrated is not None else case.median[index] / case.median[0]
    if gain <= 1.0:
        return None
    return index, (
        f"size group {sides[0].group}'s measured choice, the nearest size the sweep "
        f"compared configurations at: the model predicts {gain - 1:+.0%} here"
    )


def _extrapolate(
    case: Case,
    cases: list[Case],
    space: Space,
    keys: OpenKeys,
    noise: float,
    trained: list[int],
) -> tuple[int, str] | None:
    """Beyond the trained range: the nearest trained group's choice, if it still has
    evidence here with the wider band; else nothing."""
    nearest = min(trained, key=lambda g: abs(g - case.group))
    twin = next(
        (
            c
            for c in cases
            if c.group == nearest
            and c.distance == 0
            and (c.first.pattern, c.first.op, c.first.layout)
            == (case.first.pattern, case.first.op, case.first.layout)
        ),
        None,
    )
    decided = None if twin is None else decide_case(twin, space, keys, noise)
    if twin is None or decided is None or decided[0] == 0:
        return None
    config = twin.configs[decided[0]]
    index = next((i for i, c in enumerate(case.configs) if c == config), None)
    if index is None:
        return None
    if twin.measured_verdict(decided[0]) is True:
        # Measured at the nearest size: it carries over while the model, here, predicts
        # a gain and nothing slower than the default beyond the noise.
        calibrated = case.calibrated_gain(index)
        gain = calibrated[1] if calibrated is not None else case.median[index] / case.median[0]
        if gain > 1.0 and not_slower(case, index, noise):
            return index, (
                f"group {nearest}'s measured choice, {case.distance} doublings beyond the "
                f"trained sizes: the model predicts {gain - 1:+.0%} here"
            )
        return None
    if not has_evidence(case, index, noise):
        return None
    return index, (
        f"group {nearest}'s choice, {case.distance} doublings beyond the trained sizes: still "
        "predicted better than the default beyond the widened noise"
    )


def _view_choice(
    cases: list[Case], space: Space, keys: OpenKeys, noise: float
) -> tuple[list[Choice], dict[str, str | int], str] | None:
    """One configuration for every independent strided case of a scale (a view entry), or
    None; it must be safe in every case and beat the default with evidence on average."""
    if not cases:
        return None
    options = {
        config_key(c.configs[i]): c.configs[i]
        for c in cases
        for i in within_open_keys(c, space, keys)
    }
    best_key, best_total = None, 0.0
    for key, config in options.items():
        total, evidence, safe = 0.0, 0, True
        for case in cases:
            index = next((i for i, c in enumerate(case.configs) if c == config), None)
            if index is None or not not_slower(case, index, noise):
                safe = False
                break
            total += math.log(max(case.median[index], 1e-9) / max(case.median[0], 1e-9))
            evidence += has_evidence(case, index, noise)
        if safe and evidence * 2 > len(cases) and total > best_total:
            best_key, best_total = key, total
    chosen = options.get(best_key) if best_key else None
    choices = []
    for case in cases:
        index = (
            next((i for i, c in enumerate(case.configs) if c == chosen), None) if chosen else None
        )
        if index is None:
            index = access_default(case, space, keys) or 0
            why = (
                "no single configuration beats the default with evidence in most "
                "independent strided cases"
            )
        else:
            why = "the view entry's configuration, for every independent strided case of the scale"
        choices.append(_choice(case, space, index, why))
    if chosen is None:
        return (
            choices,
            {},
            (
                f"independent access to strided views: the defaults stay, no single "
                f"configuration beats them with evidence in most of the {len(cases)} cases"
            ),
        )
    hints = _rest(space, chosen)
    return (
        choices,
        hints,
        (
            f"independent access to strided views: summed log gain {best_total:+.2f} over "
            f"{len(cases)} cases, better than the default with evidence in most"
        ),
    )


def _choice(case: Case, space: Space, index: int, reason: str) -> Choice:
    w = case.first
    config = case.configs[index]
    return Choice(
        nprocs=w.nprocs,
        group=case.group,
        pattern=w.pattern,
        op=w.op,
        layout=w.layout,
        config=config,
        hints=space.hints(config),
        kept_default=config == case.configs[0],
        predicted=float(case.median[index]),
        low=float(case.low[index]),
        high=float(case.high[index]),
        default_predicted=float(case.median[0]),
        default_low=float(case.low[0]),
        reason=reason,
        extrapolated=case.distance,
        gain_interval=case.gain_interval(index),
        gain=case.gain_estimate(index),
        gain_basis=case.gain_basis(index),
    )
