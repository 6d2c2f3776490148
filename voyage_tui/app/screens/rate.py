"""The rater session: the next unrated (fixture, run) pair, the task beside the run, the rubric
below (or beside, on a wide terminal), one key per dimension.

Every call into the engine's RaterSession runs in a worker, one at a time (the session is not
shared between threads: a lock guards it, and each step is an exclusive `run_in_thread`, so the
screen is `busy` until its result is shown); only then does the screen show the next pair, so a
rating is on disk (appended and fsync'd) before the screen moves on. Keys pressed while a step is in
flight are refused with a bell rather than applied to a pair the rater has not seen.
"""

from __future__ import annotations

import contextlib
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import ClassVar

from rich.text import Text
from textual import on, work
from textual.app import ComposeResult
from textual.binding import BindingType
from textual.containers import Horizontal, VerticalScroll
from textual.events import ScreenResume, ScreenSuspend
from textual.message import Message
from textual.widgets import Input, Static

from voyage_tui.app.actions import bindings
from voyage_tui.app.keymap import keys_after
from voyage_tui.app.screens.base import VoyageScreen
from voyage_tui.app.widgets.key_footer import KeyFooter
from voyage_tui.app.widgets.pair_panes import run_widgets, task_widgets
from voyage_tui.app.widgets.rubric_panel import RubricPanel
from voyage_tui.app.widgets.safe_text import printable
from voyage_tui.engine.campaign import figures as campaign_figures
from voyage_tui.engine.campaign.source import WorkTree
from voyage_tui.engine.ratings.assignment import outside_the_team
from voyage_tui.engine.ratings.content import PairContent
from voyage_tui.engine.ratings.keypad import (
    COMPLETE,
    PENDING,
    REFUSED,
    KeyResult,
    ScoreDraft,
    score_keys,
)
from voyage_tui.engine.ratings.names import RaterNameError, ratings_file_rel
from voyage_tui.engine.ratings.records import Rating
from voyage_tui.engine.ratings.runs import AgentRunRef
from voyage_tui.engine.ratings.session import (
    Progress,
    RaterSession,
    SessionError,
    touches_runs,
)
from voyage_tui.engine.validation.view import SuiteView

WIDE = 150
"""From this many columns the rubric stands beside the pair instead of below it."""

RUBRIC_SHARE = 0.45
"""The share of the height the rubric may take below the pair (rate.tcss says the same): the
run gets the most of it (issue 36), the rubric folds to fit (widgets/rubric_panel.py)."""


@dataclass(frozen=True, slots=True)
class SessionState:
    """What the screen shows of the session after a step, taken in the worker."""

    current: AgentRunRef | None
    label: str
    content: PairContent | None
    progress: str
    total: int
    can_undo: bool
    can_redo: bool
    in_force: Rating | None
    """This rater's rating in force for the pair on screen (it is being re-rated)."""
    ratings_file: str
    tally: Progress
    """The figures behind `progress`: the assigned ones, the team (ratings/session.py)."""
    assigned: bool = True
    """Whether the pair on screen is asked of this rater (always, without a team)."""


class Opened(Message):
    def __init__(self, session: RaterSession, state: SessionState) -> None:
        super().__init__()
        self.session = session
        self.state = state


class NotOpened(Message):
    def __init__(self, reason: str) -> None:
        super().__init__()
        self.reason = reason


@dataclass(frozen=True)
class Stepped:
    """A step (submit, undo, redo, skip) is done: on disk, and the session has moved."""

    state: SessionState
    said: str


@dataclass(frozen=True)
class StepFailed:
    action: str
    error: str


_FAILED = {
    "submit": ("Not saved", "rate.confirm"),
    "undo": ("Not undone", "rate.undo"),
    "redo": ("Not redone", "rate.redo"),
    "skip": ("Not skipped", "rate.skip"),
}
"""What a failed step says, and the action whose key takes the step again: only a failed
submit keeps a complete draft, so only there does `enter` try again."""


