"""axe-core (the npm package, its version pinned in tests/web/axe/package.json and its lock)
run over a page by the browser tests: every rule of WCAG 2.2 A and AA.

The package is installed once by ``npm ci`` from the npm registry into var/axe/ (ignored by
git; npm from Debian's packages if the machine lacks it), under a file lock, since two test
workers may ask for it at once."""

import fcntl
import shutil
import subprocess
from functools import cache
from pathlib import Path

HERE = Path(__file__).resolve().parent / "axe"
INSTALLED = Path(__file__).resolve().parents[2] / "var" / "axe"
SCRIPT = INSTALLED / "node_modules" / "axe-core" / "axe.min.js"
WCAG_22_AA = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa"]


@cache
def axe_source() -> str:
    """The text of axe.min.js, installed first when missing."""
    INSTALLED.mkdir(parents=True, exist_ok=True)
    with open(INSTALLED / ".lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        wanted = (HERE / "package-lock.json").read_text()
        kept = INSTALLED / "package-lock.json"
        if not SCRIPT.exists() or not kept.exists() or kept.read_text() != wanted:
            if shutil.which("npm") is None:  # as conftest.py brings Debian's Chromium
                subprocess.run("apt-get update && apt-get install -y npm", shell=True, check=True)
            for name in ("package.json", "package-lock.json"):
                shutil.copy(HERE / name, INSTALLED / name)
            subprocess.run(
                ["npm", "ci", "--no-audit", "--no-fund", "--loglevel=error"],
                cwd=INSTALLED,
                check=True,
            )
    return SCRIPT.read_text()


def violations(page, context: str | None = None) -> list[str]:
    """What axe-core finds against WCAG 2.2 AA on the page as it is now (or within the
    element ``context`` selects), one line per rule and element: the rule, its impact, the
    element and what to fix."""
    if not page.evaluate("() => !!window.axe"):
        page.evaluate(axe_source())
    found = page.evaluate(
        """async ([tags, context]) => {
          const result = await window.axe.run(context || document,
            {runOnly: {type: 'tag', values: tags}, resultTypes: ['violations']});
          return result.violations.flatMap(v => v.nodes.map(n => `${v.id} (${v.impact}): `
            + `${n.target.join(' ')}: ${n.failureSummary.replace(/\\s+/g, ' ')}`));
        }""",
        [WCAG_22_AA, context],
    )
    return found
