"""Load one JSON document safely, with positions computed on demand and duplicate keys reported."""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from typing import Any

from voyage_tui.engine import diagnostics as dg
from voyage_tui.engine.diagnostics import Diagnostic
from voyage_tui.engine.loading.json_scan import ScanError, scan_positions
from voyage_tui.engine.loading.positions import JsonPositions, NoPositions, Positions
from voyage_tui.engine.loading.text import position_of_index


@dataclass(slots=True)
class JsonDocument:
    data: Any
    positions: Positions
    diagnostics: list[Diagnostic] = field(default_factory=list)
    ok: bool = True


def _reject_constant(name: str) -> Any:
    raise ValueError(f"{name} is not JSON")


class _Pairs:
    """json's object_pairs_hook for one load: builds each object and notes whether any repeats a
    key (a fresh one per load, so loads on two threads do not share the flag)."""

    __slots__ = ("found",)

    def __init__(self) -> None:
        self.found = False

    def __call__(self, pairs: list[tuple[str, Any]]) -> dict[str, Any]:
        result = dict(pairs)
        if len(result) != len(pairs):
            self.found = True
        return result


_LONG_NUMBER = re.compile(r"-?\d{4000,}")


def _long_number(text: str) -> tuple[int, int] | None:
    match = _LONG_NUMBER.search(text)
    return position_of_index(text, match.start()) if match else None


def _deepest(text: str, limit: int = 1000) -> tuple[int, int]:
    """Index of the bracket where nesting first reaches `limit` (or its deepest point), and the
    document's depth there. Strings are skipped; only called when loading hit the limit."""
    depth = best = best_index = 0
    i, n = 0, len(text)
    while i < n:
        ch = text[i]
        if ch == '"':
            i += 1
            while i < n and text[i] != '"':
                i += 2 if text[i] == "\\" else 1
        elif ch in "[{":
            depth += 1
            if depth > best:
                best, best_index = depth, i
                if depth >= limit:
                    break
        elif ch in "]}":
            depth -= 1
        i += 1
    return best_index, best


def load_json(text: str, rel: str) -> JsonDocument:
    """Load `text` as one JSON value. Never raises."""
    try:
        pairs = _Pairs()
        try:
            data = json.loads(text, object_pairs_hook=pairs, parse_constant=_reject_constant)
        except json.JSONDecodeError as exc:
            return JsonDocument(
                None,
                NoPositions(),
                [
                    dg.error(
                        rel, (exc.lineno, exc.colno), "json-syntax", f"not valid JSON: {exc.msg}"
                    )
                ],
                ok=False,
            )
        except ValueError as exc:
            if "integer string conversion" in str(exc):
                return JsonDocument(
                    None,
                    NoPositions(),
                    [
                        dg.error(
                            rel,
                            _long_number(text),
                            "json-syntax",
                            "a number has too many digits to read; write it as a string",
                        )
                    ],
                    ok=False,
                )
            try:
                scan_positions(text)
                pos = None
            except ScanError as scan:
                pos = position_of_index(text, scan.index)
            return JsonDocument(
                None,
                NoPositions(),
                [
                    dg.error(
                        rel, pos, "json-syntax", "not valid JSON: NaN and Infinity are not JSON"
                    )
                ],
                ok=False,
            )
        except RecursionError:
            index, depth = _deepest(text)
            return JsonDocument(
                None,
                NoPositions(),
                [
                    dg.error(
                        rel,
                        position_of_index(text, index),
                        "json-too-deep",
                        f"the JSON nests {depth:,}{' or more' if depth >= 1000 else ''} levels deep, too "
                        "deep to load; it was not loaded",
                    )
                ],
                ok=False,
            )
        positions = JsonPositions(text)
        diagnostics: list[Diagnostic] = []
        if pairs.found:
            for path, pos in positions.duplicate_keys():
                diagnostics.append(
                    dg.error(
                        rel,
                        pos,
                        "duplicate-key",
                        f"the key `{path[-1]}` appears twice in this object; JSON readers keep "
                        "only one of them, so remove the other",
                    )
                )
        return JsonDocument(data, positions, diagnostics)
    except Exception as exc:
        return JsonDocument(
            None,
            NoPositions(),
            [dg.error(rel, None, "json-unreadable", f"could not load: {exc!r}")],
            ok=False,
        )
