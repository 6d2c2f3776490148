"""`voyage-tui validate` with the cache: an unchanged suite is answered from the cache file and a
stat of each of its files and folders, without parsing a file (or importing a parser).

A run with the cache goes one of two ways:
- **replay**: the workspace's cache file (cache.py) holds the listing of the last run without
  git, and nothing it depends on moved: the key (code, voyage.toml, the references:
  cache_key.py), the stamp of every folder the walk listed (so no file was added, removed or
  renamed), of every file the walk found and of every file an item depends on, of every ratings
  file. The answer is then rebuilt from the file: the diagnostics of each item (in its summary),
  of the ratings files, of the workspace (config, references, layout) and of the suite-level
  rules, and the coverage counts. Those last two are functions of the items' summaries, the
  fixtures folder and the code, all unchanged when a replay is allowed, so they are stored as
  they were computed. Nothing is parsed, and pydantic, PyYAML and markdown-it are not imported.
- **check**: anything else. The Suite validates, reusing the items of unchanged files from the
  same cache (the app's too), and the cache is written again, with a new listing: the check
  every command that needs a validated suite makes (validated.py).

The listing is written only by a run without git. The git checks (final_head_sha, holdout
exposure, and a rating of a run that git history once held) depend on the repository's state,
which no stamp here covers: a run with git always runs them, and reuses only the items.

The listing (msgpack, LISTING_FORMAT), in the cache file beside the items it was made with:
    {"format": 1,
     "folders": [[rel, stamp], ...] (every folder the walk looked at, stamped before),
     "files": [rel, ...] (every file the walk listed, in the Suite's order),
     "others": [[rel, stamp], ...] (listed files that gave no item: JSON that is no gold file),
     "ratings": [[rel, stamp, diagnostics, or None when it vanished], ...],
     "workspace": the diagnostics of voyage.toml and the references, "layout": the walk's,
     "suite": the suite-level rules', "coverage": the coverage counts}
"""

from __future__ import annotations

import os
import stat
from collections.abc import Callable
from pathlib import Path

from voyage_tui.engine.bulk import gc_paused
from voyage_tui.engine.diagnostics import Diagnostic, Severity
from voyage_tui.engine.loading.once import ReadOnce
from voyage_tui.engine.loading.stamps import PathStamper, pack_stat, same_stamp, stamp_of
from voyage_tui.engine.validation.cache import (
    LISTING_FORMAT,
    CacheFile,
    cache_file_name,
    decode_diagnostics,
    read_head,
)
from voyage_tui.engine.validation.cache_key import config_digest, workspace_key
from voyage_tui.engine.validation.cache_store import cache_root, touch_private

TYPE_CHECKING = False  # typing's, without importing typing: validate's start-up (issue 23)
if TYPE_CHECKING:
    from typing import Any

    from voyage_tui.engine.validation.suite import Suite


class ValidationResult:
    """What `validate` reports, however it was found. (A plain class, not a dataclass: a replay
    imports no `dataclasses` at all, issue 23; engine/diagnostics.py says why.)"""

    __slots__ = (
        "coverage",
        "diagnostics",
        "errors",
        "files",
        "infos",
        "pending_write",
        "replayed",
        "root",
        "warnings",
    )

    def __init__(
        self,
        root: Path,
        diagnostics: list[Diagnostic],
        files: int,
        errors: int,
        warnings: int,
        infos: int,
        coverage: dict[str, dict[str, int]],
        replayed: bool = False,
        pending_write: Callable[[], None] | None = None,
    ) -> None:
        self.root = root
        self.diagnostics = diagnostics
        """Sorted, as Suite.diagnostics() gives them."""
        self.files = files
        self.errors = errors
        self.warnings = warnings
        self.infos = infos
        self.coverage = coverage
        self.replayed = replayed
        """Answered from the listing and the summaries in the cache: no file was checked."""
        self.pending_write = pending_write
        """With `defer_write`: the cache write, for the caller to run once its output is out."""

    def finish(self) -> None:
        """Write the cache, if that was deferred (at most once)."""
        write, self.pending_write = self.pending_write, None
        if write is not None:
            write()


def validate(
    root: Path, *, use_git: bool = True, use_cache: bool = True, defer_write: bool = False
) -> ValidationResult:
    """Validate the workspace at `root` (found by discovery) as `voyage-tui validate` does.
    `defer_write`: the cache is written by the result's `finish()`, so a command can print
    first (the user waits for the answer, not for the cache)."""
    # The run's reads: the references a replay's key read are the ones a check parses.
    reads = ReadOnce(str(root), os.path.realpath(root))
    if use_cache and not use_git:
        replayed = replay(root, reads)
        if replayed is not None:
            return replayed
    result = _check(root, use_git=use_git, use_cache=use_cache, reads=reads)
    if not defer_write:
        result.finish()
    return result


# --- check: the Suite, with the item cache -------------------------------------------------------


