"""Where each key and value of a loaded document sits in its source.

A small map, not a node tree: YAML documents keep the parser's marks per container (keyed by the
identity of the constructed dict or list, which the document keeps alive); JSON documents are
scanned for positions only when a diagnostic asks for one.
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Sequence
from typing import Any, Protocol

from voyage_tui.engine.diagnostics import Position
from voyage_tui.engine.loading.text import position_of_index

PathKey = str | int
Path = tuple[PathKey, ...]


class Positions(Protocol):
    def key(self, path: Sequence[PathKey]) -> Position:
        """Where the key (or list item) ending `path` starts; falls back to its parent."""

    def value(self, path: Sequence[PathKey]) -> Position:
        """Where the value at `path` starts; the root for an empty path."""

    def find_in_value(self, path: Sequence[PathKey], needle: str, nth: int = 0) -> Position:
        """Where the `nth` (0-based) occurrence of `needle` sits inside the source of the value at
        `path`; the value's start when it cannot be found."""


class NoPositions:
    """For documents that failed to load: everything sits at the start of the file."""

    def key(self, path: Sequence[PathKey]) -> Position:
        return None

    def value(self, path: Sequence[PathKey]) -> Position:
        return None

    def find_in_value(self, path: Sequence[PathKey], needle: str, nth: int = 0) -> Position:
        return None


class YamlPositions:
    """Marks per container: for a dict {key: (key_mark, value_start, value_end)}, for a list
    [(item_start, item_start, item_end)]. Mark line/column are 0-based, index is in characters."""

    __slots__ = ("_marks", "_root", "_root_mark", "_text")

    def __init__(self, root: Any, marks: dict[int, Any], text: str, root_mark: Any) -> None:
        self._root = root
        self._marks = marks
        self._text = text
        self._root_mark = root_mark

    def _entry(self, path: Sequence[PathKey]) -> tuple[Any, Any, Any] | None:
        container = self._root
        for step in path[:-1]:
            try:
                container = container[step]
            except (KeyError, IndexError, TypeError):
                return None
        marks = self._marks.get(id(container))
        if marks is None:
            return None
        try:
            entry: tuple[Any, Any, Any] = marks[path[-1]]
        except (KeyError, IndexError, TypeError):
            return None
        return entry

    def _fallback(self, path: Sequence[PathKey]) -> Position:
        for cut in range(len(path) - 1, 0, -1):
            entry = self._entry(path[:cut])
            if entry is not None:
                return entry[1].line + 1, entry[1].column + 1
        mark = self._root_mark
        return (mark.line + 1, mark.column + 1) if mark is not None else (1, 1)

    def key(self, path: Sequence[PathKey]) -> Position:
        if not path:
            return self.value(path)
        entry = self._entry(path)
        if entry is None:
            return self._fallback(path)
        return entry[0].line + 1, entry[0].column + 1

    def value(self, path: Sequence[PathKey]) -> Position:
        if not path:
            mark = self._root_mark
            return (mark.line + 1, mark.column + 1) if mark is not None else (1, 1)
        entry = self._entry(path)
        if entry is None:
            return self._fallback(path)
        return entry[1].line + 1, entry[1].column + 1

    def value_source(self, path: Sequence[PathKey]) -> tuple[str, int, int] | None:
        """The source text of the value at `path` and its 1-based start (line, column)."""
        entry = self._entry(path) if path else None
        if entry is None:
            return None
        start, end = entry[1], entry[2]
        return self._text[start.index : end.index], start.line + 1, start.column + 1

    def find_in_value(self, path: Sequence[PathKey], needle: str, nth: int = 0) -> Position:
        entry = self._entry(path) if path else None
        if entry is None:
            return self.value(path)
        start, end = entry[1], entry[2]
        index = _find_nth(
            self._text, needle, start.index, max(end.index, start.index + len(needle)), nth
        )
        if index < 0:
            return start.line + 1, start.column + 1
        newlines = self._text.count("\n", start.index, index)
        if newlines == 0:
            return start.line + 1, start.column + 1 + (index - start.index)
        return position_of_index(self._text, index)


class JsonPositions:
    """Positions of a JSON document, computed on the first request by one scan of the text."""

    __slots__ = ("_keys", "_line_starts", "_text", "_values", "duplicates")

    def __init__(self, text: str) -> None:
        self._text = text
        self._keys: dict[Path, int] | None = None
        self._values: dict[Path, tuple[int, int]] = {}
        self.duplicates: list[tuple[Path, int]] = []
        self._line_starts: list[int] | None = None

    def _ensure(self) -> None:
        if self._keys is None:
            from voyage_tui.engine.loading.json_scan import scan_positions

            self._keys, self._values, self.duplicates = scan_positions(self._text)

    def _pos(self, index: int) -> tuple[int, int]:
        # A report may locate thousands of places in one big run file: index the line starts
        # once instead of counting newlines from the top for each.
        starts = self._line_starts
        if starts is None:
            starts = self._line_starts = [0]
            find = self._text.find
            at = find("\n")
            while at >= 0:
                starts.append(at + 1)
                at = find("\n", at + 1)
        index = max(0, min(index, len(self._text)))
        line = bisect_right(starts, index)
        return line, index - starts[line - 1] + 1

    def key(self, path: Sequence[PathKey]) -> Position:
        self._ensure()
        assert self._keys is not None
        path = tuple(path)
        for cut in range(len(path), 0, -1):
            probe = path[:cut]
            if probe in self._keys:
                return self._pos(self._keys[probe])
            if probe in self._values:
                return self._pos(self._values[probe][0])
        return self.value(())

    def value(self, path: Sequence[PathKey]) -> Position:
        self._ensure()
        path = tuple(path)
        for cut in range(len(path), -1, -1):
            probe = path[:cut]
            if probe in self._values:
                return self._pos(self._values[probe][0])
        return (1, 1)

    def value_source(self, path: Sequence[PathKey]) -> tuple[str, int, int] | None:
        """The source text of the value at `path` and its 1-based start (line, column)."""
        self._ensure()
        span = self._values.get(tuple(path))
        if span is None:
            return None
        line, column = self._pos(span[0])
        return self._text[span[0] : span[1]], line, column

    def find_in_value(self, path: Sequence[PathKey], needle: str, nth: int = 0) -> Position:
        self._ensure()
        span = self._values.get(tuple(path))
        if span is None:
            return self.value(path)
        index = _find_nth(self._text, needle, span[0], span[1], nth)
        return self._pos(index if index >= 0 else span[0])

    def duplicate_keys(self) -> list[tuple[Path, Position]]:
        self._ensure()
        return [(path, self._pos(index)) for path, index in self.duplicates]


def _find_nth(text: str, needle: str, start: int, end: int, nth: int) -> int:
    """Index of the nth occurrence of `needle` in text[start:end]. A needle whose words were
    folded across lines in the source is found by its longest leading run of words."""
    words = needle.split()
    for cut in range(len(words), 0, -1):
        probe = " ".join(words[:cut])
        index = text.find(probe, start, end)
        for _ in range(nth):
            if index < 0:
                break
            index = text.find(probe, index + 1, end)
        if index >= 0:
            return index
    return -1
