"""Where the .def files are and how a macro invocation in one is read and checked.

Every reader of the package goes through `invocations`: a .def file holds only blanks, C
comments and invocations of its one macro, whose arguments are integers, words or string
literals; anything else is a FormatError naming the file and line.
"""

import os
import re
from pathlib import Path

from iotuner.errors import FormatError

DEF_FILES = (
    "size_groups.def",
    "trace_op_fields.def",
    "table_fields.def",
    "hints.def",
    "limits.def",
    "table_rules.def",
    "trace_records.def",
    "ompio_map.def",
    "ompio_job.def",
    "hint_scale.def",
)
INT_RANGE = re.compile(r"(-?\d+)-(\d+)?")
"""The value range of an INT table field or of a SIZE or COUNT hint ("1-", "1-56")."""


def formats_dir() -> Path:
    """The directory holding the .def files.

    Looked up in order: $IOTUNER_FORMATS_DIR; `_formats/` inside the iotuner package (an
    installed wheel); the repository's `formats/` two levels above the package (an editable
    install).
    """
    override = os.environ.get("IOTUNER_FORMATS_DIR")
    if override:
        candidates = [Path(override)]
    else:
        package = Path(__file__).resolve().parent.parent
        candidates = [package / "_formats", package.parent.parent / "formats"]
    for directory in candidates:
        if all((directory / name).is_file() for name in DEF_FILES):
            return directory
    tried = ", ".join(str(d) for d in candidates)
    raise FormatError(f"format definitions ({', '.join(DEF_FILES)}) not found; looked in {tried}")


def check_type(path: Path, line: int, name: str, type_: str, known: frozenset[str]) -> None:
    if type_ not in known:
        raise FormatError(
            f"{path} line {line}: type of '{name}' must be one of "
            f"{', '.join(sorted(known))}, got {type_}"
        )


def check_unique(path: Path, names: list[str]) -> None:
    seen = set()
    for name in names:
        if name in seen:
            raise FormatError(f"{path}: '{name}' is defined twice")
        seen.add(name)


# What a .def file may contain: blanks, C comments and macro invocations whose arguments
# are integers, identifiers or string literals (which may hold commas and parentheses).
_SKIP = re.compile(r"\s+|/\*.*?\*/|//[^\n]*", re.S)
_CALL = re.compile(r"(\w+)\s*\(")
_ARG = re.compile(r'\s*(?:"((?:[^"\\\n]|\\.)*)"|(-?\w+(?:\|\w+)*))\s*([,)])')
_WORD_PATTERNS = {"w": r"[A-Za-z_]\w*", "t": r"[A-Za-z_]\w*(\|\w+)*"}
_ARG_KINDS = {
    "i": "an integer",
    "w": "a word",
    "t": "words joined by '|'",
    "s": "a string literal",
}


def invocations(path: Path, macro: str, kinds: str) -> list[tuple[int, list[int | str]]]:
    """The (line, arguments) of every `macro(...)` in `path`, in order.

    `kinds` has one letter per expected argument: i integer, w word, s string literal.
    Anything else in the file (another macro, a preprocessor line) is a FormatError.
    """
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as exc:
        raise FormatError(f"cannot read {path}: {exc.strerror}") from None
    calls: list[tuple[int, list[int | str]]] = []
    pos = 0
    while pos < len(text):
        skipped = _SKIP.match(text, pos)
        if skipped:
            pos = skipped.end()
            continue
        line = text.count("\n", 0, pos) + 1
        call = _CALL.match(text, pos)
        if call is None or call.group(1) != macro:
            raise FormatError(f"{path} line {line}: expected {macro}(...)")
        pos = call.end()
        args: list[int | str] = []
        while True:
            arg = _ARG.match(text, pos)
            kind = kinds[len(args)] if len(args) < len(kinds) else ""
            if arg is None or not kind:
                raise FormatError(
                    f"{path} line {line}: {macro} takes {len(kinds)} arguments "
                    f"({', '.join(_ARG_KINDS[k] for k in kinds)})"
                )
            literal, word, separator = arg.groups()
            if kind == "s" and literal is not None:
                args.append(re.sub(r'\\(["\\])', r"\1", literal))
            elif kind == "i" and word is not None and re.fullmatch(r"-?\d+", word):
                args.append(int(word))
            elif kind in _WORD_PATTERNS and word and re.fullmatch(_WORD_PATTERNS[kind], word):
                args.append(word)
            else:
                raise FormatError(
                    f"{path} line {line}: argument {len(args) + 1} of {macro} must be "
                    f"{_ARG_KINDS[kind]}, got {word if literal is None else repr(literal)}"
                )
            pos = arg.end()
            if separator == ")":
                break
        if len(args) != len(kinds):
            raise FormatError(
                f"{path} line {line}: {macro} takes {len(kinds)} arguments, got {len(args)}"
            )
        calls.append((line, args))
    return calls
