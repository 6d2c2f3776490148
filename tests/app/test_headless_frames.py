"""The tests' headless apps skip the frames Textual throws away (tests/fast_textual.py), yet a
widget that cannot be drawn still fails the test, and a snapshot test still draws every frame."""

from __future__ import annotations

import pytest
from textual.app import App, ComposeResult
from textual.widgets import Static

from tests import fast_textual
from tests.budget import THOROUGH


class _Probe(Static):
    DEFAULT_CSS = "_Probe { width: 10; height: 1; }"  # a fixed size: layout never draws it

    def __init__(self) -> None:
        super().__init__("probe")
        self.drawn = 0
        self.broken = False

    def render(self) -> str:
        self.drawn += 1
        if self.broken:
            raise ValueError("this widget cannot be drawn")
        return "probe"


class _ProbeApp(App[None]):
    def compose(self) -> ComposeResult:
        yield _Probe()


async def test_a_widget_that_cannot_be_drawn_fails_the_test_when_it_ends() -> None:
    app = _ProbeApp()
    with pytest.raises(ValueError, match="cannot be drawn"):
        async with app.run_test() as pilot:
            probe = app.query_one(_Probe)
            probe.broken = True
            probe.refresh()
            await pilot.pause()


@pytest.mark.skipif(THOROUGH, reason="VOYAGE_THOROUGH draws every frame")
async def test_a_flow_test_draws_no_frame_between_its_steps() -> None:
    app = _ProbeApp()
    async with app.run_test() as pilot:
        probe = app.query_one(_Probe)
        before = probe.drawn
        probe.refresh()
        await pilot.pause()
        assert probe.drawn == before


async def test_a_snapshot_test_draws_every_frame() -> None:
    app = _ProbeApp()
    with fast_textual.every_frame(True):
        async with app.run_test() as pilot:
            probe = app.query_one(_Probe)
            before = probe.drawn
            probe.refresh()
            await pilot.pause()
            assert probe.drawn > before
