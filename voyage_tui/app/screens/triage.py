"""Triage: one queue of everything that needs a person, worst first, worked through by keys.

The queue comes from the engine (engine/triage), computed again whenever the suite changes, so
it updates live and never goes stale; the selection stays on the same item, or the next one when
that item left. Snoozes, retires and their undo go through the engine's actions (off the UI
thread), which record them in `.voyage/triage.json`, so `u` still works after a restart.
"""

from __future__ import annotations

import os
import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import date, timedelta
from typing import ClassVar

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import BindingType
from textual.widgets import Input, Static, Tab, Tabs

from voyage_tui.app.actions import bindings
from voyage_tui.app.screens.base import VoyageScreen
from voyage_tui.app.screens.editor import EditorScreen, run_external_editor
from voyage_tui.app.screens.modals import ChoiceScreen
from voyage_tui.app.screens.triage_modals import (
    SNOOZE_DAYS,
    DateScreen,
    ExposureScreen,
    SnoozeScreen,
)
from voyage_tui.app.textual_private import SettledTabs
from voyage_tui.app.widgets.key_footer import KeyFooter
from voyage_tui.app.widgets.safe_text import printable
from voyage_tui.app.widgets.triage_list import KIND_STYLE, TriageList
from voyage_tui.engine.triage.actions import Actions, NothingToUndo, Outcome, UndoRefused
from voyage_tui.engine.triage.keys import (
    DRIFT,
    ERROR,
    EXPOSED,
    KINDS,
    LOW_SCORE,
    UNRATED,
    WARNING,
    count_label,
)
from voyage_tui.engine.triage.queue import Queue, ScoreCache, TriageItem, build_queue
from voyage_tui.engine.triage.retirer import undone_note
from voyage_tui.engine.triage.state import RETIRE, UNTIL_CHANGE, StateError
from voyage_tui.engine.validation.view import SuiteView
from voyage_tui.engine.wording import plural

BULK_CONFIRM = 5
"""A bulk action over more items than this asks first; smaller ones rely on undo."""

TAB_TITLES = {
    ERROR: "Errors",
    EXPOSED: "Exposed",
    LOW_SCORE: "Low score",
    DRIFT: "Drift",
    WARNING: "Warnings",
    UNRATED: "Unrated",
}
ALL = "all"


def _tab_id(kind: str) -> str:
    return f"triage-tab-{kind}"


@dataclass(frozen=True, slots=True)
class Repeatable:
    """The last action, for `.`: a snooze (until change, for some days, until a date) or a
    retire."""

    kind: str
    until: str | date = UNTIL_CHANGE
    days: int = 0
    commit: bool = False
    """A retire's answer to the question: commit each file too."""

    def describe(self) -> str:
        if self.kind == RETIRE:
            return "retire"
        if self.days:
            return f"snooze for {plural(self.days, 'day')}"
        if isinstance(self.until, date):
            return f"snooze until {self.until.isoformat()}"
        return "snooze until the file changes"


def detail_text(item: TriageItem | None, snoozed: int) -> Text:
    if item is None:
        text = Text("Nothing to triage here.", style="bold green")
        if snoozed:
            text.append(f"  ({plural(snoozed, 'item')} snoozed: `voyage-tui triage --all`)")
        return text
    text = Text()
    text.append(f"{item.kind}", style=KIND_STYLE[item.kind])
    text.append(f"  {printable(item.location(), lines=False)}\n", style="bold")
    text.append(printable(item.detail))
    text.append(f"\nkey {printable(item.key, lines=False)}", style="dim")
    return text


