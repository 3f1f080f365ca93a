"""How good is the demo's tuning? Runs `iotuner demo` several times and prints, for each run
and over all, the tuned configuration's bandwidth as a fraction of the best found by trying
every configuration, and as a multiple of the default (medians of each run's repeats), and
in how many runs the table kept the default (the tuned run then is the default again).

    .venv/bin/python bench/demo_quality.py [--runs 3] [--repeats 5] [--dir bench-demo]

A benchmark: it prints figures and asserts nothing. Each run takes one to three minutes on
a 2-core machine.
"""

import argparse
import statistics
from pathlib import Path

from rich.console import Console

from iotuner.demo import DemoSettings, run_demo


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--nprocs", type=int, default=2)
    parser.add_argument("--dir", type=Path, default=Path("bench-demo"))
    args = parser.parse_args()
    quiet = Console(quiet=True)
    fractions, speedups, kept = [], [], 0
    for run in range(args.runs):
        series = run_demo(DemoSettings(args.nprocs, args.repeats, args.dir / f"run{run}"), quiet)
        best, tuned, default = (series[k].median for k in ("best", "tuned", "default"))
        fractions.append(tuned / best)
        speedups.append(tuned / default)
        kept += not series["tuned"].hints  # the table kept the default for this workload
        print(
            f"run {run}: default {default:7.1f}  tuned {tuned:7.1f}  best {best:7.1f} MiB/s"
            f"  tuned/best {tuned / best:5.0%}  tuned/default {tuned / default:5.2f}x"
            f"  tuned hints {series['tuned'].hints or '(none)'}"
        )
    print(
        f"over {args.runs} runs: tuned/best median {statistics.median(fractions):.0%} "
        f"(min {min(fractions):.0%}, max {max(fractions):.0%}); tuned/default median "
        f"{statistics.median(speedups):.2f}x (min {min(speedups):.2f}x, max {max(speedups):.2f}x); "
        f"the table kept the default in {kept} of {args.runs} runs"
    )


if __name__ == "__main__":
    main()
