"""Features: the numbers a model sees for one row of a summary frame, and how they were made.

A FeatureSchema lists, for each source column of the frame, how it is encoded, and turns
any frame with those columns into the matrix X. It is plain data (JSON), saved beside a
model so the rows a tuner asks about later are encoded exactly as the training rows were.

Encodings
---------
* ``log2``: log2(max(value, 1)) for bytes_per_rank, nprocs, nodes, block and
  calls_per_open. Sizes and scales span orders of magnitude, and a step from 1 to 2 MiB
  matters like one from 64 to 128 MiB. Block 0 (a contiguous layout) and block 1 both
  encode as 0. A frame without a calls_per_open column (made before the field existed)
  reads as one call per open, as iotuner.measurement.Workload does.
* ``number``: the value as it is (group, fill).
* ``maybe``: a workload field that may be unknown, as a number (log2 of it when the
  encoding says so) or NaN when unknown: an unknown value is missing, never 0, and the
  models take NaN (trees and boosting natively, the others behind a median imputer with a
  missing-value indicator, iotuner.models._zoo). ``interleaved`` is 1, 0 or NaN;
  ``log2(stripe_count)`` and ``log2(stripe_size)`` the striping; ``files_per_rank`` is
  files / nprocs (1: a file per process, 1/nprocs: one shared file); ``log2(memory_piece)``
  the bytes of one contiguous piece of a call's memory (the call's bytes where memory is
  contiguous, memory_block 0), NaN where the source does not tell.
* Derived features that tell apart problems with equal totals: ``log2(ranks_per_node)``
  (nprocs / nodes rounded up where the source does not tell; never unknown) and
  ``log2(bytes_per_open)``, the volume one rank moves between open and close
  (bytes_per_rank * calls_per_open). `program` is no feature: a name says nothing about a
  program the knowledge base has not seen.

Frames without the newer workload columns (old knowledge bases, CSV tables, frames made
by hand) read as unknown there: complete_workload_columns adds them. A schema of
version 1 (saved before these features) still loads and encodes exactly as it did.
* ``binary``: pattern, op and layout have two values each (iotuner.measurement); one 0/1
  feature says whether the row has the second (``pattern=independent``, ``op=read``,
  ``layout=strided``). Any other value is an error.
* ``onehot``: a parameter with text values gets one 0/1 feature per declared value
  (``cfg:romio_cb_write=enable``).
* ``param``: a parameter whose values are all integers (Parameter.numeric) is one number,
  log2 of the value when every value is positive (buffer sizes, aggregator counts). A cell
  holding "default" (not set) stands for the parameter's declared default value.
* ``param`` with a default flag: a parameter whose values are integers plus the word
  "default" (the system's own setting, e.g. striping_factor in thesis-lustre) keeps its
  order as a number and gets a second 0/1 feature ``cfg:<p>=default``; a "default" row
  takes the flag 1 and, as its number, the documented sentinel: one below the smallest
  encoded value the schema knows.

Without a space the parameters are read off the cfg: columns: integers only give ``param``
(without a declared default, so "default" cells are then unknown), integers plus "default"
give ``param`` with the flag, anything else ``onehot`` over the values seen.

The target is a bandwidth statistic (bw_min by default: the dissertation trains on the
minimum of the repeats, §6.1), modelled as its natural logarithm because bandwidths span
orders of magnitude and errors are relative; predictions are turned back into MiB/s.
"""

import json
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

import numpy as np
import numpy.typing as npt
import pandas as pd

from iotuner._safejson import loads_json
from iotuner.formats import acting_hints, hint_vocabulary
from iotuner.measurement import CONFIG_PREFIX, LAYOUTS, OPS, PATTERNS, WORKLOAD_COLUMNS
from iotuner.models._common import (
    BANDWIDTH_STATS,
    NOT_SET,
    ModelError,
    Value,
    cell_value,
    config_columns,
    positive_rows,
    require_columns,
)
from iotuner.models._workload_columns import complete_workload_columns, ranks_per_node
from iotuner.space import Parameter, Space

