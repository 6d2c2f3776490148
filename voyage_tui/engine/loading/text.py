"""Bytes to text: UTF-8 only (a BOM is fine), with the line and column of the first bad byte."""

from __future__ import annotations

import codecs

from voyage_tui.engine import diagnostics as dg
from voyage_tui.engine.diagnostics import Diagnostic

_WIDE_BOMS = (
    (codecs.BOM_UTF32_LE, "UTF-32"),
    (codecs.BOM_UTF32_BE, "UTF-32"),
    (codecs.BOM_UTF16_LE, "UTF-16"),
    (codecs.BOM_UTF16_BE, "UTF-16"),
)


def decode(data: bytes, rel: str) -> str | Diagnostic:
    for bom, name in _WIDE_BOMS:
        if data.startswith(bom):
            return dg.error(rel, (1, 1), "not-utf8", f"the file is {name}; save it as UTF-8")
    if b"\x00" in data:
        offset = data.index(b"\x00")
        return dg.error(
            rel,
            _byte_position(data, offset),
            "binary-file",
            "the file holds NUL bytes, so it is binary, not text; it was not parsed",
        )
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        bad = data[exc.start : exc.start + 1]
        return dg.error(
            rel,
            _byte_position(data, exc.start),
            "invalid-utf8",
            f"byte 0x{bad.hex()} is not valid UTF-8; save the file as UTF-8",
        )
    if text.startswith("\ufeff"):
        text = text[1:]
    return text


def _byte_position(data: bytes, offset: int) -> tuple[int, int]:
    line_start = data.rfind(b"\n", 0, offset) + 1
    line = data.count(b"\n", 0, offset) + 1
    column = len(data[line_start:offset].decode("utf-8", "replace")) + 1
    return line, column


def position_of_index(text: str, index: int) -> tuple[int, int]:
    """1-based (line, column) of a character index into `text`."""
    index = max(0, min(index, len(text)))
    line_start = text.rfind("\n", 0, index) + 1
    return text.count("\n", 0, index) + 1, index - line_start + 1
