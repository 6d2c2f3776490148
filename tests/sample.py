"""The sample workspace as git holds it, for tests: never the live `fixtures/`.

The README invites a person to open the app on `fixtures/` and rate; a rating made there (or an
edited task, a snooze) must not turn the tests red. So the tests read the sample as it stands in
git's index (what the last commit has, plus what is staged: `git add` a change to the sample to
test it), exported once per test process into a private temporary folder. Outside a git checkout
(an unpacked source archive) the files on disk are all there is, and are copied as they are.
"""

from __future__ import annotations

import atexit
import functools
import os
import shutil
import stat
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
    _write_tree(root / "fixtures", _fixtures_as_exported())
    return root


_Entry = tuple[str, int, int, int, bytes | None]
"""(path under fixtures/, mode, access and modification times in ns, a file's bytes)"""


@functools.cache
def _fixtures_as_exported() -> tuple[_Entry, ...]:
    """The export's fixtures/, read once per test process: a few hundred tests copy it, and
    `shutil.copytree` read every file again and copied its metadata call by call (three times
    the CPU)."""
    entries: list[_Entry] = []
    for top, folders, files in os.walk(SAMPLE_FIXTURES):
        folders.sort()
        rel = os.path.relpath(top, SAMPLE_FIXTURES)
        info = os.stat(top)
        entries.append((rel, info.st_mode, info.st_atime_ns, info.st_mtime_ns, None))
        for name in sorted(files):
            path = os.path.join(top, name)
            info = os.lstat(path)
            with open(path, "rb") as handle:
                content = handle.read()
            entries.append(
                (os.path.join(rel, name), info.st_mode, info.st_atime_ns, info.st_mtime_ns, content)
            )
    return tuple(entries)


def _write_tree(target: Path, entries: tuple[_Entry, ...]) -> None:
    """`entries` under the new folder `target` (FileExistsError if it exists), with the modes
    and times they were read with, as `shutil.copytree` copies them: a folder that kept the time
    of its making would look unchanged to the folder stamps when a test changed it within the
    same clock tick."""
    os.mkdir(target)
    for rel, mode, _, _, content in entries:
        path = os.path.normpath(os.path.join(target, rel))
        if content is None:
            if rel != ".":
                os.mkdir(path)
            continue
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        try:
            left = memoryview(content)
            while left:
                left = left[os.write(fd, left) :]
            os.fchmod(fd, stat.S_IMODE(mode))
        finally:
            os.close(fd)
    for rel, mode, accessed, modified, content in reversed(entries):  # a folder after its files
        path = os.path.normpath(os.path.join(target, rel))
        if content is None:
            os.chmod(path, stat.S_IMODE(mode))
        os.utime(path, ns=(accessed, modified))
