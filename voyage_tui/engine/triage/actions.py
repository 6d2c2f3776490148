"""What a person does to queue items: snooze, unsnooze, retire an exposed holdout, commit the
retired file, and undo, each recorded in the journal of `.voyage/triage.json` (state.py).

A bulk action is one journal entry, so one undo takes it all back. Retires (and their commit and
undo) go through the Retirer (retirer.py), as the browser's and `exposure --retire`'s do, so the
undo here takes back a retire made anywhere.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import date

from voyage_tui.engine.triage.keys import EXPOSED
from voyage_tui.engine.triage.queue import TriageItem, fingerprint
from voyage_tui.engine.triage.retirer import Retirer, Target, UndoRefused
from voyage_tui.engine.triage.state import (
    SNOOZE,
    UNTIL_CHANGE,
    Action,
    Snooze,
    StateStore,
    TriageState,
    restore,
    utc_now,
    with_snooze,
)
from voyage_tui.engine.workspace.model import Workspace

__all__ = ["Actions", "NothingToUndo", "Outcome", "UndoRefused"]


class NothingToUndo(Exception):
    pass


@dataclass(frozen=True, slots=True)
class Outcome:
    action: Action | None
    """What was recorded (None: nothing was done)."""
    problems: tuple[tuple[str, str], ...] = ()
    """(path, why) of each item the action could not be applied to."""

    @property
    def done(self) -> int:
        return self.action.size if self.action is not None else 0


@dataclass(slots=True)
class Actions:
    """The actions on one workspace; `today` is the clock (injected by tests)."""

    ws: Workspace
    today: Callable[[], date] = date.today
    store: StateStore = field(init=False)
    retirer: Retirer = field(init=False)

    def __post_init__(self) -> None:
        self.store = StateStore(self.ws)
        self.retirer = Retirer(self.ws, self.store)

    # --- snooze ----------------------------------------------------------------------------------

    def snooze(
        self,
        items: Sequence[TriageItem],
        until: str | date = UNTIL_CHANGE,
        expired: frozenset[str] = frozenset(),
    ) -> Outcome:
        """Snooze each item until its file changes (`until` = "change") or until a date (the
        day it comes back, after today). Raises ValueError for a date not after today,
        StateError when the state cannot be written."""
        today = self.today()
        if isinstance(until, date):
            if until <= today:
                raise ValueError(f"{until.isoformat()} is not after today ({today.isoformat()})")
            until_text = until.isoformat()
        elif until == UNTIL_CHANGE:
            until_text = UNTIL_CHANGE
        else:
            raise ValueError(f"snooze until {until!r}: `change` or a date")
        at = utc_now()
        made = {
            item.key: Snooze(
                until_text,
                fingerprint(self.ws, item.files) if until_text == UNTIL_CHANGE else None,
                item.files if until_text == UNTIL_CHANGE else (),
                at,
            )
            for item in items
        }

        def change(state: TriageState) -> Action:
            state.forget_expired(expired, today)
            changes = tuple(with_snooze(state, key, snooze) for key, snooze in made.items())
            action = Action(SNOOZE, at, snoozes=changes)
            state.record(action)
            return action

        if not made:
            return Outcome(None)
        return Outcome(self.store.update(change))

    def unsnooze(self, keys: Sequence[str]) -> Outcome:
        """Wake the snoozed items `keys` (an undoable action). Raises KeyError naming the first
        key that is not snoozed (nothing changed), StateError."""

        def change(state: TriageState) -> Action:
            missing = [k for k in keys if k not in state.snoozes]
            if missing:
                raise KeyError(missing[0])
            changes = tuple(with_snooze(state, key, None) for key in keys)
            action = Action(SNOOZE, utc_now(), snoozes=changes)
            state.record(action)
            return action

        return Outcome(self.store.update(change))

    # --- retire ----------------------------------------------------------------------------------

    def retire(self, items: Sequence[TriageItem], *, commit: bool = False) -> Outcome:
        """Make each exposed holdout public through the Retirer (retirer.py: only the
        `visibility:` value changes, recorded in the journal for undo); with `commit`, then
        commit each file alone (as `C` would later). Items that are not
        exposed holdouts, and files the retire refuses, are reported in `problems`; the rest are
        retired and recorded as one action. Nothing is retired when the journal cannot be
        written (every item is in `problems`, saying why)."""
        problems = [(i.path, "not an exposed holdout") for i in items if i.kind != EXPOSED]
        targets = [
            # With its signals, so a commit's message names them as the browser's retire does.
            Target(i.path, fixture_id=i.fixture_id, key=i.key, signals=i.signals)
            for i in items
            if i.kind == EXPOSED
        ]
        if not targets:
            return Outcome(None, tuple(problems))
        done = self.retirer.retire(targets, commit=commit)
        return Outcome(done.action, tuple(problems) + done.problems)

    def commit_last_retire(self) -> list[tuple[str, str | None, str | None]]:
        """Commit each file of the latest retire not committed yet, one commit per file (the
        retire's own commit). Returns (path, commit, error) per file; [] when there is none."""
        return self.retirer.commit_last()

    # --- undo ------------------------------------------------------------------------------------

    def last_action(self) -> Action | None:
        journal = self.store.load().state.journal
        return journal[-1] if journal else None

    def undo(self) -> Action:
        """Take back the latest action in the journal. Raises NothingToUndo, UndoRefused (a
        retired file changed since: nothing is written), StateError."""
        action = self.last_action()
        if action is None:
            raise NothingToUndo()
        if action.retired:
            self.retirer.unretire(action)

        def change(state: TriageState) -> None:
            if not state.journal or state.journal[-1].id != action.id:
                return  # taken back meanwhile by another session: nothing more to do
            for snooze_change in reversed(action.snoozes):
                restore(state, snooze_change)
            state.journal.pop()

        self.store.update(change)
        return action
