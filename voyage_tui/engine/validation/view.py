"""A consistent, read-only picture of the suite at one moment, for a UI on another thread.

The app never reads a Suite while a worker re-validates it: the worker hands over a SuiteView
(a copy of the item map, the git checks' results combined in). Items are frozen and the suite
replaces them, never changes them, so a view once made stays what it was: its header counts are
the sum over its items, whatever the workers do next. Each view carries the generation it was
made in; the app applies a view only when it is newer than the one shown.

How the browser lists the suite is decided here too, as plain functions of a view: the groups
and their order, the filter, and where "next error" goes (`listing`, `next_error`).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from enum import StrEnum
from operator import attrgetter
from pathlib import Path
from typing import TYPE_CHECKING

from voyage_tui.engine.diagnostics import Diagnostic, Severity
from voyage_tui.engine.formats.vocabulary import CLASSES, TRAJECTORY_PATHS
from voyage_tui.engine.items import Item
from voyage_tui.engine.kinds import FIXTURE_KINDS, FileKind
from voyage_tui.engine.references.loaded import References
from voyage_tui.engine.validation.suite import Suite, Summary, summarize
from voyage_tui.engine.validation.suite_rules import class_folder
from voyage_tui.engine.workspace.model import Workspace

if TYPE_CHECKING:
    from voyage_tui.engine.campaign.snapshot import Campaign


class EntryKind(StrEnum):
    """What a row of the browser's tree stands for."""

    GROUP = "group"
    """A group heading (never an entry of a listing: `Listing.entries` holds paths)."""
    ITEM = "item"
    """A listed item."""
    WORKSPACE = "workspace"
    """A path that only workspace-level diagnostics name (voyage.toml, the fixtures folder for
    a suite rule, a folder with a layout problem)."""


ITEM = EntryKind.ITEM
WORKSPACE = EntryKind.WORKSPACE


@dataclass(frozen=True, slots=True)
class SuiteView:
    ws: Workspace
    refs: References
    items: dict[str, Item]
    """Every item, its git checks' diagnostics included."""
    workspace_diagnostics: tuple[Diagnostic, ...]
    summary: Summary
    """The counts over `workspace_diagnostics` and `items`: always their sum."""
    coverage: dict[str, dict[str, int]]
    by_path: dict[str, tuple[Diagnostic, ...]]
    """Workspace-level diagnostics (duplicate ids, layout problems, suite rules) by the one
    file or folder they name."""
    children: dict[str, tuple[Item, ...]]
    """Items listed under another (agent runs under their fixture, runs under their gold)."""
    exposed: frozenset[str] = frozenset()
    """The paths of the holdouts the git checks found exposed."""
    generation: int = 0
    """When the view was made: a later view has a larger number (0: not numbered)."""
    unchecked: frozenset[str] = frozenset()
    """Listed but not checked yet (engine/validation/listed.py): their items are stand-ins
    made from the path alone (kind, folder id, parent), with no diagnostics. Empty for every
    view of a loaded suite."""
    campaign_loader: Callable[[], Campaign] | None = None
    """The suite's rating campaign as of this view (Suite.campaign_loader), made when first
    asked for; None for a view not made from a suite."""

    def campaign(self) -> Campaign:
        """The rating campaign of this view: the suite's, with nothing read again; for a view
        not made from a suite, read from the work tree now (the view's rubric and runs)."""
        if self.campaign_loader is not None:
            return self.campaign_loader()
        from voyage_tui.engine.campaign.snapshot import load_campaign
        from voyage_tui.engine.campaign.source import WorkTree

        return load_campaign(WorkTree(self.ws, self.items, self.refs.rubric, check_runs=True))

    @property
    def checking(self) -> bool:
        """A view of the listing, before every file is checked: counts are not final."""
        return bool(self.unchecked)

    @property
    def root(self) -> Path:
        return self.ws.root

    def fixtures(self) -> Iterator[Item]:
        return (i for i in self.items.values() if i.kind in FIXTURE_KINDS)

    @property
    def fixture_count(self) -> int:
        return sum(1 for _ in self.fixtures())

    @property
    def holdout_count(self) -> int:
        return sum(1 for i in self.fixtures() if i.visibility == "holdout")

    def is_exposed(self, path: str) -> bool:
        return path in self.exposed

    def diagnostics_for(self, path: str) -> list[Diagnostic]:
        item = self.items.get(path)
        out = list(item.diagnostics) if item else []
        out += self.by_path.get(path, ())
        out.sort(key=Diagnostic.sort_key)
        return out

    def severity_counts(self, path: str) -> tuple[int, int]:
        """(errors, warnings) of one file (or workspace entry), workspace-level ones included."""
        errors = warnings = 0
        item = self.items.get(path)
        for d in (*(item.diagnostics if item else ()), *self.by_path.get(path, ())):
            if d.severity is Severity.ERROR:
                errors += 1
            elif d.severity is Severity.WARNING:
                warnings += 1
        return errors, warnings

    def children_of(self, path: str) -> tuple[Item, ...]:
        return self.children.get(path, ())

    def group_of(self, item: Item) -> str | None:
        return group_of(self, item)

    def listing(self, needle: str = "") -> Listing:
        return listing(self, needle)

    def next_error(self, current: str | None, forward: bool = True, needle: str = "") -> str | None:
        return next_error(self, self.listing(needle), current, forward)


