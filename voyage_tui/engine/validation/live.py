"""The live suite: loaded, watched and re-checked while a front end shows it, without Textual.

A front end (the app) gives a LiveSuite three things: `run(group, job)`, which runs a job on a
thread of its own (a Textual worker; a test runs it at once), `publish(event)`, which takes the
events below from whatever thread made them to the front end's own (Textual's post_message),
and the workspace's watcher. It then calls `begin()` (or `after_first_screen()` for a start
from the recorded first screen), hands every Loaded/Changed view to `show`/`show_change` on its
own thread before presenting it, and calls `close()` when it ends.

The cycle, all under one lock: every view is numbered as it is made, so one computed earlier
but delivered later is recognised and dropped (`show`); each load has a token, so a load that a
later one replaced stops (at its next progress report) and is dropped; changes that arrive
while a load runs wait and are checked on the loaded suite before it is shown. A load that
fails leaves the suite shown before it in place, and the changes that waited are checked on it.
"""

from __future__ import annotations

import contextlib
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from enum import Enum
from typing import Protocol

from voyage_tui.engine.git.exposure import ExposureReport
from voyage_tui.engine.loading.once import ReadOnce
from voyage_tui.engine.loading.stamps import Stamp
from voyage_tui.engine.validation.first_screen import (
    FirstScreen,
    first_screen_of,
    save_first_screen,
)
from voyage_tui.engine.validation.layout_replay import ListingParts, listing_parts
from voyage_tui.engine.validation.listed import filled, listed_view
from voyage_tui.engine.validation.suite import PendingPrepared, Prepared, Suite
from voyage_tui.engine.validation.view import SuiteView, changed_paths, view_of
from voyage_tui.engine.watcher import WatchUnavailable
from voyage_tui.engine.workspace.config import CONFIG_NAME
from voyage_tui.engine.workspace.model import Workspace

PROGRESS_EVERY = 0.2
"""Seconds between progress events: each one repaints the header, and a repaint per percent
costs the loading thread the interpreter lock more often than it is worth."""

BATCH_EVERY = 1.0
"""Seconds between the batches of checked files a first load shows (`Listed`): each one is a
new view of every item and a relabelled tree (and time the loading thread does not check): worth
it once a second, not per file."""

PAINT_WAIT = 5.0
"""At most this long the first load waits for its suite to be painted before writing the
cache (encoding every item holds the interpreter lock the paint needs)."""

CHECK_EVERYTHING = frozenset({CONFIG_NAME})
"""voyage.toml changing means "check everything" to the suite."""


class Watcher(Protocol):
    """The workspace's watcher (engine/watcher.py WorkspaceWatcher)."""

    def arm(self) -> None:
        """Record every change from now on. Raises WatchUnavailable."""

    def run(self, on_change: Callable[[set[str] | None], None], stop: threading.Event) -> None:
        """Hand the recorded changes on (None: some were lost) until `stop` is set. Raises
        WatchUnavailable."""

    def close(self) -> None:
        """Stop recording changes."""


class Start(Enum):
    """How the first load starts."""

    FRESH = "fresh"
    """Nothing done before the front end: the watcher is armed, then the files are listed."""
    PREPARED = "prepared"
    """The load was started before the front end (Suite.prepare_early, by cli/common.py, so a
    forked child checks half the suite meanwhile; on a first run it lists the files too, and the
    load takes its listing up: PendingPrepared). With the cache and a watcher, the watcher is armed
    only after that load is on screen, and what changed since it stamped the files is checked
    then (arming walks every folder, holding the interpreter lock the first paint needs)."""
    FROM_CACHE = "from_cache"
    """The first screen the last run recorded is drawn at once; the load starts once it is on
    the terminal (`after_first_screen`), and the watcher is armed once the loaded suite is
    (then what changed since the load stamped the files is checked, as for PREPARED)."""


