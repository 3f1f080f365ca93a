"""`iotuner report`: self-contained HTML pages of what iotuner learned and did: an index
page and, beside it, one page per program that trace logs were given of.

Sections of the index, each only when its input is given:

* the system (a knowledge base): what was measured, how noisy the repeats are, which
  parameters matter (effect sizes, SCTuner's analysis, Kunkel's trees);
* the model (a model directory): its choice and evaluation figures from model.json, and,
  with a knowledge base, predicted against measured per workload family;
* the tuning table: per case the choice, the predicted gain and interval, kept defaults;
* a search (Optuna studies, and/or the JSON record of `iotuner search --json`):
  convergence per strategy, the best trials, the re-measures and the verdict;
* a Darshan archive (the results file of `iotuner advise DIR --results FILE`): the
  programs ranked by the core-hours their runs spent in I/O and what the advice could
  save, each linking to its page;
* programs (trace logs): one row per program linking to its page (report._programs): its
  runs (requested against effective hints, unhonoured keys, bandwidth per size group),
  default against tuned when both are there, and the table's entries that apply to it.

A program's page holds all the report knows of it: its findings and advice from the
archive, its runs, and the table's entries for it.

The page holds its figures as PNG data URIs and its CSS inline: it needs no network and no
JavaScript to be read. Every string from the inputs goes through Jinja's autoescape.

    html = build_report(ReportInputs(db="kb.sqlite", model=Path("model")))   # the index
    pages = build_pages(ReportInputs(logs=(log,)), "report.html")  # name -> HTML
    write_report(Path("report.html"), ReportInputs(table=Path("table.jsonl")))
"""

from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any

import jinja2
import markupsafe

from iotuner import __version__
from iotuner._fileio import atomic_write_text
from iotuner._lazy import lazy_names
from iotuner._printable import printable
from iotuner._secrets import display_url
from iotuner.errors import ConfigError

if TYPE_CHECKING:
    from iotuner.report._archive import write_archive_pages

__all__ = ["ReportInputs", "build_pages", "build_report", "write_archive_pages", "write_report"]

# write_archive_pages is imported when first used: it needs the archive run's modules
# (iotuner.archive, the Darshan reader), which the report's other pages do not.
__getattr__ = lazy_names(__name__, globals(), {"write_archive_pages": "iotuner.report._archive"})

SECTION_IDS = ("system", "model", "table", "search", "archive", "programs")
"""The id of each section's element, in page order (a test looks them up)."""


@dataclass(frozen=True)
class ReportInputs:
    """What the report is made from; None or empty: that section is left out."""

    # Not in the repr: a URL may hold a password (_secrets); messages use display_url.
    db: str | None = field(default=None, repr=False)
    system: str | None = None
    space: str | None = None
    model: Path | None = None
    storage: str | None = field(default=None, repr=False)
    studies: tuple[str, ...] = ()
    search_record: Path | None = None
    table: Path | None = None
    logs: tuple[Path, ...] = ()
    default_log: Path | None = None
    tuned_log: Path | None = None
    archive: Path | None = None
    """The results file of an archive run (iotuner.archive)."""
    title: str = "iotuner report"
    extra: dict[str, str] = field(default_factory=dict)
    """Further lines for the page's header (e.g. the demo's working directory)."""

    def empty(self) -> bool:
        return not (
            self.db
            or self.model
            or self.storage
            or self.studies
            or self.search_record
            or self.table
            or self.logs
            or self.default_log
            or self.tuned_log
            or self.archive
        )


def _check(inputs: ReportInputs) -> None:
    """Refuse what cannot work before anything is computed, naming the option."""
    if inputs.empty():
        raise ConfigError(
            "nothing to report: give at least one of --db, --model, --storage (with --study), "
            "--search-record, --table, --logs, --default-log with --tuned-log, --archive"
        )
    if inputs.studies and not inputs.storage:
        raise ConfigError("--study needs --storage (the Optuna storage that holds it)")
    if (inputs.default_log is None) != (inputs.tuned_log is None):
        raise ConfigError(
            "--default-log and --tuned-log go together (give a single trace with --logs)"
        )
    if (inputs.system or inputs.space) and not inputs.db:
        raise ConfigError("--system and --space choose within a knowledge base: give --db")
    if inputs.db and "://" not in inputs.db and not Path(inputs.db).is_file():
        # open_store would make a new, empty SQLite file: a typo must not report nothing.
        raise ConfigError(f"--db {display_url(inputs.db)}: no such knowledge base file")
    for option, path in (
        ("--table", inputs.table),
        ("--search-record", inputs.search_record),
        ("--default-log", inputs.default_log),
        ("--tuned-log", inputs.tuned_log),
        ("--archive", inputs.archive),
        *(("--logs", log) for log in inputs.logs),
    ):
        if path is not None and not Path(path).is_file():
            raise ConfigError(f"{option} {path}: no such file")
    if inputs.model is not None and not Path(inputs.model).exists():
        raise ConfigError(f"--model {inputs.model}: no such model directory")


def _environment() -> jinja2.Environment:
    # autoescape=True for every template, not by file name: every string from the inputs
    # (program names, file names, notes, hint values) is untrusted text in the page.
    # finalize: each string shown also gets the terminal's rule for control characters
    # (iotuner._printable), so an ESC or BEL in a name is \x1b in the page, not a raw byte.
    env = jinja2.Environment(
        loader=jinja2.PackageLoader("iotuner.report", "templates"),
        autoescape=True,
        undefined=jinja2.StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
        finalize=_shown,
    )
    env.filters["lines"] = _lines
    env.filters["counted"] = _counted
    return env


def _counted(count: int, singular: str, plural: str = "") -> str:
    """`1 log`, `3 logs`: a count with its noun in the number it takes ("1 logs" was on the
    pages)."""
    return f"{count} {singular if count == 1 else plural or singular + 's'}"


