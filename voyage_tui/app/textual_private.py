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

from textual._callback import invoke as _invoke
from textual.app import App
from textual.dom import DOMNode
from textual.message_pump import MessagePump
from textual.widgets import Tree

PRIVATE_NAMES: tuple[tuple[str, str], ...] = (
    ("textual._callback", "invoke"),
    ("textual.dom.DOMNode", "_pruning"),
    ("textual.message_pump.MessagePump", "_closing"),
    ("textual.widgets.Tree", "_tree_lines"),
)
"""(owner, name) of each private name used below: the test looks each up."""

OVERRIDDEN_HOOKS: tuple[tuple[type[Any], str], ...] = (
    (App, "_handle_exception"),
    (App, "_dispatch_action"),
    (MessagePump, "_dispatch_message"),
)
"""Private methods `voyage_tui.app.resilience` overrides to catch errors before Textual stops
the app: if one is renamed, the override silently stops being called."""


async def invoke(callback: Callable[..., Any], *params: object) -> Any:
    """Call `callback` as Textual calls a screen's result callback: with as many of `params`
    as it takes, awaited if it is a coroutine."""
    return await _invoke(callback, *params)


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
