"""What a search optimises: one base class, answered by running the program or by a table.

Objective is the extension point: the search (the loop, the study, the verdict, the
report) asks an objective only what this base class declares, and never which class it
is. RunObjective runs the user's command under the interposer with the configuration's
hints and measures it; OfflineObjective (_offline) looks the configuration up in a table
of measured results.

The search reads what the program does (its reads and writes, collective or not) from one
traced run of the default (`evaluate(..., trace=True)`), or from a trace the user gives;
with `bandwidth` that run is the first trial.
"""

import functools
import json
import re
import shutil
import time
from collections.abc import Callable, Collection, Mapping, Sequence
from pathlib import Path

from iotuner.errors import ConfigError, RunError, TraceLogError
from iotuner.measurement import Workload
from iotuner.runner import find_library, make_log_dir
from iotuner.search._common import DIRECTIONS, SearchError, TrialOutcome
from iotuner.search._launchers import Journal, Launched, Launcher, LocalLauncher
from iotuner.search._result import OfflineSummary, TrialRecord
from iotuner.space import Configuration, Space
from iotuner.table import TableEntry, write_table
from iotuner.tracelog import TraceLog, dominant_workload, read_tracelog

__all__ = [
    "MEASURES",
    "Objective",
    "RunObjective",
    "bandwidth_from_logs",
    "parse_measure",
    "workload_from_logs",
]

MEASURES = ("bandwidth", "walltime", "regex")
"""What a RunObjective measures: the trace's bandwidth, the wall time, a printed number."""

_DEFAULT_DIRECTION = {"bandwidth": "maximize", "walltime": "minimize", "regex": "maximize"}
_PLACEHOLDER = re.compile(r"\{([A-Za-z_][A-Za-z0-9_]*)\}")
TRIAL_PLACEHOLDER = "trial"
"""`{trial}` in the command becomes the trial's label (e.g. to give each run its own file)."""
_MIB = 1024.0 * 1024.0
TAIL_LINES = 5
"""Lines of a failed trial's standard output kept in its outcome (TrialOutcome.stdout_tail)."""
_LAUNCHER_NAMES = {"mpiexec", "mpirun", "srun", "aprun", "mpiexec.hydra", "orterun"}


