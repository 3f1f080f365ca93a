"""`iotuner export`: a tuning table's choices in the forms other mechanisms take (issue 12).

Users who cannot preload the interposer set MPI-IO hints with what their system already
has. Each mechanism can say less than a table: a table decides per program, file, scale,
size group, op and layout at run time; these mechanisms fix one configuration for a whole
job (ROMIO_HINTS, Open MPI's MCA parameters), one per file-name pattern (Cray's
MPICH_MPIIO_HINTS) or only a directory's file layout (Lustre's `lfs setstripe`). The
export keeps the most important choice, drops the rest, and says which in sentences.

_selection chooses and ranks the entries and merges one configuration; one module per
mechanism writes its form (_romio, _cray, _lfs, _mca, _iotuner_table), each opening with
its sources; _FORMS below is the one table of mechanisms.
"""

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

from iotuner._choices import EXPORT_MECHANISMS
from iotuner.errors import ConfigError
from iotuner.hint_exports._cray import build_cray
from iotuner.hint_exports._iotuner_table import build_iotuner
from iotuner.hint_exports._lfs import PFL_STRIPES_PER_TARGET, build_lfs
from iotuner.hint_exports._lfs import STRIPING_KEYS as STRIPING_KEYS
from iotuner.hint_exports._mca import build_mca
from iotuner.hint_exports._results import KEEPS_DEFAULTS, Built, Dropped, Export
from iotuner.hint_exports._romio import build_romio
from iotuner.hint_exports._selection import (
    applies,
    describe,
    entries_for_accesses,
    narrower_than_mechanism,
    selection_words,
)
from iotuner.table import TableEntry

__all__ = [
    "KEEPS_DEFAULTS",
    "MECHANISMS",
    "PFL_STRIPES_PER_TARGET",
    "Dropped",
    "Export",
    "entries_for_accesses",
    "export_entries",
]

MECHANISMS: tuple[str, ...] = EXPORT_MECHANISMS
"""The `--to` values of `iotuner export`."""


@dataclass(frozen=True)
class _Form:
    """How one mechanism is written: its builder, and the path the usage lines name when
    no output is given."""

    build: Callable[..., Built]
    placeholder: str


_FORMS: dict[str, _Form] = {
    "romio-hints": _Form(build_romio, "/path/to/romio-hints"),
    "cray": _Form(build_cray, "/path/to/mpich-mpiio-hints"),
    "lfs": _Form(build_lfs, "/path/to/lfs-setstripe.sh"),
    "mca": _Form(build_mca, "/path/to/ompi-mca.sh"),
    "iotuner": _Form(build_iotuner, "/path/to/table.jsonl"),
}


def export_entries(
    entries: Sequence[TableEntry],
    mechanism: str,
    *,
    program: str | None = None,
    nprocs: int | None = None,
    file: str | None = None,
    output: Path | None = None,
    pfl: bool = False,
    target: str | None = None,
    accesses: frozenset[tuple[str, str]] | None = None,
) -> Export:
    """The entries that apply to `program`, `nprocs` and `file` (each when given) in the
    form of `mechanism` (one of MECHANISMS). `output` is where the text will be written
    (for the usage lines; None: a placeholder). For `lfs`, `target` is the directory (or
    file) to set the layout on and `pfl` asks for a progressive file layout. `accesses`,
    the (pattern, op) of every data access the program's traces show (None: unknown),
    drops the entries for accesses it does not make and the keys that cannot act on any
    of its accesses (formats/hints.def's ops), so a program that only writes gets no
    read entry.

    ConfigError for an unknown mechanism or when no entry applies."""
    if mechanism not in MECHANISMS:
        raise ConfigError(
            f"unknown mechanism {mechanism!r}: expected one of {', '.join(MECHANISMS)}"
        )
    applying = [e for e in entries if applies(e, program, nprocs, file)]
    outside = [e for e in entries if not applies(e, program, nprocs, file)]
    selection = selection_words(program, nprocs, file)
    if not applying:
        raise ConfigError(
            f"no entry of the table applies to {selection} ({len(entries)} entries): "
            "nothing to export"
        )
    dropped = [
        Dropped(
            f"{describe(e)}: does not apply to {selection}",
            f"entries that do not apply to {selection}",
        )
        for e in outside
    ]
    if accesses is not None:
        applying, not_acting = entries_for_accesses(applying, accesses)
        dropped += not_acting
    if mechanism != "iotuner":
        usable = []
        for entry in applying:
            narrower = narrower_than_mechanism(entry, mechanism, program, file)
            if narrower is None:
                usable.append(entry)
            else:
                dropped.append(
                    Dropped(
                        f"{describe(entry)}: {narrower}",
                        f"entries for some programs or files only ({mechanism} applies to "
                        "the whole job: give --program or --file to export them)",
                    )
                )
        applying = usable
    form = _FORMS[mechanism]
    where = str((output or Path(form.placeholder)).absolute())
    built = form.build(applying, where, pfl=pfl, target=target)
    scales = sorted({e.nprocs for e in applying if e.nprocs is not None})
    if nprocs is None and len(scales) > 1 and mechanism != "iotuner":
        built.kept.append(
            f"no --nprocs was given, so the entries of scales {', '.join(map(str, scales))} "
            "competed: give the job's number of ranks to export its own"
        )
    return Export(mechanism, built.text, built.usage, built.kept, dropped + built.dropped)
