"""Snoozes: until the file changes, until a date (with an injected clock), and a state file that
cannot be used."""

from __future__ import annotations

import json
import os
from datetime import date, timedelta
from pathlib import Path

import pytest

from tests.triage.seed import BROKEN, GOLD, README
from tests.triage.support import TODAY, keys, queue_of
from voyage_tui.engine.triage.actions import Actions
from voyage_tui.engine.triage.state import (
    STATE_CORRUPT,
    STATE_NEWER,
    STATE_REL,
    StateError,
    StateStore,
)
from voyage_tui.engine.workspace.model import Workspace


def actions(root: Path, today: date = TODAY) -> Actions:
    return Actions(Workspace.load(root), today=lambda: today)


def item_of(root: Path, kind: str, today: date = TODAY):
    return next(i for i in queue_of(root, today, git=False).items if i.kind == kind)


def test_snoozed_until_change_it_leaves_and_an_edit_brings_it_back(seeded: Path) -> None:
    error = item_of(seeded, "error")
    actions(seeded).snooze([error])
    queue = queue_of(seeded, git=False)
    assert error.key not in keys(queue)
    assert [(i.key, s.until) for i, s in queue.snoozed] == [(error.key, "change")]
    # Another file changing, or this one touched without a change, keeps it snoozed.
    other = seeded / "fixtures/refactor/inject-db-session/task.yaml"
    other.write_text(other.read_text() + "# unrelated\n")
    path = seeded / BROKEN
    os.utime(path, (1, 1))
    assert error.key not in keys(queue_of(seeded, git=False))
    # An edit to its own file (the error still there) brings it back.
    path.write_text(path.read_text() + "# looked at it\n")
    back = queue_of(seeded, git=False)
    assert error.key in keys(back)
    assert back.expired == {error.key}


def test_the_end_of_a_snooze_is_forgotten_at_the_next_write(seeded: Path) -> None:
    error = item_of(seeded, "error")
    acts = actions(seeded)
    acts.snooze([error])
    path = seeded / BROKEN
    original = path.read_text()
    path.write_text(original + "# looked\n")
    expired = queue_of(seeded, git=False).expired
    warning = item_of(seeded, "warning")
    acts.snooze([warning], expired=expired)
    assert error.key not in StateStore(acts.ws).load().state.snoozes
    path.write_text(original)  # the file back as it was: the item stays in the queue
    assert error.key in keys(queue_of(seeded, git=False))


def test_drift_snoozed_until_change_wakes_when_the_readme_changes(seeded: Path) -> None:
    drift = item_of(seeded, "drift")
    assert drift.path == GOLD
    actions(seeded).snooze([drift])
    assert drift.key not in keys(queue_of(seeded, git=False))
    readme = seeded / README
    readme.write_text(readme.read_text() + "\nMore prose.\n")
    assert drift.key in keys(queue_of(seeded, git=False))


def test_snoozed_until_a_date_it_comes_back_that_day(seeded: Path) -> None:
    warning = item_of(seeded, "warning")
    back_on = TODAY + timedelta(days=7)
    actions(seeded).snooze([warning], back_on)
    for day in (TODAY, TODAY + timedelta(days=6)):
        queue = queue_of(seeded, day, git=False)
        assert warning.key not in keys(queue)
        assert dict((i.key, s.until) for i, s in queue.snoozed) == {warning.key: "2026-03-09"}
    # An edit does not end a snooze until a date.
    path = seeded / BROKEN
    path.write_text(path.read_text() + "# edited\n")
    assert warning.key not in keys(queue_of(seeded, TODAY, git=False))
    assert warning.key in keys(queue_of(seeded, back_on, git=False))


def test_a_date_that_is_not_after_today_is_refused(seeded: Path) -> None:
    warning = item_of(seeded, "warning")
    with pytest.raises(ValueError, match="not after today"):
        actions(seeded).snooze([warning], TODAY)
    assert not (seeded / STATE_REL).exists()


def test_the_state_file_is_json_in_the_workspaces_voyage_folder(seeded: Path) -> None:
    warning = item_of(seeded, "warning")
    actions(seeded).snooze([warning], date(2026, 4, 1))
    data = json.loads((seeded / STATE_REL).read_text())
    assert data["version"] == 1
    assert data["snoozes"][warning.key]["until"] == "2026-04-01"
    assert [a["kind"] for a in data["journal"]] == ["snooze"]
    assert sorted(p.name for p in (seeded / ".voyage").iterdir()) == [".gitignore", "triage.json"]


