"""The Textual app. Imported only when the app opens, never by the headless commands."""

from __future__ import annotations

from voyage_tui.app.app import VoyageApp

__all__ = ["VoyageApp"]
