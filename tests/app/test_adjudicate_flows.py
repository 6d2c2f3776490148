"""The adjudication screen: a dispute -> adjudicate with the keypad -> agreement shows it
adjudicated -> undo -> not adjudicated, asserting on the file on disk each step."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from textual.widgets import ContentSwitcher, Static

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
    return {d.run_key for d in report.items if d.adjudicated}


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


# --- issue 36 row 2: the adjudicator sees the item, the task and the run, and writes a note ---

PAGINATION = "pagination-last-page-dropped"


def dispute_every_pagination_run(root: Path) -> None:
    """A fourth rater, zed, far from alice on each of the three runs of one fixture: three
    disputed items that differ only by run id."""
    scores = {}
    for line in (root / "fixtures/ratings/alice.jsonl").read_text().splitlines():
        record = json.loads(line)
        if record["fixture_id"] == PAGINATION:
            scores[record["run_id"]] = record["scores"]
    assert len(scores) == 3
    records = [
        {
            "fixture_id": PAGINATION,
            "run_id": run_id,
            "rater": "zed",
            "scores": {d: 1 if s >= 3 else 5 for d, s in theirs.items()},
            "note": "",
            "rated_at": "2026-11-21T10:00:00Z",
            "blind": True,
            "duration_s": 60.0,
        }
        for run_id, theirs in scores.items()
    ]
    (root / "fixtures/ratings/zed.jsonl").write_text("".join(json.dumps(r) + "\n" for r in records))


def screen_text(app: VoyageApp) -> str:
    """What the terminal shows, as text (the SVG's cells, its spaces made plain)."""
    import html
    import re

    svg = app.export_screenshot()
    cells = re.findall(r"<text[^>]*>(.*?)</text>", svg)
    return html.unescape("".join(cells)).replace("\xa0", " ")


@pytest.mark.parametrize("size", [(80, 24), (120, 40)])
async def test_the_title_names_the_full_item(root: Path, size: tuple[int, int]) -> None:
    app = app_for(root)
    async with app.run_test(size=size) as pilot:
        screen = await screen_of(pilot)
        title = str(screen.query_one("#adjudicate-item", Static).render())
        assert FIRST[0] in " ".join(title.split()) and FIRST[1] in title


@pytest.mark.parametrize("size", [(80, 24), (120, 40)])
async def test_three_runs_of_one_fixture_are_told_apart(root: Path, size: tuple[int, int]) -> None:
    dispute_every_pagination_run(root)
    app = app_for(root)
    async with app.run_test(size=size) as pilot:
        screen = await screen_of(pilot)
        listing = screen.query_one("#adjudicate-items")
        width = listing.scrollable_content_region.width
        assert screen.report is not None
        labels = [
            option.prompt.plain  # type: ignore[attr-defined]
            for option in listing.options  # type: ignore[attr-defined]
            if screen.report.items[int(option.id)].run_key[0] == PAGINATION  # type: ignore[attr-defined]
        ]
        assert len(labels) == 3
        # what fits the list's width (the rest would be cut off on screen) still differs
        shown = ["\n".join(line[:width] for line in label.splitlines()) for label in labels]
        assert len(set(shown)) == 3, shown
        assert all(run in "".join(shown) for run in ("run-a1", "run-b1", "run-base1"))


async def test_the_task_and_the_run_are_on_screen(root: Path) -> None:
    app = app_for(root)
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await screen_of(pilot)
        await wait_until(pilot, lambda: screen.content is not None and screen.working == 0)
        content = screen.content
        assert content is not None and content.task.prompt and content.run.output
        prompt, output = "fails about once", "Why the test flakes"  # FIRST's task and run
        assert prompt in content.task.prompt and output in content.run.output
        assert prompt not in screen_text(app)  # the ratings are shown first
        await pilot.press("o")  # the ratings pane, scrolled by the arrows
        await pilot.press("o")  # the task
        await pilot.pause()
        assert prompt in screen_text(app)
        await pilot.press("o")  # the run
        await pilot.pause()
        assert output in screen_text(app)
        await pilot.press("o")  # back to the list: down is the next item
        await pilot.press("down")
        await wait_until(pilot, lambda: screen.selected != FIRST)


async def test_a_note_is_saved_with_the_adjudication(root: Path) -> None:
    app = app_for(root)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await screen_of(pilot)
        await pilot.press("3", "4", "n")
        await pilot.press(*"alice read the retry loop right")
        await pilot.press("enter")
        await pilot.press("2", "3", "4")
        await wait_until(pilot, lambda: len(lines(root)) == 1 and screen.working == 0)
        [record] = lines(root)
        assert record["note"] == "alice read the retry loop right"
        assert list(record["scores"].values()) == [3, 4, 2, 3, 4]


async def test_the_labels_are_cut_again_when_the_terminal_grows(root: Path) -> None:
    dispute_every_pagination_run(root)
    app = app_for(root)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await screen_of(pilot)
        listing = screen.query_one("#adjudicate-items")

        def fixtures_shown() -> list[str]:
            return [
                option.prompt.plain.splitlines()[1].strip()  # type: ignore[attr-defined]
                for option in listing.options  # type: ignore[attr-defined]
            ]

        assert PAGINATION not in fixtures_shown()  # cut in the middle at 80 columns
        await pilot.resize_terminal(160, 40)
        await wait_until(pilot, lambda: PAGINATION in fixtures_shown())


async def test_reading_a_pane_survives_a_write(root: Path) -> None:
    """The adjudication written, the list is read again: the pane being read keeps the keys."""
    app = app_for(root)
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await screen_of(pilot)
        await wait_until(pilot, lambda: screen.content is not None and screen.working == 0)
        await pilot.press("o", "o", "o")  # the run
        await pilot.press(*"34234")
        await wait_until(pilot, lambda: len(lines(root)) == 1 and screen.working == 0)
        assert screen.focused is not None and screen.focused.id == "adjudicate-run"


async def test_the_run_edited_meanwhile_is_read_again(root: Path) -> None:
    app = app_for(root)
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await screen_of(pilot)
        await wait_until(pilot, lambda: screen.content is not None and screen.working == 0)
        assert screen.content is not None and app.view is not None
        run_path = screen.content.run.path
        run_file = root / run_path
        run_file.write_text(
            run_file.read_text().replace("Why the test flakes", "Why it flakes, edited")
        )
        screen.suite_changed(app.view, {run_path})  # what the watcher calls (watch is off here)
        await wait_until(
            pilot,
            lambda: screen.content is not None and "edited" in screen.content.run.output,
        )


async def test_the_note_goes_back_to_the_pane_being_read(root: Path) -> None:
    app = app_for(root)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await screen_of(pilot)
        await pilot.press("o", "o")  # the task
        await pilot.press("n", *"ok", "enter")
        assert screen.draft is not None and screen.draft.note == "ok"
        assert screen.focused is not None and screen.focused.id == "adjudicate-task"
        await pilot.press("n", *"dropped", "escape")  # escape drops it, the screen stays
        assert screen.draft.note == "ok" and app.screen is screen
        assert screen.focused is not None and screen.focused.id == "adjudicate-task"


async def test_a_burst_of_o_moves_a_pane_each(root: Path) -> None:
    """Keys typed fast arrive before a deferred focus lands: each `o` still moves one pane."""
    app = app_for(root)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await screen_of(pilot)
        switcher = screen.query_one("#adjudicate-panes", ContentSwitcher)
        for _ in range(3):  # as queued keys are handled: one after another, no refresh between
            screen.action_other_pane()
        assert switcher.current == "adjudicate-run"
        screen.action_other_pane()
        screen.action_other_pane()
        assert switcher.current == "adjudicate-ratings"
        assert screen.focused is not None and screen.focused.id == "adjudicate-ratings"