def view_of(suite: Suite, generation: int = 0) -> SuiteView:
    """The suite as it is now. Call it where no worker changes the suite meanwhile."""
    git = suite.git_results
    items = dict(suite.items)
    for path, found in git.by_path.items():
        item = items.get(path)
        if item is not None and found:
            items[path] = dataclasses.replace(item, diagnostics=item.diagnostics + found)
    return assemble(
        suite.ws,
        dataclasses.replace(suite.refs),
        items,
        tuple(suite.workspace_diagnostics()),
        coverage=suite.coverage(),
        exposed=frozenset(p for p in git.exposed if p in items),
        generation=generation,
        campaign_loader=suite.campaign_loader(items),
    )


def assemble(
    ws: Workspace,
    refs: References,
    items: dict[str, Item],
    workspace: tuple[Diagnostic, ...],
    *,
    coverage: dict[str, dict[str, int]],
    exposed: frozenset[str] = frozenset(),
    generation: int = 0,
    unchecked: frozenset[str] = frozenset(),
    campaign_loader: Callable[[], Campaign] | None = None,
) -> SuiteView:
    """A view of `items` (kept, not copied): the counts, the workspace diagnostics by path and
    the items under their parents, computed from them."""
    by_path: dict[str, list[Diagnostic]] = {}
    for d in workspace:
        by_path.setdefault(d.path, []).append(d)
    children: dict[str, list[Item]] = {}
    for item in items.values():
        if item.parent is not None and item.parent in items:
            children.setdefault(item.parent, []).append(item)
    return SuiteView(
        ws=ws,
        refs=refs,
        items=items,
        workspace_diagnostics=workspace,
        summary=summarize(len(items), workspace, (i.diagnostics for i in items.values())),
        coverage=coverage,
        by_path={p: tuple(ds) for p, ds in by_path.items()},
        children={p: tuple(sorted(cs, key=lambda i: i.path)) for p, cs in children.items()},
        exposed=exposed,
        generation=generation,
        unchecked=unchecked,
        campaign_loader=campaign_loader,
    )


def changed_paths(before: SuiteView | None, after: SuiteView) -> set[str]:
    """The paths whose item differs between two views (appeared, went, or checked again):
    Items are never changed in place, so a different object is a different result."""
    if before is None:
        return set(after.items)
    old, new = before.items, after.items
    changed = {p for p, item in new.items() if old.get(p) is not item}
    changed.update(p for p in old if p not in new)
    return changed


# --- how the browser lists a view ------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Group:
    key: str
    """`class:<class folder>`, `path:<journey path>`, `gold` or `ratings`."""
    title: str
    items: tuple[Item, ...]
    """The group's items (those the filter matches), by id then path; runs are their children."""
    errors: int
    warnings: int


