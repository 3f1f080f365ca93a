"""Progress on stderr with an ETA for the commands that run long (bench, search, train,
evaluate, tune, ingest of many files), laid out so the figures stay whole at 80 columns:
the counts and times never shrink, the label wraps under them when the line is short.

On a terminal the bar is transient (it goes when the work is done, leaving the results
alone). In a log or a pipe rich draws nothing live, so there the state is written as a
line every minute (IOTUNER_PROGRESS_SECONDS sets the interval), and the last state once at
the end: a job's log then shows it is alive. Never on stdout: a --json command's stdout
must stay one JSON document."""

import math
import os
import sys
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

from rich.console import Console
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    ProgressColumn,
    TaskID,
    TextColumn,
    TimeElapsedColumn,
    TimeRemainingColumn,
)
from rich.table import Column

from iotuner.errors import ConfigError

__all__ = ["INTERVAL_VARIABLE", "Steps", "log_interval", "progress_bar", "steps_bar"]

INTERVAL_VARIABLE = "IOTUNER_PROGRESS_SECONDS"
DEFAULT_INTERVAL = 60.0

Steps = Callable[[str, int, int], None]
"""A progress callback: (what is being done, steps done before it, steps in the phase)."""


def progress_bar(
    console: Console, *extra: ProgressColumn, transient: bool | None = None, eta: bool = True
) -> Progress:
    """A Progress on `console`: the label, a short bar, done/total, elapsed, eta (unless
    the caller's `extra` columns give a better one), then `extra` columns. Transient on a
    terminal unless `transient` says otherwise."""

    def whole() -> Column:
        return Column(no_wrap=True)

    return _Progress(
        TextColumn("{task.description}", table_column=Column(ratio=1, overflow="fold")),
        BarColumn(bar_width=16, table_column=whole()),
        MofNCompleteColumn(table_column=whole()),
        TimeElapsedColumn(table_column=whole()),
        *(
            (TextColumn("eta", table_column=whole()), TimeRemainingColumn(table_column=whole()))
            if eta
            else ()
        ),
        *extra,
        console=console,
        transient=console.is_terminal if transient is None else transient,
        # Lines printed to stdout while the bar is drawn: on the same terminal they go
        # above the bar (through rich), else straight to stdout (a file or a pipe keeps
        # every line; rich would send them to stderr with the bar).
        redirect_stdout=_stdout_is_a_terminal(),
        redirect_stderr=False,
        interval=0.0 if console.is_terminal else log_interval(),
    )


def log_interval() -> float:
    """Seconds between the progress lines written where no bar is drawn (a file, a pipe):
    IOTUNER_PROGRESS_SECONDS, else a minute."""
    text = os.environ.get(INTERVAL_VARIABLE, "").strip()
    if not text:
        return DEFAULT_INTERVAL
    try:
        seconds = float(text)
    except ValueError:
        seconds = math.nan
    if not (math.isfinite(seconds) and seconds > 0):
        raise ConfigError(f"{INTERVAL_VARIABLE} must be a number of seconds above 0, got {text!r}")
    return seconds


class _Progress(Progress):
    """rich's Progress, which writes the tasks as a line every `interval` seconds while it
    runs (0: never); progress_bar asks for that where rich draws nothing live."""

    def __init__(self, *columns: str | ProgressColumn, interval: float, **options: Any) -> None:
        super().__init__(*columns, **options)
        self._interval = interval
        self._ended = threading.Event()
        self._writer: threading.Thread | None = None

    def start(self) -> None:
        super().start()
        if self._interval > 0 and self._writer is None:
            self._ended.clear()
            self._writer = threading.Thread(target=self._write_lines, daemon=True)
            self._writer.start()

    def stop(self) -> None:
        if self._writer is not None:
            self._ended.set()
            self._writer.join()
            self._writer = None
        super().stop()

    def _write_lines(self) -> None:
        while not self._ended.wait(self._interval):
            with self._lock:  # the line is made under the lock, printed outside it
                running = [task for task in self.tasks if task.visible and not task.finished]
                line = self.make_tasks_table(running) if running else None
            if line is not None:
                self.console.print(line)


def _stdout_is_a_terminal() -> bool:
    try:
        return sys.stdout.isatty()
    except (AttributeError, ValueError):  # replaced or closed by the caller
        return False


@contextmanager
def steps_bar(console: Console | None, what: str) -> Iterator[Steps | None]:
    """A Steps callback drawing one bar per phase (a new total starts a new phase) on
    `console`; None without a console."""
    if console is None:
        yield None
        return
    bar = progress_bar(console)
    tasks: dict[int, TaskID] = {}  # the task of each phase, by its number
    phase = [0, -1]  # the phase's number and total

    def step(label: str, done: int, total: int) -> None:
        if total != phase[1] or done == 0 or not tasks:
            if tasks:
                bar.update(tasks[phase[0]], completed=phase[1])
            phase[0] += 1
            phase[1] = total
            tasks[phase[0]] = bar.add_task(f"{what}: {label}", total=total)
        bar.update(tasks[phase[0]], completed=done, description=f"{what}: {label}")

    with bar:
        yield step
        if tasks:
            bar.update(tasks[phase[0]], completed=phase[1])
