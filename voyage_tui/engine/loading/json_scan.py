"""A position scanner for JSON text that the json module has already accepted.

Iterative, so 5,000-deep nesting costs no recursion; it records where every key and value starts
(and ends) and which keys repeat inside one object.
"""

from __future__ import annotations

import re
from json.decoder import scanstring

_WS = re.compile(r"[ \t\n\r]*")
_SCALAR = re.compile(r"-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][-+]?\d+)?|true|false|null")

Path = tuple[object, ...]


class ScanError(ValueError):
    def __init__(self, index: int, message: str) -> None:
        super().__init__(message)
        self.index = index


def scan_positions(
    text: str,
) -> tuple[dict[Path, int], dict[Path, tuple[int, int]], list[tuple[Path, int]]]:
    keys: dict[Path, int] = {}
    values: dict[Path, tuple[int, int]] = {}
    duplicates: list[tuple[Path, int]] = []
    # A frame: [path, kind ('{' or '['), start, next item index, seen keys]
    stack: list[list[object]] = []
    i = _WS.match(text, 0).end()  # type: ignore[union-attr]
    pending: Path = ()  # the path the next value will have
    n = len(text)
    while True:
        if i >= n:
            raise ScanError(i, "unexpected end of JSON")
        ch = text[i]
        start = i
        if ch == "{" or ch == "[":
            stack.append([pending, ch, start, 0, set()])
            i = _WS.match(text, i + 1).end()  # type: ignore[union-attr]
            close = "}" if ch == "{" else "]"
            if i < n and text[i] == close:
                frame = stack.pop()
                values[frame[0]] = (start, i + 1)  # type: ignore[index]
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
            i = _WS.match(text, i).end()  # type: ignore[union-attr]
            frame = stack[-1]
            if i >= n:
                raise ScanError(i, "unexpected end of JSON")
            if text[i] == ",":
                i = _WS.match(text, i + 1).end()  # type: ignore[union-attr]
                frame[3] = int(frame[3]) + 1  # type: ignore[call-overload]
                pending = _begin_item(text, i, frame, keys, duplicates)
                if frame[1] == "{":
                    i = _after_key(text, i)
                break
            if text[i] in "}]":
                stack.pop()
                values[frame[0]] = (int(frame[2]), i + 1)  # type: ignore[index, call-overload]
                i += 1
                continue
            raise ScanError(i, "expected ',' or a closing bracket")


def _begin_item(
    text: str,
    i: int,
    frame: list[object],
    keys: dict[Path, int],
    duplicates: list[tuple[Path, int]],
) -> Path:
    base: Path = frame[0]  # type: ignore[assignment]
    if frame[1] == "[":
        path = (*base, frame[3])
        keys[path] = i
        return path
    if i >= len(text) or text[i] != '"':
        raise ScanError(i, "expected a key in double quotes")
    key, _ = scanstring(text, i + 1)
    path = (*base, key)
    seen: set[str] = frame[4]  # type: ignore[assignment]
    if key in seen:
        duplicates.append((path, i))
    seen.add(key)
    keys[path] = i
    return path


def _after_key(text: str, i: int) -> int:
    _, i = scanstring(text, i + 1)
    i = _WS.match(text, i).end()  # type: ignore[union-attr]
    if i >= len(text) or text[i] != ":":
        raise ScanError(i, "expected ':' after a key")
    return _WS.match(text, i + 1).end()  # type: ignore[union-attr]
