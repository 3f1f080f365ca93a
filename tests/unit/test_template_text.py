"""The words of every page template, checked as prose (issue 42).

The report's pages are read by people: a misspelt word, a word twice, a sentence run into
the next are defects of the page. Each template's own text (tags, expressions, styles and
code left out, a block tag's line end and the blanks before it removed as the environment's
trim_blocks and lstrip_blocks do) must
have a space after each sentence, no word twice in a row, and only words of an English
dictionary (pyspellchecker's) or of the vocabulary below. The text of both branches of a
condition is read at once here, so what only a rendered page shows ("enable.The default
ranks", "1 other reasons") is checked on rendered pages (tests/integration/test_report.py).
"""

import html
import re
from pathlib import Path

import pytest
from spellchecker import SpellChecker

import iotuner.report

TEMPLATES = Path(iotuner.report.__file__).parent / "templates"
PAGES = sorted(p for p in TEMPLATES.glob("*.j2") if not p.name.endswith(".css.j2"))

VOCABULARY = {
    # names of tools, libraries, people and formats
    "iotuner", "darshan", "kunkel", "sctuner", "romio", "ompio", "lustre", "optuna",
    # British spellings, the house style
    "honoured", "unhonoured", "neighbouring", "normalised",
}  # fmt: skip


def prose(template: str) -> str:
    """The text a template puts on the page around its values (each value as X, each tag
    as |)."""
    text = re.sub(r"\{#.*?#\}", "", template, flags=re.S)
    text = re.sub(r"<(style|script|pre|code)\b.*?</\1>", " ", text, flags=re.S)
    text = re.sub(r"^[ \t]+(?=\{%)", "", text, flags=re.M)  # lstrip_blocks
    text = re.sub(r"%\}\n", "%}", text)  # trim_blocks
    text = re.sub(r"\{%.*?%\}", "", text, flags=re.S)
    text = re.sub(r"\{\{.*?\}\}", "X", text, flags=re.S)
    return html.unescape(re.sub(r"<[^>]+>", " | ", text))  # a tag ends a run of words


_ELSE_TO_ENDIF = re.compile(
    r"\{%-?\s*(?:elif|else)\b[^%]*%\}(?:(?!\{%-?\s*if\b).)*?(\{%-?\s*endif\s*-?%\})", re.S
)


def first_branches(template: str) -> str:
    """The template with each condition's first branch only (its elif and else branches
    left out, innermost first): the text a page shows when every condition holds."""
    while (shorter := _ELSE_TO_ENDIF.sub(r"\1", template)) != template:
        template = shorter
    return template


def run_on_sentences(text: str) -> list[str]:
    return [
        text[max(0, m.start() - 30) : m.end() + 10] for m in re.finditer(r"[.;:][A-Z][a-z]", text)
    ]


@pytest.mark.parametrize("page", PAGES, ids=lambda p: p.name)
def test_a_template_s_text_is_prose(page: Path) -> None:
    text = prose(page.read_text())
    run_on = run_on_sentences(text) + run_on_sentences(prose(first_branches(page.read_text())))
    assert run_on == [], "a sentence runs into the next"
    twice = [m.group(0) for m in re.finditer(r"\b(?!X\b)([A-Za-z]+)\s+\1\b", text)]
    assert twice == [], "a word twice"
    words = {w.lower() for w in re.findall(r"[A-Za-z][a-z]+", text) if len(w) > 2}
    unknown = SpellChecker().unknown(words) - VOCABULARY
    assert not unknown, f"not English (or add to VOCABULARY): {sorted(unknown)}"


@pytest.mark.parametrize("page", PAGES, ids=lambda p: p.name)
def test_a_count_takes_its_noun_s_number(page: Path) -> None:
    """Was: "(1 of 1 logs)" on a program's page. A value before a plural noun is written
    `n|counted("log")`, which says "1 log" and "2 logs"; core-hours are a measure, not a
    count, and "X is" is a verb."""
    text = prose(first_branches(page.read_text()))
    plural = {m.group(1) for m in re.finditer(r"\bX ([a-z-]+s)\b", text)} - {"is", "core-hours"}
    assert plural == set(), "a count before a plural noun: use the counted filter"


def test_the_check_finds_what_it_looks_for() -> None:
    """The defects of issue 42, put back, are found."""
    joined = prose("Consistently bad: {{ bad }}.{% endif %}\n{% if d %}The default ranks")
    assert re.search(r"[.;:][A-Z][a-z]", joined)
    # Was (CI): a blank before the next block tag, which lstrip_blocks removes, after an
    # elif branch that ends in a tag of its own.
    indented = (
        "{% if good %}Consistently bad: {{ bad }}.{% elif w %}<span>{{ w }}</span>{% endif %}\n"
        " {% if d %}The default ranks"
    )
    assert run_on_sentences(prose(first_branches(indented)))
    assert SpellChecker().unknown({"reasns"}) == {"reasns"}
    assert re.search(r"\bX ([a-z-]+s)\b", prose("({{ a }} of {{ n }} logs)"))