def _shown(value: Any) -> Any:
    """A value as a page shows it: a string with its control characters escaped
    (printable); markup the templates made themselves, and other values, as they are."""
    if isinstance(value, str) and not isinstance(value, markupsafe.Markup):
        return printable(value)
    return value


def _lines(text: str) -> markupsafe.Markup:
    """Multi-line text for a <pre>: each line escaped and made printable, the line breaks
    kept (printable alone would show them as \x0a)."""
    return markupsafe.Markup("\n").join(
        markupsafe.escape(printable(line)) for line in str(text).split("\n")
    )


def _sections(inputs: ReportInputs, index: str) -> dict[str, Any]:
    """Each section's context (None when its input is absent), computed from the inputs;
    `programs` holds the pages (report._programs.ProgramPage) named beside `index`."""
    # Imported here: the plotting and model stack is heavy, and `iotuner --help` should not
    # pay for it.
    from iotuner.archive import read_results
    from iotuner.learn import TrainingData, training_data
    from iotuner.models import load_model
    from iotuner.report._model import model_section
    from iotuner.report._programs import program_pages
    from iotuner.report._search import load_studies, read_search_record, search_section
    from iotuner.report._system import system_section
    from iotuner.report._table import table_section
    from iotuner.store import open_store
    from iotuner.table import check_table
    from iotuner.tracelog import read_tracelog

    sections: dict[str, Any] = dict.fromkeys(SECTION_IDS)
    data: TrainingData | None = None
    if inputs.db:
        store = open_store(inputs.db, make_folder=False)
        try:
            data = training_data(store, system=inputs.system, space=inputs.space)
        finally:
            store.close()
        sections["system"] = system_section(data)
    if inputs.model is not None:
        sections["model"] = model_section(load_model(Path(inputs.model)), data)
    checked = None
    if inputs.table is not None:
        checked = check_table(inputs.table)
        if checked.refused is not None:
            rule, message = checked.refused
            raise ConfigError(f"--table {inputs.table}: refused ({rule}): {message}")
        sections["table"] = table_section(str(inputs.table), checked)
    if inputs.storage or inputs.search_record:
        studies = load_studies(inputs.storage, list(inputs.studies)) if inputs.storage else []
        record = read_search_record(inputs.search_record) if inputs.search_record else None
        sections["search"] = search_section(
            studies, record, str(inputs.search_record) if inputs.search_record else None
        )
    archived: dict[str, dict[str, Any]] = {}
    if inputs.archive is not None:
        from iotuner.report._archive import archive_section

        sections["archive"], archived = archive_section(read_results(inputs.archive))
    if inputs.logs or inputs.default_log or archived:
        sections["programs"] = program_pages(
            index,
            [read_tracelog(path) for path in inputs.logs],
            read_tracelog(inputs.default_log) if inputs.default_log else None,
            read_tracelog(inputs.tuned_log) if inputs.tuned_log else None,
            checked.entries if checked is not None else None,
            archived,
        )
        if sections["archive"] is not None:
            sections["archive"]["pages"] = {p.name: p.file for p in sections["programs"]}
    return sections


def build_pages(inputs: ReportInputs, index: str = "report.html") -> dict[str, str]:
    """The report's pages, file name -> HTML: the index page `index` first, then a page
    per program beside it (named by report._programs.page_file). ConfigError (or the error
    of the input that failed to load, an IotunerError) for missing or invalid inputs, and
    when no input is given."""
    _check(inputs)
    sections = _sections(inputs, index)
    environment = _environment()
    created = datetime.now(UTC).strftime("%Y-%m-%d %H:%M UTC")
    pages = {
        index: environment.get_template("report.html.j2").render(
            title=inputs.title,
            version=__version__,
            created=created,
            extra=inputs.extra,
            inputs=_described_inputs(inputs),
            sections=sections,
            contents=[(sid, _HEADINGS[sid]) for sid in SECTION_IDS if sections[sid] is not None],
        )
    }
    program = environment.get_template("program.html.j2")
    for page in sections["programs"] or []:
        pages[page.file] = program.render(
            title=inputs.title, version=__version__, created=created, index=index, p=page.context
        )
    return pages


def build_report(inputs: ReportInputs) -> str:
    """The index page's HTML (build_pages has the program pages too)."""
    return next(iter(build_pages(inputs).values()))


_HEADINGS = {
    "system": "The system",
    "model": "The model",
    "table": "The tuning table",
    "search": "The search",
    "archive": "A Darshan archive",
    "programs": "Programs",
}


def _described_inputs(inputs: ReportInputs) -> list[tuple[str, str]]:
    given = [
        ("knowledge base", display_url(inputs.db) if inputs.db else None),
        ("system", inputs.system),
        ("space", inputs.space),
        ("model", inputs.model),
        ("Optuna storage", display_url(inputs.storage) if inputs.storage else None),
        ("studies", ", ".join(inputs.studies)),
        ("search record", inputs.search_record),
        ("tuning table", inputs.table),
        ("trace logs", ", ".join(str(p) for p in inputs.logs)),
        ("default trace", inputs.default_log),
        ("tuned trace", inputs.tuned_log),
        ("archive results", inputs.archive),
    ]
    return [(name, str(value)) for name, value in given if value]


def write_report(path: Path, inputs: ReportInputs) -> Path:
    """Write the report's index page to `path` and the program pages beside it (each
    atomically); return `path`."""
    path = Path(path)
    if path.parent != Path() and not path.parent.is_dir():
        raise ConfigError(f"-o {path}: the folder {path.parent} does not exist")
    for name, html in build_pages(inputs, path.name).items():
        atomic_write_text(path.parent / name, html)
    return path
