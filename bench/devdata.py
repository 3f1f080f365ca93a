#!/usr/bin/env python3
"""Rebuild the development knowledge bases of issue 10 (learning that transfers).

Two knowledge bases, so that `iotuner evaluate` and bench/transfer.py judge models on
workloads (and programs) they never saw:

    public    a measurement table of another system, from a public repository:
              github xiexbing/hdf5-work, IOR with HDF5 on Summit (GPFS, 4 nodes x 13
              ranks, IBM Spectrum MPI), collective writes of one 32.8 MiB block per rank
              swept over cb_nodes x cb_buffer_size (bench/devdata/README.md says what the
              table holds, what it leaves out and why). The CSV in bench/devdata/ is
              derived from the repository's raw IOR outputs; with --hdf5-work GIT_DIR (a
              bare clone or snapshot) it is derived again and checked against the stored one.
    machine   this machine: `iotuner bench` sweeps of our kernel on ext4 and on tmpfs
              (1, 2 and 4 ranks; collective and independent; contiguous and strided; write
              and read; 16 configurations of the shipped romio-ufs space per workload, 3
              repeats), and with --btio the NAS BT-IO kernel (third_party/btio, built with
              Debian's MPICH) run under the interposer with ROMIO hint configurations, its
              traces ingested as measurements of program "btio", beside a sweep of the
              kernel on BT-IO's system (ext4, Debian's MPICH, 1 and 4 ranks), so that a
              whole program can be held out (leave-one-program-out). With --gluster
              [MOUNT], the same kernel sweep on a GlusterFS volume of this machine
              (bench/gluster.py makes and mounts it): a third system, never mixed with
              the others, to ask models trained on ext4 and tmpfs about (transfer
              between systems, questions far from the data).

    .venv/bin/python bench/devdata.py --public-db dev-public.sqlite \\
        --machine-db dev-machine.sqlite [--reuse] [--btio] [--gluster [MOUNT]] [--work DIR]

--reuse ingests the sweep results and BT-IO traces stored in bench/devdata/ instead of
measuring again (measuring took about an hour on the 2-core development machine; its
figures are noisy, other jobs shared the cores). Without it, new results and traces go to
--work. The knowledge bases must not exist yet unless --append is given. At the end it
prints what each knowledge base holds: rows, workloads, configurations per workload.
"""

from __future__ import annotations

import argparse
import csv
import io
import json
import os
import re
import shutil
import statistics
import subprocess
import tempfile
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path

from _benchkit import REPO, BenchError, bench_main

from iotuner.measurement import WORKLOAD_COLUMNS, System
from iotuner.store import open_store

WHO = "devdata.py"
DEVDATA = REPO / "bench" / "devdata"
IOTUNER = REPO / ".venv" / "bin" / "iotuner"

# --- the public table ------------------------------------------------------------------

HDF5_WORK_COMMIT = "1e32b88dbb4ea6a18fbfed3a2c1209c46bf091d1"  # xiexbing/hdf5-work, 2021-05-14
SUMMIT_RESULTS = "summit-aggregation/node4/result_13_33575k"
SUMMIT_CSV = DEVDATA / "summit-gpfs-cb.csv"
SUMMIT_MAPPING = DEVDATA / "summit-gpfs-cb.mapping.toml"
SUMMIT_COLUMNS = [
    "source",
    "run",
    "op",
    "pattern",
    "layout",
    "nprocs",
    "nodes",
    "ranks_per_node",
    "files",
    "bytes_per_rank",
    "calls_per_open",
    "api",
    "bandwidth_mib_s",
    "cb_nodes",
    "cb_buffer_size",
    "romio_cb_write",
]
# The ROMIO hints file each collective write ran with (summit-aggregation/template.sh
# exports ROMIO_HINTS=hints/aggr_<cb_nodes>_<buffer>, or hints/default).
DEFAULT_HINTS = {"cb_nodes": "4", "cb_buffer_size": "16777216", "romio_cb_write": "automatic"}
SIZE_SUFFIX = {"K": 1024, "M": 1024**2, "G": 1024**3}
WRITE_FILE = re.compile(r"col_13_33575k_(?:(?P<naggr>\d+)_(?P<buffer>\d+[KMG])|default)_f")


def git_show(git_dir: Path, commit: str, path: str) -> str:
    """A file of a bare repository at a commit."""
    out = subprocess.run(
        ["git", f"--git-dir={git_dir}", "show", f"{commit}:{path}"],
        capture_output=True,
        text=True,
        errors="replace",
    )
    if out.returncode != 0:
        raise BenchError(f"{WHO}: git show {commit}:{path} in {git_dir}: {out.stderr.strip()}")
    return out.stdout


