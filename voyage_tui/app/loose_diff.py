"""`voyage-tui diff GOLD RUN` on files no workspace holds (or checked against a `--catalogue`):
the diff screen on its own, with no browser, no suite to load and nothing watched."""

from __future__ import annotations

from pathlib import Path, PurePath
from typing import ClassVar

from textual.binding import BindingType

from voyage_tui.app.actions import bindings
from voyage_tui.app.keymap import KeymappedApp
from voyage_tui.app.screens.diff import DiffScreen
from voyage_tui.engine.review.inputs import ReviewInputs

STYLES = Path(__file__).parent / "styles"


class LooseDiffApp(KeymappedApp):
    TITLE = "voyage-tui diff"
    CSS_PATH: ClassVar[list[str | PurePath]] = [STYLES / "app.tcss", STYLES / "review.tcss"]
    BINDINGS: ClassVar[list[BindingType]] = bindings("app")

    def __init__(
        self,
        inputs: ReviewInputs,
        gold: str,
        run: str,
        *,
        keymap: dict[str, str] | None = None,
    ) -> None:
        super().__init__(keymap)
        self.inputs = inputs
        self.gold = gold
        self.run_path = run

    def on_mount(self) -> None:
        self.apply_user_keymap()
        self.push_screen(DiffScreen(self.gold, self.run_path, self.inputs))

    async def action_quit(self) -> None:
        self.exit(0)
