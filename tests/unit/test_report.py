"""`iotuner report` without MPI: sections present only with their inputs, every string from
the inputs escaped, and clear errors for missing, invalid or no inputs."""

import base64
import dataclasses
import json
import re
from pathlib import Path

import optuna
import pytest
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure

from iotuner.cli import main
from iotuner.errors import ConfigError, IotunerError
from iotuner.report import SECTION_IDS, ReportInputs, build_pages, build_report, write_report
from iotuner.report._plots import MIN_TICKS, ratio_axis
from iotuner.report._programs import page_file
from iotuner.tune import Choice, choice_note, note_figures

HOSTILE = '<script>alert("x")</script><img src=x onerror=alert(1)>'
"""Text from the inputs that would run as markup if it were not escaped."""
TIMES, DASH = "\u00d7", "\u2013"
"""The page's multiplication sign (gains) and en dash (ranges)."""


def section_ids(html: str) -> set[str]:
    return set(re.findall(r'<section id="([a-z]+)"', html)) & set(SECTION_IDS)


def embedded_pngs(html: str) -> list[bytes]:
    return [base64.b64decode(m) for m in re.findall(r'src="data:image/png;base64,([^"]+)"', html)]


def write_table(path: Path, entries: list[dict[str, object]]) -> Path:
    lines = [json.dumps({"format": "iotuner-table", "version": 1})]
    lines += [json.dumps(e) for e in entries]
    path.write_text("\n".join(lines) + "\n")
    return path


def choice(predicted: float, default: float, kept: bool = False) -> Choice:
    return Choice(
        nprocs=2,
        group=30,
        pattern="collective",
        op="write",
        layout="strided",
        config={},
        hints={},
        kept_default=kept,
        predicted=predicted,
        low=predicted * 0.8,
        high=predicted * 1.25,
        default_predicted=default,
        default_low=default * 0.8,
        reason="lower bound beats the default's upper bound",
    )


def test_nothing_to_report() -> None:
    with pytest.raises(ConfigError, match="nothing to report"):
        build_report(ReportInputs())


def test_the_cli_says_nothing_to_report(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["report", "-o", str(tmp_path / "r.html")]) == 2
    assert "nothing to report" in capsys.readouterr().err
    assert not (tmp_path / "r.html").exists()


@pytest.mark.parametrize(
    ("inputs", "message"),
    [
        (ReportInputs(table=Path("/no/such/table.jsonl")), "--table /no/such/table.jsonl"),
        (ReportInputs(db="/no/such/kb.sqlite"), "no such knowledge base"),
        (ReportInputs(model=Path("/no/such/model")), "--model /no/such/model"),
        (ReportInputs(studies=("s",)), "--study needs --storage"),
        (ReportInputs(default_log=Path("/tmp")), "go together"),
        (ReportInputs(system="abc", table=Path("t")), "give --db"),
        (ReportInputs(logs=(Path("/no/such.iotrace.jsonl"),)), "--logs /no/such"),
        (ReportInputs(storage="/no/such/optuna.db"), "no such file"),
    ],
)
def test_missing_inputs_are_named(inputs: ReportInputs, message: str) -> None:
    with pytest.raises(ConfigError, match=re.escape(message)):
        build_report(inputs)


def test_invalid_inputs_say_why(tmp_path: Path, sample_log: Path) -> None:
    refused = tmp_path / "refused.jsonl"
    refused.write_text('{"format": "something-else"}\n')
    with pytest.raises(ConfigError, match="refused"):
        build_report(ReportInputs(table=refused))
    record = tmp_path / "record.json"
    record.write_text('{"format": "not-a-search"}')
    with pytest.raises(ConfigError, match="iotuner search --json"):
        build_report(ReportInputs(search_record=record))
    not_a_log = tmp_path / "x.iotrace.jsonl"
    not_a_log.write_text("not json\n")
    with pytest.raises(IotunerError):
        build_report(ReportInputs(logs=(not_a_log,)))
    not_a_model = tmp_path / "model"
    not_a_model.mkdir()
    with pytest.raises(IotunerError, match="model"):
        build_report(ReportInputs(model=not_a_model))
    empty_storage = tmp_path / "empty.db"
    optuna.create_study(storage=f"sqlite:///{empty_storage}", study_name="x")
    with pytest.raises(ConfigError, match="no study 'y'"):
        build_report(ReportInputs(storage=str(empty_storage), studies=("y",)))


