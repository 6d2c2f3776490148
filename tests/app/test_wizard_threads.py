"""The wizard works off the UI thread through the screen base's one helper (`run_in_thread`):
no generation counters, busy counts or `gone` checks of its own, and the same behaviour: only
the newest check of the answers is shown, and the wizard is not settled until it is."""

from __future__ import annotations

import re
import threading
from pathlib import Path

import pytest

from tests.app.support import make_app, wait_until
from tests.app.test_wizard_checklists import open_at
from tests.app.wizard_support import settled
from voyage_tui.engine.authoring import Answers, Authoring, Checked

SCREENS = Path(__file__).resolve().parents[2] / "voyage_tui" / "app" / "screens"


@pytest.mark.parametrize("name", ["wizard.py", "wizard_journey.py", "wizard_forms.py"])
def test_the_wizard_keeps_no_thread_bookkeeping_of_its_own(name: str) -> None:
    source = (SCREENS / name).read_text()
    for pattern in (r"@work\b", r"call_from_thread", r"_seq\b", r"\.gone\b", r"_shown"):
        assert not re.search(pattern, source), f"{name}: {pattern}"


async def test_only_the_newest_check_is_shown(
    sample_copy: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    release = threading.Event()
    finished: list[str] = []
    check = Authoring.check

    def slow_second(self: Authoring, answers: Answers) -> Checked:
        if answers.prompt == "second":
            assert release.wait(10)
        result = check(self, answers)
        finished.append(answers.prompt)
        return result

    async with make_app(sample_copy).run_test(size=(80, 24)) as pilot:
        wizard = await open_at(pilot, "prompt", kind="task")
        await settled(pilot, wizard)
        monkeypatch.setattr(Authoring, "check", slow_second)
        wizard.answers.prompt = "first"
        wizard.check_now()
        wizard.answers.prompt = "second"
        wizard.check_now()
        await wait_until(pilot, lambda: finished == ["first"])
        await pilot.pause()
        await pilot.pause()
        assert wizard.checked is not None and "first" not in wizard.checked.text
        assert not wizard.settled
        release.set()
        await wait_until(pilot, lambda: wizard.settled)
        assert "second" in wizard.checked.text
