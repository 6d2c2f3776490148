"""The browser's tree: fixtures by class, trajectories by path, gold corpora with their runs,
ratings files.

What is listed, in which group and order, what the filter keeps and where "next error" goes is
the engine's (`SuiteView.listing`, `next_error`); the tree renders it. Group nodes are filled
only when expanded, so 10,000 fixtures cost a handful of nodes until someone opens a class.

A label that does not fit is cut in its name, which ends in an ellipsis; the badges after the
name (holdout, EXPOSED, a gold file's verdict) always show.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any, ClassVar

from rich.style import Style
from rich.text import Text
from textual.binding import BindingType
from textual.widgets import Tree
from textual.widgets.tree import TreeNode

from voyage_tui.app.actions import bindings
from voyage_tui.app.textual_private import rebuild_tree_lines
from voyage_tui.app.widgets.badges import status_badge
from voyage_tui.app.widgets.safe_text import printable
from voyage_tui.engine.items import AgentRunFacts, GoldFacts, Item, RatingsFacts
from voyage_tui.engine.kinds import FileKind
from voyage_tui.engine.validation.first_screen import FIXTURES, TRAJECTORIES, FirstScreen
from voyage_tui.engine.validation.view import (
    HOLDS_RUNS,
    ITEM,
    WORKSPACE,
    EntryKind,
    Group,
    Listing,
    SuiteView,
    group_of,
    matches,
    next_error,
)
from voyage_tui.engine.wording import plural

__all__ = ["NodeRef", "SuiteTree", "fit_label", "group_of", "matches"]

AUTO_EXPAND_LIMIT = 300
"""A filter whose matches fit in this many rows opens every group that has one."""

GOLD_EXPAND_LIMIT = 20
"""Up to this many gold files (or ratings files), their group starts open; beyond, it opens on
demand like a class."""

ELLIPSIS = "…"

TOGGLE_STYLE = Style.from_meta({"toggle": True})
"""As Textual's Tree marks its ▶/▼ icon: a click there opens or closes the group."""


@dataclass(frozen=True, slots=True)
class NodeRef:
    kind: EntryKind
    key: str


@dataclass(frozen=True, slots=True)
class LabelParts:
    """A label in three parts, so it can be cut in the middle: the badge before the name, the
    name, and the marks after it."""

    head: Text
    name: Text
    tail: Text

    def whole(self, name: Text | None = None) -> Text:
        # The badge's colour is the label's own (as it always was): the name reads in it too.
        label = self.head.copy()
        label.append_text(self.name if name is None else name)
        label.append_text(self.tail)
        return label


def fit_label(parts: LabelParts, width: int) -> Text:
    """The label in `width` cells: the name cut (ending in an ellipsis) before any badge is."""
    whole = parts.whole()
    if width <= 0 or whole.cell_len <= width:
        return whole
    room = width - parts.head.cell_len - parts.tail.cell_len
    if room >= 2:
        name = parts.name.copy()
        name.truncate(room - 1)
        name.append(ELLIPSIS)
        return parts.whole(name)
    # Too narrow even for the marks: cut the whole label at the end.
    whole.truncate(max(width - 1, 0))
    whole.append(ELLIPSIS)
    return whole


