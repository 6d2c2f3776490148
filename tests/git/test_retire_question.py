"""The question asked before a retire, one for every face: its words and its answers' meaning."""

from __future__ import annotations

import pytest

from voyage_tui.engine.git.retire_question import COMMIT, ONLY, RetireQuestion, retire_question


def test_one_file_is_named_and_the_answers_are_commit_then_retire_only() -> None:
    question = retire_question(["fixtures/a/t1/task.yaml"])
    assert "Retire fixtures/a/t1/task.yaml from holdout?" in question.text
    assert question.answers == (COMMIT, ONLY)


def test_many_files_are_one_question_that_counts_them() -> None:
    paths = [f"fixtures/a/t{n}/task.yaml" for n in range(5)]
    text = retire_question(paths).text
    assert text.startswith("Retire 5 holdouts from holdout (fixtures/a/t0/task.yaml, ")
    assert "and 2 more" in text
    assert "fixtures/a/t3/task.yaml" not in text


@pytest.mark.parametrize(
    ("answer", "commit"),
    [("commit", True), ("retire", False), ("cancel", None), (None, None), ("yes", None)],
)
def test_what_an_answer_means(answer: str | None, commit: bool | None) -> None:
    assert RetireQuestion.commit_for(answer) is commit


def test_a_retire_of_nothing_is_not_asked() -> None:
    with pytest.raises(ValueError):
        retire_question([])
