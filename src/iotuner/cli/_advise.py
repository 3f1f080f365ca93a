"""`iotuner advise`: the recommendation, its evidence and the ways to use it, for one
Darshan log or trace log, with zero runs (iotuner.advise); over many logs, the archive run
and its ranking of programs (iotuner.cli._archive)."""

import argparse
import contextlib
import json
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from iotuner._printable import terminal
from iotuner.cli._common import Subparsers, add_learning_source

if TYPE_CHECKING:
    from rich.console import Console

    from iotuner.advise import Advice, Recommendation

__all__ = ["add_advise"]


def add_advise(subparsers: Subparsers) -> None:
    parser = subparsers.add_parser(
        "advise",
        help="what to change for a program, from a Darshan log or trace log (zero runs); "
        "over a whole archive, which programs to look at first",
        description=(
            "Read a Darshan log (.darshan) or an iotuner trace log (.iotrace.jsonl), describe "
            "each significant group of files as a workload, and say what to change: the "
            "hints `iotuner tune` would choose for it with the trained model (or 'keep the "
            "defaults' when the predicted gain is within the noise), the evidence from the "
            "log, and the lines to apply it with ROMIO_HINTS, Cray's MPICH_MPIIO_HINTS, lfs "
            "setstripe, Open MPI MCA parameters or iotuner's own table. Given several logs, "
            "a directory or --from-list, advise every log (in parallel, resumable with "
            "--results, on Dask with --dask) and rank the programs by the core-hours their "
            "runs spent in I/O, with what the advice could save and their top findings."
        ),
    )
    parser.add_argument(
        "log",
        type=Path,
        nargs="*",
        help="Darshan log or iotuner trace log; several logs or a directory (walked for "
        "*.darshan and *.iotrace.jsonl) advise a whole archive and rank its programs",
    )
    add_learning_source(parser)
    parser.add_argument(
        "--model",
        type=Path,
        default=Path("iotuner-model"),
        help="model directory from `iotuner train` (default ./iotuner-model); without one "
        "advise gives the evidence only",
    )
    parser.add_argument(
        "--table",
        type=Path,
        help="write the tuning table entries the advice uses here (for `iotuner run --mode "
        "tune --table`)",
    )
    parser.add_argument("--json", action="store_true", help="the advice as one JSON object")
    archive = parser.add_argument_group(
        "archives",
        "over many logs: one row per log (a log that cannot be read gives an error row), "
        "then a ranking of programs by the core-hours their runs spent in I/O",
    )
    archive.add_argument(
        "--from-list", type=Path, metavar="FILE", help="advise the logs listed, one path a line"
    )
    archive.add_argument(
        "--jobs",
        type=int,
        metavar="N",
        help="worker processes (default: the CPU count); with --dask, the local cluster's workers",
    )
    archive.add_argument(
        "--results",
        type=Path,
        metavar="FILE.jsonl",
        help="keep one row per log here (fsynced as it comes); a rerun skips the logs "
        "already in it (same path, size and modification time)",
    )
    archive.add_argument(
        "--dask", action="store_true", help="run on Dask (a local cluster unless --scheduler)"
    )
    archive.add_argument(
        "--scheduler", metavar="ADDRESS", help="with --dask: a running scheduler to use"
    )
    archive.add_argument(
        "--html", type=Path, metavar="DIR", help="write the ranking and one page per program here"
    )
    parser.set_defaults(handler=_dispatch)


def _dispatch(args: argparse.Namespace) -> int:
    """One log alone: the single-log advice; anything more (several logs, a directory, a
    list, or an archive option): the archive run (iotuner.cli._archive)."""
    from iotuner.archive import file_kind
    from iotuner.errors import ConfigError

    archive_options = (
        args.from_list or args.jobs is not None or args.results or args.dask or args.scheduler
    ) or args.html
    if not args.log and args.from_list is None:
        raise ConfigError(
            "advise needs a log: give a Darshan log, a trace log, a directory "
            "of logs or --from-list FILE"
        )
    if len(args.log) == 1 and not archive_options and file_kind(args.log[0]) != "directory":
        args.log = args.log[0]
        return _advise(args)
    from iotuner.cli._archive import advise_archive

    return advise_archive(args)


