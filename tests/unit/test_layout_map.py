"""The README's layout map ("How it fits together") names every folder of the repository
and every module and package of src/iotuner, so a newcomer's map matches the tree."""

import fnmatch
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def _layout_map() -> str:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    section = readme.split("## How it fits together", 1)[1]
    match = re.search(r"```\n(.*?)```", section, re.S)
    assert match, "the README's 'How it fits together' has no layout block"
    return match.group(1)


def _named(name: str, block: str) -> bool:
    words = re.findall(r"[\w./*-]+", block)
    return any(
        word.rstrip(",") == name or ("*" in word and fnmatch.fnmatch(name, word.rstrip(",")))
        for word in words
    )


UNMAPPED = {"build"}
"""Folders a build or a run makes in the checkout (ignored by git), not part of the map."""


def test_every_top_level_folder_is_on_the_map() -> None:
    block = _layout_map()
    folders = [
        p.name
        for p in ROOT.iterdir()
        if p.is_dir() and not p.name.startswith(".") and p.name not in UNMAPPED
    ]
    missing = [
        f
        for f in folders
        if not _named(f"{f}/", block) and not re.search(rf"(^|\s){re.escape(f)}/", block)
    ]
    assert not missing, f"folders missing from the README's layout map: {missing}"


def test_every_module_of_the_package_is_on_the_map() -> None:
    block = _layout_map()
    package = ROOT / "src" / "iotuner"
    names = [
        f"{p.name}/" if p.is_dir() else p.name
        for p in package.iterdir()
        if p.name not in {"__init__.py", "__pycache__"} and (p.is_dir() or p.suffix == ".py")
    ]
    missing = [n for n in names if not _named(n, block)]
    assert not missing, f"modules missing from the README's layout map: {missing}"
