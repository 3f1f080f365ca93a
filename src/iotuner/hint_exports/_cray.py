"""Cray's MPICH_MPIIO_HINTS: comma-separated specs `pattern:key=value[:key=value]`.

The pattern is a glob on the name given to MPI_File_open (NERSC's Cori/Edison MPI-IO
documentation, docs.nersc.gov "Lustre/MPI-IO hints", example
`*:romio_cb_write=enable:romio_ds_write=disable`; several patterns comma-separated as in
WRF run scripts, `wrfinput*:striping_factor=N,wrfbdy*:...`; HPE's intro_mpi(3) man page,
the reference, could not be retrieved here). So `:`, `,`, `=` and white space cannot
appear in a pattern, key or value: cb_config_list (`*:N`) is dropped. A table's `file`
glob without '/' matches the base name, which Cray does not: it becomes the glob itself
(a bare name) and `*/glob` (a path). Which spec wins when several match is not in what we
found, so the export does not depend on it: every file pattern's spec is complete (its
own configuration), and the `*` spec, last, keeps only the keys every file spec sets to
the same value.
"""

import re
import shlex
from collections.abc import Sequence

from iotuner.hint_exports._results import Built, Dropped, drop_keys
from iotuner.hint_exports._romio import not_romio
from iotuner.hint_exports._selection import one_configuration
from iotuner.table import TableEntry

_CRAY_FORBIDDEN = re.compile(r"[:,=\s\x00-\x1f\x7f-\x9f]")


def _cray_value(key: str, value: str) -> str | None:
    if _CRAY_FORBIDDEN.search(key) or _CRAY_FORBIDDEN.search(value):
        return (
            "MPICH_MPIIO_HINTS separates specs with ',', keys with ':' and a key from its "
            "value with '=': a value holding one of them (or white space or a control "
            "character) cannot be written"
        )
    return not_romio(key, value)


def _cray_patterns(glob: str) -> list[str]:
    """Cray's patterns for a table's file glob (module docstring)."""
    if "/" in glob or glob.startswith("*"):
        return [glob]
    return [glob, f"*/{glob}"]


def _scoped(scope: str, drop: Dropped) -> Dropped:
    """A drop of one file pattern's configuration, its sentence saying which."""
    return Dropped(f"{scope}: {drop.sentence}", drop.group)


def build_cray(entries: Sequence[TableEntry], where: str, **_: object) -> Built:
    why_one = "MPICH_MPIIO_HINTS holds one configuration per file-name pattern"
    globs = list(dict.fromkeys(e.file for e in entries if e.file is not None))
    kept: list[str] = []
    dropped: list[Dropped] = []
    specs: list[tuple[str, dict[str, str]]] = []
    for glob in globs:
        scoped = [e for e in entries if e.file in (glob, None)]
        config = one_configuration(scoped, why_one)
        carried, dropped_keys = drop_keys(config.hints, _cray_value)
        bad = _CRAY_FORBIDDEN.search(glob)
        if bad:
            dropped.append(
                Dropped(
                    f"file pattern {glob!r} dropped with its entries: MPICH_MPIIO_HINTS "
                    "cannot hold ':', ',', '=', white space or a control character in a pattern"
                )
            )
            continue
        kept += [f"for files {glob}: {sentence}" for sentence in config.kept]
        dropped += [_scoped(f"for files {glob}", d) for d in config.dropped + dropped_keys]
        specs += [(pattern, carried) for pattern in _cray_patterns(glob) if carried]
    general = one_configuration([e for e in entries if e.file is None], why_one)
    carried, dropped_keys = drop_keys(general.hints, _cray_value)
    kept += [f"for every other file (*): {s}" for s in general.kept]
    dropped += [_scoped("for every other file (*)", d) for d in general.dropped + dropped_keys]
    common = {}
    for key, value in carried.items():
        if all(spec.get(key) == value for _, spec in specs):
            common[key] = value
        else:
            dropped.append(
                Dropped(
                    f"key {key}={value} left out of the '*' spec: a file pattern's spec sets "
                    "it otherwise or not at all, and which of several matching specs Cray "
                    "applies is not documented in what we found"
                )
            )
    if common:
        specs.append(("*", common))
    value = ",".join(
        ":".join([pattern, *(f"{k}={v}" for k, v in hints.items())]) for pattern, hints in specs
    )
    usage = (
        [f"export MPICH_MPIIO_HINTS={shlex.quote(value)}", "export MPICH_MPIIO_HINTS_DISPLAY=1"]
        if value
        else []
    )
    return Built(value + "\n" if value else "", usage, kept, dropped)
