"""Gold candidates that git ignores are not validated; names that are not UTF-8 are asked about
like any other (they used to crash `validate` and the app's start)."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from tests.app.support import wait_until
from tests.git.conftest import Repo, base_files
from voyage_tui.app.app import VoyageApp
from voyage_tui.app.settings import AppSettings
from voyage_tui.cli import main
from voyage_tui.engine.workspace.layout import git_ignored
from voyage_tui.engine.workspace.model import Workspace

BAD_NAME = b"gold/caf\xe9.json"  # Latin-1, not UTF-8
IGNORED_BAD_NAME = b"gold/skip\xff.json"


@pytest.fixture
def ws(repo: Repo) -> Repo:
    repo.commit(base_files() | {".gitignore": "skip*.json\nbuild/\n"})
    root = os.fsencode(repo.root)
    for name in (BAD_NAME, IGNORED_BAD_NAME, b"build/out.json", b"gold/ok.json"):
        full = os.path.join(root, name)
        os.makedirs(os.path.dirname(full), exist_ok=True)
        with open(full, "wb") as handle:
            handle.write(b"{}\n")
    return repo


def test_git_ignored_answers_for_names_that_are_not_utf8(ws: Repo) -> None:
    names = [
        os.fsdecode(n) for n in (BAD_NAME, IGNORED_BAD_NAME, b"build/out.json", b"gold/ok.json")
    ]
    ignored = git_ignored(Workspace.load(ws.root), names)
    assert ignored == {os.fsdecode(IGNORED_BAD_NAME), "build/out.json"}


def test_git_ignored_in_a_workspace_below_the_repository_root(tmp_path: Path) -> None:
    outer = Repo(tmp_path / "outer").init()
    outer.commit(
        {f"suite/{k}": v for k, v in base_files().items()} | {".gitignore": "*.tmp.json\n"}
    )
    ws = Workspace.load(outer.root / "suite")
    assert git_ignored(ws, ["gold/a.tmp.json", "gold/b.json"]) == {"gold/a.tmp.json"}


def test_validate_with_git_and_a_name_that_is_not_utf8(
    ws: Repo, capsys: pytest.CaptureFixture[str]
) -> None:
    code = main(["validate", str(ws.root), "--format", "json"])
    out, err = capsys.readouterr()
    assert "Traceback" not in err
    assert code == 0, out
    assert json.loads(out)["summary"]["errors"] == 0


async def test_the_app_starts_with_git_and_a_name_that_is_not_utf8(ws: Repo) -> None:
    app = VoyageApp(Workspace.load(ws.root), AppSettings(use_git=True, watch=False, keymap={}))
    async with app.run_test() as pilot:
        await wait_until(
            pilot,
            lambda: (
                getattr(app, "view", None) is not None
                and app.live.suite is not None
                and app.live.suite.git.exposure is not None
            ),
            15,
        )
