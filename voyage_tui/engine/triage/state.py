"""What triage keeps between sessions: the snoozes and the undo journal, in `.voyage/triage.json`.

The queue itself is never stored (it is computed from the engine's results, so it cannot go
stale); only a person's decisions are: which items are snoozed, and until when, and the actions
that `u` can take back. The file is personal state (git-ignore `.voyage/`), read as any
workspace file is (a bounded regular file, never through a symlink) and written atomically
inside the workspace, with a check that nobody wrote it meanwhile (the command line and the app
may both act on it): a write that finds the file changed reads it again and redoes its change.

A file that cannot be used (not JSON, not this shape, from a newer version of voyage-tui) is a
diagnostic, never a crash: the queue shows without its snoozes, and the first action after that
copies the file aside (`.voyage/triage-backup-<time>.json`) before writing a fresh one. A file
that cannot even be read (a symlink, a folder, too large) is never replaced: actions are refused
until it is moved away.
"""

from __future__ import annotations

import base64
import hashlib
import json
import os
import secrets
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from datetime import UTC, date, datetime
from typing import Any, TypeVar

from voyage_tui.engine import diagnostics as dg
from voyage_tui.engine.atomic import ContentChanged, Expected
from voyage_tui.engine.diagnostics import Diagnostic
from voyage_tui.engine.wording import plural
from voyage_tui.engine.workspace import state_files
from voyage_tui.engine.workspace.model import Workspace
from voyage_tui.engine.workspace.state_files import STATE_FOLDER
from voyage_tui.engine.workspace.writes import write_file

STATE_REL = f"{STATE_FOLDER}/triage.json"
STATE_VERSION = 1
MAX_STATE_BYTES = 64 << 20
"""The journal holds the bytes of retired files (each at most max_file_bytes): generous, but a
bound, as for every file read."""
JOURNAL_LIMIT = 100
"""Actions `u` can take back (a bulk action counts once); the oldest go first."""
WRITE_ATTEMPTS = 5

UNTIL_CHANGE = "change"
SNOOZE = "snooze"
RETIRE = "retire"

STATE_CORRUPT = "triage-state-corrupt"
STATE_NEWER = "triage-state-newer"


T = TypeVar("T")


class StateError(Exception):
    """The state file cannot be written (or an action cannot be recorded); nothing was changed.
    The message says why and what to do."""


def utc_now() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds").replace("+00:00", "Z")


def sha256(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


# --- the records ---------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Snooze:
    until: str
    """`change` (until one of `files` changes), or an ISO date: the day the item comes back."""
    fingerprint: str | None = None
    """For `change`: the digest of the item's files when it was snoozed."""
    files: tuple[str, ...] = ()
    """Which files those were, for a person reading the state; the check itself digests the
    item's own files, never paths taken from this file."""
    at: str = ""
    """When it was snoozed (ISO 8601, UTC)."""

    @property
    def until_change(self) -> bool:
        return self.until == UNTIL_CHANGE

    def until_date(self) -> date | None:
        if self.until_change:
            return None
        try:
            return date.fromisoformat(self.until)
        except ValueError:
            return None

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"until": self.until, "at": self.at}
        if self.until_change:
            out["fingerprint"] = self.fingerprint
            out["files"] = list(self.files)
        return out

    @classmethod
    def from_json(cls, raw: Any) -> Snooze:
        if not isinstance(raw, dict):
            raise ValueError("a snooze is not an object")
        until = raw.get("until")
        if not isinstance(until, str):
            raise ValueError("a snooze has no `until`")
        if until != UNTIL_CHANGE:
            date.fromisoformat(until)  # raises ValueError
        fingerprint = raw.get("fingerprint")
        files = raw.get("files", [])
        at = raw.get("at", "")
        if fingerprint is not None and not isinstance(fingerprint, str):
            raise ValueError("a snooze's `fingerprint` is not text")
        if not isinstance(files, list) or not all(isinstance(f, str) for f in files):
            raise ValueError("a snooze's `files` is not a list of paths")
        return cls(until, fingerprint, tuple(files), at if isinstance(at, str) else "")


