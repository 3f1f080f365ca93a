"""The I/O libraries' own modules: HDF5, PnetCDF, and DAOS beside POSIX.

Reads: H5F (H5F_F_META_TIME, H5F_USE_MPIIO) and H5D (bytes, times,
H5D_USE_MPIIO_COLLECTIVE); PNETCDF_VAR and PNETCDF_FILE bytes; the bytes and times of the
modules POSIX and MPI-IO do not see (MODULES' usage: DAOS, DFS).
Finds: what went through each library (as information); HDF5 datasets with independent
MPI-IO transfers; HDF5 metadata past T.METADATA_SHARE and T.METADATA_SECONDS.
Codes: daos.usage, dfs.usage, hdf5.usage, hdf5.independent, hdf5.metadata, pnetcdf.usage.
"""

from collections.abc import Iterable

from iotuner.diagnose import _thresholds as T
from iotuner.diagnose._counters import MODULES
from iotuner.diagnose._finding import Finding
from iotuner.diagnose.checks._helpers import Check, Log, as_secs, as_size, row_sums, summed


def _usage(ctx: Log) -> Iterable[Finding]:
    """I/O through modules POSIX and MPI-IO do not see (DAOS), each said with its bytes."""
    for m in MODULES:
        frame = ctx.frame(m.name)
        if frame is None or m.usage is None:
            continue
        read, written = summed(frame, m.moved("READ")), summed(frame, m.moved("WRITTEN"))
        seconds = summed(frame, *(m.time(k) for k in ("READ", "WRITE", "META"))) / ctx.nprocs
        yield Finding(
            f"{m.name.lower()}.usage",
            "info",
            m.name,
            "job",
            f"{as_size(written)} written and {as_size(read)} read through {m.usage} in "
            f"{frame['id'].nunique()} file(s)/object(s), {as_secs(seconds)} of the mean rank: "
            "POSIX and MPI-IO do not see this I/O",
            {
                m.moved("WRITTEN"): written,
                m.moved("READ"): read,
                f"{m.prefix}_F_*_TIME": seconds * ctx.nprocs,
            },
            "",
            seconds,
        )


def _hdf5(ctx: Log) -> Iterable[Finding]:
    datasets = ctx.frame("H5D")
    files = ctx.frame("H5F")
    if datasets is None and files is None:
        return
    written = summed(datasets, "H5D_BYTES_WRITTEN")
    read = summed(datasets, "H5D_BYTES_READ")
    meta = summed(files, "H5F_F_META_TIME") + summed(datasets, "H5D_F_META_TIME")
    data_time = summed(datasets, "H5D_F_READ_TIME", "H5D_F_WRITE_TIME")
    subject = ctx.name(files["id"].iloc[0]) if files is not None else "HDF5 files"
    yield Finding(
        "hdf5.usage",
        "info",
        "HDF5",
        subject,
        f"{as_size(written)} written and {as_size(read)} read through HDF5 in "
        f"{0 if datasets is None else datasets['id'].nunique()} dataset(s) of "
        f"{0 if files is None else files['id'].nunique()} file(s); "
        f"{as_secs(meta / ctx.nprocs)} of the mean rank in HDF5 metadata",
        {
            "H5D_BYTES_WRITTEN": written,
            "H5D_BYTES_READ": read,
            "H5F_F_META_TIME+H5D_F_META_TIME": meta,
            "H5D_F_READ_TIME+H5D_F_WRITE_TIME": data_time,
        },
        "",
        (meta + data_time) / ctx.nprocs,
    )
    if files is not None and datasets is not None and summed(files, "H5F_USE_MPIIO") > 0:
        moved = datasets[row_sums(datasets, "H5D_BYTES_READ", "H5D_BYTES_WRITTEN") > 0]
        independent = moved[moved["H5D_USE_MPIIO_COLLECTIVE"] <= 0]
        if not independent.empty and ctx.nprocs > 1:
            seconds = summed(independent, "H5D_F_READ_TIME", "H5D_F_WRITE_TIME") / ctx.nprocs
            name = ctx.name(independent["id"].iloc[0])
            yield Finding(
                "hdf5.independent",
                ctx.level(seconds),
                "HDF5",
                name,
                f"{independent['id'].nunique()} of {moved['id'].nunique()} HDF5 dataset(s) "
                f"with data were accessed with independent MPI-IO transfers (the file is "
                f"opened with MPI-IO), such as {name}",
                {"H5D_USE_MPIIO_COLLECTIVE": 0.0, "H5F_USE_MPIIO": summed(files, "H5F_USE_MPIIO")},
                "set collective transfers: H5Pset_dxpl_mpio(dxpl, H5FD_MPIO_COLLECTIVE), and "
                "collective metadata (H5Pset_all_coll_metadata_ops)",
                seconds,
            )
    if meta and data_time and meta / (meta + data_time) > T.METADATA_SHARE:
        per_rank = meta / ctx.nprocs
        if per_rank >= T.METADATA_SECONDS:
            yield Finding(
                "hdf5.metadata",
                ctx.level(per_rank),
                "HDF5",
                subject,
                f"HDF5 metadata took {as_secs(per_rank)} of the mean rank against "
                f"{as_secs(data_time / ctx.nprocs)} in dataset reads and writes",
                {
                    "H5F_F_META_TIME+H5D_F_META_TIME": meta,
                    "H5D_F_READ_TIME+H5D_F_WRITE_TIME": data_time,
                },
                "raise the metadata cache, use collective metadata writes "
                "(H5Pset_coll_metadata_write), and open datasets once",
                per_rank,
            )


def _pnetcdf(ctx: Log) -> Iterable[Finding]:
    variables = ctx.frame("PNETCDF_VAR")
    files = ctx.frame("PNETCDF_FILE")
    if variables is None and files is None:
        return
    written = summed(variables, "PNETCDF_VAR_BYTES_WRITTEN") or summed(
        files, "PNETCDF_FILE_BYTES_WRITTEN"
    )
    read = summed(variables, "PNETCDF_VAR_BYTES_READ") or summed(files, "PNETCDF_FILE_BYTES_READ")
    subject = ctx.name(files["id"].iloc[0]) if files is not None else "PnetCDF files"
    yield Finding(
        "pnetcdf.usage",
        "info",
        "PnetCDF",
        subject,
        f"{as_size(written)} written and {as_size(read)} read through PnetCDF in "
        f"{0 if variables is None else variables['id'].nunique()} variable(s)",
        {"PNETCDF_VAR_BYTES_WRITTEN": written, "PNETCDF_VAR_BYTES_READ": read},
        "",
        None,
    )


USAGE = Check(
    "usage",
    _usage,
    {
        "daos.usage": "the bytes and time through DAOS objects, which POSIX does not see",
        "dfs.usage": "the bytes and time through DAOS's file interface (DFS)",
    },
)
HDF5 = Check(
    "hdf5",
    _hdf5,
    {
        "hdf5.usage": "the bytes, datasets and metadata time through HDF5",
        "hdf5.independent": "HDF5 datasets of an MPI-IO file had independent transfers",
        "hdf5.metadata": "HDF5 metadata took much of the time of its dataset calls",
    },
)
PNETCDF = Check(
    "pnetcdf",
    _pnetcdf,
    {"pnetcdf.usage": "the bytes and variables through PnetCDF"},
)
