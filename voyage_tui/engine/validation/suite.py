"""The validated suite: every file's Item, the suite-level rules, and incremental re-validation.

`validate_all` reads and checks every file once; `revalidate(paths)` re-checks only what the given
paths touch (a journey.md change re-checks every trajectory, a catalogue change every gold file
and run, a context file its fixture) and recomputes the cheap suite-level rules.
"""

from __future__ import annotations

import dataclasses
import heapq
import os
import stat
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from voyage_tui.engine.bulk import gc_paused
from voyage_tui.engine.diagnostics import Diagnostic, Severity
from voyage_tui.engine.git.checks import GitChecks, GitResults
from voyage_tui.engine.items import Item, RatingsFacts
from voyage_tui.engine.kinds import AFTER_RUNS_KINDS, FIXTURE_KINDS, FileKind
from voyage_tui.engine.loading.once import ReadOnce
from voyage_tui.engine.loading.safe_read import is_within, keeping_bytes, recording_stats
from voyage_tui.engine.ratings.runs import PairKey, RunIndex
from voyage_tui.engine.references.loaded import (
    References,
    load_catalogue,
    load_journey,
    load_references,
    load_routing_table,
    load_rubric,
)
from voyage_tui.engine.validation.cache import ItemCache
from voyage_tui.engine.validation.checkers import check_job
from voyage_tui.engine.validation.layout_replay import (
    ListingParts,
    Replayed,
    replay_layout,
    unchanged_without_item,
)
from voyage_tui.engine.validation.parallel import (
    EarlyChild,
    ForkedMap,
    Send,
    fork_early,
    takes_part,
)
from voyage_tui.engine.validation.suite_rules import (
    adversarial_coverage,
    coverage,
    duplicate_ids,
)
from voyage_tui.engine.workspace.classify import (
    FILE_KINDS,
    JSON_KINDS,
    TASK_FILE,
    Classifier,
)
from voyage_tui.engine.workspace.config import CONFIG_NAME
from voyage_tui.engine.workspace.layout import Layout, git_ignored, scan
from voyage_tui.engine.workspace.model import Workspace, normalize_rel

if TYPE_CHECKING:
    from voyage_tui.engine.campaign.snapshot import Campaign
    from voyage_tui.engine.ratings.adjudications import AdjudicationsFile
    from voyage_tui.engine.ratings.records import RatingsFile
    from voyage_tui.engine.review.inputs import ReviewInputs
    from voyage_tui.engine.scoring.scorer import MatchMode

# The checkers (file_check: the loaders, the models, the rules) and the ratings' readers are
# imported where a file is checked: a suite with nothing of that kind never pays for them
# (`validate`'s start-up, issue 23).

Progress = Callable[[int, int], None]
"""(done, total) during a full validation; it may raise to abandon the validation."""


@dataclass(frozen=True, slots=True)
class Summary:
    files: int
    errors: int
    warnings: int
    infos: int


def summarize(
    files: int,
    workspace: Iterable[Diagnostic],
    per_item: Iterable[Iterable[Diagnostic]],
) -> Summary:
    """The counts of a suite: its workspace-level diagnostics and every item's."""
    counts = {Severity.ERROR: 0, Severity.WARNING: 0, Severity.INFO: 0}
    for diagnostic in workspace:
        counts[diagnostic.severity] += 1
    for diagnostics in per_item:
        for diagnostic in diagnostics:
            counts[diagnostic.severity] += 1
    return Summary(
        files=files,
        errors=counts[Severity.ERROR],
        warnings=counts[Severity.WARNING],
        infos=counts[Severity.INFO],
    )


@dataclass(slots=True)
class Prepared:
    """The start of a full validation, taken early: references read, files listed, and (when it
    pays) a child process already checking half of the fixtures. See Suite.prepare."""

    refs: References
    layout: Layout
    tasks: ForkedMap[Job, Item | None]
    """The files that need checking (all of them without a cache), as (kind, path)."""
    cache: ItemCache | None = None
    reused: dict[str, Item] = field(default_factory=dict)
    """Fixtures unchanged since the cache recorded them."""
    listing_current: bool = False
    """The cache's listing was replayed (no walk) and holds as it is (layout_replay.py)."""

    def cancel(self) -> None:
        self.tasks.cancel()

    def resolve(self) -> Prepared:
        return self


class PendingPrepared:
    """A prepared load whose listing a forked child is still making (Suite.prepare_early):
    `resolve()` waits for it and gives the Prepared load."""

    def __init__(
        self,
        suite: Suite,
        cache: ItemCache | None,
        refs: References,
        child_share: float,
        early: EarlyChild,
    ) -> None:
        self._suite = suite
        self._cache = cache
        self._refs = refs
        self._child_share = child_share
        self._early: EarlyChild | None = early
        self._resolved: Prepared | None = None

    def resolve(self) -> Prepared:
        if self._resolved is None:
            early, self._early = self._early, None
            if early is None:
                raise RuntimeError("this prepared load was cancelled")
            suite = self._suite
            self._resolved = suite._resolve_early(self._cache, self._refs, self._child_share, early)
        return self._resolved

    def cancel(self) -> None:
        early, self._early = self._early, None
        if early is not None:
            early.cancel()
        if self._resolved is not None:
            self._resolved.cancel()


FREEZE_MIN_ITEMS = 2_000
"""A full load of at least this many items is frozen for the collector (bulk.gc_paused): below
it, the collection it would set off is too short to matter."""

Job = tuple[FileKind, str]
"""One file of a full validation: the kind its checker is found by (validation/checkers.py),
and its path. Every listed fixture is a TASK job: its checker tells a trajectory apart."""


