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

import inspect
from collections.abc import Callable
from typing import TYPE_CHECKING, ClassVar, TypeVar

from textual.screen import ModalScreen, Screen
from textual.worker import Worker

from voyage_tui.app.resilience import GuardedMessages
from voyage_tui.app.textual_private import every_screen, is_closing, is_pruning
from voyage_tui.engine.validation.view import SuiteView

if TYPE_CHECKING:
    from textual import getters

    from voyage_tui.app.app import VoyageApp

ResultType = TypeVar("ResultType")
JobResult = TypeVar("JobResult")


class VoyageScreen(GuardedMessages, Screen[ResultType]):
    SCOPE: ClassVar[str] = ""
    """The registry scope of the screen's actions: its bindings, its part of the palette."""

    def __init__(
        self, name: str | None = None, id: str | None = None, classes: str | None = None
    ) -> None:
        super().__init__(name, id, classes)
        self._working = 0
        self._latest: dict[str, int] = {}
        self._out: dict[str, int] = {}
        self._busy = False

    if TYPE_CHECKING:
        # For the type checker only, as Textual itself declares `app`: these screens run in
        # VoyageApp. (DiffScreen also runs in LooseDiffApp, `voyage-tui diff` on loose files;
        # it reaches for the workspace only after checking `loose`.)
        app = getters.app(VoyageApp)

    @property
    def gone(self) -> bool:
        """The screen is closing or closed (popped, its area closed, or the app is stopping:
        its widgets are being removed), so a worker's result that arrives now has nowhere to be
        shown. (A screen of an area not on screen is not gone: its area shows it again.)"""
        return (
            not self.is_attached
            or not self.app.is_running
            or is_pruning(self)
            or is_closing(self)
            or self not in every_screen(self.app)
        )

    # --- work off the UI thread ----------------------------------------------------------------

    @property
    def working(self) -> int:
        """Jobs started with `run_in_thread` whose result has not come back yet (tests wait
        for 0)."""
        return self._working

    def waiting(self, key: str) -> bool:
        """A `run_in_thread` call with `key` has not come back yet: what is shown of it may be
        out of date (the wizard is not settled until its newest check is shown)."""
        return self._out.get(key, 0) > 0

    @property
    def busy(self) -> bool:
        """An exclusive step (`run_in_thread(..., exclusive=True)`) is under way: from the
        call until its result is shown (its `then` has returned, awaited when it is a
        coroutine), dropped, or its job failed. A screen whose steps build on what the one
        before left on screen (the rater's keys, an adjudication's write) refuses keys
        meanwhile rather than apply them to something the person has not seen."""
        return self._busy

    def run_in_thread(
        self,
        job: Callable[[], JobResult],
        then: Callable[[JobResult], object],
        *,
        key: str | None = None,
        stale: Callable[[], bool] | None = None,
        exclusive: bool = False,
    ) -> Worker[None] | None:
        """Run `job` in a thread worker (file and git I/O, validation: never on the UI thread),
        then `then(result)` on the UI thread, unless the result has nowhere to go or is out of
        date by then:

        - the screen is `gone` (closed, or the app stopping): its widgets are being removed;
        - a newer call with the same `key` was made meanwhile (the suite changed again, the
          text was edited again): only the newest result of a key is shown;
        - `stale()`, asked on the UI thread just before, says the result no longer applies.

        An exception from `job` is reported as the app reports any failed background task (the
        app carries on); `then` is not called. Call from the UI thread.

        `exclusive`: one step at a time. The screen is `busy` until this step's result is
        shown (`then` may be a coroutine function: until it has run; it runs in the screen's
        own queue, as a message handler would); another exclusive call meanwhile is refused
        (None is returned, nothing runs), so the caller need keep no flag of its own."""
        if exclusive:
            if self._busy:
                return None
            self._busy = True
        ticket = 0
        if key is not None:
            ticket = self._latest[key] = self._latest.get(key, 0) + 1
            self._out[key] = self._out.get(key, 0) + 1
        self._working += 1

        def back() -> None:
            self._working -= 1
            if key is not None:
                self._out[key] -= 1
            if exclusive:
                self._busy = False

        def wanted() -> bool:
            if self.gone or (key is not None and self._latest.get(key) != ticket):
                return False
            return stale is None or not stale()

        def deliver(result: JobResult) -> None:
            if exclusive and self.call_later(show, result):
                return  # `working` and `busy` count until it is shown
            back()  # (exclusive: the screen is closing, nothing to show)
            if wanted():
                then(result)

        async def show(result: JobResult) -> None:
            """An exclusive step's result, shown in the screen's own queue, as a message's
            handler would be: keys pressed while it is drawn wait behind it (and find the
            screen ready) instead of being refused, and `busy` lasts until it is drawn."""
            try:
                if wanted():
                    shown = then(result)
                    if inspect.isawaitable(shown):
                        await shown
            finally:
                back()

        def failed(error: Exception) -> None:
            back()
            # DiffScreen also runs in LooseDiffApp, which does not report: Textual's own
            # handling of a failed worker there.
            report = getattr(app, "report_error", None)
            if report is None:
                raise error
            report(error, f"A background task of {type(self).__name__}")

        app = self.app  # (a screen removed meanwhile no longer knows its app)

        def run() -> None:
            try:
                result = job()
            except Exception as error:
                app.call_from_thread(failed, error)
                return
            app.call_from_thread(deliver, result)

        name = getattr(job, "__qualname__", "job")
        return self.run_worker(run, name=name, group=key or "thread", thread=True)

    # --- what the app tells every screen on its stack (each screen takes what it needs) -------

    def load_progress(self, done: int, total: int) -> None:
        """The first load has checked `done` of `total` items."""

    def suite_listed(self, view: SuiteView, done: int, total: int) -> None:
        """The first load listed the files, or checked another batch of them: `view` holds
        every listed item, those not checked yet stand-ins (`view.unchecked`)."""

    def suite_loaded(self, view: SuiteView) -> None:
        """The first full validation finished (or a re-check of everything)."""

    def suite_changed(self, view: SuiteView, touched: set[str]) -> None:
        """Files changed on disk and were re-validated; `touched` are the item paths affected."""

    def load_failed(self) -> None:
        """A load of the whole suite failed (the app says why); the suite shown, if any, stays."""


class VoyageModal(VoyageScreen[ResultType], ModalScreen[ResultType]):
    """A dialog: its keys are the registry's `dialog.*`, one meaning per key in every dialog."""

    SCOPE: ClassVar[str] = "dialog"
