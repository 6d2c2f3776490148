"""`voyage-tui diff GOLD RUN` on files no workspace holds (or checked against a `--catalogue`):
the diff screen on its own, with no browser, no suite to load and nothing watched."""

from __future__ import annotations

from pathlib import Path, PurePath
from typing import ClassVar

from textual.app import App
from textual.binding import Binding, BindingType
from textual.widgets import HelpPanel

from voyage_tui.app.keymap import load_keymap
from voyage_tui.app.screens.diff import DiffScreen
from voyage_tui.engine.review.inputs import ReviewInputs

STYLES = Path(__file__).parent / "styles"


class LooseDiffApp(App[int]):
    TITLE = "voyage-tui diff"
    CSS_PATH: ClassVar[list[str | PurePath]] = [STYLES / "app.tcss", STYLES / "review.tcss"]
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("f1", "toggle_help", "Help", id="app.help"),
        Binding("question_mark", "toggle_help", "Help", show=False, id="app.help-alt"),
        Binding("ctrl+q", "quit", "Quit", id="app.quit", priority=True),
    ]

    def __init__(
        self,
        inputs: ReviewInputs,
        gold: str,
        run: str,
        *,
        keymap: dict[str, str] | None = None,
    ) -> None:
        super().__init__()
        self.inputs = inputs
        self.gold = gold
        self.run_path = run
        self._keymap = keymap

    def on_mount(self) -> None:
        keymap, problem = (self._keymap, None) if self._keymap is not None else load_keymap()
        if keymap:
            self.set_keymap(keymap)
        if problem:
            self.notify(problem, severity="warning")
        self.push_screen(DiffScreen(self.gold, self.run_path, self.inputs))

    def action_toggle_help(self) -> None:
        if self.screen.query(HelpPanel):
            self.action_hide_help_panel()
        else:
            self.action_show_help_panel()

    async def action_quit(self) -> None:
        self.exit(0)
