"""Property tests of the trace log reader (issue 24, items 1 and 8): mutations of real trace
logs (lines dropped, repeated or swapped, values of another type, numbers made negative or
huge, records and objects made lists, the text cut or its bytes flipped) are either a log
that every reader of logs takes (workloads, show's summary and decisions, log2csv's table,
the run's dominant workload, ingest) or one TraceLogError naming the file; never another
exception.

The logs mutated: the sample log of tests/data and a log the interposer writes here of
iokernel on 2 ranks (skipped when the interposer or MPI is not installed).

RATIONALE: the examples per test come from $IOTUNER_FUZZ_EXAMPLES (default 50), so CI
can run many more than a developer's quick run.
"""

import json
import math
import subprocess
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from iotuner.decisions import table_decisions
from iotuner.errors import IotunerError, TraceLogError
from iotuner.ingest import ingest_trace
from iotuner.store import Store, open_store
from iotuner.summary import summarize
from iotuner.trace_export import op_table
from iotuner.tracelog import TraceLog, dominant_workload, read_tracelog

# The example count is the fuzz profile's (tests/fuzz/conftest.py, IOTUNER_FUZZ_EXAMPLES);
# the fixtures (a folder, a store) are shared by a test's examples, each of which writes
# its own file.
EXAMPLES = settings(
    suppress_health_check=[
        HealthCheck.function_scoped_fixture,
        HealthCheck.too_slow,
        HealthCheck.data_too_large,
    ],
)

SAMPLE_LOG = (
    Path(__file__).resolve().parent.parent
    / "data"
    / "ior-20250101-120000-4242-0123456789ab.iotrace.jsonl"
)


