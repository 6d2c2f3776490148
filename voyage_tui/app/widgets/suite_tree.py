"""The browser's tree: fixtures by class, trajectories by path, gold corpora with their runs.

Group nodes are filled only when expanded, so 10,000 fixtures cost a handful of nodes until
someone opens a class; a filter rebuilds the groups with just the matching items.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from typing import Any

from rich.text import Text
from textual.widgets import Tree
from textual.widgets.tree import TreeNode

from voyage_tui.app.widgets.badges import status_badge
from voyage_tui.app.widgets.safe_text import printable
from voyage_tui.engine.formats.vocabulary import CLASSES, TRAJECTORY_PATHS
from voyage_tui.engine.items import AGENT_RUN, GOLD, GOLD_RUN, RATING, TASK, TRAJECTORY, Item
from voyage_tui.engine.validation.view import SuiteView
from voyage_tui.engine.wording import plural

AUTO_EXPAND_LIMIT = 300
"""A filter whose matches fit in this many rows opens every group that has one."""

GOLD_EXPAND_LIMIT = 20
"""Up to this many gold files, their group starts open; beyond, it opens on demand like a class."""


GROUP_TITLES = {"gold": "Gold corpora", "ratings": "Ratings"}


@dataclass(frozen=True, slots=True)
class NodeRef:
    kind: str
    """"group", "item" or "workspace" (a file with workspace-level diagnostics)."""
    key: str


def _fixture_group(view: SuiteView, item: Item) -> str:
    prefix = view.ws.fixtures_rel + "/" if view.ws.fixtures_rel else ""
    return item.path[len(prefix) :].split("/", 1)[0]


def group_of(view: SuiteView, item: Item) -> str | None:
    """The group key an item is listed under, or None for items listed under a parent."""
    if item.kind == TASK:
        return f"class:{_fixture_group(view, item)}"
    if item.kind == TRAJECTORY:
        return f"path:{item.fixture_class or '(no path)'}"
    if item.kind == GOLD:
        return "gold"
    if item.kind == RATING:
        return "ratings"
    return None


def _group_keys(members: dict[str, list[Item]], prefix: str, known: tuple[str, ...]) -> list[str]:
    """The groups of one kind in tree order: the known ones first, in vocabulary order, then any
    other folder (a misspelt class folder still shows, last)."""
    keys = [f"{prefix}:{name}" for name in known]
    return keys + sorted(k for k in members if k.startswith(f"{prefix}:") and k not in keys)


def _sort_key(item: Item) -> tuple[str, str]:
    return (item.id or "", item.path)


def matches(item: Item, needle: str) -> bool:
    if not needle:
        return True
    return (
        needle in (item.id or "").lower()
        or needle in item.prompt.lower()
        or needle in item.path.lower()
    )


class SuiteTree(Tree[NodeRef]):
    HELP = """
## Suite tree