def _advise(args: argparse.Namespace) -> int:
    from iotuner.advise import advise, read_source
    from iotuner.errors import IotunerError
    from iotuner.table import write_table

    source = read_source(args.log)
    predictor = space = summary = system = None
    words = ""
    # With --json, stdout holds the JSON object alone; what advise says goes to stderr.
    with contextlib.redirect_stdout(sys.stderr if args.json else sys.stdout):
        if args.model.is_dir():
            from iotuner.cli._learn import _training_data
            from iotuner.models import load_model

            try:
                data = _training_data(args)
            except IotunerError as exc:
                print(f"advise: no training data to tune from ({exc}): evidence only")
            else:
                predictor = load_model(args.model)
                space, summary, system = data.space, data.frame, data.system
                words = f"model {args.model}, trained on {data.system.host}"
        else:
            print(f"advise: no model at {args.model} (`iotuner train -o DIR`): evidence only")
    advice = advise(
        source,
        predictor,
        space,
        summary,
        table_path=args.table,
        model_words=words,
        system=system,
        search_options=_search_options(args),
    )
    used = {id(e): e for r in advice.recommendations for e in r.entries}
    if args.table is not None:
        # Written also when empty: a valid table that keeps every default, so a table left
        # by an earlier advise is never applied by mistake (write_table is atomic).
        # The model's hints hold on the file system it learned on (advise gives none for
        # files elsewhere): the interposer leaves files on any other untuned.
        fs_type = system.fs_type if system is not None else None
        write_table(args.table, list(used.values()), fs_type=fs_type)
        _write_exports(advice)
        if not used:
            print(
                f"advise: wrote {args.table} with no entries: nothing to apply (every group "
                "keeps the defaults, is not covered or has no prediction)",
                file=sys.stderr,
            )
    if args.json:
        print(json.dumps(advice.to_dict(), indent=2, allow_nan=False))
        return 0
    print_advice(advice, terminal(), args.table)
    return 0


KEEPS_DEFAULTS_FILE = "# iotuner advise: nothing to apply (every group keeps the defaults)\n"
"""An export file when the advice changes nothing: a comment, read as no setting both by
ROMIO's hints file ('#' in column 1) and by the shell."""


def _write_exports(advice: "Advice") -> None:
    """Each export whose commands name a file (advise.EXPORT_FILES), written there: what
    `export ROMIO_HINTS=FILE` and `. FILE` then read (atomic, as the table). Written also
    when nothing applies, as the table is, so a file of an earlier advise is never
    applied by mistake."""
    from iotuner._fileio import atomic_write_text

    texts = {export.mechanism: export.text for export in advice.exports}
    for mechanism, path in advice.export_files.items():
        atomic_write_text(path, texts.get(mechanism, KEEPS_DEFAULTS_FILE))


_LEVEL_STYLE = {"critical": "bold red", "warning": "yellow", "info": "dim"}


def print_findings(advice: "Advice", console: "Console") -> None:
    """The findings, most important first: level, words, the counters they rest on, and
    what to do."""
    from iotuner._printable import markup_safe

    if not advice.findings:
        return
    console.print("[bold]Findings[/bold]")
    for f in advice.findings:
        style = _LEVEL_STYLE.get(f.level, "")
        counters = ", ".join(f"{k} = {v:,.6g}" for k, v in f.counters.items())
        console.print(
            f"  [{style}]{f.level}[/{style}] {markup_safe(f.words)}"
            + (" " + markup_safe(f"[{counters}]") if counters else ""),
            highlight=False,
        )
        if f.action:
            console.print(f"    do: {markup_safe(f.action)}", highlight=False)


def _search_options(args: argparse.Namespace) -> tuple[str, ...]:
    """The options a measurement's `iotuner search` needs to use what advise used: the
    model (when there is one), the knowledge base and the space, as given to advise."""
    options: list[str] = []
    if args.model.is_dir():
        options += ["--model", str(args.model)]
    if args.db:
        options += ["--db", str(args.db)]
    if args.space:
        options += ["--space", str(args.space)]
    return tuple(options)