class Objective:
    """Base class: answers a configuration of `space` with a value to maximise or minimise.

    A subclass sets `space`, `direction` ("maximize" or "minimize") and `description` (what
    the value is) and implements evaluate(); every other member has the answer of an
    objective that runs nothing and knows nothing beyond its answers, and a subclass
    overrides what differs. The search relies on these and on nothing else:

    * what to propose: candidates();
    * how to answer: evaluate(), and whether asking again measures again (`remeasurable`:
      the verdict re-measures the best found against the default only then);
    * what it runs: `command` and `trial_mode` (the report), `runs_program` and
      `traces_trials` (whether a traced run of the default can show what the program does,
      and whether that run is a trial);
    * how many trials at once: slots();
    * which study it belongs to: signature() and study_label() (resume);
    * what it knows without a search: best_known() and summary() (a table's best);
    * how a trial reads in the report: describe(); what the report notes about the
      objective itself: notes().
    """

    space: Space
    direction: str
    description: str
    command: list[str] | None = None
    """The command a trial runs (placeholders unfilled), for the report; None: none."""
    remeasurable = False
    """Whether evaluating a configuration again gives a new measurement (a run does, a
    table's answer does not), so that re-measuring the best against the default can judge
    whether it is better beyond the noise."""
    runs_program = False
    """Whether evaluate() runs the program, so that evaluate(default, ..., trace=True)
    shows what it does (its accesses, and the workload the model strategy needs)."""
    traces_trials = False
    """Whether every trial is traced (its value is read from the trace): the traced run of
    the default is then a trial like any other, not an extra run."""
    journal: Callable[[str, str, object], None] | None = None
    """Set by the search: keeps a fact about the running trial labelled by its first
    argument in the study (a batch launcher's job id, for collect())."""

    def collect(
        self, config: Configuration, label: str, submitted: Mapping[str, object]
    ) -> TrialOutcome | None:
        """The outcome of a trial an earlier search started and did not see end
        (`submitted`: what its launcher kept, e.g. a Slurm job), waited for; None when it
        cannot be collected (it is then run again)."""
        return None

    def cores(self) -> int | None:
        """How many cores one trial holds (for a budget in core-hours); None: it runs
        nothing."""
        return None

    def evaluate(self, config: Configuration, label: str, *, trace: bool = False) -> TrialOutcome:
        """Measure (or look up) one configuration; `label` names the trial (e.g. "12").

        `trace` asks for a traced run even when the value does not need one (to read what
        the program does); an objective that runs nothing ignores it. A failed trial is an
        outcome with a reason, not an exception: exceptions stop the search."""
        raise NotImplementedError

    def candidates(self) -> list[Configuration] | None:
        """The configurations worth proposing (None: all of the space). The strategies that
        choose from a list choose from these."""
        return None

    def measures(self, config: Configuration) -> bool:
        """Whether evaluate() measures `config` itself: every configuration of the space for
        an objective that runs the program, only its own for a table of results. The
        search makes a trial only of a configuration the objective measures (_loop)."""
        return True

    def stand_in(self, config: Configuration, taken: Collection[str]) -> Configuration | None:
        """What to measure instead of a configuration the objective does not measure
        (measures() False): the nearest one it does measure whose config_key is not in
        `taken`; None when there is none."""
        return None

    def problem_key(self) -> str:
        """A text naming the problem the search solves, the same for the same problem: a
        strategy draws its random choices from the seed mixed with it
        (_strategies.problem_seed), so one seed draws independently on two problems. By
        default the signature; a table's is what it measured (OfflineObjective)."""
        return json.dumps(self.signature(), sort_keys=True, default=str)

    @property
    def trial_mode(self) -> str | None:
        """The interposer's mode of the trials' runs (None: nothing runs)."""
        return None

    def slots(self, requested: int) -> tuple[int, str]:
        """How many trials may run at once when `requested` are asked for (1 <= n <=
        requested), and what limits them when fewer."""
        if requested < 1:
            raise SearchError(f"the number of parallel trials must be >= 1, got {requested}")
        return 1, "nothing runs"

    def signature(self) -> dict[str, object]:
        """What a study must have been made for to be resumed by this objective: the space,
        what the value is and its direction; a subclass adds what it answers from (the
        command, the table)."""
        return {
            "space": {p.name: [str(v) for v in p.values] for p in self.space.parameters},
            "objective": self.description,
            "direction": self.direction,
        }

    def study_label(self) -> str:
        """The start of the default study name: what is searched, in a few characters."""
        return self.space.name

    def best_known(self) -> tuple[Configuration, float] | None:
        """The best configuration and value there are, when known without searching (a table
        of measured results knows them); None otherwise. A search can stop on reaching a
        fraction of it."""
        return None

    def summary(
        self, trials: Sequence[TrialRecord], target_fraction: float
    ) -> OfflineSummary | None:
        """How the trials did against what the objective knows (best_known()), or None."""
        return None

    def describe(self, outcome: TrialOutcome) -> str:
        """What the report adds after a trial's configuration ("" for nothing)."""
        return ""

    def notes(self) -> list[str]:
        """What the report notes about how the objective was set up (e.g. which columns of
        a table are the parameters); empty for nothing."""
        return []


def parse_measure(text: str) -> tuple[str, re.Pattern[str] | None]:
    """'bandwidth', 'walltime' or 'regex:PATTERN' as (measure, compiled pattern or None)."""
    if text in ("bandwidth", "walltime"):
        return text, None
    if text.startswith("regex:"):
        source = text[len("regex:") :]
        try:
            pattern = re.compile(source)
        except re.error as exc:
            raise SearchError(f"the objective's pattern {source!r} is not a regex: {exc}") from None
        if not source:
            raise SearchError("the objective 'regex:' needs a pattern, e.g. regex:time=([0-9.]+)")
        return "regex", pattern
    raise SearchError(
        "the objective must be bandwidth, walltime, regex:PATTERN or a CSV file of "
        f"measured results, got {text!r}"
    )


