"""The git checks publish their results as data; views combine them with the items and never
change once made."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.app.support import header_text, wait_loaded, wait_until
from tests.git.conftest import TRAJECTORY, Repo, base_files, holdout_yaml
from voyage_tui.app.app import VoyageApp
from voyage_tui.app.settings import AppSettings
from voyage_tui.engine.diagnostics import Severity
from voyage_tui.engine.validation.suite import Suite
from voyage_tui.engine.validation.view import SuiteView, view_of
from voyage_tui.engine.workspace.model import Workspace

MISSING = "deadbeef" * 5
TRAJ = "fixtures/trajectories/gone/task.yaml"
H1 = "fixtures/bug-diagnosis/h1/task.yaml"


def _errors_over_items(view: SuiteView) -> int:
    items = sum(
        1 for i in view.items.values() for d in i.diagnostics if d.severity is Severity.ERROR
    )
    return items + sum(1 for d in view.workspace_diagnostics if d.severity is Severity.ERROR)


def test_the_git_checks_make_a_new_view_and_leave_the_shown_one_alone(repo: Repo) -> None:
    repo.commit(base_files() | {TRAJ: TRAJECTORY.format(id="gone", sha=MISSING)})
    suite = Suite(Workspace.load(repo.root))
    suite.validate_all(git=False)  # as the app does: files first, history after
    shown = view_of(suite)
    assert shown.summary.errors == 0
    suite.run_git_checks()
    # the view on screen is what it was: its header and its items still agree
    assert shown.summary.errors == _errors_over_items(shown) == 0
    assert [d.code for d in shown.items[TRAJ].diagnostics] == []
    fresh = view_of(suite)
    assert [d.code for d in fresh.items[TRAJ].diagnostics] == ["sha-not-found"]
    assert fresh.summary.errors == _errors_over_items(fresh) == 1
    # the suite's own items carry only what their files say; the counts add the git results
    assert suite.items[TRAJ].diagnostics == ()
    assert suite.summary().errors == 1
    assert [d.code for d in suite.diagnostics_for(TRAJ)] == ["sha-not-found"]


def test_a_re_validation_keeps_the_git_results_of_the_items_it_did_not_touch(repo: Repo) -> None:
    other = "fixtures/bug-diagnosis/t1/task.yaml"
    repo.commit(
        base_files() | {TRAJ: TRAJECTORY.format(id="gone", sha=MISSING), other: holdout_yaml("t1")}
    )
    suite = Suite.open(repo.root)
    (repo.root / other).write_text(holdout_yaml("t1") + "# edited\n")
    touched = suite.revalidate({other})
    assert TRAJ not in touched
    assert [d.code for d in view_of(suite).items[TRAJ].diagnostics] == ["sha-not-found"]


def test_exposed_holdouts_are_a_set_of_paths_in_the_view(repo: Repo) -> None:
    repo.commit(base_files('[holdout]\nbundle_paths = ["agent/**"]\n') | {H1: holdout_yaml("h1")})
    repo.commit({H1: holdout_yaml("h1") + "# x\n", "agent/a.txt": "a\n"})
    suite = Suite.open(repo.root)
    view = view_of(suite)
    assert view.exposed == frozenset({H1})
    assert view.is_exposed(H1)
    assert "holdout-exposed" in [d.code for d in view.items[H1].diagnostics]


async def test_the_browser_marks_an_exposed_holdout_from_the_view(
    repo: Repo, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path / "state"))
    repo.commit(base_files('[holdout]\nbundle_paths = ["agent/**"]\n') | {H1: holdout_yaml("h1")})
    repo.commit({H1: holdout_yaml("h1") + "# x\n", "agent/a.txt": "a\n"})
    app = VoyageApp(Workspace.load(repo.root), AppSettings(use_git=True, watch=False, keymap={}))
    async with app.run_test(size=(120, 40)) as pilot:
        browser = await wait_loaded(pilot)
        await wait_until(pilot, lambda: app.view is not None and H1 in app.view.exposed, 15)
        await wait_until(pilot, lambda: "1 exposed" in header_text(app))
        assert browser.suite_tree.select_path(H1)
        assert "EXPOSED" in str(browser.suite_tree.cursor_node.label)
