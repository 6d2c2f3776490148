"""The agreement screen: the engine's figures laid out, the most disputed items, each opening
every rater's scores and note side by side; new ratings count on `r` and on a change on disk."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from textual.widgets import Static

from tests.app.scenarios import copy_sample
from tests.app.support import wait_loaded, wait_until
from voyage_tui.app.app import VoyageApp
from voyage_tui.app.screens.agreement import (
    AgreementScreen,
    DisputedScreen,
    compute,
    figures_table,
    ratings_side_by_side,
)
from voyage_tui.app.settings import AppSettings
from voyage_tui.engine.campaign.snapshot import load_campaign
from voyage_tui.engine.campaign.source import WorkTree
from voyage_tui.engine.references.loaded import load_rubric
from voyage_tui.engine.workspace.model import Workspace


@pytest.fixture
def root(tmp_path: Path) -> Path:
    return copy_sample(tmp_path)


async def agreement(pilot) -> AgreementScreen:
    app = pilot.app
    await wait_loaded(pilot)
    app.action_agreement()
    await wait_until(
        pilot, lambda: isinstance(app.screen, AgreementScreen) and app.screen.report is not None
    )
    await pilot.pause()
    return app.screen  # type: ignore[return-value]


def _cells(table) -> list[list[str]]:
    columns = [[str(cell) for cell in column._cells] for column in table.columns]
    return [list(row) for row in zip(*columns, strict=True)]


async def test_the_figures_are_the_engines_and_disputed_items_open_side_by_side(
    root: Path,
) -> None:
    ws = Workspace.load(root)
    expected, problems = compute(load_campaign(WorkTree(ws)))
    assert problems == []
    app = VoyageApp(ws, AppSettings(use_git=False, watch=False, keymap={}))
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await agreement(pilot)
        report = screen.report
        assert report is not None
        assert report.raters == ["alice", "bob", "carol"]
        rows = _cells(figures_table(report))
        assert [row[0] for row in rows] == list(expected.dimensions)
        correctness = expected.dimensions["correctness"]
        assert rows[0][1] == f"{correctness.alpha:.3f}"
        kappa = next(
            p for p in expected.pairs if p.raters == ("alice", "bob") and p.dimension == "scope"
        )
        assert rows[2][3] == f"{kappa.kappa:.3f} ({kappa.items})"
        title = str(screen.query_one("#agreement-title").content)
        assert "3 raters: alice, bob, carol" in title

        assert [(d.fixture_id, d.run_id) for d in report.disputed] == [
            (d.fixture_id, d.run_id) for d in expected.disputed
        ]
        top = report.disputed[0]
        assert top.spread == max(d.spread for d in report.disputed)
        await pilot.press("enter")
        await wait_until(pilot, lambda: isinstance(app.screen, DisputedScreen))
        opened = app.screen
        assert isinstance(opened, DisputedScreen) and opened.item == top
        side_by_side = _cells(ratings_side_by_side(top, load_rubric(ws).value))
        notes = next(row for row in side_by_side if row[0] == "note")
        assert notes[1:] == [r.note for r in top.ratings]  # every rater's note, in a column
        await pilot.press("escape")
        await wait_until(pilot, lambda: app.screen is screen)


async def test_a_new_rating_counts_on_reload(root: Path) -> None:
    app = VoyageApp(Workspace.load(root), AppSettings(use_git=False, watch=False, keymap={}))
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await agreement(pilot)
        before = screen.report
        assert before is not None and "dave" not in before.raters
        record = {
            "fixture_id": "pagination-last-page-dropped",
            "run_id": "run-a1",
            "rater": "dave",
            "scores": {
                "correctness": 1,
                "verification": 1,
                "scope": 1,
                "evidence": 1,
                "communication": 1,
            },
            "note": "I disagree with everyone",
            "rated_at": "2026-11-30T10:00:00Z",
            "blind": True,
        }
        (root / "fixtures/ratings/dave.jsonl").write_text(json.dumps(record) + "\n")
        await pilot.press("r")
        await wait_until(pilot, lambda: screen.report is not before)
        assert "dave" in screen.report.raters
        top = screen.report.disputed[0]
        assert (top.fixture_id, top.run_id, top.spread) == (
            "pagination-last-page-dropped",
            "run-a1",
            4,
        )


async def test_no_ratings_and_an_unreadable_file_are_said(root: Path) -> None:
    folder = root / "fixtures/ratings"
    for path in folder.iterdir():
        path.unlink()
    (folder / "zed.jsonl").mkdir()  # cannot be read as a file, even by root
    app = VoyageApp(Workspace.load(root), AppSettings(use_git=False, watch=False, keymap={}))
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await agreement(pilot)
        assert "No ratings yet" in str(screen.query_one("#agreement-table").content)
        problems = str(screen.query_one("#agreement-problems").content)
        assert "zed.jsonl" in problems and "missing from the figures" in problems


async def test_a_rating_written_elsewhere_counts_once_the_file_is_checked_again(
    root: Path,
) -> None:
    app = VoyageApp(Workspace.load(root), AppSettings(use_git=False, watch=False, keymap={}))
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await agreement(pilot)
        before = screen.report
        carol = root / "fixtures/ratings/carol.jsonl"
        shared = json.loads(carol.read_text().splitlines()[0])  # an item alice rated too
        shared["scores"] = {k: 6 - v for k, v in shared["scores"].items()}
        with carol.open("a") as handle:
            handle.write(json.dumps(shared) + "\n")
        app.revalidate_paths({"fixtures/ratings/carol.jsonl"})  # what the watcher does
        await wait_until(pilot, lambda: screen.report is not before)
        assert screen.report is not None and before is not None
        assert screen.report.dimensions != before.dimensions


async def test_many_raters_show_the_lowest_kappas_and_say_what_is_not_shown(root: Path) -> None:
    """Past ten raters the table holds the 50 lowest kappas per dimension (issue 18, item 8):
    one column per pair of 60 raters would be 1,770 columns."""
    ratings = root / "fixtures" / "ratings"
    records = [json.loads(line) for line in (ratings / "alice.jsonl").read_text().splitlines()]
    for r in range(60):
        name = f"rater-{r:02d}"
        lines = []
        for i, record in enumerate(records):
            if record.get("scores") is None:
                continue
            scores = {k: min(5, max(1, v + (r + i) % 3 - 1)) for k, v in record["scores"].items()}
            lines.append(json.dumps({**record, "rater": name, "scores": scores}))
        (ratings / f"{name}.jsonl").write_text("\n".join(lines) + "\n")
    app = VoyageApp(Workspace.load(root), AppSettings(use_git=False, watch=False, keymap={}))
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await agreement(pilot)
        report = screen.report
        assert report is not None and len(report.raters) == 63
        assert report.pairs_omitted.count > 0
        assert len({p.raters for p in report.pairs}) <= 50 * len(report.dimensions)
        reasons = str(screen.query_one("#agreement-reasons").content)
        assert f"{report.pairs_omitted.count:,} pair figures not shown" in reasons


def test_the_screen_and_the_command_leave_out_the_same_records(make_workspace, capsys) -> None:  # type: ignore[no-untyped-def]
    # One workspace with a folder for a ratings file and three records that cannot count: both
    # faces ask the engine (ratings/left_out.py), so they name the same file and count the same.
    from tests.ratings.test_left_out import mixed_workspace
    from voyage_tui.cli import main

    ws = Workspace.load(mixed_workspace(make_workspace))
    campaign = load_campaign(WorkTree(ws))
    missing = campaign.left_out()
    assert len(missing.unreadable) == 1 and len(missing.records) == 3

    _, problems = compute(campaign)
    code = main(["agreement", str(ws.root)])
    err = capsys.readouterr().err
    assert code == 2  # a file that could not be read: the figures cannot be trusted

    unreadable = [p for p in problems if "missing from the figures" in p]
    assert [p.split(":")[0] for p in unreadable] == ["ratings/carol.jsonl"]
    assert "ratings/carol.jsonl" in err
    assert "3 problems in the ratings files left records out" in problems[-1]
    assert "3 problems in the ratings files left records out" in err


def shown_lines(widget) -> list[str]:
    """What a widget shows, row by row, as cut to its width."""
    return [widget.render_line(y).text for y in range(widget.size.height)]


async def test_long_names_are_told_apart_by_labels_with_a_legend_at_80x24(root: Path) -> None:
    """Three raters whose names, cut to a column, all read `Firstname…`: each pair's column
    is headed by the raters' labels, every header shows at 80 columns, and the legend names
    each label's rater (the labels are the engine's, the same as the command line's)."""
    from tests.app.scenarios import LONG_RATER_NAMES, long_rater_names
    from voyage_tui.engine.ratings.agreement import ALL_SAME

    long_rater_names(root)
    names = sorted(LONG_RATER_NAMES.values())
    app = VoyageApp(Workspace.load(root), AppSettings(use_git=False, watch=False, keymap={}))
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await agreement(pilot)
        report = screen.report
        assert report is not None and report.raters == names
        labels = report.labels
        assert [labels.of(n) for n in names] == ["FL", "FLO", "FO"]
        header = " ".join(shown_lines(screen.query_one("#agreement-table"))[:1])
        for pair in ("κ FL·FLO", "κ FL·FO", "κ FLO·FO"):
            assert pair in header, header
        legend = " ".join(shown_lines(screen.query_one("#agreement-legend")))
        for label, name in labels.legend:
            assert f"{label} {name}" in legend, legend
        reasons = str(screen.query_one("#agreement-reasons", Static).render())
        assert reasons.count(ALL_SAME) <= 1
        assert "Firstname" not in reasons  # pairs by their labels there too
