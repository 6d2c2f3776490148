"""A draft is workspace content: anyone may have planted one in `.voyage/drafts/`.

Each test here was written against a defect: `new task --resume --no-input` on a planted draft
copied a git-ignored `.env` into a new fixture as `repo/config.sample`, ready to commit, and a
draft dated 2999 counted as the newest. What a draft (or a copied fixture) names is copied only
when git tracks it; the person's own `--context-file` is copied as named.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.app.scenarios import copy_sample
from tests.authoring.conftest import tree
from tests.authoring.test_check import complete_task
from tests.git.conftest import Repo, isolated_git  # noqa: F401  (the fixture applies here too)
from voyage_tui.cli import main
from voyage_tui.engine.authoring import Authoring, ContextEntry
from voyage_tui.engine.authoring.drafts import DRAFTS_FOLDER, DraftStore
from voyage_tui.engine.workspace.model import Workspace

SECRET = "AWS_SECRET_ACCESS_KEY=planted-draft-reads-me\n"
NEW_FOLDER = "fixtures/bug-diagnosis/login-timeout"


@pytest.fixture
def ws(tmp_path: Path) -> Path:
    """The sample as a git repository, `.env` and `.voyage/` ignored, a secret in `.env`."""
    root = copy_sample(tmp_path)
    repo = Repo(root).init()
    (root / ".gitignore").write_text(".env\n.voyage/\nscratch/\n")
    repo.commit(message="the sample")
    (root / ".env").write_text(SECRET)
    return root


def plant(root: Path, name: str, source: str, file: str = "repo/config.sample") -> None:
    """A draft as a branch (or anyone) could leave it: complete answers copying `source`."""
    answers = complete_task(context=[ContextEntry(file=file, source=source)])
    DraftStore(Workspace.load(root)).save(name, answers, "preview")


def new(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(["new", "task", *argv])
    out, err = capsys.readouterr()
    return code, out, err


def test_a_planted_draft_never_copies_a_git_ignored_file(
    ws: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    plant(ws, "task-20250101-000000-abcdef", ".env")
    before = tree(ws)
    code, out, err = new(capsys, str(ws), "--resume", "--no-input")
    assert code == 2 and out == ""
    assert "context-source-unreadable" in err
    assert ".env" in err and "not a file git tracks" in err
    assert "--context-file" in err  # how to copy it anyway, on purpose
    assert tree(ws) == before  # nothing written, the draft kept
    assert SECRET not in "".join(
        p.read_text(errors="replace") for p in (ws / "fixtures").rglob("*") if p.is_file()
    )


@pytest.mark.parametrize(
    ("files", "source"),
    [
        ({"notes/untracked.txt": "never added\n"}, "notes/untracked.txt"),  # untracked
        ({"scratch/creds.txt": "ignored folder\n"}, "scratch/creds.txt"),  # in an ignored folder
        (
            {"fixtures/feature-change/config-v2-migration/extra.toml": "x = 1\n"},
            "fixtures/feature-change/config-v2-migration",
        ),  # a folder with one untracked file
        ({}, ".voyage/drafts"),  # tool state, never copied
    ],
)
def test_a_draft_source_must_be_tracked_whole(
    ws: Path, capsys: pytest.CaptureFixture[str], files: dict[str, str], source: str
) -> None:
    for rel, text in files.items():
        (ws / rel).parent.mkdir(parents=True, exist_ok=True)
        (ws / rel).write_text(text)
    plant(ws, "task-20250101-000000-abcdef", source, file="copied")
    before = tree(ws)
    code, _, err = new(capsys, str(ws), "--resume", "--no-input")
    assert code == 2 and "context-source-unreadable" in err
    assert tree(ws) == before


def test_a_symlink_to_an_ignored_file_is_judged_by_what_it_reads(
    ws: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    repo = Repo(ws)
    (ws / "config.sample").symlink_to(".env")
    repo.commit({}, message="a link")  # the link itself is tracked; what it reads is not
    plant(ws, "task-20250101-000000-abcdef", "config.sample")
    code, _, err = new(capsys, str(ws), "--resume", "--no-input")
    assert code == 2 and ".env" in err and "not a file git tracks" in err


def test_a_draft_source_git_tracks_is_copied(ws: Path, capsys: pytest.CaptureFixture[str]) -> None:
    source = "fixtures/feature-change/config-v2-migration/v1-example.toml"
    plant(ws, "task-20250101-000000-abcdef", source, file="v1.toml")
    code, out, err = new(capsys, str(ws), "--resume", "--no-input")
    assert (code, out) == (0, f"{NEW_FOLDER}/task.yaml\n"), err
    assert (ws / NEW_FOLDER / "v1.toml").read_bytes() == (ws / source).read_bytes()


def test_a_file_named_on_the_command_line_is_copied_even_if_ignored(
    ws: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """The person names it in this invocation: their choice, as with any file they name."""
    monkeypatch.chdir(ws)
    flags = ["--class", "bug-diagnosis", "--id", "login-timeout", "--prompt", "p", "--ground-truth"]
    flags += ["g", "--boundary", "unit", "--context-file", ".env", "--no-input"]
    code, out, err = new(capsys, str(ws), *flags)
    assert (code, out) == (0, f"{NEW_FOLDER}/task.yaml\n"), err
    assert (ws / NEW_FOLDER / ".env").read_text() == SECRET


def test_without_a_repository_a_draft_copies_nothing_the_command_line_did_not_name(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    root = copy_sample(tmp_path)
    source = "fixtures/feature-change/config-v2-migration/v1-example.toml"
    plant(root, "task-20250101-000000-abcdef", source, file="v1.toml")
    before = tree(root)
    code, _, err = new(capsys, str(root), "--resume", "--no-input")
    assert code == 2 and "no git repository" in err
    assert tree(root) == before
    # named here, it is copied
    monkeypatch.chdir(root)
    (root / DRAFTS_FOLDER / "task-20250101-000000-abcdef.json").unlink()
    flags = ["--class", "bug-diagnosis", "--id", "login-timeout", "--prompt", "p", "--ground-truth"]
    flags += ["g", "--boundary", "unit", "--context-file", source, "--no-input"]
    code, out, err = new(capsys, str(root), *flags)
    assert (code, out) == (0, f"{NEW_FOLDER}/task.yaml\n"), err


def test_the_dry_run_shows_every_source(ws: Path, capsys: pytest.CaptureFixture[str]) -> None:
    source = "fixtures/feature-change/config-v2-migration/v1-example.toml"
    plant(ws, "task-20250101-000000-abcdef", source, file="repo/config.sample")
    code, out, err = new(capsys, str(ws), "--resume", "--dry-run")
    assert code == 0 and "file: repo/config.sample" in out
    assert f"copies {source} to {NEW_FOLDER}/repo/config.sample" in err
    code, out, _ = new(capsys, str(ws), "--resume", "--dry-run", "--format", "json")
    assert json.loads(out)["copies"] == [
        {"source": source, "target": f"{NEW_FOLDER}/repo/config.sample"}
    ]
    # a refused source is shown too, with the reason
    plant(ws, "task-20250101-000000-abcdef", ".env")
    code, out, err = new(capsys, str(ws), "--resume", "--dry-run")
    assert code == 2 and ".env" in err and "not a file git tracks" in err


def test_a_draft_from_the_future_is_not_the_newest(ws: Path) -> None:
    store = DraftStore(Workspace.load(ws))
    store.save("task-real", complete_task(prompt="the real one"), "prompt")
    store.save("task-planted", complete_task(prompt="planted"), "prompt")
    planted = ws / DRAFTS_FOLDER / "task-planted.json"
    payload = json.loads(planted.read_text())
    for saved_at in ("2999-01-01T00:00:00+00:00", "9999", "not a date", "2999-01-01T00:00:00"):
        payload["saved_at"] = saved_at
        planted.write_text(json.dumps(payload))
        latest = store.latest("task")
        assert latest is not None and latest.name == "task-real", saved_at
        assert store.load("task-planted").answers.prompt == "planted"  # by name: still there
        assert [d.name for d in store.drafts()[0]] == ["task-real", "task-planted"]


def test_a_draft_saved_a_moment_ahead_still_counts(ws: Path) -> None:
    """Clocks differ by a little (a draft saved on another machine of a shared folder)."""
    from datetime import UTC, datetime, timedelta

    store = DraftStore(Workspace.load(ws))
    store.save("task-old", complete_task(), "prompt")
    old = ws / DRAFTS_FOLDER / "task-old.json"
    payload = json.loads(old.read_text())
    payload["saved_at"] = "2020-01-01T00:00:00+00:00"
    old.write_text(json.dumps(payload))
    store.save("task-ahead", complete_task(), "prompt")
    ahead = ws / DRAFTS_FOLDER / "task-ahead.json"
    payload = json.loads(ahead.read_text())
    soon = datetime.now(UTC) + timedelta(minutes=2)
    payload["saved_at"] = soon.isoformat(timespec="seconds")
    ahead.write_text(json.dumps(payload))
    latest = store.latest("task")
    assert latest is not None and latest.name == "task-ahead"


def test_from_a_fixture_copies_only_what_git_tracks(
    ws: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """`--from` copies the context files the old fixture names: workspace content too."""
    folder = ws / "fixtures/feature-change/config-v2-migration"
    (folder / "v1-example.toml").write_text("changed after the commit: still tracked\n")
    authoring = Authoring.open(ws, use_git=False)
    answers = authoring.start_from("config-v2-migration")
    answers.id = "config-copy"
    assert not authoring.check(answers).blocking
    text = (folder / "task.yaml").read_text().replace("{file: v1-example.toml}", "{file: .env}")
    (folder / "task.yaml").write_text(text)
    (folder / ".env").write_text(SECRET)
    (ws / ".gitignore").write_text(".env\n.voyage/\nscratch/\n**/.env\n")
    authoring = Authoring.open(ws, use_git=False)
    answers = authoring.start_from("config-v2-migration")
    answers.id = "config-copy"
    codes = [d.code for d in authoring.check(answers).blocking]
    assert codes == ["context-source-unreadable"]


def test_naming_a_drafts_source_on_the_command_line_confirms_that_entry(
    ws: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """`--context-file .env` with `--resume`: the draft's entry for `.env` is now the person's
    own choice (copied where the draft puts it), not a second copy beside it."""
    plant(ws, "task-20250101-000000-abcdef", ".env")
    monkeypatch.chdir(ws)
    code, out, err = new(capsys, str(ws), "--resume", "--context-file", ".env", "--no-input")
    assert (code, out) == (0, f"{NEW_FOLDER}/task.yaml\n"), err
    assert (ws / NEW_FOLDER / "repo/config.sample").read_text() == SECRET
    assert not (ws / NEW_FOLDER / ".env").exists()