__all__ = [
    "SCHEMA_VERSION",
    "Encoding",
    "FeatureSchema",
    "build_features",
    "infer_schema",
    "log_target",
]

SCHEMA_VERSION = 2
"""Version of the JSON form of a FeatureSchema (2: the workload fields of issue 10, the
``maybe`` kind and the derived columns; 1 is still read)."""

_READABLE_VERSIONS = (1, SCHEMA_VERSION)

_KINDS = ("log2", "number", "binary", "onehot", "param", "maybe")

_WORKLOAD_ENCODINGS: tuple[tuple[str, str, tuple[Value, ...]], ...] = (
    ("nprocs", "log2", ()),
    ("nodes", "log2", ()),
    ("pattern", "binary", PATTERNS),
    ("op", "binary", OPS),
    ("layout", "binary", LAYOUTS),
    ("bytes_per_rank", "log2", ()),
    ("block", "log2", ()),
    ("fill", "number", ()),
    ("calls_per_open", "log2", ()),
    ("group", "number", ()),
)
"""The encodings of a version 1 schema, all of them still made in version 2."""

_NEWER_WORKLOAD_ENCODINGS: tuple[tuple[str, bool], ...] = (
    # (source, log2): the kind is ``log2`` for the two that are never unknown, else maybe.
    ("ranks_per_node", True),
    ("bytes_per_open", True),
    ("files_per_rank", False),
    ("interleaved", False),
    ("stripe_count", True),
    ("stripe_size", True),
    ("memory_piece", True),
)
"""The workload encodings added in version 2 (after _WORKLOAD_ENCODINGS); memory_piece
came later, and schemas saved before it do not list it (they encode as they did)."""

_NEVER_UNKNOWN = ("ranks_per_node", "bytes_per_open")


