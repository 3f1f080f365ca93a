"""A real Slurm on this machine for the tests: munged, one slurmctld and one slurmd.

Debian's `slurm-wlm` and `munge` (`apt-get install slurm-wlm munge`, as root): everything
lives in a temporary directory (munge's key, socket, pid, log and seed files; slurm.conf;
Slurm's state, spool, pid and log files), the daemons run as root in the foreground as
children of this process, and stop() ends them (by their process ids) and removes the
directory. Client commands (sbatch, squeue, scontrol, srun, salloc) find the cluster
through SLURM_CONF, which `env()` sets.

The node is this machine (`hostname -s`) with its CPUs (at most 2, as in CI); accounting
is off (no slurmdbd: sacct does not work), so a finished job is read with `scontrol show
job`, which keeps it for MinJobAge seconds (set to an hour).

`python -m tests.slurm.cluster DIR` starts one and keeps it until interrupted (to try
things by hand: `export SLURM_CONF=DIR/slurm.conf`).
"""

import atexit
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

__all__ = ["Cluster", "missing", "shared"]

DAEMONS = ("munged", "mungekey", "slurmctld", "slurmd", "sbatch", "srun", "scontrol", "sinfo")


def missing() -> str | None:
    """Why a cluster cannot be started here (a program missing, not root), or None."""
    absent = [name for name in DAEMONS if _which(name) is None]
    if absent:
        return (
            f"Slurm/munge not installed ({', '.join(absent)} missing): "
            "apt-get install slurm-wlm munge"
        )
    if os.geteuid() != 0:
        return "the test cluster's daemons run as root (SlurmUser=root): run the tests as root"
    return None


def _which(name: str) -> str | None:
    return shutil.which(name, path=f"{os.environ.get('PATH', '')}:/usr/sbin:/sbin")


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


