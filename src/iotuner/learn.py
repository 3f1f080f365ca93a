"""From the knowledge base to what the models learn from: one system, one space.

A model has no feature for the system, so it learns from one system at a time (the one
there is, or the one named by a fingerprint prefix). It learns a space's parameters; rows
that set a parameter outside the space are left out (a parameter the space does not know
could be what made them fast), and rows of other spaces whose extra parameters sit at the
default are kept, since "not set" is the default in every space.
"""

from collections import Counter
from dataclasses import dataclass, field

import pandas as pd

from iotuner.errors import ConfigError
from iotuner.measurement import CONFIG_PREFIX, NOT_SET, WORKLOAD_COLUMNS, System
from iotuner.space import Space, config_key, load_space, shipped_spaces
from iotuner.store import Store, summarize_repeats

__all__ = ["NothingToLearn", "TrainingData", "training_data"]


@dataclass(frozen=True)
class TrainingData:
    """The summary frame of one system and space, and what it was cut from."""

    frame: pd.DataFrame
    system: System
    space: Space
    dropped_rows: int
    dropped_reasons: dict[str, int] = field(default_factory=dict)
    """Why rows were left out: a sentence per reason, with how many rows it holds for."""


def _pick_system(store: Store, prefix: str | None) -> System:
    systems = store.systems()
    if prefix:
        systems = [s for s in systems if s.fingerprint.startswith(prefix)]
    if len(systems) == 1:
        return systems[0]
    listed = ", ".join(f"{s.fingerprint} ({s.host}, {s.fs_type})" for s in store.systems())
    if not systems:
        raise ConfigError(
            f"no system {'matches ' + repr(prefix) if prefix else 'has data'} in "
            f"{store.url} (systems: {listed or 'none'})"
        )
    raise ConfigError(
        f"{store.url} holds several systems: name one with --system "
        f"(a fingerprint prefix): {listed}"
    )


def _pick_space(store: Store, system: System, name: str | None) -> Space:
    if name:
        return load_space(name)
    measured = store.measurements(system)
    counts = Counter(measured["space"]) if "space" in measured else Counter()
    for space_name, _ in counts.most_common():
        if space_name in shipped_spaces():
            return load_space(space_name)
    raise ConfigError(
        f"name the parameter space with --space (the data's spaces: {', '.join(counts) or 'none'})"
    )


def training_data(
    store: Store,
    *,
    system: str | None = None,
    space: str | None = None,
    kind: str | None = None,
) -> TrainingData:
    """The summary frame to learn from (see the module docstring)."""
    chosen = _pick_system(store, system)
    chosen_space = _pick_space(store, chosen, space)
    # From the measurements, not the stored summary: a configuration is summarised once it
    # is read in the space's terms (below), so that the same values stored two ways (a
    # trace's {} and a sweep's explicit defaults) are one configuration, repeats pooled.
    frame = store.measurements(chosen, kind=kind)
    cases = frame.groupby(["system", *WORKLOAD_COLUMNS, "config"], dropna=False).ngroup()
    known = {f"{CONFIG_PREFIX}{p.name}" for p in chosen_space.parameters}
    extra = [c for c in frame.columns if c.startswith(CONFIG_PREFIX) and c not in known]
    keep = pd.Series(True, index=frame.index)
    reasons: dict[str, int] = {}

    def drop(rows: pd.Series, reason: str) -> None:
        nonlocal keep
        if rows.any():
            reasons[reason] = int(cases[rows].nunique())  # stored cases, as summary() has
            keep &= ~rows

    for column in extra:
        drop(
            frame[column].astype(str) != NOT_SET,
            f"set {column[len(CONFIG_PREFIX) :]}, which space {chosen_space.name!r} lacks",
        )
    for p in chosen_space.parameters:
        column = f"{CONFIG_PREFIX}{p.name}"
        if column not in frame:
            frame[column] = p.default
            continue
        values = frame[column].unique()
        # Parameter.admits: a listed value; in a range, any integer within its limits; for
        # a listed integer parameter, any integer of the sign its encoding needs (the model
        # reads it as a number), so stripe sizes or aggregator counts the space does not
        # list still teach the model. Any other value drops the row, counted per reason.
        admitted = {v: str(v) == NOT_SET or p.admits(v) for v in values}
        drop(~frame[column].map(admitted).astype(bool), f"{p.name} not {p.admitted_text()}")
        frame[column] = frame[column].map(
            {v: p.default if str(v) == NOT_SET else v for v in values}
        )
    dropped = int(cases[~keep].nunique())
    frame = frame[keep].drop(columns=extra).reset_index(drop=True)
    if frame.empty:
        raise NothingToLearn(_nothing_to_learn(store, chosen, chosen_space, kind, reasons))
    frame["config"] = _space_keys(frame, chosen_space)
    return TrainingData(summarize_repeats(frame), chosen, chosen_space, dropped, reasons)


class NothingToLearn(ConfigError):
    """The knowledge base holds no row usable for the space on the system: the message
    says why and what to do. The learner keeps the table then (iotuner.online)."""


def _space_keys(frame: pd.DataFrame, space: Space) -> list[str]:
    """Each row's configuration key (space.config_key) over every parameter of the space,
    from its cfg columns (with the defaults filled in): what the row ran with, whichever
    way it was stored (a trace stores only the keys it requested)."""
    names = [p.name for p in space.parameters]
    columns = [f"{CONFIG_PREFIX}{name}" for name in names]
    return [
        config_key(dict(zip(names, row, strict=True)))
        for row in frame[columns].itertuples(index=False, name=None)
    ]


def _nothing_to_learn(
    store: Store, system: System, space: Space, kind: str | None, reasons: dict[str, int]
) -> str:
    """Why no row is left to learn from: how many rows the knowledge base holds on the
    system, why none was used (the drop reasons, with their counts), and what to do."""
    held = store.summary(system, kind=kind)
    of_kind = f" of kind {kind!r}" if kind else ""
    where = f"{store.url} holds"
    if held.empty:
        return (
            f"{where} no measurements{of_kind} on system {system.fingerprint}: measure "
            f"space {space.name!r} with `iotuner bench --space {space.name}`, or add trace "
            "logs or a CSV with `iotuner ingest`"
        )
    measurements = int(held["n"].sum()) if "n" in held else len(held)
    why = "; ".join(
        f"{count} {reason}" for reason, count in sorted(reasons.items(), key=lambda r: -r[1])
    )
    return (
        f"{where} {len(held)} rows ({measurements} measurements) on system "
        f"{system.fingerprint}{of_kind}, but none of them is usable for space "
        f"{space.name!r}: {why} (a row may have several reasons). Give --space a space whose "
        "parameters and values cover these rows (a TOML file; `iotuner space show NAME` "
        f"shows a shipped one), or measure space {space.name!r} on this system with "
        f"`iotuner bench --space {space.name}`"
    )