def _work_list(layout: Layout, rules: Classifier) -> list[Job]:
    """Every file of a full validation as (kind, path), in the order items are listed."""
    task, agent_run, gold, gold_run = (
        FileKind.TASK,
        FileKind.AGENT_RUN,
        FileKind.GOLD,
        FileKind.GOLD_RUN,
    )
    work = [(task, rel) for rel in layout.tasks]
    work += [(agent_run, rel) for rel in layout.agent_runs]
    work += [
        (gold_run if rules.kind(rel) is gold_run else gold, rel) for rel in layout.json_candidates
    ]
    return work


def _by_depth(rel: str) -> tuple[int, str]:
    """Shallow paths first: a gold file before the runs beside it (a run's folder lies deeper
    than its gold file's), and within one folder by name (the first gold file owns the runs)."""
    return rel.count("/"), rel


_GOLD_KINDS = (FileKind.GOLD, FileKind.GOLD_RUN)


def _is_gold(item: Item | None) -> bool:
    return item is not None and item.kind is FileKind.GOLD


class Suite:
    def __init__(
        self,
        ws: Workspace,
        *,
        use_git: bool = True,
        parallel: bool = False,
        reads: ReadOnce | None = None,
        keep_gold: bool = False,
    ) -> None:
        """`reads`: the files this run read already (loading/once.py; the cache's key took the
        references' digests from them): the first load parses those bytes. `keep_gold`: keep
        the bytes of the gold files and runs a full validation checks in this process, for
        `review_inputs` (a one-shot command; the live suite keeps none)."""
        self.ws = ws
        self.keep_gold = keep_gold
        self._gold_bytes: dict[str, bytes] = {}
        self.use_git = use_git
        self.parallel = parallel
        self._reads: ReadOnce | None = (
            reads if reads is not None else ReadOnce(str(ws.root), ws.root_real)
        )
        self.refs: References = load_references(ws, self._reads)
        self.items: dict[str, Item] = {}
        self.layout_problems: list[Diagnostic] = []
        self.suite_diagnostics: list[Diagnostic] = []
        # Git checks (final_head_sha, holdout exposure): results kept beside the items, never
        # on them; counts and views combine the two. See engine/git/checks.py.
        self.git = GitChecks()
        self.git_results = GitResults()
        self._cache: ItemCache | None = None
        self._reused: dict[str, Item] = {}
        self._listing_current = False
        self._dependents_index: dict[str, set[str]] | None = None
        """Workspace file -> the items that depend on it; built when first needed, then kept
        up to date by _set_item."""
        # Ratings name agent runs: they are checked after the runs, against these pairs, and
        # against the runs git history once held (asked once per full validation, if at all).
        self._run_pairs: frozenset[PairKey] = frozenset()
        self._history: set[PairKey] | None = None
        self._history_asked = False
        self._ratings_checked: dict[str, RatingsFile] = {}
        self._adjudications_checked: AdjudicationsFile | None = None
        """Each ratings file as last checked: an adjudication is stale against them."""

    @classmethod
    def open(
        cls,
        start: str | os.PathLike[str] | None = None,
        *,
        use_git: bool = True,
        parallel: bool = False,
    ) -> Suite:
        """Find the workspace from `start` and validate all of it. Raises NoWorkspace.
        `parallel` forks a second process for the bulk of the work: only for single-threaded
        callers such as the command line."""
        suite = cls(Workspace.load(start), use_git=use_git, parallel=parallel)
        suite.validate_all()
        return suite

    # --- full validation -------------------------------------------------------------------

    def _load_reads(self) -> ReadOnce:
        """The reads of this load: for the first, the ones the suite was made with (its
        references were read then, once: issue 34); for any later load, fresh ones, as a
        reload reads the files again."""
        reads, self._reads = self._reads, None
        return reads if reads is not None else ReadOnce(str(self.ws.root), self.ws.root_real)

    def prepare(
        self, fork: bool = True, cache: ItemCache | bool = False, child_share: float = 0.5
    ) -> Prepared:
        """Read the references, list the files and, with `fork` (single-threaded callers only),
        start a child on half of the files; `validate_all(prepared=...)` finishes the job.
        With `cache`, files unchanged since the last run are taken from the item cache."""
        # The cache's key and the references from the same reads: the key is that of what is
        # checked. (A cache given was made with them: result_cache.py.) Without git, the walk's
        # folders are stamped, for a listing the next load replays.
        reads = self._load_reads()
        item_cache = (
            ItemCache(self.ws, listing=not self.use_git, reads=reads)
            if cache is True
            else (cache or None)
        )
        refs = load_references(self.ws, reads)
        # One pause over the cache's read, the replay and the decode of every item, frozen after
        # when big: all of it is kept, and each collection between those steps scanned all they
        # had made so far (0.6 s of a warm start's 4 s at 100,000 fixtures, issue 23).
        listed: list[Job] = []
        with gc_paused(keep=lambda: len(listed) >= FREEZE_MIN_ITEMS):
            replayed = self._replay_layout(item_cache)
            layout, reused, work = self._from_cache(item_cache, listed, replayed)
        return self._prepared(item_cache, refs, layout, reused, work, replayed, fork, child_share)

    def prepare_early(self, cache: bool, child_share: float) -> Prepared | PendingPrepared:
        """prepare(fork=True, ...) for a single-threaded caller with something else to do before
        it needs the listing (the app imports its interface): on a first run (no cache answers
        for any file) the walk, too, runs in the forked child, which hands the listing back
        and then checks its share of the files; `resolve()` takes the listing up (on any
        thread). Otherwise (a replayed listing, cached items) as prepare()."""
        reads = self._load_reads()
        item_cache = ItemCache(self.ws, listing=not self.use_git, reads=reads) if cache else None
        refs = load_references(self.ws, reads)
        listed: list[Job] = []
        with gc_paused(keep=lambda: len(listed) >= FREEZE_MIN_ITEMS):
            replayed = self._replay_layout(item_cache)
            if replayed is None and item_cache is not None and self.use_git:
                item_cache.load()  # before the fork: the child and this process plan alike
        if replayed is None and (item_cache is None or not item_cache.entries):
            early = fork_early(
                lambda found, results: self._early_child(
                    item_cache, refs, child_share, found, results
                )
            )
            if early is not None:
                return PendingPrepared(self, item_cache, refs, child_share, early)
        with gc_paused(keep=lambda: len(listed) >= FREEZE_MIN_ITEMS):
            layout, reused, work = self._from_cache(item_cache, listed, replayed, loaded=True)
        return self._prepared(item_cache, refs, layout, reused, work, replayed, True, child_share)

    def _early_child(
        self,
        item_cache: ItemCache | None,
        refs: References,
        child_share: float,
        send: Send,
        results_fd: int,
    ) -> None:
        """The early child (prepare_early): walk, send the listing and the walk's folder
        identities (the stamps' chains), then check its share as ForkedMap's child does."""
        listed: list[Job] = []
        with gc_paused(keep=lambda: len(listed) >= FREEZE_MIN_ITEMS):
            layout = self._walk(item_cache)
            stamper = item_cache.stamper if item_cache is not None else None
            send((layout, stamper.chains, stamper.lstats) if stamper is not None else (layout,))
            _, work = self._plan(item_cache, listed, layout, self._no_item(item_cache, True))
        tasks = self._tasks(item_cache, refs, work, False, child_share)
        if takes_part(len(work)) and tasks.serve(results_fd) != 0:
            raise RuntimeError("the early child's share was not sent")

    def _resolve_early(
        self,
        item_cache: ItemCache | None,
        refs: References,
        child_share: float,
        early: EarlyChild,
    ) -> Prepared:
        """PendingPrepared.resolve: the child's listing, planned as the child planned it (the
        same cache state, inherited), its share collected by the ForkedMap; if no listing came
        (the child failed), the walk here, every file checked here."""
        listed: list[Job] = []
        with gc_paused(keep=lambda: len(listed) >= FREEZE_MIN_ITEMS):
            try:
                found = early.received()
                if type(found) is not tuple or not isinstance(found[0], Layout):
                    raise TypeError("not a listing")
                layout = found[0]
                if item_cache is not None:
                    item_cache.stamper.chains.update(found[1])
                    item_cache.stamper.lstats.update(found[2])
            except Exception:
                early.cancel()
                layout, reused, work = self._from_cache(item_cache, listed, None, loaded=True)
                return self._prepared(item_cache, refs, layout, reused, work, None, False, 0.0)
            reused, work = self._plan(item_cache, listed, layout, self._no_item(item_cache, True))
        child = early.hand_over(takes_part(len(work)))
        tasks = self._tasks(item_cache, refs, work, False, child_share, child=child)
        return Prepared(refs, layout, tasks, item_cache, reused, False)

    def _prepared(
        self,
        item_cache: ItemCache | None,
        refs: References,
        layout: Layout,
        reused: dict[str, Item],
        work: list[Job],
        replayed: Replayed | None,
        fork: bool,
        child_share: float,
    ) -> Prepared:
        tasks = self._tasks(item_cache, refs, work, fork, child_share)
        current = replayed is not None and replayed.current
        return Prepared(refs, layout, tasks, item_cache, reused, current)

    def _tasks(
        self,
        item_cache: ItemCache | None,
        refs: References,
        work: list[Job],
        fork: bool,
        child_share: float,
        child: tuple[int, int] | None = None,
    ) -> ForkedMap[Job, Item | None]:
        """The checks of `work`, a share of them by a child process (forked here with `fork`,
        or `child`, forked earlier)."""
        ws = self.ws
        if self.keep_gold:
            return self._keeping_tasks(item_cache, refs, work, fork, child_share, child)
        if item_cache is None:

            def check(job: Job) -> Item | None:
                return check_job(ws, refs, job)

        else:
            read_stamps = item_cache.read_stamps

            def check(job: Job) -> Item | None:
                # The file's stamp from the fstat of its own read (recording_stats): no lstat
                # of its own for the cache.
                with recording_stats() as stats:
                    item = check_job(ws, refs, job)
                own = stats.get(job[1])
                if own is not None:
                    read_stamps[job[1]] = own
                return item

        return ForkedMap(
            check,
            work,
            fork=fork,
            child_share=child_share,
            child_extra=None if item_cache is None else lambda: item_cache.read_stamps,
            child=child,
        )

    def _keeping_tasks(
        self,
        item_cache: ItemCache | None,
        refs: References,
        work: list[Job],
        fork: bool,
        child_share: float,
        child: tuple[int, int] | None,
    ) -> ForkedMap[Job, Item | None]:
        """_tasks, keeping the bytes of each gold file and run checked (a forked child's come
        back with its share: (its read stamps, its kept bytes), taken up by _check_layout)."""
        ws, kept_here = self.ws, self._gold_bytes
        read_stamps = item_cache.read_stamps if item_cache is not None else None

        def check(job: Job) -> Item | None:
            with recording_stats() as stats, keeping_bytes() as kept:
                item = check_job(ws, refs, job)
            if read_stamps is not None and job[1] in stats:
                read_stamps[job[1]] = stats[job[1]]
            if item is not None and item.kind in _GOLD_KINDS and job[1] in kept:
                kept_here[job[1]] = kept[job[1]]
            return item

        return ForkedMap(
            check,
            work,
            fork=fork,
            child_share=child_share,
            child_extra=lambda: (read_stamps, kept_here),
            child=child,
        )

    def _take_from_child(self, extra: object) -> object:
        """The forked child's extra (ForkedMap.from_child) without the gold bytes it kept (a
        keeping check's is a pair: _keeping_tasks), which are taken up here; what is left is
        the read stamps, for the cache."""
        if not (self.keep_gold and type(extra) is tuple and len(extra) == 2):
            return extra
        stamps, kept = extra
        if type(kept) is dict:
            for rel, data in kept.items():
                if type(rel) is str and type(data) is bytes:
                    self._gold_bytes.setdefault(rel, data)
        return stamps

    def review_inputs(self, match: MatchMode | None = None) -> ReviewInputs:
        """How results reads the gold files and runs: against the catalogue this suite loaded,
        from the bytes its check read (keep_gold) where it still holds them, so a file is
        opened once per run (issue 34); a file checked again since (revalidate) is read
        afresh. `match`: as ReviewInputs' (the default match, unless given)."""
        from voyage_tui.engine.review.inputs import ReviewInputs
        from voyage_tui.engine.scoring.scorer import DEFAULT_MATCH

        catalogue = self.refs.catalogue
        return ReviewInputs(
            self.ws,
            catalogue.value,
            catalogue.path,
            self.ws.max_file_bytes,
            DEFAULT_MATCH if match is None else match,
            kept=self._gold_bytes,
        )

    def _from_cache(
        self,
        item_cache: ItemCache | None,
        listed: list[Job],
        replayed: Replayed | None,
        *,
        loaded: bool = False,
    ) -> tuple[Layout, dict[str, Item], list[Job]]:
        """The listing (`replayed` from the cache, or walked), the items unchanged since the
        cache recorded them, and the files to check; `listed` gets every listed file.
        `loaded`: with git, the cache file was read already."""
        if replayed is not None:
            layout, no_item = replayed.layout, replayed.no_item
        else:
            layout = self._walk(item_cache)
            no_item = self._no_item(item_cache, loaded)
        reused, work = self._plan(item_cache, listed, layout, no_item)
        return layout, reused, work

    def _walk(self, item_cache: ItemCache | None) -> Layout:
        listing = item_cache is not None and item_cache.listing
        # The cache's stamps take each folder's identity from the walk's own lstat.
        seen = item_cache.stamper.seen_folder if item_cache is not None else None
        return scan(self.ws, use_git=self.use_git, stamp_folders=listing, seen=seen)

    def _no_item(self, item_cache: ItemCache | None, loaded: bool) -> frozenset[str]:
        """After a walk: the files the cache's listing says gave no item, unchanged since.
        (With git the cache file is read now, unless `loaded`: it holds no listing.)"""
        if item_cache is None:
            return frozenset()
        if self.use_git:
            if not loaded:
                item_cache.load()
            return frozenset()
        return unchanged_without_item(item_cache)

    def _plan(
        self,
        item_cache: ItemCache | None,
        listed: list[Job],
        layout: Layout,
        no_item: frozenset[str],
    ) -> tuple[dict[str, Item], list[Job]]:
        """The items unchanged since the cache recorded them, and the files to check."""
        reused: dict[str, Item] = {}
        work: list[Job] = []
        listed += _work_list(layout, self.ws.classifier)
        for kind, rel in listed:
            if rel in no_item:
                continue  # gave no item, and has not changed since
            cached = item_cache.fresh(rel) if item_cache is not None else None
            if cached is not None:
                reused[rel] = cached
            else:
                work.append((kind, rel))
        return reused, work

    def _replay_layout(self, cache: ItemCache | None) -> Replayed | None:
        """Without git, the cache file is read before the walk: while the folders' stamps in
        its listing hold, the listing is the walk's answer (layout_replay.py), and the files
        are stamped below the folders just looked at."""
        if cache is None or self.use_git:
            return None
        cache.load()
        replayed = replay_layout(self.ws, cache)
        if replayed is None:
            cache.new_run()  # the walk looks at every folder afresh
        return replayed

    def validate_all(
        self,
        progress: Progress | None = None,
        *,
        prepared: Prepared | None = None,
        git: bool = True,
    ) -> None:
        """Check every file. `git=False` leaves the git checks for `run_git_checks()`, so a UI
        can show the suite first and the slower history checks when they are done."""
        with gc_paused(keep=lambda: len(self.items) >= FREEZE_MIN_ITEMS):
            if prepared is None:
                prepared = self.prepare(fork=self.parallel)
            # The reads the suite was made with served this load (or a prepared one made from
            # the same reads): a later load reads afresh.
            self._reads = None
            self.refs = prepared.refs
            layout = prepared.layout
            self.layout_problems = layout.problems
            self._cache = prepared.cache
            self._reused = prepared.reused
            self._listing_current = prepared.listing_current
            self.items = self._check_layout(layout, progress, prepared)
            # Kept only where the item stands as checked (a run without a gold file beside it
            # is checked again as a gold candidate).
            for rel in [r for r in self._gold_bytes if r not in self.items]:
                del self._gold_bytes[rel]
            self._dependents_index = None
            self._history_asked = False
            self._ratings_checked = {}
            self._check_ratings(layout.ratings)
            self._check_adjudications()
            self._suite_rules()
            if git:
                self.run_git_checks()

    def save_cache(
        self, items: dict[str, Item] | None = None, listing: ListingParts | None = None
    ) -> None:
        """Record the items (or `items`, a copy taken while no worker changed them) for the next
        start; only when the load used a cache. `listing`: the listing to write beside them
        (layout_replay.py), so the next start (or `validate`) replays it rather than walk."""
        if self._cache is not None:
            # Ratings depend on every agent run: they are checked afresh each time.
            items = self.items if items is None else items
            kept = {p: i for p, i in items.items() if i.kind not in AFTER_RUNS_KINDS}
            stale = listing is not None and not self._listing_current
            if stale or not self._same_as_cached(kept):
                self._cache.save(kept, listing)
            else:
                self._cache.touch()

    def changed_since_load(self) -> set[str] | None:
        """The paths that changed since the load listed and checked them: files that appeared
        or went, files (or files they depend on) whose stamp moved since it was taken before
        their check, and every ratings file and the adjudications file (they are not stamped). For the app, which arms its
        watcher after its first load: re-checking these then misses nothing. None when the load
        used no cache (nothing was stamped) or the walk's problems changed: check everything."""
        cache = self._cache
        if cache is None:
            return None
        cache.new_run()  # the folders as they are now, not as the load saw them
        # Every folder as the load's listing recorded it: the load's layout (it replayed that
        # listing; one it walked moved a stamp of it), without a walk.
        replayed = None if self.use_git else replay_layout(self.ws, cache)
        if replayed is not None:
            layout = replayed.layout
        else:
            cache.new_run()
            layout = scan(self.ws, use_git=self.use_git)
        if layout.problems != self.layout_problems:
            return None
        listed = {*layout.tasks, *layout.agent_runs, *layout.json_candidates}
        checked = {p for p, i in self.items.items() if i.kind not in AFTER_RUNS_KINDS}
        changed = listed ^ checked
        changed.update(p for p in listed & checked if not cache.unchanged(p))
        changed.update(layout.ratings)
        changed.update(p for p, i in self.items.items() if i.kind in AFTER_RUNS_KINDS)
        adjudications = self.ws.adjudications_rel
        if adjudications and os.path.lexists(self.ws.abs(adjudications)):
            changed.add(adjudications)  # made since, or changed: it is not stamped either
        return changed

    def _same_as_cached(self, items: dict[str, Item]) -> bool:
        """Whether every item is the one the cache gave back, and the cache holds no other:
        writing would store what the file holds already (encoding 100,000 items to say so
        would compete with the app's first screen). Validate's listing in it is kept then."""
        cache, reused = self._cache, self._reused
        return (
            cache is not None
            and len(items) == len(reused) == len(cache.entries)
            and all(reused.get(rel) is item for rel, item in items.items())
            and cache.entries.keys() == items.keys()
        )

    def run_git_checks(self) -> None:
        """final_head_sha and holdout exposure over the whole suite (no-op without git)."""
        if self.use_git:
            self.git_results = self.git.run_all(self.ws, self.items)

    def recompute_exposure(self) -> None:
        """A fresh exposure report (one pass over history); for the app, off the UI thread."""
        if self.use_git:
            self.git_results = self.git.recompute_exposure(self.ws, self.items)

    @property
    def git_diagnostics(self) -> list[Diagnostic]:
        """The git checks' diagnostics that belong to no item."""
        return list(self.git_results.workspace)

    def _check_layout(
        self, layout: Layout, progress: Progress | None, prepared: Prepared
    ) -> dict[str, Item]:
        ws = self.ws
        total = len(layout.tasks) + len(layout.agent_runs) + len(layout.json_candidates)
        found: dict[str, Item | None] = dict(prepared.reused)
        for (_, rel), item in zip(
            prepared.tasks.work, prepared.tasks.finish(progress), strict=True
        ):
            if item is not None:
                found[rel] = item
        from_child = self._take_from_child(prepared.tasks.from_child)
        if prepared.cache is not None:
            prepared.cache.add_read_stamps(from_child)
        # A run is a run of the gold file beside its runs/ folder: only now is it known which
        # JSON files are gold, so runs were checked unattached and are attached (or, with no
        # gold file there, checked as gold candidates themselves) here, shallowest first.
        gold_by_folder: dict[str, str] = {}
        rules = ws.classifier
        for rel in sorted(layout.json_candidates, key=_by_depth):
            item = found.get(rel)
            if rules.kind(rel) is FileKind.GOLD_RUN:
                item = self._as_run(rel, item, gold_by_folder.get(rules.run_gold_folder(rel)))
                found[rel] = item
            if _is_gold(item):
                gold_by_folder.setdefault(rules.folder_of(rel), rel)
        items: dict[str, Item] = {}
        for _, rel in _work_list(layout, rules):
            item = found.get(rel)
            if item is not None:
                items[rel] = item
        if progress:
            progress(total, total)
        return items

    def _as_run(self, rel: str, item: Item | None, gold: str | None) -> Item | None:
        """The item of a `runs/*.json` file checked unattached (or taken from the cache), made a
        run of `gold`; with no gold file beside its folder, a gold candidate instead."""
        # Imported only to check one: a warm load takes every run from the cache (and the
        # module imports every rule).
        ws, refs = self.ws, self.refs
        if gold is None:
            if item is None or item.kind is FileKind.GOLD_RUN:
                from voyage_tui.engine.validation.file_check import check_json_candidate

                return check_json_candidate(ws, refs, rel)
            return item
        if item is None or item.kind is not FileKind.GOLD_RUN:
            from voyage_tui.engine.validation.file_check import check_gold_run

            return check_gold_run(ws, refs, rel, gold)
        if item.parent != gold:
            return dataclasses.replace(item, parent=gold, deps=(gold,))
        return item

    @staticmethod
    def _gold_by_folder(items: Iterable[Item]) -> dict[str, str]:
        by_folder: dict[str, str] = {}
        for item in sorted((i for i in items if i.kind is FileKind.GOLD), key=lambda i: i.path):
            by_folder.setdefault(item.folder, item.path)
        return by_folder

    # --- ratings ---------------------------------------------------------------------------------

    def _check_ratings(self, paths: Iterable[str]) -> set[str]:
        """Check ratings files against the agent runs now in the suite; returns their paths."""
        runs = RunIndex.from_items(self.items)
        self._run_pairs = frozenset(runs.by_pair)
        done: set[str] = set()
        for rel in paths:
            done.add(rel)
            if not os.path.lexists(self.ws.abs(rel)):
                self.items.pop(rel, None)
                self._ratings_checked.pop(rel, None)
                continue
            from voyage_tui.engine.ratings.rules import check_ratings_file

            # The rubric is parsed (markdown-it) only when a ratings file needs it.
            rubric = self.refs.rubric.value
            checked = check_ratings_file(self.ws, rubric, rel, runs, self._deleted_runs)
            self._ratings_checked[rel] = checked
            self.items[rel] = Item(
                rel,
                FileKind.RATING,
                id=checked.rater,
                diagnostics=tuple(checked.diagnostics),
                facts=RatingsFacts(len(checked.ratings)),
            )
        return done

    def campaign(self) -> Campaign:
        """The rating campaign as this suite has read it: its runs, its rubric, the ratings
        files and the adjudications file it checked, none read again (engine/campaign/)."""
        return self.campaign_loader()()

    def campaign_loader(self, items: Mapping[str, Item] | None = None) -> Callable[[], Campaign]:
        """The campaign of the suite as it is now, made when first asked for (a view that no
        screen asks it of never parses the rubric). What the suite has checked is taken now:
        a ratings file re-checked later (the one a change touched, read again alone) is in the
        next loader's campaign, every other file as it was. `items`: a copy of the suite's
        items already made (a view's), else one is made."""
        from voyage_tui.engine.campaign.source import WorkTree

        source = WorkTree(
            self.ws,
            items if items is not None else dict(self.items),
            self.refs.rubric,
            dict(self._ratings_checked),
            checked_adjudications=self._adjudications_checked,
        )
        made: list[Campaign] = []

        def campaign() -> Campaign:
            if not made:
                from voyage_tui.engine.campaign.snapshot import load_campaign

                made.append(load_campaign(source))
            return made[0]

        return campaign

    def _check_adjudications(self) -> set[str]:
        """Check the adjudications file against the rubric, the agent runs and the ratings in
        force now; returns its path (its item added, replaced or dropped)."""
        rel = self.ws.adjudications_rel
        if (
            self.ws.classifier.kind(rel) is not FileKind.ADJUDICATION
            or not os.path.lexists(self.ws.abs(rel))
            or not self._reachable(rel)
        ):
            self._adjudications_checked = None
            if self.items.pop(rel, None) is not None:
                return {rel}
            return set()
        from voyage_tui.engine.campaign.counting import Raters
        from voyage_tui.engine.campaign.snapshot import in_force_of
        from voyage_tui.engine.ratings.adjudications import load_adjudications
        from voyage_tui.engine.ratings.store import RatingStore

        store = RatingStore(self._ratings_checked.values())
        people = in_force_of(store, Raters.PEOPLE)
        checked = load_adjudications(
            self.ws, self.refs.rubric.value, RunIndex.from_items(self.items), people
        )
        self._adjudications_checked = checked
        self.items[rel] = Item(
            rel,
            FileKind.ADJUDICATION,
            id=rel.rsplit("/", 1)[-1],
            diagnostics=tuple(checked.diagnostics),
            facts=RatingsFacts(len(checked.records)),
        )
        return {rel}

    def _deleted_runs(self) -> set[PairKey] | None:
        if not self.use_git:
            return None
        if not self._history_asked:
            from voyage_tui.engine.ratings.history import deleted_run_pairs

            self._history_asked = True
            self._history = deleted_run_pairs(self.ws)
        return self._history

    def _runs_moved(self, touched: set[str], kinds_before: dict[str, FileKind]) -> bool:
        """Whether the (fixture_id, run_id) pairs ratings are checked against changed."""
        kinds = {FileKind.AGENT_RUN, FileKind.TASK, FileKind.TRAJECTORY}
        if not any(
            kinds_before.get(p) in kinds or (p in self.items and self.items[p].kind in kinds)
            for p in touched
        ):
            return False
        return frozenset(RunIndex.from_items(self.items).by_pair) != self._run_pairs

    def _suite_rules(self) -> None:
        fixtures = list(self.fixtures())
        self.suite_diagnostics = duplicate_ids(fixtures) + adversarial_coverage(
            fixtures, self.ws.fixtures_rel
        )

    # --- incremental re-validation -----------------------------------------------------------

    def revalidate(self, paths: Iterable[str]) -> set[str]:
        """Re-check what `paths` (workspace-relative, created, changed or deleted) touch.
        Returns the paths of the items that were re-checked, added or removed.

        Each path is what the classifier says it is, as in the full walk; what only a walk can
        tell (a folder appearing or going, a file where a folder was, a misplaced task.yaml, a
        changed .gitignore) re-walks the workspace, so the result is always what a full
        validate of the workspace as it now is would give."""
        rels = {normalize_rel(p) for p in paths}
        if CONFIG_NAME in rels:
            self.ws = Workspace.from_root(self.ws.root)
            before = set(self.items)
            self.validate_all()
            return before | set(self.items)
        rules = self.ws.classifier
        touched: set[str] = set()
        recheck: set[str] = set()
        ratings: set[str] = set()
        all_ratings = False
        adjudications = False
        rescan = False
        with gc_paused():
            dependents = self._dependents()
            for rel in rels:
                kind = rules.kind(rel)
                if kind is FileKind.RATING:
                    ratings.add(rel)
                    continue
                if kind is FileKind.ADJUDICATION:
                    adjudications = True
                    continue
                role = rules.reference_role(rel) if kind is FileKind.REFERENCE else None
                if role is not None:
                    recheck |= self._reload_reference(role)
                    all_ratings = all_ratings or role == "rubric"
                    continue
                rescan = rescan or self._needs_walk(rel, kind)
                if kind in FILE_KINDS:
                    recheck.add(rel)
                elif kind in JSON_KINDS:
                    recheck |= self._json_targets(rel)
                recheck.update(dependents.get(rel, ()))
                fixture = rules.fixture_folder(rel)
                if kind is FileKind.OTHER and fixture is not None:
                    # Any other file in a fixture's folder may be one of its context files.
                    task = f"{fixture}/{TASK_FILE}"
                    if task in self.items:
                        recheck.add(task)
            if rescan:
                layout = scan(self.ws, use_git=self.use_git)
                self.layout_problems = layout.problems
                fresh = set(layout.tasks) | set(layout.agent_runs) | set(layout.json_candidates)
                gone = [p for p in self.items if p not in fresh and p not in layout.ratings]
                for path in gone:
                    self._set_item(path, None)
                touched.update(gone)
                recheck |= {p for p in fresh if p not in self.items}
                ratings |= set(layout.ratings)
            signature = self._suite_signature(recheck | touched)
            kinds_before = {p: self.items[p].kind for p in recheck if p in self.items}
            touched |= self._recheck(recheck)
            runs_moved = all_ratings or self._runs_moved(touched, kinds_before)
            if runs_moved:
                ratings |= {p for p, i in self.items.items() if i.kind is FileKind.RATING}
            if ratings:
                touched |= self._check_ratings(sorted(ratings))
            if ratings or adjudications or rescan or runs_moved:
                # Stale against the ratings, and checked against the runs and the rubric.
                touched |= self._check_adjudications()
            # The suite-level rules read only ids, kinds and classes: when the re-checked items
            # kept theirs (the usual edit), skip the pass over every fixture.
            if rescan or self._suite_signature(touched) != signature:
                self._suite_rules()
            if self.use_git:  # cached results; git is asked only about SHAs it has not seen
                self.git_results = self.git.refresh(self.ws, self.items, touched)
        return touched

    def _suite_signature(self, paths: set[str]) -> dict[str, tuple[object, ...] | None]:
        out: dict[str, tuple[object, ...] | None] = {}
        for path in paths:
            item = self.items.get(path)
            out[path] = (
                None if item is None else (item.kind, item.id, item.id_position, item.fixture_class)
            )
        return out

    def _reload_reference(self, which: str) -> set[str]:
        if which == "journey":
            self.refs.journey = load_journey(self.ws)
            return {p for p, i in self.items.items() if i.kind is FileKind.TRAJECTORY}
        if which == "rubric":
            self.refs.rubric = load_rubric(self.ws)
            return {p for p, i in self.items.items() if i.kind is FileKind.TASK}
        if which == "catalogue":
            self.refs.catalogue = load_catalogue(self.ws)
            return {
                p for p, i in self.items.items() if i.kind in (FileKind.GOLD, FileKind.GOLD_RUN)
            }
        self.refs.routing_table = load_routing_table(self.ws)
        return set()

    def _dependents(self) -> dict[str, set[str]]:
        """Workspace file -> the items whose diagnostics depend on it (context files, the README
        beside a gold file, a run's gold file)."""
        if self._dependents_index is None:
            index: dict[str, set[str]] = {}
            for path, item in self.items.items():
                for dep in item.deps:
                    index.setdefault(dep, set()).add(path)
            self._dependents_index = index
        return self._dependents_index

    def _set_item(self, rel: str, item: Item | None) -> None:
        """Store (or, with None, drop) the item of `rel`, keeping the dependents index true."""
        index = self._dependents_index
        if index is not None:
            old = self.items.get(rel)
            for dep in old.deps if old is not None else ():
                index.get(dep, set()).discard(rel)
            for dep in item.deps if item is not None else ():
                index.setdefault(dep, set()).add(rel)
        self._gold_bytes.pop(rel, None)
        if item is None:
            self.items.pop(rel, None)
        else:
            self.items[rel] = item

    def _needs_walk(self, rel: str, kind: FileKind) -> bool:
        """Whether the change at `rel` can only be judged by walking the workspace again."""
        if kind is FileKind.MISPLACED_TASK:
            return True
        if self.use_git and rel.rsplit("/", 1)[-1] == ".gitignore":
            return True  # which JSON files are gold candidates may have changed
        absolute = self.ws.abs(rel)
        if os.path.isdir(absolute) and not os.path.islink(absolute):
            return True  # a folder appeared or changed
        prefix = rel + "/"
        if not os.path.lexists(absolute) and any(p.startswith(prefix) for p in self.items):
            return True  # a folder holding items went
        # A layout problem at or around the path (a folder where a file belongs, a folder that
        # could not be read) may have gone with this change.
        return any(
            d.path == rel or d.path.startswith(prefix) or rel.startswith(d.path + "/")
            for d in self.layout_problems
        )

    def _json_targets(self, rel: str) -> set[str]:
        """A JSON file and the runs beside it: a gold file appearing, changing or vanishing
        changes which of them are runs."""
        targets = {rel}
        folder = rel.rsplit("/", 1)[0] if "/" in rel else ""
        prefix = f"{folder}/runs/" if folder else "runs/"
        targets |= {
            p for p, i in self.items.items() if i.kind is FileKind.GOLD_RUN and p.startswith(prefix)
        }
        runs_dir = self.ws.abs(prefix.rstrip("/"))
        try:
            names = os.listdir(runs_dir) if os.path.isdir(runs_dir) else []
        except OSError:  # unreadable: a full walk reports it (`folder-unreadable`)
            names = []
        rules = self.ws.classifier
        targets.update(
            prefix + name for name in names if rules.kind(prefix + name) is FileKind.GOLD_RUN
        )
        return targets

    def _recheck(self, paths: set[str]) -> set[str]:
        """Check each path again, gold files before the runs beside them; a file that becomes
        or stops being a gold file re-checks the runs beside it in turn."""
        touched: set[str] = set()
        ignored = self._ignored_json(paths)
        gold_by_folder = self._gold_by_folder(self.items.values())
        rules = self.ws.classifier
        pending = [_by_depth(p) for p in paths]
        heapq.heapify(pending)
        while pending:
            _, rel = heapq.heappop(pending)
            if rel in touched:
                continue
            touched.add(rel)
            was_gold = _is_gold(self.items.get(rel))
            item = None
            if rel not in ignored and os.path.lexists(self.ws.abs(rel)):
                item = self._check_one(rel, gold_by_folder)
            self._set_item(rel, item)
            if _is_gold(item) != was_gold:
                folder = rules.folder_of(rel)
                first = min(
                    (
                        p
                        for p, i in self.items.items()
                        if i.kind is FileKind.GOLD and i.folder == folder
                    ),
                    default=None,
                )
                if first is None:
                    gold_by_folder.pop(folder, None)
                else:
                    gold_by_folder[folder] = first
                more = self._json_targets(rel) - touched
                ignored |= self._ignored_json(more)
                for path in more:
                    heapq.heappush(pending, _by_depth(path))
        return touched

    def _ignored_json(self, paths: Iterable[str]) -> set[str]:
        """The JSON paths git ignores: like the full walk, never gold files or runs."""
        if not self.use_git:
            return set()
        rules = self.ws.classifier
        candidates = [p for p in paths if rules.kind(p) in JSON_KINDS]
        return git_ignored(self.ws, candidates) if candidates else set()

    def _reachable(self, rel: str) -> bool:
        """Whether the full walk reaches `rel`: it refuses folders symlinked out of the
        workspace, and follows a symlinked folder only where a fixture's folders are (a class,
        a fixture, its runs) or where a configured folder is one."""
        ws = self.ws
        if not is_within(ws.root_real, os.path.realpath(os.path.dirname(ws.abs(rel)))):
            return False
        rules = ws.classifier
        parts = rel.split("/")
        roots = rules.roots()
        for cut in range(1, len(parts)):
            folder = "/".join(parts[:cut])
            if (
                os.path.islink(ws.abs(folder))
                and not rules.fixture_shape(folder)
                and folder not in roots
            ):
                return False
        return True

    def _check_one(self, rel: str, gold_by_folder: dict[str, str]) -> Item | None:
        """The item of one path, decided as the full walk decides it."""
        ws, refs = self.ws, self.refs
        rules = ws.classifier
        kind = rules.kind(rel)
        if kind not in FILE_KINDS and kind not in JSON_KINDS:
            return None
        if not self._reachable(rel):
            return None
        try:
            mode = os.lstat(ws.abs(rel)).st_mode
        except OSError:
            mode = 0
        if stat.S_ISDIR(mode):
            return None  # a folder where a file belongs is a layout problem (see scan)
        if kind in FILE_KINDS:
            return check_job(ws, refs, (kind, rel))
        if not (stat.S_ISREG(mode) or stat.S_ISLNK(mode)):
            return None  # a FIFO or device named like a JSON file: the walk lists none
        from voyage_tui.engine.validation.file_check import check_gold_run, check_json_candidate

        if kind is FileKind.GOLD_RUN:
            gold = gold_by_folder.get(rules.run_gold_folder(rel))
            if gold is not None:
                return check_gold_run(ws, refs, rel, gold)
        return check_json_candidate(ws, refs, rel)

    # --- results -------------------------------------------------------------------------------

    def fixtures(self) -> Iterator[Item]:
        return (i for i in self.items.values() if i.kind in FIXTURE_KINDS)

    def workspace_diagnostics(self) -> list[Diagnostic]:
        """Diagnostics that belong to no single item: config, references, layout, suite rules."""
        return [
            *self.ws.config_diagnostics,
            *self.refs.diagnostics,
            *self.layout_problems,
            *self.suite_diagnostics,
            *self.git_diagnostics,
        ]

    def item_diagnostics(self, path: str) -> tuple[Diagnostic, ...]:
        """One item's diagnostics: its file's and its git checks'."""
        item = self.items.get(path)
        if item is None:
            return ()
        return item.diagnostics + self.git_results.for_path(path)

    def diagnostics(self) -> list[Diagnostic]:
        out = self.workspace_diagnostics()
        for path in self.items:
            out.extend(self.item_diagnostics(path))
        out.sort(key=Diagnostic.sort_key)
        return out

    def diagnostics_for(self, path: str) -> list[Diagnostic]:
        out = list(self.item_diagnostics(path))
        out += [d for d in self.workspace_diagnostics() if d.path == path]
        out.sort(key=Diagnostic.sort_key)
        return out

    def summary(self) -> Summary:
        return summarize(
            len(self.items),
            self.workspace_diagnostics(),
            (self.item_diagnostics(p) for p in self.items),
        )

    def coverage(self) -> dict[str, dict[str, int]]:
        return coverage(self.fixtures())