def ior_summaries(text: str) -> Iterator[dict[str, str]]:
    """The rows of every 'Summary of all tests:' table of an IOR output, as header -> value
    (a file holds the output of several IOR runs appended one after another)."""
    lines = text.splitlines()
    for i, line in enumerate(lines):
        if line.startswith("Summary of all tests:") and i + 2 < len(lines):
            header = lines[i + 1].split()
            for row in lines[i + 2 :]:
                values = row.split()
                if not values or values[0] not in ("write", "read"):
                    break
                if len(values) == len(header):
                    yield dict(zip(header, values, strict=True))


def derive_summit_rows(git_dir: Path, commit: str) -> list[dict[str, str]]:
    """The collective-write measurements of the Summit cb_nodes x cb_buffer_size sweep, one
    row per IOR run (three runs per configuration). Left out, as README.md explains: the
    cb_nodes=1 runs (ROMIO aborted at open, no measurement), the reads (their hints file
    was never found, so every read ran with ROMIO's defaults) and the independent writes
    (one configuration only)."""
    names = subprocess.run(
        ["git", f"--git-dir={git_dir}", "ls-tree", "--name-only", f"{commit}:{SUMMIT_RESULTS}"],
        capture_output=True,
        text=True,
    )
    if names.returncode != 0:
        raise BenchError(f"{WHO}: {SUMMIT_RESULTS} not in {git_dir} at {commit}")
    rows = []
    for name in sorted(names.stdout.split()):
        match = WRITE_FILE.fullmatch(name)
        if match is None:
            continue
        if match["naggr"]:
            buffer = match["buffer"]
            hints = {
                "cb_nodes": match["naggr"],
                "cb_buffer_size": str(int(buffer[:-1]) * SIZE_SUFFIX[buffer[-1]]),
                "romio_cb_write": "enable",
            }
        else:
            hints = dict(DEFAULT_HINTS)
        text = git_show(git_dir, commit, f"{SUMMIT_RESULTS}/{name}")
        for run, summary in enumerate(ior_summaries(text), start=1):
            nprocs, per_node = int(summary["#Tasks"]), int(summary["tPN"])
            if summary["blksiz"] != summary["xsize"] or summary["segcnt"] != "1":
                raise BenchError(f"{WHO}: {name}: expected one transfer per rank, got {summary}")
            rows.append(
                {
                    "source": f"{SUMMIT_RESULTS}/{name}",
                    "run": str(run),
                    "op": summary["Operation"],
                    "pattern": "collective",
                    "layout": "contiguous",
                    "nprocs": str(nprocs),
                    "nodes": str(nprocs // per_node),
                    "ranks_per_node": str(per_node),
                    "files": "1" if summary["fPP"] == "0" else str(nprocs),
                    "bytes_per_rank": summary["xsize"],
                    "calls_per_open": summary["segcnt"],
                    "api": summary["API"],
                    "bandwidth_mib_s": summary["Max(MiB)"],
                    **hints,
                }
            )
    return rows


def summit_csv_text(rows: Sequence[dict[str, str]]) -> str:
    out = io.StringIO()
    writer = csv.DictWriter(out, fieldnames=SUMMIT_COLUMNS, lineterminator="\n")
    writer.writeheader()
    writer.writerows(rows)
    return out.getvalue()


def public_table(hdf5_work: Path | None, commit: str) -> Path:
    """The Summit CSV: the stored one, checked against a fresh derivation when a snapshot
    of the repository is given."""
    if hdf5_work is not None:
        derived = summit_csv_text(derive_summit_rows(hdf5_work, commit))
        if not SUMMIT_CSV.exists():
            write_atomically(SUMMIT_CSV, derived)
            print(f"public: derived {SUMMIT_CSV.relative_to(REPO)} from {hdf5_work}")
        elif SUMMIT_CSV.read_text() != derived:
            raise BenchError(
                f"{WHO}: {SUMMIT_CSV} differs from what {hdf5_work} at {commit} gives; "
                "remove it to derive it again"
            )
        else:
            print(f"public: {SUMMIT_CSV.relative_to(REPO)} matches {hdf5_work} at {commit}")
    if not SUMMIT_CSV.exists():
        raise BenchError(f"{WHO}: {SUMMIT_CSV} is missing (give --hdf5-work to derive it)")
    return SUMMIT_CSV


def write_atomically(path: Path, text: str) -> None:
    tmp = path.with_name(f".{path.name}.tmp")
    tmp.write_text(text)
    tmp.replace(path)


# --- the sweeps of this machine ----------------------------------------------------------


@dataclass(frozen=True)
class Sweep:
    name: str
    fs_type: str  # what the directory must be on
    directory: Path
    nprocs: str = "1,2,4"
    mpicc: str | None = None  # another MPI than the venv's: built into its own prefix


SWEEP_ARGS = [
    "--space",
    "romio-ufs",
    "--patterns",
    "collective,independent",
    "--layouts",
    "contiguous,strided:4k:0.5",
    "--ops",
    "write,read",
    "--sizes",
    "256k",
    "--open-size",
    "32m",
    "--repeats",
    "3",
    "--max-configs",
    "16",
    # the scales (--nprocs) are the sweep's; the seed (--seed) is per sweep: see run_sweep
]
SWEEP_SEEDS = {"ext4": 1, "tmpfs": 2, "ext4-debian-mpich": 3, "glusterfs": 4}
GLUSTER_SWEEP = "glusterfs"
"""The kernel on a GlusterFS volume of this machine (bench/gluster.py: four bricks on local
folders, mounted through FUSE), the plan of ext4 and tmpfs at 1 and 2 ranks: a third system,
of its own fingerprint (fuse.glusterfs), for transfer between systems (bench/transfer.py
--cross-system) and for questions far from the data. It goes with --gluster. RATIONALE for
leaving out 4 ranks: there, 4 ranks, 4 brick daemons and the FUSE client share 2 cores;
a 4-rank strided or collective write took up to a minute per measurement, launch and file
deletion included (a first try at 1, 2 and 4 ranks measured 222 of 900 in 7 minutes, load
average 8), so the whole sweep would have taken well over an hour."""
GLUSTER_MOUNT = Path("/mnt/iotuner-gluster")
LOPO_SWEEP = "ext4-debian-mpich"
"""The kernel on BT-IO's system (ext4, Debian's MPICH 4.0.2) at BT-IO's scales (1 and 4
ranks): with it, one knowledge base holds two programs on one system, so evaluate and
bench/transfer.py can hold out a whole program (leave-one-program-out). It goes with --btio."""


def fs_type(directory: Path) -> str:
    """The file system type iotuner will record for data under `directory` (the mount
    table's name: ext4, tmpfs, fuse.glusterfs), so the check below is the fingerprint's."""
    return System.detect(directory, "", "").fs_type


def check_directory(sweep: Sweep) -> None:
    """BenchError unless the sweep's directory is on its file system (made if missing)."""
    sweep.directory.mkdir(parents=True, exist_ok=True)
    found = fs_type(sweep.directory)
    if found != sweep.fs_type:
        option = (
            "--gluster MOUNT (bench/gluster.py mounts one)"
            if sweep.name == GLUSTER_SWEEP
            else f"--{sweep.name}-dir"
        )
        raise BenchError(
            f"{WHO}: the {sweep.name} sweep needs a directory on {sweep.fs_type}; "
            f"{sweep.directory} is on {found} (give {option})"
        )


def run_sweep(sweep: Sweep, results: Path, build: Path) -> None:
    check_directory(sweep)
    env: dict[str, str] = {}
    if sweep.mpicc is not None:
        # The kernel and the interposer built with that MPI into their own prefix, as
        # README's "another MPI" says (IOTUNER_PREFIX), once; .venv stays as it is.
        prefix = build / f"prefix-{sweep.name}"
        env["IOTUNER_PREFIX"] = str(prefix)
        if not (prefix / "share" / "iotuner" / "build.json").is_file():
            run([str(REPO / "setup.sh")], env={**env, "IOTUNER_MPICC": sweep.mpicc}, quiet=True)
    print(f"machine: sweeping {sweep.name} in {sweep.directory} -> {results}")
    command = [
        str(IOTUNER),
        "bench",
        "--dir",
        str(sweep.directory),
        "--results",
        str(results),
        "--no-db",
        "--nprocs",
        sweep.nprocs,
        *SWEEP_ARGS,
        # RATIONALE: a bench measurement's uid is made from the plan (space, scales, sizes,
        # seed...) but not from the directory or the system, so the same sweep on ext4 and
        # tmpfs gave equal uids and ingesting both into one knowledge base skipped the
        # second's as "already stored". A seed per file system keeps them apart.
        "--seed",
        str(SWEEP_SEEDS[sweep.name]),
        # Development data is the whole plan, however long it takes (bench stops at 20
        # minutes by default).
        "--time-budget",
        "none",
    ]
    run(command, env=env)


# --- BT-IO ---------------------------------------------------------------------------------

BTIO_SOURCE = REPO / "third_party" / "btio"
BTIO_TOOLS = ("gfortran", "mpif90.mpich", "mpicc.mpich", "mpiexec.mpich")
BTIO_GRID = 64  # grid points per dimension: 64^3 x 5 doubles = 10 MiB per time step
BTIO_STEPS = 5  # time steps, one MPI_File_write_all (or read_all) per rank each
BTIO_RANKS = (1, 4)  # BT-IO needs a square number of processes
BTIO_REPEATS = 3
BTIO_METHODS = {"collective": 0, "independent": 1}
MIB = 1024**2
# Hint configurations per (method, op): the knobs ROMIO reads for that kind of access.
BTIO_CONFIGS: dict[tuple[str, str], list[dict[str, str | int]]] = {
    ("collective", "w"): [
        {"romio_cb_write": cb, "cb_buffer_size": buf, "romio_ds_write": ds}
        for cb in ("automatic", "enable", "disable")
        for buf in (1 * MIB, 16 * MIB)
        for ds in ("automatic", "disable")
    ],
    ("collective", "r"): [
        {"romio_cb_read": cb, "cb_buffer_size": buf, "romio_ds_read": ds}
        for cb in ("automatic", "enable", "disable")
        for buf in (1 * MIB, 16 * MIB)
        for ds in ("automatic", "disable")
    ],
    ("independent", "w"): [
        {"romio_ds_write": ds, "ind_wr_buffer_size": buf}
        for ds in ("automatic", "enable", "disable")
        for buf in (512 * 1024, 4 * MIB)
    ],
    ("independent", "r"): [
        {"romio_ds_read": ds, "ind_rd_buffer_size": buf}
        for ds in ("automatic", "enable", "disable")
        for buf in (1 * MIB, 4 * MIB)
    ],
}


def btio_missing() -> list[str]:
    return [tool for tool in BTIO_TOOLS if shutil.which(tool) is None]


def build_btio(build: Path) -> tuple[Path, Path]:
    """BT-IO and an interposer, both against Debian's MPICH. The interposer in .venv is
    linked to the PyPI wheel's libmpi.so.12, whose soname differs from Debian's
    libmpich.so.12: preloaded into a Debian-MPICH program it loads a second MPI library,
    which then serves every MPI call (the trace says MPICH 5.0.2 where the program was
    built with 4.0.2). So the interposer is built again with mpicc.mpich."""
    btio_dir, lib_dir = build / "btio", build / "iotuner-debian-mpich"
    run(
        ["make", "-s", "-C", str(BTIO_SOURCE), f"BUILD={btio_dir}", "MPIF90=mpif90.mpich"],
        quiet=True,
    )
    library = lib_dir / "libiotuner.so"
    run(
        ["make", "-s", "-C", str(REPO), f"BUILD={lib_dir}", "MPICC=mpicc.mpich", str(library)],
        quiet=True,
    )
    return btio_dir / "btio", library


def btio_table(hints: dict[str, str | int]) -> str:
    header = {"format": "iotuner-table", "version": 1}
    entry = {"at": "open", "program": "btio", "hints": hints, "note": "bench/devdata.py"}
    return json.dumps(header) + "\n" + json.dumps(entry) + "\n"


def run_btio(build: Path, data_dir: Path, logs: Path) -> None:
    """Every (ranks, method, op, configuration) BTIO_REPEATS times, traced, in an order
    that interleaves the configurations (one round of all, then the next)."""
    program, library = build_btio(build)
    data_dir.mkdir(parents=True, exist_ok=True)
    logs.mkdir(parents=True, exist_ok=True)
    env = {"IOTUNER_LIB": str(library)}
    work = Path(tempfile.mkdtemp(prefix="btio-", dir=build))
    total = sum(len(c) for c in BTIO_CONFIGS.values()) * len(BTIO_RANKS) * BTIO_REPEATS
    done = 0
    for ranks in BTIO_RANKS:
        for method, number in BTIO_METHODS.items():
            for op in ("w", "r"):
                inputs = work / f"input-{op}{number}"
                inputs.write_text(
                    f"{op}\n{number}\n{BTIO_STEPS}\n{BTIO_GRID} {BTIO_GRID} {BTIO_GRID}\n"
                    f"{data_dir}\n"
                )
                launch = ["mpiexec.mpich", "-n", str(ranks), str(program), str(inputs)]
                if op == "r":  # the file to read: written once, untraced
                    write_input = work / f"input-w{number}"
                    prepare = ["mpiexec.mpich", "-n", str(ranks), str(program), str(write_input)]
                    run(prepare, quiet=True)
                for repeat in range(BTIO_REPEATS):
                    for i, hints in enumerate(BTIO_CONFIGS[(method, op)]):
                        table = work / f"table-{method}-{op}-{i}.jsonl"
                        table.write_text(btio_table(hints))
                        command = [str(IOTUNER), "run", "--mode", "tune,trace"]
                        command += ["--table", str(table), "--log-dir", str(logs), "--"]
                        run([*command, *launch], env=env, quiet=True)
                        done += 1
                    print(f"btio: {done}/{total} runs (n={ranks} {method} {op} round {repeat})")
    shutil.rmtree(work, ignore_errors=True)


def search_btio(build: Path, data_dir: Path, budget: int, out: Path) -> None:
    """A small real search of BT-IO's 4-rank collective write over btio-write.space.toml
    (TPE, `budget` trials, then the default and the best re-measured 3 times each); the
    trials stay out of the knowledge base (--no-db), the JSON result goes to `out`."""
    program, library = build_btio(build)
    data_dir.mkdir(parents=True, exist_ok=True)
    inputs = build / "btio-search-input"
    inputs.write_text(f"w\n0\n{BTIO_STEPS}\n{BTIO_GRID} {BTIO_GRID} {BTIO_GRID}\n{data_dir}\n")
    command = [str(IOTUNER), "search", "--strategy", "tpe", "--budget", str(budget)]
    command += ["--repeats", "3", "--seed", "1", "--no-db", "--json"]
    command += ["--space", str(DEVDATA / "btio-write.space.toml")]
    command += ["--storage", str(build / "btio-search.db")]
    command += ["--log-dir", str(build / "btio-search-logs"), "--"]
    command += ["mpiexec.mpich", "-n", "4", str(program), str(inputs)]
    print(f"btio: searching ({budget} trials) -> {out}")
    result = subprocess.run(
        command, env={**os.environ, "IOTUNER_LIB": str(library)}, capture_output=True, text=True
    )
    if result.returncode != 0:
        raise BenchError(f"{WHO}: the BT-IO search failed:\n{result.stderr[-2000:]}")
    write_atomically(out, result.stdout)
    print(result.stderr[-3000:])


# --- common -------------------------------------------------------------------------------


def run(command: Sequence[str], env: dict[str, str] | None = None, quiet: bool = False) -> None:
    """Run a command; its output is shown unless `quiet`, and kept for the error if it fails."""
    full_env = {**os.environ, **(env or {})}
    out = subprocess.run(
        list(command),
        env=full_env,
        stdout=subprocess.PIPE if quiet else None,
        stderr=subprocess.STDOUT if quiet else None,
        text=True,
    )
    if out.returncode != 0:
        tail = (out.stdout or "")[-2000:]
        raise BenchError(f"{WHO}: failed ({out.returncode}): {' '.join(command)}\n{tail}")


def ingest(db: Path, paths: Sequence[Path], *extra: str) -> None:
    run([str(IOTUNER), "ingest", "--db", str(db), *extra, *map(str, paths)])


def describe(db: Path) -> None:
    """Rows, workloads and configurations per workload of a knowledge base, by program and
    system (host, file system, MPI)."""
    store = open_store(str(db), make_folder=False)
    try:
        rows = store.measurements()
        summary = store.summary()
        names = {
            s.fingerprint: f"{s.host} {s.fs_type} {' '.join(s.mpi_library.split()[:3])}"
            for s in store.systems()
        }
    finally:
        store.close()
    print(f"\n{db}: {len(rows)} measurements")
    keys = ["system", *WORKLOAD_COLUMNS]
    summary = summary.assign(
        program=summary["program"].fillna("(no program)"), where=summary["system"].map(names)
    )
    for (program, where), part in summary.groupby(["program", "where"], sort=True):
        per_workload = part.groupby(keys, dropna=False).size().tolist()
        print(
            f"  {program} on {where}: {int(part['n'].sum())} rows, {len(per_workload)} "
            f"workloads, configurations per workload min {min(per_workload)} median "
            f"{statistics.median(per_workload):g} max {max(per_workload)}, repeats per "
            f"configuration median {statistics.median(part['n']):g}"
        )


def parse_args(argv: Sequence[str]) -> argparse.Namespace:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--public-db", type=Path, help="knowledge base of the public table")
    p.add_argument("--machine-db", type=Path, help="knowledge base of this machine's data")
    p.add_argument("--reuse", action="store_true", help="ingest the stored sweeps and traces")
    p.add_argument("--btio", action="store_true", help="BT-IO runs (build, run or reuse)")
    p.add_argument(
        "--btio-search", type=int, metavar="BUDGET", help="then a real TPE search of BT-IO"
    )
    p.add_argument("--append", action="store_true", help="add to existing knowledge bases")
    p.add_argument("--work", type=Path, default=Path("devdata-work"), help="new results here")
    p.add_argument("--ext4-dir", type=Path, default=Path("/tmp/iotuner-devdata/ext4"))
    p.add_argument("--tmpfs-dir", type=Path, default=Path("/dev/shm/iotuner-devdata"))
    p.add_argument(
        "--gluster",
        type=Path,
        nargs="?",
        const=GLUSTER_MOUNT,
        metavar="MOUNT",
        help=f"also the sweep on a GlusterFS mount (default {GLUSTER_MOUNT}; with --reuse "
        "the stored one)",
    )
    p.add_argument("--hdf5-work", type=Path, help="snapshot of xiexbing/hdf5-work (git dir)")
    p.add_argument("--hdf5-work-commit", default=HDF5_WORK_COMMIT)
    args = p.parse_args(argv)
    if args.public_db is None and args.machine_db is None:
        p.error("give --public-db, --machine-db or both")
    for db in (args.public_db, args.machine_db):
        if db is not None and db.exists() and not args.append:
            p.error(f"{db} exists (remove it, or give --append)")
    return args


def main(argv: Sequence[str]) -> None:
    args = parse_args(argv)
    if not IOTUNER.exists():
        raise BenchError(f"{WHO}: {IOTUNER} is missing (run ./setup.sh)")
    if args.public_db is not None:
        table = public_table(args.hdf5_work, args.hdf5_work_commit)
        ingest(args.public_db, [table], "--kind", "csv", "--mapping", str(SUMMIT_MAPPING))
    if args.machine_db is not None:
        args.work.mkdir(parents=True, exist_ok=True)
        results = []
        sweeps = [
            Sweep("ext4", "ext4", args.ext4_dir),
            Sweep("tmpfs", "tmpfs", args.tmpfs_dir),
        ]
        if args.gluster is not None:
            sweeps.append(
                Sweep(GLUSTER_SWEEP, "fuse.glusterfs", args.gluster / "iotuner-devdata", "1,2")
            )
        if args.btio and (args.reuse or not btio_missing()):
            sweeps.append(Sweep(LOPO_SWEEP, "ext4", args.ext4_dir, "1,4", "/usr/bin/mpicc.mpich"))
        if not args.reuse:  # every directory before the first hour of measuring
            for sweep in sweeps:
                check_directory(sweep)
        for sweep in sweeps:
            stored = DEVDATA / f"sweep-{sweep.name}.bench.jsonl"
            if args.reuse:
                results.append(stored)
            else:
                fresh = args.work / stored.name
                run_sweep(sweep, fresh, args.work / "build")
                results.append(fresh)
        ingest(args.machine_db, results, "--kind", "bench")
        if args.btio:
            logs = DEVDATA / "btio-logs" if args.reuse else args.work / "btio-logs"
            missing = btio_missing()
            if args.reuse:
                pass
            elif missing:
                print(
                    f"btio: skipped, {', '.join(missing)} not found (Debian: apt-get "
                    "install mpich libmpich-dev gfortran)"
                )
                logs = Path()
            else:
                run_btio(args.work / "build", args.ext4_dir.with_name("btio-data"), logs)
            if logs != Path():
                ingest(args.machine_db, [logs], "--kind", "trace")
            if args.btio_search and not missing:
                search_btio(
                    args.work / "build",
                    args.ext4_dir.with_name("btio-data"),
                    args.btio_search,
                    args.work / "btio-search.json",
                )
    for db in (args.public_db, args.machine_db):
        if db is not None:
            describe(db)


if __name__ == "__main__":
    bench_main(main)
