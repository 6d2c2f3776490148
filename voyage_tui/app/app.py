"""The Textual app: loads the suite in a worker, watches the workspace, routes results to screens."""

from __future__ import annotations

import contextlib
import threading
import time
from pathlib import Path, PurePath
from typing import Any, ClassVar

from textual import work
from textual.app import App

from voyage_tui.app.actions import bindings
from voyage_tui.app.commands import VoyageCommands
from voyage_tui.app.keymap import KeymappedApp
from voyage_tui.app.messages import LoadFailed, LoadProgress, SuiteChanged, SuiteLoaded
from voyage_tui.app.resilience import Resilient
from voyage_tui.app.screens.base import VoyageScreen
from voyage_tui.app.screens.browser import BrowserScreen
from voyage_tui.app.screens.compare import CompareScreen
from voyage_tui.app.screens.diff import DiffScreen
from voyage_tui.app.screens.editor import EditorScreen
from voyage_tui.app.screens.rate import RateScreen
from voyage_tui.app.screens.review_modals import PickScreen
from voyage_tui.app.screens.runs import RunsScreen
from voyage_tui.app.screens.wizard import WizardScreen
from voyage_tui.app.watcher import WatchUnavailable, WorkspaceWatcher
from voyage_tui.engine.authoring import WizardStart
from voyage_tui.engine.editing import OPENING, Opening
from voyage_tui.engine.git.exposure import ExposureReport
from voyage_tui.engine.kinds import FileKind
from voyage_tui.engine.validation.first_screen import (
    FirstScreen,
    first_screen_of,
    save_first_screen,
)
from voyage_tui.engine.validation.suite import Prepared, Suite
from voyage_tui.engine.validation.view import SuiteView, changed_paths, view_of
from voyage_tui.engine.workspace.config import CONFIG_NAME
from voyage_tui.engine.workspace.model import Workspace

STYLES = Path(__file__).parent / "styles"


class _Superseded(Exception):
    """A load that a later "re-validate everything" replaced: it stops where it is."""


