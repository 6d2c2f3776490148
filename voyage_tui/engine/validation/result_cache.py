"""`voyage-tui validate` with the cache: an unchanged suite is answered from the cache file and a
stat of each of its files and folders, without parsing a file (or importing a parser).

A run with the cache goes one of two ways:
- **replay**: the workspace's cache file (cache.py) holds a snapshot of the last run and nothing
  it depends on moved: the key (code, voyage.toml, the references: cache_key.py), the stamp of
  every folder the walk listed (so no file was added, removed or renamed), of every file the
  walk found and of every file an item depends on, of every ratings file. The answer is then
  rebuilt from what was stored: the diagnostics of each file and of the workspace (config,
  references, layout), and the summary of each fixture the suite-level rules and the coverage
  counts read (those rules run again: they are cheap, and they depend on every fixture).
- **check**: anything else. The Suite validates, reusing the items of unchanged files from the
  same cache (the app's too), and the cache is written again with a new snapshot.

The snapshot is written only by a run without git. The git checks (final_head_sha, holdout
exposure, and a rating of a run that git history once held) depend on the repository's state,
which no stamp here covers: a run with git always runs them, and reuses only the items.

The snapshot (msgpack, SNAPSHOT_FORMAT), self-contained (the items are not unpacked to replay):
    {"format": 1, "fixtures": the fixtures folder,
     "folders": [[rel, stamp], ...] (every folder the walk looked at, stamped before),
     "files": [[rel, stamp, [[dep, stamp], ...], summary, diagnostics], ...] for every file the
        walk listed, in the Suite's order; summary is [kind, id, class, boundary, visibility,
        id_position, path (None: rel)], or None for a file that gave no item (a JSON file that
        is no gold file); a diagnostic's path None stands for rel,
     "ratings": [[rel, stamp, diagnostics, or None when it vanished], ...],
     "workspace": the diagnostics of voyage.toml and the references, "layout": the walk's}
"""

from __future__ import annotations

import os
import stat
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from voyage_tui.engine.bulk import gc_paused
from voyage_tui.engine.diagnostics import Diagnostic, Severity
from voyage_tui.engine.items import RATING, TASK, TRAJECTORY, Item
from voyage_tui.engine.loading.stamps import Stamp, same_stamp, stamp
from voyage_tui.engine.validation.cache import (
    MAX_CACHE_BYTES,
    ItemCache,
    cache_file_name,
    decode_diagnostics,
    decode_position,
    encode_diagnostics,
    read_cache_file,
)
from voyage_tui.engine.validation.cache_key import config_digest, workspace_key
from voyage_tui.engine.validation.cache_store import cache_root, read_private
from voyage_tui.engine.validation.suite_rules import (
    adversarial_coverage,
    coverage,
    duplicate_ids,
)

if TYPE_CHECKING:
    from voyage_tui.engine.validation.suite import Suite
    from voyage_tui.engine.workspace.layout import Layout

SNAPSHOT_FORMAT = 1
_FIXTURE_KINDS = (TASK, TRAJECTORY)
_OPT_TEXT = (str, type(None))


@dataclass(slots=True)
class ValidationResult:
    """What `validate` reports, however it was found."""

    root: Path
    diagnostics: list[Diagnostic]
    """Sorted, as Suite.diagnostics() gives them."""
    files: int
    errors: int
    warnings: int
    infos: int
    coverage: dict[str, dict[str, int]]
    replayed: bool = False
    """Answered from the snapshot: no file was checked."""


def validate(root: Path, *, use_git: bool = True, use_cache: bool = True) -> ValidationResult:
    """Validate the workspace at `root` (found by discovery) as `voyage-tui validate` does."""
    if use_cache and not use_git:
        replayed = replay(root)
        if replayed is not None:
            return replayed
    return _check(root, use_git=use_git, use_cache=use_cache)


# --- check: the Suite, with the item cache -------------------------------------------------------


def _check(root: Path, *, use_git: bool, use_cache: bool) -> ValidationResult:
    from voyage_tui.engine.validation.suite import Suite
    from voyage_tui.engine.workspace.model import Workspace

    ws = Workspace.from_root(root)
    suite = Suite(ws, use_git=use_git, parallel=True)
    if not use_cache:
        suite.validate_all()
        return _result_of(suite)
    cache = ItemCache(ws, listing=not use_git)
    prepared = suite.prepare(fork=suite.parallel, cache=cache)
    # Stamped before validate_all reads them: an edit in between moves the stamp.
    ratings = {rel: stamp(ws.abs(rel)) for rel in prepared.layout.ratings}
    suite.validate_all(prepared=prepared)
    snapshot = None if use_git else _snapshot(suite, prepared.layout, cache, ratings)
    cache.save({rel: i for rel, i in suite.items.items() if i.kind != RATING}, snapshot)
    return _result_of(suite)


def _result_of(suite: Suite) -> ValidationResult:
    summary = suite.summary()
    return ValidationResult(
        suite.ws.root,
        suite.diagnostics(),
        summary.files,
        summary.errors,
        summary.warnings,
        summary.infos,
        suite.coverage(),
    )


