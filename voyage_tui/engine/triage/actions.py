"""What a person does to queue items: snooze, unsnooze, retire an exposed holdout, commit the
retired file, and undo, each recorded in the journal of `.voyage/triage.json` (state.py).

A bulk action is one journal entry, so one undo takes it all back. Undoing a retire writes the
file's bytes from before the retire back, byte for byte, and only if the file still holds what
the retire wrote (otherwise someone edited it since, and the undo is refused, nothing written).
A commit made after a retire stays in history: the undo restores the file in the work tree.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from datetime import date

from voyage_tui.engine.atomic import ContentChanged, Expected, WriteRefused
from voyage_tui.engine.diagnostics import Diagnostic
from voyage_tui.engine.git.retire import RetireError, commit_retired, retired_bytes
from voyage_tui.engine.loading.safe_read import read_bytes_inside
from voyage_tui.engine.triage.keys import EXPOSED
from voyage_tui.engine.triage.queue import TriageItem, fingerprint
from voyage_tui.engine.triage.state import (
    RETIRE,
    SNOOZE,
    UNTIL_CHANGE,
    Action,
    RetiredFile,
    Snooze,
    StateError,
    StateStore,
    TriageState,
    mark_committed,
    restore,
    sha256,
    utc_now,
    with_snooze,
)
from voyage_tui.engine.workspace.model import Workspace
from voyage_tui.engine.workspace.writes import write_file


class NothingToUndo(Exception):
    pass


class UndoRefused(Exception):
    """The last action cannot be taken back; nothing was changed. The message says why."""


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

    def __post_init__(self) -> None:
        self.store = StateStore(self.ws)

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

    def retire(self, items: Sequence[TriageItem]) -> Outcome:
        """Make each exposed holdout public: the engine's retire (only the `visibility:` value
        changes, the write is atomic and refused if the file changed meanwhile), keeping the
        bytes before it for undo. Items that are not exposed holdouts, and files the retire
        refuses, are reported in `problems`; the rest are retired and recorded as one action."""
        retired: list[RetiredFile] = []
        problems: list[tuple[str, str]] = []
        for item in items:
            if item.kind != EXPOSED:
                problems.append((item.path, "not an exposed holdout"))
                continue
            try:
                retired.append(self._retire_one(item))
            except RetireError as exc:
                problems.append((item.path, str(exc)))
        if not retired:
            return Outcome(None, tuple(problems))
        action = Action(RETIRE, utc_now(), retired=tuple(retired))

        def change(state: TriageState) -> Action:
            state.record(action)
            return action

        try:
            self.store.update(change)
        except StateError as exc:
            # The files are retired; only `u` cannot take it back.
            why = f"retired, but the undo journal could not be written: {exc}"
            problems += [(r.path, why) for r in retired]
            return Outcome(None, tuple(problems))
        return Outcome(action, tuple(problems))

    def _retire_one(self, item: TriageItem) -> RetiredFile:
        ws, rel = self.ws, item.path
        data = read_bytes_inside(
            ws.abs(rel), rel, root_real=ws.root_real, max_bytes=ws.max_file_bytes
        )
        if isinstance(data, Diagnostic):
            raise RetireError(data.message)
        new = retired_bytes(data, rel)
        _write(ws, rel, new, data_sha=sha256(data), during="while it was being retired")
        fixture_id = item.fixture_id or rel.rsplit("/", 2)[-2]
        return RetiredFile(item.key, rel, data, sha256(new), fixture_id)

    def commit_last_retire(self) -> list[tuple[str, str | None, str | None]]:
        """Commit each file of the latest retire not committed yet, one commit per file (the
        retire's own commit). Returns (path, commit, error) per file; [] when there is none."""
        loaded = self.store.load()
        action = next(
            (
                a
                for a in reversed(loaded.state.journal)
                if a.kind == RETIRE and any(r.commit is None for r in a.retired)
            ),
            None,
        )
        if action is None:
            return []
        results: list[tuple[str, str | None, str | None]] = []
        for file in action.retired:
            if file.commit is not None:
                continue
            data = read_bytes_inside(
                self.ws.abs(file.path),
                file.path,
                root_real=self.ws.root_real,
                max_bytes=self.ws.max_file_bytes,
            )
            if isinstance(data, Diagnostic) or not _retire_of(file, data):
                # Undone meanwhile, edited since, or a journal entry no retire wrote.
                why = "it is not the file this retire wrote any more; commit it yourself"
                results.append((file.path, None, why))
                continue
            result = commit_retired(self.ws, file.path, fixture_id=file.fixture_id)
            results.append((file.path, result.commit, result.commit_error))
            if result.commit is not None:
                self._note_commit(action.id, file.path, result.commit)
        return results

    def _note_commit(self, action_id: str, path: str, commit: str) -> None:
        def change(state: TriageState) -> None:
            mark_committed(state, action_id, path, commit)

        self.store.update(change)

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
            self._unretire(action)

        def change(state: TriageState) -> None:
            if not state.journal or state.journal[-1].id != action.id:
                return  # taken back meanwhile by another session: nothing more to do
            for snooze_change in reversed(action.snoozes):
                restore(state, snooze_change)
            state.journal.pop()

        self.store.update(change)
        return action

    def _unretire(self, action: Action) -> None:
        ws = self.ws
        for file in action.retired:  # every file is checked before any is written
            data = read_bytes_inside(
                ws.abs(file.path), file.path, root_real=ws.root_real, max_bytes=ws.max_file_bytes
            )
            if isinstance(data, Diagnostic):
                raise UndoRefused(f"{file.path}: {data.message}; nothing was restored")
            if sha256(data) != file.after_sha256:
                raise UndoRefused(
                    f"{file.path} changed since it was retired, so restoring it would lose that "
                    "change; nothing was restored (set `visibility: holdout` by hand)"
                )
            # The journal is workspace content, which may come from anyone: restore only bytes
            # whose retire is exactly what the file now holds, so an undo can never write more
            # than the visibility back.
            if not _retire_of(file, data):
                raise UndoRefused(
                    f"{file.path}: the journal's copy of it is not the file before this retire; "
                    "nothing was restored (set `visibility: holdout` by hand)"
                )
        restored: list[RetiredFile] = []
        for file in action.retired:
            try:
                _write(
                    ws,
                    file.path,
                    file.before,
                    data_sha=file.after_sha256,
                    during="while the undo was restoring it",
                )
            except RetireError as exc:
                if restored:
                    self._forget_restored(action, restored)
                raise UndoRefused(f"{file.path}: {exc}") from exc
            restored.append(file)

    def _forget_restored(self, action: Action, restored: list[RetiredFile]) -> None:
        """A multi-file undo that stopped half way: the journal keeps only the files still
        retired, so the next undo finishes the job."""
        done = {r.path for r in restored}

        def change(state: TriageState) -> None:
            for index, entry in enumerate(state.journal):
                if entry.id == action.id:
                    left = tuple(r for r in entry.retired if r.path not in done)
                    state.journal[index] = replace(entry, retired=left)

        self.store.update(change)


def _retire_of(file: RetiredFile, data: bytes) -> bool:
    """Whether `data` is exactly what retiring the journal's copy of the file gives."""
    try:
        return retired_bytes(file.before, file.path) == data
    except RetireError:
        return False


def _write(ws: Workspace, rel: str, data: bytes, *, data_sha: str, during: str) -> None:
    """Write `data` over the file at `rel` only if it still has the digest `data_sha`."""
    try:
        write_file(
            ws,
            rel,
            data,
            expect=Expected(data_sha, ws.max_file_bytes),
            shown=rel,
        )
    except WriteRefused as exc:
        raise RetireError(exc.message) from exc
    except ContentChanged as exc:
        raise RetireError(f"the file changed on disk {during}; nothing was written, retry") from exc
    except OSError as exc:
        raise RetireError(
            f"it cannot be written ({exc.strerror or exc}); make its folder writable and retry"
        ) from exc
