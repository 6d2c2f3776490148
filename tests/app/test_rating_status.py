"""The rating status view: `p` on the agreement screen lays out the engine's figures
(engine/ratings/status.py, as `voyage-tui ratings status` prints them), recomputes on `r` and on
a change on disk, and goes back with `escape`."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from rich.console import Console

from tests.app.scenarios import copy_sample
from tests.app.support import wait_until
from tests.app.test_rate_agreement import agreement
from voyage_tui.app.app import VoyageApp
from voyage_tui.app.screens.agreement import AgreementScreen
from voyage_tui.app.screens.rating_status import RatingStatusScreen
from voyage_tui.app.settings import AppSettings
from voyage_tui.engine.campaign.figures import status
from voyage_tui.engine.campaign.snapshot import load_campaign
from voyage_tui.engine.campaign.source import WorkTree
from voyage_tui.engine.ratings.assignment import Assignment
from voyage_tui.engine.validation.suite import Suite
from voyage_tui.engine.workspace.model import Workspace

DAVE = {
    "fixture_id": "pagination-last-page-dropped",
    "run_id": "run-a1",
    "rater": "dave",
    "scores": {"correctness": 1, "verification": 1, "scope": 1, "evidence": 1, "communication": 1},
    "note": "",
    "rated_at": "2026-11-30T10:00:00Z",
    "blind": True,
    "duration_s": 90.0,
}


@pytest.fixture
def root(tmp_path: Path) -> Path:
    root = copy_sample(tmp_path)
    config = root / "voyage.toml"
    config.write_text(
        config.read_text() + '\n[rating]\nraters = ["alice", "bob", "dave"]\noverlap = 2\n'
    )
    return root


def app_on(root: Path) -> VoyageApp:
    return VoyageApp(Workspace.load(root), AppSettings(use_git=False, watch=False, keymap={}))


async def status_view(pilot) -> RatingStatusScreen:
    await agreement(pilot)
    await pilot.press("p")
    app = pilot.app
    await wait_until(
        pilot,
        lambda: isinstance(app.screen, RatingStatusScreen) and app.screen.status is not None,
    )
    await pilot.pause()
    return app.screen  # type: ignore[return-value]


def shown(screen: RatingStatusScreen, selector: str) -> str:
    """What a Static shows, as plain text (a Rich table rendered wide enough)."""
    console = Console(width=200, record=True)
    console.print(screen.query_one(selector).content)  # type: ignore[attr-defined]
    return console.export_text()


async def test_p_on_agreement_shows_the_engines_figures_and_escape_goes_back(root: Path) -> None:
    suite = Suite.open(root, use_git=False)
    expected = status(load_campaign(WorkTree(suite.ws, suite.items, suite.refs.rubric)))
    assert expected.raters["dave"].assigned > 0 and not expected.raters["carol"].in_team
    async with app_on(root).run_test(size=(120, 40)) as pilot:
        screen = await status_view(pilot)
        assert screen.status == expected
        assert "a team of 3 (alice, bob, dave) · overlap 2" in shown(screen, "#status-title")
        assert f"12 agent runs, {expected.complete} complete" in shown(screen, "#status-summary")
        table = shown(screen, "#status-table").splitlines()
        for name, rater in expected.raters.items():
            [row] = [line.split() for line in table if line.split()[:1] == [name]]
            figures = [str(rater.assigned), str(rater.done), str(rater.left)]
            for value in (rater.median_s, rater.per_hour):
                figures.append("—" if value is None else f"{value:.1f}")
            assert row[1:6] == figures
        [carol] = [line for line in table if line.split()[:1] == ["carol"]]
        assert "not in the team" in carol
        assert "1 rater not in [rating] raters" in shown(screen, "#status-note")
        await pilot.press("escape")
        await wait_until(pilot, lambda: isinstance(pilot.app.screen, AgreementScreen))


async def test_a_new_rating_counts_on_reload_and_on_a_change_on_disk(root: Path) -> None:
    app = app_on(root)
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await status_view(pilot)
        before = screen.status
        assert before is not None and before.raters["dave"].done == 0
        dave = root / "fixtures/ratings/dave.jsonl"
        dave.write_text(json.dumps(DAVE) + "\n")
        await pilot.press("r")
        await wait_until(pilot, lambda: screen.status is not before)
        assert screen.status is not None
        counted = screen.status.raters["dave"]
        assert (counted.median_s, counted.per_hour) == (90.0, 40.0)
        pair = (DAVE["fixture_id"], DAVE["run_id"])
        mine = Assignment.of(["alice", "bob", "dave"], 2).is_assigned("dave", pair)
        assert counted.done == (1 if mine else 0)
        assert counted.rated == 1
        after_reload = screen.status
        with dave.open("a") as handle:
            handle.write(json.dumps({**DAVE, "duration_s": 30.0}) + "\n")
        app.revalidate_paths({"fixtures/ratings/dave.jsonl"})  # what the watcher does
        await wait_until(pilot, lambda: screen.status is not after_reload)
        assert screen.status.raters["dave"].median_s == 30.0  # the later record is in force


async def test_without_ratings_or_a_team_it_says_there_is_nobody(tmp_path: Path) -> None:
    root = copy_sample(tmp_path)
    for path in (root / "fixtures/ratings").iterdir():
        path.unlink()
    async with app_on(root).run_test(size=(80, 24)) as pilot:
        screen = await status_view(pilot)
        assert "nobody to list" in shown(screen, "#status-table")
        assert "no team" in shown(screen, "#status-title")
