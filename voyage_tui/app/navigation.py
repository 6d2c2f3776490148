"""Every switch between the app's areas, and where `escape` goes, in one place.

The areas are Textual modes, each with its own stack of screens: `browse` (the browser, always
open), `triage` (the queue), `rate` (the rater session) and `results`. One of each is open at
most. An area opens above the one on screen, which keeps its whole stack as it was; going to an
area that is open closes the areas opened after it (a rater session ends as it closes, so its
rater's lock goes at once) and shows its first screen. Screens push their own dialogs and detail
screens onto their area's stack.

`escape` returns to the screen that opened the current one (`back`): within an area that is the
screen below it, since every screen opens on top of its opener; the first screen of an area
returns to the area that was on screen when it opened, which is still as it was left, and the
area closes. So the rater session opened from the triage queue goes back to the queue, and one
opened from the results or the agreement goes back there.

What must reach every screen (the suite's events, quitting, crash recovery, `gone`) walks every
area's stack through `every_screen` (textual_private.py: Textual has no public list of modes).

A rater-only session (`voyage-tui rate`, `serve --rate`) has one area, the rater session, with
no browser: every other screen is refused (`allows`, asked by the app for each screen pushed and
here for each area opened), and leaving the session asks first, then ends the app. Which actions
it offers is decided in rater_only.py. (Why modes: docs/decisions.md, "Navigation".)
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from textual.app import App
from textual.command import CommandPalette
from textual.screen import Screen

from voyage_tui.app.screens.browser import BrowserScreen
from voyage_tui.app.screens.modals import ChoiceScreen
from voyage_tui.app.screens.rate import RateScreen
from voyage_tui.app.textual_private import every_screen

BROWSE, TRIAGE, RATE, RESULTS = "browse", "triage", "rate", "results"
AREAS = (BROWSE, TRIAGE, RATE, RESULTS)
"""The app's areas, each a Textual mode."""

RATING_VIEWS: tuple[type[Screen[Any]], ...] = (RateScreen, ChoiceScreen, CommandPalette)
"""The screens of a rater-only session: the session, its questions (ending it), and the command
palette, which lists only the session's actions there."""