class PaneScroll(VerticalScroll, inherit_bindings=False):
    """A scrolling pane whose keys leave `left`, `right` and `tab` to the rubric."""

    SCOPE = "pane"
    BINDINGS: ClassVar[list[BindingType]] = bindings("pane")
    ALLOW_MAXIMIZE = True  # `z` (Textual's scroll containers refuse by default)


def clock_text(seconds: float) -> str:
    whole = int(max(seconds, 0.0))
    hours, rest = divmod(whole, 3600)
    minutes, secs = divmod(rest, 60)
    return f"{hours}:{minutes:02d}:{secs:02d}" if hours else f"{minutes}:{secs:02d}"


class RateScreen(VoyageScreen[None]):
    HELP = """
## Rater session

The task on the left, the run on the right, the rubric below. A number key scores the
highlighted dimension and moves on; the key of the last dimension saves the rating (appended
and flushed to disk) and opens the next run. `left` / `shift+tab` go back a dimension,
`right` / `tab` forward; `n` adds a one-line note before the last key. `u` (or `backspace`)
takes back the last rating of this session and reopens it, again and again; `ctrl+r` redoes.
`s` skips a run (it comes back after the others). `o` switches the pane that `up` / `down` /
`pageup` / `pagedown` scroll (`shift+left` / `shift+right`, or `<` / `>`, sideways to a wide
table); {rate.maximise} maximises it and restores it. Blind by default: the agent is never shown.
"""

    HORIZONTAL_BREAKPOINTS = [(0, "-narrow"), (WIDE, "-wide")]  # noqa: RUF012 - Textual declares it an instance attribute

    SCOPE = "rate"
    BINDINGS: ClassVar[list[BindingType]] = bindings("rate")
    ALLOW_IN_MAXIMIZED_VIEW: ClassVar[str | None] = "#rate-top, Footer"

    def __init__(
        self,
        rater: str | None = None,
        *,
        blind: bool = True,
        clock: Callable[[], float] = time.monotonic,
        start_at: tuple[str, str] | None = None,
    ) -> None:
        """`rater`: the name to rate as, or None for the engine's choice (git's user.name,
        else the OS user). `clock` times each item; tests give one that does not move.
        `start_at`: (fixture_id, run_id) to show first (triage opens an unrated run so)."""
        super().__init__()
        self.rater = rater
        self.start_at = start_at
        self.blind = blind
        self.clock = clock
        self.session: RaterSession | None = None
        self.state: SessionState | None = None
        self.draft = ScoreDraft([])
        self.problem: str | None = None
        """Why there is no session (no rater name, an unreadable ratings file, no rubric)."""
        self.status = ""
        self._lock = threading.Lock()
        self._progress_shown: Text | None = None
        self._opening = False
        self._progress_width = -1
        """The progress's width the header was last fitted beside."""
        self._changed_view: SuiteView | None = None
        """The suite as changed on disk while the session could not look (`suite_changed`)."""

    # --- layout ----------------------------------------------------------------------------

    def compose(self) -> ComposeResult:
        with Horizontal(id="rate-top"):
            yield Static(Text("Rater session", style="bold"), id="rate-where")
            yield Static("", id="rate-progress")
        yield Static("", id="rate-status")
        yield Static(Text("Loading the suite…", style="dim"), id="rate-message")
        with Horizontal(id="rate-body"):
            with Horizontal(id="rate-panes"):
                yield PaneScroll(id="rate-task")
                yield PaneScroll(id="rate-run")
            yield RubricPanel(id="rate-rubric", fold=True)
        yield Input(placeholder="a one-line note (enter keeps it, escape drops it)", id="rate-note")
        yield KeyFooter()

    def on_mount(self) -> None:
        self.query_one("#rate-body").display = False
        self.query_one("#rate-note").display = False
        self.query_one("#rate-status").display = False
        self.set_interval(1.0, self._tick)
        # immediate: the app stops right after publishing, so a deferred call would pause the
        # clock only once the app is back, counting the time away.
        self.app.app_suspend_signal.subscribe(self, self._app_suspended, immediate=True)
        self.app.app_resume_signal.subscribe(self, self._app_resumed, immediate=True)
        view = self.app.view
        if view is not None:
            self.suite_loaded(view)

    # --- opening ----------------------------------------------------------------------------

    def suite_loaded(self, view: SuiteView) -> None:
        """Called by the app once the suite is checked (at once when it already is)."""
        if self.session is not None or self._opening:
            return
        rubric = view.refs.rubric.value
        if not rubric.dimensions:
            self._not_opened(
                f"The rubric ({view.refs.rubric.path}) defines no dimensions, so there is "
                "nothing to score. Write each dimension as a `## Name` heading with list items "
                "`1: anchor` … `5: anchor` under it."
            )
            return
        self._opening = True
        self.open_session(view)

    @work(thread=True, group="rate-session")
    def open_session(self, view: SuiteView) -> None:
        try:
            session = RaterSession.open(
                view.ws,
                view.refs.rubric.value,
                view.items,
                self.rater,
                read=WorkTree(view.ws).rater_store,
                blind=self.blind,
                use_git=self.app.use_git,
                clock=self.clock,
                assignment=campaign_figures.assignment(view.campaign()),
            )
            if self.start_at is not None:
                with contextlib.suppress(KeyError):  # a run gone since: the usual first pair
                    session.goto(self.start_at)
            with self._lock:
                state = _state_of(session)
        except (RaterNameError, SessionError, OSError) as exc:
            self.post_message(NotOpened(str(exc)))
            return
        self.post_message(Opened(session, state))

    def suite_changed(self, view: SuiteView, touched: set[str]) -> None:
        """Runs written meanwhile (a new one while the tab is open) join the queue: the count
        grows and, when every run was rated, the new one is shown. Taken in the session's
        worker like any step, so it never lands between a key and the pair it acts on."""
        if touched and not touches_runs(view.items, touched):
            return  # (the catch-up below passes no paths: it looks whatever they were)
        session, lock = self.session, self._lock
        if session is None:
            if self._opening:
                self._changed_view = view  # looked at once the session is open
            return

        def job() -> SessionState | None:
            with lock:
                if not session.take_new_runs(view.items):
                    return None
                return _state_of(session)

        if self.run_in_thread(job, self._runs_added, exclusive=True) is None:
            self._changed_view = view  # a step in flight: looked at once it is shown

    def _catch_up(self) -> None:
        """A change that came while the session opened or a step ran is looked at now."""
        view, self._changed_view = self._changed_view, None
        if view is not None:
            self.suite_changed(view, set())

    async def _runs_added(self, state: SessionState | None) -> None:
        before = self.state
        if self.session is None or before is None:
            return
        if state is None:  # nothing new: the rubric, drawn busy meanwhile, is drawn ready
            self._show_rubric(step_shown=True)
            return
        if before.current is not None and state.current == before.current:
            # The pair on screen stays, and so do the scores typed for it: only the counts move.
            self.state = replace(
                before,
                progress=state.progress,
                total=state.total,
                tally=state.tally,
                label=state.label,
            )
            self._show_header()
        else:
            await self._show_state(state)
        self._show_rubric(step_shown=True)

    @on(NotOpened)
    def _refused(self, message: NotOpened) -> None:
        self._not_opened(message.reason)

    def _not_opened(self, reason: str) -> None:
        self.problem = reason
        self._opening = False
        self.query_one("#rate-message", Static).update(
            Text.assemble(("No rater session: ", "bold red"), printable(reason))
        )
        self.query_one("#rate-message").display = True
        self.query_one("#rate-body").display = False

    @on(Opened)
    async def _opened(self, message: Opened) -> None:
        if self.gone:  # closed while the session opened: its rater's lock goes at once
            message.session.close()
            return
        self.session = message.session
        self._opening = False
        self.rater = message.session.rater
        await self._show_state(message.state)
        note = outside_the_team(message.session.assignment, self.rater)
        if note is not None:
            self._say(f"{note}.", "yellow")
        elif message.state.current is not None and _assigned_done(message.state):
            self._say(ASSIGNED_DONE, "green")
        self._catch_up()

    # --- showing ----------------------------------------------------------------------------

    async def _show_state(self, state: SessionState) -> None:
        assert self.session is not None
        self.state = state
        self.draft = self.session.draft()
        self.refresh_bindings()
        self.query_one("#rate-note").display = False
        self._show_header()
        message = self.query_one("#rate-message", Static)
        body = self.query_one("#rate-body")
        if state.current is None or state.content is None:
            message.update(self._finished_text(state))
            message.display = True
            body.display = False
            return
        message.display = False
        body.display = True
        task = self.query_one("#rate-task", PaneScroll)
        run = self.query_one("#rate-run", PaneScroll)
        await task.remove_children()
        await run.remove_children()
        await task.mount_all(task_widgets(state.content))
        await run.mount_all(run_widgets(state.content))
        if self.gone:  # closed while the panes were filled
            return
        task.scroll_home(animate=False)
        run.scroll_home(animate=False)
        (self.maximized or run).focus()  # a maximised pane stays so for the next pair
        self._show_rubric()

    def _finished_text(self, state: SessionState) -> Text:
        if state.total == 0:
            return Text.assemble(
                ("Nothing to rate: ", "bold"),
                "this workspace has no agent runs. An agent run is a file "
                "fixtures/<class>/<id>/runs/<run-id>.yaml beside its fixture's task.yaml.",
            )
        text = Text.assemble(
            ("Every agent run is rated", "bold green"),
            printable(f": {state.progress} by {self.rater}, in {state.ratings_file}.\n\n"),
        )
        if state.can_undo:
            text.append("`u` takes back the last rating of this session and reopens that run. ")
        if self.app.settings.rater_only:
            text.append("`escape` ends the session.")
        else:
            text.append(
                "`escape` goes back; “Rater agreement” in the palette (ctrl+p) compares raters."
            )
        return text

    def _show_header(self) -> None:
        self._progress_width = -1  # the next tick fits the header to the progress beside it
        self._tick()

    def _header(self, room: int) -> Text:
        """The run, what is unusual about it (re-rating, outside the team or the assignment),
        then the rater and whether blind, fitted to `room` cells: the rater's own name is cut
        first (the widget's ellipsis), then `to you`, then the run's fixture id, so the flags
        always show (at 80 columns a long fixture id and name would otherwise push them past
        the edge)."""
        state = self.state
        flag = ""
        if state is not None and not state.tally.in_team:
            flag = "not in the team"
        elif state is not None and state.current is not None and not state.assigned:
            flag = "not assigned to you"
        marks = Text()
        if state is not None and state.current is not None and state.in_force is not None:
            marks.append(" re-rating", style="yellow")
        if flag:
            marks.append(f" · {flag}", style="yellow")
        who = Text(printable(self.rater or "?", lines=False))
        who.append(" · blind" if self.blind else " · not blind", style="dim")
        if state is None or state.current is None:
            if not flag:
                return who
            return Text.assemble((f"{flag}   ", "yellow"), who)
        label = printable(state.label, lines=False)
        full = Text.assemble((label, "bold"), marks, "   ", who)
        if Text.assemble(label, marks).cell_len <= room:
            return full  # the rater's name, if anything, is cut at the end (an ellipsis)
        if flag == "not assigned to you":  # "to you" goes before the fixture id is cut
            marks = Text.assemble(*marks.divide([marks.cell_len - len(" to you")])[:1])
        short = Text.assemble((label, "bold"), marks)
        spare = room - short.cell_len
        if spare >= 0:
            return Text.assemble(short, "   ", who)
        # cut the fixture id, keeping the run's place (`· run 2 of 3`) and the marks
        fixture, sep, place = label.partition(" · ")
        keep = max(1, len(fixture) + spare - 1)
        cut = fixture[:keep] + "…" if keep < len(fixture) else fixture
        return Text.assemble((f"{cut}{sep}{place}", "bold"), marks)

    def _tick(self) -> None:
        state = self.state
        if state is None:
            return
        text = Text(state.progress, style="bold")
        session = self.session
        if session is not None and state.current is not None and self._lock.acquire(blocking=False):
            try:
                seconds = session.elapsed()
            finally:
                self._lock.release()
            spelt = " on this item" if self.size.width >= 100 else ""
            text.append(f" · {clock_text(seconds)}{spelt}", style="dim")
        if text != self._progress_shown:
            # a clock that ticks each second must not lay the screen out again each second:
            # only a change of width (9:59 -> 10:00) moves anything
            same_width = self._progress_shown is not None and (
                text.cell_len == self._progress_shown.cell_len
            )
            self._progress_shown = text
            self.query_one("#rate-progress", Static).update(text, layout=not same_width)
        if text.cell_len != self._progress_width:
            # the clock grew a digit, or the header is new: fit the header to what is left
            # (the top bar's padding, 1 each side, and the header's own 2 on the right)
            self._progress_width = text.cell_len
            width = self.size.width or self.app.size.width
            where = self._header(width - 4 - text.cell_len)
            self.query_one("#rate-where", Static).update(where)

    def _show_rubric(self, *, step_shown: bool = False) -> None:
        """`step_shown`: drawn from a step's result, whose end (`busy` over) follows at once."""
        state = self.state
        notes = state.content.task.scoring_notes if state and state.content else {}
        in_force = state.in_force if state else None
        busy = self.busy and not step_shown
        self.query_one(RubricPanel).show(
            self.draft, notes, in_force, busy=busy, room=self._rubric_room()
        )

    def _rubric_room(self) -> int:
        """Rows the rubric may take: below the pair, the share of the body the stylesheet
        gives it (less its border); beside it, the body's whole height. Counted from the
        screen, not from the body's last layout, which lags a line shown or hidden."""
        body = (self.size.height or self.app.size.height) - 2  # the header, the footer
        if self.status:
            body -= 1
        if self.query_one("#rate-note").display:
            body -= 3
        if self.has_class("-wide"):
            return body
        return int(body * RUBRIC_SHARE) - 1

    def on_resize(self) -> None:
        if self.state is not None and self.session is not None:
            self._show_rubric()
            self._show_header()

    def _say(self, said: str, style: str = "") -> None:
        """One line, cut with an ellipsis (a long one would take the run's rows); the whole
        text is the line's tooltip, and a failure is also a notification, never cut."""
        self.status = said
        widget = self.query_one("#rate-status", Static)
        shown = printable(" ".join(said.split()), lines=False)
        widget.update(Text(shown, style=style, no_wrap=True, overflow="ellipsis", end=""))
        widget.tooltip = said or None
        widget.display = bool(said)
        if "red" in style:
            self.notify(shown, severity="error", timeout=10)

    # --- the clock ----------------------------------------------------------------------------

    def _pause(self) -> None:
        if self.session is not None:
            with self._lock:
                self.session.pause()

    def _resume(self) -> None:
        if self.session is not None:
            with self._lock:
                self.session.resume()

    def on_screen_suspend(self, event: ScreenSuspend) -> None:
        self._pause()

    def on_screen_resume(self, event: ScreenResume) -> None:
        self._resume()

    def _app_suspended(self, _app: object) -> None:
        self._pause()

    def _app_resumed(self, _app: object) -> None:
        if self.app.screen is self:
            self._resume()

    def action_suspend(self) -> None:
        self.app.action_suspend_process()

    # --- keys -----------------------------------------------------------------------------------

    def _ready(self) -> bool:
        """Whether keys may act: a pair on screen, no step in flight, no note being typed
        (keys the note's input does not take itself, `tab` or `ctrl+r`, stay with it)."""
        if isinstance(self.focused, Input):
            return False
        if self.busy:
            self.app.bell()
            return False
        return self.session is not None and self.state is not None

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """Only the digits the rubric's scales take are keys (so the help lists only those)."""
        if action == "score":
            return bool(parameters) and parameters[0] in score_keys(self.draft.dimensions)
        return True

    def action_score(self, key: str) -> None:
        if not self._ready():
            return
        if self.state is None or self.state.current is None:
            self._say("Every run is rated: there is nothing on screen to score.", "yellow")
            return
        self._handle(self.draft.digit(key))

    def action_confirm(self) -> None:
        if not self._ready():
            return
        result = self.draft.confirm_pending()
        if result is not None:
            self._handle(result)
        elif self.draft.complete:
            self._submit()  # a save that failed: try again

    def _handle(self, result: KeyResult) -> None:
        if result.outcome == REFUSED:
            self.app.bell()
            self._say(result.message, "yellow")
        elif result.outcome == COMPLETE:
            self._submit()
            return
        elif result.outcome != PENDING and self.status:
            self._say("")
        self._show_rubric()

    def action_previous_dimension(self) -> None:
        if self._ready():
            self.draft.back()
            self._show_rubric()

    def action_next_dimension(self) -> None:
        if self._ready():
            self.draft.forward()
            self._show_rubric()

    def action_note(self) -> None:
        if not self._ready() or self.state is None or self.state.current is None:
            return
        box = self.query_one("#rate-note", Input)
        box.value = self.draft.note
        box.display = True
        box.focus()

    @on(Input.Submitted, "#rate-note")
    def _note_given(self, event: Input.Submitted) -> None:
        event.stop()
        self.draft.note = " ".join(event.value.split())
        self._close_note()

    def _close_note(self) -> None:
        self.query_one("#rate-note").display = False
        self.query_one("#rate-run", PaneScroll).focus()
        self._show_rubric()

    def action_back(self) -> None:
        if isinstance(self.focused, Input):
            self._close_note()  # escape in the note drops what was typed
            return
        # Back to the browser, or in a rater-only session a question first (navigation.py).
        self.app.navigation.leave_session(self, unsaved=bool(self.draft.scores))

    def on_unmount(self) -> None:
        """The screen is gone (escape, the app's end): the session ends and its rater's lock
        is let go, so the next session of this rater, here or elsewhere, may start."""
        self.end_session()

    def end_session(self) -> None:
        """End the session (its rater's lock goes); the screen is being closed."""
        session, self.session = self.session, None
        if session is not None:
            # Under the lock: a step still in flight finishes its append before the rater's
            # lock goes, so a session started next never writes beside it.
            with self._lock:
                session.close()

    def action_other_pane(self) -> None:
        task = self.query_one("#rate-task", PaneScroll)
        run = self.query_one("#rate-run", PaneScroll)
        (task if self.focused is run else run).focus()

    def action_maximise_pane(self) -> None:
        if self.maximized is not None:
            self.minimize()
        elif self.query_one("#rate-body").display:
            focused = self.focused
            pane = focused if isinstance(focused, PaneScroll) else self.query_one("#rate-run")
            self.maximize(pane, container=False)

    # --- steps that write ----------------------------------------------------------------------

    def _submit(self) -> None:
        state = self.state
        if state is None or state.current is None:
            return
        self.step("submit", dict(self.draft.scores), self.draft.note)

    def action_undo(self) -> None:
        if not self._ready() or self.state is None:
            return
        if not self.state.can_undo:
            self._say(
                "Nothing of this session to undo (a rating from an earlier session changes by "
                "rating that run again).",
                "yellow",
            )
            return
        if self.draft.scores:
            self._say("The scores on screen were dropped (nothing of them was saved).")
        self.step("undo")

    def action_redo(self) -> None:
        if not self._ready() or self.state is None:
            return
        if not self.state.can_redo:
            self._say("Nothing to redo.", "yellow")
            return
        self.step("redo")

    def action_skip(self) -> None:
        if not self._ready() or self.state is None or self.state.current is None:
            return
        self.step("skip")

    def step(self, action: str, scores: dict[str, int] | None = None, note: str = "") -> None:
        """Take a step on the session in a worker; the screen is `busy` until its result is
        shown (the next pair drawn), and keys meanwhile are refused (`_ready`)."""
        session, lock = self.session, self._lock
        if session is None:  # the session ended: nothing to write to
            return

        def job() -> Stepped | StepFailed:
            with lock:
                before = session.current
                label = session.label(before) if before is not None else ""
                try:
                    said = _do(session, action, scores or {}, note, label)
                except (OSError, SessionError, ValueError) as exc:
                    return StepFailed(action, str(exc))
                return Stepped(_state_of(session), said)

        if self.run_in_thread(job, self._step_done, exclusive=True) is None:
            self.app.bell()  # (a step under way: `_ready` refuses before this)
            return
        self._show_rubric()  # drawn busy

    async def _step_done(self, result: Stepped | StepFailed) -> None:
        if self.session is None:  # the session ended (the screen closed) while the step ran
            return
        if isinstance(result, StepFailed):
            self._step_failed(result)
            return
        said = result.said
        before = self.state
        if before is not None and not _assigned_done(before) and _assigned_done(result.state):
            said = f"{said}. {ASSIGNED_DONE}"
        # Every step starts the scores afresh, an undo that reopens the pair on screen too.
        # (Still busy while the pair is drawn: a key now would act on the pair going away.)
        await self._show_state(result.state)
        self._say(said)
        self._show_rubric(step_shown=True)
        self.call_after_refresh(self._catch_up)  # once `busy` is over

    def _step_failed(self, message: StepFailed) -> None:
        what, again = _FAILED.get(message.action, ("Not done", ""))
        # The key as the keymap names it (`enter`, `ctrl+r`): words read better in a sentence
        # than the footer's signs.
        keys = keys_after(self.app.user_keymap, again) if again else []
        retry = f" — {keys[0]} tries again" if keys else ""
        self._say(f"{what}: {message.error}{retry}", "bold red")
        self._show_rubric(step_shown=True)


