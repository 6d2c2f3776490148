"""A run written while the rater session is open (issue 36 row 13): the re-check the app's
watcher starts reaches the session; the count grows, the pair on screen and the scores typed
for it stay, and a rater who had finished is shown the new run."""

from __future__ import annotations

from pathlib import Path

from tests.app.scenarios import copy_sample
from tests.app.support import make_app, wait_loaded, wait_until
from tests.fast_textual import screen_text
from tests.ratings.common import workspace_files
from voyage_tui.app.screens.rate import RateScreen

NEW = "fixtures/adversarial/session-store-multi-worker/runs/run-new.yaml"


def write_run(root: Path, rel: str) -> None:
    (root / rel).write_text(f"run_id: {Path(rel).stem}\nagent: agent-new\noutput: a new run\n")


async def open_session(pilot) -> RateScreen:  # type: ignore[no-untyped-def]
    await wait_loaded(pilot)
    screen = RateScreen("me", clock=lambda: 0.0)
    pilot.app.push_screen(screen)
    await wait_until(pilot, lambda: screen.state is not None and not screen.busy)
    return screen


def progress(screen: RateScreen) -> str:
    return str(screen.query_one("#rate-progress").render())


async def test_a_new_run_counts_at_once_and_the_pair_on_screen_stays(tmp_path: Path) -> None:
    root = copy_sample(tmp_path)
    (root / "voyage.toml").write_text('[rating]\nraters = ["me"]\n')
    app = make_app(root)
    async with app.run_test(size=(100, 30)) as pilot:
        screen = await open_session(pilot)
        assert progress(screen).startswith("0/12 assigned · 0/12 rated")
        here = screen.state.current if screen.state else None
        await pilot.press("4")  # a score typed, not saved
        write_run(root, NEW)
        app.revalidate_paths({NEW})
        await wait_until(pilot, lambda: "0/13 assigned · 0/13 rated" in progress(screen))
        assert screen.state is not None and screen.state.current == here
        assert screen.draft.scores == {"correctness": 4}  # what was typed stays


async def test_a_rater_who_had_finished_is_shown_the_new_run(make_workspace) -> None:
    root = make_workspace(workspace_files())
    app = make_app(root)
    async with app.run_test(size=(100, 30)) as pilot:
        screen = await open_session(pilot)
        for _ in range(3):
            await pilot.press("4", "3")
            await wait_until(pilot, lambda: not screen.busy)
        await wait_until(pilot, lambda: screen.state is not None and screen.state.current is None)
        assert progress(screen) == "3/3 rated"
        rel = "fixtures/bug-diagnosis/t2/runs/run-late.yaml"
        write_run(root, rel)
        app.revalidate_paths({rel})
        await wait_until(
            pilot, lambda: screen.state is not None and screen.state.current is not None
        )
        assert screen.state is not None and screen.state.current is not None
        assert screen.state.current.run_key == ("t2", "run-late")
        assert progress(screen).startswith("3/4 rated")
        assert screen.query_one("#rate-body").display
        await pilot.press("4", "3")
        await wait_until(pilot, lambda: screen.state is not None and screen.state.current is None)
        assert progress(screen) == "4/4 rated"


async def test_a_rating_appended_does_not_stop_the_keys_and_a_recheck_leaves_no_saving(
    tmp_path: Path,
) -> None:
    """Every rating appends to the rater's own file, which the watcher reports: that is no news
    to the session (a key right after a save is never refused for it); a run re-checked with
    nothing new leaves the rubric as it was, not marked `saving…`."""
    root = copy_sample(tmp_path)
    app = make_app(root)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await open_session(pilot)
        assert app.view is not None
        screen.suite_changed(app.view, {"fixtures/ratings/me.jsonl"})
        assert not screen.busy
        run = next(p for p in app.view.items if "/runs/" in p)
        screen.suite_changed(app.view, {run})
        assert screen.busy  # looked at, in the session's worker
        await wait_until(pilot, lambda: not screen.busy)
        await pilot.pause()
        assert "saving" not in screen_text(app)
        assert progress(screen).startswith("0/12 rated")
