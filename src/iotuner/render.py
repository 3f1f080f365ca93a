"""Rendering of a LogSummary on a terminal with rich (`iotuner show`)."""

from rich.console import Console
from rich.table import Table

from iotuner._printable import markup_safe
from iotuner._tables import print_table, whole
from iotuner._units import format_size
from iotuner.summary import FileSummary, HintSetSummary, LogSummary, mpi_name

__all__ = ["format_size", "print_summary"]


def print_summary(summary: LogSummary, console: Console) -> None:
    """Print the job line, one section per file, then the log's warnings."""
    console.print(_job_line(summary.job))
    for file in summary.files:
        _print_file(file, console)
    if summary.warnings:
        console.print()
        console.print("[bold]Warnings[/]")
        for warning in summary.warnings:
            console.print(f"[yellow]⚠ {markup_safe(warning)}[/]")


def _job_line(job: dict[str, object]) -> str:
    line = (
        f"[bold]{markup_safe(str(job['program']))}[/]: {job['nprocs']} processes "
        f"({job['nodes']} node{'' if job['nodes'] == 1 else 's'} x {job['ranks_per_node']} "
        f"ranks/node) on "
        f"{markup_safe(str(job['host']))}, mode {job['mode']}"
    )
    if "tune" in str(job["mode"]).split(","):
        line += f" (table {markup_safe(str(job['table']))}, policy {job['policy']})"
    return f"{line}, {markup_safe(mpi_name(str(job['mpi_library'])))}"


def _print_file(file: FileSummary, console: Console) -> None:
    console.print()
    console.rule(f"[bold]{markup_safe(file.file)}[/]", align="left")
    console.print(f"read {format_size(file.bytes_read)}, written {format_size(file.bytes_written)}")
    if not file.reduced:
        console.print(
            "[yellow]⚠ not closed before MPI_Finalize: rank 0's bytes only, no rows of its calls[/]"
        )
    for pattern in file.patterns:
        # A key without a value (null: e.g. no stride when no rank made two accesses) is
        # left out: "stride_min=None" is Python's word, not the log's.
        fields = " ".join(
            f"{key}={_json_word(value)}" for key, value in pattern.items() if value is not None
        )
        console.print(f"pattern: {markup_safe(fields)}")
    if file.operations:
        table = Table(
            "operation", "calls (all ranks)", "bytes", "time (s)", "MiB/s", "one call's shape"
        )
        for op in file.operations:
            # "~": the time of short calls is estimated from a timed sample of them.
            mark = "~" if op.estimated else ""
            table.add_row(
                markup_safe(op.operation),
                whole(str(op.calls)),
                whole(format_size(op.bytes)),
                whole(f"{mark}{op.duration:.6f}" + (f" ±{op.error:.6f}" if op.error > 0 else "")),
                whole(f"{mark}{op.bandwidth:.2f}"),
                markup_safe(op.shape),
            )
        print_table(console, [(table, None)])
        if any(op.estimated for op in file.operations):
            console.print(
                "~ estimated: of these short calls only a sample was timed, ± its 90 % "
                "interval (formats/README.md)"
            )
    for hint_set in file.hint_sets:
        print_table(console, [(_hints_table(hint_set), None)])
        if hint_set.untuned:
            console.print(f"[yellow]untuned: {markup_safe(hint_set.untuned)}[/]")
    for case in file.untuned:
        console.print(f"[yellow]no table entry for {markup_safe(case)}: no access hints there[/]")


def _hints_table(hint_set: HintSetSummary) -> Table:
    title = f"hints #{hint_set.seq} at {hint_set.at} (t={hint_set.time_stamp:.3f} s"
    title += f", driver {hint_set.driver})" if hint_set.driver else ")"
    table = Table(
        "key", "requested", "effective", "note", title=markup_safe(title), title_justify="left"
    )
    for row in hint_set.rows:
        note = f"[yellow]⚠ unhonoured: {markup_safe(row.unhonoured)}[/]" if row.unhonoured else ""
        table.add_row(
            markup_safe(row.key),
            "-" if row.requested is None else markup_safe(row.requested),
            "-" if row.effective is None else markup_safe(row.effective),
            note,
        )
    return table


def _json_word(value: object) -> str:
    """A pattern value as JSON spells it (true, not True)."""
    return str(value).lower() if isinstance(value, bool) else str(value)
