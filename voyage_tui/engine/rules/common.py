"""Checks several formats share: the root shape, blank text, the fixture's place on disk."""

from __future__ import annotations

import re
from typing import Any

from voyage_tui.engine import diagnostics as dg
from voyage_tui.engine.diagnostics import Diagnostic
from voyage_tui.engine.loading.positions import Positions

_CANARY = re.compile(r"^[ \t]*#[ \t]*canary:[ \t]*(\S+)", re.MULTILINE | re.IGNORECASE)


def root_not_mapping(rel: str, data: Any, what: str) -> Diagnostic:
    shape = "a list" if isinstance(data, list) else "a single value"
    return dg.error(
        rel,
        (1, 1),
        "root-not-mapping",
        f"the file is {shape}, but {what} is a mapping of fields (`id: ...`, `prompt: ...`)",
    )


def blank_text(
    data: dict[Any, Any], fields: tuple[str, ...], rel: str, positions: Positions
) -> list[Diagnostic]:
    """Whitespace-only text in a required text field: present in form, empty in substance."""
    out = []
    for name in fields:
        value = data.get(name)
        if isinstance(value, str) and value and not value.strip():
            out.append(
                dg.error(
                    rel, positions.value((name,)), "empty-field", f"`{name}` is blank; fill it in"
                )
            )
    return out


def canary_of(text: str) -> str | None:
    if "canary" not in text:
        return None
    match = _CANARY.search(text)
    return match.group(1) if match else None


def text_field(data: dict[Any, Any], name: str) -> str:
    value = data.get(name)
    return value if isinstance(value, str) else ""


def str_field(data: dict[Any, Any], name: str) -> str | None:
    value = data.get(name)
    return value if isinstance(value, str) else None


def id_mismatch(
    data: dict[Any, Any], folder_id: str, rel: str, positions: Positions
) -> list[Diagnostic]:
    """A fixture's `id` must be its folder's name (tasks and trajectories alike)."""
    fixture_id = str_field(data, "id")
    if fixture_id is None or fixture_id == folder_id:
        return []
    return [
        dg.error(
            rel,
            positions.value(("id",)),
            "id-mismatch",
            f"id is {fixture_id!r} but the fixture's folder is {folder_id!r}; "
            "rename one so they match",
        )
    ]