@dataclass(frozen=True)
class Encoding:
    """How one column of the frame becomes one or more features.

    `kind` is one of log2, number, binary, onehot, param (see the module text).
    `categories`: the allowed values of binary and onehot, the known values of param.
    `default`: for param and onehot, the value a "default" (not set) cell stands for; None
    when unknown. `log2`: param features are log2 of the value. `flag`: param has the extra
    ``<source>=default`` feature and `sentinel` as its number for "default" rows.
    """

    source: str
    kind: str
    categories: tuple[Value, ...] = ()
    default: Value | None = None
    log2: bool = False
    flag: bool = False
    sentinel: float = 0.0
    with_keys: tuple[tuple[str, str], ...] = ()

    def __post_init__(self) -> None:
        if self.kind not in _KINDS:
            raise ModelError(f"encoding kind must be one of {_KINDS}, got {self.kind!r}")
        if self.kind == "binary" and len(self.categories) != 2:
            raise ModelError(f"binary encoding of {self.source} needs 2 categories")
        if self.kind == "onehot" and not self.categories:
            raise ModelError(f"onehot encoding of {self.source} needs categories")

    @property
    def features(self) -> tuple[str, ...]:
        """The names of the features this column gives, in X's column order."""
        if self.kind in ("log2", "number"):
            return (f"log2({self.source})" if self.kind == "log2" else self.source,)
        if self.kind == "maybe":
            return (f"log2({self.source})" if self.log2 else self.source,)
        if self.kind == "binary":
            return (f"{self.source}={self.categories[1]}",)
        if self.kind == "onehot":
            return tuple(f"{self.source}={c}" for c in self.categories)
        number = f"log2({self.source})" if self.log2 else self.source
        return (number, f"{self.source}={NOT_SET}") if self.flag else (number,)

    def encode(self, column: pd.Series) -> npt.NDArray[np.float64]:
        """The features of one frame column, shape (rows, len(features)).

        ModelError for a value the encoding does not know, naming it and what is known.
        """
        if self.kind in ("log2", "number"):
            values = pd.to_numeric(column, errors="coerce").to_numpy(dtype=float)
            if not np.all(np.isfinite(values)):
                raise ModelError(f"{self.source} must be a number in every row")
            if self.kind == "log2":
                values = np.log2(np.maximum(values, 1.0))
            return values.reshape(-1, 1)
        if self.kind == "maybe":
            return self._encode_maybe(column)
        cells = [self._resolve(cell_value(v)) for v in column.tolist()]
        if self.kind in ("binary", "onehot"):
            index = {str(c): i for i, c in enumerate(self.categories)}
            self._check_known(cells, set(index))
            hot = np.zeros((len(cells), len(self.categories)))
            hot[np.arange(len(cells)), [index[str(c)] for c in cells]] = 1.0
            return hot[:, 1:] if self.kind == "binary" else hot
        return self._encode_param(cells)

    def to_dict(self) -> dict[str, Any]:
        return {
            "source": self.source,
            "kind": self.kind,
            "categories": list(self.categories),
            "default": self.default,
            "log2": self.log2,
            "flag": self.flag,
            "sentinel": self.sentinel,
            "with_keys": [list(pair) for pair in self.with_keys],
            "features": list(self.features),
        }

    @staticmethod
    def from_dict(data: Mapping[str, Any]) -> "Encoding":
        try:
            encoding = Encoding(
                source=str(data["source"]),
                kind=str(data["kind"]),
                categories=tuple(data.get("categories", ())),
                default=data.get("default"),
                log2=bool(data.get("log2", False)),
                flag=bool(data.get("flag", False)),
                sentinel=float(data.get("sentinel", 0.0)),
                with_keys=tuple((str(k), str(v)) for k, v in data.get("with_keys", ())),
            )
        except (KeyError, TypeError, ValueError) as exc:
            raise ModelError(f"an encoding needs source and kind ({exc})") from None
        if "features" in data and list(data["features"]) != list(encoding.features):
            raise ModelError(
                f"encoding of {encoding.source} lists features {data['features']!r}, "
                f"expected {list(encoding.features)!r}"
            )
        return encoding

    @property
    def unsettable(self) -> bool:
        """Whether a "not set" cell encodes: as the declared default, or its own value."""
        return self.default is not None or self.flag or NOT_SET in map(str, self.categories)

    def _resolve(self, cell: Value) -> Value:
        """A configuration cell with "not set" replaced by the declared default, if known."""
        if cell == NOT_SET and self.default is not None:
            return self.default
        return cell

    def _check_known(self, cells: Sequence[Value], known: set[str]) -> None:
        unknown = sorted({str(c) for c in cells} - known)
        if unknown:
            rows = sum(str(c) not in known for c in cells)
            raise ModelError(
                f"{self.source} has value(s) {', '.join(map(repr, unknown))} in {rows} row(s); "
                f"the schema knows {', '.join(map(str, self.categories))}"
            )

    def _encode_maybe(self, column: pd.Series) -> npt.NDArray[np.float64]:
        """A number per cell, NaN for an empty one (None, NaN: unknown)."""
        values = np.full(len(column), np.nan)
        for row, cell in enumerate(column.tolist()):
            if cell is None or cell is pd.NA:
                continue
            if isinstance(cell, bool | np.bool_ | int | float | np.integer | np.floating):
                number = float(cell)
            else:
                raise ModelError(
                    f"{self.source} must be a number or empty (unknown) in every row, got {cell!r}"
                )
            if math.isinf(number) or (self.log2 and number <= 0):
                wanted = "a number > 0" if self.log2 else "a finite number"
                raise ModelError(f"{self.source} must be {wanted} or empty, got {cell!r}")
            values[row] = math.log2(number) if self.log2 and not math.isnan(number) else number
        return values.reshape(-1, 1)

    def _encode_param(self, cells: Sequence[Value]) -> npt.NDArray[np.float64]:
        bad = sorted(
            {str(c) for c in cells if not isinstance(c, int) and not (self.flag and c == NOT_SET)}
        )
        if bad:
            expected = "integers or 'default'" if self.flag else "integers"
            raise ModelError(
                f"{self.source} has value(s) {', '.join(map(repr, bad))}; expected {expected} "
                f"(known: {', '.join(map(str, self.categories))})"
            )
        if self.log2 and any(isinstance(c, int) and c <= 0 for c in cells):
            raise ModelError(f"{self.source} is encoded as log2 and needs values > 0")
        number = np.array(
            [
                self.sentinel
                if not isinstance(c, int)
                else (math.log2(c) if self.log2 else float(c))
                for c in cells
            ],
            dtype=float,
        )
        if not self.flag:
            return number.reshape(-1, 1)
        is_default = np.array([c == NOT_SET for c in cells], dtype=float)
        return np.column_stack([number, is_default])