@dataclass(frozen=True, slots=True)
class LiveStart:
    """A start strategy with what it starts from. `watcher`: the workspace's watcher, made (and
    for a PREPARED start without the cache, armed) before the front end; None: the front end
    makes its own."""

    start: Start = Start.FRESH
    prepared: Prepared | PendingPrepared | None = None
    first_screen: FirstScreen | None = None
    watcher: Watcher | None = None
    reads: ReadOnce | None = None
    """What the start read already (the recorded first screen's key, or the prepared load's
    references): the first load parses those bytes, so a start opens each reference once."""

    def __post_init__(self) -> None:
        if (self.start is Start.PREPARED) != (self.prepared is not None):
            raise ValueError("a PREPARED start, and only it, has a prepared load")
        if (self.start is Start.FROM_CACHE) != (self.first_screen is not None):
            raise ValueError("a FROM_CACHE start, and only it, has a first screen")

    def close(self) -> None:
        """Cancel a prepared load nobody took and close the watcher (after the front end)."""
        if self.prepared is not None:
            self.prepared.cancel()
        if self.watcher is not None:
            self.watcher.close()


# --- events --------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Progressed:
    """The load has checked `done` of `total` items."""

    done: int
    total: int


@dataclass(frozen=True, slots=True)
class Listed:
    """The first load has listed the files: `view` is the suite as far as it is known, every
    listed file an item, those not checked yet stand-ins (`view.unchecked`; listed.py). Sent
    once straight after the listing, then once per batch of checked files (BATCH_EVERY), only
    while no loaded suite has been shown; `done` of `total` files are checked."""

    view: SuiteView
    done: int
    total: int


@dataclass(frozen=True, slots=True)
class Loaded:
    """A full load finished (the first, or a re-check of everything)."""

    view: SuiteView


@dataclass(frozen=True, slots=True)
class Changed:
    """Files were re-checked; `touched` are the item paths affected."""

    view: SuiteView
    touched: frozenset[str]


@dataclass(frozen=True, slots=True)
class Failed:
    """A load failed; the suite shown before it, if any, stays."""

    error: str


@dataclass(frozen=True, slots=True)
class WatchFailed:
    """The workspace cannot be watched: changes made outside show after a full re-check."""

    reason: str


LiveEvent = Progressed | Listed | Loaded | Changed | Failed | WatchFailed

Run = Callable[[str, Callable[[], None]], None]
"""run(group, job): run `job` on a thread of its own. Groups: "suite" (loads: a new one
replaces the one running), "revalidate", "watch"."""


class _Superseded(Exception):
    """A load that a later one replaced: it stops where it is."""


