"""The one journaled Retirer: a retire from `exposure --retire` (and from triage) is in the undo
journal and comes undone from triage byte for byte; a retire whose journal cannot be written
does not happen."""

from __future__ import annotations

import ast
from collections.abc import Callable
from pathlib import Path

import pytest

from tests.helpers import source_nodes
from tests.triage.seed import HOLDOUT, git
from tests.triage.support import TODAY, queue_of
from voyage_tui.engine.git.retire import RetireError
from voyage_tui.engine.triage import retirer as retirer_module
from voyage_tui.engine.triage.actions import Actions
from voyage_tui.engine.triage.retirer import Retirer, Target, undone_note
from voyage_tui.engine.triage.state import RETIRE, STATE_REL, StateError, StateStore
from voyage_tui.engine.workspace.model import Workspace

HOLDOUT_ID = "discount-stacking-order"


def crlf(root: Path) -> bytes:
    """The holdout with CRLF line ends and its own mode, committed: every byte must come back."""
    path = root / HOLDOUT
    path.write_bytes(path.read_bytes().replace(b"\n", b"\r\n"))
    path.chmod(0o640)
    git(root, "commit", "-qam", "crlf")
    return path.read_bytes()


def retire_cli(capsys: pytest.CaptureFixture[str], root: Path, *extra: str) -> tuple[int, str, str]:
    from voyage_tui.cli import main

    code = main(["exposure", str(root), "--retire", HOLDOUT_ID, *extra])
    out, err = capsys.readouterr()
    return code, out, err


def journal(root: Path) -> list[object]:
    return list(StateStore(Workspace.load(root)).load().state.journal)


