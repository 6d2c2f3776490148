"""Diagnostics for an editor's unsaved buffer, by what kind of file it is.

The same checks as on disk (one engine), minus the suite-level rules that need every other file
(duplicate ids, coverage): those follow once the file is saved.
"""

from __future__ import annotations

from voyage_tui.engine.diagnostics import Diagnostic
from voyage_tui.engine.items import Item
from voyage_tui.engine.kinds import FIXTURE_KINDS, FileKind
from voyage_tui.engine.ratings.adjudications import parse_adjudications
from voyage_tui.engine.ratings.rules import check_ratings_file
from voyage_tui.engine.ratings.runs import RunIndex
from voyage_tui.engine.references.catalogue import parse_catalogue
from voyage_tui.engine.references.journey import parse_journey
from voyage_tui.engine.references.loaded import References
from voyage_tui.engine.references.rubric import parse_rubric
from voyage_tui.engine.validation.file_check import (
    check_agent_run_file,
    check_fixture,
    check_gold_run,
    check_json_candidate,
)
from voyage_tui.engine.workspace.classify import JSON_KINDS
from voyage_tui.engine.workspace.config import CONFIG_NAME, parse_config
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
    rules = ws.classifier
    kind = rules.kind(rel)
    if kind in FIXTURE_KINDS:
        return list(check_fixture(ws, refs, rel, text).diagnostics)
    if kind is FileKind.AGENT_RUN:
        return list(check_agent_run_file(ws, rel, text).diagnostics)
    if kind is FileKind.RATING:
        # Against the runs now in the suite, as on disk. Git history is not asked here: a
        # record of a deleted run shows as unknown until the file is saved.
        data = text.encode("utf-8", "surrogatepass")
        runs = RunIndex.from_items(items)
        return check_ratings_file(ws, refs.rubric.value, rel, runs, data=data).diagnostics
    if kind is FileKind.ADJUDICATION:
        # Against the runs and the rubric; whether it is stale is said once the file is saved
        # (the suite checks it against the ratings then).
        data = text.encode("utf-8", "surrogatepass")
        runs = RunIndex.from_items(items)
        return parse_adjudications(data, rel, refs.rubric.value, runs).diagnostics
    if kind not in JSON_KINDS:
        return []
    if kind is FileKind.GOLD_RUN:
        # A run of the gold file beside its folder, as on disk (the first by name owns it).
        folder = rules.run_gold_folder(rel)
        golds = sorted(
            p for p, i in items.items() if i.kind is FileKind.GOLD and i.folder == folder
        )
        if golds:
            return list(check_gold_run(ws, refs, rel, golds[0], text).diagnostics)
    checked = check_json_candidate(ws, refs, rel, text)
    return list(checked.diagnostics) if checked is not None else []
