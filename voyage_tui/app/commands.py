"""The command palette: the actions of the current screen and of the app, from the action registry
(with their keys as the user's keymap has them), then any item of the suite by id."""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from typing import TYPE_CHECKING, Any, cast

from textual.command import DiscoveryHit, Hit, Hits, Provider
from textual.dom import DOMNode

from voyage_tui.app import rater_only
from voyage_tui.app.actions import Action, palette_actions
from voyage_tui.app.screens.base import VoyageScreen

if TYPE_CHECKING:
    from voyage_tui.app.app import VoyageApp


def palette_entries(screen: object, *, rater_session: bool = False) -> list[tuple[Action, str]]:
    """(action, where it runs: "screen" or "app") for the palette opened over `screen`; in a
    rater-only session, only the actions it allows (app/rater_only.py)."""
    entries: list[tuple[Action, str]] = []
    if isinstance(screen, VoyageScreen) and screen.SCOPE:
        entries += [(a, "screen") for a in palette_actions(screen.SCOPE)]
    entries += [(a, "app") for a in palette_actions("app")]
    if rater_session:
        entries = [(a, where) for a, where in entries if rater_only.allows(a)]
    return entries


class VoyageCommands(Provider):
    """Actions first, then every item of the suite by id."""

    @property
    def voyage(self) -> VoyageApp:
        return cast("VoyageApp", self.app)  # only VoyageApp lists this provider

    def _commands(self) -> list[tuple[str, str, Callable[[], Any]]]:
        """(title, help, callback) of each action."""
        commands: list[tuple[str, str, Callable[[], Any]]] = []
        rater_session = self.voyage.settings.rater_only
        for entry, where in palette_entries(self.screen, rater_session=rater_session):
            namespace: DOMNode = self.screen if where == "screen" else self.app
            help_text = entry.palette_help
            if entry.keys is not None:
                keys = self.voyage.key_text(entry.id)
                help_text = f"{help_text} ({keys})" if help_text else keys
            run = partial(self.app.run_action, entry.action, namespace)
            commands.append((entry.palette or entry.description, help_text, run))
        return commands

    async def discover(self) -> Hits:
        for title, help_text, run in self._commands():
            yield DiscoveryHit(title, run, help=help_text)

    async def search(self, query: str) -> Hits:
        matcher = self.matcher(query)
        for title, help_text, run in self._commands():
            score = matcher.match(title)
            if score > 0:
                yield Hit(score, matcher.highlight(title), run, help=help_text)
        view = self.voyage.view
        if view is None or len(query) < 2 or self.voyage.settings.rater_only:
            return  # (a rater opens no file: the items would name runs, and the browser)
        shown = 0
        for item in view.items.values():
            label = f"Open {item.id or item.path}"
            score = matcher.match(label)
            if score > 0:
                yield Hit(
                    score,
                    matcher.highlight(label),
                    partial(self.voyage.reveal, item.path),
                    help=item.path,
                )
                shown += 1
                if shown >= 50:
                    break