def _do(session: RaterSession, action: str, scores: dict[str, int], note: str, label: str) -> str:
    """Run one step on the session (in a worker, under the lock); what to tell the rater."""
    if action == "submit":
        stored = session.submit(scores, note)
        return f"Saved {label} (line {stored.line} of {stored.path})"
    if action == "undo":
        restored = session.undo()
        current = session.current
        name = session.label(current) if current is not None else "the run"
        if restored is None:
            return "Nothing to undo."
        if restored.scores is None:
            return f"Undone: {name} is unrated again; rate it, or ctrl+r to redo"
        return f"Undone: your earlier rating of {name} is in force again; ctrl+r to redo"
    if action == "redo":
        redone = session.redo()
        if redone is None:
            return "Nothing to redo."
        return f"Redone: line {redone.line} of {redone.path}"
    if action == "skip":
        session.skip()
        return f"Skipped {label}: it comes back after the others"
    raise ValueError(f"unknown step {action!r}")


ASSIGNED_DONE = (
    "Your assigned runs are all rated: the runs that follow are not assigned to you (rate on "
    "if you like, or end the session)"
)


def _assigned_done(state: SessionState) -> bool:
    """Whether a team member's assigned work is all rated (never said without a team)."""
    tally = state.tally
    return tally.team and tally.in_team and tally.assigned_done


def _state_of(session: RaterSession) -> SessionState:
    run = session.current
    progress = session.progress()
    return SessionState(
        current=run,
        label=session.label(run) if run is not None else "",
        content=session.content(run) if run is not None else None,
        progress=str(progress),
        total=progress.total,
        can_undo=session.can_undo,
        can_redo=session.can_redo,
        in_force=session.rating_of(run) if run is not None else None,
        ratings_file=ratings_file_rel(session.ws, session.rater),
        tally=progress,
        assigned=session.is_assigned(run) if run is not None else True,
    )
