"""The one Python reader of the format definitions in formats/*.def.

The interposer includes the same files as X-macros, so the size groups, the columns of a
trace `op` record and the keys of a tuning-table entry are defined once for C and Python.
This package finds the files, parses the macro invocations and checks them; the parsed
definitions are cached for the life of the process. One module per kind of file (hints,
table, trace, OMPIO, limits; the reader they share in _reader); the size groups, which
every measurement is binned by, are read here.
"""

import bisect
import functools
from dataclasses import dataclass
from pathlib import Path

from iotuner.errors import FormatError
from iotuner.formats._hints import (
    HINT_OPS,
    PHASES,
    HintDef,
    HintScale,
    acting_hints,
    default_equivalent_keys,
    hint_quantities,
    hint_scale,
    hint_vocabulary,
    parse_hint_scale,
    parse_hints,
)
from iotuner.formats._limits import limits, parse_limits
from iotuner.formats._ompio import (
    OmpioJobSetting,
    ompio_job_settings,
    ompio_map,
)
from iotuner.formats._ompio import parse_ompio_job as parse_ompio_job
from iotuner.formats._ompio import parse_ompio_map as parse_ompio_map
from iotuner.formats._reader import DEF_FILES, formats_dir, invocations
from iotuner.formats._table import (
    TableField,
    TableRule,
    parse_table_fields,
    parse_table_rules,
    table_fields,
    table_rules,
)
from iotuner.formats._trace import (
    OpField,
    RecordKey,
    op_fields,
    parse_op_fields,
    parse_trace_records,
    trace_records,
)

__all__ = [
    "HINT_OPS",
    "NUM_SIZE_GROUPS",
    "PHASES",
    "HintDef",
    "HintScale",
    "OmpioJobSetting",
    "OpField",
    "RecordKey",
    "SizeGroup",
    "TableField",
    "TableRule",
    "acting_hints",
    "default_equivalent_keys",
    "formats_dir",
    "hint_quantities",
    "hint_scale",
    "hint_vocabulary",
    "limits",
    "ompio_job_settings",
    "ompio_map",
    "op_fields",
    "parse_hint_scale",
    "parse_hints",
    "parse_limits",
    "parse_op_fields",
    "parse_size_groups",
    "parse_table_fields",
    "parse_table_rules",
    "parse_trace_records",
    "size_group",
    "size_groups",
    "table_fields",
    "table_rules",
    "trace_records",
]

_DEF_FILES = DEF_FILES
"""The .def files formats_dir looks for (the name the tests of the wheel's contents read)."""

NUM_SIZE_GROUPS = 56
"""Number of data-size groups (the dissertation's §3.2)."""


@dataclass(frozen=True)
class SizeGroup:
    """One data-size group: transfers of `first` <= n < `end` bytes per rank.

    `end` is None for the last, open-ended group.
    """

    number: int
    first: int
    end: int | None


@functools.cache
def size_groups() -> tuple[SizeGroup, ...]:
    """The 56 size groups of size_groups.def, in order."""
    return parse_size_groups(formats_dir() / "size_groups.def")


@functools.cache
def _group_firsts() -> tuple[int, ...]:
    return tuple(g.first for g in size_groups())


def size_group(nbytes: int) -> int:
    """The number (1-56) of the size group of a transfer of `nbytes` bytes per rank."""
    if nbytes < 0:
        raise ValueError(f"a byte count must be >= 0, got {nbytes}")
    return size_groups()[bisect.bisect_right(_group_firsts(), nbytes) - 1].number


def parse_size_groups(path: Path) -> tuple[SizeGroup, ...]:
    """Parse and check a size_groups.def file.

    The groups must be numbered 1..56 in order, start at 0 bytes, each start where the
    previous one ends, and only the last may be open-ended (end -1): size_group() relies
    on this to find a group by bisection.
    """
    groups: list[SizeGroup] = []
    for line, args in invocations(path, "IOT_SIZE_GROUP", "iii"):
        number, first, end = (int(a) for a in args)
        where = f"{path} line {line}"
        start = groups[-1].end if groups else 0
        if number != len(groups) + 1:
            raise FormatError(f"{where}: expected group {len(groups) + 1}, got group {number}")
        if start is None:
            raise FormatError(f"{where}: group {number} follows the open-ended group")
        if first != start:
            raise FormatError(
                f"{where}: group {number} must start at {start} bytes (where the previous "
                f"group ends), got {first}"
            )
        if end != -1 and end <= first:
            raise FormatError(f"{where}: group {number} must end after {first} bytes, got {end}")
        groups.append(SizeGroup(number, first, None if end == -1 else end))
    if len(groups) != NUM_SIZE_GROUPS:
        raise FormatError(f"{path}: expected {NUM_SIZE_GROUPS} groups, got {len(groups)}")
    if groups[-1].end is not None:
        raise FormatError(f"{path}: the last group must be open-ended (end -1)")
    return tuple(groups)
