#!/usr/bin/env python3
"""A GlusterFS volume on this machine: a second, different file system for development data.

What it makes (as root; Debian: apt-get install glusterfs-server glusterfs-client):

* glusterd, the management daemon, started when it does not answer yet;
* a distributed volume `--name` (default iotuner) of `--bricks` (default 4) bricks, each a
  local folder `--brick-root`/brickN (default /srv/iotuner-gluster/brick1..4), on this
  host's name, else 127.0.0.1 (whichever gluster accepts). `force` is given because the
  bricks sit on the root file system, which gluster otherwise refuses. A distributed
  volume places each file whole on one brick, chosen by a hash of its name: no
  replication, no striping;
* the volume started and mounted with `mount -t glusterfs HOST:/NAME --mount` (default
  /mnt/iotuner-gluster), through FUSE: /proc/mounts says `fuse.glusterfs`.

Why: issue 23 asks for a second system on the same machine, so that models trained on
this machine's ext4 and tmpfs sweeps can be asked about a file system they never saw
(transfer between systems, bench/transfer.py --cross-system) and so that their answers
far from the data can be checked. A FUSE file system served by brick daemons over TCP
loopback behaves differently from a local disk or memory: every call crosses the kernel
twice and the daemons share the two cores with the MPI ranks. iotuner fingerprints it
as its own system (file system type `fuse.glusterfs`, the mount point), so its
measurements never mix with ext4's or tmpfs's.

Each step is skipped when already done (glusterd answering, the volume made, started,
mounted), so running it twice is harmless; a volume of that name with other bricks, or
something else mounted at the mount point, is an error, not overwritten.

`--teardown` undoes it: unmounts, stops and deletes the volume and removes the brick
folders (gluster marks a brick folder as used, so it cannot serve a new volume);
`--stop-glusterd` also stops the daemon when no other volume is left.

    python3 bench/gluster.py [--name iotuner] [--mount /mnt/iotuner-gluster]
        [--brick-root /srv/iotuner-gluster] [--bricks 4] [--teardown [--stop-glusterd]]
"""

from __future__ import annotations

import argparse
import os
import shutil
import signal
import socket
import subprocess
import time
from collections.abc import Sequence
from pathlib import Path

from _benchkit import BenchError, bench_main

WHO = "gluster.py"
PACKAGES = "apt-get install -y glusterfs-server glusterfs-client"
FS_TYPE = "fuse.glusterfs"
TIMEOUT = 120  # seconds for one gluster command (volume start waits for the bricks)


def gluster(*args: str, check: bool = True) -> subprocess.CompletedProcess[str]:
    """`gluster --mode=script ARGS` (script mode: no questions asked); BenchError with what
    it printed when `check` and it fails."""
    command = ["gluster", "--mode=script", *args]
    try:
        proc = subprocess.run(command, capture_output=True, text=True, timeout=TIMEOUT)
    except subprocess.TimeoutExpired:
        raise BenchError(f"{WHO}: no answer within {TIMEOUT} s: {' '.join(command)}") from None
    if check and proc.returncode != 0:
        raise BenchError(
            f"{WHO}: {' '.join(command)} failed ({proc.returncode}): "
            f"{(proc.stderr or proc.stdout).strip()}"
        )
    return proc


def require_tools() -> None:
    """Root, the gluster programs and FUSE, each with what to do when missing."""
    if os.geteuid() != 0:
        raise BenchError(f"{WHO}: must run as root (glusterd, bricks and mount need it)")
    missing = [t for t in ("glusterd", "gluster", "mount.glusterfs") if not _which(t)]
    if missing:
        raise BenchError(f"{WHO}: {', '.join(missing)} not found; Debian: {PACKAGES}")
    if not Path("/dev/fuse").exists():
        raise BenchError(
            f"{WHO}: /dev/fuse is missing: the kernel's FUSE module is not loaded "
            "(modprobe fuse) or the container was started without the device"
        )


def _which(tool: str) -> str | None:
    # glusterd and mount.glusterfs live in /usr/sbin and /sbin, not always on PATH
    return shutil.which(tool) or shutil.which(tool, path="/usr/sbin:/sbin")