def _snapshot(
    suite: Suite, layout: Layout, cache: ItemCache, ratings: dict[str, Stamp]
) -> dict[str, Any]:
    files: list[list[Any]] = []
    for rel in [*layout.tasks, *layout.agent_runs, *layout.json_candidates]:
        item = suite.items.get(rel)
        if item is None:
            own, _ = cache.stamps_of(rel, ())
            files.append([rel, own, [], None, []])
            continue
        own, deps = cache.stamps_of(rel, item.deps)
        summary = [
            item.kind,
            item.id,
            item.fixture_class,
            item.boundary,
            item.visibility,
            item.id_position,
            None if item.path == rel else item.path,
        ]
        files.append([rel, own, deps, summary, encode_diagnostics(item.diagnostics, rel)])
    rated = []
    for rel in layout.ratings:
        item = suite.items.get(rel)
        diagnostics = None if item is None else encode_diagnostics(item.diagnostics, rel)
        rated.append([rel, ratings.get(rel), diagnostics])
    ws = suite.ws
    return {
        "format": SNAPSHOT_FORMAT,
        "fixtures": ws.fixtures_rel,
        "folders": [[rel, folder] for rel, folder in layout.folder_stamps],
        "files": files,
        "ratings": rated,
        "workspace": encode_diagnostics([*ws.config_diagnostics, *suite.refs.diagnostics]),
        "layout": encode_diagnostics(suite.layout_problems),
    }


# --- replay: the answer from the snapshot -------------------------------------------------------


def replay(root: Path) -> ValidationResult | None:
    """The answer of the last run without git if nothing it depends on changed since, else
    None. Reads one file of the user's cache dir (cache_store.py decides whether it may be
    trusted) and stats the workspace; never raises for what it finds there."""
    root_real = os.path.realpath(root)
    data = read_private(cache_root(), cache_file_name(root_real), MAX_CACHE_BYTES)
    if data is None:
        return None
    try:
        with gc_paused():  # a hundred thousand small lists, none of them in a cycle
            return _replay(root, root_real, data)
    except Exception:  # a damaged cache file, whatever the damage: the suite is checked instead
        return None


def _fixture(rel: str, summary: list[Any]) -> Item:
    """The part of a fixture's item the suite-level rules and the coverage counts read."""
    kind, id_, fixture_class, boundary, visibility, id_position, path = summary
    if path is None:
        path = rel
    if (
        type(path) is not str
        or type(id_) not in _OPT_TEXT
        or type(fixture_class) not in _OPT_TEXT
        or type(boundary) not in _OPT_TEXT
        or type(visibility) not in _OPT_TEXT
    ):
        raise TypeError("not a summary of this format")
    return Item(
        path,
        kind,
        id=id_,
        fixture_class=fixture_class,
        boundary=boundary,
        visibility=visibility,
        id_position=decode_position(id_position),
    )


def _replay(root: Path, root_real: str, data: bytes) -> ValidationResult | None:
    read = read_cache_file(data)
    if read is None or type(read.snapshot) is not dict:
        return None
    snapshot: dict[str, Any] = read.snapshot
    if snapshot.get("format") != SNAPSHOT_FORMAT:
        return None
    base = str(root)
    key = workspace_key(base, root_real, config_digest(root), read.references, read.max_bytes)
    if key != read.key:
        return None
    # Every path in the snapshot is a workspace-relative str; a damaged one fails the `+` or the
    # lstat (TypeError, ValueError), and replay() answers None.
    prefix = base if base.endswith(os.sep) else base + os.sep

    lstat, is_link = os.lstat, stat.S_ISLNK

    def unchanged(rel: str, recorded: object) -> bool:
        """stamp() and same_stamp() inline: this runs for every file and folder of the suite."""
        path = prefix + rel if rel else base
        try:
            st = lstat(path)
        except OSError:
            return recorded is None
        if is_link(st.st_mode):
            return same_stamp(recorded, stamp(path))
        return [st.st_mtime_ns, st.st_ctime_ns, st.st_size, st.st_ino, st.st_dev] == recorded

    for rel, recorded in snapshot["folders"]:
        if not unchanged(rel, recorded):
            return None
    fixtures: list[Item] = []
    found: list[Diagnostic] = []
    files = 0
    for rel, recorded, deps, summary, raw_diagnostics in snapshot["files"]:
        if not unchanged(rel, recorded):
            return None
        for dep, dep_recorded in deps:
            if not unchanged(dep, dep_recorded):
                return None
        if summary is None:
            continue  # a file that gave no item
        files += 1
        if raw_diagnostics:
            found += decode_diagnostics(rel, raw_diagnostics)
        if summary[0] in _FIXTURE_KINDS:
            fixtures.append(_fixture(rel, summary))
    for rel, recorded, raw_diagnostics in snapshot["ratings"]:
        if not unchanged(rel, recorded):
            return None
        if raw_diagnostics is not None:
            found += decode_diagnostics(rel, raw_diagnostics)
            files += 1
    fixtures_rel = snapshot["fixtures"]
    if type(fixtures_rel) is not str:
        return None
    # In the order of Suite.diagnostics(): the workspace's, then each item's; the sort is
    # stable, so diagnostics that sort alike stay in that order as they do there.
    diagnostics = [
        *decode_diagnostics(None, snapshot["workspace"]),
        *decode_diagnostics(None, snapshot["layout"]),
        *duplicate_ids(fixtures),
        *adversarial_coverage(fixtures, fixtures_rel),
        *found,
    ]
    diagnostics.sort(key=Diagnostic.sort_key)
    counts = {Severity.ERROR: 0, Severity.WARNING: 0, Severity.INFO: 0}
    for diagnostic in diagnostics:
        counts[diagnostic.severity] += 1
    return ValidationResult(
        root,
        diagnostics,
        files,
        counts[Severity.ERROR],
        counts[Severity.WARNING],
        counts[Severity.INFO],
        coverage(fixtures),
        replayed=True,
    )
