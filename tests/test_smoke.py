"""The basics every other test builds on."""

from __future__ import annotations

from tests.conftest import task_yaml
from tests.helpers import codes, only, validate


def test_clean_workspace_has_no_errors(make_workspace):
    root = make_workspace({"fixtures/bug-diagnosis/t1/task.yaml": task_yaml("t1")})
    diagnostics = validate(root)
    assert [d for d in diagnostics if d.severity.value == "error"] == []


def test_invalid_class_points_at_the_value_with_a_suggestion(make_workspace):
    text = task_yaml("t1").replace("class: bug-diagnosis", "class: bug-diagnosys")
    root = make_workspace({"fixtures/bug-diagnosis/t1/task.yaml": text})
    d = only(validate(root), "invalid-class")
    assert (d.line, d.column) == (2, 8)
    assert "did you mean `bug-diagnosis`" in d.message
    assert "class-folder-mismatch" not in codes(validate(root))