@dataclass(frozen=True, slots=True)
class Listing:
    """What the browser lists for one view and one filter, in the order it lists it."""

    needle: str
    fixtures: tuple[Group, ...]
    trajectories: tuple[Group, ...]
    gold: Group
    ratings: Group
    """The raters' files; listed (and in `groups`) only when there is one to list."""
    workspace: tuple[str, ...]
    """Paths only workspace-level diagnostics name; listed whatever the filter."""
    entries: tuple[str, ...]
    """The path of every row a cursor can stop on, in tree order: each item followed by its
    children, then the workspace paths (the last `len(workspace)`). Plain paths: a listing is
    made on every change of a suite of 11,000 items, and an object per row would cost the
    garbage collector more than the listing itself."""

    def kind_of(self, path: str) -> EntryKind:
        """ITEM or WORKSPACE."""
        return WORKSPACE if path in self.workspace else ITEM

    @property
    def matched(self) -> int:
        """How many items the filter lets through (runs under them not counted)."""
        return sum(len(g.items) for g in self.groups())

    def groups(self) -> Iterator[Group]:
        yield from self.fixtures
        yield from self.trajectories
        yield self.gold
        if self.ratings.items:
            yield self.ratings

    def group(self, key: str) -> Group | None:
        return next((g for g in self.groups() if g.key == key), None)


class Grouping(StrEnum):
    """Where the browser's tree lists an item of a kind."""

    CLASS = "class"
    """Under its class folder's group (`class:<folder>`)."""
    JOURNEY_PATH = "path"
    """Under its journey path's group (`path:<path>`)."""
    GOLD = "gold"
    RATINGS = "ratings"
    UNDER_PARENT = "parent"
    """Below its parent item (a run below its fixture or gold file), in no group of its own."""
    NOT_LISTED = "unlisted"
    """Never an item."""


GROUPING: dict[FileKind, Grouping] = {
    FileKind.TASK: Grouping.CLASS,
    FileKind.TRAJECTORY: Grouping.JOURNEY_PATH,
    FileKind.AGENT_RUN: Grouping.UNDER_PARENT,
    FileKind.GOLD: Grouping.GOLD,
    FileKind.GOLD_RUN: Grouping.UNDER_PARENT,
    FileKind.RATING: Grouping.RATINGS,
    FileKind.ADJUDICATION: Grouping.RATINGS,
    FileKind.REFERENCE: Grouping.NOT_LISTED,
    FileKind.CONFIG: Grouping.NOT_LISTED,
    FileKind.MISPLACED_TASK: Grouping.NOT_LISTED,
    FileKind.OTHER: Grouping.NOT_LISTED,
}
"""The group concern of each file kind (see engine/kinds.py)."""

HOLDS_RUNS = frozenset({FileKind.TASK, FileKind.GOLD})
"""The kinds whose items have runs listed under them (`SuiteView.children_of`)."""


CHECKING_PATH = "(checking)"
"""The journey-path group of trajectories not checked yet: their path is in the file."""


def _journey_group(item: Item, unchecked: frozenset[str]) -> str:
    if item.fixture_class:
        return f"path:{item.fixture_class}"
    return f"path:{CHECKING_PATH if item.path in unchecked else '(no path)'}"


def group_of(view: SuiteView, item: Item) -> str | None:
    """The group key an item is listed under, or None for items listed under a parent."""
    how = GROUPING[item.kind]
    if how is Grouping.CLASS:
        return f"class:{class_folder(item, view.ws.fixtures_rel)}"
    if how is Grouping.JOURNEY_PATH:
        return _journey_group(item, view.unchecked)
    if how is Grouping.GOLD:
        return "gold"
    if how is Grouping.RATINGS:
        return "ratings"
    return None


def matches(item: Item, needle: str) -> bool:
    """Whether the filter `needle` (lower case) is in the item's id, prompt or path."""
    if not needle:
        return True
    return (
        needle in (item.id or "").lower()
        or needle in item.prompt.lower()
        or needle in item.path.lower()
    )