def test_only_the_sections_given(sample_log: Path, sample_table: Path) -> None:
    assert section_ids(build_report(ReportInputs(table=sample_table))) == {"table"}
    assert section_ids(build_report(ReportInputs(logs=(sample_log,)))) == {"programs"}
    both = build_report(ReportInputs(table=sample_table, logs=(sample_log,)))
    assert section_ids(both) == {"table", "programs"}
    # No heading of an absent section, and none of its words.
    assert "The system" not in both and "Re-measured" not in both


def test_traced_run_shows_hints_unhonoured_keys_and_groups(sample_log: Path) -> None:
    pages = build_pages(
        ReportInputs(logs=(sample_log,), default_log=sample_log, tuned_log=sample_log), "r.html"
    )
    index, program = pages.pop("r.html"), pages
    (name, html), *others = program.items()
    assert others == [] and f'href="{name}"' in index and 'href="r.html"' in html
    assert "striping_factor" in html and "the ufs driver does not stripe" in html
    assert "Default against tuned" in html
    assert "write, group 35" in html
    pngs = embedded_pngs(html)
    assert len(pngs) == 2  # the comparison and the log's bandwidth per size group
    assert all(png.startswith(b"\x89PNG\r\n\x1a\n") for png in pngs)


def test_every_string_from_the_inputs_is_escaped(tmp_path: Path) -> None:
    note = choice_note(choice(180.0, 60.0)).replace("lower bound", HOSTILE)
    table = write_table(
        tmp_path / "t.jsonl",
        [
            {
                "at": "access",
                "program": HOSTILE,
                "nprocs": 2,
                "group": 30,
                "pattern": "collective",
                "op": "write",
                "layout": "strided",
                "hints": {"romio_cb_write": "disable"},
                "note": note,
            },
            {"at": "open", "hints": {"cb_nodes": "2"}, "note": HOSTILE},
        ],
    )
    html = build_report(ReportInputs(table=table))
    assert "<script" not in html
    assert "&lt;script&gt;alert(&#34;x&#34;)&lt;/script&gt;" in html
    assert "<img src=x" not in html


def test_table_shows_gain_interval_and_kept_defaults(tmp_path: Path) -> None:
    table = write_table(
        tmp_path / "t.jsonl",
        [
            {"at": "access", "nprocs": 2, "group": 30, "pattern": "collective", "op": "write",
             "layout": "strided", "hints": {"romio_cb_write": "disable"},
             "note": choice_note(choice(180.0, 60.0))},
            {"at": "access", "nprocs": 2, "group": 31, "pattern": "collective", "op": "write",
             "layout": "contiguous", "hints": {}, "note": choice_note(choice(400.0, 400.0, True))},
        ],
    )  # fmt: skip
    html = build_report(ReportInputs(table=table))
    # 180 / 60 is the ratio of two raw predictions, neither measured nor calibrated: the
    # gain is unknown, and the ratio (x3.00, [x2.40, x3.75]) is printed nowhere.
    assert "3.00" not in html and "2.40" not in html and "3.75" not in html
    assert '<td class="n">unknown</td>' in html
    assert "keep the defaults" in html
    assert not embedded_pngs(html)  # no earned gain to draw
    calibrated = dataclasses.replace(
        choice(180.0, 60.0), gain=1.3, gain_interval=(1.1, 1.6), gain_basis="calibrated"
    )
    table = write_table(
        tmp_path / "c.jsonl",
        [{"at": "access", "nprocs": 2, "group": 30, "pattern": "collective", "op": "write",
          "layout": "strided", "hints": {"romio_cb_write": "disable"},
          "note": choice_note(calibrated)}],
    )  # fmt: skip
    html = build_report(ReportInputs(table=table))
    assert '<td class="n">x1.30 [x1.10-x1.60]</td><td>calibrated</td>' in html
    assert len(embedded_pngs(html)) == 1


