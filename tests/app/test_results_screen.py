"""The results screen: reached from the browser (`v`), the engine's figures as a table and a
forest plot; `enter` on a comparison lists its fixtures worst first, `enter` on a fixture shows
both agents' ratings side by side; `b` takes the next baseline. Never from the rater session."""

from __future__ import annotations

from pathlib import Path

from rich.console import Console
from textual.widgets import OptionList, Static

from tests.app.support import make_app, wait_loaded, wait_until
from tests.results.common import build
from voyage_tui.app.screens.rate import RateScreen
from voyage_tui.app.screens.results import FixturesScreen, RatingsScreen, ResultsScreen


def plain(renderable: object) -> str:
    console = Console(width=200, record=True, color_system=None)
    console.print(renderable)
    return console.export_text()


async def _results(pilot) -> ResultsScreen:
    await wait_loaded(pilot)
    await pilot.press("v")
    app = pilot.app
    await wait_until(
        pilot, lambda: isinstance(app.screen, ResultsScreen) and app.screen.report is not None
    )
    await wait_until(pilot, lambda: app.screen.working == 0)
    return app.screen  # type: ignore[return-value]


async def test_results_drill_down_to_the_ratings(tmp_path: Path) -> None:
    root = build(tmp_path / "ws", baseline="old")
    app = make_app(root)
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await _results(pilot)
        table = plain(screen.query_one("#results-table", Static).content)
        assert "evidence" in table and "↓ worse" in table and "↑ better" in table
        forest = screen.query_one("#results-forest", OptionList)
        labels = [plain(forest.get_option_at_index(i).prompt) for i in range(forest.option_count)]
        assert labels[0].startswith("new · correctness") and "●" in labels[0]
        assert "↓ worse" in labels[2] and labels[2].startswith("new · evidence")
        forest.highlighted = 2  # new · evidence: worse
        await pilot.press("enter")
        await wait_until(pilot, lambda: isinstance(app.screen, FixturesScreen))
        fixtures = app.screen
        assert isinstance(fixtures, FixturesScreen)
        assert [p.fixture_id for p in fixtures.pairs[:2]] == ["f2", "f3"]  # -3 first
        assert fixtures.pairs[0].diff == -3.0
        assert [p.diff for p in fixtures.pairs] == sorted(p.diff for p in fixtures.pairs)
        await pilot.press("enter")
        await wait_until(pilot, lambda: isinstance(app.screen, RatingsScreen))
        ratings = plain(app.screen.query(Static)[1].content)  # the side-by-side table
        assert "new · new-1" in ratings and "old · old-1" in ratings  # unblinded
        assert "alice" in ratings and "bob" in ratings
        await pilot.press("escape")
        await pilot.press("escape")
        await wait_until(pilot, lambda: isinstance(app.screen, ResultsScreen))
        # b: the next agent by name after `old` is `(unlabelled)`
        await pilot.press("b")
        await wait_until(
            pilot, lambda: screen.report is not None and screen.report.baseline == "(unlabelled)"
        )
        await pilot.press("b")
        await wait_until(
            pilot, lambda: screen.report is not None and screen.report.baseline is None
        )
        notices = plain(screen.query_one("#results-notices", Static).content)
        assert "or press b to choose one" in notices
        assert "1 agent run without an `agent` label" in notices
        await pilot.press("escape")
        await wait_until(pilot, lambda: not isinstance(app.screen, ResultsScreen))


async def test_the_rater_session_cannot_open_the_results(tmp_path: Path) -> None:
    root = build(tmp_path / "ws")
    app = make_app(root)
    async with app.run_test(size=(120, 40)) as pilot:
        await wait_loaded(pilot)
        await pilot.press("s")
        await wait_until(pilot, lambda: isinstance(app.screen, RateScreen))
        await pilot.press("v")
        await pilot.pause()
        assert not any(isinstance(s, ResultsScreen) for s in app.navigation.every_screen())


async def test_the_screen_exports_the_files_the_command_line_writes(tmp_path: Path, capsys) -> None:
    """`m` and `h` write reports/results.md and .html: byte for byte what `voyage-tui results
    --format md|html --output` writes, from the one renderer (engine/reports); a file there is
    replaced only when the question is answered."""
    from voyage_tui.app.screens.modals import ChoiceScreen
    from voyage_tui.cli import main

    root = build(tmp_path / "ws", baseline="old")
    expected = {}
    for fmt in ("md", "html"):
        out = root / f"cli.{fmt}"
        assert main(["results", str(root), "--format", fmt, "--output", str(out)]) == 0
        expected[fmt] = out.read_bytes()
    capsys.readouterr()
    app = make_app(root)
    async with app.run_test(size=(120, 40)) as pilot:
        await _results(pilot)
        await pilot.press("m")
        await wait_until(pilot, lambda: (root / "reports/results.md").exists())
        await pilot.press("h")
        await wait_until(pilot, lambda: (root / "reports/results.html").exists())
        assert (root / "reports/results.md").read_bytes() == expected["md"]
        assert (root / "reports/results.html").read_bytes() == expected["html"]
        (root / "reports/results.md").write_text("mine")
        await pilot.press("m")
        await wait_until(pilot, lambda: isinstance(app.screen, ChoiceScreen))
        await pilot.press("escape")
        await wait_until(pilot, lambda: isinstance(app.screen, ResultsScreen))
        assert (root / "reports/results.md").read_text() == "mine"
        await pilot.press("m")
        await wait_until(pilot, lambda: isinstance(app.screen, ChoiceScreen))
        await pilot.press("w")
        await wait_until(
            pilot, lambda: (root / "reports/results.md").read_bytes() == expected["md"]
        )