def bandwidth_from_logs(logs: Sequence[TraceLog]) -> tuple[float, int, float]:
    """The I/O bandwidth of one run from its trace logs: (MiB/s, bytes, seconds).

    Bytes: the `bytes` of every `op` row (all ranks together). Seconds: the `duration` of
    every `op` row (the slowest rank's time in the call; for a summary row of independent
    calls, the slowest rank's total time in them) plus the `duration` of every
    MPI_File_sync `meta` record of a file that has `op` rows. Time outside those calls
    (computation, open, close) is not counted: it is the I/O library's bandwidth, as in
    the thesis' fitness function.

    RATIONALE: the sync is counted because on a file system with a page cache a write
    call returns before the data reaches storage; a configuration that only makes the
    call faster while the sync gets slower would otherwise look better than it is.
    SearchError (message for the trial) when the logs hold no data operation.
    """
    total_bytes = 0
    seconds = 0.0
    for log in logs:
        files = set()
        for op in log.ops:
            total_bytes += int(op["bytes"])
            seconds += float(op["duration"])
            files.add(op["file"])
        seconds += sum(
            float(m["duration"])
            for m in log.metas
            if m["operation"] == "MPI_File_sync" and m["file"] in files
        )
    if total_bytes <= 0 or seconds <= 0:
        raise SearchError("the trace holds no timed data operation (no MPI-IO reads or writes)")
    return total_bytes / _MIB / seconds, total_bytes, seconds


def workload_from_logs(logs: Sequence[TraceLog]) -> Workload:
    """The workload a run did, from its trace (tracelog.dominant_workload, the same
    reading of a trace as ingest and trace history): the access that moved the most bytes,
    its bytes per rank per call, calls per open, the scale and the layout.

    A trace does not record the shape of a strided layout, so a strided workload gets
    block 0 and fill 1 (as when traces are ingested into the knowledge base).
    """
    try:
        workload = dominant_workload(logs)
    except TraceLogError as exc:
        raise SearchError(f"the trace does not describe a workload: {exc}") from None
    if workload is None:
        raise SearchError("the trace holds no data operation to describe the workload")
    return workload


