"""Load one JSON document safely, with positions computed on demand and duplicate keys reported."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from voyage_tui.engine import diagnostics as dg
from voyage_tui.engine.diagnostics import Diagnostic
from voyage_tui.engine.loading.json_scan import ScanError, scan_positions
from voyage_tui.engine.loading.positions import JsonPositions, NoPositions, Positions
from voyage_tui.engine.loading.text import position_of_index


class _HasDuplicates(Exception):
    pass


@dataclass(slots=True)
class JsonDocument:
    data: Any
    positions: Positions
    diagnostics: list[Diagnostic] = field(default_factory=list)
    ok: bool = True


def _reject_constant(name: str) -> Any:
    raise ValueError(f"{name} is not JSON")


def _pairs(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    result = dict(pairs)
    if len(result) != len(pairs):
        _pairs.found = True  # type: ignore[attr-defined]
    return result


def load_json(text: str, rel: str) -> JsonDocument:
    """Load `text` as one JSON value. Never raises."""
    try:
        _pairs.found = False  # type: ignore[attr-defined]
        try:
            data = json.loads(text, object_pairs_hook=_pairs, parse_constant=_reject_constant)
        except json.JSONDecodeError as exc:
            return JsonDocument(
                None,
                NoPositions(),
                [dg.error(rel, (exc.lineno, exc.colno), "json-syntax", f"not valid JSON: {exc.msg}")],
                ok=False,
            )
        except ValueError:
            try:
                scan_positions(text)
                pos = None
            except ScanError as scan:
                pos = position_of_index(text, scan.index)
            return JsonDocument(
                None,
                NoPositions(),
                [dg.error(rel, pos, "json-syntax", "not valid JSON: NaN and Infinity are not JSON")],
                ok=False,
            )
        except RecursionError:
            return JsonDocument(
                None,
                NoPositions(),
                [dg.error(rel, None, "json-too-deep", "the JSON nests too deeply to load")],
                ok=False,
            )
        positions = JsonPositions(text)
        diagnostics: list[Diagnostic] = []
        if _pairs.found:  # type: ignore[attr-defined]
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
    except Exception as exc:  # noqa: BLE001 - the promise is: no input raises
        return JsonDocument(
            None, NoPositions(), [dg.error(rel, None, "json-unreadable", f"could not load: {exc!r}")], ok=False
        )