def test_size_groups_with_the_same_choice_are_one_range(tmp_path: Path, sample_log: Path) -> None:
    # What tune writes: one entry per size group, most of them keeping the defaults. The
    # report (as `iotuner report` makes it) shows a range per run of the same choice, on
    # the index and on the page of the program traced at that scale (ior, 4 ranks).
    def entry(group: int, hints: dict[str, str]) -> dict[str, object]:
        kept = not hints
        return {"at": "access", "nprocs": 4, "group": group, "pattern": "collective",
                "op": "write", "layout": "strided", "hints": hints,
                "note": choice_note(choice(60.0 if kept else 180.0, 60.0, kept))}  # fmt: skip

    disable = {"romio_cb_write": "disable"}
    groups = [*(entry(g, {}) for g in range(20, 30)), entry(30, disable), entry(31, disable),
              entry(32, {})]  # fmt: skip
    table = write_table(tmp_path / "t.jsonl", groups)
    page = tmp_path / "report.html"
    assert main(["report", "--table", str(table), "--logs", str(sample_log), "-o", str(page)]) == 0
    index = page.read_text()
    (program,) = tmp_path.glob("report.*.html")
    for html in (index, program.read_text()):
        rows = re.findall(r"<tr( class=\"kept\")?><td>at access, 4 ranks[^<]*</td><td>([^<]*)</td>"
                          r"<td>([^<]*)</td>", html)  # fmt: skip
        assert [(sizes.endswith("(10 entries)"), choice) for _, sizes, choice in rows] == [
            (True, "keep the defaults"),
            (False, "romio_cb_write=disable"),
            (False, "keep the defaults"),
        ], rows
        assert "(2 entries)" in rows[1][1]


def test_the_printed_gain_is_the_one_its_interval_goes_with(tmp_path: Path) -> None:
    # The model's prediction sat on the lower edge of its own band (214 in [214, 268]
    # against 100: "x2.14, interval x2.14-x2.68"), while the case's measurements, on which
    # the choice rests, say x1.25 in [1.10, 1.60]: the report prints the measured pair.
    measured = dataclasses.replace(
        choice(214.0, 100.0), low=214.0, high=268.0, gain=1.25, gain_interval=(1.10, 1.60),
        gain_basis="measured",
    )  # fmt: skip
    figures = note_figures(choice_note(measured))
    assert figures is not None and figures.basis == "measured"
    assert figures.gain_low < figures.gain < figures.gain_high
    table = write_table(
        tmp_path / "t.jsonl",
        [{"at": "access", "nprocs": 2, "group": 30, "pattern": "collective", "op": "write",
          "layout": "strided", "hints": {"romio_cb_write": "disable"},
          "note": choice_note(measured)}],
    )  # fmt: skip
    page = tmp_path / "report.html"
    assert main(["report", "--table", str(table), "-o", str(page)]) == 0
    html = page.read_text()
    assert "x1.25 [x1.10-x1.60]</td><td>measured</td>" in html
    assert "2.14" not in html


@pytest.mark.parametrize(("low", "high"), [(0.95, 1.3), (0.7, 3.0), (0.5, 40.0), (1.0, 1.02)])
def test_a_gain_axis_has_several_labelled_ticks(low: float, high: float) -> None:
    figure = Figure()
    FigureCanvasAgg(figure)
    axes = figure.add_subplot()
    axes.plot([low, high], [0, 1])
    ratio_axis(axes, low, high)
    figure.canvas.draw()
    left, right = axes.get_xlim()
    labels = [
        t.get_text()
        for t in axes.get_xticklabels()
        if t.get_text() and left <= t.get_position()[0] <= right
    ]
    assert len(labels) >= MIN_TICKS, labels
    assert all(label.startswith(TIMES) for label in labels)


