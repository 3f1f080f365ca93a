"""`iotuner export` (issue 12, item 3): each mechanism's text checked against its grammar as
documented, what is kept and dropped and why, selection, and the command line.

The grammars, written here from the documents (not from the code under test):

* ROMIO_HINTS: ROMIO's adio/common/system_hints.c (file_to_info) and the ROMIO Users
  Guide, "Systemwide Hints": lines split at '\\n'; a line whose first character is '#' is
  a comment; otherwise its tokens split at blanks and tabs, and only a line of exactly two
  (key, value) sets a hint.
* MPICH_MPIIO_HINTS: NERSC's MPI-IO documentation for Cray MPICH
  (`*:romio_cb_write=enable:romio_ds_write=disable`) and comma-separated specs of several
  patterns as WRF run scripts use them: spec(,spec)*, spec = pattern(:key=value)+.
* lfs setstripe: lfs-setstripe(1) (lustre-release Documentation/man1/lfs-setstripe.1):
  `lfs setstripe [-c N] [-S SIZE] [-i IDX] TARGET` or `lfs setstripe -E END [options]
  ... TARGET`, SIZE and END in bytes or with a k/M/G suffix, END -1 for end of file.
* Open MPI: `--mca NAME VALUE` on mpiexec, `OMPI_MCA_NAME=VALUE` in the environment.
"""

import itertools
import json
import re
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

from iotuner.cli import main
from iotuner.errors import ConfigError
from iotuner.hint_exports import (
    KEEPS_DEFAULTS,
    MECHANISMS,
    PFL_STRIPES_PER_TARGET,
    Dropped,
    Export,
    export_entries,
)
from iotuner.table import TableEntry, read_table
from iotuner.tune import Choice, choice_note, note_gain

# ------------------------------------------------------------------ grammars


def romio_hints_file(text: str) -> dict[str, str]:
    """The hints ROMIO takes from a ROMIO_HINTS file; fails on a line it would skip."""
    hints = {}
    for line in text.split("\n"):
        if not line or line.startswith("#"):
            continue
        tokens = [t for t in re.split(r"[ \t]", line) if t]
        assert len(tokens) == 2, f"ROMIO skips this line (not key value): {line!r}"
        hints[tokens[0]] = tokens[1]
    return hints


_CRAY_WORD = r"[^:,=\s]+"
_CRAY_SPEC = rf"{_CRAY_WORD}(?::{_CRAY_WORD}={_CRAY_WORD})+"
CRAY_VALUE = re.compile(rf"^{_CRAY_SPEC}(?:,{_CRAY_SPEC})*$")


def cray_specs(value: str) -> list[tuple[str, dict[str, str]]]:
    """MPICH_MPIIO_HINTS as (pattern, hints) in order; fails when the grammar does not hold."""
    assert CRAY_VALUE.match(value), f"not spec(,spec)*: {value!r}"
    specs = []
    for spec in value.split(","):
        pattern, *pairs = spec.split(":")
        specs.append((pattern, dict(pair.split("=") for pair in pairs)))
    return specs


_LFS_SIZE = re.compile(r"^([0-9]+)([kMG]?)$")


def lfs_bytes(word: str) -> int:
    found = _LFS_SIZE.match(word)
    assert found, f"not a size lfs takes: {word!r}"
    return int(found.group(1)) * {"": 1, "k": 1 << 10, "M": 1 << 20, "G": 1 << 30}[found.group(2)]


def lfs_setstripe(command: str) -> tuple[list[dict[str, int]], str]:
    """The components (`end` -1 for end of file, `count`, `size`, `index`) and the target
    of one `lfs setstripe` command; fails on anything lfs-setstripe(1) does not take."""
    words = shlex.split(command)
    assert words[:2] == ["lfs", "setstripe"], command
    *options, target = words[2:]
    components: list[dict[str, int]] = []
    current: dict[str, int] = {}
    names = {"-c": "count", "-S": "size", "-i": "index"}
    it = iter(options)
    for option in it:
        value = next(it)
        if option == "-E":
            if current or components:
                components.append(current)
            current = {"end": -1 if value == "-1" else lfs_bytes(value)}
        else:
            assert option in names, f"option lfs setstripe does not take here: {option}"
            current[names[option]] = lfs_bytes(value) if option == "-S" else int(value)
    components.append(current)
    composite = "end" in components[0]
    if composite:
        assert all("end" in c for c in components)
        assert components[-1]["end"] == -1, "the last component must run to end of file"
        ends = [c["end"] for c in components[:-1]]
        assert ends == sorted(ends) and len(set(ends)) == len(ends)
        for component, following in itertools.pairwise(components):
            for size in (component.get("size"), following.get("size")):
                assert size is None or component["end"] % size == 0
    return components, target


