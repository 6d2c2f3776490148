"""A question that names a file shows the name as it is.

Dialogs took their question as Rich markup: a branch with the folders `[` and `x]y` made the
editor's "unsaved changes" question hold `[/x]y`, a closing tag that matches nothing, and the
dialog failed to draw (a MarkupError); `[reverse]` restyled the question.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.app.support import make_app, wait_loaded, wait_until
from tests.conftest import task_yaml
from voyage_tui.app.screens.modals import ChoiceScreen, retire_question, unsaved_changes


@pytest.mark.parametrize("make", [unsaved_changes, retire_question])
async def test_a_name_holding_markup_is_shown_as_written(make, make_workspace) -> None:
    root: Path = make_workspace({"fixtures/bug-diagnosis/t1/task.yaml": task_yaml("t1")})
    name = "fixtures/[/x]y [reverse]z\x1b[31m/task.yaml"
    app = make_app(root)
    async with app.run_test(size=(120, 40)) as pilot:
        await wait_loaded(pilot)
        app.push_screen(make(name))
        await wait_until(pilot, lambda: isinstance(app.screen, ChoiceScreen))
        await pilot.pause()
        shown = str(app.screen.query_one(".question").render())
        assert "fixtures/[/x]y [reverse]z\\x1b[31m/task.yaml" in shown
        await pilot.press("escape")
