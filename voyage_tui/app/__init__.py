"""The Textual app. Imported only when the app opens, never by the headless commands.

`VoyageApp` is loaded on first use, so a module of the app that needs no Textual (its settings)
is imported without it."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from voyage_tui.app.app import VoyageApp

__all__ = ["VoyageApp"]


def __getattr__(name: str) -> Any:
    if name == "VoyageApp":
        from voyage_tui.app.app import VoyageApp

        return VoyageApp
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