MCA_EXPORT_LINE = re.compile(r"^export OMPI_MCA_([a-z0-9_]+)=(\S+)$")


def mca_command_line(line: str) -> dict[str, str]:
    words = shlex.split(line)
    assert words[0] == "mpiexec"
    found = {}
    for index, word in enumerate(words):
        if word == "--mca":
            found[words[index + 1]] = words[index + 2]
    return found


# ------------------------------------------------------------------ a table like tune's


def note(predicted: float, default: float) -> str:
    """A note as tune writes it (the band is made up: note_gain does not read it)."""
    band = f"[{predicted * 0.8:.1f}, {predicted * 1.2:.1f}]"
    return f"predicted {predicted:.1f} MiB/s {band} vs default {default:.1f}; best lower bound"


TABLE = [
    TableEntry(
        at="open",
        nprocs=4,
        hints={"cb_nodes": "1", "cb_config_list": "*:1", "striping_factor": "4"},
        note="open-only hints with the most predicted gain at this scale",
        line=2,
    ),
    TableEntry(
        at="open", nprocs=64, hints={"striping_factor": "16", "striping_unit": 4194304}, line=3
    ),
    TableEntry(
        at="open",
        program="ls1-*",
        file="ckpt-*",
        hints={"striping_factor": "8", "striping_unit": "1048576"},
        line=4,
    ),
    TableEntry(
        nprocs=4,
        group=35,
        pattern="collective",
        op="write",
        layout="strided",
        hints={"romio_cb_write": "disable", "cb_buffer_size": "1048576"},
        note=note(300, 100),
        line=5,
    ),
    TableEntry(
        nprocs=4,
        group=30,
        pattern="collective",
        op="write",
        layout="contiguous",
        hints={"romio_cb_write": "enable"},
        note=note(150, 100),
        line=6,
    ),
    TableEntry(at="view", nprocs=4, layout="strided", hints={"romio_ds_write": "disable"}, line=7),
    TableEntry(
        nprocs=4, group=20, pattern="collective", op="read", layout="contiguous", hints={}, line=8
    ),
]


def write_table_file(path: Path, entries: list[TableEntry]) -> Path:
    lines = [json.dumps({"format": "iotuner-table", "version": 1})]
    lines += [json.dumps(e.to_json()) for e in entries]
    path.write_text("\n".join(lines) + "\n")
    return path


def said(sentences: list[str], *words: str) -> bool:
    return any(all(w in s for w in words) for s in sentences)


# ------------------------------------------------------------------ the note contract


def test_note_gain_reads_back_what_choice_note_writes() -> None:
    choice = Choice(
        nprocs=4, group=35, pattern="collective", op="write", layout="strided",
        config={}, hints={}, kept_default=False, predicted=312.34, low=250.0, high=380.9,
        default_predicted=104.12, default_low=90.0, reason="best lower bound",
    )  # fmt: skip
    gain = note_gain(choice_note(choice))
    assert gain == pytest.approx(312.3 / 104.1)
    assert gain == pytest.approx(choice.predicted / choice.default_predicted, rel=1e-3)


@pytest.mark.parametrize(
    "text",
    [
        None,
        "",
        "search winner of 30 trials",
        "open-only hints with the most predicted gain at this scale (summed log gain +1.2)",
        "predicted 10.0 MiB/s [8.0, 12.0] vs default 0.0; a default predicted at zero",
    ],
)
def test_notes_without_a_single_prediction_state_no_gain(text: str | None) -> None:
    assert note_gain(text) is None


# ------------------------------------------------------------------ mechanisms