def test_note_figures_read_what_tune_writes() -> None:
    figures = note_figures(choice_note(choice(180.0, 60.0)))
    assert figures is not None
    assert (figures.predicted, figures.low, figures.high, figures.default) == (
        180.0,
        144.0,
        225.0,
        60.0,
    )
    assert figures.gain == pytest.approx(3.0)
    assert figures.reason == "lower bound beats the default's upper bound"
    assert note_figures("hand-written") is None
    assert note_figures(None) is None


def test_search_section_from_studies_and_a_record(tmp_path: Path) -> None:
    storage = f"sqlite:///{tmp_path / 'optuna.db'}"
    for name, values in (("a-random-0123456789", [3, 1, 5, 4]), ("b-tpe-seed1-abcdef0123", [2, 6])):
        study = optuna.create_study(storage=storage, study_name=name, direction="maximize")
        for value in values:
            trial = study.ask()
            trial.suggest_categorical("romio_cb_write", ["enable", "disable"])
            study.tell(trial, value)
    record = tmp_path / "search.json"
    record.write_text(
        json.dumps(
            {
                "format": "iotuner-search-result",
                "study": "b-tpe-seed1-abcdef0123",
                "strategy": "tpe",
                "objective": "bandwidth",
                "remeasured": [
                    {"config": {}, "is_default": True, "search_value": 2.0,
                     "values": [2.0, 2.1, 1.9], "failures": [], "median": 2.0, "spread": 0.1},
                    {"config": {"romio_cb_write": "disable"}, "is_default": False,
                     "search_value": 6.0, "values": [5.8, 6.1, 6.0], "failures": [],
                     "median": 6.0, "spread": 0.05},
                ],
                "verdict": {"config": {"romio_cb_write": "disable"}, "significant": True,
                            "p_value": 0.05, "level": 0.05, "ratio": 3.0,
                            "message": f"the winner is significantly better {HOSTILE}"},
                "winner": {"config": {"romio_cb_write": "disable"}},
                "winner_reason": "significant",
            }
        )
    )  # fmt: skip
    html = build_report(ReportInputs(storage=str(tmp_path / "optuna.db"), search_record=record))
    assert section_ids(html) == {"search"}
    assert "random: study a-random-0123456789" in html
    assert "tpe: study b-tpe-seed1-abcdef0123" in html
    assert "4 trials measured" in html and "Best: 5." in html
    assert "romio_cb_write=disable" in html and f"5.8 {DASH} 6.1" in html
    assert "&lt;script&gt;" in html and "<script" not in html
    assert len(embedded_pngs(html)) == 1  # the convergence plot
    only_b = build_report(
        ReportInputs(storage=str(tmp_path / "optuna.db"), studies=("b-tpe-seed1-abcdef0123",))
    )
    assert "a-random-0123456789" not in only_b and "Re-measured" not in only_b


def test_write_report_writes_the_page(tmp_path: Path, sample_table: Path) -> None:
    path = write_report(tmp_path / "r.html", ReportInputs(table=sample_table))
    text = path.read_text()
    assert text.startswith("<!DOCTYPE html>") and 'id="table"' in text
    assert "http://" not in text and "https://" not in text  # nothing fetched when viewed
    with pytest.raises(ConfigError, match="does not exist"):
        write_report(tmp_path / "no" / "r.html", ReportInputs(table=sample_table))


