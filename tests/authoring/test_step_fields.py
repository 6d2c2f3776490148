"""Each wizard step's text answer is bound through typed functions (`Step.text`), not an
attribute's name: every step a text or choice form shows has one, each writes exactly its own
field of its kind's answers, and no wizard form reaches the answers by a name string."""

from __future__ import annotations

import dataclasses
import re
from pathlib import Path

import pytest

import voyage_tui
from voyage_tui.engine.authoring.answers import TaskAnswers, TrajectoryAnswers
from voyage_tui.engine.authoring.steps import TASK_STEPS, TRAJECTORY_STEPS, Step

OWN_WIDGET = {"kind", "context", "scoring_notes", "preview", "phases", "gates", "routing"}
"""Steps whose form edits the answers itself (a list, a table, the kind's own switch)."""

EXPECTED_FIELD = {
    "class": "fixture_class",
}
"""Step name -> the answers' attribute, where they differ (only to check the bindings)."""


def _cases() -> list[tuple[Step, type[TaskAnswers] | type[TrajectoryAnswers]]]:
    return [(s, TaskAnswers) for s in TASK_STEPS] + [
        (s, TrajectoryAnswers) for s in TRAJECTORY_STEPS
    ]


@pytest.mark.parametrize(("step", "kind"), _cases(), ids=lambda v: getattr(v, "name", str(v)))
def test_every_text_and_choice_step_has_a_typed_binding(step: Step, kind: type) -> None:
    if step.name in OWN_WIDGET:
        assert step.text is None
        return
    assert step.text is not None, f"{step.name}: a text or choice step needs `text=`"
    answers = kind()
    before = dataclasses.asdict(answers)
    step.text.set(answers, "a-value")
    assert step.text.get(answers) == "a-value"
    after = dataclasses.asdict(answers)
    changed = [name for name in before if before[name] != after[name]]
    assert changed == [EXPECTED_FIELD.get(step.name, step.name)]


def test_a_tasks_step_asked_of_a_trajectory_is_refused() -> None:
    (klass,) = [s for s in TASK_STEPS if s.name == "class"]
    assert klass.text is not None
    with pytest.raises(TypeError):
        klass.text.get(TrajectoryAnswers())
    (path,) = [s for s in TRAJECTORY_STEPS if s.name == "path"]
    assert path.text is not None
    with pytest.raises(TypeError):
        path.text.set(TaskAnswers(), "full")


def test_no_wizard_module_reaches_the_answers_by_name() -> None:
    root = Path(voyage_tui.__file__).parent
    modules = [*root.glob("app/screens/wizard*.py"), *root.glob("engine/authoring/*.py")]
    by_name = re.compile(r"\b(getattr|setattr)\(\s*(self\.)?answers\b")
    offenders = [p.name for p in modules if by_name.search(p.read_text(encoding="utf-8"))]
    assert offenders == []
