"""The command palette holds every action: open any item by id, and each screen's commands."""

from __future__ import annotations

from functools import partial
from typing import TYPE_CHECKING

from textual.command import DiscoveryHit, Hit, Hits, Provider

if TYPE_CHECKING:
    from voyage_tui.app.app import VoyageApp

# (title, help, action on the app)
ACTIONS: list[tuple[str, str, str]] = [
    ("Filter the suite", "Filter the tree by id or prompt text (/)", "browser_action('filter')"),
    ("Next error", "Jump to the next item with an error (n)", "browser_action('next_error')"),
    (
        "Previous error",
        "Jump to the previous item with an error (N)",
        "browser_action('previous_error')",
    ),
    ("Edit selected item", "Open the selected file in the editor (e)", "browser_action('edit')"),
    (
        "Open selected item in $EDITOR",
        "Edit outside the app, then reload (E)",
        "browser_action('external_editor')",
    ),
    (
        "Copy path of selected item",
        "Copy the workspace-relative path (c)",
        "browser_action('copy_path')",
    ),
    (
        "Show problems of selected item",
        "Focus the diagnostics list (d)",
        "browser_action('focus_diagnostics')",
    ),
    (
        "Runs of the selected gold file",
        "Every run beside a gold file, ranked by F1 (r)",
        "browser_action('runs')",
    ),
    (
        "Retire the selected holdout",
        "Make it public (only its visibility changes), then commit (R)",
        "browser_action('retire')",
    ),
    (
        "Create a fixture",
        "The creation wizard: a task or a trajectory, step by step (a)",
        "new_fixture",
    ),
    ("Re-validate everything", "Read and check the whole workspace again", "revalidate_all"),
    ("Help", "Show the keys of the focused widget (F1, ?)", "toggle_help"),
]


class VoyageCommands(Provider):
    """Actions first, then every item of the suite by id."""

    @property
    def voyage(self) -> VoyageApp:
        return self.app  # type: ignore[return-value]

    def _actions(self) -> list[tuple[str, str, str]]:
        return ACTIONS + list(getattr(self.voyage, "extra_actions", lambda: [])())

    async def discover(self) -> Hits:
        for title, help_text, action in self._actions():
            yield DiscoveryHit(title, partial(self.voyage.run_action, action), help=help_text)

    async def search(self, query: str) -> Hits:
        matcher = self.matcher(query)
        for title, help_text, action in self._actions():
            score = matcher.match(title)
            if score > 0:
                yield Hit(
                    score,
                    matcher.highlight(title),
                    partial(self.voyage.run_action, action),
                    help=help_text,
                )
        view = self.voyage.view
        if view is None or len(query) < 2:
            return
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
