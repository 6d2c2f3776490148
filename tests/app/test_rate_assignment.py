"""The rater session under a team (`[rating] raters`, SPEC 3.9), with the pilot: the assigned
runs first with their own count, the notice once they are all rated, and a rater outside the
team told so and rating all the same."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from textual.widgets import Static

from tests.app.scenarios import copy_sample
from tests.app.test_rate_flows import MINE, queue_of, rate, rate_app, records, session_screen
from voyage_tui.app.screens.rate import ASSIGNED_DONE
from voyage_tui.engine.ratings.assignment import Assignment


@pytest.fixture
def root(tmp_path: Path) -> Path:
    root = copy_sample(tmp_path)
    config = root / "voyage.toml"
    config.write_text(config.read_text() + '\n[rating]\nraters = ["me", "you"]\noverlap = 1\n')
    return root


def text_of(screen, selector: str) -> str:
    return str(screen.query_one(selector, Static).render())


async def test_the_assigned_runs_come_first_then_the_notice_and_the_others(root: Path) -> None:
    order = queue_of(root)
    mine = Assignment.of(["me", "you"], 1).items_of("me", order)
    assert 0 < len(mine) < 12
    app = rate_app(root)
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await session_screen(pilot)
        assert screen.state is not None
        assert screen.state.progress == f"0/{len(mine)} assigned · 0/12 rated"
        assert f"0/{len(mine)} assigned" in text_of(screen, "#rate-progress")
        assert "not assigned" not in text_of(screen, "#rate-where")
        for done in range(1, len(mine) + 1):
            assert screen.state.current is not None and screen.state.assigned
            await rate(pilot, screen, "33333")
            assert screen.state.progress.startswith(f"{done}/{len(mine)} assigned")
        assert [(r["fixture_id"], r["run_id"]) for r in records(root)] == mine
        # the step that rated the last assigned run says the work is done; the others follow
        assert ASSIGNED_DONE in screen.status
        assert screen.state.current is not None and not screen.state.assigned
        assert "not assigned to you" in text_of(screen, "#rate-where")
        await rate(pilot, screen, "33333")  # still rateable
        assert len(records(root)) == len(mine) + 1
        assert ASSIGNED_DONE not in screen.status  # said once, at the step that finished it
        await pilot.press("ctrl+q")

    again = rate_app(root)
    async with again.run_test(size=(120, 40)) as pilot:
        screen = await session_screen(pilot)
        assert ASSIGNED_DONE in screen.status  # a resumed session says so as it opens


async def test_a_rater_outside_the_team_is_told_and_rates_everything(root: Path) -> None:
    app = rate_app(root, "zed")
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await session_screen(pilot)
        assert screen.state is not None and screen.state.progress == "0/12 rated"
        assert "not in the team" in text_of(screen, "#rate-where")
        assert "zed is not one of [rating] raters (me, you)" in screen.status
        await rate(pilot, screen, "33333")
        assert (root / "fixtures/ratings/zed.jsonl").read_text().count("\n") == 1
        assert screen.state.progress == "1/12 rated"


def shown_row(screen, selector: str) -> str:
    """What the widget shows on its first row, as cut to its width (not its whole text)."""
    widget = screen.query_one(selector, Static)
    return widget.render_line(0).text


@pytest.mark.parametrize("rater", ["me", "Firstname Lastname-Other"])
async def test_the_team_flag_fits_the_header_at_80_columns(root: Path, rater: str) -> None:
    """At 80x24 the header keeps the flag that says the run is not the rater's, whatever the
    length of the rater's name and of the run's label."""
    app = rate_app(root, rater)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await session_screen(pilot)
        assert screen.state is not None
        if rater == "me":
            mine = Assignment.of(["me", "you"], 1).items_of("me", queue_of(root))
            for _ in mine:
                await rate(pilot, screen, "33333")
            assert screen.state.current is not None and not screen.state.assigned
            flag = "not assigned"
        else:
            flag = "not in the team"
        await pilot.pause()
        shown = shown_row(screen, "#rate-where")
        assert flag in shown, shown
        assert screen.state.current is not None
        assert screen.state.label.split()[0][:10] in shown, shown
        await pilot.press("ctrl+q")


async def test_a_rater_who_joins_after_every_run_is_rated_is_given_nothing(root: Path) -> None:
    """Issue 36 row 3 (SPEC 3.9, amended): `you` rated every run, the only place each has at
    overlap 1; `me` joins and the screen asks nothing of them, though hashing alone would."""
    order = queue_of(root)
    assert Assignment.of(["me", "you"], 1).items_of("me", order)  # the old rule's work
    scores = dict.fromkeys(["correctness", "verification", "scope", "evidence", "communication"], 3)
    lines = [
        json.dumps(
            {
                "fixture_id": f,
                "run_id": r,
                "rater": "you",
                "scores": scores,
                "note": "",
                "rated_at": "2026-11-20T14:03:11Z",
                "blind": True,
            }
        )
        for f, r in order
    ]
    (root / MINE).parent.mkdir(parents=True, exist_ok=True)
    (root / MINE).with_name("you.jsonl").write_text("".join(f"{x}\n" for x in lines))
    app = rate_app(root)
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await session_screen(pilot)
        assert screen.state is not None
        assert screen.state.progress == "0/0 assigned · 0/12 rated"
        await pilot.press("ctrl+q")
