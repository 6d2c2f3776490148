"""The full load of a suite: the references read, the files listed (or the listing replayed
from the cache), each file checked (a share by a forked child when it pays), the runs attached
to their gold files, the ratings after the runs; and the cache written for the next load."""

from __future__ import annotations

import dataclasses

from voyage_tui.engine.bulk import gc_paused
from voyage_tui.engine.items import Item
from voyage_tui.engine.kinds import AFTER_RUNS_KINDS, FileKind
from voyage_tui.engine.loading.once import ReadOnce
from voyage_tui.engine.loading.safe_read import recording_stats
from voyage_tui.engine.references.loaded import References, load_references
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
from voyage_tui.engine.validation.suite_base import (
    Job,
    Prepared,
    Progress,
    by_depth,
    is_gold,
    work_list,
)
from voyage_tui.engine.validation.suite_gold import SuiteGold
from voyage_tui.engine.workspace.layout import Layout, scan

# The checkers (file_check: the loaders, the models, the rules) are imported where a file is
# checked: a suite with nothing of that kind never pays for them (`validate`'s start-up, issue 23).

FREEZE_MIN_ITEMS = 2_000
"""A full load of at least this many items is frozen for the collector (bulk.gc_paused): below
it, the collection it would set off is too short to matter."""


class PendingPrepared:
    """A prepared load whose listing a forked child is still making (Suite.prepare_early):
    `resolve()` waits for it and gives the Prepared load."""

    def __init__(
        self,
        suite: SuiteLoad,
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


class SuiteLoad(SuiteGold):
    """The full validation: prepare (or prepare_early), then validate_all."""

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
        listed += work_list(layout, self.ws.classifier)
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
        for rel in sorted(layout.json_candidates, key=by_depth):
            item = found.get(rel)
            if rules.kind(rel) is FileKind.GOLD_RUN:
                item = self._as_run(rel, item, gold_by_folder.get(rules.run_gold_folder(rel)))
                found[rel] = item
            if is_gold(item):
                gold_by_folder.setdefault(rules.folder_of(rel), rel)
        items: dict[str, Item] = {}
        for _, rel in work_list(layout, rules):
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