def _check(root: Path, *, use_git: bool, use_cache: bool, reads: ReadOnce) -> ValidationResult:
    from voyage_tui.engine.validation.validated import check_with_cache
    from voyage_tui.engine.workspace.model import Workspace

    ws = Workspace.from_root(root)
    suite, write = check_with_cache(ws, use_git=use_git, use_cache=use_cache, reads=reads)
    result = _result_of(suite)
    result.pending_write = write
    return result


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


# --- replay: the answer from the cache file -------------------------------------------------------


def replay(root: Path, reads: ReadOnce | None = None) -> ValidationResult | None:
    """The answer of the last run without git if nothing it depends on changed since, else
    None. Reads one file of the user's cache dir (cache_store.py decides whether it may be
    trusted) and stats the workspace; never raises for what it finds there. The references
    its key reads are kept in `reads`, for the check that follows a miss."""
    root_real = os.path.realpath(root)
    reads = reads if reads is not None else ReadOnce(str(root), root_real)
    name = cache_file_name(root_real)
    # The head alone: the details (the texts the app shows) are checked, never kept (issue 23).
    read = read_head(cache_root(), name)
    if read is None:
        return None
    try:
        with gc_paused():  # a hundred thousand small lists, none of them in a cycle
            result = _replay(root, root_real, read, reads)
    except Exception:  # a damaged cache file, whatever the damage: the suite is checked instead
        return None
    if result is not None:
        touch_private(cache_root(), name)  # used: the last to go when the caches are pruned
    return result


def _strings(value: object) -> list[str]:
    if type(value) is not list or not all(type(v) is str for v in value):
        raise TypeError("not a list of paths")
    return value


def _coverage(value: object) -> dict[str, dict[str, int]]:
    if type(value) is not dict or not all(
        type(key) is str
        and type(counts) is dict
        and all(type(name) is str and type(n) is int for name, n in counts.items())
        for key, counts in value.items()
    ):
        raise TypeError("not coverage counts")
    return value


def _replay(
    root: Path, root_real: str, read: CacheFile, reads: ReadOnce
) -> ValidationResult | None:
    if type(read.listing) is not dict:
        return None
    listing: dict[str, Any] = read.listing
    if listing.get("format") != LISTING_FORMAT:
        return None
    base = str(root)
    config = config_digest(root)
    key = workspace_key(base, root_real, config, read.references, read.max_bytes, reads)
    if key != read.key:
        return None
    # Every path in the file is a workspace-relative str; a damaged one fails the `+` or the
    # lstat (TypeError, ValueError), and replay() answers None.
    prefix = base if base.endswith(os.sep) else base + os.sep
    lstat, is_link, pack = os.lstat, stat.S_ISLNK, pack_stat
    stamper = PathStamper(base)
    seen_folder, chains, chain = stamper.seen_folder, stamper.chains, stamper.chain
    stamp_with = stamper.stamp_with

    def folder_unchanged(rel: str, recorded: object) -> bool:
        """stamp() and same_stamp() inline: this runs for every folder of the suite. Its lstat
        is kept for the chains of the files below it (each folder is asked once)."""
        path = prefix + rel if rel else base
        try:
            st = lstat(path)
        except OSError:
            return recorded is None
        seen_folder(rel, path, st)
        if is_link(st.st_mode):
            return same_stamp(recorded, stamp_of(path, st))
        return pack(st) == recorded

    def unchanged(rel: str, recorded: object) -> bool:
        """PathStamper.stamp() and same_stamp() inline: this runs for every file."""
        path = prefix + rel if rel else base
        try:
            st = lstat(path)
        except OSError:
            return recorded is None
        if is_link(st.st_mode):
            return same_stamp(recorded, stamp_with(rel, path, st))
        folder = rel.rpartition("/")[0]
        above = chains[folder] if folder in chains else chain(folder)
        return above is not None and pack(st) + above == recorded

    for rel, recorded in listing["folders"]:
        if not folder_unchanged(rel, recorded):
            return None
    others = {rel: recorded for rel, recorded in listing["others"]}
    summaries = read.summaries
    found: list[Diagnostic] = []
    files = 0
    for rel in _strings(listing["files"]):
        summary = summaries.get(rel)
        if summary is None:
            if rel not in others or not unchanged(rel, others[rel]):
                return None
            continue  # a file that gave no item
        if not unchanged(rel, summary[0]):
            return None
        for dep, recorded in summary[1]:
            if not unchanged(dep, recorded):
                return None
        path = rel if summary[2] is None else summary[2]
        if type(path) is not str:
            return None
        files += 1
        if summary[9]:
            found += decode_diagnostics(path, summary[9])
    for rel, recorded, raw_diagnostics in listing["ratings"]:
        if not unchanged(rel, recorded):
            return None
        if raw_diagnostics is not None:
            found += decode_diagnostics(rel, raw_diagnostics)
            files += 1
    # In the order of Suite.diagnostics(): the workspace's, then each item's; the sort is
    # stable, so diagnostics that sort alike stay in that order as they do there.
    diagnostics = [
        *decode_diagnostics(None, listing["workspace"]),
        *decode_diagnostics(None, listing["layout"]),
        *decode_diagnostics(None, listing["suite"]),
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
        _coverage(listing["coverage"]),
        replayed=True,
    )
