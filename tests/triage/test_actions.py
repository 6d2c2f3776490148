"""Actions and their undo: snooze, bulk snooze, retire (file bytes back exactly), commit."""

from __future__ import annotations

from datetime import date
from pathlib import Path

import pytest

from tests.triage.seed import HOLDOUT, git
from tests.triage.support import TODAY, keys, queue_of
from voyage_tui.engine.triage.actions import Actions, NothingToUndo, UndoRefused
from voyage_tui.engine.triage.state import JOURNAL_LIMIT, StateStore
from voyage_tui.engine.workspace.model import Workspace


def actions(root: Path) -> Actions:
    return Actions(Workspace.load(root), today=lambda: TODAY)


def test_undo_takes_back_a_snooze_and_keeps_going_back(seeded: Path) -> None:
    acts = actions(seeded)
    queue = queue_of(seeded, git=False)
    error, warning = (next(i for i in queue.items if i.kind == k) for k in ("error", "warning"))
    acts.snooze([error])
    acts.snooze([warning], date(2026, 5, 1))
    assert not {error.key, warning.key} & set(keys(queue_of(seeded, git=False)))
    assert acts.undo().snoozes[0].key == warning.key
    assert warning.key in keys(queue_of(seeded, git=False))
    assert error.key not in keys(queue_of(seeded, git=False))
    acts.undo()
    assert keys(queue_of(seeded, git=False)) == keys(queue)
    with pytest.raises(NothingToUndo):
        acts.undo()


def test_undo_of_a_second_snooze_restores_the_first(seeded: Path) -> None:
    acts = actions(seeded)
    warning = next(i for i in queue_of(seeded, git=False).items if i.kind == "warning")
    acts.snooze([warning], date(2026, 5, 1))
    acts.snooze([warning], date(2026, 6, 1))
    acts.undo()
    snooze = StateStore(acts.ws).load().state.snoozes[warning.key]
    assert snooze.until == "2026-05-01"


def test_a_bulk_snooze_is_one_action_and_one_undo(seeded: Path) -> None:
    acts = actions(seeded)
    queue = queue_of(seeded, git=False)
    outcome = acts.snooze(list(queue.items))
    assert outcome.done == len(queue.items) > 5
    assert queue_of(seeded, git=False).items == ()
    assert len(StateStore(acts.ws).load().state.journal) == 1
    acts.undo()
    assert keys(queue_of(seeded, git=False)) == keys(queue)


def test_the_journal_holds_at_least_fifty_actions_across_restarts(seeded: Path) -> None:
    items = list(queue_of(seeded, git=False).items)
    acts = actions(seeded)
    for n in range(JOURNAL_LIMIT + 5):
        acts.snooze([items[n % len(items)]], date(2026, 4, 1 + n % 28))
    assert JOURNAL_LIMIT >= 50
    journal = StateStore(acts.ws).load().state.journal
    assert len(journal) == JOURNAL_LIMIT
    for _ in range(50):
        actions(seeded).undo()  # a new Actions each time: as after a restart


def test_retire_then_undo_restores_the_file_byte_for_byte(seeded: Path) -> None:
    path = seeded / HOLDOUT
    original = path.read_bytes()
    path.write_bytes(original.replace(b"\n", b"\r\n"))  # CRLF, to see every byte come back
    git(seeded, "commit", "-qam", "crlf")
    original = path.read_bytes()
    path.chmod(0o640)
    exposed = next(i for i in queue_of(seeded).items if i.kind == "exposed")
    acts = actions(seeded)
    outcome = acts.retire([exposed])
    assert outcome.problems == ()
    retired = path.read_bytes()
    assert retired == original.replace(b"visibility: holdout", b"visibility: public")
    assert exposed.key not in keys(queue_of(seeded))
    undone = acts.undo()
    assert undone.kind == "retire"
    assert path.read_bytes() == original
    assert path.stat().st_mode & 0o777 == 0o640
    assert exposed.key in keys(queue_of(seeded))