class Navigation:
    def __init__(self, app: App[Any], *, rater_only: bool = False) -> None:
        self.app = app
        self.rater_only = rater_only
        self.trail: list[str] = []
        """The open areas in the order they opened; the last is on screen."""

    # --- what is open ------------------------------------------------------------------------

    def every_screen(self) -> list[Screen[Any]]:
        """Every screen of every area, bottom first, the areas in the order they opened."""
        return every_screen(self.app)

    def open_screen(self, kind: type[Screen[Any]]) -> Screen[Any] | None:
        """The open screen of `kind` nearest the top, in any area."""
        for screen in reversed(self.every_screen()):
            if isinstance(screen, kind):
                return screen
        return None

    def area_of(self, screen: Screen[Any]) -> str | None:
        """The area whose stack holds `screen` (None: closed, or Textual's own default)."""
        for area in self.trail:
            if screen in self.app.get_screen_stack(area):
                return area
        return None

    def browser(self) -> BrowserScreen | None:
        if BROWSE not in self.trail:
            return None
        first = self.app.get_screen_stack(BROWSE)[0]
        return first if isinstance(first, BrowserScreen) else None

    # --- what may open -----------------------------------------------------------------------

    def allows(self, screen: Screen[Any] | str) -> bool:
        """Whether `screen` may open: any, except in a rater-only session, where only the
        rating views may, and only the one session."""
        if not self.rater_only:
            return True
        if isinstance(screen, RateScreen):
            return self.open_screen(RateScreen) is None
        return isinstance(screen, RATING_VIEWS)

    def refused(self, screen: Screen[Any] | str) -> None:
        """Say why a screen did not open (a rater-only session refuses it)."""
        self.app.notify(
            "This is a rater session: only the rating views open here.",
            severity="warning",
            timeout=4,
        )

    # --- areas -------------------------------------------------------------------------------

    def _open(self, area: str, first: Callable[[], Screen[Any]]) -> None:
        """Open `area` above the one on screen, `first()` its first screen."""
        screen = first()
        if not self.allows(screen):
            self.refused(screen)
            return
        self.app.add_mode(area, lambda: screen)
        self.trail.append(area)
        self.app.switch_mode(area)

    def _close(self, area: str) -> None:
        """Close an open area that is not on screen (a rater session in it ends now)."""
        for screen in self.app.get_screen_stack(area):
            if isinstance(screen, RateScreen):
                screen.end_session()  # its rater's lock goes now, for the next one
        self.trail.remove(area)
        self.app.remove_mode(area)

    def go_to(self, area: str) -> None:
        """Back to an open area: the areas opened after it close, and its first screen shows
        (the screens above it close)."""
        index = self.trail.index(area)
        self.app.switch_mode(area)
        for later in reversed(self.trail[index + 1 :]):
            self._close(later)
        stack = self.app.get_screen_stack(area)
        self.close_above(stack[0])

    def close_above(self, screen: Screen[Any]) -> None:
        """Close every screen above `screen`, which is in the area on screen."""
        while self.app.screen is not screen:
            if isinstance(self.app.screen, RateScreen):
                self.app.screen.end_session()
            self.app.pop_screen()

    def back_to(self, screen: Screen[Any]) -> None:
        """Show `screen`, open in some area: that area, the areas after it closed, and the
        screens above `screen` closed."""
        area = self.area_of(screen)
        if area is None:
            return
        index = self.trail.index(area)
        self.app.switch_mode(area)
        for later in reversed(self.trail[index + 1 :]):
            self._close(later)
        self.close_above(screen)

    def back(self, screen: Screen[Any]) -> None:
        """`escape` on `screen`: to the screen that opened it (the module's docstring)."""
        area = self.area_of(screen)
        if area is None:
            if screen is self.app.screen and len(self.app.screen_stack) > 1:
                self.app.pop_screen()  # outside the areas (a test's app): the one below
            return
        stack = self.app.get_screen_stack(area)
        if stack[0] is not screen:
            self.back_to(screen)
            self.app.pop_screen()
            return
        index = self.trail.index(area)
        if index == 0:
            return  # the first area has nothing under it (the browser; a rater-only session)
        self.go_back_from(area)

    def go_back_from(self, area: str) -> None:
        """Close `area` (and any opened after it): the area that opened it shows, as it was."""
        index = self.trail.index(area)
        self.app.switch_mode(self.trail[index - 1])
        for later in reversed(self.trail[index:]):
            self._close(later)

    def back_to_browser(self) -> BrowserScreen | None:
        """Close every other area and whatever sits above the browser; return it."""
        browser = self.browser()
        if browser is not None:
            self.back_to(browser)
        return browser

    # --- the areas, as asked for ---------------------------------------------------------------

    def start(self, rater: str | None, blind: bool) -> None:
        """The first area: the browser, or a rater-only session alone."""
        if self.rater_only:
            # The session alone, no browser under it: nothing to go back to.
            self._open(RATE, lambda: RateScreen(rater, blind=blind))
            return
        self._open(BROWSE, BrowserScreen)

    def reveal(self, path: str) -> None:
        """The browser, with `path` selected and shown."""
        browser = self.back_to_browser()
        if browser is None:
            return
        if browser.suite_tree.select_path(path):
            browser.suite_tree.focus()
            browser.show_item(path)

    def triage(self) -> None:
        """The triage queue: back to it when open, else opened above what is on screen."""
        if TRIAGE in self.trail:
            self.go_to(TRIAGE)
            return
        from voyage_tui.app.screens.triage import TriageScreen  # only once asked for: start-up

        self._open(TRIAGE, TriageScreen)

    def results(self) -> None:
        """The results: back to them when open, else opened above what is on screen."""
        if RESULTS in self.trail:
            self.go_to(RESULTS)
            return
        from voyage_tui.app.screens.results import ResultsScreen

        self._open(RESULTS, ResultsScreen)

    def rate(self, rater: str | None, blind: bool) -> None:
        """The rater session: the one open, else a new one above what is on screen."""
        if RATE in self.trail:
            self.go_to(RATE)
            return
        self._open(RATE, lambda: RateScreen(rater, blind=blind))

    def rate_run(self, rater: str | None, blind: bool, fixture_id: str, run_id: str) -> None:
        """A rater session on one agent run (triage's `enter` on an unrated run), above what is
        on screen; a session open elsewhere ends first. (A rater-only session stays on its
        own.)"""
        if self.rater_only:
            self.rate(rater, blind)
            return
        if RATE in self.trail:
            if self.trail[-1] == RATE:
                self.go_back_from(RATE)
            else:
                self._close(RATE)
        self._open(RATE, lambda: RateScreen(rater, blind=blind, start_at=(fixture_id, run_id)))

    def leave_session(self, session: RateScreen, *, unsaved: bool) -> None:
        """`escape` in the rater session: back to where it opened, ending the session; in a
        rater-only session, a question first, and yes ends the app."""
        if not self.rater_only:
            if unsaved:
                self.app.notify(
                    "The scores of the run on screen were not saved (it stays unrated)", timeout=4
                )
            session.end_session()  # now, not when the screen is taken down: `s` may follow
            self.back(session)
            return
        detail = " The scores of the run on screen are not saved." if unsaved else ""

        def answered(choice: str | None) -> None:
            if choice == "yes":
                session.end_session()  # its rater's lock goes now
                self.app.exit(0)

        self.app.push_screen(
            ChoiceScreen(f"End the rater session?{detail} Every saved rating stays.", ["yes"]),
            answered,
        )
