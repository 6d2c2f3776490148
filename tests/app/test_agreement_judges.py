"""The agreement screen's judge section (SPEC 3.11): per judge and dimension, its kappa with
the people against theirs among themselves; hidden without a judge."""

from __future__ import annotations

import json
from pathlib import Path

from textual.widgets import Static

from tests.app.scenarios import copy_sample
from tests.app.support import wait_until
from voyage_tui.app.app import VoyageApp
from voyage_tui.app.screens.agreement import AgreementScreen
from voyage_tui.app.settings import AppSettings
from voyage_tui.engine.workspace.model import Workspace


def plant_judge(root: Path) -> None:
    """A judge that answers as alice did, on every run she rated."""
    ws = Workspace.load(root)
    folder = root / ws.ratings_rel
    lines = []
    for line in (folder / "alice.jsonl").read_text(encoding="utf-8").splitlines():
        record = json.loads(line)
        record.update(
            rater="robo",
            rater_kind="program",
            judge={"command_sha256": "ab" * 32, "repeat": 1},
        )
        lines.append(json.dumps(record))
    (folder / "robo.jsonl").write_text("\n".join(lines) + "\n", encoding="utf-8")


async def section(root: Path, expect: bool) -> tuple[bool, str]:
    app = VoyageApp(Workspace.load(root), AppSettings(use_git=False, watch=False, keymap={}))
    async with app.run_test(size=(120, 40)) as pilot:
        await wait_until(pilot, lambda: app.view is not None)
        screen = AgreementScreen()
        app.push_screen(screen)
        await wait_until(pilot, lambda: screen.report is not None and screen.working == 0)
        found = screen.query_one("#agreement-judges", Static)
        if expect:
            await wait_until(pilot, lambda: bool(found.display))
        else:
            await pilot.pause(0.3)
        # read inside the app: after it ends the widget is unmounted
        return bool(found.display), str(found.render())


async def test_the_judge_section_shows_each_judge_against_the_people(tmp_path: Path) -> None:
    root = copy_sample(tmp_path)
    plant_judge(root)
    shown, text = await section(root, True)
    assert shown
    assert "Judges" in text and "robo" in text and " vs " in text
    # robo is alice's copy: it is no person, so the people's figures do not change
    assert "alice" not in text


async def test_no_judge_no_section(tmp_path: Path) -> None:
    shown, _ = await section(copy_sample(tmp_path), False)
    assert not shown