@dataclass(frozen=True, slots=True)
class SnoozeChange:
    key: str
    before: Snooze | None
    after: Snooze | None

    def to_json(self) -> dict[str, Any]:
        return {
            "key": self.key,
            "before": self.before.to_json() if self.before else None,
            "after": self.after.to_json() if self.after else None,
        }

    @classmethod
    def from_json(cls, raw: Any) -> SnoozeChange:
        if not isinstance(raw, dict) or not isinstance(raw.get("key"), str):
            raise ValueError("a snooze change has no key")
        before, after = raw.get("before"), raw.get("after")
        return cls(
            raw["key"],
            Snooze.from_json(before) if before is not None else None,
            Snooze.from_json(after) if after is not None else None,
        )


@dataclass(frozen=True, slots=True)
class RetiredFile:
    key: str
    path: str
    before: bytes
    """The file as it was: an undo writes these bytes back."""
    after_sha256: str
    """The digest of what the retire wrote: an undo refuses when the file is no longer that."""
    fixture_id: str = ""
    commit: str | None = None
    """The commit of the retired file, once made (an undo leaves history alone)."""

    def to_json(self) -> dict[str, Any]:
        return {
            "key": self.key,
            "path": self.path,
            "fixture_id": self.fixture_id,
            "before": base64.b64encode(self.before).decode("ascii"),
            "after_sha256": self.after_sha256,
            "commit": self.commit,
        }

    @classmethod
    def from_json(cls, raw: Any) -> RetiredFile:
        if not isinstance(raw, dict):
            raise ValueError("a retired file is not an object")
        key, path, before = raw.get("key"), raw.get("path"), raw.get("before")
        after, fixture_id, commit = (
            raw.get("after_sha256"),
            raw.get("fixture_id", ""),
            raw.get("commit"),
        )
        if not all(isinstance(v, str) for v in (key, path, before, after, fixture_id)):
            raise ValueError("a retired file lacks its key, path, bytes or digest")
        if commit is not None and not isinstance(commit, str):
            raise ValueError("a retired file's commit is not text")
        assert isinstance(key, str) and isinstance(path, str) and isinstance(before, str)
        assert isinstance(after, str) and isinstance(fixture_id, str)
        return cls(key, path, base64.b64decode(before, validate=True), after, fixture_id, commit)


@dataclass(frozen=True, slots=True)
class Action:
    """One entry of the undo journal: a snooze (or unsnooze) of one or more items, or a retire
    of one or more holdouts. A bulk action is one entry, so one `u` takes it all back."""

    kind: str
    at: str
    snoozes: tuple[SnoozeChange, ...] = ()
    retired: tuple[RetiredFile, ...] = ()
    id: str = field(default_factory=lambda: secrets.token_hex(8))

    @property
    def size(self) -> int:
        return len(self.snoozes) + len(self.retired)

    def describe(self) -> str:
        n = self.size
        if self.kind == RETIRE:
            return f"retire of {plural(n, 'holdout')}"
        if self.snoozes and all(c.after is None for c in self.snoozes):
            return f"unsnooze of {plural(n, 'item')}"
        return f"snooze of {plural(n, 'item')}"

    def to_json(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "kind": self.kind,
            "at": self.at,
            "snoozes": [c.to_json() for c in self.snoozes],
            "retired": [r.to_json() for r in self.retired],
        }

    @classmethod
    def from_json(cls, raw: Any) -> Action:
        if not isinstance(raw, dict) or raw.get("kind") not in (SNOOZE, RETIRE):
            raise ValueError("a journal entry is neither a snooze nor a retire")
        snoozes, retired = raw.get("snoozes", []), raw.get("retired", [])
        if not isinstance(snoozes, list) or not isinstance(retired, list):
            raise ValueError("a journal entry's lists are not lists")
        at, ident = raw.get("at", ""), raw.get("id")
        return cls(
            raw["kind"],
            at if isinstance(at, str) else "",
            tuple(SnoozeChange.from_json(c) for c in snoozes),
            tuple(RetiredFile.from_json(r) for r in retired),
            ident if isinstance(ident, str) and ident else secrets.token_hex(8),
        )


