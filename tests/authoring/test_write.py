"""Writing: only a document with nothing to say against it, into a folder of its own; a refused
or failed write leaves the workspace exactly as it was."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings

from tests.authoring.conftest import tree
from tests.authoring.strategies import arbitrary_answers
from tests.authoring.test_check import complete_task
from tests.budget import examples
from voyage_tui.engine.atomic import WriteRefused
from voyage_tui.engine.authoring import Answers, Authoring, ContextEntry, NotWritten
from voyage_tui.engine.authoring import write as write_module
from voyage_tui.engine.authoring.write import claim_folder
from voyage_tui.engine.validation.suite import Suite
from voyage_tui.engine.workspace import writes

V1 = "fixtures/feature-change/config-v2-migration/v1-example.toml"


def test_a_complete_task_is_written_atomically_into_its_own_folder(
    authoring: Authoring, sample_copy: Path
) -> None:
    written = authoring.write(complete_task())
    assert written.path == "fixtures/bug-diagnosis/login-timeout/task.yaml"
    assert written.files == (written.path,)
    text = (sample_copy / written.path).read_text(encoding="utf-8")
    assert text.startswith("id: login-timeout\nclass: bug-diagnosis\nprompt: |\n  The login page")
    assert Suite.open(sample_copy, use_git=False).diagnostics_for(written.path) == []
    leftovers = [p for p in os.listdir(sample_copy / "fixtures/bug-diagnosis/login-timeout")]
    assert leftovers == ["task.yaml"]  # no temp file stays


@settings(
    max_examples=examples(40),
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture],
)
@given(answers=arbitrary_answers)
def test_a_refused_answer_writes_nothing(
    authoring: Authoring, sample_copy: Path, answers: Answers
) -> None:
    # One session for all the examples (opening one validates the whole sample): a refused
    # write leaves the workspace as it was, which is what each example asserts.
    checked = authoring.check(answers)
    if checked.writable:
        return  # the rare complete answer: the other property covers it
    before = tree(sample_copy)
    with pytest.raises(NotWritten) as refused:
        authoring.write(answers)
    assert refused.value.problems or "<" in checked.rel
    assert tree(sample_copy) == before


def test_a_folder_that_appears_before_the_write_refuses_it(
    authoring: Authoring, sample_copy: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    answers = complete_task()
    real_claim = write_module.claim_folder

    def someone_was_faster(ws: object, rel: str) -> list[str]:
        (sample_copy / rel).mkdir()
        (sample_copy / rel / "theirs.txt").write_text("their work")
        return real_claim(ws, rel)  # type: ignore[arg-type]

    monkeypatch.setattr(write_module, "claim_folder", someone_was_faster)
    with pytest.raises(NotWritten) as refused:
        authoring.write(answers)
    assert [p.code for p in refused.value.problems] == ["fixture-exists"]
    folder = sample_copy / "fixtures/bug-diagnosis/login-timeout"
    assert sorted(os.listdir(folder)) == ["theirs.txt"]


def test_context_files_and_folders_are_copied_in(authoring: Authoring, sample_copy: Path) -> None:
    scripts = sample_copy / "fixtures/bug-diagnosis/pagination-last-page-dropped/repo"
    run = scripts / "run.sh"
    run.write_text("#!/bin/sh\npytest -q\n")
    run.chmod(0o755)
    answers = complete_task(
        context=[
            ContextEntry(file="v1-example.toml", source=V1, named=True),
            ContextEntry(text="The repo is below."),
            ContextEntry(file="repo", source=str(scripts.relative_to(sample_copy)), named=True),
        ]
    )
    assert authoring.check(answers).diagnostics == []
    written = authoring.write(answers)
    folder = sample_copy / "fixtures/bug-diagnosis/login-timeout"
    assert (folder / "v1-example.toml").read_bytes() == (sample_copy / V1).read_bytes()
    assert (folder / "repo/src/catalog/pagination.py").read_bytes() == (
        scripts / "src/catalog/pagination.py"
    ).read_bytes()
    assert os.stat(folder / "repo/run.sh").st_mode & 0o111
    assert written.files[-1] == written.path
    assert Suite.open(sample_copy, use_git=False).diagnostics_for(written.path) == []


def test_a_failed_write_removes_what_it_made(
    authoring: Authoring, sample_copy: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    answers = complete_task(context=[ContextEntry(file="v1-example.toml", source=V1, named=True)])
    real_write = write_module.write_file

    def disk_full(ws: object, path: object, data: bytes, **kwargs: object) -> str:
        if str(path).endswith("task.yaml"):
            raise OSError(28, "No space left on device")
        return real_write(ws, path, data, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(write_module, "write_file", disk_full)
    before = tree(sample_copy)
    with pytest.raises(OSError, match="No space"):
        authoring.write(answers)
    assert tree(sample_copy) == before


def test_a_class_folder_that_is_a_symlink_out_of_the_workspace_is_refused(
    authoring: Authoring, sample_copy: Path, tmp_path: Path
) -> None:
    outside = tmp_path / "outside"
    outside.mkdir()
    os.symlink(outside, sample_copy / "fixtures/refactor-out")
    answers = complete_task(fixture_class="refactor")
    answers.id = "new-one"
    # the class folder itself is swapped for a link out
    os.rename(sample_copy / "fixtures/refactor", sample_copy / "fixtures/refactor-moved")
    os.symlink(outside, sample_copy / "fixtures/refactor")
    with pytest.raises(WriteRefused):
        claim_folder(authoring.ws, "fixtures/refactor/new-one")
    assert list(outside.iterdir()) == []


def test_a_folder_on_the_way_swapped_for_a_symlink_is_never_followed(
    authoring: Authoring, sample_copy: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The check of the real path is made first; a swap after it meets O_NOFOLLOW."""
    outside = tmp_path / "elsewhere"
    outside.mkdir()
    real_lexists = os.path.lexists

    def check_then_swap(path: str) -> bool:
        answer = real_lexists(path)
        target = sample_copy / "fixtures/spec-ambiguity"
        if not target.is_symlink():
            os.rename(target, sample_copy / "fixtures/spec-ambiguity-moved")
            os.symlink(outside, target)
        return answer

    monkeypatch.setattr(write_module.os.path, "lexists", check_then_swap)
    with pytest.raises(WriteRefused):
        claim_folder(authoring.ws, "fixtures/spec-ambiguity/new-one")
    assert list(outside.iterdir()) == []


