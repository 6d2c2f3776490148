"""The one way a holdout is retired, whoever asks: the browser, `voyage-tui exposure --retire`
and triage all come here, so every retire is in triage's undo journal (`.voyage/triage.json`,
state.py) and `u` on the triage screen takes any of them back.

The file itself is changed by the git retire (git/retire.py: only the `visibility:` value, the
write atomic and refused when the file changed meanwhile); this module adds the record:

- **No retire without its record.** The journal is checked before any file is written: a
  journal that cannot even be read (a symlink, a folder, an unreadable file at its name) refuses
  the retire, nothing written. When recording fails after the write (the disk is full, the
  folder is read-only), each file is put back as it was and the retire is refused; only if
  putting it back fails too is the file left public, and the message says undo is unavailable.
- **The commit comes after the record** (only when asked: it runs the repository's hooks), and
  its id is noted in the journal.
- **Undo** writes the bytes from before the retire back, byte for byte, only if the file still
  holds exactly what the retire wrote, and only bytes whose retire gives that file (the journal
  is workspace content, so it could be planted). A commit made of the retire stays in history:
  the undo changes the work tree only, and says so (docs/decisions.md).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace

from voyage_tui.engine.diagnostics import Diagnostic
from voyage_tui.engine.git.exposure import Signal
from voyage_tui.engine.git.retire import (
    RetireError,
    RetireResult,
    commit_retired,
    retire_holdout,
    retired_bytes,
    rewrite,
)
from voyage_tui.engine.loading.safe_read import read_bytes_inside
from voyage_tui.engine.triage.keys import exposed_key
from voyage_tui.engine.triage.state import (
    RETIRE,
    Action,
    RetiredFile,
    StateError,
    StateStore,
    TriageState,
    mark_committed,
    sha256,
    utc_now,
)
from voyage_tui.engine.workspace.model import Workspace


class UndoRefused(Exception):
    """The last action cannot be taken back; nothing was changed. The message says why."""


@dataclass(frozen=True, slots=True)
class Target:
    """A holdout to retire: its task.yaml (workspace-relative), and what is known of it."""

    path: str
    fixture_id: str | None = None
    """Its id, for the commit message; else its folder's name."""
    key: str | None = None
    """Its triage key (the undo puts the cursor back on it); else the key triage would give it."""
    signals: tuple[Signal, ...] = ()
    """Its exposure signals, for the commit message."""

    def triage_key(self) -> str:
        if self.key is not None:
            return self.key
        return exposed_key(self.path, (s.kind for s in self.signals if s.kind != "not-tracked"))


@dataclass(frozen=True, slots=True)
class RetireOutcome:
    action: Action | None
    """The journal entry (None: nothing was retired)."""
    results: tuple[RetireResult, ...] = ()
    """One per retired file, with its commit (or why the commit failed) when one was asked for."""
    problems: tuple[tuple[str, str], ...] = ()
    """(path, why) of each file not retired, or retired with a problem the message tells."""
    unrecorded: tuple[str, ...] = ()
    """Files left retired without a record (the journal failed and putting them back failed
    too): no undo for them; their `problems` say so."""


