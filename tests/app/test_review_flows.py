"""Gold-vs-run screens driven with the pilot: filters, next difference, a row in full, export,
the runs list, run against run, and the ways in."""

from __future__ import annotations

from pathlib import Path

import pytest
from textual.widgets import OptionList

from tests.app.scenarios import copy_sample
from tests.app.support import make_app, wait_loaded, wait_until
from voyage_tui.app.app import VoyageApp
from voyage_tui.app.commands import VoyageCommands
from voyage_tui.app.screens.compare import CompareScreen
from voyage_tui.app.screens.diff import DiffScreen
from voyage_tui.app.screens.modals import ChoiceScreen
from voyage_tui.app.screens.review_modals import PathScreen, PickScreen, RowDetailScreen
from voyage_tui.app.screens.runs import RunsScreen
from voyage_tui.app.settings import AppSettings
from voyage_tui.app.widgets.diff_list import DiffList
from voyage_tui.engine.wording import plural
from voyage_tui.engine.workspace.model import Workspace

GOLD = "fixtures/gold/jwt-auth/gold.json"
RUNS = "fixtures/gold/jwt-auth/runs"


@pytest.fixture
def root(tmp_path: Path) -> Path:
    return copy_sample(tmp_path)


def diff_app(root: Path, run: str) -> VoyageApp:
    return VoyageApp(
        Workspace.load(root),
        AppSettings(
            use_git=False, watch=False, keymap={}, initial_diff=(GOLD, f"{RUNS}/{run}.json")
        ),
    )


async def _diff(pilot) -> DiffScreen:
    app = pilot.app
    await wait_until(
        pilot, lambda: isinstance(app.screen, DiffScreen) and app.screen.scored is not None
    )
    return app.screen  # type: ignore[return-value]


def _visible(screen: DiffScreen) -> list[str]:
    return [
        f"{r.symbol} {r.file} {r.rule_key}"
        for r in screen.query_one(DiffList).rows
        if r is not None
    ]


async def test_filters_show_one_state_at_a_time(root: Path) -> None:
    app = diff_app(root, "run-invents")
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await _diff(pilot)
        assert len(_visible(screen)) == 10
        await pilot.press("plus")
        assert [v[0] for v in _visible(screen)] == ["+"] * 3
        await pilot.press("equals_sign")
        assert [v[0] for v in _visible(screen)] == ["="] * 7
        await pilot.press("minus")
        assert _visible(screen) == []
        await pilot.press("a")
        assert len(_visible(screen)) == 10
        await pilot.press("g")
        listing = screen.query_one(DiffList)
        assert listing.rows[0] is None  # a file header leads each group
        assert len([r for r in listing.rows if r is not None]) == 10


async def test_next_difference_skips_clean_matches_and_wraps(root: Path) -> None:
    app = diff_app(root, "run-misses")
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await _diff(pilot)
        listing = screen.query_one(DiffList)
        differences = [i for i, r in enumerate(listing.rows) if r is not None and r.is_difference]
        clean = [i for i, r in enumerate(listing.rows) if r is not None and not r.is_difference]
        assert differences and clean  # the sample run has both
        listing.highlighted = clean[0]
        visited = []
        for _ in range(len(differences) + 1):
            await pilot.press("n")
            visited.append(listing.highlighted)
        expected = [i for i in differences if i > clean[0]] + [
            i for i in differences if i < clean[0]
        ]
        assert visited[: len(differences)] == expected
        assert visited[-1] == expected[0]  # wrapped around
        await pilot.press("N")
        assert listing.highlighted == expected[-1]


async def test_enter_shows_the_row_in_full_with_source_lines(root: Path) -> None:
    app = diff_app(root, "run-two-reviewers")
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await _diff(pilot)
        listing = screen.query_one(DiffList)
        index = next(
            i
            for i, r in enumerate(listing.rows)
            if r is not None and r.rule_key == "jwt-weak-secret"
        )
        listing.highlighted = index
        await pilot.press("enter")
        await wait_until(pilot, lambda: isinstance(app.screen, RowDetailScreen))
        detail = app.screen.detail  # type: ignore[attr-defined]
        assert detail.gold_findings[0]["rule_key"] == "jwt-weak-secret"
        assert set(detail.run_findings[0].reviewers) == {"conformance", "correctness"}
        await pilot.press("escape")
        await wait_until(pilot, lambda: app.screen is screen)


