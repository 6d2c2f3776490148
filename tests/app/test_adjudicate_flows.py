"""The adjudication screen: a dispute -> adjudicate with the keypad -> agreement shows it
adjudicated -> undo -> not adjudicated, asserting on the file on disk each step."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from textual.widgets import Static

from tests.app.scenarios import copy_sample
from tests.app.support import wait_loaded, wait_until
from voyage_tui.app.app import VoyageApp
from voyage_tui.app.screens.adjudicate import AdjudicateScreen
from voyage_tui.app.screens.agreement import AgreementScreen
from voyage_tui.app.settings import AppSettings
from voyage_tui.engine.campaign.figures import dispute_report
from voyage_tui.engine.campaign.snapshot import load_campaign
from voyage_tui.engine.campaign.source import WorkTree
from voyage_tui.engine.workspace.model import Workspace

ADJ = "fixtures/adjudications.jsonl"
FIRST = ("flaky-retry-backoff-test", "run-a1")
"""The first disputed item of the sample (by fixture id): alice, bob and carol rated it."""


@pytest.fixture
def root(tmp_path: Path) -> Path:
    return copy_sample(tmp_path)


def app_for(root: Path, adjudicator: str = "dana") -> VoyageApp:
    return VoyageApp(
        Workspace.load(root),
        AppSettings(use_git=False, watch=False, keymap={}, initial_adjudicate=adjudicator),
    )


def lines(root: Path) -> list[dict]:
    path = root / ADJ
    return [json.loads(x) for x in path.read_text().splitlines()] if path.exists() else []


def adjudicated(root: Path) -> set[tuple[str, str]]:
    ws = Workspace.load(root)
    report = dispute_report(load_campaign(WorkTree(ws)))
    return {d.pair for d in report.items if d.adjudicated}


async def screen_of(pilot) -> AdjudicateScreen:  # type: ignore[no-untyped-def]
    app = pilot.app
    await wait_until(pilot, lambda: app.view is not None)
    await wait_until(pilot, lambda: isinstance(app.screen, AdjudicateScreen))
    screen = app.screen
    assert isinstance(screen, AdjudicateScreen)
    await wait_until(pilot, lambda: screen.report is not None and screen.working == 0)
    return screen


async def test_adjudicate_agreement_shows_it_then_undo(root: Path) -> None:
    assert FIRST not in adjudicated(root)
    app = app_for(root)
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await screen_of(pilot)
        assert screen.selected == FIRST
        assert screen.draft is not None
        dimensions = [d.name for d in screen.draft.dimensions]
        assert len(dimensions) == 5
        await pilot.press(*"3423")  # four of five: nothing written yet
        assert lines(root) == []
        await pilot.press("4")
        await wait_until(pilot, lambda: len(lines(root)) == 1 and screen.working == 0)
        [record] = lines(root)
        assert (record["fixture_id"], record["run_id"]) == FIRST
        assert record["adjudicator"] == "dana"
        assert record["scores"] == dict(zip(dimensions, [3, 4, 2, 3, 4], strict=True))
        assert sorted(b["rater"] for b in record["based_on"]) == ["alice", "bob", "carol"]
        assert FIRST in adjudicated(root)
        await wait_until(pilot, lambda: "adjudicated" in screen.status)

        # the agreement screen marks it
        agreement = AgreementScreen()
        app.push_screen(agreement)
        await wait_until(pilot, lambda: agreement.report is not None and agreement.working == 0)
        labels = [
            str(option.prompt)
            for option in agreement.query_one("#agreement-disputed").options  # type: ignore[attr-defined]
        ]
        marked = [label for label in labels if FIRST[0] in label]
        assert marked and "✓ adjudicated" in marked[0]
        # and each of the three raters against the final scores: the calibration line
        line = str(agreement.query_one("#agreement-calibration", Static).render())
        assert "Calibration" in line and all(r in line for r in ("alice", "bob", "carol"))
        await pilot.press("escape")
        await wait_until(pilot, lambda: app.screen is screen)

        # undo appends a retraction: the item is open again
        await pilot.press("u")
        await wait_until(pilot, lambda: len(lines(root)) == 2 and screen.working == 0)
        assert lines(root)[1]["scores"] is None
        assert FIRST not in adjudicated(root)
        agreement = AgreementScreen()
        app.push_screen(agreement)
        await wait_until(pilot, lambda: agreement.report is not None and agreement.working == 0)
        labels = [
            str(option.prompt)
            for option in agreement.query_one("#agreement-disputed").options  # type: ignore[attr-defined]
        ]
        assert not any("adjudicated" in label for label in labels)
        assert not agreement.query_one("#agreement-calibration", Static).display


async def test_a_key_off_the_scale_is_refused_and_nothing_is_written(root: Path) -> None:
    app = app_for(root)
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await screen_of(pilot)
        await pilot.press("9")
        assert screen.draft is None or not screen.draft.scores
        scoring = sorted(
            b.binding.key
            for b in screen.active_bindings.values()
            if b.binding.action.startswith("score(")
        )
        assert scoring == ["1", "2", "3", "4", "5"]  # issue 36 row 6: not 0 to 9
        await pilot.press("u")
        assert "no adjudication" in screen.status
        assert lines(root) == []


async def test_the_agreement_screen_opens_it(root: Path) -> None:
    app = VoyageApp(Workspace.load(root), AppSettings(use_git=False, watch=False, keymap={}))
    async with app.run_test(size=(120, 40)) as pilot:
        await wait_loaded(pilot)
        agreement = AgreementScreen()
        app.push_screen(agreement)
        await wait_until(pilot, lambda: agreement.report is not None)
        await pilot.press("a")
        await wait_until(pilot, lambda: isinstance(app.screen, AdjudicateScreen))
