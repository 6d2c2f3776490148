"""Drafts: a wizard's answers so far, saved after each step in the workspace's `.voyage/drafts/`,
so a closed terminal loses nothing.

One JSON file per draft, written atomically and only inside the workspace (workspace/writes.py). A
draft is workspace content like any other (anyone may have written it): it is read as a bounded
regular file, never through a symlink, and one that cannot be read or is not in this format is a
`draft-corrupt` diagnostic, never a crash. `.voyage/` is personal state: git-ignore it.

Its `saved_at` is the draft's own word, so "the newest" (what `--resume` alone reopens) counts
only drafts dated at most MAX_CLOCK_SKEW after now: a draft dated 2999, or not dated at all, is
listed last and resumed only by its name. What a draft names to copy is copied only when git
tracks it (sources.py).
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import secrets
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any

from voyage_tui.engine import diagnostics as dg
from voyage_tui.engine.authoring.answers import (
    KINDS,
    Answers,
    DraftError,
    answers_from_json,
    answers_to_json,
)
from voyage_tui.engine.diagnostics import Diagnostic
from voyage_tui.engine.workspace import state_files
from voyage_tui.engine.workspace.model import Workspace
from voyage_tui.engine.workspace.state_files import STATE_FOLDER
from voyage_tui.engine.workspace.writes import write_file

DRAFTS_FOLDER = f"{STATE_FOLDER}/drafts"
DRAFT_FORMAT = "voyage-draft/1"
DRAFT_CORRUPT = "draft-corrupt"
DRAFT_NOT_FOUND = "draft-not-found"
MAX_DRAFT_BYTES = 8 << 20
_NAME = re.compile(r"^[a-z0-9][a-z0-9._-]{0,99}$")
MAX_CLOCK_SKEW = timedelta(minutes=5)
"""How far ahead of this machine's clock a draft may be dated and still be the newest: clocks of
two machines sharing a folder differ by a little, never by years."""


@dataclass(frozen=True, slots=True)
class Draft:
    name: str
    answers: Answers
    step: str
    """The step the wizard was on."""
    saved_at: str
    """ISO 8601, UTC."""

    @property
    def kind(self) -> str:
        return self.answers.kind


class DraftUnusable(Exception):
    """The draft cannot be resumed; `diagnostic` says why (`draft-corrupt`, or a bad name)."""

    def __init__(self, diagnostic: Diagnostic) -> None:
        super().__init__(diagnostic.message)
        self.diagnostic = diagnostic


def valid_name(name: str) -> bool:
    return _NAME.match(name) is not None and ".." not in name


class DraftStore:
    def __init__(self, ws: Workspace) -> None:
        self.ws = ws

    def rel(self, name: str) -> str:
        return f"{DRAFTS_FOLDER}/{name}.json"

    @staticmethod
    def new_name(kind: str) -> str:
        stamp = datetime.now(UTC).strftime("%Y%m%d-%H%M%S")
        return f"{kind}-{stamp}-{secrets.token_hex(3)}"

    def save(self, name: str, answers: Answers, step: str) -> str:
        """Write the draft (replacing its earlier state) and return its workspace path.
        Raises ValueError for a name that is not a draft name, OSError when it cannot be written."""
        if not valid_name(name):
            raise ValueError(f"{name!r} is not a draft name")
        payload = {
            "format": DRAFT_FORMAT,
            "step": step,
            "saved_at": datetime.now(UTC).isoformat(timespec="seconds"),
            "answers": answers_to_json(answers),
        }
        # ASCII escapes keep any text (even a lone surrogate) writable and readable back.
        data = (json.dumps(payload, indent=2, ensure_ascii=True) + "\n").encode("ascii")
        rel = self.rel(name)
        write_file(self.ws, rel, data, make_folders=True, shown=rel)
        return rel

    def load(self, name: str) -> Draft:
        """Raises DraftUnusable."""
        rel = self.rel(name) if valid_name(name) else f"{DRAFTS_FOLDER}/{name}"
        if not valid_name(name):
            raise DraftUnusable(
                dg.error(rel, None, DRAFT_CORRUPT, f"{name!r} is not the name of a draft")
            )
        folder = self._open_folder()
        missing = DraftUnusable(
            dg.error(
                rel,
                None,
                DRAFT_NOT_FOUND,
                f"no draft named {name!r} in {DRAFTS_FOLDER}/ (`--resume` alone reopens the "
                "newest; the wizard's first step lists them all)",
            )
        )
        if folder is None:
            raise missing
        try:
            if not _exists(folder, f"{name}.json"):
                raise missing
            return self._read(folder, name)
        finally:
            os.close(folder)

    def drafts(self) -> tuple[list[Draft], list[Diagnostic]]:
        """Every draft, newest first, and a diagnostic for each one that cannot be resumed."""
        folder = self._open_folder()
        if folder is None:
            return [], []
        found: list[Draft] = []
        problems: list[Diagnostic] = []
        try:
            with os.scandir(folder) as entries:
                names = sorted(e.name for e in entries if e.name.endswith(".json"))
            for file_name in names:
                name = file_name[: -len(".json")]
                try:
                    found.append(self._read(folder, name))
                except DraftUnusable as exc:
                    problems.append(exc.diagnostic)
        except OSError as exc:
            problems.append(
                dg.error(
                    DRAFTS_FOLDER,
                    None,
                    DRAFT_CORRUPT,
                    f"the drafts cannot be listed: {exc.strerror}",
                )
            )
        finally:
            os.close(folder)
        now = datetime.now(UTC)
        dated = [(saved_time(d.saved_at, now), d) for d in found]
        # Newest first; the undated and those from the future after them, by name.
        dated.sort(key=lambda td: (td[0] is not None, td[0] or now, td[1].name), reverse=True)
        undated = sorted((d for t, d in dated if t is None), key=lambda d: d.name)
        return [d for t, d in dated if t is not None] + undated, problems

    def latest(self, kind: str | None = None) -> Draft | None:
        """The newest draft (of `kind`) dated no later than a moment from now; a draft dated in
        the future or not dated is never "the newest" (resume it by name)."""
        drafts, _ = self.drafts()
        now = datetime.now(UTC)
        return next(
            (
                d
                for d in drafts
                if (kind is None or d.kind == kind) and saved_time(d.saved_at, now) is not None
            ),
            None,
        )

    def delete(self, name: str) -> None:
        """Remove the draft (done once its fixture is written); a missing one is no error."""
        if not valid_name(name):
            return
        folder = self._open_folder()
        if folder is None:
            return
        try:
            with contextlib.suppress(FileNotFoundError):
                os.unlink(f"{name}.json", dir_fd=folder)
        finally:
            os.close(folder)

    # --- reading -------------------------------------------------------------------------------

    def _open_folder(self) -> int | None:
        """The drafts folder, reached from the workspace without following a symlink; None when
        it is not there (or is not a folder of the workspace)."""
        try:
            return state_files.open_folder(self.ws.root_real, DRAFTS_FOLDER)
        except state_files.StateUnreadable:
            return None

    def _read(self, folder: int, name: str) -> Draft:
        rel = self.rel(name)

        def corrupt(why: str) -> DraftUnusable:
            return DraftUnusable(
                dg.error(
                    rel,
                    None,
                    DRAFT_CORRUPT,
                    f"this draft cannot be resumed: {why}; delete it, or start a new draft",
                )
            )

        if not valid_name(name):
            raise corrupt("its name is not a draft name")
        try:
            data = state_files.read_file(folder, f"{name}.json", MAX_DRAFT_BYTES)
        except state_files.StateUnreadable as exc:
            raise corrupt(str(exc)) from None
        if data is None:
            raise corrupt("it does not exist")
        return _parse(data, name, corrupt)


def _exists(folder: int, name: str) -> bool:
    """Whether `name` is an entry of the folder, of any type: a symlink or a FIFO there is a
    draft that cannot be resumed (`draft-corrupt`), not a missing one."""
    try:
        os.stat(name, dir_fd=folder, follow_symlinks=False)
    except FileNotFoundError:
        return False
    except OSError:
        return True
    return True


def saved_time(saved_at: str, now: datetime) -> datetime | None:
    """When the draft says it was saved, if that is a time no later than MAX_CLOCK_SKEW after
    `now` (UTC); None for a date in the future or anything that is not a date. A time without a
    zone is taken as UTC, as drafts are saved."""
    if len(saved_at) > 64:
        return None
    try:
        when = datetime.fromisoformat(saved_at)
    except ValueError:
        return None
    if when.tzinfo is None:
        when = when.replace(tzinfo=UTC)
    try:
        return when if when <= now + MAX_CLOCK_SKEW else None
    except OverflowError:  # pragma: no cover - a comparison near datetime.max
        return None


def _parse(data: bytes, name: str, corrupt: Any) -> Draft:
    try:
        text = data.decode("utf-8")
        payload = json.loads(text, parse_constant=_no_constant)
    except (UnicodeDecodeError, ValueError, RecursionError) as exc:
        raise corrupt(f"it is not JSON ({exc})") from None
    if not isinstance(payload, dict) or payload.get("format") != DRAFT_FORMAT:
        raise corrupt(f"it is not a draft of this version (`format` is not {DRAFT_FORMAT!r})")
    step = payload.get("step", "")
    saved_at = payload.get("saved_at", "")
    if not isinstance(step, str) or not isinstance(saved_at, str):
        raise corrupt("`step` and `saved_at` must be text")
    try:
        answers = answers_from_json(payload.get("answers"))
    except DraftError as exc:
        raise corrupt(str(exc)) from None
    if answers.kind not in KINDS:  # pragma: no cover - answers_from_json allows only these
        raise corrupt("unknown kind")
    return Draft(name, answers, step, saved_at)


def _no_constant(value: str) -> Any:
    raise ValueError(f"{value} is not a number JSON allows")
