"""Diagnostics for an editor's unsaved buffer, by what kind of file it is.

The same checks as on disk (one engine), minus the suite-level rules that need every other file
(duplicate ids, coverage): those follow once the file is saved.
"""

from __future__ import annotations

from voyage_tui.engine.diagnostics import Diagnostic
from voyage_tui.engine.references.catalogue import parse_catalogue
from voyage_tui.engine.references.journey import parse_journey
from voyage_tui.engine.references.loaded import References
from voyage_tui.engine.references.rubric import parse_rubric
from voyage_tui.engine.validation.file_check import (
    check_agent_run_file,
    check_fixture,
    check_gold_run,
    check_json_candidate,
    fixture_parts,
)
from voyage_tui.engine.validation.item import GOLD, GOLD_RUN, Item
from voyage_tui.engine.workspace.config import CONFIG_NAME, parse_config
from voyage_tui.engine.workspace.layout import TASK_FILE
from voyage_tui.engine.workspace.model import Workspace


def check_buffer(
    ws: Workspace, refs: References, items: dict[str, Item], rel: str, text: str
) -> list[Diagnostic]:
    out: list[Diagnostic]
    if rel == CONFIG_NAME:
        out = parse_config(text, rel)[1]
    elif rel == refs.journey.path:
        out = parse_journey(text, rel)[1]
    elif rel == refs.rubric.path:
        out = parse_rubric(text, rel)[1]
    elif rel == refs.catalogue.path:
        out = parse_catalogue(text, rel)[1]
    else:
        out = _check_item_buffer(ws, refs, items, rel, text)
    return sorted(out, key=Diagnostic.sort_key)


def _check_item_buffer(
    ws: Workspace, refs: References, items: dict[str, Item], rel: str, text: str
) -> list[Diagnostic]:
    parts = fixture_parts(ws, rel)
    if parts is not None:
        rest = rel[len(f"{ws.fixtures_rel}/{parts[0]}/{parts[1]}") + 1 :]
        if rest == TASK_FILE:
            return check_fixture(ws, refs, rel, text).diagnostics
        if rest.startswith("runs/") and rest.endswith((".yaml", ".yml")):
            return check_agent_run_file(ws, rel, text).diagnostics
    item = items.get(rel)
    if item is not None and item.kind == GOLD_RUN and item.parent:
        return check_gold_run(ws, refs, rel, item.parent, text).diagnostics
    if rel.endswith(".json") and (item is None or item.kind == GOLD):
        checked = check_json_candidate(ws, refs, rel, text)
        return checked.diagnostics if checked is not None else []
    return []