def glusterd_answers() -> bool:
    return gluster("volume", "list", check=False).returncode == 0


def start_glusterd() -> None:
    if glusterd_answers():
        print("glusterd: running")
        return
    daemon = _which("glusterd") or "glusterd"
    proc = subprocess.run(
        [daemon, "-p", "/run/glusterd.pid"], capture_output=True, text=True, timeout=TIMEOUT
    )
    if proc.returncode != 0:
        raise BenchError(f"{WHO}: glusterd did not start: {(proc.stderr or proc.stdout).strip()}")
    for _ in range(30):
        if glusterd_answers():
            print("glusterd: started")
            return
        time.sleep(1)
    raise BenchError(f"{WHO}: glusterd started but does not answer (see /var/log/glusterfs/)")


def volume_info(name: str) -> dict[str, str | list[str]] | None:
    """`gluster volume info NAME` as Status, Type and the brick list; None when no such
    volume."""
    proc = gluster("volume", "info", name, check=False)
    if proc.returncode != 0:
        return None
    info: dict[str, str | list[str]] = {"bricks": []}
    for line in proc.stdout.splitlines():
        key, _, value = line.partition(":")
        key, value = key.strip(), value.strip()
        if key in ("Status", "Type"):
            info[key] = value
        elif key.startswith("Brick") and key[5:].isdigit():
            bricks = info["bricks"]
            assert isinstance(bricks, list)
            bricks.append(value)
    return info


def mounted(mount: Path) -> tuple[str, str] | None:
    """What is mounted exactly at `mount` (source, file system type), None when nothing."""
    target = os.path.realpath(mount)
    found = None
    for line in Path("/proc/self/mounts").read_text().splitlines():
        parts = line.split()
        if len(parts) >= 3 and parts[1].replace("\\040", " ") == target:
            found = (parts[0], parts[2])  # the last one listed is on top
    return found


def hosts() -> list[str]:
    """The addresses to try for the bricks: this host's name when it resolves, then
    127.0.0.1 (gluster accepts either on one machine, depending on its version)."""
    name = socket.gethostname()
    try:
        socket.gethostbyname(name)
        return [name, "127.0.0.1"]
    except OSError:
        return ["127.0.0.1"]


def create_volume(name: str, brick_root: Path, count: int) -> str:
    """The volume made (and the host its bricks are on), or the existing one checked."""
    folders = [brick_root / f"brick{i}" for i in range(1, count + 1)]
    info = volume_info(name)
    if info is not None:
        have = [str(b).split(":", 1)[-1] for b in info["bricks"]]
        if have != [str(f) for f in folders]:
            raise BenchError(
                f"{WHO}: volume {name} exists with bricks {', '.join(have)}, not "
                f"{', '.join(map(str, folders))}: --teardown it first, or give another --name"
            )
        print(f"volume {name}: exists ({info.get('Type')}, {len(have)} bricks)")
        return str(info["bricks"][0]).split(":", 1)[0]
    for folder in folders:
        folder.mkdir(parents=True, exist_ok=True)
    errors = []
    for host in hosts():
        bricks = [f"{host}:{folder}" for folder in folders]
        proc = gluster("volume", "create", name, *bricks, "force", check=False)
        if proc.returncode == 0:
            print(f"volume {name}: created, {count} bricks on {host} under {brick_root}")
            return host
        errors.append(f"{host}: {(proc.stderr or proc.stdout).strip()}")
    raise BenchError(f"{WHO}: gluster volume create {name} failed; " + "; ".join(errors))


def start_volume(name: str) -> None:
    info = volume_info(name)
    if info is not None and info.get("Status") == "Started":
        print(f"volume {name}: started")
        return
    gluster("volume", "start", name)
    print(f"volume {name}: started now")


