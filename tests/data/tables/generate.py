"""Writes the tables of the corpus that are not committed: bytes an editor or git would not
keep as they are (NUL, invalid UTF-8, a BOM, lone carriage returns, form feeds), files
too large to commit sensibly (a 5 MB table, 70 KB lines, 100000 nested brackets), and
tables derived from formats/hints.def, so they follow the vocabulary (every key with a
good value, the boundaries of its values, keys read only at open in access entries).

    python tests/data/tables/generate.py OUTDIR
    python tests/data/tables/generate.py --fuzz-seeds OUTDIR

--fuzz-seeds writes the seeds of `make fuzz-run` instead: every table of the corpus
(committed and generated) and, for the small ones, inputs for the fuzz target's other
modes (interposer/tools/table_fuzz.c): each line alone behind the byte 0x01 (the JSON
parser), the whole table behind 0x02 and a count (allocations failing).

Like the committed files, each file says what both readers must do with it: a comment
`# expect: VERDICT` (ok or a rule of formats/table_rules.def) before an entry line, or
`# expect-refused: RULE` for a table refused whole. Sizes follow formats/limits.def.
"""

import json
import sys
from pathlib import Path

from iotuner.formats import HintDef, hint_vocabulary, limits

HEADER = b'{"format": "iotuner-table", "version": 1}'


def _expect(verdict: str, line: bytes, why: str = "") -> bytes:
    comment = f"# {why}\n".encode() if why else b""
    return comment + f"# expect: {verdict}\n".encode() + line + b"\n"


def _entry(note: str | bytes) -> bytes:
    """An entry line with this note, written raw (bytes) or JSON-encoded (str)."""
    raw = note if isinstance(note, bytes) else json.dumps(note, ensure_ascii=False).encode()
    return b'{"note": ' + raw + b', "hints": {}}'


def _spaced(size: int) -> bytes:
    """An accepted entry line of exactly `size` bytes, most of them JSON white space."""
    return b'{"hints": {}' + b" " * (size - 13) + b"}"


def _padded(prefix: bytes, size: int) -> bytes:
    """prefix, then one comment line that makes the file exactly `size` bytes long."""
    return prefix + b"#" + b"p" * (size - len(prefix) - 2) + b"\n"


def _hints(at: str, hints: dict[str, object]) -> bytes:
    return json.dumps({"at": at, "hints": hints}, ensure_ascii=False).encode()


def _good(hint: HintDef) -> str:
    """A value the key allows."""
    if hint.type == "ENUM":
        return hint.choices[0]
    low = hint.range[0]
    return str(low if low % hint.multiple == 0 else low + hint.multiple - low % hint.multiple)