@dataclass(frozen=True)
class FeatureSchema:
    """The encodings of a frame's columns, in order; X has their features side by side.

    `space` names the parameter space the configuration columns came from ("" if none).
    """

    encodings: tuple[Encoding, ...]
    space: str = ""
    version: int = field(default=SCHEMA_VERSION)
    acting: bool = False
    """Keys that cannot act on a row's workload are encoded as not set (see the module
    text); False for schemas saved before, which encode as they did."""

    @property
    def feature_names(self) -> list[str]:
        return [name for e in self.encodings for name in e.features]

    @property
    def sources(self) -> list[str]:
        """The frame columns the schema reads (DERIVED_COLUMNS are computed from others)."""
        return [e.source for e in self.encodings]

    @property
    def parameters(self) -> list[str]:
        """The configuration parameters the schema encodes (without the cfg: prefix)."""
        return [s[len(CONFIG_PREFIX) :] for s in self.sources if s.startswith(CONFIG_PREFIX)]

    def transform(self, frame: pd.DataFrame) -> npt.NDArray[np.float64]:
        """X for the rows of `frame`, shape (rows, features); ModelError for missing columns
        or values the schema does not know."""
        frame = complete_workload_columns(frame)
        if self.version >= 2 and "ranks_per_node" in self.sources:
            frame = frame.assign(ranks_per_node=ranks_per_node(frame))
        require_columns(frame, self.sources, "the feature schema")
        if self.acting:
            frame = _inactive_as_not_set(frame, self.encodings)
        blocks = [e.encode(frame[e.source]) for e in self.encodings]
        if not blocks:
            return np.zeros((len(frame), 0))
        return np.hstack(blocks).astype(np.float64)

    def workload_only(self) -> "FeatureSchema":
        """The same schema without the configuration columns (features of the workload)."""
        kept = tuple(e for e in self.encodings if not e.source.startswith(CONFIG_PREFIX))
        return FeatureSchema(kept, self.space, self.version, self.acting)

    def to_dict(self) -> dict[str, Any]:
        return {
            "version": self.version,
            "space": self.space,
            "encodings": [e.to_dict() for e in self.encodings],
            "features": self.feature_names,
            "acting": self.acting,
        }

    def to_json(self) -> str:
        return json.dumps(self.to_dict(), sort_keys=True)

    @staticmethod
    def from_dict(data: Mapping[str, Any]) -> "FeatureSchema":
        if not isinstance(data, Mapping) or data.get("version") not in _READABLE_VERSIONS:
            got = data.get("version") if isinstance(data, Mapping) else type(data).__name__
            raise ModelError(
                f"expected a feature schema of version "
                f"{' or '.join(map(str, _READABLE_VERSIONS))}, got {got!r}"
            )
        encodings = data.get("encodings")
        if not isinstance(encodings, list):
            raise ModelError("a feature schema needs a list of encodings")
        schema = FeatureSchema(
            tuple(Encoding.from_dict(e) for e in encodings),
            str(data.get("space", "")),
            int(data["version"]),
            bool(data.get("acting", False)),
        )
        if "features" in data and list(data["features"]) != schema.feature_names:
            raise ModelError("the schema's feature list does not match its encodings")
        return schema

    @staticmethod
    def from_json(text: str) -> "FeatureSchema":
        try:
            data = loads_json(text)
        except json.JSONDecodeError as exc:
            raise ModelError(f"a feature schema must be JSON ({exc.msg})") from None
        return FeatureSchema.from_dict(data)


