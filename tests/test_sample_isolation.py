"""No test reads or writes the live `fixtures/`: a person may be rating in it (the README invites
them to), and a rating made there must not turn a snapshot red."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

import pytest

from tests.sample import REPO, SAMPLE_ROOT, copy_sample_into

LIVE = re.compile(r"""REPO\s*/\s*["'](fixtures|voyage\.toml)""")
IN_THE_REPOSITORY = re.compile(r"""cwd\s*=\s*(str\()?REPO\b|chdir\(\s*(str\()?REPO\b""")
"""A process started in the repository, or a test moved there: a relative `fixtures` (or a
command's default workspace, the folder it starts in) would then be the live sample."""


def test_the_tests_use_the_sample_as_git_holds_it() -> None:
    assert REPO not in SAMPLE_ROOT.parents
    if not (REPO / ".git").exists():
        pytest.skip("not a git checkout: the sample on disk is all there is")
    for rel in ("fixtures/ratings/alice.jsonl", "voyage.toml"):
        staged = subprocess.run(
            ["git", "-C", str(REPO), "show", f":{rel}"], capture_output=True, check=True
        ).stdout
        assert (SAMPLE_ROOT / rel).read_bytes() == staged


def _lines_matching(pattern: re.Pattern[str]) -> list[str]:
    """Each line of a test module (this one and tests/sample.py apart) that `pattern` finds."""
    offenders = []
    for path in sorted(Path(__file__).parent.rglob("*.py")):
        if path.name == "sample.py" or path == Path(__file__):
            continue
        for number, line in enumerate(path.read_text().splitlines(), 1):
            if pattern.search(line):
                offenders.append(f"{path.relative_to(REPO)}:{number}: {line.strip()}")
    return offenders


def test_no_test_names_the_live_sample() -> None:
    offenders = _lines_matching(LIVE)
    assert not offenders, "use tests.sample.SAMPLE_ROOT:\n" + "\n".join(offenders)


def test_no_test_runs_in_the_repository() -> None:
    """`voyage-tui serve fixtures` started in the repository served the live sample; a
    process a test starts runs in the test's own folder."""
    offenders = _lines_matching(IN_THE_REPOSITORY)
    assert not offenders, "start it in tmp_path:\n" + "\n".join(offenders)


@pytest.mark.parametrize(
    "line",
    ["cwd=REPO,", "cwd = str(REPO),", "os.chdir(REPO)", "monkeypatch.chdir(REPO / 'x')"],
)
def test_the_check_finds_a_start_in_the_repository(line: str) -> None:
    assert IN_THE_REPOSITORY.search(line)


def test_the_check_leaves_other_folders_alone() -> None:
    assert not IN_THE_REPOSITORY.search("cwd=tmp_path, env=REPORT")


def _tree(root: Path) -> dict[str, tuple[int, int, bytes | None]]:
    """Every entry under `root`: its mode, its modification time and, for a file, its bytes."""
    found = {}
    for path in [root, *sorted(root.rglob("*"))]:
        info = path.lstat()
        content = path.read_bytes() if path.is_file() else None
        found[path.relative_to(root).as_posix()] = (info.st_mode, info.st_mtime_ns, content)
    return found


def test_a_copy_of_the_sample_is_the_export_as_it_stands(tmp_path: Path) -> None:
    """Each copy holds the export's files, modes and modification times (a folder made now
    and changed in the same clock tick would look unchanged to the folder stamps)."""
    root = copy_sample_into(tmp_path / "copy")
    assert _tree(root / "fixtures") == _tree(SAMPLE_ROOT / "fixtures")
    assert (root / "voyage.toml").read_bytes() == (SAMPLE_ROOT / "voyage.toml").read_bytes()
    (root / "fixtures" / "ratings" / "alice.jsonl").write_text("changed\n")
    again = copy_sample_into(tmp_path / "again")  # a copy is the export, not the last copy
    assert _tree(again / "fixtures") == _tree(SAMPLE_ROOT / "fixtures")
    with pytest.raises(FileExistsError):
        copy_sample_into(root)  # never over an earlier copy's fixtures


def test_a_test_runs_in_an_empty_folder_of_its_own(away_from_the_repository: Path) -> None:
    """A command's default workspace is the folder it starts in: here, never the repository."""
    here = Path.cwd()
    assert here == away_from_the_repository
    assert here != REPO and REPO not in here.parents
    assert list(here.iterdir()) == []
    started_in = subprocess.run(
        ["pwd", "-P"], capture_output=True, text=True, check=True
    ).stdout.strip()
    assert Path(started_in) == here.resolve()