class Cluster:
    """One munged, slurmctld and slurmd in `root` (made when missing)."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self.host = socket.gethostname().split(".")[0]
        self.cpus = min(os.cpu_count() or 1, 2)
        self.conf = root / "slurm.conf"
        self.munge_socket = root / "munge" / "munge.socket"
        self.processes: list[subprocess.Popen[bytes]] = []

    def env(self) -> dict[str, str]:
        """This process's environment pointed at the cluster, with no allocation of
        another one (SLURM_JOB_ID and friends removed)."""
        env = {k: v for k, v in os.environ.items() if not k.startswith("SLURM_")}
        env["SLURM_CONF"] = str(self.conf)
        return env

    def start(self, timeout: float = 60.0) -> "Cluster":
        munge = self.root / "munge"
        state = self.root / "state"
        spool = self.root / "spool"
        for directory in (munge, state, spool):
            directory.mkdir(parents=True, exist_ok=True)
        munge.chmod(0o700)
        key = munge / "munge.key"
        subprocess.run(
            [_which("mungekey") or "mungekey", "--create", "--force", f"--keyfile={key}"],
            check=True,
            capture_output=True,
        )
        self._spawn(
            [
                _which("munged") or "munged",
                "--foreground",
                "--force",
                f"--key-file={key}",
                f"--socket={self.munge_socket}",
                f"--pid-file={munge / 'munged.pid'}",
                f"--log-file={munge / 'munged.log'}",
                f"--seed-file={munge / 'munged.seed'}",
            ],
            munge / "munged.out",
        )
        self._wait(lambda: self.munge_socket.exists(), timeout, "munged's socket")
        self.conf.write_text(self._slurm_conf(state, spool))
        for daemon in ("slurmctld", "slurmd"):
            command = [_which(daemon) or daemon, "-D", "-f", str(self.conf)]
            self._spawn(command, self.root / f"{daemon}.out")
        self._wait(self._idle, timeout, f"node {self.host} idle in sinfo")
        return self

    def _slurm_conf(self, state: Path, spool: Path) -> str:
        root = self.root
        return "\n".join(
            [
                "ClusterName=iotunertest",
                f"SlurmctldHost={self.host}",
                f"SlurmctldPort={_free_port()}",
                f"SlurmdPort={_free_port()}",
                "SlurmUser=root",
                "SlurmdUser=root",
                f"AuthInfo=socket={self.munge_socket}",
                "CredType=cred/munge",
                f"StateSaveLocation={state}",
                f"SlurmdSpoolDir={spool}",
                f"SlurmctldPidFile={root / 'slurmctld.pid'}",
                f"SlurmdPidFile={root / 'slurmd.pid'}",
                f"SlurmctldLogFile={root / 'slurmctld.log'}",
                f"SlurmdLogFile={root / 'slurmd.log'}",
                "SelectType=select/cons_tres",
                "SelectTypeParameters=CR_CPU",
                "ProctrackType=proctrack/linuxproc",
                "TaskPlugin=task/none",
                "JobAcctGatherType=jobacct_gather/none",
                "AccountingStorageType=accounting_storage/none",
                "MpiDefault=none",
                "ReturnToService=2",
                "MinJobAge=3600",
                "KillWait=2",
                "InactiveLimit=0",
                "SchedulerType=sched/builtin",
                "SlurmctldTimeout=30",
                "SlurmdTimeout=30",
                f"NodeName={self.host} CPUs={self.cpus} RealMemory=500 State=UNKNOWN",
                "PartitionName=debug Default=YES Nodes=ALL MaxTime=INFINITE State=UP",
                "",
            ]
        )

    def _spawn(self, command: list[str], output: Path) -> None:
        with output.open("wb") as stream:
            process = subprocess.Popen(
                command, stdout=stream, stderr=subprocess.STDOUT, start_new_session=True
            )
        self.processes.append(process)

    def _idle(self) -> bool:
        for process in self.processes:
            if process.poll() is not None:
                raise RuntimeError(
                    f"{process.args[0]} exited with {process.returncode}: {self.logs()}"
                )
        done = subprocess.run(
            ["sinfo", "-h", "-N", "-o", "%T"],
            env=self.env(),
            capture_output=True,
            text=True,
            check=False,
        )
        return done.returncode == 0 and done.stdout.strip() == "idle"

    def _wait(self, ready: object, timeout: float, what: str) -> None:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if ready():  # type: ignore[operator]
                return
            time.sleep(0.25)
        raise RuntimeError(f"the test cluster did not come up ({what}): {self.logs()}")

    def logs(self) -> str:
        """The end of every daemon's log, for a failure's message."""
        parts = []
        for path in sorted(self.root.glob("*.log")) + sorted(self.root.glob("*.out")):
            lines = path.read_text(errors="replace").splitlines()[-15:]
            parts.append(f"--- {path.name}\n" + "\n".join(lines))
        return "\n".join(parts)

    def stop(self) -> None:
        """Cancel what is left, end the daemons (each by its process id), remove the files."""
        if self.processes:
            subprocess.run(
                ["scancel", "--full", "--user=root"],
                env=self.env(),
                capture_output=True,
                check=False,
                timeout=30,
            )
        for process in reversed(self.processes):
            if process.poll() is None:
                process.send_signal(signal.SIGTERM)
                try:
                    process.wait(timeout=15)
                except subprocess.TimeoutExpired:
                    process.kill()
                    process.wait()
        self.processes.clear()
        shutil.rmtree(self.root, ignore_errors=True)


_SHARED: Cluster | None = None


def shared() -> Cluster:
    """The tests' one cluster: started on first use, stopped when the process ends."""
    global _SHARED
    if _SHARED is None:
        why = missing()
        if why is not None:
            raise RuntimeError(why)
        # A short path: munge's socket path must fit in sun_path (108 bytes).
        cluster = Cluster(Path(tempfile.mkdtemp(prefix="iotuner-slurm-")))
        atexit.register(cluster.stop)
        _SHARED = cluster.start()
    return _SHARED


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit("usage: python -m tests.slurm.cluster DIR")
    running = Cluster(Path(sys.argv[1]).absolute()).start()
    print(f"export SLURM_CONF={running.conf}", flush=True)
    # SIGTERM (e.g. from `timeout`) stops the daemons too, like ^C.
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(0))
    try:
        signal.pause()
    except KeyboardInterrupt:
        pass
    finally:
        running.stop()