class LiveSuite:
    def __init__(
        self,
        ws: Workspace,
        *,
        use_git: bool,
        cache: bool,
        start: LiveStart,
        run: Run,
        publish: Callable[[LiveEvent], None],
        watcher: Watcher | None = None,
    ) -> None:
        """`watcher`: None, the workspace is not watched. `cache`: the first load may use the
        validation cache, and `record_first_screen` records the screen for the next start."""
        self.ws = ws
        self.use_git = use_git
        self.cache = cache
        self.start = start.start
        self.first_screen = start.first_screen
        self._prepared = start.prepared
        self._start_reads = start.reads
        self._run = run
        self._publish = publish
        self._watcher = watcher
        self._first_load_cached = cache and self.start is not Start.PREPARED
        self._arm_after_load = (
            cache and self.start in (Start.PREPARED, Start.FROM_CACHE) and watcher is not None
        )
        """A first load with the cache (prepared, or after the recorded first screen): the
        watcher is armed once the loaded suite is on screen, and whatever changed since the load
        stamped the files is checked then. Arming puts a watch on every folder (4 s of the
        interpreter lock at 100,000 fixtures): before the load, the checked suite waited for it."""
        self._watching = False  # one watching thread for the suite's lifetime
        self._stop = threading.Event()
        self._painted = threading.Event()
        """Set once a loaded suite has been painted (or the suite is closed)."""
        self._first_painted = False
        self._listing_painted = threading.Event()
        """Set once the first Listed view is on the terminal (or the suite is closed)."""
        self._lock = threading.Lock()
        # Under _lock:
        self._suite: Suite | None = None
        self._generation = 0
        self._load_token = 0
        self._pending: set[str] | None = set()  # before the first load, everything waits
        # The front end's thread:
        self.view: SuiteView | None = None
        """The newest view shown."""
        self.listed: SuiteView | None = None
        """The newest view of the listing shown while the first load checks (show_listed)."""
        self._shown_generation = 0

    # --- start and end ---------------------------------------------------------------------

    def begin(self) -> None:
        """Start the first load (FRESH, PREPARED). A FROM_CACHE start waits for
        `after_first_screen` instead."""
        if self.start is Start.FROM_CACHE:
            return
        if not self._arm_after_load:
            self._start_watching()
        self.load()

    def after_first_screen(self) -> None:
        """The recorded first screen is on the terminal (FROM_CACHE): load (and watch once it is
        on screen; without the cache, watch first)."""
        if not self._arm_after_load:
            self._start_watching()
        self.load()

    def painted(self) -> bool:
        """A full screen is on the terminal (the recorded one, or a loaded suite): True the
        first time only."""
        first, self._first_painted = not self._first_painted, True
        return first

    def loaded_painted(self) -> None:
        """A loaded suite is on the terminal: the load may write the cache now."""
        self._painted.set()

    def listing_painted(self) -> None:
        """The first Listed view is on the terminal: the load checks its files now."""
        self._listing_painted.set()

    def close(self) -> None:
        """Stop watching, let a load waiting for a paint go on, and drop a prepared load."""
        self._stop.set()
        self._painted.set()
        self._listing_painted.set()
        prepared, self._prepared = self._prepared, None
        if prepared is not None:
            prepared.cancel()

    @property
    def closed(self) -> bool:
        return self._stop.is_set()

    def record_first_screen(self) -> None:
        """What the browser's first screen would show of the suite now, for the next start."""
        view = self.view
        if not self.cache or view is None:
            return
        try:
            save_first_screen(self.ws, first_screen_of(view, use_git=self.use_git))
        except Exception:  # never in the way of closing: the next start only loads slower
            return

    # --- loading ---------------------------------------------------------------------------

    def load(self) -> None:
        """Load (or re-check) the whole suite; a load still running is replaced."""
        self._run("suite", self._load)

    def _new_view(self, suite: Suite) -> SuiteView:
        """The suite as it is now, numbered. Call with _lock held."""
        self._generation += 1
        return view_of(suite, self._generation)

    def _load(self) -> None:
        with self._lock:
            self._load_token += 1
            token = self._load_token
            if self._pending is None:
                self._pending = set()
        early_load, self._prepared = self._prepared, None
        prepared: Prepared | None = None
        # Armed before the files are listed: a change made while they load is not lost (or,
        # for a first load that stamped them, armed after it: see _arm_after_load).
        if not self._arm_after_load:
            self._arm()
        last_progress = last_batch = 0.0
        batched = 0  # of this process's checked files, those in a batch already
        shown: SuiteView | None = None
        """The newest Listed view, while a first load runs (None: no batches)."""

        def progress(done: int, total: int) -> None:
            nonlocal last_progress, last_batch, batched, shown
            if self._load_token != token:
                raise _Superseded  # loaded again since: that load is the one shown
            now = time.monotonic()
            if now - last_progress >= PROGRESS_EVERY or done >= total:
                last_progress = now
                self._publish(Progressed(done, total))
            if shown is None or prepared is None or done >= total:
                return
            checked = prepared.tasks.so_far
            if now - last_batch >= BATCH_EVERY and len(checked) > batched:
                fresh = checked[batched:]
                last_batch, batched = now, len(checked)
                shown = filled(shown, (i for i in fresh if i is not None))
                self._publish(Listed(shown, done, total))

        try:
            # The first load takes the start's reads; a later one reads the references afresh.
            reads, self._start_reads = self._start_reads, None
            suite = Suite(self.ws, use_git=self.use_git, reads=reads)
            # A listing a forked child makes while the front end starts: taken up here.
            prepared = early_load.resolve() if early_load is not None else None
            if prepared is None:
                # The files unchanged since the cache recorded them are taken from it (for a
                # FROM_CACHE start, here, after the recorded screen is on the terminal).
                cached, self._first_load_cached = self._first_load_cached, False
                prepared = suite.prepare(fork=False, cache=cached)
            with self._lock:
                first = self._suite is None
            # Nothing to check (every file from the cache, warm): the loaded suite comes next,
            # and a listing drawn before it would only be drawn again.
            if first and prepared.tasks.work:
                # Nothing shown yet: the listing is a screen to act on while the files are
                # checked (listed.py), filled in batch by batch.
                layout = prepared.layout
                total = len(layout.tasks) + len(layout.agent_runs) + len(layout.json_candidates)
                shown = listed_view(self.ws, prepared.refs, layout, prepared.reused)
                last_batch = time.monotonic()
                self._publish(Listed(shown, len(prepared.reused), total))
                # Checking holds the interpreter lock the paint of that screen needs, and a
                # forked child (cli/common.py) checks its share meanwhile: paint first.
                self._listing_painted.wait(timeout=PAINT_WAIT)
            # Stamped before they are read, for the listing the cache keeps (layout_replay.py).
            ratings = self._stamp_after_runs(suite, prepared)
            suite.validate_all(progress=progress, prepared=prepared, git=False)
            with self._lock:
                if token != self._load_token:
                    return
                pending, self._pending = self._pending or set(), None
                if pending:
                    suite.revalidate(pending)
                    ratings = None  # the suite is no longer what the stamps describe
                self._suite = suite
                view = self._new_view(suite)
                items = dict(suite.items)
                listing = None if ratings is None else self._listing(suite, prepared, ratings, view)
        except _Superseded:
            if prepared is not None:
                prepared.cancel()
            elif early_load is not None:
                early_load.cancel()
            return
        except Exception as exc:
            self._load_failed(token)
            self._publish(Failed(repr(exc)))
            if self._arm_after_load:  # no suite to compare with: watch from now on
                self._arm_after_load = False
                self._arm()
                self._start_watching()
            return
        self._publish(Loaded(view))
        # Encoding every item for the cache holds the interpreter lock: after the first paint.
        self._painted.wait(timeout=PAINT_WAIT)
        suite.save_cache(items, listing)
        if self._arm_after_load:
            self._arm_after_load = False
            self._watch_after_load()
        if self.use_git:
            # History checks take longer than the files: show the suite first, then these.
            with self._lock:
                if self._suite is not suite:
                    return
                suite.run_git_checks()
                view = self._new_view(suite)
            self._publish(Changed(view, frozenset(view.items)))

    def _stamp_after_runs(self, suite: Suite, prepared: Prepared) -> dict[str, Stamp] | None:
        """Without git, a load with the cache leaves the walk's listing in it for the next start
        (as `validate` does): the stamps of the ratings files and the adjudications file are
        taken before they are read. None: no listing (git decides what is listed)."""
        cache = prepared.cache
        if cache is None or self.use_git or not cache.listing:
            return None
        adjudications = self.ws.adjudications_rel
        after_runs = [*prepared.layout.ratings, *([adjudications] if adjudications else [])]
        return {rel: cache.stamper.stamp(rel) for rel in after_runs}

    @staticmethod
    def _listing(
        suite: Suite, prepared: Prepared, ratings: dict[str, Stamp], view: SuiteView
    ) -> ListingParts:
        """The listing's parts as the suite is now (under the lock; the cache is written later)."""
        return listing_parts(
            prepared.layout,
            suite.items,
            ratings,
            [*suite.ws.config_diagnostics, *suite.refs.diagnostics],
            suite.layout_problems,
            suite.suite_diagnostics,
            view.coverage,
        )

    def _load_failed(self, token: int) -> None:
        """The changes that waited for a load that failed are checked on the suite shown."""
        with self._lock:
            if token != self._load_token:
                return
            pending, self._pending = self._pending or set(), None
            shown = self._suite is not None
        if pending and shown:
            self.revalidate(pending)

    # --- watching --------------------------------------------------------------------------

    def _arm(self) -> None:
        if self._watcher is not None:
            with contextlib.suppress(WatchUnavailable):  # the watching thread says so, once
                self._watcher.arm()

    def _start_watching(self) -> None:
        with self._lock:  # from the front end's thread or a load's
            if self._watcher is None or self._watching:
                return
            self._watching = True
        self._run("watch", self._watch)

    def _watch(self) -> None:
        assert self._watcher is not None
        try:
            self._watcher.run(self.files_changed, self._stop)
        except WatchUnavailable as exc:
            self._publish(WatchFailed(str(exc)))

    def _watch_after_load(self) -> None:
        """Arm the watcher, then check what changed since the load stamped the files: between
        the two nothing is lost."""
        self._arm()
        with self._lock:
            # The suite shown now: a later full load may have replaced this load's, and it
            # listed the files before the watcher was armed too.
            current = self._suite
            changed = current.changed_since_load() if current is not None else None
        self._start_watching()
        self.revalidate(CHECK_EVERYTHING if changed is None else changed)

    def files_changed(self, paths: set[str] | None) -> None:
        """The watcher's report (None: changes were lost, check everything)."""
        if self._stop.is_set():  # closing: nothing to hand the paths to
            return
        self.revalidate(CHECK_EVERYTHING if paths is None else paths)

    # --- re-checking -----------------------------------------------------------------------

    def revalidate(self, paths: set[str] | frozenset[str]) -> None:
        """Re-check `paths` (workspace-relative) on a thread of their own."""
        if paths:
            frozen = frozenset(paths)
            self._run("revalidate", lambda: self._revalidate(frozen))

    def _revalidate(self, paths: frozenset[str]) -> None:
        with self._lock:
            if self._pending is not None:
                # A load is under way: it checks these once it has the suite, before showing it.
                self._pending |= paths
                return
            suite = self._suite
            if suite is None:
                return
            touched = suite.revalidate(paths)
            view = self._new_view(suite)
        self._publish(Changed(view, frozenset(touched)))

    # --- what the front end shows (its own thread) -----------------------------------------

    def _is_newer(self, view: SuiteView) -> bool:
        """Views are shown in the order they were made: one made before the view shown (a slow
        thread delivering late) is dropped, the newer one already holds its changes. A view
        made elsewhere without a number (generation 0) is shown as it comes."""
        if view.generation == 0:
            return True
        if view.generation <= self._shown_generation:
            return False
        self._shown_generation = view.generation
        return True

    def show_listed(self, view: SuiteView) -> bool:
        """A view of the listing arrived: False once a loaded suite is shown (drop it)."""
        if self.view is not None:
            return False
        self.listed = view
        return True

    def show(self, view: SuiteView) -> bool:
        """A loaded view arrived: False when it is late (drop it), else it is the view shown."""
        if not self._is_newer(view):
            return False
        self.view = view
        return True

    def show_change(self, view: SuiteView, touched: frozenset[str] | set[str]) -> set[str] | None:
        """A changed view arrived: None when it is late (drop it), else the paths that differ
        from the view shown before (the thread's own list misses what a view dropped in
        between had changed)."""
        if not self._is_newer(view):
            return None
        differ = set(touched) | changed_paths(self.view, view)
        self.view = view
        return differ

    # --- reading -----------------------------------------------------------------------------

    @property
    def suite(self) -> Suite | None:
        """The suite loaded last (its workers change it: read it under no assumption)."""
        return self._suite

    def exposure(self) -> ExposureReport | None:
        """The latest exposure report (None before the git checks ran, or without git). A new
        report replaces the old one whole, so reading it needs no lock."""
        suite = self._suite
        return suite.git.exposure if suite is not None else None