def test_a_class_folder_that_is_a_symlink_inside_the_workspace_is_refused(
    authoring: Authoring, sample_copy: Path
) -> None:
    os.rename(sample_copy / "fixtures/refactor", sample_copy / "fixtures/refactor-moved")
    os.symlink("refactor-moved", sample_copy / "fixtures/refactor")
    with pytest.raises(WriteRefused, match="symlink"):
        claim_folder(authoring.ws, "fixtures/refactor/new-one")
    assert not (sample_copy / "fixtures/refactor-moved/new-one").exists()


def test_missing_folders_on_the_way_are_made_and_removed_again(
    authoring: Authoring, sample_copy: Path
) -> None:
    made = claim_folder(authoring.ws, "fixtures/brand-new/one")
    assert [Path(p).name for p in made] == ["brand-new", "one"]
    write_module._undo([], made)
    assert not (sample_copy / "fixtures/brand-new").exists()


def test_the_draft_is_deleted_once_the_fixture_is_written(authoring: Authoring) -> None:
    answers = complete_task()
    name = authoring.drafts.new_name("task")
    authoring.drafts.save(name, answers, "preview")
    assert authoring.drafts.latest("task") is not None
    authoring.write(answers, draft=name)
    assert authoring.drafts.latest("task") is None


def test_the_workspace_writer_is_what_writes(
    monkeypatch: pytest.MonkeyPatch, authoring: Authoring
) -> None:
    """Every byte goes through the engine's workspace writer (no open(..., 'w') of our own)."""
    calls: list[str] = []
    real = writes.write_file

    def counting(ws: object, path: object, data: bytes, **kwargs: object) -> str:
        calls.append(str(path))
        return real(ws, path, data, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(write_module, "write_file", counting)
    authoring.write(complete_task(context=[ContextEntry(file="v.toml", source=V1, named=True)]))
    assert calls == [
        "fixtures/bug-diagnosis/login-timeout/v.toml",
        "fixtures/bug-diagnosis/login-timeout/task.yaml",
    ]


def test_a_context_file_landing_inside_a_copied_folder_is_refused_before_writing(
    authoring: Authoring, sample_copy: Path
) -> None:
    repo = "fixtures/bug-diagnosis/pagination-last-page-dropped/repo"
    answers = complete_task(
        context=[
            ContextEntry(file="repo", source=repo, named=True),
            ContextEntry(file="repo/src/catalog/api.py", source=V1, named=True),
        ]
    )
    checked = authoring.check(answers)
    assert [d.code for d in checked.diagnostics] == ["context-ref-clash"]
    before = tree(sample_copy)
    with pytest.raises(NotWritten):
        authoring.write(answers)
    assert tree(sample_copy) == before


def test_a_copy_that_meets_a_file_already_there_is_not_written_and_leaves_nothing(
    authoring: Authoring, sample_copy: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Whatever the check missed, the writer never replaces a file it did not make."""
    answers = complete_task(
        context=[
            ContextEntry(file="a.toml", source=V1, named=True),
            ContextEntry(file="b.toml", source=V1, named=True),
        ]
    )
    checked = authoring.check(answers)
    monkeypatch.setattr(
        write_module,
        "_copies",
        lambda ws, checked, answers, folder, tracked: [
            (f"{folder}/a.toml", write_module.source_files(ws, V1)[0]),
            (f"{folder}/a.toml", write_module.source_files(ws, V1)[0]),
        ],
    )
    before = tree(sample_copy)
    with pytest.raises(NotWritten) as refused:
        write_module.write_fixture(authoring.ws, checked, answers)
    assert [p.code for p in refused.value.problems] == ["context-ref-clash"]
    assert tree(sample_copy) == before


@pytest.mark.parametrize(
    "source",
    [".git/config", ".voyage/drafts/x.json", "fixtures/bug-diagnosis/pagination-last-page-dropped"],
)
def test_a_context_source_in_git_or_tool_state_is_refused(
    git_sample: object, sample_copy: Path, source: str
) -> None:
    """A draft (workspace content) could name .git/config, which may hold a token in a remote
    URL: such a source is refused, as is a folder that holds one."""
    (sample_copy / ".voyage/drafts").mkdir(parents=True)
    (sample_copy / ".voyage/drafts/x.json").write_text("{}")
    (sample_copy / "fixtures/bug-diagnosis/pagination-last-page-dropped/.git").mkdir()
    (sample_copy / "fixtures/bug-diagnosis/pagination-last-page-dropped/.git/config").write_text(
        "[remote]\n\turl = https://token@example.com/x\n"
    )
    authoring = Authoring.open(sample_copy, use_git=False)
    answers = complete_task(context=[ContextEntry(file="copied", source=source, named=True)])
    checked = authoring.check(answers)
    assert [d.code for d in checked.diagnostics] == ["context-source-unreadable"]
    assert ".git" in checked.diagnostics[0].message or ".voyage" in checked.diagnostics[0].message
