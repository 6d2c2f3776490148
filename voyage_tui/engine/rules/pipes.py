"""Pipe-separated entries (`phases`, `gates`, ...) with where each one sits in the source."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence

from voyage_tui.engine.diagnostics import Position
from voyage_tui.engine.loading.positions import PathKey, Positions


@dataclass(frozen=True, slots=True)
class Entry:
    text: str
    occurrence: int
    """How many identical entries precede this one (so duplicates point at themselves)."""


def split_pipes(value: str) -> list[Entry]:
    entries: list[Entry] = []
    counts: dict[str, int] = {}
    for raw in value.split("|"):
        text = " ".join(raw.split())
        entries.append(Entry(text, counts.get(text, 0)))
        counts[text] = counts.get(text, 0) + 1
    return entries


def entry_position(positions: Positions, path: Sequence[PathKey], entry: Entry) -> Position:
    """The column of the entry itself, not of the field, so an editor jumps straight to it."""
    if not entry.text:
        return positions.value(path)
    return positions.find_in_value(path, entry.text, entry.occurrence)