@dataclass(slots=True)
class TriageState:
    snoozes: dict[str, Snooze] = field(default_factory=dict)
    journal: list[Action] = field(default_factory=list)

    def record(self, action: Action) -> None:
        self.journal.append(action)
        del self.journal[:-JOURNAL_LIMIT]

    def forget_expired(self, expired: set[str] | frozenset[str], today: date) -> None:
        """Drop the snoozes that have ended: those the queue found expired (their file changed;
        without this, a file changed and changed back would hide its item again) and those
        whose date has come."""
        for key in list(self.snoozes):
            ends = self.snoozes[key].until_date()
            if key in expired or (ends is not None and ends <= today):
                del self.snoozes[key]

    def to_json(self) -> dict[str, Any]:
        return {
            "version": STATE_VERSION,
            "snoozes": {key: s.to_json() for key, s in sorted(self.snoozes.items())},
            "journal": [a.to_json() for a in self.journal],
        }

    @classmethod
    def from_json(cls, raw: Any) -> TriageState:
        """Raises ValueError (KeyError, TypeError) for a document not of this shape."""
        if not isinstance(raw, dict):
            raise ValueError("the file is not a JSON object")
        snoozes, journal = raw.get("snoozes", {}), raw.get("journal", [])
        if not isinstance(snoozes, dict) or not isinstance(journal, list):
            raise ValueError("`snoozes` must be an object and `journal` a list")
        return cls(
            {str(k): Snooze.from_json(v) for k, v in snoozes.items()},
            [Action.from_json(a) for a in journal],
        )


# --- the file ------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Loaded:
    state: TriageState
    diagnostics: tuple[Diagnostic, ...] = ()
    digest: str | None = None
    """sha256 of the bytes read; None when there was no file."""
    raw: bytes | None = None
    """The bytes of a file that could be read but not used: copied aside before a write."""
    writable: bool = True
    """False when the file cannot even be read (a symlink, a folder, too large): never replaced."""