def test_romio_hints_is_one_configuration_ROMIO_reads_line_by_line() -> None:
    export = export_entries(TABLE, "romio-hints", nprocs=4, output=Path("/jobs/romio-hints"))
    hints = romio_hints_file(export.text)
    # The open keys from the scale's open entry, the rest from the access entry with the
    # highest predicted gain (x3 over x1.5).
    assert hints == {
        "cb_nodes": "1",
        "cb_config_list": "*:1",
        "striping_factor": "4",
        "romio_cb_write": "disable",
        "cb_buffer_size": "1048576",
    }
    assert export.usage == ["export ROMIO_HINTS=/jobs/romio-hints"]
    assert said(export.kept, "line 5", "x3.00")
    assert said(export.dropped, "line 6", "one configuration")
    assert said(export.dropped, "line 7", "one configuration")
    assert said(export.dropped, "line 8", "keeps the default")
    assert said(export.dropped, "line 3", "does not apply to nprocs=4")
    assert said(export.dropped, "line 4", "--program")


def test_romio_hints_drop_what_ROMIO_cannot_read() -> None:
    entries = [
        TableEntry(at="open", hints={"collective_buffering": "true", "cb_nodes": "2"}, line=2),
        TableEntry(hints={"romio_cb_read": "en able"}, line=3),  # not from a valid table
    ]
    export = export_entries(entries, "romio-hints")
    assert romio_hints_file(export.text) == {"cb_nodes": "2"}
    assert said(export.dropped, "collective_buffering", "OMPIO")
    assert said(export.dropped, "romio_cb_read", "blanks and tabs")


def test_cray_has_a_spec_per_file_pattern_and_star_for_the_rest() -> None:
    export = export_entries(TABLE, "cray", program="ls1-md", nprocs=4)
    specs = cray_specs(export.text.strip())
    patterns = [p for p, _ in specs]
    # A base-name glob becomes the glob (a bare name) and */glob (a path); '*' last.
    assert patterns == ["ckpt-*", "*/ckpt-*", "*"]
    ckpt = dict(specs)["ckpt-*"]
    assert ckpt == {
        "striping_factor": "8",
        "striping_unit": "1048576",
        "romio_cb_write": "disable",
        "cb_buffer_size": "1048576",
    }
    # The '*' spec holds only what every file spec agrees on, whichever spec Cray applies.
    assert dict(specs)["*"] == {"romio_cb_write": "disable", "cb_buffer_size": "1048576"}
    assert said(export.dropped, "cb_config_list=*:1", "':'")
    assert said(export.dropped, "cb_nodes=1", "left out of the '*' spec")
    assert export.usage[0] == f"export MPICH_MPIIO_HINTS={shlex.quote(export.text.strip())}"


def test_cray_without_file_globs_is_one_star_spec() -> None:
    export = export_entries(TABLE, "cray", nprocs=4)
    assert cray_specs(export.text.strip()) == [
        ("*", {"cb_nodes": "1", "striping_factor": "4", "romio_cb_write": "disable",
               "cb_buffer_size": "1048576"}),
    ]  # fmt: skip


def test_cray_refuses_values_its_grammar_cannot_hold() -> None:
    entries = [TableEntry(hints={"romio_cb_write": "a,b", "romio_ds_write": "x=y"}, line=2)]
    export = export_entries(entries, "cray")
    assert export.text == "" and export.usage == []
    assert said(export.dropped, "romio_cb_write=a,b")
    assert said(export.dropped, "romio_ds_write=x=y")


def test_lfs_plain_layout_from_the_best_open_entry() -> None:
    export = export_entries(TABLE, "lfs", nprocs=64, target="/scratch/me/out")
    components, target = lfs_setstripe(export.text.strip())
    assert components == [{"count": 16, "size": 4 << 20}]
    assert target == "/scratch/me/out"
    assert export.usage[1] == "lfs getstripe -d /scratch/me/out"
    assert "-S 4M" in export.text


def test_lfs_progressive_layout_when_the_table_stripes_scales_differently() -> None:
    export = export_entries(TABLE, "lfs")
    components, _ = lfs_setstripe(export.text.strip())
    # nprocs 4 (4 targets, default stripe size) first, nprocs 64 (16 x 4 MiB) to the end.
    assert [(c.get("count"), c.get("size")) for c in components] == [(4, None), (16, 4 << 20)]
    assert components[0]["end"] == 4 * (4 << 20) * PFL_STRIPES_PER_TARGET
    assert said(export.kept, "line 2", "progressive") and said(export.kept, "line 3", "progressive")
    assert said(export.dropped, "without striping keys", "romio_cb_write")


