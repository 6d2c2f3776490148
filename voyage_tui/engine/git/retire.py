"""Retiring a holdout: `visibility: holdout` becomes `visibility: public`, nothing else moves.

The value is found through the YAML parser's marks (never a line regex), replaced in place keeping
its quoting, and the result is parsed again to prove that the visibility is the only change. Every
other byte (comments, the canary, quoting, CRLF line ends, a BOM) stays as it was; the write is
atomic and keeps the file's mode. A commit of exactly that one file is made when asked.

The file is read as every workspace file is (a regular file inside the workspace, bounded by
max_file_bytes) and written only inside the workspace, and only if it still holds what was read.
"""

from __future__ import annotations

import hashlib
import os
from collections.abc import Iterable
from dataclasses import dataclass, field, replace

from voyage_tui.engine.atomic import ContentChanged, Expected, WriteRefused
from voyage_tui.engine.diagnostics import Diagnostic
from voyage_tui.engine.git.exposure import Signal
from voyage_tui.engine.git.repo import GitUnavailable, open_repo
from voyage_tui.engine.loading.safe_read import read_bytes_inside
from voyage_tui.engine.loading.yaml_doc import load_yaml
from voyage_tui.engine.wording import plural
from voyage_tui.engine.workspace.model import Workspace
from voyage_tui.engine.workspace.writes import write_file

_VALUES = {"holdout": "public", '"holdout"': '"public"', "'holdout'": "'public'"}


class RetireError(Exception):
    """The fixture was not changed; the message says why and what to do."""


@dataclass(frozen=True, slots=True)
class VisibilitySpot:
    start: int
    """Character offsets of the value in the text (quotes included)."""
    end: int
    line: int
    """1-based line and column of the value."""
    column: int
    value: str
    """The value as parsed."""
    source: str
    """The value as written."""


@dataclass(frozen=True, slots=True)
class RetireResult:
    path: str
    id: str
    commit: str | None = None
    commit_error: str | None = None
    message: str | None = None
    """The commit message, when a commit was asked for."""
    before: bytes = field(default=b"", repr=False)
    """The file's bytes before the retire: what an undo writes back (triage/retirer.py)."""
    after: bytes = field(default=b"", repr=False)
    """The bytes the retire wrote."""


def locate_visibility(text: str) -> VisibilitySpot:
    """Where the top-level `visibility` value sits in `text` (a leading BOM is allowed and
    counted). Raises RetireError when there is not exactly one such key with a scalar value."""
    import yaml

    loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)  # the same parser as validation
    skip = 1 if text.startswith("\ufeff") else 0
    try:
        root = yaml.compose(text[skip:], Loader=loader)
    except (yaml.YAMLError, RecursionError) as exc:
        raise RetireError(
            f"the file does not parse as YAML ({_first_line(exc)}); fix it first"
        ) from exc
    if not isinstance(root, yaml.MappingNode):
        raise RetireError(
            "the file is not a mapping of fields, so it has no `visibility:` to change"
        )
    found = [
        (key, value)
        for key, value in root.value
        if isinstance(key, yaml.ScalarNode) and key.value == "visibility"
    ]
    if not found:
        raise RetireError("the file has no top-level `visibility:` key")
    if len(found) > 1:
        lines = ", ".join(str(key.start_mark.line + 1) for key, _ in found)
        raise RetireError(
            f"`visibility:` appears {plural(len(found), 'time')} (lines {lines}); keep one and retry"
        )
    key, value = found[0]
    if not isinstance(value, yaml.ScalarNode):
        raise RetireError(f"`visibility` on line {key.start_mark.line + 1} is not a single value")
    start, end = value.start_mark.index + skip, value.end_mark.index + skip
    return VisibilitySpot(
        start,
        end,
        value.start_mark.line + 1,
        value.start_mark.column + 1,
        value.value,
        text[start:end],
    )


def _first_line(exc: BaseException) -> str:
    return str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__


def retired_bytes(data: bytes, rel: str = "task.yaml") -> bytes:
    """The file's bytes with the visibility value changed to public. Raises RetireError."""
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise RetireError(f"the file is not valid UTF-8 (byte {exc.start}); fix it first") from exc
    body = text[1:] if text.startswith("\ufeff") else text
    before = load_yaml(body, rel)
    if not before.ok:
        raise RetireError("the file does not load cleanly as YAML; fix it first")
    if not isinstance(before.data, dict):
        raise RetireError(
            "the file is not a mapping of fields, so it has no `visibility:` to change"
        )
    spot = locate_visibility(text)
    if spot.value != "holdout":
        shown = spot.value if spot.value.isidentifier() else repr(spot.value)
        raise RetireError(f"the fixture is not a holdout (visibility: {shown or 'empty'})")
    replacement = _VALUES.get(spot.source)
    if replacement is None:
        written = " ".join(spot.source.split())
        raise RetireError(
            f"the visibility value on line {spot.line} is written as `{written}`; "
            "change it to `public` by hand"
        )
    new_text = text[: spot.start] + replacement + text[spot.end :]
    # Prove the edit: the document must read the same but for its visibility.
    after = load_yaml(new_text[1:] if new_text.startswith("\ufeff") else new_text, rel)
    if not after.ok or after.data != {**before.data, "visibility": "public"}:
        raise RetireError(
            "changing the visibility value would change more than the visibility (an anchor or "
            "alias shares it); change it by hand"
        )
    return new_text.encode("utf-8")


