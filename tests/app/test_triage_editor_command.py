"""`e` in triage opens $EDITOR at the item's line, for the editors known to take one."""

from __future__ import annotations

import pytest

from voyage_tui.app.screens.editor import editor_command


@pytest.mark.parametrize(
    ("editor", "expected"),
    [
        ("vim", ["vim", "+12", "/w/t.yaml"]),
        ("/usr/bin/nvim", ["/usr/bin/nvim", "+12", "/w/t.yaml"]),
        ("emacsclient -t", ["emacsclient", "-t", "+12", "/w/t.yaml"]),
        ("nano", ["nano", "+12", "/w/t.yaml"]),
        ("hx", ["hx", "/w/t.yaml:12"]),
        ("code --wait", ["code", "--wait", "--goto", "/w/t.yaml:12"]),
        ("myeditor --flag", ["myeditor", "--flag", "/w/t.yaml"]),
        ("", ["vi", "+12", "/w/t.yaml"]),
    ],
)
def test_the_line_is_passed_the_way_each_editor_takes_it(editor: str, expected: list[str]) -> None:
    assert editor_command(editor, "/w/t.yaml", 12) == expected


def test_without_a_line_the_file_alone() -> None:
    assert editor_command("vim", "/w/t.yaml") == ["vim", "/w/t.yaml"]
    assert editor_command("vim", "/w/t.yaml", 0) == ["vim", "/w/t.yaml"]
