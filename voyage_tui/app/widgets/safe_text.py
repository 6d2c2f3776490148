"""Text from the workspace made safe to draw: Textual passes an escape character in a widget's
text straight to the terminal, so a prompt, an agent's output or a rater's note could steer it
(colours, the title, OSC 52 writes to the clipboard). The rule is the engine's, shared with the
command line (engine/safe_text.py): control characters and the invisible bidirectional
overrides become visible escapes instead."""

from __future__ import annotations

from voyage_tui.engine.safe_text import printable

__all__ = ["printable"]
