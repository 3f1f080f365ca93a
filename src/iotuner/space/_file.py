"""Space files: a space read from TOML (parse_space shows the format), from the form of
Space.to_dict, or by the name of one we ship (iotuner/spaces/, `iotuner space list`).

Every key is checked, and a hint parameter may only pass what the hint vocabulary
(formats/hints.def) allows; a file that breaks a rule is a SpaceError saying which.
"""

import dataclasses
import tomllib
from collections.abc import Mapping
from importlib import resources
from pathlib import Path
from typing import Any

from iotuner._inputs import InputError, read_bounded_text
from iotuner.formats import hint_vocabulary
from iotuner.space._parameters import IntRange, Parameter
from iotuner.space._space import Space, SpaceError

MAX_SPACE_BYTES = 1 << 20
"""The largest space file read (the shipped ones are a few KiB; a space of hundreds of
parameters stays far below)."""


def _parameter(kind: str, name: str, spec: Any, where: str) -> Parameter:
    if not isinstance(spec, dict):
        raise SpaceError(
            f"{where}: [{kind}.{name}] must be a table with values (or range) and default"
        )
    unknown = set(spec) - {"values", "range", "default", "with", "env"}
    if unknown:
        raise SpaceError(
            f"{where}: [{kind}.{name}] has unknown key(s) "
            f"{', '.join(sorted(unknown))} (expected values, range, default, with, env)"
        )
    span = _range(spec["range"], f"{where}: {kind}.{name}.range") if "range" in spec else None
    values = spec.get("values", [] if span is not None else None)
    if not isinstance(values, list) or (not values and span is None):
        raise SpaceError(
            f"{where}: {kind}.{name}.values must be a non-empty list (or give a range), "
            f"got {values!r}"
        )
    for value in values:
        if isinstance(value, bool) or not isinstance(value, str | int):
            raise SpaceError(
                f"{where}: {kind}.{name}.values must hold strings or integers, got {value!r}"
            )
    if len({str(v) for v in values}) != len(values):
        raise SpaceError(f"{where}: {kind}.{name}.values has duplicates: {values!r}")
    if span is not None:
        outside = [v for v in values if isinstance(v, int) and v not in span]
        if outside:
            raise SpaceError(
                f"{where}: {kind}.{name}: the integers listed beside a range are suggestions "
                f"and must be points of it ({span.text()}), got {outside!r}"
            )
    choices = f"one of {values!r}" + (f" or a point of {span.text()}" if span else "")
    if "default" not in spec:
        raise SpaceError(f"{where}: {kind}.{name}.default is missing ({choices})")
    default = spec["default"]
    if default not in values and not (span is not None and default in span):
        raise SpaceError(f"{where}: {kind}.{name}.default must be {choices}, got {default!r}")
    if default not in values:
        values = [default, *values]
    with_keys = spec.get("with", {})
    if kind != "hint" and with_keys:
        raise SpaceError(f"{where}: 'with' belongs to hints only, got it in app.{name}")
    if not isinstance(with_keys, dict) or not all(
        isinstance(v, str | int) and not isinstance(v, bool) for v in with_keys.values()
    ):
        raise SpaceError(
            f"{where}: {kind}.{name}.with must map info keys to values, got {with_keys!r}"
        )
    env = spec.get("env")
    if env is not None and (kind != "app" or not isinstance(env, str) or not env):
        raise SpaceError(f"{where}: 'env' must be a variable name, for app parameters only")
    if kind == "hint":
        passed = [v for v in values if v != default]
        if span is not None:
            # Every point is low + k * step: if low, the next point and high are allowed
            # (in the vocabulary's range, multiples of what it asks), all of them are.
            passed += sorted({span.low, min(span.low + span.step, span.high), span.high})
        _check_vocabulary(name, passed, with_keys, where)
    return Parameter(
        name=name,
        kind=kind,
        values=tuple(values),
        default=default,
        with_keys={k: str(v) for k, v in with_keys.items()},
        env=env,
        range=span,
    )


def _range(spec: Any, where: str) -> IntRange:
    """A range table: low and high (integers), optional step (a positive integer) and log.

    For an Optuna search a range is IntDistribution(low, high, step=step, log=log); Optuna
    accepts log only with step 1, so a log range with a step maps to IntDistribution(low //
    step, high // step, log=True) times step, and low must then be a multiple of step."""
    if not isinstance(spec, dict):
        raise SpaceError(
            f"{where} must be a table like {{ low = 1, high = 64 }} (optional step, log), "
            f"got {spec!r}"
        )
    unknown = set(spec) - {"low", "high", "step", "log"}
    if unknown:
        raise SpaceError(
            f"{where} has unknown key(s) {', '.join(sorted(unknown))} "
            "(expected low, high, step, log)"
        )
    numbers: dict[str, int] = {}
    for key, fallback in (("low", None), ("high", None), ("step", 1)):
        value = spec.get(key, fallback)
        if isinstance(value, bool) or not isinstance(value, int):
            got = "nothing" if value is None else repr(value)
            raise SpaceError(f"{where}.{key} must be an integer, got {got}")
        numbers[key] = value
    low, high, step = numbers["low"], numbers["high"], numbers["step"]
    log = spec.get("log", False)
    if not isinstance(log, bool):
        raise SpaceError(f"{where}.log must be true or false, got {log!r}")
    if low > high:
        raise SpaceError(f"{where}: low must not exceed high, got low {low} and high {high}")
    if step < 1:
        raise SpaceError(f"{where}.step must be at least 1, got {step}")
    if (high - low) % step:
        raise SpaceError(
            f"{where}: high must be low plus a whole number of steps, got low {low}, high "
            f"{high}, step {step} (high {low + (high - low) // step * step} would be)"
        )
    if log and low <= 0:
        raise SpaceError(f"{where}: a log range needs low > 0, got low {low}")
    if log and step > 1 and low % step:
        raise SpaceError(
            f"{where}: a log range with a step needs low to be a multiple of it (so it maps "
            f"to an integer log range times the step), got low {low} and step {step}"
        )
    return IntRange(low, high, step, log)


