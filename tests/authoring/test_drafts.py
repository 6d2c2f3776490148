"""Drafts: saved atomically inside the workspace, read back strictly; a draft that cannot be
resumed is a diagnostic, never a crash, and never read or written through a symlink."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from tests.authoring.test_check import complete_task
from voyage_tui.engine.atomic import WriteRefused
from voyage_tui.engine.authoring import Authoring, DraftUnusable
from voyage_tui.engine.authoring.drafts import DRAFTS_FOLDER, DraftStore


def drafts_dir(root: Path) -> Path:
    return root / DRAFTS_FOLDER


def test_a_draft_is_saved_after_a_step_and_resumed(authoring: Authoring, sample_copy: Path) -> None:
    answers = complete_task(visibility="holdout")
    authoring.check(answers)  # gives the canary
    name = authoring.drafts.new_name("task")
    rel = authoring.drafts.save(name, answers, "visibility")
    assert rel == f".voyage/drafts/{name}.json"
    payload = json.loads((sample_copy / rel).read_text())
    assert payload["format"] == "voyage-draft/1"
    assert payload["step"] == "visibility"
    resumed = authoring.drafts.latest("task")
    assert resumed is not None and resumed.name == name
    assert resumed.answers == answers and resumed.step == "visibility"
    assert authoring.drafts.latest("trajectory") is None
    # saving again replaces it, no temp file stays
    answers.prompt = "Changed."
    authoring.drafts.save(name, answers, "prompt")
    assert os.listdir(drafts_dir(sample_copy)) == [f"{name}.json"]
    assert authoring.drafts.load(name).answers.prompt == "Changed."


@pytest.mark.parametrize(
    ("content", "why"),
    [
        (b"{not json", "not JSON"),
        (b"\xff\xfe", "not JSON"),
        (b"[]", "not a draft of this version"),
        (json.dumps({"format": "voyage-draft/9"}).encode(), "not a draft of this version"),
        (json.dumps({"format": "voyage-draft/1", "answers": {"kind": "poem"}}).encode(), "`kind`"),
        (
            json.dumps(
                {"format": "voyage-draft/1", "answers": {"kind": "task", "context": "x"}}
            ).encode(),
            "`answers.context` is not a list",
        ),
        (
            json.dumps(
                {
                    "format": "voyage-draft/1",
                    "answers": {"kind": "trajectory", "phases": [{"number": True}]},
                }
            ).encode(),
            "not a whole number",
        ),
        (
            b'{"format": "voyage-draft/1", "answers": {"kind": "task", "harness_constraints": NaN}}',
            "not JSON",
        ),
        (b"[" * 100_000, "not JSON"),
    ],
)
def test_a_corrupt_draft_is_a_diagnostic(sample_copy: Path, content: bytes, why: str) -> None:
    store = DraftStore(Authoring.open(sample_copy, use_git=False).ws)
    drafts_dir(sample_copy).mkdir(parents=True)
    (drafts_dir(sample_copy) / "task-bad.json").write_bytes(content)
    with pytest.raises(DraftUnusable) as raised:
        store.load("task-bad")
    problem = raised.value.diagnostic
    assert problem.code == "draft-corrupt"
    assert problem.path == ".voyage/drafts/task-bad.json"
    assert why in problem.message
    found, problems = store.drafts()
    assert found == [] and [p.code for p in problems] == ["draft-corrupt"]


def test_a_draft_that_is_a_symlink_is_not_read(sample_copy: Path, tmp_path: Path) -> None:
    secret = tmp_path / "secret.json"
    secret.write_text(json.dumps({"format": "voyage-draft/1", "answers": {"kind": "task"}}))
    drafts_dir(sample_copy).mkdir(parents=True)
    os.symlink(secret, drafts_dir(sample_copy) / "task-link.json")
    store = DraftStore(Authoring.open(sample_copy, use_git=False).ws)
    with pytest.raises(DraftUnusable, match="symlink"):
        store.load("task-link")


def test_a_drafts_folder_that_leads_out_of_the_workspace_is_neither_read_nor_written(
    sample_copy: Path, tmp_path: Path
) -> None:
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "task-x.json").write_text(
        json.dumps({"format": "voyage-draft/1", "answers": {"kind": "task"}})
    )
    os.symlink(outside, sample_copy / ".voyage")
    store = DraftStore(Authoring.open(sample_copy, use_git=False).ws)
    assert store.drafts() == ([], [])
    with pytest.raises(DraftUnusable):
        store.load("task-x")
    with pytest.raises(WriteRefused):
        store.save("task-y", complete_task(), "prompt")
    store.delete("task-x")
    assert sorted(os.listdir(outside)) == ["task-x.json"]


def test_a_name_that_is_not_a_draft_name_is_refused(authoring: Authoring) -> None:
    with pytest.raises(DraftUnusable):
        authoring.drafts.load("../../voyage")
    with pytest.raises(ValueError):
        authoring.drafts.save("../x", complete_task(), "id")
    authoring.drafts.delete("../x")  # nothing to do, no error


def test_a_huge_draft_is_refused_unread(sample_copy: Path) -> None:
    drafts_dir(sample_copy).mkdir(parents=True)
    with open(drafts_dir(sample_copy) / "task-huge.json", "wb") as handle:
        handle.truncate(9 << 20)
    store = DraftStore(Authoring.open(sample_copy, use_git=False).ws)
    with pytest.raises(DraftUnusable, match="bytes"):
        store.load("task-huge")


def test_drafts_are_never_validated_as_part_of_the_suite(
    authoring: Authoring, sample_copy: Path
) -> None:
    from voyage_tui.engine.validation.suite import Suite

    before = Suite.open(sample_copy, use_git=False).diagnostics()
    authoring.drafts.save(authoring.drafts.new_name("task"), complete_task(), "id")
    (drafts_dir(sample_copy) / "task-bad.json").write_text("{")
    assert Suite.open(sample_copy, use_git=False).diagnostics() == before