def test_lfs_progressive_layout_when_asked_starts_on_one_target() -> None:
    export = export_entries(TABLE, "lfs", program="ls1-md", file="ckpt-1", nprocs=8, pfl=True)
    components, _ = lfs_setstripe(export.text.strip())
    assert components == [
        {"end": 1 * (1 << 20) * PFL_STRIPES_PER_TARGET, "count": 1, "size": 1 << 20},
        {"end": -1, "count": 8, "size": 1 << 20},
    ]


def test_mca_puts_the_keys_in_ompio_s_job_wide_parameters() -> None:
    export = export_entries(TABLE, "mca", nprocs=4, output=Path("/jobs/mca.sh"))
    exported = dict(MCA_EXPORT_LINE.match(line).groups() for line in export.text.splitlines())  # type: ignore[union-attr]
    assert exported == {
        "io_ompio_num_aggregators": "1",
        "fs_lustre_stripe_width": "4",
        "fcoll": "individual",  # romio_cb_write=disable: collective buffering off
        "io_ompio_bytes_per_agg": "1048576",
    }
    assert mca_command_line(export.usage[0]) == exported
    assert export.usage[1] == ". /jobs/mca.sh"
    assert said(export.dropped, "cb_config_list", "no equivalent")
    assert said(export.kept, "fcoll=individual", "reads and writes")


def test_mca_never_forces_collective_buffering_on() -> None:
    entries = [
        TableEntry(hints={"romio_cb_write": "enable", "romio_ds_write": "disable"}, line=2),
        TableEntry(at="open", hints={"collective_buffering": "true"}, line=3),
    ]
    export = export_entries(entries, "mca")
    assert "vulcan" not in export.text and export.text == ""
    assert said(export.dropped, "romio_cb_write=enable", "unsafe", "ompio_job.def")
    assert said(export.dropped, "romio_ds_write", "no equivalent")
    assert said(export.dropped, "collective_buffering", "Open MPI 4")


def test_iotuner_writes_the_selected_entries_as_a_table(tmp_path: Path) -> None:
    export = export_entries(TABLE, "iotuner", nprocs=4)
    path = tmp_path / "selected.jsonl"
    path.write_text(export.text)
    selected = read_table(path)
    assert [e.to_json() for e in selected] == [e.to_json() for e in TABLE if e.nprocs in (None, 4)]
    assert said(export.dropped, "line 3", "does not apply")


# ------------------------------------------------------------------ selection and ranking


def test_entries_without_a_gain_rank_by_specificity_then_line() -> None:
    entries = [
        TableEntry(hints={"romio_cb_write": "enable"}, line=2),
        TableEntry(nprocs=2, hints={"romio_cb_write": "disable"}, line=3),
        TableEntry(nprocs=2, hints={"romio_ds_write": "disable"}, line=4),
    ]
    export = export_entries(entries, "romio-hints", nprocs=2)
    assert romio_hints_file(export.text) == {"romio_cb_write": "disable"}
    assert said(export.kept, "line 3", "most specific")
    # A stated gain beats any specificity.
    entries.append(TableEntry(hints={"romio_ds_write": "enable"}, note=note(20, 10), line=5))
    export = export_entries(entries, "romio-hints", nprocs=2)
    assert romio_hints_file(export.text) == {"romio_ds_write": "enable"}


def test_selection_by_program_and_file_as_the_interposer_matches() -> None:
    export = export_entries(TABLE, "iotuner", program="/opt/bin/ls1-md", file="/scratch/ckpt-7")
    assert "ckpt-*" in export.text
    export = export_entries(TABLE, "iotuner", program="lammps", file="/scratch/ckpt-7")
    assert "ckpt-*" not in export.text
    assert said(export.dropped, "line 4", "does not apply to program=lammps")


