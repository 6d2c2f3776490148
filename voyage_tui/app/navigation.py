"""Every switch between the app's areas, in one place.

The areas are the browser (the bottom of the stack, always there), the triage queue and the
rater session; one of each is open at most. Going to an area that is open closes what sits
above it; going to one that is not open opens it on top of what is open, so `escape` returns
to the screen that opened it (the rater session opened from the queue, the results or the
agreement goes back there). Closing a rater session ends it first, so its rater's lock goes at
once. (Why not Textual's modes: docs/decisions.md, "Navigation".) Screens push their own dialogs and detail screens; what
changes the area goes through here.

A rater-only session (`voyage-tui rate`, `serve --rate`) has one area, the rater session, with
no browser under it: every other screen is refused (`allows`, asked by the app for each screen
pushed), and leaving the session asks first, then ends the app. Which actions it offers is
decided in rater_only.py.
"""

from __future__ import annotations

from typing import Any

from textual.app import App
from textual.command import CommandPalette
from textual.screen import Screen

from voyage_tui.app.screens.browser import BrowserScreen
from voyage_tui.app.screens.modals import ChoiceScreen
from voyage_tui.app.screens.rate import RateScreen

RATING_VIEWS: tuple[type[Screen[Any]], ...] = (RateScreen, ChoiceScreen, CommandPalette)
"""The screens of a rater-only session: the session, its questions (ending it), and the command
palette, which lists only the session's actions there."""


class Navigation:
    def __init__(self, app: App[Any], *, rater_only: bool = False) -> None:
        self.app = app
        self.rater_only = rater_only

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

    def leave_session(self, session: RateScreen, *, unsaved: bool) -> None:
        """`escape` in the rater session: back to the screen that opened it, ending the
        session; in a rater-only session, a question first, and yes ends the app."""
        if not self.rater_only:
            if unsaved:
                self.app.notify(
                    "The scores of the run on screen were not saved (it stays unrated)", timeout=4
                )
            session.end_session()  # now, not when the screen is taken down: `s` may follow
            self.app.pop_screen()
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

    def open_screen(self, kind: type[Screen[Any]]) -> Screen[Any] | None:
        """The open screen of `kind` nearest the top, if any."""
        for screen in reversed(self.app.screen_stack):
            if isinstance(screen, kind):
                return screen
        return None

    def close_above(self, screen: Screen[Any]) -> None:
        """Close every screen above `screen` (a rater session ends as it closes)."""
        app = self.app
        while app.screen is not screen:
            if isinstance(app.screen, RateScreen):
                app.screen.end_session()  # its rater's lock goes now, for the next one
            app.pop_screen()

    def browser(self) -> BrowserScreen | None:
        screen = self.open_screen(BrowserScreen)
        return screen if isinstance(screen, BrowserScreen) else None

    def back_to_browser(self) -> BrowserScreen | None:
        """Close whatever sits above the browser and return it."""
        browser = self.browser()
        if browser is not None:
            self.close_above(browser)
        return browser

    def reveal(self, path: str) -> None:
        """The browser, with `path` selected and shown."""
        browser = self.back_to_browser()
        if browser is None:
            return
        if browser.suite_tree.select_path(path):
            browser.suite_tree.focus()
            browser.show_item(path)

    def triage(self) -> None:
        """The triage queue: back to it when open under other screens, else on top."""
        from voyage_tui.app.screens.triage import TriageScreen  # only once asked for: start-up

        queue = self.open_screen(TriageScreen)
        if queue is not None:
            self.back_to(queue)
            return
        self.app.push_screen(TriageScreen())

    def rate(self, rater: str | None, blind: bool) -> None:
        """The rater session: the one already open, else a new one on top of what is open
        (`escape` returns there)."""
        session = self.open_screen(RateScreen)
        if session is not None:
            self.back_to(session)
            return
        self.app.push_screen(RateScreen(rater, blind=blind))

    def rate_run(self, rater: str | None, blind: bool, fixture_id: str, run_id: str) -> None:
        """A rater session opened on one agent run (triage's `enter` on an unrated run), on top
        of what is open, so `escape` returns to the queue; a session open below ends first,
        with what sits above it. (A rater-only session stays on its own.)"""
        if self.rater_only:
            self.rate(rater, blind)
            return
        session = self.open_screen(RateScreen)
        if isinstance(session, RateScreen):
            self.close_above(session)
            session.end_session()
            self.app.pop_screen()
        self.app.push_screen(RateScreen(rater, blind=blind, start_at=(fixture_id, run_id)))

    def back_to(self, screen: Screen[Any]) -> None:
        """Close the screens above `screen`, which is open (no session ends on the way but
        one above it)."""
        app = self.app
        while app.screen is not screen:
            app.pop_screen()
