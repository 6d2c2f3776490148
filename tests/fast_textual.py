"""What Textual does in the tests that a person's app does not need: every frame drawn, idle
waits in steps of 20 ms, the same stylesheets parsed again for every app.

Frames: the tests' headless apps draw once at the end of a test, not every frame.

Under `App.run_test` Textual's headless driver throws every frame away, yet the screen still
draws each one (every widget's lines, styled, filtered, cropped): a third of an app test's CPU.
A flow test asserts on widgets and on disk, and a snapshot test draws its own picture
(`export_screenshot` renders in full whatever is on screen), so the tests skip the thrown-away
frames, and `run_test` draws the final screen once, in full, when the test's body ends: a widget
whose `render` raises still fails the test that reached it.

A snapshot test (one that takes `snap_compare`) draws every frame all the same: some of Textual's
widgets settle their size while they draw (an OptionList counts its lines in `render_lines`, and
a resize it is not told of leaves them stale without a frame), and a snapshot pins the picture a
person sees, scrollbars and all.

Idle: Textual waits for "idle" after each key a pilot presses by sleeping in steps of 20 ms until a
step passes with under 1 ms of CPU (`textual._wait`); the tests take steps of 5 ms. Both changes are to
Textual's private API: `tests/app/test_textual_private.py` looks up every name used here.

Stylesheets: Textual parses every app's stylesheets (its own and every widget's default CSS)
again, a tenth of starting an app; the tests keep one parse per text and set of variables (the
theme's) for the whole process, as one app keeps it for its own reparses.

`VOYAGE_THOROUGH=1` leaves Textual as it is (every frame drawn, 20 ms steps), as before a
release or after a change to drawing (docs/development.md).
"""

from __future__ import annotations

from collections.abc import AsyncGenerator, Callable, Iterator
from contextlib import asynccontextmanager, contextmanager
from typing import Any

import textual._wait
from textual.app import App
from textual.css.model import RuleSet
from textual.css.stylesheet import CSSLocation, Stylesheet
from textual.pilot import Pilot
from textual.screen import Screen
from textual.strip import Strip

from tests.budget import THOROUGH

PRIVATE_NAMES: tuple[tuple[str, str], ...] = (
    ("textual.screen.Screen", "_compositor_refresh"),
    ("textual.screen.Screen", "_compositor"),
    ("textual.screen.Screen", "_dirty_widgets"),
    ("textual._compositor.Compositor", "_dirty_regions"),
    ("textual.app.App", "_update_mouse_over"),
    ("textual.app.App", "_background_screens"),
    ("textual._wait", "SLEEP_GRANULARITY"),
    ("textual._wait", "SLEEP_IDLE"),
    ("textual.css.stylesheet.Stylesheet", "_parse_rules"),
    ("textual.css.stylesheet.Stylesheet", "_variables"),
)
"""(owner, name) of each private name this module uses."""

IDLE_STEP = 0.005
"""Seconds per step of Textual's idle wait in the tests (Textual's own: 0.02)."""
IDLE_CPU = 0.001
"""CPU seconds within a step below which the app counts as idle: Textual's own figure, so a
step of a timer's small work (the rater's clock) still counts as idle."""

_parse_rules = Stylesheet._parse_rules
_parsed: dict[tuple[object, ...], list[RuleSet]] = {}


def _parse_rules_once(
    self: Stylesheet,
    css: str,
    read_from: CSSLocation,
    is_default_rules: bool = False,
    tie_breaker: int = 0,
    scope: str = "",
) -> list[RuleSet]:
    key = (css, read_from, is_default_rules, tie_breaker, scope, *sorted(self._variables.items()))
    rules = _parsed.get(key)
    if rules is None:
        rules = _parsed[key] = _parse_rules(
            self, css, read_from, is_default_rules, tie_breaker, scope
        )
    return rules


_draw_every_frame: Callable[[Screen[Any]], None] = Screen._compositor_refresh
_run_test = App.run_test
_drawing_every_frame = False


@contextmanager
def every_frame(wanted: bool) -> Iterator[None]:
    """Draw every frame while in the block, when `wanted` (a snapshot test)."""
    global _drawing_every_frame
    before, _drawing_every_frame = _drawing_every_frame, wanted
    try:
        yield
    finally:
        _drawing_every_frame = before


def _skip_headless_frame(screen: Screen[Any]) -> None:
    app = screen.app
    if not _drawing_every_frame and app.is_headless and screen is app.screen and not app.is_inline:
        screen._compositor._dirty_regions.clear()
        screen._dirty_widgets.clear()
        app._update_mouse_over(screen)
        return
    _draw_every_frame(screen)


def screen_text(app: App[Any]) -> str:
    """The text on screen now, line by line, as drawn in full (what a person reads, without the
    cost of an SVG screenshot's styles)."""
    strips: list[Strip] = app.screen._compositor.render_strips()
    return "\n".join("".join(segment.text for segment in strip) for strip in strips)


def draw_screen(app: App[Any]) -> None:
    """Draw what is on screen now, in full, as a frame would (and throw it away)."""
    if app.is_running and app.screen_stack:
        app.screen._compositor.render_update(full=True, screen_stack=app._background_screens)


@asynccontextmanager
async def _run_test_drawing_the_end(
    self: App[Any], *args: Any, **kwargs: Any
) -> AsyncGenerator[Pilot[Any], None]:
    async with _run_test(self, *args, **kwargs) as pilot:
        yield pilot
        draw_screen(self)


def install() -> None:
    """Skip the thrown-away frames, shorten the idle step and parse each stylesheet once,
    unless VOYAGE_THOROUGH is set."""
    if THOROUGH:
        return
    Screen._compositor_refresh = _skip_headless_frame  # type: ignore[method-assign]
    App.run_test = _run_test_drawing_the_end  # type: ignore[assignment,method-assign]
    textual._wait.SLEEP_GRANULARITY = IDLE_STEP
    textual._wait.SLEEP_IDLE = IDLE_CPU
    Stylesheet._parse_rules = _parse_rules_once  # type: ignore[method-assign]