Fixtures by class, trajectories by journey path, gold corpora with their runs.
`✗n` errors, `!n` warnings, `✓` clean; *holdout* and **EXPOSED** marks.
"""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__("suite", **kwargs)
        self.show_root = False
        self.guide_depth = 3
        self.view: SuiteView | None = None
        self.needle = ""
        self._groups: dict[str, TreeNode[NodeRef]] = {}
        self._filled: set[str] = set()
        self._item_nodes: dict[str, TreeNode[NodeRef]] = {}

    # --- building ------------------------------------------------------------------------

    def _members(self, view: SuiteView) -> dict[str, list[Item]]:
        members: dict[str, list[Item]] = {}
        for item in view.items.values():
            group = group_of(view, item)
            if group is None:
                continue
            if self.needle and not matches(item, self.needle):
                continue
            members.setdefault(group, []).append(item)
        for items in members.values():
            items.sort(key=_sort_key)
        return members

    def _group_label(self, title: str, items: list[Item]) -> Text:
        assert self.view is not None
        errors = warnings = 0
        for item in items:
            e, w = self.view.severity_counts(item.path)
            errors += e
            warnings += w
        label = Text()
        label.append(title, style="bold")
        label.append(f"  {len(items)}", style="dim")
        if errors or warnings:
            label.append("  ")
            label.append_text(status_badge(errors, warnings))
        return label

    def item_label(self, item: Item) -> Text:
        assert self.view is not None
        errors, warnings = self.view.severity_counts(item.path)
        label = status_badge(errors, warnings)
        label.append(" ")
        if item.kind == GOLD:
            name = item.folder.rsplit("/", 1)[-1] or item.path
            label.append(name)
            verdict = item.extra.get("expected_verdict")
            if verdict:
                label.append(f"  {verdict}", style="dim")
        elif item.kind == AGENT_RUN:
            label.append(f"run {item.id}")
            agent = item.extra.get("agent")
            if agent:
                label.append(f"  {agent}", style="dim")
        elif item.kind == GOLD_RUN:
            label.append(f"run {item.id}")
        elif item.kind == RATING:
            label.append(printable(item.path.rsplit("/", 1)[-1], lines=False))
            count = item.extra.get("ratings")
            if isinstance(count, int):
                label.append(f"  {plural(count, 'record')}", style="dim")
        else:
            label.append(item.id or item.path)
        if item.visibility == "holdout":
            label.append("  holdout", style="italic magenta")
        if any(d.code == "holdout-exposed" for d in self.view.diagnostics_for(item.path)):
            label.append("  EXPOSED", style="bold red")
        return label

    def show_view(self, view: SuiteView, needle: str | None = None) -> None:
        """Rebuild from scratch (first load, or a new filter). Keeps the cursor's item."""
        current = self.current_path()
        self.view = view
        if needle is not None:
            self.needle = needle.lower().strip()
        members = self._members(view)
        self.clear()
        self._groups.clear()
        self._filled.clear()
        self._item_nodes.clear()
        total = sum(len(v) for v in members.values())
        expand_all = bool(self.needle) and total <= AUTO_EXPAND_LIMIT

        for title, prefix, known in (
            ("Fixtures", "class", CLASSES),
            ("Trajectories", "path", TRAJECTORY_PATHS),
        ):
            top = self.root.add(
                Text(title, style="bold"), NodeRef("group", title.lower()), expand=True
            )
            for key in _group_keys(members, prefix, known):
                items = members.get(key, [])
                if self.needle and not items:
                    continue
                self._add_group(top, key, key.split(":", 1)[1], items, expand_all)

        gold_items = members.get("gold", [])
        open_gold = len(gold_items) <= GOLD_EXPAND_LIMIT or expand_all
        gold = self.root.add(
            self._group_label("Gold corpora", gold_items),
            NodeRef("group", "gold"),
            expand=open_gold,
            allow_expand=bool(gold_items),
        )
        self._groups["gold"] = gold
        if open_gold:
            self._fill(gold, gold_items)

        rating_items = members.get("ratings", [])
        if rating_items:
            open_ratings = len(rating_items) <= GOLD_EXPAND_LIMIT or expand_all
            ratings = self.root.add(
                self._group_label("Ratings", rating_items),
                NodeRef("group", "ratings"),
                expand=open_ratings,
            )
            self._groups["ratings"] = ratings
            if open_ratings:
                self._fill(ratings, rating_items)

        workspace_paths = sorted(
            {d.path for d in view.workspace_diagnostics if d.path not in view.items}
        )
        if workspace_paths:
            ws_node = self.root.add(
                Text("Workspace", style="bold"), NodeRef("group", "workspace"), expand=True
            )
            for path in workspace_paths:
                ds = [d for d in view.workspace_diagnostics if d.path == path]
                errors = sum(1 for d in ds if d.severity.value == "error")
                warnings = sum(1 for d in ds if d.severity.value == "warning")
                label = status_badge(errors, warnings)
                label.append(f" {path}")
                ws_node.add_leaf(label, NodeRef("workspace", path))
        if current:
            self.select_path(current, scroll=False)

    def _add_group(
        self, parent: TreeNode[NodeRef], key: str, title: str, items: list[Item], expand: bool
    ) -> None:
        node = parent.add(
            self._group_label(title, items),
            NodeRef("group", key),
            expand=False,
            allow_expand=bool(items),
        )
        self._groups[key] = node
        if expand and items:
            self._fill(node, items)
            node.expand()

    def _fill(self, node: TreeNode[NodeRef], items: Iterable[Item]) -> None:
        assert self.view is not None
        key = node.data.key if node.data else ""
        if key in self._filled:
            return
        self._filled.add(key)
        for item in items:
            children = self.view.children_of(item.path) if item.kind in (TASK, GOLD) else []
            if children:
                child = node.add(self.item_label(item), NodeRef("item", item.path), expand=False)
                for sub in children:
                    self._item_nodes[sub.path] = child.add_leaf(
                        self.item_label(sub), NodeRef("item", sub.path)
                    )
            else:
                child = node.add_leaf(self.item_label(item), NodeRef("item", item.path))
            self._item_nodes[item.path] = child

    def _group_items(self, key: str) -> list[Item]:
        assert self.view is not None
        return self._members(self.view).get(key, [])

    def on_tree_node_expanded(self, event: Tree.NodeExpanded[NodeRef]) -> None:
        data = event.node.data
        if data is not None and data.kind == "group" and data.key in self._groups:
            self._fill(event.node, self._group_items(data.key))

    # --- live updates --------------------------------------------------------------------

    def apply_change(self, view: SuiteView, touched: set[str]) -> None:
        """Re-label what changed; rebuild only when items appeared or vanished."""
        previous = self.view
        self.view = view
        appeared = any(
            p in view.items and (previous is None or p not in previous.items) for p in touched
        )
        vanished = any(p not in view.items and p in self._item_nodes for p in touched)
        workspace_before = {d.path for d in previous.workspace_diagnostics} if previous else set()
        workspace_now = {d.path for d in view.workspace_diagnostics}
        if appeared or vanished or workspace_before != workspace_now:
            self.show_view(view)
            return
        groups: set[str] = set()
        for path in touched:
            item = view.items.get(path)
            node = self._item_nodes.get(path)
            if item is not None and node is not None:
                node.set_label(self.item_label(item))
            target = item
            if item is not None and item.parent and item.parent in view.items:
                target = view.items[item.parent]
            if target is not None:
                group = group_of(view, target)
                if group:
                    groups.add(group)
        # duplicate ids and the like move diagnostics between items: refresh every filled label
        for path, node in self._item_nodes.items():
            item = view.items.get(path)
            if item is not None and path not in touched:
                node.set_label(self.item_label(item))
        members = self._members(view)
        for group in groups:
            node = self._groups.get(group)
            if node is not None:
                title = GROUP_TITLES.get(group) or group.split(":", 1)[1]
                node.set_label(self._group_label(title, members.get(group, [])))

    # --- navigation ----------------------------------------------------------------------

    def current_path(self) -> str | None:
        node = self.cursor_node
        if node is None or node.data is None or node.data.kind != "item":
            return None
        return node.data.key

    def select_path(self, path: str, scroll: bool = True) -> bool:
        if self.view is None or path not in self.view.items:
            return False
        item = self.view.items[path]
        owner = self.view.items.get(item.parent) if item.parent else item
        if owner is None:
            owner = item
        group = group_of(self.view, owner)
        if group is None or group not in self._groups:
            return False
        group_node = self._groups[group]
        self._fill(group_node, self._group_items(group))
        group_node.expand()
        if owner is not item and owner.path in self._item_nodes:
            self._item_nodes[owner.path].expand()
        node = self._item_nodes.get(path)
        if node is None:
            return False
        # Expanding only invalidates the line map; rebuild it now so the node has its line
        # (otherwise the cursor lands on line -1 until the next idle).
        self._tree_lines  # noqa: B018
        self.move_cursor(node)
        if scroll:
            self.scroll_to_node(node)
        return True

    def ordered_items(self) -> Iterator[Item]:
        """Every listed item in tree order, whether its group is open or not."""
        assert self.view is not None
        members = self._members(self.view)
        keys = _group_keys(members, "class", CLASSES) + _group_keys(
            members, "path", TRAJECTORY_PATHS
        )
        for key in [*keys, "gold", "ratings"]:
            for item in members.get(key, []):
                yield item
                if item.kind in (TASK, GOLD):
                    yield from self.view.children_of(item.path)

    def find_error(self, forward: bool = True) -> str | None:
        """The next (or previous) item with an error after the cursor, wrapping around."""
        if self.view is None:
            return None
        listed = [i.path for i in self.ordered_items()]
        with_errors = [p for p in listed if self.view.severity_counts(p)[0]]
        if not with_errors:
            return None
        position = {path: index for index, path in enumerate(listed)}
        current = self.current_path()
        here = position.get(current, -1) if current else -1
        if forward:
            later = [p for p in with_errors if position[p] > here]
            return later[0] if later else with_errors[0]
        if here < 0:
            return with_errors[-1]
        earlier = [p for p in with_errors if position[p] < here]
        return earlier[-1] if earlier else with_errors[-1]