def print_advice(advice: "Advice", console: "Console", table: Path | None) -> None:
    """The advice on the terminal: the log, its findings and notes, each file group's
    recommendation and evidence, how to apply it and how to measure it."""
    from iotuner._printable import markup_safe

    s = advice.source
    console.print(
        f"[bold]{markup_safe(s.program)}[/bold] with {s.nprocs} processes "
        f"({s.kind} log {markup_safe(str(s.path))}): {len(advice.recommendations)} file group(s) "
        "to advise"
        + (f", {len(advice.summarised)} small ones left out" if advice.summarised else "")
    )
    print_findings(advice, console)
    for note in [*s.notes, *advice.notes]:
        console.print(f"  note: {markup_safe(note)}")
    for r in advice.recommendations:
        _print_recommendation(r, console)
    console.print()
    console.print("[bold]How to apply it[/bold]")
    if not advice.exports:
        console.print(
            "  nothing to apply: every group keeps the defaults, lies outside what the "
            "knowledge base covers or has no prediction, so no hint file, variable or stripe "
            "command would change anything"
        )
        _print_measure(advice, console)
        return
    _print_exports(advice, console)
    if advice.run_command:
        console.print(f"  with the interposer: {markup_safe(advice.run_command)}")
        if table is None:
            console.print(
                "    (add --table TABLE.jsonl to write the table it reads, and beside it the "
                "ROMIO hints and MCA files the lines above name)"
            )
    else:
        console.print(
            "  with the interposer: iotuner run --mode tune --table TABLE.jsonl -- followed by "
            f"the job's launch line ({markup_safe(advice.source.command.words)})"
        )
    _print_measure(advice, console)


def _print_recommendation(r: "Recommendation", console: "Console") -> None:
    """One file group: what it is, the recommendation, its evidence and code advice."""
    from iotuner._printable import markup_safe
    from iotuner.advise import gain_words

    g = r.group
    w = g.workload
    rate = f", {g.bandwidth:.1f} MiB/s" if g.bandwidth else ""
    console.print()
    console.print(
        f"[bold]{markup_safe(g.name)}[/bold] ({g.files} file(s), {g.op}, "
        f"{g.bytes / 2**20:.1f} MiB{rate}): {w.pattern}, {w.layout}, "
        f"{w.bytes_per_rank:,} bytes per rank per call"
    )
    if r.hints:
        hints = " ".join(f"{k}={v}" for k, v in sorted(r.hints.items()))
        gain = gain_words(r)
        console.print(
            f"  recommendation: {markup_safe(hints)}"
            + (f"; gain over the default {markup_safe(gain)}" if gain else "")
        )
    elif r.choice is not None:
        console.print(
            f"  recommendation: keep the defaults ({markup_safe(r.reason)}; gain of the "
            f"best other configuration {markup_safe(gain_words(r) or 'none')})"
        )
    else:
        console.print(f"  recommendation: none ({markup_safe(r.reason)})")
    for e in g.evidence:
        counter = markup_safe(e.counter)
        console.print(f"  evidence: {markup_safe(e.words)} [{counter} = {e.value}]")
    for words in r.code_advice:
        console.print(f"  in the code (no hint does this): {markup_safe(words)}")


def _print_exports(advice: "Advice", console: "Console") -> None:
    """Each way to apply the advice: where it was written, how to use it, its lines, and
    what it kept and dropped."""
    from iotuner._printable import markup_safe

    for export in advice.exports:
        written = advice.export_files.get(export.mechanism)
        console.print(
            f"  {export.mechanism}:"
            + (f" (written to {markup_safe(str(written))})" if written is not None else "")
        )
        for line in export.usage:
            console.print(f"    {markup_safe(line)}")
        if export.text and export.mechanism != "iotuner":
            for line in export.text.splitlines():
                console.print(f"      {markup_safe(line)}")
        for line in export.kept:
            console.print(f"    kept: {markup_safe(line)}")
        # Drops for the same reason are one line with their count (`--json` keeps each).
        for line in export.dropped_summary():
            console.print(f"    dropped: {markup_safe(line)}")


def _print_measure(advice: "Advice", console: "Console") -> None:
    """The two-run measurement, or why there is none that would run as printed."""
    from iotuner._printable import markup_safe

    command = advice.measure_command
    if command is None:
        console.print(f"  to measure: no command to print ({markup_safe(advice.measure_words)})")
        return
    console.print(f"  to measure (two trials): {markup_safe(command)}", soft_wrap=True)
    console.print(f"    ({markup_safe(advice.measure_words)})")