async def test_copy_and_write_the_diff_as_markdown(root: Path) -> None:
    app = diff_app(root, "run-misses")
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await _diff(pilot)
        await pilot.press("y")
        assert app.clipboard.startswith("### run-misses vs jwt-auth")
        assert app.clipboard.count("- missed") == screen.scored.score.fn
        await pilot.press("w")
        await wait_until(pilot, lambda: isinstance(app.screen, PathScreen))
        await pilot.press("enter")
        target = root / RUNS / "run-misses-diff.md"
        await wait_until(pilot, target.exists)
        assert target.read_text() == app.clipboard


def _noted(app: VoyageApp, start: str) -> bool:
    return any(str(n.message).startswith(start) for n in app._notifications)


async def _ask_to_write(pilot) -> None:
    app = pilot.app
    await pilot.press("w")
    await wait_until(pilot, lambda: isinstance(app.screen, PathScreen))
    await pilot.press("enter")
    await wait_until(pilot, lambda: isinstance(app.screen, ChoiceScreen))


async def test_export_asks_before_it_overwrites_a_file(root: Path) -> None:
    target = root / RUNS / "run-misses-diff.md"
    target.write_text("my notes\n")
    app = diff_app(root, "run-misses")
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await _diff(pilot)
        for cancel in ("escape", "c"):
            await _ask_to_write(pilot)
            assert "run-misses-diff.md already exists" in str(
                app.screen.query_one(".question").render()
            )
            await pilot.press(cancel)
            await wait_until(pilot, lambda: app.screen is screen)
            await app.workers.wait_for_complete()
            assert target.read_text() == "my notes\n"
        await _ask_to_write(pilot)
        await pilot.press("w")  # dialog.overwrite
        await wait_until(pilot, lambda: _noted(app, "Wrote"))
        assert app.screen is screen
        await pilot.press("y")
    assert target.read_text() == app.clipboard
    assert not target.is_symlink()


async def test_export_over_a_file_that_changed_while_asked_is_not_written(root: Path) -> None:
    target = root / RUNS / "run-misses-diff.md"
    target.write_text("my notes\n")
    app = diff_app(root, "run-misses")
    async with app.run_test(size=(120, 40)) as pilot:
        await _diff(pilot)
        await _ask_to_write(pilot)
        target.write_text("my notes, and more since\n")
        await pilot.press("w")
        await wait_until(pilot, lambda: _noted(app, "Not written"))
        assert any("changed on disk" in str(n.message) for n in app._notifications)
    assert target.read_text() == "my notes, and more since\n"