class SuiteTree(Tree[NodeRef]):
    HELP = """
## Suite tree

Fixtures by class, trajectories by journey path, gold corpora with their runs, ratings files.
`✗n` errors, `!n` warnings, `✓` clean; *holdout* and **EXPOSED** marks.
{tree.expand} opens a group (or goes into it), {tree.collapse} closes it (or goes to its parent).
"""

    BINDINGS: ClassVar[list[BindingType]] = bindings("tree")

    def __init__(self, **kwargs: Any) -> None:
        self._parts: dict[int, LabelParts] = {}  # before Tree's init, which may render a label
        super().__init__("suite", **kwargs)
        self.show_root = False
        self.guide_depth = 3
        self.view: SuiteView | None = None
        self.needle = ""
        self.listing: Listing | None = None
        self._groups: dict[str, TreeNode[NodeRef]] = {}
        self._filled: set[str] = set()
        self._item_nodes: dict[str, TreeNode[NodeRef]] = {}
        self._workspace_nodes: dict[str, TreeNode[NodeRef]] = {}
        self._opened: set[str] = set()
        """Groups the person opened (kept open when the tree is rebuilt for the same filter)."""
        self._anchor: str | None = None
        """The last item the cursor was on: where it goes back to when the item it is on now
        is not listed any more (a filter with no match, cleared)."""

    # --- labels --------------------------------------------------------------------------

    def _set_label(self, node: TreeNode[NodeRef], parts: LabelParts) -> None:
        self._parts[node.id] = parts
        node.set_label(parts.whole())

    def _group_parts(self, title: str, count: int, errors: int, warnings: int) -> LabelParts:
        tail = Text()
        tail.append(f"  {count}", style="dim")
        if errors or warnings:
            tail.append("  ")
            tail.append_text(status_badge(errors, warnings))
        return LabelParts(Text(), Text(printable(title, lines=False), style="bold"), tail)

    def _item_parts(self, item: Item) -> LabelParts:
        assert self.view is not None
        errors, warnings = self.view.severity_counts(item.path)
        head = status_badge(errors, warnings)
        head.append(" ")
        tail = Text()
        if item.kind is FileKind.GOLD:
            name = Text(printable(item.folder.rsplit("/", 1)[-1] or item.path, lines=False))
            facts = item.facts
            if isinstance(facts, GoldFacts) and facts.expected_verdict:
                tail.append(f"  {printable(facts.expected_verdict, lines=False)}", style="dim")
        elif item.kind is FileKind.AGENT_RUN:
            name = Text(f"run {printable(item.id or '', lines=False)}")
            run = item.facts
            if isinstance(run, AgentRunFacts) and run.agent:
                tail.append(f"  {printable(run.agent, lines=False)}", style="dim")
        elif item.kind is FileKind.GOLD_RUN:
            name = Text(f"run {printable(item.id or '', lines=False)}")
        elif item.kind is FileKind.RATING or item.kind is FileKind.ADJUDICATION:
            name = Text(printable(item.path.rsplit("/", 1)[-1], lines=False))
            ratings = item.facts
            if isinstance(ratings, RatingsFacts):
                tail.append(f"  {plural(ratings.records, 'record')}", style="dim")
        else:
            name = Text(printable(item.id or item.path, lines=False))
        if item.visibility == "holdout":
            tail.append("  holdout", style="italic magenta")
        if self.view.is_exposed(item.path):
            tail.append("  EXPOSED", style="bold red")
        return LabelParts(head, name, tail)

    def item_label(self, item: Item) -> Text:
        return self._item_parts(item).whole()

    def _label_room(self, node: TreeNode[NodeRef]) -> int:
        depth = 0
        parent = node.parent
        while parent is not None and parent is not self.root:
            depth += 1
            parent = parent.parent
        icon = len(self.ICON_NODE) if node.allow_expand else 0
        # Beside the scrollbar, not under it: the tree is wider than what shows of a line.
        return self.scrollable_content_region.width - depth * self.guide_depth - icon

    def render_label(self, node: TreeNode[NodeRef], base_style: Style, style: Style) -> Text:
        parts = self._parts.get(node.id)
        if parts is None or self.size.width <= 0:
            return super().render_label(node, base_style, style)
        label = fit_label(parts, self._label_room(node))
        label.stylize(style)
        if node.allow_expand:
            icon = self.ICON_NODE_EXPANDED if node.is_expanded else self.ICON_NODE
            return Text.assemble((icon, base_style + TOGGLE_STYLE), label)
        return label

    # --- building ------------------------------------------------------------------------

    def show_view(self, view: SuiteView, needle: str | None = None) -> None:
        """Rebuild from scratch (first load, a new filter, items that came or went). The cursor
        stays on its row when that row is still listed, else goes back to the last item it was
        on, else to the top."""
        cursor = self.cursor_node.data if self.cursor_node is not None else None
        if cursor is not None and cursor.kind is EntryKind.ITEM:
            self._anchor = cursor.key
        self.view = view
        refiltered = False
        if needle is not None:
            needle = needle.lower().strip()
            refiltered = needle != self.needle
            if refiltered:
                self._opened.clear()
            self.needle = needle
        rows = view.listing(self.needle)
        self.listing = rows
        self._reset()
        expand_all = bool(self.needle) and rows.matched <= AUTO_EXPAND_LIMIT

        for title, groups in (("Fixtures", rows.fixtures), ("Trajectories", rows.trajectories)):
            if not groups:
                continue  # a filter that matches none: no open heading with nothing under it
            top = self.root.add(
                Text(title, style="bold"), NodeRef(EntryKind.GROUP, title.lower()), expand=True
            )
            for group in groups:
                self._add_group(top, group, expand_all or group.key in self._opened)

        if rows.gold.items or not self.needle:  # "Gold corpora 0" only without a filter
            self._add_top_group(rows.gold, expand_all)
        if rows.ratings.items:  # listed only when the workspace has ratings files
            self._add_top_group(rows.ratings, expand_all)

        self._add_workspace_group([(path, *view.severity_counts(path)) for path in rows.workspace])
        self._restore_cursor(cursor, refiltered)

    def _reset(self) -> None:
        self.clear()
        self._groups.clear()
        self._filled.clear()
        self._item_nodes.clear()
        self._workspace_nodes.clear()
        self._parts.clear()

    def _add_workspace_group(self, entries: list[tuple[str, int, int]]) -> None:
        """The paths only workspace-level diagnostics name, as (path, errors, warnings)."""
        if not entries:
            return
        ws_node = self.root.add(
            Text("Workspace", style="bold"), NodeRef(EntryKind.GROUP, "workspace"), expand=True
        )
        for path, errors, warnings in entries:
            leaf = ws_node.add_leaf("", NodeRef(WORKSPACE, path))
            head = status_badge(errors, warnings)
            head.append(" ")
            self._set_label(leaf, LabelParts(head, Text(printable(path, lines=False)), Text()))
            self._workspace_nodes[path] = leaf

    def show_first_screen(self, first: FirstScreen) -> None:
        """The group lines the last run recorded, closed and empty, until show_view has the
        suite: a group opened meanwhile is filled (and stays open) then."""
        self._reset()
        sections = {
            section: self.root.add(
                Text(title, style="bold"), NodeRef(EntryKind.GROUP, section), expand=True
            )
            for section, title in ((FIXTURES, "Fixtures"), (TRAJECTORIES, "Trajectories"))
        }
        for line in first.groups:
            parent = sections.get(line.section, self.root)
            node = parent.add("", NodeRef(EntryKind.GROUP, line.key), allow_expand=line.size > 0)
            self._set_label(
                node, self._group_parts(line.title, line.size, line.errors, line.warnings)
            )
            self._groups[line.key] = node
        self._add_workspace_group([(w.path, w.errors, w.warnings) for w in first.workspace])
        self.cursor_line = 0

    def _restore_cursor(self, cursor: NodeRef | None, refiltered: bool) -> None:
        """Back to the row the cursor was on. A new filter puts it back on the last item it
        was on rather than on a group (the cursor rests on a group when nothing matched)."""
        if (
            cursor is not None
            and cursor.kind is not EntryKind.GROUP
            and self.select_path(cursor.key, False)
        ):
            return
        if refiltered and self._anchor is not None and self.select_path(self._anchor, False):
            return
        if cursor is not None and cursor.kind is EntryKind.GROUP:
            node = self._groups.get(cursor.key) or next(
                (n for n in self.root.children if n.data == cursor), None
            )
            if node is not None:
                rebuild_tree_lines(self)  # so the node has its line
                self.move_cursor(node)
                return
        if self._anchor is not None and self.select_path(self._anchor, False):
            return
        self.cursor_line = 0 if self.root.children else -1

    def _add_top_group(self, group: Group, expand_all: bool) -> None:
        """Gold corpora or Ratings: open when small, when filtering, or when the person opened
        it; a group of its own at the top of the tree."""
        opened = len(group.items) <= GOLD_EXPAND_LIMIT or expand_all or group.key in self._opened
        node = self.root.add(
            "", NodeRef(EntryKind.GROUP, group.key), allow_expand=bool(group.items)
        )
        self._set_label(
            node, self._group_parts(group.title, len(group.items), group.errors, group.warnings)
        )
        self._groups[group.key] = node
        if opened:
            self._fill(node, group.items)
            node.expand()

    def _add_group(self, parent: TreeNode[NodeRef], group: Group, expand: bool) -> None:
        node = parent.add("", NodeRef(EntryKind.GROUP, group.key), allow_expand=bool(group.items))
        self._set_label(
            node, self._group_parts(group.title, len(group.items), group.errors, group.warnings)
        )
        self._groups[group.key] = node
        if expand and group.items:
            self._fill(node, group.items)
            node.expand()

    def _fill(self, node: TreeNode[NodeRef], items: tuple[Item, ...]) -> None:
        if self.view is None:
            return  # the recorded first screen: filled by show_view, the group kept open
        key = node.data.key if node.data else ""
        if key in self._filled:
            return
        self._filled.add(key)
        for item in items:
            children = self.view.children_of(item.path) if item.kind in HOLDS_RUNS else ()
            if children:
                child = node.add("", NodeRef(ITEM, item.path), expand=False)
                for sub in children:
                    leaf = child.add_leaf("", NodeRef(ITEM, sub.path))
                    self._set_label(leaf, self._item_parts(sub))
                    self._item_nodes[sub.path] = leaf
            else:
                child = node.add_leaf("", NodeRef(ITEM, item.path))
            self._set_label(child, self._item_parts(item))
            self._item_nodes[item.path] = child

    def _group_items(self, key: str) -> tuple[Item, ...]:
        group = self.listing.group(key) if self.listing is not None else None
        return group.items if group is not None else ()

    def _fill_group(self, node: TreeNode[NodeRef]) -> None:
        """Add a group's rows (once) and remember it is open."""
        data = node.data
        # The node may be one of the tree before a rebuild: only the current one.
        if data is not None and data.kind is EntryKind.GROUP and self._groups.get(data.key) is node:
            self._opened.add(data.key)
            self._fill(node, self._group_items(data.key))

    def _open_group(self, node: TreeNode[NodeRef]) -> None:
        # The rows are added now, before the node opens, not when Textual's NodeExpanded
        # message arrives: a key typed ahead (a terminal hands over several in one read) is
        # already queued before that message, and would move past the group still empty.
        self._fill_group(node)
        node.expand()

    def _toggle_group(self, node: TreeNode[NodeRef]) -> None:
        if node.is_expanded:
            node.collapse()
        else:
            self._open_group(node)

    def on_tree_node_expanded(self, event: Tree.NodeExpanded[NodeRef]) -> None:
        self._fill_group(event.node)  # opened another way (a click on the arrow)

    def _is_group(self, node: TreeNode[NodeRef] | None) -> bool:
        return node is not None and node.data is not None and node.data.kind is EntryKind.GROUP

    def action_toggle_node(self) -> None:
        node = self.cursor_node
        if node is not None and self._is_group(node) and node.allow_expand:
            self._toggle_group(node)
            return
        super().action_toggle_node()

    def action_select_cursor(self) -> None:
        node = self.cursor_node
        if node is not None and self._is_group(node) and node.allow_expand:
            # enter on a group opens or closes it at once (Textual would do it one message
            # later, after a key typed ahead)
            self._toggle_group(node)
            return
        super().action_select_cursor()

    def on_tree_node_collapsed(self, event: Tree.NodeCollapsed[NodeRef]) -> None:
        data = event.node.data
        if (
            data is not None
            and data.kind is EntryKind.GROUP
            and self._groups.get(data.key) is event.node
        ):
            self._opened.discard(data.key)

    def on_tree_node_highlighted(self, event: Tree.NodeHighlighted[NodeRef]) -> None:
        data = event.node.data
        if data is not None and data.kind is ITEM:
            self._anchor = data.key

    # --- live updates --------------------------------------------------------------------

    def apply_change(self, view: SuiteView, touched: set[str]) -> None:
        """Re-label what changed; rebuild only when the rows or the groups change."""
        previous = self.view
        self.view = view
        if previous is None:
            self.show_view(view)
            return
        rows = view.listing(self.needle)
        old_rows = self.listing
        if (
            old_rows is None
            or rows.entries != old_rows.entries
            or [g.key for g in rows.groups()] != [g.key for g in old_rows.groups()]
        ):
            self.show_view(view)
            return
        self.listing = rows
        # Suite rules (duplicate ids and the like) move diagnostics between items, and the git
        # checks add theirs: refresh every label already built.
        for path, node in self._item_nodes.items():
            item = view.items.get(path)
            if item is not None:
                self._set_label(node, self._item_parts(item))
        for path, node in self._workspace_nodes.items():
            errors, warnings = view.severity_counts(path)
            head = status_badge(errors, warnings)
            head.append(" ")
            self._set_label(node, LabelParts(head, Text(printable(path, lines=False)), Text()))
        for group in rows.groups():
            group_node = self._groups.get(group.key)
            if group_node is not None:
                self._set_label(
                    group_node,
                    self._group_parts(group.title, len(group.items), group.errors, group.warnings),
                )

    # --- navigation ----------------------------------------------------------------------

    def action_expand_or_enter(self) -> None:
        """→ on a closed group opens it; on an open one, goes to its first row."""
        node = self.cursor_node
        if node is None or not node.allow_expand:
            return
        if not node.is_expanded:
            self._open_group(node)
        elif node.children:
            rebuild_tree_lines(self)
            self.move_cursor(node.children[0])

    def action_first(self) -> None:
        self.cursor_line = 0

    def action_last(self) -> None:
        self.cursor_line = self.last_line

    def action_collapse_or_leave(self) -> None:
        """← on an open group closes it; anywhere else, goes to the row's parent."""
        node = self.cursor_node
        if node is None:
            return
        if node.allow_expand and node.is_expanded:
            node.collapse()
        elif node.parent is not None and node.parent is not self.root:
            self.move_cursor(node.parent)

    def current_path(self) -> str | None:
        """The path of the item under the cursor (None on a group or a workspace row)."""
        node = self.cursor_node
        if node is None or node.data is None or node.data.kind is not ITEM:
            return None
        return node.data.key

    def current_entry(self) -> str | None:
        """The path under the cursor: an item's, or a workspace row's."""
        node = self.cursor_node
        if node is None or node.data is None or node.data.kind is EntryKind.GROUP:
            return None
        return node.data.key

    def select_path(self, path: str, scroll: bool = True) -> bool:
        """Move the cursor to an item (opening its group) or a workspace row."""
        if self.view is None:
            return False
        if path in self._workspace_nodes:
            return self._move_to(self._workspace_nodes[path], scroll)
        if path not in self.view.items:
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
        return self._move_to(node, scroll)

    def _move_to(self, node: TreeNode[NodeRef], scroll: bool) -> bool:
        # Expanding only invalidates the line map; rebuild it now so the node has its line
        # (otherwise the cursor lands on line -1 until the next idle).
        rebuild_tree_lines(self)
        self.move_cursor(node)
        if scroll:
            self.scroll_to_node(node)
        return True

    def ordered_items(self) -> Iterator[Item]:
        """Every listed item in tree order, whether its group is open or not."""
        assert self.view is not None
        rows = self.listing or self.view.listing(self.needle)
        for path in rows.entries:
            item = self.view.items.get(path)
            if item is not None:
                yield item

    def find_error(self, forward: bool = True) -> str | None:
        """The next (or previous) row with an error after the cursor, wrapping around: an item,
        or a workspace row (a suite-level error)."""
        if self.view is None:
            return None
        rows = self.listing or self.view.listing(self.needle)
        return next_error(self.view, rows, self.current_entry(), forward)
