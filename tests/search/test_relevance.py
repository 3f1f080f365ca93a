"""Which parameters a program's accesses can reach (hints.def's ops), read from real traces
of our kernel at 2 ranks; the others are fixed at their defaults."""

from pathlib import Path

from iotuner.formats import HINT_OPS, hint_vocabulary
from iotuner.runner import run
from iotuner.search import accesses_from_logs, describe_accesses, relevance
from iotuner.space import load_space, parse_space
from iotuner.tracelog import read_tracelog

from .test_mpi import kernel

READ_SIDE = {"romio_cb_read", "romio_ds_read", "ind_rd_buffer_size"}
WRITE_SIDE = {"romio_cb_write", "romio_ds_write", "ind_wr_buffer_size"}
COLLECTIVE_ONLY = {"romio_cb_write", "romio_cb_read", "cb_nodes", "cb_buffer_size"}


def _traced(tmp_path: Path, *extra: str) -> frozenset[tuple[str, str]]:
    result = run(kernel(tmp_path, *extra), mode="trace", log_dir=tmp_path / "logs", capture=True)
    assert result.returncode == 0, result.stderr
    return accesses_from_logs([read_tracelog(p) for p in result.logs])


def test_a_write_only_program_searches_no_read_side_knob(tmp_path: Path) -> None:
    accesses = _traced(tmp_path)
    assert accesses == {("collective", "write")}
    space = load_space("romio-ufs")
    chosen = relevance(space, accesses, source="from its trace")
    assert set(chosen.fixed) == READ_SIDE
    assert chosen.fixed["romio_ds_read"] == "acts only on collective reads and independent reads"
    assert {p.name for p in chosen.searched.parameters} == {p.name for p in space.parameters} - (
        READ_SIDE
    )
    assert chosen.searched.size * 27 == space.size  # three knobs of three values each
    assert "the program does collective writes (from its trace)" in chosen.note


def test_independent_writes_fix_collective_buffering_too(tmp_path: Path) -> None:
    accesses = _traced(tmp_path, "--pattern", "independent")
    assert accesses == {("independent", "write")}
    chosen = relevance(load_space("romio-ufs"), accesses)
    # Data sieving for writes also acts in independent calls: it stays.
    assert set(chosen.fixed) == READ_SIDE | COLLECTIVE_ONLY
    assert {p.name for p in chosen.searched.parameters} == {"romio_ds_write", "ind_wr_buffer_size"}


def test_reads_fix_the_write_side_and_both_fix_nothing() -> None:
    space = load_space("romio-ufs")
    assert set(relevance(space, frozenset({("collective", "read")})).fixed) == WRITE_SIDE
    both = frozenset({("collective", "read"), ("collective", "write")})
    assert relevance(space, both).fixed == {}
    mixed = frozenset({("collective", "read"), ("independent", "write")})
    assert set(relevance(space, mixed).fixed) == {"romio_cb_write"}
    assert describe_accesses(mixed) == "collective reads and independent writes"


def test_nothing_is_fixed_when_it_could_hide_a_gain() -> None:
    space = load_space("romio-ufs")
    writes = frozenset({("collective", "write")})
    for chosen in (
        relevance(space, None),  # no trace
        relevance(space, frozenset()),  # a trace without data access
        relevance(space, writes, enabled=False),  # --all-parameters
    ):
        assert chosen.fixed == {} and chosen.searched == space
    with_app = parse_space(
        'name = "app"\ndescription = "d"\n[hints.romio_ds_read]\n'
        'values = ["automatic", "disable"]\ndefault = "automatic"\n'
        "[app.n]\nvalues = [1, 2]\ndefault = 1\nenv = 'N'\n",
        "space with an application parameter",
    )
    chosen = relevance(with_app, writes)
    assert chosen.fixed == {} and "application parameters may change" in chosen.note


def test_every_hint_says_what_it_acts_on() -> None:
    vocabulary = hint_vocabulary()
    assert all(h.ops and h.ops <= HINT_OPS for h in vocabulary.values())
    assert vocabulary["romio_cb_read"].ops == {"COLL_READ"}
    assert vocabulary["romio_ds_write"].acts_on("collective", "write")
    assert not vocabulary["ind_rd_buffer_size"].acts_on("independent", "write")
    assert not vocabulary["cb_buffer_size"].acts_on("independent", "read")


def test_aggregators_that_are_the_default_at_the_program_scale_are_not_searched() -> None:
    """Issue 31: with one aggregator per host (no cb_config_list), cb_nodes=2 or 4 on 2
    ranks of one host is the default's one aggregator (formats/hint_scale.def): a search of
    such a program does not spend trials on it. With cb_config_list=*:* (romio-ufs) or on
    4 hosts, cb_nodes acts and is searched."""
    space = parse_space(
        'name = "agg"\ndescription = "d"\n'
        '[hints.romio_cb_write]\nvalues = ["automatic", "enable"]\ndefault = "automatic"\n'
        '[hints.cb_nodes]\nvalues = ["default", 2, 4]\ndefault = "default"\n',
        "a space of cb_nodes without cb_config_list",
    )
    writes = frozenset({("collective", "write")})
    chosen = relevance(space, writes, scale=(2, 1))
    assert chosen.fixed == {
        "cb_nodes": "every value acts as the default on 2 rank(s) of 1 host(s) "
        "(formats/hint_scale.def)"
    }
    assert {p.name for p in chosen.searched.parameters} == {"romio_cb_write"}
    assert relevance(space, writes, scale=(8, 4)).fixed == {}
    assert relevance(load_space("romio-ufs"), writes, scale=(2, 1)).fixed.keys() == READ_SIDE