class RunObjective(Objective):
    """Runs the command with the configuration and measures the run.

    Per trial: the configuration's hints go into a tuning table of one `"at": "open"`
    entry and the command runs under the interposer in mode `tune`, or `tune,trace` when
    the value is read from the trace (see evaluate and mode); application parameters are put
    into the command's arguments (`{name}` replaced by the value in each argument, by text
    replacement, never through a shell) or into the environment variable their space names
    (`env`). `{trial}` is replaced by the trial's label. The value:

    * `bandwidth`: bandwidth_from_logs() of the run's trace logs (MiB/s, maximise);
    * `walltime`: the command's wall time in seconds (minimise);
    * `regex`: the number in the last line of standard output the pattern matches (its
      first group, or the whole match when it has none; maximise).

    A trial fails (it is not a zero) when the command exits non-zero, times out, leaves no
    trace log with data operations (bandwidth) or prints no match (regex); its outcome then
    keeps the last lines the command printed.
    """

    remeasurable = True
    runs_program = True

    def __init__(
        self,
        command: Sequence[str],
        space: Space,
        *,
        measure: str = "bandwidth",
        pattern: re.Pattern[str] | None = None,
        direction: str | None = None,
        launcher: Launcher | None = None,
        log_dir: Path | str = "iotuner-search-logs",
        timeout: float | None = None,
        policy: str = "table",
    ) -> None:
        if measure not in MEASURES:
            raise SearchError(f"the measure must be one of {', '.join(MEASURES)}, got {measure!r}")
        if (measure == "regex") != (pattern is not None):
            raise SearchError("a regex objective needs a pattern, and only it takes one")
        if direction is not None and direction not in DIRECTIONS:
            raise SearchError(f"the direction must be maximize or minimize, got {direction!r}")
        if timeout is not None and timeout <= 0:
            raise SearchError(f"the timeout must be a positive number of seconds, got {timeout}")
        self.command: list[str] = list(command)
        self.space = space
        self.measure = measure
        self.traces_trials = measure == "bandwidth"  # the value is read from the trace
        self.pattern = pattern
        self.direction = direction or _DEFAULT_DIRECTION[measure]
        self.launcher = launcher or LocalLauncher()
        self.log_dir = Path(log_dir).absolute()
        self.timeout = timeout
        self.policy = policy
        self.description = {
            "bandwidth": "I/O bandwidth from the trace (MiB/s)",
            "walltime": "wall time of the command (s)",
            "regex": f"number printed by the program ({pattern.pattern if pattern else ''})",
        }[measure]
        self._check_command()
        find_library()
        try:
            make_log_dir(self.log_dir / "tables")  # private, like every trace log directory
        except ConfigError as exc:
            raise SearchError(str(exc)) from None

    def _check_command(self) -> None:
        """Placeholders name application parameters (or `trial`); every application
        parameter without an environment variable is used; what the launcher starts of the
        command exists (with Slurm the program, not the user's mpiexec it drops)."""
        if not self.command:
            raise SearchError("no command to run: give it after '--', e.g. -- mpiexec -n 2 ./app")
        app = {p.name: p for p in self.space.parameters if p.kind == "app"}
        used = {name for arg in self.command for name in _PLACEHOLDER.findall(arg)}
        unknown = sorted(used - set(app) - {TRIAL_PLACEHOLDER})
        if unknown:
            known = [*(f"{{{n}}}" for n in sorted(app)), f"{{{TRIAL_PLACEHOLDER}}}"]
            raise SearchError(
                f"the command has placeholder(s) {', '.join(f'{{{n}}}' for n in unknown)} "
                f"that name no application parameter of space {self.space.name!r} "
                f"(expected one of {', '.join(known)})"
            )
        unused = sorted(n for n, p in app.items() if p.env is None and n not in used)
        if unused:
            raise SearchError(
                f"application parameter(s) {', '.join(unused)} of space {self.space.name!r} "
                "have no env variable and no {name} placeholder in the command: the program "
                "would never see them"
            )
        program = self.launcher.program(self.command)
        if shutil.which(program) is None:
            raise SearchError(f"cannot run {program!r}: not found or not executable")

    def arguments(self, config: Configuration, label: str) -> list[str]:
        """The command with every `{name}` replaced (no shell: one argument stays one)."""
        values = {**self.space.app_values(config), TRIAL_PLACEHOLDER: label}
        return [
            _PLACEHOLDER.sub(lambda m: values.get(m.group(1), m.group(0)), arg)
            for arg in self.command
        ]

    def environment(self, config: Configuration) -> dict[str, str]:
        """The environment variables of the configuration's application parameters."""
        values = self.space.app_values(config)
        return {p.env: values[p.name] for p in self.space.parameters if p.env is not None}

    def mode(self, trace: bool = False) -> str:
        """The interposer's mode for a run: `tune`, with the trace only when the objective
        reads it or `trace` asks for it (the run that shows what the program does).

        **The trace:** only when the objective reads it. `walltime` and `regex` (a figure the
        program prints) run in mode `tune` with no trace at all; `bandwidth` takes its figure
        from the trace and runs in mode `tune,trace`, so its trials and re-measures carry the
        tracer's per-call cost. Prefer `walltime` or `regex` to measure the program as it runs.
        """
        return "tune,trace" if trace or self.traces_trials else "tune"

    @property
    def trial_mode(self) -> str:
        return self.mode()

    def slots(self, requested: int) -> tuple[int, str]:
        """As many trials at once as the launcher allows."""
        super().slots(requested)
        return self.launcher.slots(requested), f"the {self.launcher.name} launcher's limit"

    def signature(self) -> dict[str, object]:
        return {**super().signature(), "command": self.command}

    def study_label(self) -> str:
        return f"{Path(program_guess(self.command)).name}-{self.space.name}"

    def problem_key(self) -> str:
        """The signature with each path in the command by its last part: the same program
        with the same arguments is the same problem wherever it and its files lie (a
        search's random draws do not change with the folder it runs in)."""
        command = [re.sub(r"[^\s=:,]*/", "", argument) for argument in self.command]
        return json.dumps({**self.signature(), "command": command}, sort_keys=True, default=str)

    def evaluate(self, config: Configuration, label: str, *, trace: bool = False) -> TrialOutcome:
        """Run the command with the configuration's hints; `trace` traces the run even
        when the objective does not need it (its value is then not a trial's figure).

        How a trial's hints reach MPI. A trial must measure what the program would do with
        those hints, so it adds no more than it needs to the run:

        **The hints:** a tuning table of ONE entry, `"at": "open"`, holding every key of the
        configuration, and the interposer in mode `tune`. Every MPI_File_open of the program
        gets them; a key set at open stays in force for every later access (no access entry
        changes it, and a set_view keeps the hints in force), so this is the configuration,
        whatever the key's `when` in hints.def. It is the cheapest faithful route: with no
        access entries the interposer makes no decision, and no reduction, at any data call.
        (An access entry as well would add one decision per collective call, for the same
        hints. ROMIO_HINTS would need no interposer, but only ROMIO reads it and the
        program's own hints override it, so the trial would not always get its hints.)

        **The default** configuration passes no hints (space.hints leaves defaults out): its
        table's entry is empty, so the program gets what it gets without iotuner.
        """
        hints: dict[str, str | int] = dict(self.space.hints(config))
        table = self.log_dir / "tables" / f"{label}.jsonl"
        # One open entry: the keys stay in force for every access (evaluate's docstring).
        # `program: "*"`: an entry that names the program (any program) wins over the
        # program's own hints for the same key, so a trial tries the value it says.
        trial = TableEntry(at="open", program="*", hints=hints, note=f"search trial {label}")
        write_table(table, [trial])
        argv = self.launcher.command(self.arguments(config, label))
        journal: Journal | None = (
            functools.partial(self.journal, label) if self.journal is not None else None
        )
        started = time.monotonic()
        try:
            launched = self.launcher.run(
                argv,
                mode=self.mode(trace),
                table=table,
                log_dir=self.log_dir,
                policy=self.policy,
                extra_env=self.launcher.env(self.environment(config)),
                timeout=self.timeout,
                journal=journal,
            )
        except RunError as exc:  # a failed trial; a ConfigError is the user's to fix
            return TrialOutcome(None, str(exc), time.monotonic() - started)
        return self._outcome(launched)

    def collect(
        self, config: Configuration, label: str, submitted: Mapping[str, object]
    ) -> TrialOutcome | None:
        launched = self.launcher.collect(submitted, self.timeout)
        return None if launched is None else self._outcome(launched)

    def cores(self) -> int:
        return self.launcher.cores(self.command)

    def _outcome(self, launched: Launched) -> TrialOutcome:
        result, seconds = launched.result, launched.seconds
        logs = tuple(result.logs)
        value: float | None = None
        if launched.failure is not None:
            reason: str | None = launched.failure
        elif result.returncode != 0:
            # srun's own lines ("srun: error: ...: Exited with exit code 3") say less
            # than the program's last one.
            lines = result.stderr.strip().splitlines()
            lines = [line for line in lines if not line.startswith("srun: ")] or lines
            last = (lines or [""])[-1][:200]
            reason = f"exit status {result.returncode}" + (f": {last}" if last else "")
            if launched.job:
                reason = f"{launched.job}: {reason}"
        else:
            try:
                value, reason = self._value(result.stdout, seconds, logs), None
            except SearchError as exc:
                reason = str(exc)
        # What a failed run printed last, for the report to show why it failed.
        tail = "" if value is not None else "\n".join(result.stdout.splitlines()[-TAIL_LINES:])
        return TrialOutcome(
            value,
            reason,
            seconds=seconds,
            logs=logs,
            returncode=result.returncode,
            stdout_tail=tail,
        )

    def _value(self, stdout: str, seconds: float, logs: tuple[Path, ...]) -> float:
        if self.measure == "walltime":
            return seconds
        if self.measure == "regex":
            assert self.pattern is not None
            matches = [m for m in map(self.pattern.search, stdout.splitlines()) if m]
            if not matches:
                raise SearchError(f"no line of the output matches {self.pattern.pattern!r}")
            text = matches[-1].group(1) if self.pattern.groups else matches[-1].group(0)
            try:
                return float(text)
            except ValueError:
                raise SearchError(f"the pattern matched {text!r}, which is not a number") from None
        if not logs:
            raise SearchError(
                "no trace log (did the program reach MPI_Finalize under the interposer?)"
            )
        try:
            traces = [read_tracelog(path) for path in logs]
        except TraceLogError as exc:
            raise SearchError(f"unreadable trace: {exc}") from None
        return bandwidth_from_logs(traces)[0]


def trace_identity(logs: Sequence[Path]) -> tuple[str | None, int | None]:
    """The program name and number of ranks of a run, from its first readable trace log."""
    for path in logs:
        try:
            job = read_tracelog(path).job
        except TraceLogError:
            continue
        return str(job["program"]), int(job["nprocs"])
    return None, None


def program_guess(command: Sequence[str]) -> str:
    """The program in a launcher command: the first argument after the launcher's options
    (an option's value is skipped when it is a number)."""
    args = list(command)
    if args and Path(args[0]).name in _LAUNCHER_NAMES:
        rest = args[1:]
        i = 0
        while i < len(rest):
            if rest[i].startswith("-"):
                i += 2 if i + 1 < len(rest) and rest[i + 1].isdigit() else 1
                continue
            return rest[i]
    return args[0] if args else "command"
