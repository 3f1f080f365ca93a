"""Exports of a trace log to other tools: the `op` records as CSV (`iotuner log2csv`)."""

import csv
import io
from typing import Any

from iotuner._printable import printable
from iotuner.formats import op_fields
from iotuner.tracelog import TraceLog

__all__ = ["op_csv", "op_table"]


def op_table(log: TraceLog) -> tuple[list[str], list[list[Any]]]:
    """The `op` records as (columns, rows).

    Columns: those of trace_op_fields.def in order (the dissertation's Table 6.6 first),
    then for each hint key found in the log's hints records, in name order, `<key>` (the
    effective value in the hint set in force for the row) and `requested:<key>`; empty
    where the hint set has no such key or the row has none.
    """
    names = [f.name for f in op_fields()]
    keys = sorted({key for h in log.hints for key in (*h["requested"], *h["effective"])})
    columns = names + [column for key in keys for column in (key, f"requested:{key}")]
    rows = []
    for op in log.ops:
        hints = log.hints_for(op)
        row = [op[name] for name in names]
        for key in keys:
            if hints is None:
                row += ["", ""]
            else:
                row += [hints["effective"].get(key, ""), hints["requested"].get(key, "")]
        rows.append(row)
    return columns, rows


def op_csv(log: TraceLog) -> str:
    """The `op` records as CSV text with a header row (see op_table)."""
    columns, rows = op_table(log)
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    # A file name or hint from the log may hold ESC or BEL: each text cell gets the
    # terminal's rule (iotuner._printable), so the CSV holds \x1b, not the raw byte.
    writer.writerow(map(printable, columns))
    writer.writerows([printable(c) if isinstance(c, str) else c for c in row] for row in rows)
    return out.getvalue()