def test_a_retire_from_the_command_line_is_undone_from_triage(
    seeded: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    original = crlf(seeded)
    code, out, _ = retire_cli(capsys, seeded)
    assert code == 0
    assert "undo: `u` on the triage screen" in out
    path = seeded / HOLDOUT
    assert path.read_bytes() == original.replace(b"visibility: holdout", b"visibility: public")
    [action] = StateStore(Workspace.load(seeded)).load().state.journal
    assert action.kind == RETIRE
    assert [(r.path, r.fixture_id, r.before) for r in action.retired] == [
        (HOLDOUT, HOLDOUT_ID, original)
    ]
    undone = Actions(Workspace.load(seeded), today=lambda: TODAY).undo()
    assert undone.id == action.id
    assert path.read_bytes() == original
    assert path.stat().st_mode & 0o777 == 0o640
    assert journal(seeded) == []


def test_a_committed_retire_is_undone_in_the_work_tree_and_the_commit_stays(
    seeded: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    original = crlf(seeded)
    code, _, _ = retire_cli(capsys, seeded, "--commit")
    assert code == 0
    head = git(seeded, "rev-parse", "HEAD")
    assert git(seeded, "log", "-1", "--format=%s").startswith(f"Retire holdout {HOLDOUT_ID}")
    [action] = StateStore(Workspace.load(seeded)).load().state.journal
    assert [r.commit for r in action.retired] == [head]
    acts = Actions(Workspace.load(seeded), today=lambda: TODAY)
    assert acts.commit_last_retire() == []  # the journal knows it is committed
    undone = acts.undo()
    assert (seeded / HOLDOUT).read_bytes() == original
    assert git(seeded, "rev-parse", "HEAD") == head  # history is left alone
    assert git(seeded, "status", "--porcelain") == f"M {HOLDOUT}"
    note = undone_note(undone)
    assert head[:12] in note and "stays in history" in note and "git revert" in note


def _plant_symlink(root: Path, elsewhere: Path) -> None:
    (root / ".voyage").mkdir()
    elsewhere.write_text('{"version": 1, "snoozes": {}, "journal": []}\n')
    (root / STATE_REL).symlink_to(elsewhere)


def _plant_folder(root: Path, elsewhere: Path) -> None:
    (root / STATE_REL).mkdir(parents=True)


def _plant_folder_link(root: Path, elsewhere: Path) -> None:
    elsewhere.mkdir()
    (root / ".voyage").symlink_to(elsewhere)


PLANTS = {
    "triage.json is a symlink": _plant_symlink,
    "triage.json is a folder": _plant_folder,
    ".voyage is a symlink": _plant_folder_link,
}


@pytest.mark.parametrize("plant", PLANTS.values(), ids=PLANTS.keys())
def test_a_retire_whose_journal_cannot_be_written_does_not_happen(
    seeded: Path,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    plant: Callable[[Path, Path], None],
) -> None:
    path = seeded / HOLDOUT
    original = path.read_bytes()
    elsewhere = tmp_path / "elsewhere"
    plant(seeded, elsewhere)
    code, out, err = retire_cli(capsys, seeded)
    assert code == 1 and out == ""
    assert f"{HOLDOUT} was not changed: the undo journal could not be written" in err
    assert "nothing was retired" in err
    assert path.read_bytes() == original
    if elsewhere.is_file():
        assert elsewhere.read_text() == '{"version": 1, "snoozes": {}, "journal": []}\n'
    # Triage's own retire refuses the same way.
    exposed = next(i for i in queue_of(seeded).items if i.kind == "exposed")
    outcome = Actions(Workspace.load(seeded), today=lambda: TODAY).retire([exposed])
    assert outcome.action is None
    [(where, why)] = outcome.problems
    assert where == HOLDOUT and "the undo journal could not be written" in why
    assert path.read_bytes() == original


def test_a_journal_that_fails_after_the_write_puts_the_file_back(
    seeded: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    original = crlf(seeded)

    def failing(self, change):  # type: ignore[no-untyped-def]
        raise StateError(f"{STATE_REL} cannot be written: No space left on device")

    monkeypatch.setattr(StateStore, "update", failing)
    outcome = Retirer(Workspace.load(seeded)).retire([Target(HOLDOUT)], commit=True)
    assert outcome.action is None and outcome.results == () and outcome.unrecorded == ()
    [(where, why)] = outcome.problems
    assert where == HOLDOUT
    assert "No space left on device" in why and "the file is as it was" in why
    assert (seeded / HOLDOUT).read_bytes() == original
    assert git(seeded, "log", "-1", "--format=%s") == "crlf"  # no commit either


def test_a_file_that_cannot_be_put_back_says_undo_is_unavailable(
    seeded: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    def failing(self, change):  # type: ignore[no-untyped-def]
        raise StateError(f"{STATE_REL} cannot be written: Read-only file system")

    real = retirer_module.rewrite

    def refusing(ws, rel, data, *, expect_sha256, during="while it was being retired"):  # type: ignore[no-untyped-def]
        if "put back" in during:
            raise RetireError("it cannot be written (Read-only file system)")
        real(ws, rel, data, expect_sha256=expect_sha256, during=during)

    monkeypatch.setattr(StateStore, "update", failing)
    monkeypatch.setattr(retirer_module, "rewrite", refusing)
    outcome = Retirer(Workspace.load(seeded)).retire([Target(HOLDOUT)])
    assert outcome.action is None and outcome.unrecorded == (HOLDOUT,)
    [(_, why)] = outcome.problems
    assert why.startswith("retired, but the undo journal could not be written")
    assert "undo is unavailable" in why
    assert b"visibility: public" in (seeded / HOLDOUT).read_bytes()


def test_only_the_retirer_imports_the_git_retire_writer() -> None:
    """One writer path: every retire goes through the journal."""
    package = Path(__file__).resolve().parents[2] / "voyage_tui"
    writers = {"retire_holdout", "commit_retired", "rewrite"}
    importers = set()
    for path in package.rglob("*.py"):
        for node in source_nodes(path):
            if isinstance(node, ast.ImportFrom) and node.module == "voyage_tui.engine.git.retire":
                if writers & {alias.name for alias in node.names}:
                    importers.add(path.relative_to(package).as_posix())
            elif isinstance(node, ast.Import) and any(
                a.name == "voyage_tui.engine.git.retire" for a in node.names
            ):
                importers.add(path.relative_to(package).as_posix())
    assert importers == {"engine/triage/retirer.py"}
