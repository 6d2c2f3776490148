"""Every use of Textual's private API, in one place.

Textual keeps these out of its public API, so any release may rename or remove them without
notice. The app needs them (see each function for why); tests/app/test_textual_private.py looks
each one up on the pinned Textual, so an upgrade that drops one fails there, by name, rather than
somewhere deep in a flow test. Nothing else in the app reaches for a Textual name starting with
an underscore, except the hooks `Resilient` overrides (listed in `OVERRIDDEN_HOOKS`).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from textual import events
from textual._callback import invoke as _invoke
from textual.app import App
from textual.dom import DOMNode
from textual.message_pump import MessagePump
from textual.screen import Screen
from textual.widgets import Footer, Tabs, Tree
from textual.widgets._footer import FooterKey
from textual.widgets._tabs import Underline

__all__ = [
    "OVERRIDDEN_HOOKS",
    "PRIVATE_NAMES",
    "FooterKey",
    "SettledTabs",
    "every_screen",
    "footer_bindings_ready",
    "invoke",
    "is_closing",
    "is_pruning",
    "rebuild_tree_lines",
]

PRIVATE_NAMES: tuple[tuple[str, str], ...] = (
    ("textual._callback", "invoke"),
    ("textual.app.App", "_screen_stacks"),
    ("textual.dom.DOMNode", "_pruning"),
    ("textual.message_pump.MessagePump", "_closing"),
    ("textual.widgets.Tree", "_tree_lines"),
    ("textual.widgets._footer", "FooterKey"),
    ("textual.widgets.Footer", "_bindings_ready"),
    ("textual.widgets._tabs", "Underline"),
)
"""(owner, name) of each private name used below: the test looks each up."""

OVERRIDDEN_HOOKS: tuple[tuple[type[Any], str], ...] = (
    (App, "_handle_exception"),
    (App, "_dispatch_action"),
    (MessagePump, "_dispatch_message"),
    (Tabs, "_on_resize"),
)
"""Private methods overridden here or in `voyage_tui.app.resilience` (which catches errors
before Textual stops the app): if one is renamed, the override silently stops being called."""


class SettledTabs(Tabs):
    """Textual's Tabs, skipping a resize that arrives before its underline is mounted. A screen
    shown by switching to its area (a Textual mode) is given its size while it still composes,
    and Tabs' own resize handler then fails to find its Underline (NoMatches), which stopped the
    app when a triage queue was closed and opened again at once. Once mounted, the underline is
    placed by Tabs itself (on mount and on every change of the active tab)."""

    def _on_resize(self, event: events.Resize | None = None) -> None:
        # Textual calls the handler of every class up the chain: preventing the default is
        # what keeps Tabs' own from running.
        if event is not None and not self.query(Underline):
            event.prevent_default()


async def invoke(callback: Callable[..., Any], *params: object) -> Any:
    """Call `callback` as Textual calls a screen's result callback: with as many of `params`
    as it takes, awaited if it is a coroutine."""
    return await _invoke(callback, *params)


def every_screen(app: App[Any]) -> list[Screen[Any]]:
    """Every screen on every mode's stack, each stack bottom first, the modes in the order they
    opened (the app's areas are modes: app/navigation.py). `App.screen_stack` holds only the
    current mode's screens, and Textual has no public list of the modes with a stack: this is
    the one walk over all of them, for whatever must reach every screen (the suite's events,
    quitting, crash recovery, whether a screen is still open)."""
    return [screen for stack in app._screen_stacks.values() for screen in stack]


def is_pruning(node: DOMNode) -> bool:
    """The node's widgets are being removed (a popped screen, an app stopping). Textual has no
    public flag for it; a worker's late result must not be drawn then."""
    return bool(node._pruning)


def is_closing(pump: MessagePump) -> bool:
    """The node's message pump is closing (no public flag either)."""
    return bool(pump._closing)


def rebuild_tree_lines(tree: Tree[Any]) -> None:
    """Rebuild a tree's line map now. Expanding a node only invalidates the map (it is rebuilt
    on the next idle), so moving the cursor to a node just shown would land on line -1; reading
    the private `_tree_lines` property rebuilds it."""
    tree._tree_lines  # noqa: B018 (the property rebuilds the map when read)


def footer_bindings_ready(footer: Footer) -> bool:
    """The screen has told the footer its bindings: before that, Textual's footer composes
    nothing (app/widgets/key_footer.py composes as it does; FooterKey is its key widget, which
    Textual does not export either)."""
    return bool(footer._bindings_ready)
