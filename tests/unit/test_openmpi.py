"""iotuner.openmpi and the two OMPIO definitions in formats/ (issue 11)."""

from pathlib import Path

import pytest

from iotuner import formats
from iotuner.errors import FormatError
from iotuner.openmpi import (
    is_open_mpi_library,
    ompio_job_env,
    ompio_selected,
    open_mpi_major,
    program_hints_for,
)


@pytest.mark.parametrize(
    ("selection", "selected"),
    [
        ("", True),
        ("ompio", True),
        ("romio321", False),
        ("^ompio", False),
        ("^romio341", True),
        ("romio341,ompio", True),
    ],
)
def test_ompio_is_selected_as_open_mpi_selects_it(selection: str, selected: bool) -> None:
    env = {"OMPI_MCA_io": selection} if selection else {}
    assert ompio_selected(env) is selected


def test_open_mpi_is_told_by_its_library() -> None:
    assert is_open_mpi_library(frozenset({Path("/usr/lib/x86_64-linux-gnu/libmpi.so.40.30.4")}))
    assert not is_open_mpi_library(frozenset({Path("/venv/lib/libmpi.so.12")}))
    assert not is_open_mpi_library(frozenset({Path("/venv/lib/libmpi_abi.so.1")}))


def test_an_unsafe_job_setting_is_never_added_and_says_why(tmp_path: Path) -> None:
    """Collective buffering on is OMPI_MCA_fcoll=vulcan for the whole job, which turns a
    write error into a silent success (hint_safety.md): said, never added."""
    table = tmp_path / "t.jsonl"
    table.write_text(
        '{"format": "iotuner-table", "version": 1}\n'
        '{"at": "open", "hints": {"romio_cb_write": "enable"}}\n'
        '{"at": "open", "hints": {"cb_nodes": 2}}\n'
    )
    added, [line] = ompio_job_env(table, {})
    assert added == {}
    assert "romio_cb_write=enable" in line and "not added" in line and "write errors" in line
    table.write_text(
        '{"format": "iotuner-table", "version": 1}\n{"at": "open", "hints": {"cb_nodes": 2}}\n'
    )
    assert ompio_job_env(table, {}) == ({}, [])


def test_the_ompio_definitions_name_keys_of_the_vocabulary(tmp_path: Path) -> None:
    assert formats.ompio_map()[("romio_cb_write", "disable")] == ("collective_buffering", "@off")
    assert {(s.parameter, s.safe) for s in formats.ompio_job_settings()} == {("fcoll", False)}
    bad = tmp_path / "ompio_map.def"
    bad.write_text('IOT_OMPIO_MAP(romio_cb_wrte, "disable", collective_buffering, "@off", "x")\n')
    with pytest.raises(FormatError, match=r"romio_cb_wrte is not a key of hints\.def"):
        formats.parse_ompio_map(bad)


def test_program_hints_are_put_in_ompio_terms_only_under_ompio(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """bench passes a configuration's hints as the program's own: under OMPIO in its keys."""
    launcher = tmp_path / "mpiexec"
    hints = {"romio_cb_write": "disable", "romio_ds_write": "enable", "cb_nodes": "2"}
    for version, off in (
        ("mpiexec (OpenRTE) 4.1.4", "true"),
        ("mpiexec (Open MPI) 5.0.11", "false"),
    ):
        launcher.write_text(f"#!/bin/sh\necho '{version}'\n")
        launcher.chmod(0o755)
        open_mpi_major.cache_clear()
        monkeypatch.delenv("OMPI_MCA_io", raising=False)
        assert program_hints_for(hints, str(launcher)) == {
            "collective_buffering": off,
            "cb_nodes": "2",
        }
        monkeypatch.setenv("OMPI_MCA_io", "romio321")
        assert program_hints_for(hints, str(launcher)) == hints
    launcher.write_text("#!/bin/sh\necho 'HYDRA build details:'\n")
    open_mpi_major.cache_clear()
    monkeypatch.delenv("OMPI_MCA_io", raising=False)
    assert program_hints_for(hints, str(launcher)) == hints
