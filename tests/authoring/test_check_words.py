"""What the wizard and `new` say about answers: whole sentences (a capital letter where the
message starts with a word, a full stop, what to do), and a missing answer of a file not yet
written is not placed at `1:1` (the file has no lines yet: the step or the flag says where)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.authoring.test_check import complete_task
from tests.authoring.test_cli_new import run
from voyage_tui.engine.authoring import Authoring, ContextEntry, GateMark, TrajectoryAnswers
from voyage_tui.engine.wording import sentence


def test_sentence_capitalises_a_plain_first_word_and_ends_with_a_full_stop() -> None:
    assert sentence("required field `id` is missing; add it") == (
        "Required field `id` is missing; add it."
    )
    assert sentence("gate-2 is recorded") == "gate-2 is recorded."  # a name keeps its case
    assert sentence("notes/.env does not exist") == "notes/.env does not exist."
    assert sentence("`visibility` is 'x'; did you mean `public`?") == (
        "`visibility` is 'x'; did you mean `public`?"
    )
    assert sentence("Done.") == "Done."


def test_every_message_about_answers_is_a_whole_sentence(authoring: Authoring) -> None:
    task = complete_task(id="Login Timeout", fixture_class="adversarial", prompt="")
    task.context = [ContextEntry(file="task.yaml", source="fixtures/rubric.md", named=True)]
    trajectory = authoring.new("trajectory")
    assert isinstance(trajectory, TrajectoryAnswers)
    trajectory.id = "fixture-one"
    trajectory.gates[0] = GateMark(1, description="intake", verdict="")
    trajectory.gates[1] = GateMark(2, recorded=False)
    messages = [
        d.message for answers in (task, trajectory) for d in authoring.check(answers).diagnostics
    ]
    assert len(messages) >= 6, messages
    for message in messages:
        assert message.endswith((".", "?")), message
        assert not message[0].islower(), message


def test_a_missing_answer_is_not_placed_at_the_first_line(authoring: Authoring) -> None:
    answers = authoring.new("task")
    missing = [d for d in authoring.check(answers).diagnostics if d.code == "missing-field"]
    assert len(missing) >= 4
    assert all(d.line is None and d.column is None for d in missing), missing


def test_new_lists_missing_answers_without_a_place(
    sample_copy: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, _, err = run(capsys, "new", "task", str(sample_copy), "--no-input")
    assert code == 2
    lines = [line for line in err.splitlines() if "missing-field" in line]
    assert lines and all(":1:1:" not in line for line in lines), lines
    assert "task.yaml: error missing-field: Required field `id` is missing" in lines[0]
    assert lines[0].endswith(". [--id]"), lines[0]
