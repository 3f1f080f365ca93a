"""Headless Chromium for the report tests (test_report.py, and the demo's report in
test_cli.py): run it, and ask it whether every image of a page was decoded.

Flags: as the machine's notes advise for a closed network (no background connections, no
first-run work, an empty profile per test), besides headless, no sandbox (root) and no GPU.
"""

import json
import os
import re
import shutil
import subprocess
from pathlib import Path

import pytest

BROWSER_TIMEOUT = 120

CHECK_SCRIPT = """<script>
window.addEventListener("load", function () {
  var images = Array.from(document.images);
  var broken = images.filter(function (img) { return !(img.complete && img.naturalWidth > 0); });
  var out = document.createElement("pre");
  out.id = "image-check";
  out.textContent = JSON.stringify({
    images: images.length,
    broken: broken.map(function (img) { return img.alt; })
  });
  document.body.appendChild(out);
});
</script>"""
CONTROL = '<img alt="broken control" src="data:image/png;base64,iVBORw0KGgoAAAAN">'
"""An image whose data is a truncated PNG: the browser must report it as not loaded."""


def browser() -> str:
    """Chromium's command, or skip (fail with IOTUNER_REQUIRE_BROWSER=1) when absent."""
    found = shutil.which("chromium") or shutil.which("chromium-browser")
    if found:
        return found
    reason = "headless Chromium is not installed (Debian: apt-get install chromium)"
    if os.environ.get("IOTUNER_REQUIRE_BROWSER") == "1":
        pytest.fail(f"{reason}, and IOTUNER_REQUIRE_BROWSER=1 requires it")
    pytest.skip(reason)


def chromium(*args: str, profile: Path) -> subprocess.CompletedProcess[str]:
    command = [browser(), "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic",
               "--no-first-run", "--disable-background-networking",
               "--disable-component-update", "--disable-sync",
               f"--user-data-dir={profile}", *args]  # fmt: skip
    completed = subprocess.run(command, capture_output=True, text=True,
                               timeout=BROWSER_TIMEOUT, check=False)  # fmt: skip
    assert completed.returncode == 0, completed.stderr[-2000:]
    return completed


def image_check(page: Path, profile: Path) -> dict[str, object]:
    """What the check script wrote into the DOM of `page` after load."""
    dom = chromium("--virtual-time-budget=10000", "--dump-dom", page.as_uri(),
                   profile=profile).stdout  # fmt: skip
    found = re.search(r'<pre id="image-check">([^<]*)</pre>', dom)
    assert found, f"the check script wrote nothing; DOM tail:\n{dom[-1000:]}"
    result: dict[str, object] = json.loads(found.group(1).replace("&quot;", '"'))
    return result


LAYOUT_SCRIPT = """<script>
window.addEventListener("load", function () {
  var names = document.querySelectorAll("td.counters code");
  var broken = Array.from(names).filter(function (c) {
    return c.getClientRects().length > 1;
  });
  var out = document.createElement("pre");
  out.id = "layout-check";
  out.textContent = JSON.stringify({
    width: document.documentElement.scrollWidth,
    codes: names.length,
    broken: broken.map(function (c) { return c.textContent; })
  });
  document.body.appendChild(out);
});
</script>"""
"""Writes into the DOM the page's width and the counter names of its findings that the
layout broke over two lines or more."""


def layout_check(page: Path, profile: Path, width: int) -> dict[str, object]:
    """What LAYOUT_SCRIPT (which must be in `page`) found with the window `width` px wide."""
    dom = chromium(f"--window-size={width},900", "--virtual-time-budget=10000", "--dump-dom",
                   page.as_uri(), profile=profile).stdout  # fmt: skip
    found = re.search(r'<pre id="layout-check">([^<]*)</pre>', dom)
    assert found, f"the layout script wrote nothing; DOM tail:\n{dom[-1000:]}"
    result: dict[str, object] = json.loads(found.group(1).replace("&quot;", '"'))
    return result
