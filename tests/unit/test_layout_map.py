"""The layout map (docs/how-it-fits.md, linked from the README) names every folder of the
repository and every module and package of src/iotuner, so a newcomer's map matches the
tree."""

import fnmatch
import re
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def _layout_map() -> str:
    page = (ROOT / "docs" / "how-it-fits.md").read_text(encoding="utf-8")
    section = page.split("# How it fits together", 1)[1]
    match = re.search(r"```\n(.*?)```", section, re.S)
    assert match, "docs/how-it-fits.md has no layout block"
    return match.group(1)


def _named(name: str, block: str) -> bool:
    words = re.findall(r"[\w./*-]+", block)
    return any(
        word.rstrip(",") == name or ("*" in word and fnmatch.fnmatch(name, word.rstrip(",")))
        for word in words
    )


def _top_level_folders() -> set[str]:
    """The top-level folders git holds files of: what a clone has. Folders a build or a
    run makes in a checkout (build/, demo-output/, a benchmark's work folder) are not
    part of the map."""
    listed = subprocess.run(
        ["git", "-C", str(ROOT), "ls-files"], capture_output=True, text=True, check=True
    ).stdout.splitlines()
    return {path.split("/", 1)[0] for path in listed if "/" in path and path[0] != "."}


def test_every_top_level_folder_is_on_the_map() -> None:
    block = _layout_map()
    folders = sorted(_top_level_folders())
    assert "src" in folders and "tests" in folders
    missing = [
        f
        for f in folders
        if not _named(f"{f}/", block) and not re.search(rf"(^|\s){re.escape(f)}/", block)
    ]
    assert not missing, f"folders missing from the layout map: {missing}"


def test_every_module_of_the_package_is_on_the_map() -> None:
    block = _layout_map()
    package = ROOT / "src" / "iotuner"
    names = [
        f"{p.name}/" if p.is_dir() else p.name
        for p in package.iterdir()
        if p.name not in {"__init__.py", "__pycache__"} and (p.is_dir() or p.suffix == ".py")
    ]
    missing = [n for n in names if not _named(n, block)]
    assert not missing, f"modules missing from the layout map: {missing}"