def mount_volume(name: str, host: str, mount: Path) -> None:
    found = mounted(mount)
    if found is not None and found[1] == FS_TYPE and found[0].endswith(f":/{name}"):
        print(f"{mount}: mounted ({found[0]}, {FS_TYPE})")
        return
    if found is not None:
        raise BenchError(
            f"{WHO}: {mount} has {found[0]} ({found[1]}) mounted; give another --mount"
        )
    mount.mkdir(parents=True, exist_ok=True)
    proc = subprocess.run(
        ["mount", "-t", "glusterfs", f"{host}:/{name}", str(mount)],
        capture_output=True,
        text=True,
        timeout=TIMEOUT,
    )
    found = mounted(mount)
    if proc.returncode != 0 or found is None or found[1] != FS_TYPE:
        raise BenchError(
            f"{WHO}: mount -t glusterfs {host}:/{name} {mount} failed ({proc.returncode}, "
            f"mounted: {found and found[1]}): {(proc.stderr or proc.stdout).strip()} "
            f"(see /var/log/glusterfs/{str(mount).strip('/').replace('/', '-')}.log)"
        )
    print(f"{mount}: mounted {host}:/{name} ({FS_TYPE})")


def teardown(name: str, mount: Path, brick_root: Path, count: int, stop_daemon: bool) -> None:
    found = mounted(mount)
    if found is not None and found[1] == FS_TYPE and found[0].endswith(f":/{name}"):
        proc = subprocess.run(["umount", str(mount)], capture_output=True, text=True)
        if proc.returncode != 0:
            raise BenchError(
                f"{WHO}: umount {mount} failed: {proc.stderr.strip()} (a process still "
                "uses it? fuser -m " + str(mount) + ")"
            )
        print(f"{mount}: unmounted")
    if glusterd_answers():
        info = volume_info(name)
        if info is not None:
            if info.get("Status") == "Started":
                gluster("volume", "stop", name)
            gluster("volume", "delete", name)
            print(f"volume {name}: stopped and deleted")
        for i in range(1, count + 1):
            shutil.rmtree(brick_root / f"brick{i}", ignore_errors=True)
        if brick_root.is_dir() and not any(brick_root.iterdir()):
            brick_root.rmdir()
        print(f"bricks under {brick_root}: removed")
        if stop_daemon:
            listed = gluster("volume", "list").stdout.strip()
            left = [] if listed.startswith("No volumes") else listed.split()
            if left:
                print(f"glusterd: left running, it serves {', '.join(left)}")
            else:
                stop_glusterd()
    else:
        print("glusterd: not running; nothing to delete")


def stop_glusterd() -> None:
    pid_file = Path("/run/glusterd.pid")
    try:
        pid = int(pid_file.read_text().strip())
    except (OSError, ValueError):
        print("glusterd: no /run/glusterd.pid; left running")
        return
    os.kill(pid, signal.SIGTERM)
    print(f"glusterd: stopped (pid {pid})")


def parse_args(argv: Sequence[str]) -> argparse.Namespace:
    p = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    p.add_argument("--name", default="iotuner", help="volume name (default iotuner)")
    p.add_argument("--mount", type=Path, default=Path("/mnt/iotuner-gluster"))
    p.add_argument("--brick-root", type=Path, default=Path("/srv/iotuner-gluster"))
    p.add_argument("--bricks", type=int, default=4, help="bricks (default 4)")
    p.add_argument("--teardown", action="store_true", help="unmount, delete, remove bricks")
    p.add_argument("--stop-glusterd", action="store_true", help="with --teardown")
    args = p.parse_args(argv)
    if args.bricks < 1:
        p.error(f"--bricks must be at least 1, got {args.bricks}")
    if args.stop_glusterd and not args.teardown:
        p.error("--stop-glusterd goes with --teardown")
    return args


def main(argv: Sequence[str]) -> None:
    args = parse_args(argv)
    require_tools()
    if args.teardown:
        teardown(args.name, args.mount, args.brick_root, args.bricks, args.stop_glusterd)
        return
    start_glusterd()
    host = create_volume(args.name, args.brick_root, args.bricks)
    start_volume(args.name)
    mount_volume(args.name, host, args.mount)


if __name__ == "__main__":
    bench_main(main)
