"""Turning bytes on disk into data with positions, safely: no input may raise, hang or run code."""
