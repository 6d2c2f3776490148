"""voyage-tui: keep an evaluation suite for AI coding agents honest, at the keyboard."""

__version__ = "0.1.0"