@pytest.fixture(scope="module")
def real_log(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A log of the interposer: iokernel on 2 ranks, collective writes then reads of
    three sizes over two opens."""
    try:
        from iotuner.runner import build_config, find_program

        launch = [build_config().mpiexec, "-n", "2", str(find_program("iokernel"))]
    except IotunerError as exc:
        pytest.skip(f"no interposer or MPI to write a real log: {exc}")
    work = tmp_path_factory.mktemp("real-log")
    iotuner = Path(sys.executable).parent / "iotuner"
    kernel = ["--file", str(work / "F"), "--op", "both", "--size", "12k", "--calls", "3"]
    kernel += ["--repeat", "2"]
    command = [str(iotuner), "run", "--log-dir", str(work / "logs"), "--", *launch, *kernel]
    done = subprocess.run(command, capture_output=True, text=True, timeout=180, check=False)
    assert done.returncode == 0, done.stdout + done.stderr
    (log,) = (work / "logs").glob("*.iotrace.jsonl")
    return log


@pytest.fixture(scope="module")
def store(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Store]:
    with open_store(str(tmp_path_factory.mktemp("kb") / "kb.sqlite")) as opened:
        yield opened


# ------------------------------------------------------------------ mutations

JSON_VALUES = st.recursive(
    st.none()
    | st.booleans()
    | st.integers()
    | st.floats(allow_nan=True, allow_infinity=True)
    | st.text(max_size=8),
    lambda inner: (
        st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=4), inner, max_size=3)
    ),
    max_leaves=6,
)
"""Any JSON value Python's decoder gives (NaN and Infinity included)."""

HOSTILE_NUMBERS = st.sampled_from(
    [
        math.nan,
        math.inf,
        -math.inf,
        0,
        -1,
        -2,
        1,
        2**31,
        2**53 + 1,
        2**63 - 1,
        2**63,
        -(2**63) - 1,
        2**64,
        10**30,
        1e308,
        -1e308,
        1e-320,
    ]
)
HOSTILE_TEXTS = st.sampled_from(
    ["", "\x00", "a\x00b", "\ud800", "\x1b[2J", "..", "/", "x" * 300, "é"]
)


MUTATIONS = [
    "drop",
    "repeat",
    "swap",
    "type",
    "number",
    "number",
    "text",
    "list",
    "delete key",
    "new key",
]
"""Record-level mutations; numbers twice as often, as most keys and most rules are numbers."""


@st.composite
def _mutated_records(draw: st.DrawFn, records: list[Any]) -> list[Any]:
    """`records` after one to three record-level mutations, each of a record picked by its
    kind first (a log of many op rows would otherwise leave its few other records alone)."""
    records = json.loads(json.dumps(records))  # a deep copy to mutate
    for _ in range(draw(st.integers(1, 3))):
        if not records:
            break
        index = _pick_record(draw, records)
        record = records[index]
        kind = draw(st.sampled_from(MUTATIONS))
        if kind == "drop":
            del records[index]
        elif kind == "repeat":
            records.insert(draw(st.integers(0, len(records))), json.loads(json.dumps(record)))
        elif kind == "swap":
            other = draw(st.integers(0, len(records) - 1))
            records[index], records[other] = records[other], records[index]
        elif kind == "list" and isinstance(record, dict):
            inner = [(record, k) for k, v in record.items() if isinstance(v, dict)]
            if inner and draw(st.booleans()):
                owner, key = draw(st.sampled_from(inner))
                owner[key] = list(owner[key].values())
            else:
                records[index] = list(record.values())
        elif kind == "number" and isinstance(record, dict):
            numbers = _leaves(
                record, lambda v: isinstance(v, (int, float)) and not isinstance(v, bool)
            )
            if numbers:
                owner, key = draw(st.sampled_from(numbers))
                owner[key] = draw(_hostile_number(owner[key]))
        elif isinstance(record, dict) and record:
            owner, key = draw(st.sampled_from(_leaves(record, lambda v: True)))
            if kind == "type":
                owner[key] = draw(JSON_VALUES)
            elif kind == "text":
                owner[key] = draw(HOSTILE_TEXTS)
            elif kind == "delete key":
                del owner[key]
            else:
                owner[draw(st.text(max_size=6))] = draw(JSON_VALUES)
    return records


def _pick_record(draw: st.DrawFn, records: list[Any]) -> int:
    """The index of a record: first its kind (its "record" value), then one of that kind."""
    by_kind: dict[str, list[int]] = {}
    for index, record in enumerate(records):
        name = record.get("record") if isinstance(record, dict) else None
        by_kind.setdefault(str(name), []).append(index)
    indices = by_kind[draw(st.sampled_from(sorted(by_kind)))]
    return draw(st.sampled_from(indices))


def _leaves(record: dict[str, Any], keep: Any) -> list[tuple[dict[str, Any], str]]:
    """(owner, key) of the values `keep` takes, in the record and its objects (hints, a
    file's pattern)."""
    owners = [record, *(v for v in record.values() if isinstance(v, dict))]
    return [(owner, key) for owner in owners for key in sorted(owner) if keep(owner[key])]


def _hostile_number(value: float) -> st.SearchStrategy[Any]:
    """A number at or past a bound: 0, -1, minus the value, one more or a lot more than
    it, the ends of 64 bits and beyond, NaN and the infinities."""
    near = [0, -1, -2, 1, -value, value + 1, value * 1000 + 7]
    return st.sampled_from(near) | HOSTILE_NUMBERS


@st.composite
def _mutated_bytes(draw: st.DrawFn, data: bytes) -> bytes:
    """`data` cut short, or with some bytes flipped, or both."""
    if draw(st.booleans()):
        data = data[: draw(st.integers(0, len(data)))]
    flips = draw(
        st.lists(st.tuples(st.integers(0, max(0, len(data) - 1)), st.integers(1, 255)), max_size=4)
    )
    changed = bytearray(data)
    for at, mask in flips:
        if changed:
            changed[at] ^= mask
    return bytes(changed)


# ------------------------------------------------------------------ the property


def _read_everything(path: Path, store: Store) -> None:
    """What the commands that read logs do with one; only TraceLogError (or, from ingest,
    another IotunerError naming the log) may come out."""
    try:
        log = read_tracelog(path)
    except TraceLogError as exc:
        assert str(exc).startswith((f"{path}", f"cannot read {path}")), exc
        assert "\n" not in str(exc)
        # The reader's fast check of op rows and its full check agree: never the fallback.
        assert "not as formats/trace_op_fields.def says" not in str(exc), exc
        event("refused")  # --hypothesis-show-statistics tells how many of each
        return
    event("read")
    _use(log)
    try:
        ingest_trace(store, path)
    except IotunerError as exc:
        assert str(path) in str(exc), exc


def _use(log: TraceLog) -> None:
    for index in range(len(log.ops)):
        try:
            workload = log.workload_of(index)
        except TraceLogError as exc:
            assert str(exc).startswith(f"{log.path} line "), exc
            continue
        assert workload.nprocs >= 1 and workload.calls_per_open >= 1
        assert math.isfinite(workload.fill)
    summary = summarize(log)
    json.dumps([f.file for f in summary.files]).encode()  # names are text a terminal takes
    table_decisions(log)
    op_table(log)
    try:
        dominant_workload([log])
    except TraceLogError as exc:
        assert str(exc).startswith(f"{log.path} line "), exc


def _records(path: Path) -> list[Any]:
    return [json.loads(line) for line in path.read_text().splitlines()]


def _write(tmp_path: Path, name: str, data: bytes) -> Path:
    path = tmp_path / name
    path.write_bytes(data)
    return path


def _dump(records: list[Any]) -> bytes:
    return "".join(json.dumps(r) + "\n" for r in records).encode("utf-8", "surrogatepass")


@pytest.mark.parametrize("which", ["sample", "real"])
@EXAMPLES
@given(data=st.data())
def test_a_mutated_log_reads_or_is_one_trace_log_error(
    tmp_path: Path,
    store: Store,
    request: pytest.FixtureRequest,
    which: str,
    data: st.DataObject,
    count_input: Callable[[str], None],
) -> None:
    # The shipped sample, or a log the test traced itself (the fixture only when asked).
    log = SAMPLE_LOG if which == "sample" else request.getfixturevalue("real_log")
    records = data.draw(_mutated_records(_records(log)))
    count_input(f"trace: mutated {which} log")
    _read_everything(_write(tmp_path, f"{which}.iotrace.jsonl", _dump(records)), store)


@EXAMPLES
@given(data=st.data())
def test_a_cut_or_damaged_log_reads_or_is_one_trace_log_error(
    tmp_path: Path,
    store: Store,
    real_log: Path,
    data: st.DataObject,
    count_input: Callable[[str], None],
) -> None:
    source = data.draw(st.sampled_from([SAMPLE_LOG, real_log]))
    damaged = data.draw(_mutated_bytes(source.read_bytes()))
    count_input("trace: damaged bytes")
    _read_everything(_write(tmp_path, "damaged.iotrace.jsonl", damaged), store)


def test_the_unmutated_logs_read(real_log: Path, store: Store) -> None:
    """The mutations start from logs that read: what fails is the mutation's doing."""
    for path in (SAMPLE_LOG, real_log):
        log = read_tracelog(path)
        _use(log)
        assert len(log.ops) > 0