def commit_message(fixture_id: str, rel: str, signals: Iterable[Signal] = ()) -> str:
    signals = list(signals)
    kinds = list(dict.fromkeys(s.kind for s in signals if s.kind != "not-tracked"))
    title = f"Retire holdout {fixture_id}"
    if kinds:
        title += f": exposed ({', '.join(kinds)})"
    lines = [title, "", f"{rel}: visibility holdout -> public."]
    shown = [s for s in signals if s.kind in kinds]
    if shown:
        lines += ["", "Exposure signals:"]
        for s in shown:
            who = f" {s.commit[:12]}" if s.commit else ""
            who += f" {s.author}" if s.author else ""
            lines.append(f"- {s.kind}{who}: {s.detail}")
    return "\n".join(lines) + "\n"


def retire_holdout(
    ws: Workspace,
    rel: str,
    *,
    fixture_id: str | None = None,
    commit: bool = False,
    signals: Iterable[Signal] = (),
) -> RetireResult:
    """Make the holdout at `rel` (its task.yaml, workspace-relative) public. With `commit`, commit
    exactly that file, with a message naming the fixture and `signals`. Raises RetireError when the
    file is left unchanged; a failed commit after the write is reported in the result, which holds
    the bytes before and after. The app and the command line retire through triage's Retirer
    (engine/triage/retirer.py), which journals this for undo; nothing else calls it."""
    path = ws.abs(rel)
    if fixture_id is None:
        parts = rel.split("/")
        fixture_id = parts[-2] if len(parts) >= 2 else rel
    data = read_bytes_inside(path, rel, root_real=ws.root_real, max_bytes=ws.max_file_bytes)
    if isinstance(data, Diagnostic):
        raise RetireError(data.message)
    new = retired_bytes(data, rel)
    rewrite(ws, rel, new, expect_sha256=hashlib.sha256(data).hexdigest())
    if not commit:
        return RetireResult(rel, fixture_id, before=data, after=new)
    done = commit_retired(ws, rel, fixture_id=fixture_id, signals=signals)
    return replace(done, before=data, after=new)


def commit_retired(
    ws: Workspace, rel: str, *, fixture_id: str, signals: Iterable[Signal] = ()
) -> RetireResult:
    """Commit exactly the file at `rel` (a holdout already retired), with a message naming the
    fixture and `signals`. A failed commit is reported in the result."""
    message = commit_message(fixture_id, rel, signals)
    try:
        sha = _commit_one(ws, ws.abs(rel), message)
    except GitUnavailable as exc:
        return RetireResult(rel, fixture_id, None, exc.message, message)
    return RetireResult(rel, fixture_id, sha, None, message)


def rewrite(
    ws: Workspace,
    rel: str,
    data: bytes,
    *,
    expect_sha256: str,
    during: str = "while it was being retired",
) -> None:
    """Write `data` over the file at `rel`, atomically, inside the workspace, and only if it still
    has the digest `expect_sha256` (the retire, and the undo that writes the old bytes back).
    Raises RetireError, nothing written."""
    expect = Expected(expect_sha256, ws.max_file_bytes)
    try:
        write_file(ws, rel, data, expect=expect, shown=rel)
    except WriteRefused as exc:
        raise RetireError(exc.message) from exc
    except ContentChanged as exc:
        raise RetireError(f"the file changed on disk {during}; nothing was written, retry") from exc
    except OSError as exc:
        raise RetireError(
            f"it cannot be written ({exc.strerror or exc}); make its folder writable and retry"
        ) from exc


def _commit_one(ws: Workspace, path: str, message: str) -> str:
    # The one git command that may run what the repository names: its hooks, since the person
    # asked for this commit (GitRepo.commit_file says what stays off).
    with open_repo(str(ws.root)) as repo:
        if repo.work_tree is None:
            raise GitUnavailable(
                "git-bare-repository", "the repository is bare; nothing to commit in"
            )
        toplevel = os.path.realpath(repo.work_tree)
        inside = os.path.relpath(os.path.realpath(path), toplevel).replace(os.sep, "/")
        return repo.commit_file(inside, message)
