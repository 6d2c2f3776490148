"""The sample workspace as git holds it, for tests: never the live `fixtures/`.

The README invites a person to open the app on `fixtures/` and rate; a rating made there (or an
edited task, a snooze) must not turn the tests red. So the tests read the sample as it stands in
git's index (what the last commit has, plus what is staged: `git add` a change to the sample to
test it), exported once per test process into a private temporary folder. Outside a git checkout
(an unpacked source archive) the files on disk are all there is, and are copied as they are.
"""

from __future__ import annotations

import atexit
import shutil
import subprocess
import tempfile
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
SAMPLE_PATHS = ("voyage.toml", "fixtures")


def _export_from_index(target: Path) -> bool:
    """Write the index's version of the sample into `target`; False when git cannot."""
    try:
        listed = subprocess.run(
            ["git", "-C", str(REPO), "ls-files", "-z", "--", *SAMPLE_PATHS],
            capture_output=True,
            check=True,
            timeout=60,
        ).stdout
        if not listed:
            return False
        subprocess.run(
            ["git", "-C", str(REPO), "checkout-index", "-z", "--stdin", f"--prefix={target}/"],
            input=listed,
            capture_output=True,
            check=True,
            timeout=60,
        )
    except (OSError, subprocess.SubprocessError):
        return False
    return (target / "voyage.toml").is_file()


def _export(target: Path) -> None:
    target.mkdir(parents=True)
    if (REPO / ".git").exists() and _export_from_index(target):
        return
    shutil.rmtree(target)
    target.mkdir(parents=True)
    shutil.copy(REPO / "voyage.toml", target / "voyage.toml")
    shutil.copytree(REPO / "fixtures", target / "fixtures")


def _make() -> Path:
    folder = Path(tempfile.mkdtemp(prefix="voyage-sample-"))
    atexit.register(shutil.rmtree, folder, True)
    root = folder / "sample"
    _export(root)
    return root


SAMPLE_ROOT = _make()
"""A read-only-by-convention export of the sample (voyage.toml + fixtures/): read it, or copy
it (conftest's `sample_copy`, scenarios' `copy_sample`) before changing anything."""
SAMPLE_FIXTURES = SAMPLE_ROOT / "fixtures"


def copy_sample_into(root: Path) -> Path:
    """A private copy of the sample (voyage.toml + fixtures/) in the folder `root`, made when
    missing; returns `root`. Every test that changes the sample changes such a copy."""
    root.mkdir(parents=True, exist_ok=True)
    shutil.copy(SAMPLE_ROOT / "voyage.toml", root / "voyage.toml")
    shutil.copytree(SAMPLE_FIXTURES, root / "fixtures")
    return root