class Retirer:
    """Retires, commits and un-retires holdouts of one workspace, through its journal."""

    def __init__(self, ws: Workspace, store: StateStore | None = None) -> None:
        self.ws = ws
        self.store = store if store is not None else StateStore(ws)

    # --- retire ----------------------------------------------------------------------------------

    def retire(self, targets: Sequence[Target], *, commit: bool = False) -> RetireOutcome:
        """Retire each target and record them as one journal entry (one `u` takes them all
        back); with `commit`, then commit each file alone. Files the retire refuses are in
        `problems`; when the journal cannot be written, nothing is retired (every target is in
        `problems`, saying why)."""
        try:
            self.store.ensure_writable()
        except StateError as exc:
            why = f"{_NOT_RECORDED} ({exc}); nothing was retired"
            return RetireOutcome(None, (), tuple((t.path, why) for t in targets))
        done: list[tuple[Target, RetireResult]] = []
        problems: list[tuple[str, str]] = []
        for target in targets:
            try:
                result = retire_holdout(self.ws, target.path, fixture_id=target.fixture_id)
            except RetireError as exc:
                problems.append((target.path, str(exc)))
            else:
                done.append((target, result))
        if not done:
            return RetireOutcome(None, (), tuple(problems))
        action = Action(
            RETIRE,
            utc_now(),
            retired=tuple(
                RetiredFile(t.triage_key(), r.path, r.before, sha256(r.after), r.id)
                for t, r in done
            ),
        )

        def record(state: TriageState) -> None:
            state.record(action)

        try:
            self.store.update(record)
        except StateError as exc:
            unrecorded: list[str] = []
            for _, result in done:
                why = self._put_back(result, exc)
                problems.append((result.path, why or f"{_NOT_RECORDED} ({exc}); {_AS_IT_WAS}"))
                if why:
                    unrecorded.append(result.path)
            return RetireOutcome(None, (), tuple(problems), tuple(unrecorded))
        results = [r for _, r in done]
        if commit:
            results = [self._commit(action, t, r, problems) for t, r in done]
        return RetireOutcome(action, tuple(results), tuple(problems))

    def _put_back(self, result: RetireResult, error: StateError) -> str:
        """The journal could not record the retire: the file goes back as it was. Returns ""
        when it did, else why the file stays retired."""
        try:
            rewrite(
                self.ws,
                result.path,
                result.before,
                expect_sha256=sha256(result.after),
                during="while it was being put back",
            )
        except RetireError as exc:
            return (
                f"retired, but {_NOT_RECORDED} ({error}) and putting the file back failed "
                f"({exc}): undo is unavailable (set `visibility: holdout` by hand)"
            )
        return ""

    def _commit(
        self,
        action: Action,
        target: Target,
        result: RetireResult,
        problems: list[tuple[str, str]],
    ) -> RetireResult:
        made = commit_retired(self.ws, result.path, fixture_id=result.id, signals=target.signals)
        if made.commit is not None:
            try:
                self._note_commit(action.id, result.path, made.commit)
            except StateError as exc:
                # The commit is made and the undo still works; only `C` in triage does not
                # know the file is committed, and would try again (and find nothing to commit).
                problems.append((result.path, f"committed, but the journal does not say so: {exc}"))
        return replace(made, before=result.before, after=result.after)

    def commit_last(self) -> list[tuple[str, str | None, str | None]]:
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
            data = self._read(file.path)
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

    def unretire(self, action: Action) -> None:
        """Write back the bytes each file of `action` had before its retire. Every file is checked
        before any is written. Raises UndoRefused (nothing written, or, for a multi-file retire
        that stopped half way, the journal keeps only the files still retired)."""
        for file in action.retired:
            data = self._read(file.path)
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
                rewrite(
                    self.ws,
                    file.path,
                    file.before,
                    expect_sha256=file.after_sha256,
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

    def _read(self, rel: str) -> bytes | Diagnostic:
        ws = self.ws
        return read_bytes_inside(
            ws.abs(rel), rel, root_real=ws.root_real, max_bytes=ws.max_file_bytes
        )


_NOT_RECORDED = "the undo journal could not be written"
_AS_IT_WAS = "the file is as it was, nothing was retired"


def undone_note(action: Action) -> str:
    """What an undo of `action` did, for the person: a retire's commit stays in history."""
    note = f"Undid the {action.describe()}"
    commits = [r.commit[:12] for r in action.retired if r.commit]
    if commits:
        note += (
            f"; the file is a holdout again in the work tree, but the commit "
            f"{', '.join(commits)} stays in history (`git revert` takes it out)"
        )
    return note


def _retire_of(file: RetiredFile, data: bytes) -> bool:
    """Whether `data` is exactly what retiring the journal's copy of the file gives."""
    try:
        return retired_bytes(file.before, file.path) == data
    except RetireError:
        return False
