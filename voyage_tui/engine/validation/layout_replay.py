"""The walk's answer replayed from the validation cache, for a Suite's load with the cache (the
app's warm start, a `validate` that must check some files): the same folder stamps
`validate`'s replay trusts (result_cache.py), so an unchanged workspace is listed with one
lstat per folder instead of a listing of each (at 100,000 fixtures the walk was the largest
part of the app's warm load, issue 23).

While no stamp of a folder the walk listed (or looked at) moved, a walk would list the same
files: no file was added, removed or renamed, no folder replaced or relinked. The listing the
cache holds (result_cache.py LISTING) then is the Layout: its files, split into the walk's lists
by the classifier (as the walk does), its ratings files, the walk's problems. Only a run without
git writes a listing (git's ignores decide which JSON files a run with git lists), so only such a
run replays one. Files' own stamps are not looked at here: the item cache compares them, file by
file, as after a walk (`ItemCache.fresh`); a file that gave no item (`others`) is skipped while
its stamp holds.
"""

from __future__ import annotations

import os
import stat
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from voyage_tui.engine.diagnostics import Diagnostic
from voyage_tui.engine.kinds import FileKind
from voyage_tui.engine.loading.stamps import Stamp, pack_stat, same_stamp, stamp_of
from voyage_tui.engine.validation.cache import (
    LISTING_FORMAT,
    decode_diagnostics,
    encode_diagnostics,
)
from voyage_tui.engine.workspace.classify import WALK, Walk
from voyage_tui.engine.workspace.layout import Layout

if TYPE_CHECKING:
    from voyage_tui.engine.validation.cache import ItemCache
    from voyage_tui.engine.workspace.model import Workspace


@dataclass(frozen=True, slots=True)
class Replayed:
    layout: Layout
    """What a walk would list now."""
    no_item: frozenset[str]
    """Listed files that gave no item and have not changed since (JSON that is no gold file):
    nothing to check."""
    current: bool
    """Every such file is unchanged: the listing holds as it is (a load that finds its items
    unchanged too need not write the cache again)."""


def replay_layout(ws: Workspace, cache: ItemCache) -> Replayed | None:
    """The Layout from the listing the cache file held (`cache.recorded_listing`, after
    `cache.load()`) if no folder it stamped moved since, else None (walk). Each folder's lstat is
    handed to the cache's stamper (as a walk's is), so the files' stamps need no lstat of the
    folders above them. Never raises for what the file holds: a damaged listing is no listing."""
    listing = cache.recorded_listing
    if type(listing) is not dict or listing.get("format") != LISTING_FORMAT:
        return None
    try:
        return _replay(ws, cache, listing)
    except Exception:  # a damaged listing, whatever the damage: walk instead
        return None


def _replay(ws: Workspace, cache: ItemCache, listing: dict[str, Any]) -> Replayed | None:
    base = str(ws.root)
    prefix = base if base.endswith(os.sep) else base + os.sep
    lstat, is_link, pack = os.lstat, stat.S_ISLNK, pack_stat
    stamper = cache.stamper
    seen_folder = stamper.seen_folder
    folder_stamps: list[tuple[str, Stamp]] = []
    for rel, recorded in listing["folders"]:
        # result_cache._replay's folder_unchanged, keeping each stamp for the next listing.
        path = prefix + rel if rel else base
        try:
            st = lstat(path)
        except OSError:
            if recorded is not None:
                return None
            folder_stamps.append((rel, None))
            continue
        seen_folder(rel, path, st)
        if is_link(st.st_mode):
            if not same_stamp(recorded, stamp_of(path, st)):
                return None
        elif pack(st) != recorded:
            return None
        folder_stamps.append((rel, recorded))
    layout = Layout(folder_stamps=folder_stamps)
    if not _split_files(ws, cache, listing["files"], layout):
        return None
    adjudications = ws.adjudications_rel
    for rel, _, _ in listing["ratings"]:
        if type(rel) is not str:
            return None
        if rel != adjudications:
            layout.ratings.append(rel)
    layout.problems = decode_diagnostics(None, listing["layout"])
    if (
        adjudications
        and ws.classifier.kind(adjudications) is FileKind.ADJUDICATION
        and os.path.lexists(ws.abs(adjudications))
    ):
        layout.adjudications = adjudications
    others = listing["others"]
    no_item = _unchanged(cache, others)
    return Replayed(layout, no_item, len(no_item) == len(others))