def infer_schema(frame: pd.DataFrame, space: Space | None = None) -> FeatureSchema:
    """The schema for a summary frame: its workload columns, then one encoding per parameter.

    With a space, its parameters are encoded from their declared values: each must have a
    cfg: column, and any other cfg: column must be "default" (not set) in every row (a frame
    from a store that also holds other spaces). Without a space, every cfg: column is a
    parameter, encoded from the values seen.
    """
    require_columns(complete_workload_columns(frame), WORKLOAD_COLUMNS, "a feature schema")
    encodings = [Encoding(name, kind, cats) for name, kind, cats in _WORKLOAD_ENCODINGS]
    encodings += [
        Encoding(name, "log2") if name in _NEVER_UNKNOWN else Encoding(name, "maybe", log2=log2)
        for name, log2 in _NEWER_WORKLOAD_ENCODINGS
    ]
    present = config_columns(frame)
    if space is not None:
        wanted = [CONFIG_PREFIX + p.name for p in space.parameters]
        missing = sorted(set(wanted) - set(present))
        extra = sorted(
            c
            for c in set(present) - set(wanted)
            if any(cell_value(v) != NOT_SET for v in frame[c].tolist())
        )
        if missing or extra:
            raise ModelError(
                f"the frame's configuration columns do not match space {space.name!r}: "
                + "; ".join(
                    part
                    for part in (
                        f"missing {', '.join(missing)}" if missing else "",
                        f"not in the space {', '.join(extra)}" if extra else "",
                    )
                    if part
                )
            )
        encodings += [_declared(p) for p in space.parameters]
    else:
        encodings += [_observed(c, frame[c]) for c in present]
    return FeatureSchema(tuple(encodings), space.name if space is not None else "", acting=True)


def build_features(
    frame: pd.DataFrame, space: Space | None = None
) -> tuple[npt.NDArray[np.float64], FeatureSchema]:
    """X for a summary frame and the schema that made it (see infer_schema)."""
    schema = infer_schema(frame, space)
    return schema.transform(frame), schema


def log_target(frame: pd.DataFrame, stat: str = "bw_min") -> npt.NDArray[np.float64]:
    """The natural logarithm of the bandwidth statistic `stat` (MiB/s), one per row.

    ModelError for an unknown statistic or a row without a positive bandwidth (drop those
    rows first: a zero bandwidth has no logarithm and says nothing about the settings).
    """
    if stat not in BANDWIDTH_STATS:
        raise ModelError(f"the target must be one of {', '.join(BANDWIDTH_STATS)}, got {stat!r}")
    require_columns(frame, [stat], "the target")
    good = positive_rows(frame, stat)
    if not good.all():
        raise ModelError(
            f"{stat} must be a positive number in every row; {int((~good).sum())} row(s) are not"
        )
    values: npt.NDArray[np.float64] = frame[stat].to_numpy(dtype=float)
    return np.log(values)


def _declared(p: Parameter) -> Encoding:
    source = CONFIG_PREFIX + p.name
    ints = [v for v in p.values if isinstance(v, int)]
    if p.range is not None:  # a range's limits bound the numbers it may encode
        ints = sorted({*ints, p.range.low, p.range.high})
    words = [v for v in p.values if not isinstance(v, int)]
    with_keys = tuple(sorted(p.with_keys.items()))
    if p.numeric:
        encoding = _param(source, ints, default=p.default, flag=False)
    elif ints and words == [NOT_SET]:
        encoding = _param(source, ints, default=None, flag=True)
    else:
        encoding = Encoding(source, "onehot", tuple(p.values), default=p.default)
    return replace(encoding, with_keys=with_keys) if p.kind == "hint" else encoding


