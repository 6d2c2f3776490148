"""The suite as its listing shows it, before its files are checked: a first screen to act on.

Checking 12,000 files takes seconds; listing them takes a walk (or, warm, a stat of what the
last run listed). A front end need not wait for the check to show the tree: every listed file
is an item at once, made from its path alone (its kind by the classifier, a fixture's folder
name as its id, an agent run under its fixture's task.yaml, a gold run under the first gold
file beside its runs/ folder), with no diagnostics; the files the item cache already knew are
their cached items. A person can move, filter by id and open a file on it. The checked items
then replace the stand-ins batch by batch (`filled`), and the loaded suite replaces the whole.

A view made here has `unchecked`: the paths whose items are stand-ins. Its counts are the
stand-ins' (none): what needs results (diagnostics, triage, scoring) waits for a view without
them (`SuiteView.checking`).
"""

from __future__ import annotations

from collections.abc import Iterable

from voyage_tui.engine.formats.vocabulary import TRAJECTORIES_FOLDER
from voyage_tui.engine.items import Item, stored_item
from voyage_tui.engine.kinds import FileKind
from voyage_tui.engine.references.loaded import References
from voyage_tui.engine.validation.view import SuiteView, assemble
from voyage_tui.engine.workspace.classify import TASK_FILE
from voyage_tui.engine.workspace.layout import Layout
from voyage_tui.engine.workspace.model import Workspace

FILLED_KINDS = frozenset({FileKind.TASK, FileKind.TRAJECTORY, FileKind.AGENT_RUN})
"""The kinds whose checked item replaces its stand-in as soon as it is checked. A JSON file's
item waits for the load: which files are gold, and which gold file a run belongs to, is known
only once every JSON file is checked."""


def _stand_in(rules_kind: FileKind, rel: str, gold_by_folder: dict[str, str]) -> Item | None:
    folder = rel.rsplit("/", 1)[0] if "/" in rel else ""
    name = rel.rsplit("/", 1)[-1]
    if rules_kind in (FileKind.TASK, FileKind.TRAJECTORY):
        return Item(rel, rules_kind, id=folder.rsplit("/", 1)[-1] or rel)
    if rules_kind is FileKind.AGENT_RUN:
        fixture = rel.rsplit("/", 2)[0]
        return Item(rel, rules_kind, id=name.rsplit(".", 1)[0], parent=f"{fixture}/{TASK_FILE}")
    if rules_kind is FileKind.GOLD_RUN:
        gold = gold_by_folder.get("/".join(rel.split("/")[:-2]))
        if gold is None:
            return None  # a run with no gold file beside it: the check decides what it is
        return Item(rel, rules_kind, id=name.rsplit(".", 1)[0], parent=gold)
    if rules_kind is FileKind.GOLD:
        return Item(rel, rules_kind, id=rel)
    return None


def listed_view(
    ws: Workspace, refs: References, layout: Layout, known: dict[str, Item]
) -> SuiteView:
    """Every file `layout` lists as an item: `known` ones (from the item cache) as they are,
    the others as stand-ins, in the order a full validation lists them."""
    rules = ws.classifier
    items: dict[str, Item] = {}
    unchecked: set[str] = set()
    gold_by_folder: dict[str, str] = {}
    json_kinds = {rel: rules.kind(rel) for rel in layout.json_candidates}
    # Shallowest first, then by name, as the full validation attaches runs (Suite._check_layout).
    for rel in sorted(json_kinds, key=lambda r: (r.count("/"), r)):
        item = known.get(rel)
        if (item.kind if item is not None else json_kinds[rel]) is FileKind.GOLD:
            gold_by_folder.setdefault(rules.folder_of(rel), rel)
    # The task files first, in a loop of their own: they are nearly every file (11,000 of a
    # big suite's 12,100), and this view is on the way to the first screen.
    task, trajectory, gold_run = FileKind.TASK, FileKind.TRAJECTORY, FileKind.GOLD_RUN
    # A task.yaml under trajectories/ is a trajectory (as the classifier says; told here by its
    # class folder alone, as Classifier.fixture_parts does: the classifier's answer costs
    # 100 ms at 11,000): below `<fixtures>/trajectories/<id>/`.
    in_trajectories = f"{rules.fixtures_prefix}{TRAJECTORIES_FOLDER}/"
    below = len(in_trajectories)
    for rel in layout.tasks:
        item = known.get(rel) if known else None
        if item is not None and item.kind is not gold_run:
            items[rel] = item
            continue
        cut = rel.rfind("/")
        folder = rel[:cut] if cut >= 0 else ""
        kind = trajectory if rel.startswith(in_trajectories) and rel.find("/", below) >= 0 else task
        name = folder[folder.rfind("/") + 1 :] or rel
        # Item(rel, kind, id=name), without the frozen dataclass's constructor (items.py)
        items[rel] = stored_item(
            rel, kind, name, None, None, None, "", "", None, None, None, None, None, None, (), ()
        )
        unchecked.add(rel)
    listed = [
        *((rel, FileKind.AGENT_RUN) for rel in layout.agent_runs),
        *json_kinds.items(),
    ]
    for rel, kind in listed:
        item = known.get(rel)
        if item is not None and item.kind is not FileKind.GOLD_RUN:
            items[rel] = item
            continue
        stand_in = _stand_in(kind, rel, gold_by_folder)
        if stand_in is not None:
            items[rel] = stand_in
            unchecked.add(rel)
    for rel in layout.ratings:
        items[rel] = Item(rel, FileKind.RATING, id=rel)
        unchecked.add(rel)
    workspace = (*ws.config_diagnostics, *refs.diagnostics, *layout.problems)
    return assemble(ws, refs, items, workspace, coverage={}, unchecked=frozenset(unchecked))


def filled(listed: SuiteView, checked: Iterable[Item]) -> SuiteView:
    """`listed` with the `checked` items of the kinds that can be shown at once in place of
    their stand-ins (FILLED_KINDS; the others wait for the loaded suite)."""
    items = dict(listed.items)
    unchecked = set(listed.unchecked)
    for item in checked:
        if item.kind in FILLED_KINDS and item.path in unchecked:
            items[item.path] = item
            unchecked.discard(item.path)
    return assemble(
        listed.ws,
        listed.refs,
        items,
        listed.workspace_diagnostics,
        coverage={},
        unchecked=frozenset(unchecked),
    )