_ORDER = {Walk.FIXTURE: 0, Walk.AGENT_RUN: 1, Walk.JSON: 2}
_WALK_OF = {kind.value: WALK[kind] for kind in FileKind}


def _split_files(ws: Workspace, cache: ItemCache, files: list[Any], layout: Layout) -> bool:
    """The listing's files (the walk's tasks, agent runs and JSON files, in that order) back
    into the three lists; False when they cannot be. What each file is comes from its cached
    item's kind (a file's item has the kind the walk listed it as), else from the classifier,
    which at 100,000 files costs more than the rest of the replay: the three groups must come
    in the walk's order, or the listing is not replayed."""
    lists = (layout.tasks, layout.agent_runs, layout.json_candidates)
    entries, kind_of = cache.entries, ws.classifier.kind
    at = 0
    for rel in files:
        if type(rel) is not str:
            return False
        entry = entries.get(rel)
        how = _WALK_OF.get(entry[3]) if entry is not None else WALK[kind_of(rel)]
        group = _ORDER.get(how) if how is not None else None
        if group is None or group < at:
            return False  # not what the walk lists, or out of its order: never guess
        at = group
        lists[group].append(rel)
    return True


def _unchanged(cache: ItemCache, others: list[list[Any]]) -> frozenset[str]:
    stamp = cache.stamper.stamp
    return frozenset(rel for rel, recorded in others if same_stamp(recorded, stamp(rel)))


def unchanged_without_item(cache: ItemCache) -> frozenset[str]:
    """The files the cache's listing says gave no item, unchanged since (after a walk, when the
    listing could not be replayed whole): they give none now either."""
    listing = cache.recorded_listing
    if type(listing) is not dict or listing.get("format") != LISTING_FORMAT:
        return frozenset()
    try:
        return _unchanged(cache, listing["others"])
    except Exception:  # a damaged listing: check them
        return frozenset()


# --- the listing a load leaves for the next one ----------------------------------------------------


@dataclass(frozen=True, slots=True)
class ListingParts:
    """What a listing holds besides the stamps of the files the cache records, taken when the
    load's suite was checked (a front end writes the cache later, after its first paint, while
    its suite may have changed since)."""

    layout: Layout
    items: frozenset[str]
    """The listed files that gave an item."""
    ratings: list[list[Any]]
    workspace: list[Any]
    layout_problems: list[Any]
    suite: list[Any]
    coverage: dict[str, dict[str, int]]

    def finish(self, cache: ItemCache) -> dict[str, Any] | None:
        """The listing, once `cache.record` made the entries it goes with; None when an item
        could not be stored (no answer can be replayed then)."""
        layout = self.layout
        files = [*layout.tasks, *layout.agent_runs, *layout.json_candidates]
        others = []
        entries, items = cache.entries, self.items
        for rel in files:
            if rel in entries:
                continue
            if rel in items:
                return None
            own, _ = cache.stamps_of(rel, ())
            others.append([rel, own])
        return {
            "format": LISTING_FORMAT,
            "folders": [[rel, folder] for rel, folder in layout.folder_stamps],
            "files": files,
            "others": others,
            "ratings": self.ratings,
            "workspace": self.workspace,
            "layout": self.layout_problems,
            "suite": self.suite,
            "coverage": self.coverage,
        }


def listing_parts(
    layout: Layout,
    items: dict[str, Any],
    ratings: dict[str, Stamp],
    workspace: list[Diagnostic],
    layout_problems: list[Diagnostic],
    suite: list[Diagnostic],
    coverage: dict[str, dict[str, int]],
) -> ListingParts:
    """`items`: the suite's items by path; `ratings`: the stamps of the ratings files and the
    adjudications file (present or not) taken before they were read."""
    rated = []
    for rel, stamped in ratings.items():
        item = items.get(rel)
        diagnostics = None if item is None else encode_diagnostics(item.diagnostics, rel)
        rated.append([rel, stamped, diagnostics])
    return ListingParts(
        layout,
        frozenset(items),
        rated,
        encode_diagnostics(workspace),
        encode_diagnostics(layout_problems),
        encode_diagnostics(suite),
        coverage,
    )
