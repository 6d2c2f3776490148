"""The rater's clock ticks each second: it redraws its own line, and lays the screen out again
only when the time gets wider (a layout of the whole screen each second cost CPU for nothing)."""

from __future__ import annotations

from pathlib import Path

from textual.widgets import Static

from tests.app.scenarios import copy_sample, loaded, scenario_app
from tests.app.support import wait_until
from voyage_tui.app.screens.rate import RateScreen


async def test_the_clock_lays_the_screen_out_only_when_its_width_changes(tmp_path: Path) -> None:
    now = [0.0]
    app = scenario_app(copy_sample(tmp_path))
    async with app.run_test(size=(120, 40)) as pilot:
        await loaded(pilot)
        screen = RateScreen("me", clock=lambda: now[0])
        app.push_screen(screen)
        await wait_until(pilot, lambda: screen.state is not None and not screen.busy, 30.0)
        await pilot.pause()
        progress = screen.query_one("#rate-progress", Static)
        shown: list[tuple[str, bool]] = []
        update = progress.update

        def spy(content: object = "", *, layout: bool = True) -> None:
            shown.append((str(content), layout))
            update(content, layout=layout)  # type: ignore[arg-type]

        progress.update = spy  # type: ignore[method-assign]
        screen._tick()
        assert shown == []  # the same time: nothing to draw

        now[0] += 5.0
        screen._tick()
        assert shown[-1] == ("0/12 rated · 0:05 on this item", False)

        now[0] += 600.0
        screen._tick()
        assert shown[-1] == ("0/12 rated · 10:05 on this item", True)  # wider: laid out