class VoyageApp(KeymappedApp, Resilient):
    TITLE = "voyage-tui"
    CSS_PATH: ClassVar[list[str | PurePath]] = [
        STYLES / "app.tcss",
        STYLES / "browser.tcss",
        STYLES / "editor.tcss",
        STYLES / "review.tcss",
        STYLES / "rate.tcss",
        STYLES / "triage.tcss",
        STYLES / "wizard.tcss",
    ]
    COMMANDS = App.COMMANDS | {VoyageCommands}
    BINDINGS = bindings("app")

    def __init__(
        self,
        ws: Workspace,
        *,
        use_git: bool = True,
        watch: bool = True,
        keymap: dict[str, str] | None = None,
        initial_diff: tuple[str, str] | None = None,
        initial_rate: tuple[str | None, bool] | None = None,
        prepared: Prepared | None = None,
        initial_triage: bool = False,
        initial_wizard: WizardStart | None = None,
        watcher: WorkspaceWatcher | None = None,
        first_screen: FirstScreen | None = None,
        cache: bool = False,
    ) -> None:
        """`prepared` is the first load already under way (see Suite.prepare): the command line
        starts it before Textual, so a second process is checking half the suite meanwhile.
        `keymap`: binding id -> keys; None reads the user's keymap file.
        `initial_rate`: (rater, blind) to open the rater session on (`voyage-tui rate`).
        `watcher` is the workspace's watcher, armed by the command line before that load listed
        the files; without one the app makes its own and arms it before its first scan.
        `first_screen`: what the last run's first screen showed (engine/validation/
        first_screen.py), drawn at once; the first load then starts once it is on screen.
        `cache`: the first load may use the validation cache (when `prepared` is None), and
        the first screen is recorded for the next start when the app closes."""
        super().__init__(keymap)
        self.ws = ws
        self.use_git = use_git
        self.watch_files = watch
        self.view: SuiteView | None = None
        self._suite: Suite | None = None
        self._suite_lock = threading.Lock()
        self._stop_watching = threading.Event()
        self._watcher = watcher
        self._watching = False  # the UI thread's: one watcher for the app's lifetime
        self._initial_diff = initial_diff
        self._initial_rate = initial_rate
        self.rater, self.rate_blind = initial_rate if initial_rate is not None else (None, True)
        """Who rates, and whether blind, in a session opened from the app (`s`): what
        `voyage-tui rate` was given, else the engine's choice, blind."""
        self._initial_triage = initial_triage
        self._prepared = prepared
        self.first_screen = first_screen
        self._cache = cache
        self._first_load_cached = cache and prepared is None
        self._arm_after_load = cache and prepared is not None and watch
        """A first load prepared with the cache and no watcher armed yet (cli/common.py): the
        watcher is armed once the loaded suite is on screen, and whatever changed since the
        load stamped the files is checked then (Suite.changed_since_load)."""
        self._first_painted = False
        self._initial_wizard = initial_wizard
        self.wizard_outcome: object | None = None
        """How a wizard opened by `voyage-tui new` ended (a WizardOutcome)."""
        # Under _suite_lock: every view is numbered as it is made, so one computed earlier but
        # delivered later is recognised and dropped; each load has a token, so a load that a
        # later one replaced is dropped too; changes that arrive while a load runs wait in
        # _pending and are checked on the loaded suite before it is shown.
        self._generation = 0
        self._load_token = 0
        self._pending: set[str] | None = set()  # before the first load, everything waits for it
        self._shown_generation = 0  # the UI thread's: the newest view applied
        self._painted = threading.Event()
        """Set once a loaded suite has been painted (or the app closes)."""

    # --- start-up ------------------------------------------------------------------------

    def on_mount(self) -> None:
        self.apply_user_keymap()
        self.push_screen(BrowserScreen())
        if self._initial_diff is not None:
            self.push_screen(DiffScreen(*self._initial_diff))
        if self._initial_rate is not None:
            self.push_screen(RateScreen(self.rater, blind=self.rate_blind))
        if self._initial_triage:
            self.action_triage()
        if self._initial_wizard is not None:
            self.push_screen(WizardScreen(self._initial_wizard, standalone=True))
        if self.first_screen is not None:
            # Drawn from the record: arming the watcher and the load (a stat of every file)
            # would only hold the interpreter lock the first paint needs.
            self.call_after_refresh(self._after_first_screen)
            return
        if not self._arm_after_load:
            self._start_watching()
        self.load_suite()

    def _after_first_screen(self) -> None:
        self._mark_painted()
        self._start_watching()
        self.load_suite()

    def _mark_painted(self) -> None:
        if not self._first_painted:
            self._first_painted = True
            self.first_screen_painted()

    def first_screen_painted(self) -> None:
        """Called once, when the first full screen is on the terminal: the recorded first
        screen, or without one the loaded suite. (A hook for benchmarks/app_probe.py.)"""

    def _new_view(self, suite: Suite) -> SuiteView:
        """The suite as it is now, numbered. Call with _suite_lock held."""
        self._generation += 1
        return view_of(suite, self._generation)

    @work(thread=True, exclusive=True, group="suite")
    def load_suite(self) -> None:
        with self._suite_lock:
            self._load_token += 1
            token = self._load_token
            if self._pending is None:
                self._pending = set()
        prepared, self._prepared = self._prepared, None
        # Armed before the files are listed: a change made while they load is not lost (or,
        # for a first load that stamped them, armed after it: see _arm_after_load).
        if not self._arm_after_load:
            self._arm_watcher()
        last = [0.0]

        def progress(done: int, total: int) -> None:
            if self._load_token != token:
                raise _Superseded  # "re-validate everything" again: that load is the one shown
            # A few updates a second: each one repaints the header, and a repaint per percent
            # costs the loading worker the interpreter lock more often than it is worth.
            now = time.monotonic()
            if now - last[0] >= 0.2 or done >= total:
                last[0] = now
                self.post_message(LoadProgress(done, total))

        try:
            suite = Suite(self.ws, use_git=self.use_git)
            if prepared is None and self._first_load_cached:
                # Drawn from the recorded first screen: the files unchanged since the cache
                # recorded them are taken from it, here, after that screen is on the terminal.
                self._first_load_cached = False
                prepared = suite.prepare(fork=False, cache=True)
            suite.validate_all(progress=progress, prepared=prepared, git=False)
            with self._suite_lock:
                if token != self._load_token:
                    return
                pending, self._pending = self._pending or set(), None
                if pending:
                    suite.revalidate(pending)
                self._suite = suite
                view = self._new_view(suite)
                items = dict(suite.items)
        except _Superseded:
            if prepared is not None:
                prepared.cancel()
            return
        except Exception as exc:
            self._load_failed(token)
            self.post_message(LoadFailed(repr(exc)))
            if self._arm_after_load:  # no suite to compare with: watch from now on
                self._arm_after_load = False
                self._arm_watcher()
                self.call_from_thread(self._start_watching)
            return
        self.post_message(SuiteLoaded(view))
        # Encoding every item for the cache holds the interpreter lock: after the first paint.
        self._painted.wait(timeout=5)
        suite.save_cache(items)
        if self._arm_after_load:
            self._arm_after_load = False
            self._watch_after_load()
        if self.use_git:
            # History checks take longer than the files: show the suite first, then these.
            with self._suite_lock:
                if self._suite is not suite:
                    return
                suite.run_git_checks()
                view = self._new_view(suite)
            self.post_message(SuiteChanged(view, set(view.items)))

    def _watch_after_load(self) -> None:
        """Arm the watcher, then check what changed since the load stamped the files: between
        the two nothing is lost. (Arming walks every folder, and the walk holds the interpreter
        lock: after the first screen, not before it.)"""
        self._arm_watcher()
        with self._suite_lock:
            # The suite shown now: a "re-validate everything" may have replaced this load's,
            # and it listed the files before the watcher was armed too.
            current = self._suite
            changed = current.changed_since_load() if current is not None else None
        self.call_from_thread(self._start_watching)
        if changed is None:
            changed = {CONFIG_NAME}  # means "check everything" to the suite
        if changed:
            self.call_from_thread(self.revalidate_paths, changed)

    def _load_failed(self, token: int) -> None:
        """A load that failed leaves the suite shown before it (if any) in place: the changes
        that waited for it are checked on that one."""
        with self._suite_lock:
            if token != self._load_token:
                return
            pending, self._pending = self._pending or set(), None
        if pending and self._suite is not None:
            self.call_from_thread(self.revalidate_paths, pending)

    def _start_watching(self) -> None:
        if not self.watch_files or self._watching:
            return
        self._watching = True
        if self._watcher is None:
            self._watcher = WorkspaceWatcher(self.ws.root)
        self.watch_workspace()

    def _arm_watcher(self) -> None:
        watcher = self._watcher
        if watcher is None or not self.watch_files:
            return
        with contextlib.suppress(WatchUnavailable):  # the watching worker says so, once
            watcher.arm()

    @work(thread=True, group="watch")
    def watch_workspace(self) -> None:
        watcher = self._watcher
        assert watcher is not None
        try:
            watcher.run(self._files_changed, self._stop_watching)
        except WatchUnavailable as exc:
            self.call_from_thread(
                self.notify,
                f"Not watching the workspace for changes: {exc}. Changes made outside the app "
                "show after “Re-validate everything” (command palette).",
                severity="warning",
                timeout=15,
                markup=False,
            )

    def _files_changed(self, paths: set[str] | None) -> None:
        if self._stop_watching.is_set():  # the app is closing: nothing to hand the paths to
            return
        if paths is None:
            # The watcher lost changes it could not name. voyage.toml changing means "check
            # everything" to the suite, and goes through the same lock as every other change.
            paths = {CONFIG_NAME}
        self.call_from_thread(self.revalidate_paths, paths)

    def on_unmount(self) -> None:
        self._stop_watching.set()
        self._painted.set()
        if self._prepared is not None:
            self._prepared.cancel()
        self._record_first_screen()

    def _record_first_screen(self) -> None:
        """What the browser's first screen would show of the suite now, for the next start."""
        view = self.view
        if not self._cache or view is None:
            return
        try:
            save_first_screen(self.ws, first_screen_of(view, use_git=self.use_git))
        except Exception:  # never in the way of closing: the next start only loads slower
            return

    async def run_async(self, *args: Any, **kwargs: Any) -> Any:
        """Textual's, with the watching thread stopped however the app ends: Textual's shutdown
        can fail before the app's Unmount (a widget's task cancelled under it), and asyncio.run
        waits for every worker thread before it returns, so a watcher left running hangs the
        exit."""
        try:
            return await super().run_async(*args, **kwargs)
        finally:
            self._stop_watching.set()
            self._painted.set()

    # --- re-validation -------------------------------------------------------------------

    def revalidate_paths(self, paths: set[str]) -> None:
        if paths:
            self._revalidate(frozenset(paths))

    @work(thread=True, group="revalidate")
    def _revalidate(self, paths: frozenset[str]) -> None:
        with self._suite_lock:
            if self._pending is not None:
                # A load is under way: it checks these once it has the suite, before showing it.
                self._pending |= paths
                return
            suite = self._suite
            if suite is None:
                return
            touched = suite.revalidate(paths)
            view = self._new_view(suite)
        self.post_message(SuiteChanged(view, touched))

    def action_revalidate_all(self) -> None:
        self.load_suite()

    # --- messages to screens -------------------------------------------------------------

    def _screens(self) -> list[VoyageScreen[Any]]:
        if not self.is_running:
            return []  # closing: the screens' widgets are being taken down
        return [s for s in self.screen_stack if isinstance(s, VoyageScreen)]

    def on_load_progress(self, message: LoadProgress) -> None:
        for screen in self._screens():
            screen.load_progress(message.done, message.total)

    def _is_newer(self, view: SuiteView) -> bool:
        """Views are applied in the order they were computed: one made before the view shown
        (a slow worker delivering late) is dropped, the newer one already holds its changes.
        A view made elsewhere without a number (generation 0) is applied as it comes."""
        if view.generation == 0:
            return True
        if view.generation <= self._shown_generation:
            return False
        self._shown_generation = view.generation
        return True

    def on_suite_loaded(self, message: SuiteLoaded) -> None:
        if not self._is_newer(message.view):
            return
        self.view = message.view
        for screen in self._screens():
            screen.suite_loaded(message.view)
        self.call_after_refresh(self._loaded_painted)

    def _loaded_painted(self) -> None:
        self._painted.set()
        self._mark_painted()

    def on_suite_changed(self, message: SuiteChanged) -> None:
        if not self._is_newer(message.view):
            return
        # What differs from the view shown: the worker's own list misses what a view dropped
        # in between had changed.
        touched = set(message.touched) | changed_paths(self.view, message.view)
        self.view = message.view
        for screen in self._screens():
            screen.suite_changed(message.view, touched)

    def on_load_failed(self, message: LoadFailed) -> None:
        self.notify(f"Loading the workspace failed: {message.error}", severity="error", timeout=30)
        for screen in self._screens():
            screen.load_failed()

    # --- actions shared by screens and the command palette --------------------------------

    def browser(self) -> BrowserScreen | None:
        for screen in reversed(self.screen_stack):
            if isinstance(screen, BrowserScreen):
                return screen
        return None

    def _back_to_browser(self) -> BrowserScreen | None:
        """Close whatever sits above the browser and return it."""
        browser = self.browser()
        if browser is not None:
            while self.screen is not browser:
                if isinstance(self.screen, RateScreen):
                    self.screen.end_session()  # its rater's lock goes now, for the next one
                self.pop_screen()
        return browser

    def reveal(self, path: str) -> None:
        browser = self._back_to_browser()
        if browser is None:
            return
        if browser.suite_tree.select_path(path):
            browser.suite_tree.focus()
            browser.show_item(path)

    def open_item(self, path: str) -> bool:
        """Open an item in its own screen when it has one: a gold file its ranked runs, a run
        its diff. False: the caller opens the editor."""
        item = self.view.items.get(path) if self.view is not None else None
        if item is None:
            return False
        opening = OPENING[item.kind]
        if opening is Opening.RUN_DIFF and item.parent:
            self.push_screen(DiffScreen(item.parent, path))
            return True
        if opening is Opening.RUNS:
            self.push_screen(RunsScreen(path))
            return True
        return False

    # --- ratings ----------------------------------------------------------------------------

    def action_rate_session(self) -> None:
        """The rater session: the one already open, else a new one on top of the browser."""
        for screen in self.screen_stack:
            if isinstance(screen, RateScreen):
                while self.screen is not screen:
                    self.pop_screen()
                return
        self._back_to_browser()
        self.push_screen(RateScreen(self.rater, blind=self.rate_blind))

    def open_rater_on(self, fixture_id: str, run_id: str) -> None:
        """The rater session opened on one agent run (triage's `enter` on an unrated run)."""
        self._back_to_browser()
        self.push_screen(
            RateScreen(self.rater, blind=self.rate_blind, start_at=(fixture_id, run_id))
        )

    def action_agreement(self) -> None:
        from voyage_tui.app.screens.agreement import AgreementScreen

        self.push_screen(AgreementScreen())

    # --- triage ----------------------------------------------------------------------------

    def action_triage(self) -> None:
        """Open the triage queue (or go back to it when it is open under other screens)."""
        from voyage_tui.app.screens.triage import TriageScreen

        for screen in self.screen_stack:
            if isinstance(screen, TriageScreen):
                while self.screen is not screen:
                    self.pop_screen()
                return
        self.push_screen(TriageScreen())

    def exposure_report(self) -> ExposureReport | None:
        """The latest exposure report (None before the git checks ran, or without git). A new
        report replaces the old one whole, so reading it needs no lock."""
        suite = self._suite
        return suite.git.exposure if suite is not None else None

    # --- holdouts ---------------------------------------------------------------------------

    def retire_holdout(self, path: str) -> None:
        """Ask, then make the holdout public through the engine (and commit when asked)."""
        from voyage_tui.app.screens.modals import retire_question

        self.push_screen(
            retire_question(path),
            lambda choice: (
                choice in ("commit", "retire") and self._retire(path, choice == "commit")
            ),
        )

    @work(thread=True, group="retire")
    def _retire(self, path: str, commit: bool) -> None:
        from voyage_tui.engine.git.retire import RetireError, retire_holdout

        with self._suite_lock:
            report = self._suite.git.exposure if self._suite is not None else None
        exposure = report.by_path().get(path) if report is not None else None
        signals = exposure.signals if exposure is not None else ()
        try:
            result = retire_holdout(self.ws, path, commit=commit, signals=signals)
        except RetireError as exc:
            self.call_from_thread(self.notify, f"Not retired: {exc}", severity="error", timeout=8)
            return
        note = f"Retired {path}"
        if commit:
            note += (
                f"; committed {result.commit[:12]}"
                if result.commit
                else f"; commit failed: {result.commit_error}"
            )
        self.call_from_thread(self.notify, note, timeout=5)
        self.call_from_thread(self.revalidate_paths, {path})

    # --- gold review -----------------------------------------------------------------------

    def _gold_runs(self, gold_rel: str) -> list[str]:
        if self.view is None:
            return []
        return sorted(
            p
            for p, i in self.view.items.items()
            if i.kind is FileKind.GOLD_RUN and i.parent == gold_rel
        )

    def _context_gold(self) -> str | None:
        """The gold file the person is looking at: on a review screen, or selected in the tree."""
        screen = self.screen
        gold = getattr(screen, "gold_rel", None)
        if isinstance(gold, str) and gold:
            return gold
        browser = self.browser()
        if browser is not None and self.view is not None:
            path = browser.suite_tree.current_path()
            item = self.view.items.get(path) if path else None
            if item is not None and item.kind is FileKind.GOLD:
                return item.path
            if item is not None and item.kind is FileKind.GOLD_RUN:
                return item.parent
        return None

    def _with_gold(self, then: Any) -> None:
        gold = self._context_gold()
        if gold is not None:
            then(gold)
            return
        golds = sorted(
            p for p, i in (self.view.items.items() if self.view else []) if i.kind is FileKind.GOLD
        )
        if not golds:
            self.notify("This workspace has no gold files", severity="warning")
        elif len(golds) == 1:
            then(golds[0])
        else:
            self.push_screen(
                PickScreen("Which gold file?", [(g, g) for g in golds]), lambda g: g and then(g)
            )

    def action_runs_command(self) -> None:
        self._with_gold(lambda gold: self.push_screen(RunsScreen(gold)))

    def action_compare_runs_command(self) -> None:
        self._with_gold(lambda gold: self.compare_runs(gold, getattr(self.screen, "run_rel", None)))

    def compare_runs(self, gold_rel: str, run_rel: str | None = None) -> None:
        """Pick what is missing (the run, then the baseline) and open run against run."""
        runs = self._gold_runs(gold_rel)
        if len(runs) < 2:
            self.notify("Comparing needs two runs of the same gold file", severity="warning")
            return

        def label(path: str) -> str:
            return path.rsplit("/", 1)[-1]

        def with_run(run: str | None) -> None:
            if not run:
                return
            others = [(p, label(p)) for p in runs if p != run]
            self.push_screen(
                PickScreen(f"Compare {label(run)} against which baseline?", others),
                lambda baseline: (
                    baseline and self.push_screen(CompareScreen(gold_rel, run, baseline))
                ),
            )

        if run_rel is not None:
            with_run(run_rel)
        else:
            self.push_screen(PickScreen("Which run?", [(p, label(p)) for p in runs]), with_run)

    def action_new_fixture(self) -> None:
        """The creation wizard, over whatever is open."""
        if self.view is None:
            self.notify("The suite is still loading; try again in a moment", timeout=3)
            return
        self.push_screen(WizardScreen())

    def unsaved_buffers(self) -> list[tuple[str, str]]:
        """(path, text) of each editor with unsaved changes: what a crash writes to recovery."""
        buffers = []
        for screen in self.screen_stack:
            if isinstance(screen, EditorScreen):
                try:
                    if screen.dirty:
                        buffers.append((screen.rel, screen.text_area.text))
                except Exception:
                    continue  # a screen too broken to ask; the others still count
        return buffers

    async def action_quit(self) -> None:
        editors = [s for s in self.screen_stack if isinstance(s, EditorScreen) and s.dirty]
        if not editors:
            self.exit(0)
            return
        editor = editors[-1]
        while self.screen is not editor:
            self.pop_screen()
        editor.leave(then=self.action_quit_after_leave)

    def action_quit_after_leave(self) -> None:
        self.run_worker(self.action_quit(), exclusive=True, group="quit")