def _by_id_then_path(items: list[Item]) -> tuple[Item, ...]:
    # Two stable sorts on strings the items already hold: no key tuple per item.
    items = sorted(items, key=attrgetter("path"))
    items.sort(key=lambda i: i.id or "")
    return tuple(items)


def _group_keys(members: dict[str, list[Item]], prefix: str, known: tuple[str, ...]) -> list[str]:
    """The groups of one kind in tree order: the known ones first, in vocabulary order, then any
    other folder (a misspelt class folder still shows, last)."""
    keys = [f"{prefix}:{name}" for name in known]
    return keys + sorted(k for k in members if k.startswith(f"{prefix}:") and k not in keys)


def listing(view: SuiteView, needle: str = "") -> Listing:
    """The groups, their items and the rows of `view` under the filter `needle`. Without a
    filter every known class and journey path has a group (empty ones too); with one, only the
    groups that have a match."""
    needle = needle.lower().strip()
    members: dict[str, list[Item]] = {}
    # Run on every change of an 11,000-item suite: group_of and severity_counts inlined.
    prefix = view.ws.fixtures_rel + "/" if view.ws.fixtures_rel else ""
    cut = len(prefix)
    grouping, unchecked = GROUPING, view.unchecked
    for item in view.items.values():
        how = grouping[item.kind]
        if how is Grouping.CLASS:
            path = item.path
            rest = path[cut:] if path.startswith(prefix) else path
            key = "class:" + rest.split("/", 1)[0]
        elif how is Grouping.JOURNEY_PATH:
            key = _journey_group(item, unchecked)
        elif how is Grouping.GOLD:
            key = "gold"
        elif how is Grouping.RATINGS:
            key = "ratings"
        else:
            continue
        if not needle or matches(item, needle):
            members.setdefault(key, []).append(item)
    by_path = view.by_path

    def group(key: str, title: str) -> Group:
        items = _by_id_then_path(members.get(key, []))
        errors = warnings = 0
        for item in items:
            if item.diagnostics or item.path in by_path:
                e, w = view.severity_counts(item.path)
                errors += e
                warnings += w
        return Group(key, title, items, errors, warnings)

    def groups(prefix: str, known: tuple[str, ...]) -> tuple[Group, ...]:
        out = (group(key, key.split(":", 1)[1]) for key in _group_keys(members, prefix, known))
        return tuple(g for g in out if g.items or not needle)

    fixtures = groups("class", CLASSES)
    trajectories = groups("path", TRAJECTORY_PATHS)
    gold = group("gold", "Gold corpora")
    ratings = group("ratings", "Ratings")
    workspace = tuple(sorted({d.path for d in view.workspace_diagnostics} - view.items.keys()))
    entries: list[str] = []
    append, children = entries.append, view.children
    for g in (*fixtures, *trajectories, gold, ratings):
        for item in g.items:
            append(item.path)
            under = children.get(item.path)
            if under:
                entries.extend(c.path for c in under)
    entries.extend(workspace)
    return Listing(needle, fixtures, trajectories, gold, ratings, workspace, tuple(entries))


def next_error(
    view: SuiteView, rows: Listing, current: str | None, forward: bool = True
) -> str | None:
    """The path of the next (or previous) row of `rows` with an error after `current` (an
    item's path or a workspace path), wrapping around. Suite-level errors count: a workspace
    row with an error is a stop like any item."""
    with_errors = [p for p in rows.entries if view.severity_counts(p)[0]]
    if not with_errors:
        return None
    position = {path: index for index, path in enumerate(rows.entries)}
    here = position.get(current, -1) if current else -1
    if forward:
        later = [p for p in with_errors if position[p] > here]
        return later[0] if later else with_errors[0]
    if here < 0:
        return with_errors[-1]
    earlier = [p for p in with_errors if position[p] < here]
    return earlier[-1] if earlier else with_errors[-1]
