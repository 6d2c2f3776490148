"""The diff screen loads gold and run files as `score` does: on loose files (no workspace) it shows
figures, and a gold file `score` refuses gets a banner with that file's errors instead of figures."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from textual.widgets import Static

from tests.app.scenarios import copy_sample
from tests.app.support import wait_until
from tests.scoring.common import dump, finding, gold_finding, gold_record, payload
from voyage_tui.app.app import VoyageApp
from voyage_tui.app.loose_diff import LooseDiffApp
from voyage_tui.app.screens.diff import DiffScreen
from voyage_tui.app.settings import AppSettings
from voyage_tui.cli import diff_cmd, main
from voyage_tui.engine.review.inputs import ReviewInputs
from voyage_tui.engine.rules.gold_run_files import choose_catalogue
from voyage_tui.engine.workspace.model import Workspace

GOLD = "fixtures/gold/jwt-auth/gold.json"
RUN = "fixtures/gold/jwt-auth/runs/run-perfect.json"


def _text(screen: DiffScreen, selector: str) -> str:
    widget = screen.query_one(selector, Static)
    return str(widget.content) if widget.display else ""


async def _settled(pilot) -> DiffScreen:
    app = pilot.app
    await wait_until(
        pilot,
        lambda: (
            isinstance(app.screen, DiffScreen)
            and (app.screen.scored is not None or app.screen.problems is not None)
        ),
    )
    await pilot.pause()
    return app.screen  # type: ignore[return-value]


@pytest.fixture
def loose(tmp_path: Path) -> tuple[Path, Path]:
    folder = tmp_path / "loose"
    folder.mkdir()
    gold = folder / "gold.json"
    run = folder / "run.json"
    gold.write_text(
        dump(
            gold_record(
                [
                    gold_finding("a.py", 3, "house-auth-bypass", "BLOCKER"),
                    gold_finding("b.py", 9, "house-naming", "MINOR"),
                ]
            )
        ),
        encoding="utf-8",
    )
    run.write_text(
        dump([payload("correctness", finding("a.py", 3, "house-auth-bypass", "BLOCKER"))]),
        encoding="utf-8",
    )
    return gold, run


async def test_the_diff_of_loose_files_shows_figures(loose) -> None:
    gold, run = (str(p) for p in loose)
    app = LooseDiffApp(ReviewInputs.named(choose_catalogue(gold)), gold, run, keymap={})
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await _settled(pilot)
        assert screen.scored is not None
        figures = _text(screen, "#diff-figures")
        assert "tp 1" in figures and "fn 1" in figures and "F1 0.667" in figures
        assert figures.count("rule keys were not checked") == 1
        assert _text(screen, "#diff-banner") == ""
        await pilot.press("escape")
        await pilot.pause()
    assert app.return_code == 0


def test_the_diff_command_opens_loose_files(loose, monkeypatch, capsys) -> None:
    """It used to refuse them ("no workspace", exit 2)."""
    opened: list[object] = []

    def fake_run(self, *args, **kwargs) -> int:
        opened.append(self)
        return 0

    monkeypatch.setattr(LooseDiffApp, "run", fake_run)
    monkeypatch.setattr(VoyageApp, "run", fake_run)
    gold, run = (str(p) for p in loose)
    assert diff_cmd.run([gold, run]) == 0, capsys.readouterr().err
    assert [type(app) for app in opened] == [LooseDiffApp]


BLOCKER_LINE = re.compile(r'"severity": "BLOCKER"')


def _lower_one_severity(path: Path) -> None:
    text = path.read_text(encoding="utf-8")
    path.write_text(BLOCKER_LINE.sub('"severity": "blocker"', text, count=1), encoding="utf-8")


async def test_a_gold_file_that_score_refuses_gets_a_banner_not_figures(tmp_path, capsys) -> None:
    root = copy_sample(tmp_path)
    _lower_one_severity(root / GOLD)

    # `score` refuses the file, with its diagnostics on stderr
    assert main(["score", "--gold", str(root / GOLD), "--run", str(root / RUN)]) == 2
    err = capsys.readouterr().err
    refused = set(re.findall(r":(\d+):(\d+): error ([a-z-]+):", err))
    assert ("9", "88", "invalid-severity") in refused

    app = VoyageApp(
        Workspace.load(root),
        AppSettings(use_git=False, watch=False, keymap={}, initial_diff=(GOLD, RUN)),
    )
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await _settled(pilot)
        assert screen.scored is None
        assert screen.problems is not None
        banner = _text(screen, "#diff-banner")
        assert "invalid-severity" in banner and f"{GOLD}:9:88" in banner
        assert _text(screen, "#diff-figures") == ""
        shown = {(str(d.line), str(d.column), d.code) for d in screen.problems}
    # one decision: the banner lists exactly what `score` printed
    assert shown == refused


async def test_the_diff_of_loose_files_checks_a_named_catalogue(loose, tmp_path) -> None:
    catalogue = tmp_path / "catalogue.json"
    catalogue.write_text(json.dumps(["house-auth-bypass"]), encoding="utf-8")
    gold, run = (str(p) for p in loose)
    app = LooseDiffApp(
        ReviewInputs.named(choose_catalogue(gold, str(catalogue))), gold, run, keymap={}
    )
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await _settled(pilot)
        assert screen.scored is None
        assert "unknown-rule-key" in _text(screen, "#diff-banner")
        assert _text(screen, "#diff-figures") == ""
