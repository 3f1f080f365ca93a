"""The demo command: the whole loop (bench, train, tune, and a check on a workload the
sweep never saw) on this machine, in a directory of its own."""

import argparse
from pathlib import Path

from iotuner._printable import terminal
from iotuner.cli._common import Subparsers

__all__ = ["add_demo"]


def add_demo(subparsers: Subparsers) -> None:
    parser = subparsers.add_parser(
        "demo",
        help="the whole loop on this machine: bench, train, tune, and check on a new workload",
        description=(
            "Sweep a small parameter space into a fresh knowledge base, train and choose a "
            "model, write a tuning table, then compare default, tuned and the best of all "
            "configurations (found by trying them) on a workload the sweep never saw."
        ),
    )
    parser.add_argument(
        "--nprocs",
        type=int,
        default=2,
        help="MPI ranks (default 2: one per core here; oversubscribed ranks busy-wait)",
    )
    parser.add_argument("--repeats", type=int, default=5, help="runs of each (default 5)")
    parser.add_argument(
        "--sweep-repeats",
        type=int,
        default=3,
        help="repeats of each measurement in the sweep (default 3)",
    )
    parser.add_argument(
        "--dir",
        type=Path,
        default=Path("demo-output"),
        help="working directory: data, knowledge base, model, table, logs (./demo-output)",
    )
    parser.set_defaults(handler=_demo)


def _demo(args: argparse.Namespace) -> int:
    from iotuner.demo import DemoSettings, run_demo

    settings = DemoSettings(args.nprocs, args.repeats, args.dir, args.sweep_repeats)
    run_demo(settings, terminal())
    return 0
