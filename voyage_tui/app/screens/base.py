"""The base of every screen of the app: its actions come from the registry, its `app` is typed,
and the app tells it about the suite through methods it can count on.

A new screen:

    class RaterScreen(VoyageScreen[None]):
        SCOPE = "rater"                    # its actions are the registry's "rater.*"
        BINDINGS = bindings("rater")
        HELP = "... {rater.next} next fixture ..."   # keys by id, filled in as remapped

and one `Action("rater.next", "j", "next", "Next", "Next fixture", "...")` per action in
`voyage_tui/app/actions.py`; the footer, the help panel, the command palette and the keymap
follow.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar, TypeVar

from textual.screen import ModalScreen, Screen

from voyage_tui.app.resilience import GuardedMessages
from voyage_tui.app.textual_private import is_closing, is_pruning
from voyage_tui.engine.validation.view import SuiteView

if TYPE_CHECKING:
    from textual import getters

    from voyage_tui.app.app import VoyageApp

ResultType = TypeVar("ResultType")


class VoyageScreen(GuardedMessages, Screen[ResultType]):
    SCOPE: ClassVar[str] = ""
    """The registry scope of the screen's actions: its bindings, its part of the palette."""

    if TYPE_CHECKING:
        # For the type checker only, as Textual itself declares `app`: these screens run in
        # VoyageApp. (DiffScreen also runs in LooseDiffApp, `voyage-tui diff` on loose files;
        # it reaches for the workspace only after checking `loose`.)
        app = getters.app(VoyageApp)

    @property
    def gone(self) -> bool:
        """The screen is closing or closed (popped, or the app is stopping: its widgets are
        being removed), so a worker's result that arrives now has nowhere to be shown."""
        return (
            not self.is_attached
            or not self.app.is_running
            or is_pruning(self)
            or is_closing(self)
            or self not in self.app.screen_stack
        )

    # --- what the app tells every screen on its stack (each screen takes what it needs) -------

    def load_progress(self, done: int, total: int) -> None:
        """The first load has checked `done` of `total` items."""

    def suite_loaded(self, view: SuiteView) -> None:
        """The first full validation finished (or a re-check of everything)."""

    def suite_changed(self, view: SuiteView, touched: set[str]) -> None:
        """Files changed on disk and were re-validated; `touched` are the item paths affected."""

    def load_failed(self) -> None:
        """A load of the whole suite failed (the app says why); the suite shown, if any, stays."""


class VoyageModal(VoyageScreen[ResultType], ModalScreen[ResultType]):
    """A dialog: its keys are the registry's `dialog.*`, one meaning per key in every dialog."""

    SCOPE: ClassVar[str] = "dialog"