def test_search_section_from_a_record_alone(tmp_path: Path) -> None:
    """An offline search kept in memory: its record's trials give the convergence."""
    record = tmp_path / "search.json"
    trials = [
        {"number": 0, "config": {"romio_cb_write": "enable"}, "value": 2.0, "failed": False},
        {"number": 1, "config": {"romio_cb_write": "disable"}, "value": None, "failed": True},
        {"number": 2, "config": {"romio_cb_write": "disable"}, "value": 7.0, "failed": False},
    ]
    record.write_text(
        json.dumps(
            {"format": "iotuner-search-result", "study": "mem-grid-0123456789", "strategy": "grid",
             "objective": "bandwidth", "direction": "maximize", "trials": trials,
             "remeasured": [], "verdict": None, "winner": None, "winner_reason": ""}
        )
    )  # fmt: skip
    html = build_report(ReportInputs(search_record=record))
    assert section_ids(html) == {"search"}
    assert "grid: study mem-grid-0123456789" in html
    assert "3 trials measured (1 failed)" in html and "Best: 7." in html
    assert "Nothing was re-measured" in html
    assert len(embedded_pngs(html)) == 1


def test_a_program_page_is_named_safely_beside_the_index() -> None:
    taken: set[str] = set()
    assert page_file("report.html", "iokernel", taken) == "report.iokernel.html"
    # A program's name is untrusted text: no folder, no control character, no clash.
    assert page_file("report.html", "../../x\x1b]0;y", taken) == "report._.._x_0_y.html"
    assert page_file("report.html", "iokernel", taken) == "report.iokernel-2.html"
    assert page_file("r.html", "..", taken) == "r.program.html"


def test_tune_and_the_report_print_one_gain_for_a_table(tmp_path: Path) -> None:
    """What `tune` prints for its choices and what the report shows for the table it
    wrote give the same gain string: the calibrated one, and "unknown" for a choice with
    only the ratio of two predictions (x3.00 here, which is printed nowhere as a gain)."""
    import io

    from rich.console import Console

    from iotuner.tune import TuneResult, render_choices

    calibrated = dataclasses.replace(
        choice(180.0, 60.0), gain=1.3, gain_interval=(1.1, 1.6), gain_basis="calibrated"
    )
    raw = dataclasses.replace(choice(180.0, 60.0), group=31, layout="contiguous")
    chosen = [
        dataclasses.replace(c, hints={"romio_cb_write": "disable"}) for c in (calibrated, raw)
    ]
    console = Console(file=io.StringIO(), width=300)
    render_choices(TuneResult([], chosen, 0.05), console)
    printed = console.file.getvalue()  # type: ignore[attr-defined]
    table = write_table(
        tmp_path / "t.jsonl",
        [{"at": "access", "nprocs": 2, "group": c.group, "pattern": "collective", "op": "write",
          "layout": c.layout, "hints": c.hints, "note": choice_note(c)} for c in chosen],
    )  # fmt: skip
    html = build_report(ReportInputs(table=table))
    assert "x1.30 [x1.10-x1.60] calibrated" in printed
    assert '<td class="n">x1.30 [x1.10-x1.60]</td><td>calibrated</td>' in html
    assert "unknown" in printed and '<td class="n">unknown</td>' in html
    assert "3.00" not in printed and "3.00" not in html


def test_a_program_page_flags_runs_that_missed_the_promised_gain(
    tmp_path: Path, sample_log: Path
) -> None:
    """The default and the tuned run (here one log given as both: x1.00 measured) against
    the table's calibrated x1.10-x1.60 for the program: the page says the runs missed it."""
    promised = dataclasses.replace(
        choice(180.0, 60.0), gain=1.3, gain_interval=(1.1, 1.6), gain_basis="calibrated"
    )
    table = write_table(
        tmp_path / "t.jsonl",
        [{"at": "access", "program": "ior", "nprocs": 4, "group": 30, "pattern": "collective",
          "op": "write", "layout": "strided", "hints": {"romio_cb_write": "disable"},
          "note": choice_note(promised)}],
    )  # fmt: skip
    page = tmp_path / "report.html"
    argv = ["report", "--table", str(table), "--default-log", str(sample_log)]
    assert main([*argv, "--tuned-log", str(sample_log), "-o", str(page)]) == 0
    (program,) = tmp_path.glob("report.*.html")
    html = program.read_text()
    assert "(gain x1.00 measured)" in html
    assert "missed the gain the table" in html
    assert "measured x1.00, below the x1.10-x1.60 promised" in html
