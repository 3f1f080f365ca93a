"""Parameter spaces: the knobs a sweep or a search may turn, read from a TOML file.

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
```

A configuration assigns every parameter one of its values. A parameter at its default is
not passed at all, so the default configuration is exactly "no hints": what a user gets
without iotuner. The spaces we ship live in iotuner/spaces/ (`iotuner space list`).
"""

import itertools
import math
import tomllib
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path
from typing import Any

from iotuner.errors import IotunerError
from iotuner.formats import hint_vocabulary
from iotuner.measurement import NOT_SET

__all__ = [
    "Configuration",
    "Parameter",
    "Space",
    "SpaceError",
    "config_key",
    "load_space",
    "shipped_spaces",
]

Value = str | int
Configuration = dict[str, Value]
"""Parameter name -> value; every parameter of the space has one."""


class SpaceError(IotunerError):
    """A parameter space file is missing, unreadable or not valid."""


@dataclass(frozen=True)
class Parameter:
    """One knob: an MPI info key (kind "hint") or an application parameter (kind "app")."""

    name: str
    kind: str
    values: tuple[Value, ...]
    default: Value
    with_keys: Mapping[str, str] = field(default_factory=dict)
    env: str | None = None

    @property
    def numeric(self) -> bool:
        """True when every value is an integer (a model may treat it as a number)."""
        return all(isinstance(v, int) for v in self.values)


@dataclass(frozen=True)
class Space:
    """A named set of parameters; configurations are their cartesian product."""

    name: str
    description: str
    parameters: tuple[Parameter, ...]
    source: Path | None = None

    @property
    def size(self) -> int:
        return math.prod(len(p.values) for p in self.parameters)

    def parameter(self, name: str) -> Parameter:
        for p in self.parameters:
            if p.name == name:
                return p
        raise SpaceError(f"space {self.name!r} has no parameter {name!r}")

    def default(self) -> Configuration:
        return {p.name: p.default for p in self.parameters}

    def configurations(self) -> Iterator[Configuration]:
        """Every configuration, the default first, the rest in a fixed order."""
        default = self.default()
        yield default
        names = [p.name for p in self.parameters]
        for values in itertools.product(*(p.values for p in self.parameters)):
            config = dict(zip(names, values, strict=True))
            if config != default:
                yield config

    def hints(self, config: Mapping[str, Value]) -> dict[str, str]:
        """The MPI info keys to pass for a configuration (defaults are left out)."""
        hints: dict[str, str] = {}
        for p in self.parameters:
            value = config.get(p.name, p.default)
            if p.kind != "hint" or value == p.default:
                continue
            hints[p.name] = str(value)
            hints.update(p.with_keys)
        return hints

    def app_values(self, config: Mapping[str, Value]) -> dict[str, str]:
        """The application parameters of a configuration, by name, as text."""
        return {
            p.name: str(config.get(p.name, p.default)) for p in self.parameters if p.kind == "app"
        }

    def validate(self, config: Mapping[str, Value]) -> Configuration:
        """The configuration completed with defaults; SpaceError for unknown names or values."""
        unknown = set(config) - {p.name for p in self.parameters}
        if unknown:
            raise SpaceError(
                f"unknown parameter(s) {', '.join(sorted(unknown))} for space {self.name!r}"
            )
        complete: Configuration = {}
        for p in self.parameters:
            value = config.get(p.name, p.default)
            if value not in p.values and str(value) not in {str(v) for v in p.values}:
                raise SpaceError(f"{p.name} must be one of {list(p.values)}, got {value!r}")
            complete[p.name] = next(v for v in p.values if str(v) == str(value))
        return complete


def config_key(config: Mapping[str, Value]) -> str:
    """A canonical text for a configuration (sorted name=value pairs), for keys and labels."""
    return ",".join(f"{name}={config[name]}" for name in sorted(config)) or NOT_SET


def _parameter(kind: str, name: str, spec: Any, where: str) -> Parameter:
    if not isinstance(spec, dict):
        raise SpaceError(f"{where}: [{kind}.{name}] must be a table with values and default")
    unknown = set(spec) - {"values", "default", "with", "env"}
    if unknown:
        raise SpaceError(
            f"{where}: [{kind}.{name}] has unknown key(s) "
            f"{', '.join(sorted(unknown))} (expected values, default, with, env)"
        )
    values = spec.get("values")
    if not isinstance(values, list) or not values:
        raise SpaceError(f"{where}: {kind}.{name}.values must be a non-empty list, got {values!r}")
    for value in values:
        if isinstance(value, bool) or not isinstance(value, str | int):
            raise SpaceError(
                f"{where}: {kind}.{name}.values must hold strings or integers, got {value!r}"
            )
    if len({str(v) for v in values}) != len(values):
        raise SpaceError(f"{where}: {kind}.{name}.values has duplicates: {values!r}")
    if "default" not in spec:
        raise SpaceError(f"{where}: {kind}.{name}.default is missing (one of {values!r})")
    default = spec["default"]
    if default not in values:
        raise SpaceError(
            f"{where}: {kind}.{name}.default must be one of {values!r}, got {default!r}"
        )
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
        _check_vocabulary(name, [v for v in values if v != default], with_keys, where)
    return Parameter(
        name=name,
        kind=kind,
        values=tuple(values),
        default=default,
        with_keys={k: str(v) for k, v in with_keys.items()},
        env=env,
    )


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
    """A space from TOML text; `where` names it in messages."""
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise SpaceError(f"{where}: not valid TOML ({exc})") from None
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
    """A space from a TOML file, or one we ship by name (e.g. "thesis-lustre")."""
    path = Path(name_or_path)
    if not path.is_file():
        shipped = shipped_spaces()
        if str(name_or_path) not in shipped:
            raise SpaceError(
                f"no space file {path} and no shipped space of that name "
                f"(shipped: {', '.join(sorted(shipped))})"
            )
        path = shipped[str(name_or_path)]
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as exc:
        raise SpaceError(f"cannot read {path}: {exc.strerror}") from None
    return parse_space(text, str(path), path)
