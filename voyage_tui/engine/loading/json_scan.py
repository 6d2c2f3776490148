"""A position scanner for JSON text that the json module has already accepted.

Iterative, so 5,000-deep nesting costs no recursion; it records where every key and value starts
(and ends) and which keys repeat inside one object.
"""

from __future__ import annotations

import json.decoder
import re
from collections.abc import Callable

# CPython's string scanner (the C one where built): public in json.decoder, not in typeshed's stub.
scanstring: Callable[[str, int], tuple[str, int]] = json.decoder.scanstring  # type: ignore[attr-defined]

_WS = re.compile(r"[ \t\n\r]*")
_SCALAR = re.compile(r"-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][-+]?\d+)?|true|false|null")

Path = tuple[str | int, ...]


class ScanError(ValueError):
    def __init__(self, index: int, message: str) -> None:
        super().__init__(message)
        self.index = index


class _Frame:
    """An open container: its path, kind ('{' or '['), start offset, next item's index, the keys
    seen so far (objects only)."""

    __slots__ = ("index", "kind", "path", "seen", "start")

    def __init__(self, path: Path, kind: str, start: int) -> None:
        self.path = path
        self.kind = kind
        self.start = start
        self.index = 0
        self.seen: set[str] = set()


def _skip_ws(text: str, i: int) -> int:
    found = _WS.match(text, i)
    assert found is not None  # the pattern matches the empty string, so it never fails
    return found.end()


def scan_positions(
    text: str,
) -> tuple[dict[Path, int], dict[Path, tuple[int, int]], list[tuple[Path, int]]]:
    keys: dict[Path, int] = {}
    values: dict[Path, tuple[int, int]] = {}
    duplicates: list[tuple[Path, int]] = []
    stack: list[_Frame] = []
    i = _skip_ws(text, 0)
    pending: Path = ()  # the path the next value will have
    n = len(text)
    while True:
        if i >= n:
            raise ScanError(i, "unexpected end of JSON")
        ch = text[i]
        start = i
        if ch == "{" or ch == "[":
            stack.append(_Frame(pending, ch, start))
            i = _skip_ws(text, i + 1)
            close = "}" if ch == "{" else "]"
            if i < n and text[i] == close:
                frame = stack.pop()
                values[frame.path] = (start, i + 1)
                i += 1
            else:
                pending = _begin_item(text, i, stack[-1], keys, duplicates)
                if ch == "{":
                    i = _after_key(text, i)
                continue
        elif ch == '"':
            _, i = scanstring(text, i + 1)
            values[pending] = (start, i)
        else:
            m = _SCALAR.match(text, i)
            if m is None:
                raise ScanError(i, "not a JSON value (NaN and Infinity are not JSON)")
            i = m.end()
            values[pending] = (start, i)
        # after a value: close containers or move to the next item
        while True:
            if not stack:
                return keys, values, duplicates
            i = _skip_ws(text, i)
            frame = stack[-1]
            if i >= n:
                raise ScanError(i, "unexpected end of JSON")
            if text[i] == ",":
                i = _skip_ws(text, i + 1)
                frame.index += 1
                pending = _begin_item(text, i, frame, keys, duplicates)
                if frame.kind == "{":
                    i = _after_key(text, i)
                break
            if text[i] in "}]":
                stack.pop()
                values[frame.path] = (frame.start, i + 1)
                i += 1
                continue
            raise ScanError(i, "expected ',' or a closing bracket")


def _begin_item(
    text: str,
    i: int,
    frame: _Frame,
    keys: dict[Path, int],
    duplicates: list[tuple[Path, int]],
) -> Path:
    path: Path
    if frame.kind == "[":
        path = (*frame.path, frame.index)
        keys[path] = i
        return path
    if i >= len(text) or text[i] != '"':
        raise ScanError(i, "expected a key in double quotes")
    key, _ = scanstring(text, i + 1)
    path = (*frame.path, key)
    if key in frame.seen:
        duplicates.append((path, i))
    frame.seen.add(key)
    keys[path] = i
    return path


def _after_key(text: str, i: int) -> int:
    _, i = scanstring(text, i + 1)
    i = _skip_ws(text, i)
    if i >= len(text) or text[i] != ":":
        raise ScanError(i, "expected ':' after a key")
    return _skip_ws(text, i + 1)