class TriageScreen(VoyageScreen[None]):
    HELP = """
## Triage

Everything that needs a person, worst first: errors, exposed holdouts, low-scoring runs, README
drift, warnings, agent runs short of ratings. `j`/`k` or arrows move, `g`/`G` jump to the ends,
`0`-`6` (or the tabs) filter by kind, `/` by text. `enter` opens the item where it is fixed,
`e` in $EDITOR at its line. `s` snoozes (until the file changes, a day, a week, a date), `R`
retires an exposed holdout (asking first, as the browser does: `m` retires and commits, `o`
retires only), `C` commits the retired file. `space` marks, `v` marks a range,
`*` marks all shown; `s` and `R` act on the marked items. `u` undoes the last snooze or retire
(and keeps going back), `.` repeats the last action.
"""

    SCOPE = "triage"
    BINDINGS: ClassVar[list[BindingType]] = bindings("triage")

    def __init__(self) -> None:
        super().__init__()
        self.queue: Queue | None = None
        self.shown: list[TriageItem] = []
        self.marked: set[str] = set()
        self.kind: str = ALL
        self.needle: str = ""
        self.last: Repeatable | None = None
        self._seen: set[str] = set()
        """Every key in the queue since the screen opened: the M of `N of M left`."""
        self._anchor: str | None = None
        self._follow: list[str] | None = None
        """Keys to select after the next computation, first present wins (set by an action)."""
        self._cache = ScoreCache()
        self._lock = threading.Lock()
        self._actions: Actions | None = None

    # --- layout ----------------------------------------------------------------------------

    def compose(self) -> ComposeResult:
        yield Static("Triage: loading the workspace…", id="triage-header", markup=False)
        yield SettledTabs(
            Tab("All", id=_tab_id(ALL)),
            *[Tab(TAB_TITLES[k], id=_tab_id(k)) for k in KINDS],
            id="triage-tabs",
        )
        yield Input(placeholder="/ filter by text (title, path, key)", id="triage-filter")
        yield TriageList(id="triage-list")
        yield Static("", id="triage-status", markup=False)
        yield Static("", id="triage-detail", markup=False)
        yield KeyFooter()

    @property
    def listing(self) -> TriageList:
        return self.query_one("#triage-list", TriageList)

    @property
    def actions(self) -> Actions:
        if self._actions is None:
            self._actions = Actions(self.app.ws)
        return self._actions

    def on_mount(self) -> None:
        self.query_one("#triage-filter", Input).display = False
        self.query_one(Tabs).can_focus = False
        self.listing.focus()
        if self.app.view is not None:
            self.refresh_queue()

    # --- the queue (recomputed on every change of the suite) --------------------------------

    def suite_loaded(self, view: SuiteView) -> None:
        self.refresh_queue()

    def suite_changed(self, view: SuiteView, touched: set[str]) -> None:
        self.refresh_queue()

    def refresh_queue(self) -> None:
        """Recompute the queue; only the newest computation's queue is shown (tests wait for
        `working` to reach 0: everything asked for is on screen)."""
        self.run_in_thread(self._compute, self._show_queue, key="queue")

    def _compute(self) -> Queue | None:
        app = self.app
        view = app.view
        if view is None:
            return None
        exposure = app.exposure_report()
        with self._lock:
            loaded = self.actions.store.load()
            return build_queue(
                view,
                loaded.state,
                self.actions.today(),
                exposure=exposure,
                cache=self._cache,
                state_diagnostics=loaded.diagnostics,
            )

    def _show_queue(self, queue: Queue | None) -> None:
        if queue is None:
            return
        follow = self._follow if self._follow is not None else self._candidates()
        self._follow = None
        self.queue = queue
        present = {i.key for i in queue.items}
        self._seen |= present
        self.marked &= present
        if self._anchor not in present:
            self._anchor = None
        self._show_rows(follow)

    def _matches(self, item: TriageItem) -> bool:
        if self.kind != ALL and item.kind != self.kind:
            return False
        if not self.needle:
            return True
        needle = self.needle.lower()
        return any(
            needle in text.lower() for text in (item.title, item.path, item.key, item.detail)
        )

    def _show_rows(self, follow: Sequence[str] = ()) -> None:
        queue = self.queue
        if queue is None or self.gone:
            return
        self.shown = [i for i in queue.items if self._matches(i)]
        index = self._index_of(follow)
        self.listing.set_rows(self.shown, self.marked, index)
        self._update_header()
        self._update_tabs()
        self._update_detail()
        self._update_status()

    def _index_of(self, keys: Sequence[str]) -> int | None:
        positions = {item.key: n for n, item in enumerate(self.shown)}
        for key in keys:
            if key in positions:
                return positions[key]
        return None

    def _candidates(self, exclude: set[str] | frozenset[str] = frozenset()) -> list[str]:
        """Keys to keep the selection on after the queue changes: the current item, then those
        after it, then those before it, nearest first; `exclude` are the items just acted on."""
        here = self.listing.highlighted
        keys = [i.key for i in self.shown]
        if here is None or here >= len(keys):
            return [k for k in keys if k not in exclude]
        ordered = keys[here:] + keys[:here][::-1]
        return [k for k in ordered if k not in exclude]

    @property
    def current(self) -> TriageItem | None:
        here = self.listing.highlighted
        if here is None or here >= len(self.shown):
            return None
        return self.shown[here]

    # --- header, tabs, detail, status ---------------------------------------------------

    def _update_header(self) -> None:
        queue = self.queue
        if queue is None:
            return
        counts = queue.counts()
        text = Text()
        text.append("Triage ", style="bold")
        shown = [(k, n) for k, n in counts.items() if n]
        for index, (kind, n) in enumerate(shown):
            if index:
                text.append(" · ")
            text.append(count_label(kind, n), style=KIND_STYLE[kind])
        if not shown:
            text.append("nothing to triage", style="bold green")
        text.append(f"   {len(queue.items)} of {max(len(self._seen), len(queue.items))} left")
        if queue.snoozed:
            text.append(f" · {len(queue.snoozed)} snoozed", style="dim")
        self.query_one("#triage-header", Static).update(text)

    def _update_tabs(self) -> None:
        queue = self.queue
        if queue is None or self.gone:
            return
        counts = queue.counts()
        labels = {_tab_id(ALL): f"All {len(queue.items)}"}
        labels.update({_tab_id(k): f"{TAB_TITLES[k]} {counts[k]}" for k in KINDS})
        tabs = self.query_one(Tabs)
        found = {tab.id: tab for tab in tabs.query(Tab)}
        if len(found) < len(labels):
            # The tabs are not mounted yet (the queue can be ready first): after the next
            # refresh they are.
            self.call_after_refresh(self._update_tabs)
            return
        for tab_id, label in labels.items():
            found[tab_id].label = label
        if tabs.active != _tab_id(self.kind):
            tabs.active = _tab_id(self.kind)

    def _update_detail(self) -> None:
        snoozed = len(self.queue.snoozed) if self.queue is not None else 0
        self.query_one("#triage-detail", Static).update(detail_text(self.current, snoozed))

    def _update_status(self, note: str = "") -> None:
        parts = []
        if self.kind != ALL or self.needle:
            what = [TAB_TITLES[self.kind].lower()] if self.kind != ALL else []
            if self.needle:
                what.append(f"“{self.needle}”")
            parts.append(f"{len(self.shown)} shown ({', '.join(what)})")
        if self.marked:
            parts.append(f"{len(self.marked)} marked: s / R act on them")
        if self._anchor is not None:
            parts.append("range started: move, then v")
        if note:
            parts.append(note)
        status = self.query_one("#triage-status", Static)
        status.update(" · ".join(parts))
        status.display = bool(parts)

    @on(TriageList.Highlighted, "#triage-list")
    def _highlighted(self) -> None:
        if not self.gone:
            self._update_detail()

    @on(TriageList.Selected, "#triage-list")
    def _selected(self) -> None:
        self.action_open()

    # --- moving and filtering ---------------------------------------------------------------

    def _move(self, step: int) -> None:
        """One item down or up, stopping at the ends (the arrows of the list wrap around)."""
        if not self.shown:
            return
        here = self.listing.highlighted
        target = 0 if here is None else min(max(here + step, 0), len(self.shown) - 1)
        self.listing.highlighted = target

    def action_down(self) -> None:
        self._move(1)

    def action_up(self) -> None:
        self._move(-1)

    def action_first(self) -> None:
        self.listing.action_first()

    def action_last(self) -> None:
        self.listing.action_last()

    def action_kind(self, kind: str) -> None:
        self.kind = kind
        self._show_rows(self._candidates())
        self.listing.focus()

    def _step_kind(self, step: int) -> None:
        order = [ALL, *KINDS]
        self.action_kind(order[(order.index(self.kind) + step) % len(order)])

    def action_next_kind(self) -> None:
        self._step_kind(1)

    def action_previous_kind(self) -> None:
        self._step_kind(-1)

    @on(Tabs.TabActivated, "#triage-tabs")
    def _tab_activated(self, event: Tabs.TabActivated) -> None:
        kind = (event.tab.id or "").removeprefix("triage-tab-")
        if kind != self.kind and kind in (ALL, *KINDS):
            self.action_kind(kind)

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """`/` typed in the filter is a character of the filter, not the filter key again."""
        if action == "filter":
            return not self.query_one("#triage-filter", Input).has_focus
        return True

    def action_filter(self) -> None:
        box = self.query_one("#triage-filter", Input)
        box.display = True
        # At once, not with box.focus() (a later callback): the keys of a burst after `/` are
        # already queued, each for whatever has focus when its turn comes (browser.py).
        self.set_focus(box)

    @on(Input.Changed, "#triage-filter")
    def _filter_changed(self, event: Input.Changed) -> None:
        self.needle = event.value.strip()
        self._show_rows(self._candidates())

    @on(Input.Submitted, "#triage-filter")
    def _filter_submitted(self) -> None:
        box = self.query_one("#triage-filter", Input)
        box.display = bool(box.value)
        self.listing.focus()

    def action_back(self) -> None:
        box = self.query_one("#triage-filter", Input)
        if box.display:
            box.value = ""
            box.display = False
            self.listing.focus()
            return
        if self.marked or self._anchor is not None:
            self.marked.clear()
            self._anchor = None
            self._show_rows(self._candidates())
            return
        self.app.navigation.back(self)  # to the screen that opened this one

    # --- marks -----------------------------------------------------------------------------

    def action_mark(self) -> None:
        item = self.current
        if item is None:
            return
        self.marked ^= {item.key}
        here = self.listing.highlighted or 0
        self._refresh_row(here)
        self._move(1)
        self._update_status()

    def action_mark_range(self) -> None:
        item = self.current
        if item is None:
            return
        if self._anchor is None:
            self._anchor = item.key
            self._update_status()
            return
        start = self._index_of([self._anchor])
        end = self.listing.highlighted or 0
        self._anchor = None
        if start is None:
            start = end
        low, high = sorted((start, end))
        self.marked |= {i.key for i in self.shown[low : high + 1]}
        self._show_rows([item.key])

    def action_mark_all(self) -> None:
        keys = {i.key for i in self.shown}
        if keys and keys <= self.marked:
            self.marked -= keys
        else:
            self.marked |= keys
        self._show_rows(self._candidates())

    def _refresh_row(self, index: int) -> None:
        self.listing.refresh_row(index)

    def _targets(self) -> list[TriageItem]:
        """The marked items (in queue order), else the current one."""
        if self.marked and self.queue is not None:
            return [i for i in self.queue.items if i.key in self.marked]
        item = self.current
        return [item] if item is not None else []

    # --- opening ------------------------------------------------------------------------------

    def action_open(self) -> None:
        item = self.current
        if item is None:
            return
        if item.kind == LOW_SCORE and item.gold:
            from voyage_tui.app.screens.diff import DiffScreen

            self.app.push_screen(DiffScreen(item.gold, item.path))
        elif item.kind == UNRATED:
            self._open_rater(item)
        elif item.kind == EXPOSED:
            self.app.push_screen(
                ExposureScreen(item), lambda choice: self._exposure_chosen(item, choice)
            )
        elif not os.path.isfile(self.app.ws.abs(item.path)):
            # A suite-level problem (coverage) names the fixtures folder, not a file.
            self.notify(f"{item.location()} is not a file to edit: {item.title}", timeout=5)
        else:
            self.app.push_screen(EditorScreen(item.path, item.line, item.column))

    def _open_rater(self, item: TriageItem) -> None:
        if item.fixture_id is None or item.run_id is None:  # an unrated item always names both
            self.app.push_screen(EditorScreen(item.path))
            return
        self.app.open_rater_on(item.fixture_id, item.run_id)

    def _exposure_chosen(self, item: TriageItem, choice: str | None) -> None:
        if choice == "retire":
            self._start_retire([item])
        elif choice == "edit":
            self.app.push_screen(EditorScreen(item.path, item.line, item.column))

    def action_external_editor(self) -> None:
        item = self.current
        if item is None:
            return
        run_external_editor(self.app, self.app.ws.abs(item.path), item.line)
        self.app.revalidate_paths({item.path})
        self.refresh_queue()

    # --- actions ------------------------------------------------------------------------------

    def _confirm(self, count: int, question: str, then: Callable[[], None]) -> None:
        """Run `then` at once for a few items; over BULK_CONFIRM, ask first."""
        if count <= BULK_CONFIRM:
            then()
            return

        def answered(answer: str | None) -> None:
            if answer == "yes":
                then()

        self.app.push_screen(ChoiceScreen(question, ["yes"]), answered)

    def action_snooze(self) -> None:
        targets = self._targets()
        if not targets:
            return

        def chosen(choice: str | None) -> None:
            if choice == "change":
                self._start_snooze(targets, Repeatable("snooze"))
            elif choice in SNOOZE_DAYS:
                self._start_snooze(targets, Repeatable("snooze", days=SNOOZE_DAYS[choice]))
            elif choice == "date":

                def dated(day: date | None) -> None:
                    if day is not None:
                        self._start_snooze(targets, Repeatable("snooze", until=day))

                self.app.push_screen(DateScreen(self.actions.today()), dated)

        what = plural(len(targets), "item") if len(targets) > 1 else targets[0].title
        if len(what) > 70:
            what = what[:69] + "…"
        self.app.push_screen(SnoozeScreen(f"Snooze {what}"), chosen)

    def _start_snooze(self, targets: list[TriageItem], how: Repeatable) -> None:
        def go() -> None:
            self.last = how
            self._act(targets, how)

        self._confirm(
            len(targets), f"Snooze {plural(len(targets), 'item')} ({how.describe()})?", go
        )

    def action_retire(self) -> None:
        targets = [i for i in self._targets() if i.kind == EXPOSED]
        if not targets:
            self.notify("Only an exposed holdout can be retired", timeout=3)
            return
        self._start_retire(targets)

    def _start_retire(self, targets: list[TriageItem]) -> None:
        """Always asks first, the browser's question (app.ask_retire; once for a bulk retire):
        a retire makes a holdout public, and whether to commit is the answer's to say."""

        def go(commit: bool) -> None:
            self.last = Repeatable(RETIRE)  # `.` asks again, so the answer is not repeated
            self._act(targets, Repeatable(RETIRE, commit=commit))

        self.app.ask_retire([t.path for t in targets], go)

    def action_repeat(self) -> None:
        last = self.last
        if last is None:
            self.notify("Nothing to repeat yet", timeout=2)
            return
        targets = self._targets()
        if last.kind == RETIRE:
            targets = [i for i in targets if i.kind == EXPOSED]
            if not targets:
                self.notify("Only an exposed holdout can be retired", timeout=3)
                return
            self._start_retire(targets)
        elif targets:
            self._start_snooze(targets, last)

    def _act(self, targets: list[TriageItem], how: Repeatable) -> None:
        keys = {i.key for i in targets}
        self._follow = self._candidates(exclude=keys)
        self.marked -= keys
        expired = self.queue.expired if self.queue is not None else frozenset()
        self.run_in_thread(
            lambda: self._run_action(targets, how, expired),
            lambda done: self._acted(*done, how),
        )

    def _run_action(
        self, targets: list[TriageItem], how: Repeatable, expired: frozenset[str]
    ) -> tuple[Outcome | None, str]:
        try:
            if how.kind == RETIRE:
                return self.actions.retire(targets, commit=how.commit), ""
            until: str | date = how.until
            if how.days:
                until = self.actions.today() + timedelta(days=how.days)
            return self.actions.snooze(targets, until, expired), ""
        except (StateError, ValueError) as exc:
            return None, str(exc)

    def _acted(self, outcome: Outcome | None, error: str, how: Repeatable) -> None:
        if outcome is None:
            self._follow = None
            self.notify(f"Not done: {error}", severity="error", timeout=8, markup=False)
            return
        for path, why in outcome.problems:
            self.notify(f"{path}: {why}", severity="error", timeout=8, markup=False)
        if outcome.action is not None and how.kind == RETIRE:
            done = outcome.action.size
            if how.commit:
                # A failed commit is in `problems`, shown above; `C` tries again.
                note = f"Retired and committed {plural(done, 'holdout')} (u undoes)"
            else:
                note = f"Retired {plural(done, 'holdout')} (C commits, u undoes)"
            self.notify(note, timeout=3)
            # The files changed: their re-validation brings the new queue (and keeps the
            # selection where it was put above until then).
            self.app.revalidate_paths({r.path for r in outcome.action.retired})
            return
        if outcome.action is not None:
            done = outcome.action.size
            until = how.describe().removeprefix("snooze ")
            self.notify(f"Snoozed {plural(done, 'item')} {until}", timeout=3, markup=False)
        else:
            self._follow = None
        self.refresh_queue()

    def action_commit(self) -> None:
        self.run_in_thread(self._run_commit, self._committed)

    def _run_commit(self) -> list[tuple[str, str | None, str | None]]:
        try:
            return self.actions.commit_last_retire()
        except StateError as exc:
            return [("", None, str(exc))]

    def _committed(self, results: list[tuple[str, str | None, str | None]]) -> None:
        if not results:
            self.notify("No retired holdout is waiting for a commit", timeout=3)
        for path, commit, error in results:
            if commit:
                self.notify(f"Committed {path}: {commit[:12]}", timeout=4, markup=False)
            else:
                self.notify(
                    f"Not committed {path}: {error}", severity="error", timeout=8, markup=False
                )

    def action_undo(self) -> None:
        self.run_in_thread(self._run_undo, lambda done: self._undone(*done))

    def _run_undo(self) -> tuple[object, str]:
        try:
            return self.actions.undo(), ""
        except NothingToUndo:
            return None, "Nothing to undo"
        except (UndoRefused, StateError) as exc:
            return None, f"Not undone: {exc}"

    def _undone(self, action: object, problem: str) -> None:
        from voyage_tui.engine.triage.state import Action

        if not isinstance(action, Action):
            self.notify(
                problem,
                severity="warning" if "Nothing" in problem else "error",
                timeout=6,
                markup=False,
            )
            return
        keys = [c.key for c in action.snoozes] + [r.key for r in action.retired]
        self._follow = keys + self._candidates()
        committed = any(r.commit for r in action.retired)  # a longer note: the commit stays
        self.notify(undone_note(action), timeout=8 if committed else 3, markup=False)
        if action.retired:
            self.app.revalidate_paths({r.path for r in action.retired})
            return
        self.refresh_queue()
