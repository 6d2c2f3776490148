"""What a rater-only session allows, decided once.

`voyage-tui rate` and `voyage-tui serve --rate` open the app as a rater-only session
(`AppSettings.rater_only`): the rater sees the rating views and nothing else. No browser, editor,
triage, agreement, diff, wizard, file opening or commit, since from any of them the runs are
listed with their agent labels and run ids, and a rater could edit the suite. Everything that
acts on this asks here: the app's `check_action` (keys, footer, palette), the command palette's
list (commands.py), Textual's own palette commands (the app's `get_system_commands`), and the
navigation, which refuses every screen but the session's (navigation.py `allows`).
"""

from __future__ import annotations

from voyage_tui.app.actions import REGISTRY, Action

SESSION_SCOPES = frozenset({"rate", "pane", "dialog"})
"""Every action of the rater screen, of its scrolling panes and of its dialogs (the question
that ends the session)."""

SESSION_APP_ACTIONS = frozenset({"app.help", "app.help-alt", "app.close-help", "app.quit"})
"""The app's own actions a rater keeps: the help panel (and escape closing it), and quitting
(which ends the session)."""

SYSTEM_COMMANDS = frozenset({"Quit", "Keys", "Theme", "Maximize", "Minimize"})
"""Textual's own palette commands kept: none opens a file or another screen. (Its
"Screenshot" writes an SVG of the screen to the working folder: not in a rater's session.)"""

REFUSED_TEXTUAL_ACTIONS = frozenset({"screenshot", "deliver_screenshot"})
"""Textual's own app actions that write a file; refused as the registry's others are."""


def allows(action: Action) -> bool:
    """Whether a rater-only session offers `action` (a key, a footer entry, a palette line)."""
    return action.scope in SESSION_SCOPES or action.id in SESSION_APP_ACTIONS


def refused_app_actions() -> frozenset[str]:
    """The names of the app's actions (`agreement`, `triage`, ...) a rater-only session
    refuses, for the app's `check_action`."""
    refused = {a.action for a in REGISTRY.values() if a.scope == "app" and not allows(a)}
    kept = {a.action for a in REGISTRY.values() if a.scope == "app" and allows(a)}
    return frozenset((refused - kept) | REFUSED_TEXTUAL_ACTIONS)