class StateStore:
    """The workspace's `.voyage/triage.json`."""

    def __init__(self, ws: Workspace) -> None:
        self.ws = ws

    # --- reading -------------------------------------------------------------------------------

    def load(self) -> Loaded:
        try:
            data = self._read()
        except state_files.StateUnreadable as exc:
            return Loaded(
                TriageState(),
                (self._problem(f"it cannot be read ({exc}); move it away to snooze again"),),
                writable=False,
            )
        if data is None:
            return Loaded(TriageState())
        digest = sha256(data)
        try:
            raw = json.loads(data.decode("utf-8"), parse_constant=_no_constant)
        except (UnicodeDecodeError, ValueError, RecursionError) as exc:
            why = f"it is not JSON ({_first_line(exc)})"
            return Loaded(TriageState(), (self._problem(why, set_aside=True),), digest, data)
        version = raw.get("version") if isinstance(raw, dict) else None
        if isinstance(version, int) and not isinstance(version, bool) and version > STATE_VERSION:
            message = (
                f"{STATE_REL} was written by a newer voyage-tui (version {version}; this one "
                f"reads {STATE_VERSION}), so its snoozes are not applied; the next snooze or "
                "retire copies it aside first (`.voyage/triage-backup-*.json`)"
            )
            problem = dg.warning(STATE_REL, None, STATE_NEWER, message)
            return Loaded(TriageState(), (problem,), digest, data)
        try:
            if version != STATE_VERSION:
                raise ValueError(f"`version` is {version!r}, not {STATE_VERSION}")
            state = TriageState.from_json(raw)
        except (ValueError, KeyError, TypeError) as exc:
            why = f"it is not a triage state ({_first_line(exc)})"
            return Loaded(TriageState(), (self._problem(why, set_aside=True),), digest, data)
        return Loaded(state, (), digest)

    def _problem(self, why: str, set_aside: bool = False) -> Diagnostic:
        then = (
            "; the next snooze or retire copies it aside first (`.voyage/triage-backup-*.json`)"
            if set_aside
            else ""
        )
        return dg.warning(
            STATE_REL,
            None,
            STATE_CORRUPT,
            f"the triage state cannot be used: {why}, so no snooze is applied{then}",
        )

    def _read(self) -> bytes | None:
        """The file's bytes; None when it (or `.voyage/`) is not there. Raises StateUnreadable."""
        folder = state_files.open_folder(self.ws.root_real, STATE_FOLDER)
        if folder is None:
            return None
        try:
            return state_files.read_file(folder, "triage.json", MAX_STATE_BYTES)
        finally:
            os.close(folder)

    # --- writing -------------------------------------------------------------------------------

    def ensure_writable(self) -> None:
        """Raise StateError when every update is bound to fail: the file (or `.voyage/`) cannot
        even be read (a symlink, a folder, too large), so it is never replaced. Checked before a
        retire writes anything, since a retire must be recorded to be undone."""
        loaded = self.load()
        if not loaded.writable:
            raise StateError(loaded.diagnostics[0].message if loaded.diagnostics else STATE_REL)

    def update(self, change: Callable[[TriageState], T]) -> T:
        """Read the state, apply `change` to it and write it back, atomically and only if the
        file still holds what was read (else read again and redo `change`, which must therefore
        only change the state). Returns what `change` returns. Raises StateError, or what
        `change` raises (then nothing is written)."""
        for _ in range(WRITE_ATTEMPTS):
            loaded = self.load()
            if not loaded.writable:
                message = loaded.diagnostics[0].message if loaded.diagnostics else STATE_REL
                raise StateError(message)
            state = loaded.state
            result = change(state)
            if loaded.raw is not None:
                self._set_aside(loaded.raw)
            data = (json.dumps(state.to_json(), indent=1, ensure_ascii=True) + "\n").encode("ascii")
            try:
                write_file(
                    self.ws,
                    STATE_REL,
                    data,
                    expect=Expected(loaded.digest, MAX_STATE_BYTES),
                    make_folders=True,
                    shown=STATE_REL,
                )
            except ContentChanged:
                continue
            except OSError as exc:
                raise StateError(f"{STATE_REL} cannot be written: {exc.strerror or exc}") from exc
            return result
        raise StateError(
            f"{STATE_REL} kept changing while this action was being recorded; try again"
        )

    def _set_aside(self, raw: bytes) -> str:
        """Copy an unusable state file to a new `.voyage/triage-backup-<time>.json`."""
        stamp = datetime.now(UTC).strftime("%Y%m%d-%H%M%S")
        for n in range(1, 100):
            rel = f"{STATE_FOLDER}/triage-backup-{stamp}{'' if n == 1 else f'-{n}'}.json"
            try:
                write_file(self.ws, rel, raw, expect=Expected(None), shown=rel)
            except ContentChanged:
                continue  # that name is taken: never overwrite an earlier backup
            except OSError as exc:
                raise StateError(
                    f"{STATE_REL} cannot be used and could not be copied aside "
                    f"({exc.strerror or exc}); nothing was written"
                ) from exc
            return rel
        raise StateError("too many triage backups made this second; try again")


def _first_line(exc: BaseException) -> str:
    text = str(exc).strip()
    return text.splitlines()[0] if text else type(exc).__name__


def _no_constant(value: str) -> Any:
    raise ValueError(f"{value} is not a number JSON allows")


def with_snooze(state: TriageState, key: str, snooze: Snooze | None) -> SnoozeChange:
    """Set (or, with None, remove) the snooze of `key`; the change, for the journal."""
    before = state.snoozes.get(key)
    if snooze is None:
        state.snoozes.pop(key, None)
    else:
        state.snoozes[key] = snooze
    return SnoozeChange(key, before, snooze)


def restore(state: TriageState, change: SnoozeChange) -> None:
    if change.before is None:
        state.snoozes.pop(change.key, None)
    else:
        state.snoozes[change.key] = change.before


def mark_committed(state: TriageState, action_id: str, path: str, commit: str) -> None:
    for index, action in enumerate(state.journal):
        if action.id != action_id:
            continue
        retired = tuple(replace(r, commit=commit) if r.path == path else r for r in action.retired)
        state.journal[index] = replace(action, retired=retired)
