"""Open MPI's MCA parameters: one configuration for the whole job, for OMPIO.

A table's ROMIO keys reach OMPIO through formats/ompio_map.def (the interposer's mapping);
the OMPIO info keys then have these job-wide parameters (Open MPI 5.0 documentation,
"Tuning: MPI-IO" at docs.open-mpi.org, and `ompi_info --param io ompio --level 9` of Open
MPI 4.1.4): cb_nodes -> io_ompio_num_aggregators, cb_buffer_size -> io_ompio_bytes_per_agg,
striping_factor -> fs_lustre_stripe_width, striping_unit -> fs_lustre_stripe_size,
collective buffering off -> fcoll=individual. Collective buffering on (fcoll=vulcan) is
never written: formats/ompio_job.def marks it UNSAFE (it hides write errors). A table key
`collective_buffering` itself is dropped: its "off" value is "true" in Open MPI 4 and
"false" in 5 (ompio_map.def), and an export does not know which will run.
"""

import shlex
from collections.abc import Sequence

from iotuner.formats import ompio_job_settings, ompio_map
from iotuner.hint_exports._results import Built, Dropped
from iotuner.hint_exports._selection import one_configuration
from iotuner.table import TableEntry

_MCA_FOR_OMPIO_KEY = {
    "cb_nodes": "io_ompio_num_aggregators",
    "cb_buffer_size": "io_ompio_bytes_per_agg",
    "striping_factor": "fs_lustre_stripe_width",
    "striping_unit": "fs_lustre_stripe_size",
}
"""OMPIO's per-file info keys (after ompio_map.def) and the MCA parameter that sets each
for a whole job (see the module docstring for the sources)."""


def _mca_setting(key: str, value: str) -> tuple[str, str] | str:
    """(MCA parameter, value) for one table key=value, or the reason it has none."""
    for setting in ompio_job_settings():
        if (setting.key, setting.value) == (key, value):
            if not setting.safe:
                return (
                    "Open MPI sets it only for a whole job "
                    f"({setting.parameter}={setting.mca_value}), which is unsafe: "
                    f"{setting.evidence} (formats/ompio_job.def)"
                )
            return setting.parameter, setting.mca_value
    rows = ompio_map()
    row = rows.get((key, value)) or rows.get((key, "*"))
    if row is None:
        return "Open MPI's OMPIO has no equivalent (formats/ompio_map.def)"
    ompio_key, ompio_value = row
    if ompio_value == "@off":
        return "fcoll", "individual"
    if ompio_key == "collective_buffering":
        return (
            "its value means off in Open MPI 4 and on in 5 (formats/ompio_map.def); write "
            "romio_cb_write=disable for off"
        )
    parameter = _MCA_FOR_OMPIO_KEY.get(ompio_key)
    if parameter is None:
        return f"OMPIO reads {ompio_key} per file only: no MCA parameter sets it"
    return parameter, value if ompio_value == "*" else ompio_value


def build_mca(entries: Sequence[TableEntry], where: str, **_: object) -> Built:
    config = one_configuration(entries, "MCA parameters hold one configuration for the whole job")
    parameters: dict[str, str] = {}
    dropped = list(config.dropped)
    kept = list(config.kept)
    for key, value in config.hints.items():
        mapped = _mca_setting(key, value)
        if isinstance(mapped, str):
            dropped.append(Dropped(f"key {key}={value} dropped: {mapped}"))
            continue
        parameter, mca_value = mapped
        if parameters.get(parameter, mca_value) != mca_value:
            dropped.append(
                Dropped(
                    f"key {key}={value} dropped: {parameter} is already {parameters[parameter]}"
                )
            )
            continue
        parameters[parameter] = mca_value
        if parameter == "fcoll":
            kept.append(
                f"{key}={value} becomes fcoll=individual: collective buffering off for every "
                "file of the job, reads and writes alike"
            )
    if parameters:
        kept.append(
            "the MCA parameters act when Open MPI's OMPIO serves the files (its default), "
            "not under --mca io romio321/romio341"
        )
    text = "".join(
        f"export OMPI_MCA_{name}={shlex.quote(value)}\n" for name, value in parameters.items()
    )
    usage = []
    if parameters:
        options = " ".join(f"--mca {name} {shlex.quote(v)}" for name, v in parameters.items())
        usage = [f"mpiexec {options} -n NPROCS PROGRAM ...", f". {shlex.quote(where)}"]
    return Built(text, usage, kept, dropped)
