"""Pipe-separated entries (`phases`, `gates`, ...) with where each one sits in the source."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from voyage_tui.engine.diagnostics import Position
from voyage_tui.engine.loading.positions import PathKey, Positions

# YAML's line breaks, as the parser counts them for its marks.
_BREAK = re.compile("\r\n|[\r\n\x85\u2028\u2029]")
_SPACE = " \t\r\n\x85\u2028\u2029"


@dataclass(frozen=True, slots=True)
class Entry:
    text: str
    occurrence: int
    """How many identical entries precede this one (so duplicates point at themselves)."""
    index: int = 0
    """The entry's place among all entries of the value, empty ones included."""
    pipes: int = -1
    """How many pipes the value holds (-1: unknown)."""


def split_pipes(value: str) -> list[Entry]:
    entries: list[Entry] = []
    counts: dict[str, int] = {}
    pipes = value.count("|")
    for index, raw in enumerate(value.split("|")):
        text = " ".join(raw.split())
        entries.append(Entry(text, counts.get(text, 0), index, pipes))
        counts[text] = counts.get(text, 0) + 1
    return entries


def entry_position(positions: Positions, path: Sequence[PathKey], entry: Entry) -> Position:
    """The column of the entry itself, not of the field, so an editor jumps straight to it.
    An empty entry points at the pipe that makes it empty."""
    source = getattr(positions, "value_source", None)
    found = source(path) if source is not None else None
    if found is not None:
        pos = _locate(found, entry)
        if pos is not None:
            return pos
    if not entry.text:
        return positions.value(path)
    return positions.find_in_value(path, entry.text, entry.occurrence)


def _locate(found: tuple[str, int, int], entry: Entry) -> Position:
    """Walk the value's source by its pipes: the entry starts after the `index`-th one. None
    when the source's pipes are not the value's (an escape wrote one), so the caller searches."""
    src, line, column = found
    start, end = 0, len(src)
    if src[:1] in ("|", ">"):  # a block scalar: its header line is not content
        newline = _BREAK.search(src)
        if newline is None:
            return None
        start = newline.end()
    elif src[:1] in ("'", '"'):
        start, end = 1, max(1, len(src) - 1)
    pipes = [i for i in range(start, end) if src[i] == "|"]
    if entry.pipes >= 0 and len(pipes) != entry.pipes:
        return None
    if entry.index > len(pipes):
        return None
    if entry.text:
        offset = pipes[entry.index - 1] + 1 if entry.index else start
        while offset < end and src[offset] in _SPACE:
            offset += 1
    elif pipes:
        offset = pipes[min(entry.index, len(pipes) - 1)]
    else:
        return None
    return _offset_position(src, offset, line, column)


def _offset_position(src: str, offset: int, line: int, column: int) -> tuple[int, int]:
    last_end = -1
    breaks = 0
    for match in _BREAK.finditer(src, 0, offset):
        breaks += 1
        last_end = match.end()
    if breaks == 0:
        return line, column + offset
    return line + breaks, offset - last_end + 1
