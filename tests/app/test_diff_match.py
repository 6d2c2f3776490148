"""`voyage-tui diff --match seed`: the diff screen scores (file, rule_key) only and says so."""

from __future__ import annotations

from tests.app.scenarios import copy_sample
from tests.app.test_diff_inputs import _settled, _text
from voyage_tui.app.app import VoyageApp
from voyage_tui.app.loose_diff import LooseDiffApp
from voyage_tui.app.settings import AppSettings
from voyage_tui.cli import diff_cmd
from voyage_tui.engine.workspace.model import Workspace

GOLD = "fixtures/gold/jwt-auth/gold.json"
RUN = "fixtures/gold/jwt-auth/runs/run-dual-flaggable.json"


async def _figures(root, match: str) -> tuple[str, object]:
    settings = AppSettings(use_git=False, watch=False, keymap={}, initial_diff=(GOLD, RUN))
    if match != "default":
        settings = AppSettings(
            use_git=False, watch=False, keymap={}, initial_diff=(GOLD, RUN), match=match
        )  # type: ignore[arg-type]
    app = VoyageApp(Workspace.load(root), settings)
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await _settled(pilot)
        assert screen.scored is not None
        return _text(screen, "#diff-figures"), screen.scored.score


async def test_the_diff_screen_scores_in_seed_mode_when_asked(tmp_path) -> None:
    root = copy_sample(tmp_path)
    dual_text, dual = await _figures(root, "default")
    seed_text, seed = await _figures(root, "seed")
    via_dual = sum(m.via == "dual_flaggable" for m in dual.matched)  # type: ignore[attr-defined]
    assert via_dual == 3
    assert all(m.via == "rule_key" for m in seed.matched)  # type: ignore[attr-defined]
    # each match via dual_flaggable becomes a missed gold key and a spurious run key
    assert (seed.tp, seed.fp, seed.fn) == (dual.tp - 3, dual.fp + 3, dual.fn + 3)  # type: ignore[attr-defined]
    assert "match seed" in seed_text and "match seed" not in dual_text


def test_the_diff_command_passes_match_on(tmp_path, monkeypatch, capsys) -> None:
    root = copy_sample(tmp_path)
    opened: list[object] = []

    def fake_run(self, *args, **kwargs) -> int:
        opened.append(self)
        return 0

    monkeypatch.setattr(VoyageApp, "run", fake_run)
    monkeypatch.setattr(LooseDiffApp, "run", fake_run)
    gold, run = str(root / GOLD), str(root / RUN)
    assert diff_cmd.run([gold, run, "--match", "seed", "--no-git", "--no-watch"]) == 0
    (app,) = opened
    assert isinstance(app, VoyageApp) and app.settings.match == "seed"
    catalogue = root / "fixtures/references/rule-catalogue.yaml"
    assert diff_cmd.run([gold, run, "--match", "seed", "--catalogue", str(catalogue)]) == 0
    assert isinstance(opened[1], LooseDiffApp) and opened[1].inputs.match == "seed"