@pytest.mark.parametrize(
    ("content", "code"),
    [
        (b"{not json", STATE_CORRUPT),
        (b"\xff\xfe", STATE_CORRUPT),
        (b"[]", STATE_CORRUPT),
        (b'{"version": 1, "snoozes": [], "journal": []}', STATE_CORRUPT),
        (b'{"version": 1, "snoozes": {"k": {"until": "soon"}}, "journal": []}', STATE_CORRUPT),
        (b'{"version": "1"}', STATE_CORRUPT),
        (b'{"version": 2, "snoozes": {}, "journal": [], "tags": {}}', STATE_NEWER),
    ],
)
def test_a_state_file_that_cannot_be_used_is_a_diagnostic_and_is_copied_aside(
    seeded: Path, content: bytes, code: str
) -> None:
    state = seeded / STATE_REL
    state.parent.mkdir()
    state.write_bytes(content)
    queue = queue_of(seeded, git=False)
    assert [d.code for d in queue.state_diagnostics] == [code]
    flagged = [i for i in queue.items if i.path == STATE_REL]
    assert [(i.kind, i.code) for i in flagged] == [("warning", code)]
    # The first action copies the file aside, byte for byte, then writes a fresh one.
    warning = next(i for i in queue.items if i.kind == "warning" and i.path == BROKEN)
    actions(seeded).snooze([warning])
    backups = sorted((seeded / ".voyage").glob("triage-backup-*.json"))
    assert len(backups) == 1
    assert backups[0].read_bytes() == content
    assert json.loads(state.read_text())["version"] == 1
    after = queue_of(seeded, git=False)
    assert after.state_diagnostics == ()
    assert warning.key not in keys(after)


def test_a_state_file_that_is_a_symlink_is_never_followed_nor_replaced(
    seeded: Path, tmp_path: Path
) -> None:
    outside = tmp_path / "elsewhere.json"
    outside.write_text('{"version": 1, "snoozes": {}, "journal": []}')
    (seeded / ".voyage").mkdir()
    (seeded / STATE_REL).symlink_to(outside)
    queue = queue_of(seeded, git=False)
    assert [d.code for d in queue.state_diagnostics] == [STATE_CORRUPT]
    assert "symlink" in queue.state_diagnostics[0].message
    warning = next(i for i in queue.items if i.kind == "warning" and i.path == BROKEN)
    with pytest.raises(StateError):
        actions(seeded).snooze([warning])
    assert (seeded / STATE_REL).is_symlink()
    assert outside.read_text() == '{"version": 1, "snoozes": {}, "journal": []}'


def test_a_state_file_that_cannot_be_read_is_a_diagnostic(
    seeded: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (seeded / ".voyage").mkdir()
    (seeded / STATE_REL).write_text('{"version": 1}')
    real_open = os.open

    def refuse(path, flags, *args, **kwargs):  # type: ignore[no-untyped-def]
        if path == "triage.json":
            raise PermissionError(13, "Permission denied")
        return real_open(path, flags, *args, **kwargs)

    monkeypatch.setattr(os, "open", refuse)
    loaded = StateStore(Workspace.load(seeded)).load()
    assert [d.code for d in loaded.diagnostics] == [STATE_CORRUPT]
    assert "Permission denied" in loaded.diagnostics[0].message
    assert not loaded.writable


def test_a_huge_state_file_is_not_read(seeded: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from voyage_tui.engine.triage import state as state_module

    monkeypatch.setattr(state_module, "MAX_STATE_BYTES", 100)
    (seeded / ".voyage").mkdir()
    (seeded / STATE_REL).write_text('{"version": 1, "snoozes": {}, "journal": []}' + " " * 200)
    loaded = StateStore(Workspace.load(seeded)).load()
    assert [d.code for d in loaded.diagnostics] == [STATE_CORRUPT]
    assert not loaded.writable


def test_a_write_that_finds_the_file_changed_redoes_its_change(seeded: Path) -> None:
    """The command line and the app may both write the state: neither loses the other's."""
    error, warning = item_of(seeded, "error"), item_of(seeded, "warning")
    first, second = actions(seeded), actions(seeded)
    store = first.store
    real_load = store.load
    calls = {"n": 0}

    def load_then_race():  # type: ignore[no-untyped-def]
        loaded = real_load()
        calls["n"] += 1
        if calls["n"] == 1:
            second.snooze([warning])  # lands between this read and this write
        return loaded

    store.load = load_then_race  # type: ignore[method-assign]
    first.snooze([error])
    snoozes = StateStore(first.ws).load().state.snoozes
    assert set(snoozes) == {error.key, warning.key}