def _check_vocabulary(name: str, passed: list[Any], with_keys: dict[str, Any], where: str) -> None:
    """A hint parameter may only pass what the hint vocabulary (formats/hints.def) allows:
    the values other than its default (which is never passed) and its `with` keys."""
    vocabulary = hint_vocabulary()
    for key, values in [(name, passed), *((k, [v]) for k, v in with_keys.items())]:
        hint = vocabulary.get(key)
        if hint is None:
            raise SpaceError(
                f"{where}: hint {key!r} is not in the hint vocabulary (formats/hints.def: "
                f"{', '.join(vocabulary)})"
            )
        for value in values:
            problem = hint.problem(str(value))
            if problem is not None:
                raise SpaceError(f"{where}: hints.{name}: {problem}")


def parse_space(text: str, where: str, source: Path | None = None) -> Space:
    """A space from TOML text; `where` names it in messages. The format:

    ```toml
    name = "romio-ufs"
    description = "what this space is for"

    [hints.romio_cb_write]                  # an MPI info key
    values = ["automatic", "disable", "enable"]
    default = "automatic"                   # what the library does when the key is absent

    [hints.cb_nodes]
    values = [1, 2, 4]
    default = 1
    with = { cb_config_list = "*:*" }       # keys passed along when the value is not the default

    [app.buffer_size]                       # an application parameter
    values = [1048576, 4194304]
    default = 1048576
    env = "APP_BUFFER_SIZE"                 # or no env: substituted as {buffer_size} in arguments

    [hints.striping_unit]                   # a numeric knob as a range of integers
    range = { low = 65536, high = 67108864, step = 65536, log = true }
    values = ["default", 1048576]           # optional: suggested values, and words beside the range
    default = "default"
    ```
    """
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise SpaceError(f"{where}: not valid TOML ({exc})") from None
    return _space_from_tables(data, where, source)


def space_from_dict(data: Any, where: str) -> Space:
    """A space from Space.to_dict's form (the tables of its TOML file and the parameters'
    order), checked as parse_space checks a file; `where` names it in messages."""
    if not isinstance(data, Mapping):
        raise SpaceError(f"{where}: a space must be a table, got {type(data).__name__}")
    tables = {k: v for k, v in data.items() if k != "order"}
    space = _space_from_tables(tables, where, None)
    order = data.get("order")
    if order is None:
        return space
    names = [p.name for p in space.parameters]
    if not isinstance(order, list) or sorted(map(str, order)) != sorted(names):
        raise SpaceError(f"{where}: 'order' must list the parameters {names!r}, got {order!r}")
    return dataclasses.replace(
        space, parameters=tuple(space.parameter(str(name)) for name in order)
    )


def _space_from_tables(data: Mapping[str, Any], where: str, source: Path | None) -> Space:
    unknown = set(data) - {"name", "description", "hints", "app"}
    if unknown:
        raise SpaceError(
            f"{where}: unknown key(s) {', '.join(sorted(unknown))} (expected "
            "name, description, [hints.*], [app.*])"
        )
    name = data.get("name")
    if not isinstance(name, str) or not name:
        raise SpaceError(f"{where}: 'name' must be a non-empty string, got {name!r}")
    parameters = []
    for kind, section in (("hint", "hints"), ("app", "app")):
        table = data.get(section, {})
        if not isinstance(table, dict):
            raise SpaceError(f"{where}: [{section}] must be a table of parameters")
        parameters += [_parameter(kind, n, spec, where) for n, spec in table.items()]
    if not parameters:
        raise SpaceError(f"{where}: no parameters: add [hints.<key>] or [app.<name>] tables")
    return Space(name, str(data.get("description", "")), tuple(parameters), source)


def shipped_spaces() -> dict[str, Path]:
    """The spaces shipped with iotuner, by file stem."""
    folder = resources.files("iotuner") / "spaces"
    return {
        Path(entry.name).stem: Path(str(entry))
        for entry in folder.iterdir()
        if entry.name.endswith(".toml")
    }


def load_space(name_or_path: str | Path) -> Space:
    """A space from a TOML file, or one we ship by name (e.g. "thesis-lustre").

    SpaceError for a name that is neither, a file that is no regular file (a FIFO, a
    device, a directory) or larger than MAX_SPACE_BYTES, and for text that is not a
    valid space."""
    path = Path(name_or_path)
    if not path.is_file():
        shipped = shipped_spaces()
        if str(name_or_path) in shipped:
            path = shipped[str(name_or_path)]
        elif not path.exists():
            raise SpaceError(
                f"no space file {path} and no shipped space of that name "
                f"(shipped: {', '.join(sorted(shipped))})"
            )
    try:
        text = read_bounded_text(path, "a parameter space (TOML)", MAX_SPACE_BYTES)
    except InputError as exc:
        raise SpaceError(str(exc)) from None
    try:
        return parse_space(text, str(path), path)
    except RecursionError:
        # tomllib recurses once per level of nested arrays and inline tables.
        raise SpaceError(
            f"{path}: expected a parameter space (TOML), got arrays or tables nested too "
            "deep to read"
        ) from None