def test_nothing_that_applies_is_an_error() -> None:
    with pytest.raises(ConfigError, match="no entry of the table applies to nprocs=3"):
        export_entries([TableEntry(nprocs=4, hints={"cb_nodes": "1"})], "romio-hints", nprocs=3)
    with pytest.raises(ConfigError, match="unknown mechanism"):
        export_entries(TABLE, "slurm")
    assert set(MECHANISMS) == {"romio-hints", "cray", "lfs", "mca", "iotuner"}


# ------------------------------------------------------------------ the command line


def iotuner(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [str(Path(sys.executable).parent / "iotuner"), *args],
        capture_output=True, text=True, timeout=120, check=False,
    )  # fmt: skip


def test_cli_json_is_one_object_and_stderr_says_what_was_kept(tmp_path: Path) -> None:
    table = write_table_file(tmp_path / "t.jsonl", TABLE)
    result = iotuner("export", str(table), "--to", "cray", "--nprocs", "4", "--json")
    assert result.returncode == 0, result.stderr
    obj = json.loads(result.stdout)
    assert set(obj) == {"mechanism", "text", "kept", "dropped", "usage", "output"}
    assert obj["mechanism"] == "cray" and obj["output"] is None
    assert cray_specs(obj["text"].strip())
    again = Export(
        **{k: obj[k] for k in ("mechanism", "text", "usage", "kept")},
        drops=[Dropped(sentence) for sentence in obj["dropped"]],
    )
    assert again.dropped == obj["dropped"]
    assert "kept: for every other file (*): line 5" in result.stderr
    assert "dropped: " in result.stderr


def test_cli_counts_the_entries_that_keep_the_defaults_in_one_line(tmp_path: Path) -> None:
    # A tuned table keeps the defaults in most size groups: the README's export must not
    # print a line for each of them, and --verbose must still list every one.
    keeping = [
        TableEntry(nprocs=2, group=g, pattern="collective", op="write", hints={}, line=g)
        for g in range(20, 32)
    ]
    changing = TableEntry(
        nprocs=2, group=35, pattern="collective", op="write", hints={"romio_cb_write": "disable"}
    )
    table = write_table_file(tmp_path / "t.jsonl", [*keeping, changing])
    out = tmp_path / "romio-hints.txt"
    args = ("export", str(table), "--to", "romio-hints", "--nprocs", "2", "-o", str(out))
    result = iotuner(*args)
    assert result.returncode == 0, result.stderr
    assert romio_hints_file(out.read_text()) == {"romio_cb_write": "disable"}
    dropped = [line for line in result.stderr.splitlines() if line.startswith("dropped")]
    assert dropped == [
        f"dropped: 12 {KEEPS_DEFAULTS}",
        "dropped: 12 in all; --verbose lists them",
    ]
    verbose = iotuner(*args, "--verbose")
    listed = [line for line in verbose.stderr.splitlines() if line.startswith("dropped")]
    assert len(listed) == 12
    assert all("keeps the default, nothing to carry" in line for line in listed)


def test_a_drop_of_its_own_is_said_in_full_beside_a_counted_group() -> None:
    export = Export(
        "cray",
        "",
        [],
        [],
        [
            Dropped("line 3: keeps the default", KEEPS_DEFAULTS),
            Dropped("key cb_config_list=*:1 dropped: ':'"),
            Dropped("line 4: keeps the default", KEEPS_DEFAULTS),
            Dropped("line 5: for programs x only", "entries for some programs only"),
        ],
    )
    assert export.dropped_summary() == [
        f"2 {KEEPS_DEFAULTS}",
        "key cb_config_list=*:1 dropped: ':'",
        "line 5: for programs x only",
    ]


def test_cli_writes_the_file_and_prints_how_to_use_it(tmp_path: Path) -> None:
    table = write_table_file(tmp_path / "t.jsonl", TABLE)
    out = tmp_path / "hints"
    result = iotuner("export", str(table), "--to", "romio-hints", "--nprocs", "4", "-o", str(out))
    assert result.returncode == 0, result.stderr
    assert romio_hints_file(out.read_text())["romio_cb_write"] == "disable"
    assert f"export ROMIO_HINTS={out}" in result.stdout
    assert [p.name for p in tmp_path.iterdir() if p.name.startswith(".")] == []
    without = iotuner("export", str(table), "--to", "romio-hints", "--nprocs", "4")
    assert without.stdout == out.read_text()
    assert "export ROMIO_HINTS=" in without.stderr