def _observed(source: str, column: pd.Series) -> Encoding:
    seen = list(dict.fromkeys(cell_value(v) for v in column.tolist()))
    ints = sorted(v for v in seen if isinstance(v, int))
    words = [v for v in seen if not isinstance(v, int)]
    if ints and not words:
        return _param(source, ints, default=None, flag=False)
    if ints and words == [NOT_SET]:
        return _param(source, ints, default=None, flag=True)
    return Encoding(source, "onehot", tuple(sorted(seen, key=str)))


def _param(source: str, ints: Sequence[int], *, default: Value | None, flag: bool) -> Encoding:
    log2 = all(v > 0 for v in ints)
    encoded = [math.log2(v) if log2 else float(v) for v in ints]
    return Encoding(
        source,
        "param",
        tuple(sorted(ints)),
        default=default,
        log2=log2,
        flag=flag,
        sentinel=(min(encoded) - 1.0) if flag else 0.0,
    )


def _inactive_as_not_set(frame: pd.DataFrame, encodings: Sequence[Encoding]) -> pd.DataFrame:
    """`frame` with every configuration cell of a key that cannot act on its row's workload
    (iotuner.formats.acting_hints: a read key on a write, a collective-buffering key on an
    independent access, cb_nodes that gives the default's aggregators at the row's scale)
    set to "not set". Such a cell changes nothing the program does, so the model must
    neither learn an effect of it in training nor predict one."""
    vocabulary = hint_vocabulary()
    keys = [
        e
        for e in encodings
        if e.source.startswith(CONFIG_PREFIX)
        and e.source[len(CONFIG_PREFIX) :] in vocabulary
        and e.unsettable
    ]
    if not keys or len(frame) == 0:
        return frame
    # One decision per distinct workload scale and configuration, not per row.
    sources = ["pattern", "op", "nprocs", "nodes", *(e.source for e in keys)]
    codes = frame[sources].astype(str).groupby(sources, sort=False).ngroup().to_numpy()
    firsts = np.unique(codes, return_index=True)[1]
    dropping: dict[int, list[int]] = {}
    for row, first in zip(firsts, frame[sources].iloc[firsts].itertuples(index=False), strict=True):
        values = [cell_value(v) for v in first]
        for i in _inactive(values[:4], values[4:], keys):
            dropping.setdefault(i, []).append(int(codes[row]))
    if not dropping:
        return frame
    return frame.assign(
        **{
            keys[i].source: frame[keys[i].source].where(~np.isin(codes, found), NOT_SET)
            for i, found in dropping.items()
        }
    )


def _inactive(
    workload: Sequence[Any], values: Sequence[Value], keys: Sequence[Encoding]
) -> list[int]:
    """The indexes of `keys` whose `values` cannot act on the workload (pattern, op,
    nprocs, nodes); a value equal to the key's default, or not set, is not passed."""
    pattern, op, nprocs, nodes = workload
    hints: dict[str, str] = {}
    for e, value in zip(keys, values, strict=True):
        if value != NOT_SET and value != e.default:
            hints[e.source[len(CONFIG_PREFIX) :]] = str(value)
            hints.update(e.with_keys)
    if not hints:
        return []
    try:
        ranks, hosts = int(float(nprocs)), int(float(nodes))
    except (TypeError, ValueError):
        return []  # the encodings say what is wrong with the row
    acting = acting_hints(hints, pattern=str(pattern), op=str(op), nprocs=ranks, nodes=hosts)
    return [
        i for i, e in enumerate(keys) if e.source[len(CONFIG_PREFIX) :] in set(hints) - set(acting)
    ]