def _values(hint: HintDef, max_value: int) -> list[tuple[str, object]]:
    """(verdict, value) pairs at and just past the boundaries of a key's values."""
    bad: list[object] = ["", None, True, 1.5, [], {}, "x" * (max_value + 1), "9" * 10000]
    if hint.type == "ENUM":
        good: list[object] = list(hint.choices)
        for word in hint.choices:
            bad += [word + " ", " " + word, word.upper(), word[:-1], word + "\t"]
        bad = [v for v in bad if v not in hint.choices]
    else:
        high = hint.range[1]
        step = hint.multiple
        first, last = int(_good(hint)), high - high % step
        good = [str(first), str(last), first, last]
        bad += [str(first - 1) if first else "-1", str(last + 1), str(last + step), float(first)]
        bad += ["0" + str(first), "+" + str(first), " " + str(first), str(first) + " "]
        bad += [str(first) + ".0", str(first) + "k", hex(first), -first if first else -1]
        bad += [str(2**64), str(10**19 - 1), 2**64]
        if step > 1 and first + step <= high:
            good.append(str(first + step))
            bad.append(str(first + step // 2))
    return [("ok", v) for v in good] + [("hint_value", v) for v in bad]


def _vocabulary_tables(max_value: int) -> dict[str, bytes]:
    """Tables derived from formats/hints.def, so they follow the vocabulary: every key with
    a good value wherever it may be, the boundaries of its values, and keys read only at
    open in access entries."""
    vocabulary = hint_vocabulary()
    anywhere = [h for h in vocabulary.values() if h.when != "OPEN"]
    every, bounds, when = [HEADER], [HEADER], [HEADER]
    for hint in vocabulary.values():
        places = ("open",) if hint.when == "OPEN" else ("open", "access")
        every += [_expect("ok", _hints(at, {hint.key: _good(hint)})) for at in places]
        for verdict, value in _values(hint, max_value):
            bounds.append(_expect(verdict, _hints(places[-1], {hint.key: value})))
        if hint.when == "OPEN":
            also = {anywhere[0].key: _good(anywhere[0])} if anywhere else {}
            when.append(_expect("hint_when", _hints("access", {hint.key: _good(hint)})))
            default = json.dumps({"hints": {hint.key: _good(hint)}}).encode()
            when.append(_expect("hint_when", default, "access is the default"))
            when.append(_expect("hint_when", _hints("access", {**also, hint.key: _good(hint)})))
            when.append(_expect("ok", _hints("open", {**also, hint.key: _good(hint)})))
    every.append(_expect("ok", _hints("open", {h.key: _good(h) for h in vocabulary.values()})))
    every.append(_expect("ok", _hints("access", {h.key: _good(h) for h in anywhere})))
    return {
        "gen-hints-every-key.jsonl": b"\n".join(every) + b"\n",
        "gen-hints-boundaries.jsonl": b"\n".join(bounds) + b"\n",
        "gen-hints-open-only.jsonl": b"\n".join(when) + b"\n",
    }


def tables() -> dict[str, bytes]:
    """The generated tables by file name."""
    lim = limits()
    max_line, max_bytes = lim["TABLE_MAX_LINE_BYTES"], lim["TABLE_MAX_BYTES"]
    max_text, max_value = lim["TEXT_MAX_CHARS"], lim["HINT_VALUE_MAX_CHARS"]
    depth = lim["JSON_MAX_DEPTH"]
    ok_entry = b'{"hints": {"romio_cb_read": "enable"}}'
    out: dict[str, bytes] = {}

    out["gen-nul-bytes.jsonl"] = b"\n".join(
        [
            HEADER,
            _expect("json", b'{"note": "a\x00b", "hints": {}}', "a raw NUL in a string"),
            _expect("json", b'\x00{"hints": {}}'),
            _expect("json", b'{"hints": {}}\x00'),
            _expect("json", b"\x00"),
            _expect("json", b'{"hints": {"romio_cb_write": "enable\x00"}}'),
            b"#\x00 a comment may hold anything",
            _expect("ok", ok_entry),
        ]
    )
    out["gen-nul-in-header.jsonl"] = HEADER + b"\x00\n# expect-refused: header\n" + ok_entry
    out["gen-nul-only.jsonl"] = b"\x00" * 100 + b"\n# expect-refused: header\n"

    bad_utf8 = [
        b"caf\xe9",  # Latin-1
        b"\x80",  # a continuation byte alone
        b"\xc0\xaf",  # overlong '/'
        b"\xc1\xbf",
        b"\xe0\x80\xaf",  # overlong, three bytes
        b"\xf0\x80\x80\xaf",  # overlong, four bytes
        b"\xed\xa0\x80",  # an encoded surrogate
        b"\xed\xbf\xbf",
        b"\xf4\x90\x80\x80",  # above U+10FFFF
        b"\xf5\x80\x80\x80",
        b"\xf8\x88\x80\x80\x80",  # five bytes
        b"\xfc\x84\x80\x80\x80\x80",
        b"\xfe",
        b"\xff",
        b"\xe2\x82",  # cut short
        b"\xe2\x82x",
        b"\xc3",
    ]
    out["gen-invalid-utf8.jsonl"] = b"\n".join(
        [
            HEADER,
            *[_expect("encoding", _entry(b'"' + bad + b'"')) for bad in bad_utf8],
            _expect("encoding", b"\xa0", "a Latin-1 no-break space is not blank"),
            _expect("encoding", b'{"hints": {}}\xe2\x82', "cut short at the end of the line"),
            _expect("encoding", b'{"hints": {"cb_nodes": "\xff"}}'),
            _expect("encoding", b'{"hints": {"\xff": "1"}}'),
            _expect("encoding", b'{"x\xff": 1}'),
            _expect("encoding", b"[" * 100 + b"\xff", "before json"),
            _expect("json", b"\xc2\xa0", "a UTF-8 no-break space is not blank"),
            _expect("json", b'{"hints": {}}\xc3\xa9', "valid UTF-8 outside a string"),
            _expect("json", b'\xef\xbb\xbf{"hints": {}}', "a byte order mark on an entry line"),
            b"# a comment may hold \xff\xfe any bytes",
            _expect("ok", _entry(b'"\xf0\x9f\x98\x80 \xef\xbf\xbf \xf4\x8f\xbf\xbf \xc2\x80"')),
        ]
    )
    out["gen-invalid-utf8-header.jsonl"] = (
        b'{"format": "iotuner-table", "version": 1, "x": "\xff"}\n# expect-refused: header\n'
    )
    out["gen-invalid-utf8-at-end.jsonl"] = (
        HEADER + b"\n" + _expect("ok", ok_entry) + _expect("encoding", b'{"note": "\xe2\x82')[:-1]
    )
    out["gen-bom-header.jsonl"] = (
        b"\xef\xbb\xbf" + HEADER + b"\n# expect-refused: header\n" + ok_entry + b"\n"
    )
    out["gen-crlf.jsonl"] = b"\r\n".join(
        [
            HEADER,
            b"# expect: ok",
            ok_entry,
            b"",
            b"# comment",
            b"# expect: ok",
            b'{"at": "open", "hints": {"cb_nodes": "2"}}',
            b"# expect: hint_when",
            b'{"hints": {"cb_nodes": "2"}}',
            b"",
        ]
    )
    out["gen-cr-alone.jsonl"] = b"\n".join(
        [
            HEADER,
            _expect(
                "json", b'{"hints": {}}\r{"nprocs": 2, "hints": {}}', "\\r does not end a line"
            ),
            b"\r",
            b"\r\r\r",
            _expect("ok", ok_entry + b"\r\r"),
            _expect("ok", b'\r{"hints": {}}'),
            _expect("ok", b'{"hints":\r{}\r}'),
        ]
    )
    out["gen-cr-separated.jsonl"] = (
        HEADER + b'\r{"hints": {}}\r{"hints": {}}\r\n# expect-refused: header\n'
    )
    out["gen-line-separators.jsonl"] = b"\n".join(
        [
            HEADER,
            b"# str.splitlines() would end a line at each of these; the readers end one at \\n.",
            _expect("ok", _entry("a\u2028b\u2029c\u0085d")),
            _expect("ok", _entry("\u2028"), "only U+2028 in the note"),
            _expect("json", _entry(b'"a\x0cb"'), "a raw form feed in a string"),
            _expect("json", ok_entry + b"\x0c", "a form feed is no JSON white space"),
            _expect("json", b"\x0c" + ok_entry),
            _expect("json", b"\x0b" + ok_entry),
            _expect("json", _entry(b'"\x1c\x1d\x1e"')),
            _expect("json", ok_entry + "\u2028".encode()),
            _expect("json", ok_entry + "\u0085".encode()),
            _expect("json", b"\x0c"),
            _expect("json", "\u2028".encode(), "not blank"),
            _expect("ok", b'{"nprocs": 3, "hints": {}}', "line numbers still agree"),
        ]
    )

    at_limit = _spaced(max_line)
    over = _spaced(max_line + 1)
    big_note = _entry("x" * 70 * 1024)
    out["gen-long-lines.jsonl"] = b"\n".join(
        [
            HEADER,
            _expect("ok", at_limit, "exactly TABLE_MAX_LINE_BYTES"),
            _expect("line_too_long", over, "one byte more"),
            _expect("ok", _spaced(max_line - 1) + b"\r", "a \\r counts"),
            _expect("line_too_long", at_limit + b"\r"),
            _expect("line_too_long", big_note, "70 KB"),
            _expect("line_too_long", b"[" * (max_line + 1), "before json"),
            _expect("line_too_long", big_note[:-1] + b", x", "before json"),
            _expect("encoding", big_note[:100] + b"\xff" + big_note[100:], "before line_too_long"),
            b"#" + b"c" * 70 * 1024,
            b" " * 70 * 1024,
            _expect("ok", b'{"nprocs": 5, "hints": {}}'),
        ]
    )

    prefix = HEADER + b"\n" + _expect("ok", ok_entry)
    out["gen-at-max-bytes.jsonl"] = _padded(prefix, max_bytes)
    out["gen-one-byte-too-large.jsonl"] = _padded(
        HEADER + b"\n# expect-refused: too_large\n", max_bytes + 1
    )
    out["gen-5mb.jsonl"] = (
        HEADER
        + b"\n# expect-refused: too_large\n"
        + (_entry("y" * 1000) + b"\n") * (5 * 1024 * 1024 // 1000)
    )

    deep_object = b'{"a": ' * 100000 + b"1" + b"}" * 100000
    out["gen-deep.jsonl"] = b"\n".join(
        [
            HEADER,
            _expect("line_too_long", b"[" * 100000, "100000 brackets are too long first"),
            _expect("json", b"[" * (max_line - 1)),
            _expect("json", b"[" * 10000 + b"]" * 10000),
            _expect("json", deep_object[:60000] + b"}" * 100),
            _expect("json", b'{"x": ' + b"[" * depth + b"]" * depth + b', "hints": {}}'),
            _expect("ok", _entry("[" * 4000 + "{" * 96)),
        ]
    )
    out["gen-deep-header.jsonl"] = (
        b'{"format": "iotuner-table", "version": 1, "x": '
        + b"[" * 1000
        + b"]" * 1000
        + b"}\n# expect-refused: header\n"
    )

    digits = "7" * 5000

    def number(raw: str, key: str = "nprocs") -> bytes:
        return b'{"' + key.encode() + b'": ' + raw.encode() + b', "hints": {}}'

    def hint(raw: str, key: str) -> bytes:
        return b'{"at": "open", "hints": {"' + key.encode() + b'": ' + raw.encode() + b"}}"

    # An integer hint value is its decimal text; past 19 digits it is out of every range
    # (Python reads at most 30 characters as a number, the C reader any number).
    digit_text = "cb_buffer_size"
    out["gen-big-numbers.jsonl"] = b"\n".join(
        [
            HEADER,
            _expect("field_value", number(digits), "5000 digits"),
            _expect("field_value", number("-" + digits)),
            _expect("field_value", number(digits, "group")),
            _expect("field_value", number("1." + "0" * 5000)),
            _expect("field_value", number("1e" + "9" * 5000)),
            _expect("field_value", number("1e-" + "9" * 5000)),
            _expect("field_value", number("1e400")),
            _expect("field_value", number("-1e400")),
            _expect("field_value", number("-0")),
            _expect("field_value", number("-0", "group")),
            _expect("hint_value", hint(digits, "cb_buffer_size")),
            _expect("hint_value", hint(digits, digit_text)),
            _expect("hint_value", hint("-" + digits, digit_text)),
            _expect("hint_value", hint("1e400", "cb_nodes")),
            _expect("hint_value", hint("9" * 19, digit_text), "an integer is its decimal text"),
            _expect("hint_value", hint("9" * 20, digit_text)),
            _expect("hint_value", hint("9" * 30, digit_text), "the longest integer read: 30 chars"),
            _expect("hint_value", hint("-" + "9" * 29, digit_text)),
            _expect("hint_value", hint("9" * 31, digit_text), "longer ones are out of range"),
            _expect("hint_value", hint("-" + "9" * 30, digit_text)),
            _expect("hint_value", hint("9" * 32, digit_text)),
            _expect("hint_value", hint("9" * 33, digit_text)),
            _expect("hint_value", hint('"' + "9" * 31 + '"', digit_text), "as a string it is text"),
            _expect("hint_value", hint("18446744073709551616", "striping_factor")),
            _expect("hint_value", hint("9" * 19, "striping_unit")),
            _expect("unknown_field", b'{"x": [' + digits.encode() + b'], "hints": {}}'),
            _expect("ok", b'{"note": "' + digits[:4000].encode() + b'", "hints": {}}'),
        ]
    )

    def text_field(key: str, value: str) -> bytes:
        return json.dumps({key: value, "hints": {}}, ensure_ascii=False).encode()

    e_acute = "\u00e9"  # two bytes of UTF-8
    smile = "\U0001f600"  # four bytes of UTF-8
    out["gen-text-limits.jsonl"] = b"\n".join(
        [
            HEADER,
            _expect("ok", text_field("program", "p" * max_text), "TEXT_MAX_CHARS bytes"),
            _expect("field_value", text_field("program", "p" * (max_text + 1)), "one more"),
            _expect("ok", text_field("file", "*" * max_text)),
            _expect("field_value", text_field("file", "*" * (max_text + 1))),
            _expect("ok", text_field("note", "n" * max_text)),
            _expect("field_value", text_field("note", "n" * (max_text + 1))),
            _expect("ok", text_field("program", e_acute * (max_text // 2)), "counted in bytes"),
            _expect("field_value", text_field("program", e_acute * (max_text // 2 + 1))),
            _expect("ok", text_field("file", smile * (max_text // 4))),
            _expect("field_value", text_field("file", smile * (max_text // 4) + "x")),
            _expect(
                "ok",
                json.dumps({"program": e_acute * (max_text // 2), "hints": {}}).encode(),
                "escaped, counted once decoded",
            ),
            _expect(
                "field_value",
                json.dumps({"program": e_acute * (max_text // 2 + 1), "hints": {}}).encode(),
            ),
        ]
    )

    out.update(_vocabulary_tables(max_value))

    lines = [HEADER]
    kinds = [
        ("ok", b'{"nprocs": %d, "hints": {"romio_cb_write": "enable"}}'),
        ("hint_when", b'{"nprocs": %d, "hints": {"cb_nodes": "2"}}'),
        ("ok", b'{"at": "open", "nprocs": %d, "hints": {"cb_nodes": "2"}}'),
        ("field_value", b'{"group": %d, "hints": {}}'),
        ("json", b'{"nprocs": %d, "hints": {}'),
    ]
    for i in range(1, 3001):
        verdict, line = kinds[i % len(kinds)]
        lines.append(_expect(verdict, line % (i + 56))[:-1])
        if i % 7 == 0:
            lines.append(b"")
    out["gen-many-lines.jsonl"] = b"\n".join(lines) + b"\n"
    out["gen-only-newlines.jsonl"] = b"\n# expect-refused: header\n\n\n"
    return out


def generate(directory: Path) -> list[Path]:
    """Write the generated tables into `directory` (made when missing); their paths."""
    directory.mkdir(parents=True, exist_ok=True)
    paths = []
    for name, data in tables().items():
        path = directory / name
        path.write_bytes(data)
        paths.append(path)
    return paths


def fuzz_seeds(directory: Path) -> list[Path]:
    """Write the seeds of the fuzz target into `directory`; their paths."""
    paths = generate(directory)
    for table in sorted(Path(__file__).parent.glob("*.jsonl")):
        paths.append(directory / table.name)
        paths[-1].write_bytes(table.read_bytes())
    for path in list(paths):
        data = path.read_bytes()
        if len(data) > 4096:
            continue
        for number, line in enumerate(data.split(b"\n"), start=1):
            if line and not line.startswith(b"#"):
                paths.append(directory / f"json-{number}-{path.name}")
                paths[-1].write_bytes(b"\x01" + line)
        for fail_from in (1, 3, 7, 20):
            paths.append(directory / f"alloc-{fail_from}-{path.name}")
            paths[-1].write_bytes(b"\x02" + bytes([fail_from - 1]) + data)
    return paths


if __name__ == "__main__":
    args = sys.argv[1:]
    make = fuzz_seeds if args[:1] == ["--fuzz-seeds"] else generate
    if len(args) != (2 if make is fuzz_seeds else 1):
        sys.exit("usage: generate.py [--fuzz-seeds] OUTDIR")
    for path in make(Path(args[-1])):
        print(path)