async def test_the_writers_refusal_reaches_the_screen(
    root: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The writer refuses more than the screen checks first (a path under .git/, a virtualenv,
    a git-ignored file): whatever it refuses, its reason is what the person reads."""
    import voyage_tui.engine.review.export as export
    from voyage_tui.engine.atomic import WriteRefused

    def refuse(ws: object, path: object, data: bytes, **kwargs: object) -> str:
        shown = str(kwargs["shown"])
        raise WriteRefused(shown, f"{shown} is git-ignored; nothing was written")

    monkeypatch.setattr(export, "write_file", refuse)
    app = diff_app(root, "run-misses")
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await _diff(pilot)
        await pilot.press("w")
        await wait_until(pilot, lambda: isinstance(app.screen, PathScreen))
        await pilot.press("enter")
        await wait_until(pilot, lambda: _noted(app, "Not written"))
        assert app.screen is screen
        (note,) = [str(n.message) for n in app._notifications]
        assert note == f"Not written: {RUNS}/run-misses-diff.md is git-ignored; nothing was written"
    assert not (root / RUNS / "run-misses-diff.md").exists()


async def test_export_refuses_a_path_outside_the_workspace(root: Path) -> None:
    app = diff_app(root, "run-misses")
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await _diff(pilot)
        screen.write_markdown("../outside.md")
        await pilot.app.workers.wait_for_complete()
        assert not (root.parent / "outside.md").exists()


async def test_runs_list_ranks_by_f1_and_opens_a_diff(root: Path) -> None:
    app = make_app(root)
    async with app.run_test(size=(120, 40)) as pilot:
        browser = await wait_loaded(pilot)
        assert browser.suite_tree.select_path(GOLD)
        await pilot.press("enter")
        await wait_until(
            pilot, lambda: isinstance(app.screen, RunsScreen) and bool(app.screen.ranked)
        )
        runs: RunsScreen = app.screen  # type: ignore[assignment]
        names = [r.name for r in runs.ranked]
        assert names.index("run-perfect") < names.index("run-downgraded")  # its ALLOW is wrong
        assert runs.ranked[-1].name == "run-empty"
        await pilot.press("enter")
        await wait_until(pilot, lambda: isinstance(app.screen, DiffScreen))
        assert app.screen.run_rel == runs.ranked[0].path  # type: ignore[attr-defined]


def _runs_cursor(app: VoyageApp) -> str:
    runs = app.screen
    assert isinstance(runs, RunsScreen)
    index = runs.query_one(OptionList).highlighted
    assert index is not None
    return runs.ranked[index].path


@pytest.mark.parametrize("run", ["run-misses", "run-empty", "run-downgraded"])
async def test_runs_list_from_a_diff_opens_on_that_run(root: Path, run: str) -> None:
    app = diff_app(root, run)
    async with app.run_test(size=(120, 40)) as pilot:
        await _diff(pilot)
        await pilot.press("r")
        await wait_until(
            pilot, lambda: isinstance(app.screen, RunsScreen) and bool(app.screen.ranked)
        )
        await pilot.pause()
        assert _runs_cursor(app) == f"{RUNS}/{run}.json"


async def test_runs_list_opened_before_the_workspace_loads_fills_in_when_it_does(
    root: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import threading

    from textual.widgets import Static

    from voyage_tui.engine.validation.suite import Suite

    # `voyage diff` shows the diff at once; the suite (which knows the runs) loads behind it
    release = threading.Event()
    validate_all = Suite.validate_all

    def held_validate_all(self: Suite, *args: object, **kwargs: object) -> object:
        release.wait(30)
        return validate_all(self, *args, **kwargs)

    monkeypatch.setattr(Suite, "validate_all", held_validate_all)
    app = diff_app(root, "run-misses")
    try:
        async with app.run_test(size=(120, 40)) as pilot:
            await _diff(pilot)
            await pilot.press("r")
            await wait_until(pilot, lambda: isinstance(app.screen, RunsScreen))
            runs: RunsScreen = app.screen  # type: ignore[assignment]
            await pilot.pause()
            assert app.view is None and not runs.ranked
            summary = str(runs.query_one("#runs-summary", Static).content)
            assert "No runs" not in summary
            release.set()
            await wait_until(pilot, lambda: len(runs.ranked) == 8)
            await pilot.pause()
            assert _runs_cursor(app) == f"{RUNS}/run-misses.json"
    finally:
        release.set()


async def test_runs_list_diff_and_back_with_r_keeps_one_list_on_that_run(root: Path) -> None:
    app = make_app(root)
    async with app.run_test(size=(120, 40)) as pilot:
        await wait_loaded(pilot)
        app.push_screen(RunsScreen(GOLD))
        await wait_until(
            pilot, lambda: isinstance(app.screen, RunsScreen) and bool(app.screen.ranked)
        )
        runs: RunsScreen = app.screen  # type: ignore[assignment]
        await pilot.press("down", "down", "enter")
        await wait_until(pilot, lambda: isinstance(app.screen, DiffScreen))
        opened = app.screen.run_rel  # type: ignore[attr-defined]
        depth = len(app.screen_stack)
        await pilot.press("r")
        await wait_until(pilot, lambda: app.screen is runs)
        assert len(app.screen_stack) == depth - 1 and _runs_cursor(app) == opened


async def test_run_against_run_flags_a_block_to_allow_regression(root: Path) -> None:
    app = make_app(root)
    async with app.run_test(size=(120, 40)) as pilot:
        await wait_loaded(pilot)
        app.push_screen(
            CompareScreen(GOLD, f"{RUNS}/run-downgraded.json", f"{RUNS}/run-perfect.json")
        )
        await wait_until(
            pilot,
            lambda: isinstance(app.screen, CompareScreen) and app.screen.comparison is not None,
        )
        comparison = app.screen.comparison  # type: ignore[attr-defined]
        assert comparison.regression and comparison.block_to_allow
        await pilot.press("s")  # swap: perfect against downgraded is no regression
        await wait_until(
            pilot,
            lambda: app.screen.comparison is not None and not app.screen.comparison.regression,
        )


async def test_runs_list_marks_and_compares(root: Path) -> None:
    app = make_app(root)
    async with app.run_test(size=(120, 40)) as pilot:
        await wait_loaded(pilot)
        app.push_screen(RunsScreen(GOLD))
        await wait_until(
            pilot, lambda: isinstance(app.screen, RunsScreen) and bool(app.screen.ranked)
        )
        runs: RunsScreen = app.screen  # type: ignore[assignment]
        await pilot.press("space", "down", "c")
        await wait_until(pilot, lambda: isinstance(app.screen, CompareScreen))
        assert app.screen.baseline_rel == runs.ranked[0].path  # type: ignore[attr-defined]
        assert app.screen.run_rel == runs.ranked[1].path  # type: ignore[attr-defined]


async def test_browser_opens_a_runs_diff_and_the_palette_compares(root: Path) -> None:
    app = make_app(root)
    async with app.run_test(size=(120, 40)) as pilot:
        browser = await wait_loaded(pilot)
        assert browser.suite_tree.select_path(f"{RUNS}/run-invents.json")
        await pilot.press("enter")
        await wait_until(pilot, lambda: isinstance(app.screen, DiffScreen))
        await pilot.press("b")
        await wait_until(pilot, lambda: isinstance(app.screen, PickScreen))
        await pilot.press("enter")  # the first other run as the baseline
        await wait_until(pilot, lambda: isinstance(app.screen, CompareScreen))
        assert app.screen.run_rel.endswith("run-invents.json")  # type: ignore[attr-defined]
        titles = [hit.text async for hit in VoyageCommands(app.screen).discover()]
        assert "Compare runs" in titles


SAMPLE_RUNS = sorted(p.stem for p in (Path(__file__).resolve().parents[2] / RUNS).glob("*.json"))


@pytest.mark.parametrize("run", SAMPLE_RUNS)
async def test_diff_header_shows_the_score_commands_figures(root: Path, run: str) -> None:
    import json
    import subprocess
    import sys

    out = subprocess.run(
        [
            sys.executable,
            "-m",
            "voyage_tui",
            "score",
            "--gold",
            str(root / GOLD),
            "--run",
            str(root / RUNS / f"{run}.json"),
            "--format",
            "json",
        ],
        capture_output=True,
        text=True,
        check=False,
    )
    report = json.loads(out.stdout)
    app = diff_app(root, run)
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await _diff(pilot)
        text = str(screen.query_one("#diff-figures").content)
        assert f"tp {report['tp']} · fp {report['fp']} · fn {report['fn']}" in text
        assert f"precision {report['precision']:.3f} · recall {report['recall']:.3f}" in text
        assert f"F1 {report['f1']:.3f}" in text
        assert f"verdict {report['run_verdict']} vs expected {report['expected_verdict']}" in text
        assert ("✓ match" in text) == report["verdict_match"]
        if report["invalid_findings"]:
            invalid = str(screen.query_one("#diff-invalid").content)
            assert plural(len(report["invalid_findings"]), "invalid finding") in invalid