def test_undo_of_a_retire_is_refused_when_the_file_changed_since(seeded: Path) -> None:
    path = seeded / HOLDOUT
    exposed = next(i for i in queue_of(seeded).items if i.kind == "exposed")
    acts = actions(seeded)
    acts.retire([exposed])
    edited = path.read_bytes() + b"# edited after the retire\n"
    path.write_bytes(edited)
    with pytest.raises(UndoRefused, match="changed since it was retired"):
        acts.undo()
    assert path.read_bytes() == edited
    assert len(StateStore(acts.ws).load().state.journal) == 1


def test_retire_refuses_what_is_not_an_exposed_holdout(seeded: Path) -> None:
    error = next(i for i in queue_of(seeded, git=False).items if i.kind == "error")
    outcome = actions(seeded).retire([error])
    assert outcome.action is None
    assert outcome.problems == ((error.path, "not an exposed holdout"),)


def test_commit_after_retire_is_its_own_step(seeded: Path) -> None:
    exposed = next(i for i in queue_of(seeded).items if i.kind == "exposed")
    acts = actions(seeded)
    acts.retire([exposed])
    assert git(seeded, "status", "--porcelain") == f"M {HOLDOUT}"
    results = acts.commit_last_retire()
    assert [(p, err) for p, _, err in results] == [(HOLDOUT, None)]
    assert git(seeded, "status", "--porcelain") == ""
    subject = git(seeded, "log", "-1", "--format=%s")
    assert subject.startswith("Retire holdout discount-stacking-order")
    assert acts.commit_last_retire() == []  # nothing left to commit
    # The undo restores the work tree; the commit stays in history.
    acts.undo()
    assert git(seeded, "status", "--porcelain") == f"M {HOLDOUT}"


def test_undo_never_writes_what_a_retire_could_not_have_written(seeded: Path) -> None:
    """A state file is workspace content: one planted with a "retire" of some other file must
    not let `u` overwrite that file with its bytes, even with the right digest."""
    import base64
    import hashlib
    import json

    target = seeded / "fixtures/refactor/inject-db-session/task.yaml"
    current = target.read_bytes()
    planted = {
        "version": 1,
        "snoozes": {},
        "journal": [
            {
                "id": "planted",
                "kind": "retire",
                "at": "2026-01-01T00:00:00Z",
                "snoozes": [],
                "retired": [
                    {
                        "key": "exposed:x",
                        "path": "fixtures/refactor/inject-db-session/task.yaml",
                        "fixture_id": "inject-db-session",
                        "before": base64.b64encode(b"id: pwned\n").decode(),
                        "after_sha256": hashlib.sha256(current).hexdigest(),
                        "commit": None,
                    }
                ],
            }
        ],
    }
    (seeded / ".voyage").mkdir()
    (seeded / ".voyage/triage.json").write_text(json.dumps(planted))
    with pytest.raises(UndoRefused):
        actions(seeded).undo()
    assert target.read_bytes() == current


def test_a_snooze_reads_only_the_items_own_files(seeded: Path, monkeypatch) -> None:
    """The files a stored snooze names are not read: the item's own are."""
    from voyage_tui.engine.triage import queue as queue_module

    acts = actions(seeded)
    error = next(i for i in queue_of(seeded, git=False).items if i.kind == "error")
    acts.snooze([error])
    state = seeded / ".voyage/triage.json"
    state.write_text(state.read_text().replace(f'"{error.files[0]}"', '"../../outside.txt"'))
    read: list[str] = []
    real = queue_module.sha256_inside

    def recording(abs_path, rel, **kwargs):  # type: ignore[no-untyped-def]
        read.append(rel)
        return real(abs_path, rel, **kwargs)

    monkeypatch.setattr(queue_module, "sha256_inside", recording)
    assert error.key not in keys(queue_of(seeded, git=False))
    assert "../../outside.txt" not in read


def test_commit_refuses_a_file_that_is_no_longer_what_the_retire_wrote(seeded: Path) -> None:
    exposed = next(i for i in queue_of(seeded).items if i.kind == "exposed")
    acts = actions(seeded)
    acts.retire([exposed])
    path = seeded / HOLDOUT
    path.write_bytes(path.read_bytes() + b"# and something else\n")
    results = acts.commit_last_retire()
    assert [(p, c) for p, c, _ in results] == [(HOLDOUT, None)]
    assert "not the file this retire wrote" in (results[0][2] or "")
    assert git(seeded, "log", "-1", "--format=%s") == "Notes for the agent team"