def test_cli_reports_a_missing_or_invalid_table(tmp_path: Path) -> None:
    missing = iotuner("export", str(tmp_path / "none.jsonl"), "--to", "mca")
    assert missing.returncode == 2
    assert "iotuner: error: " in missing.stderr and "cannot read" in missing.stderr
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"format": "iotuner-table", "version": 1}\n{"hints": {"cb_nodes": "0"}}\n')
    invalid = iotuner("export", str(bad), "--to", "mca")
    assert invalid.returncode == 2 and "line 2 (hint_value)" in invalid.stderr
    table = write_table_file(tmp_path / "t.jsonl", TABLE)
    nothing = iotuner("export", str(table), "--to", "cray", "--nprocs", "3", "--program", "cp2k")
    assert nothing.returncode == 2 and "no entry of the table applies" in nothing.stderr


def test_cli_exits_1_when_the_mechanism_carries_nothing(tmp_path: Path) -> None:
    table = write_table_file(
        tmp_path / "t.jsonl", [TableEntry(hints={"romio_ds_write": "disable"})]
    )
    out = tmp_path / "mca.sh"
    result = iotuner("export", str(table), "--to", "mca", "-o", str(out))
    assert result.returncode == 1
    assert not out.exists()
    assert "romio_ds_write" in result.stderr


def test_cli_exits_0_when_the_table_keeps_the_defaults(tmp_path: Path) -> None:
    # What tune writes when nothing beats the default beyond the noise: an answer, not an
    # error, so a job script may export unconditionally.
    table = write_table_file(
        tmp_path / "t.jsonl",
        [TableEntry(nprocs=2, group=20, pattern="collective", op="write", hints={})],
    )
    out = tmp_path / "hints"
    result = iotuner("export", str(table), "--to", "romio-hints", "-o", str(out))
    assert result.returncode == 0, result.stderr
    assert "keeps the defaults" in result.stderr
    assert not out.exists()


def test_a_program_that_only_writes_gets_no_read_entry(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Issue 31: the README's `export --to romio-hints` picked a read entry (the highest
    predicted gain) for a program that only writes. Given the program's accesses (its
    traces), the entries for accesses it does not make and the keys that cannot act on its
    accesses are dropped."""
    table = [
        TableEntry(
            nprocs=2, group=30, pattern="collective", op="read", line=2,
            hints={"romio_cb_read": "enable"}, note=note(3000.0, 10.0),
        ),
        TableEntry(
            nprocs=2, group=30, pattern="collective", op="write", line=3,
            hints={"romio_cb_write": "enable", "romio_ds_read": "disable"},
            note=note(150.0, 100.0),
        ),
    ]  # fmt: skip
    before = export_entries(table, "romio-hints", nprocs=2)
    assert romio_hints_file(before.text) == {"romio_cb_read": "enable"}
    writes = frozenset({("collective", "write")})
    export = export_entries(table, "romio-hints", nprocs=2, accesses=writes)
    assert romio_hints_file(export.text) == {"romio_cb_write": "enable"}
    dropped = " ".join(export.dropped)
    assert "the program does collective writes (its traces), none of them" in dropped
    assert "key romio_ds_read cannot act" in dropped

    # The command line reads the accesses from the program's trace logs: this IOR run
    # made collective writes and independent reads and writes, no collective read.
    path = tmp_path / "t.jsonl"
    path.write_text(
        "\n".join(
            [json.dumps({"format": "iotuner-table", "version": 1})]
            + [json.dumps(e.to_json()) for e in table]
        )
        + "\n"
    )
    log = Path(__file__).parents[1] / "data" / "ior-20250101-120000-4242-0123456789ab.iotrace.jsonl"
    argv = ["export", str(path), "--to", "romio-hints", "--nprocs", "2", "--logs", str(log)]
    assert main([*argv, "--program", "ior"]) == 0
    assert romio_hints_file(capsys.readouterr().out) == {"romio_cb_write": "enable"}
    assert main([*argv, "--program", "other"]) == 2
    assert "expected trace logs of program other with data accesses" in capsys.readouterr().err
