"""The Textual app: runs the live suite's work in workers and routes its results to screens."""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path, PurePath
from typing import TYPE_CHECKING, Any, ClassVar, Literal, TypeVar, cast, overload

from textual import work
from textual.app import App, SystemCommand
from textual.screen import Screen, ScreenResultCallbackType
from textual.widget import AwaitMount

from voyage_tui.app.actions import bindings
from voyage_tui.app.commands import VoyageCommands
from voyage_tui.app.keymap import KeymappedApp
from voyage_tui.app.messages import (
    LoadFailed,
    LoadProgress,
    SuiteChanged,
    SuiteListed,
    SuiteLoaded,
)
from voyage_tui.app.navigation import Navigation
from voyage_tui.app.rater_only import SYSTEM_COMMANDS, refused_app_actions
from voyage_tui.app.resilience import Resilient
from voyage_tui.app.screens.base import VoyageScreen
from voyage_tui.app.screens.browser import BrowserScreen
from voyage_tui.app.screens.compare import CompareScreen
from voyage_tui.app.screens.diff import DiffScreen
from voyage_tui.app.screens.editor import EditorScreen
from voyage_tui.app.screens.review_modals import PickScreen
from voyage_tui.app.screens.runs import RunsScreen
from voyage_tui.app.screens.wizard import WizardScreen
from voyage_tui.app.settings import AppSettings
from voyage_tui.engine.editing import OPENING, Opening
from voyage_tui.engine.git.exposure import ExposureReport
from voyage_tui.engine.kinds import FileKind
from voyage_tui.engine.links import link_to_open
from voyage_tui.engine.validation.first_screen import FirstScreen
from voyage_tui.engine.validation.live import (
    Changed,
    Failed,
    Listed,
    LiveEvent,
    LiveStart,
    LiveSuite,
    Loaded,
    Progressed,
    Start,
    WatchFailed,
)
from voyage_tui.engine.validation.view import SuiteView
from voyage_tui.engine.watcher import watcher_of
from voyage_tui.engine.wording import plural
from voyage_tui.engine.workspace.model import Workspace

STYLES = Path(__file__).parent / "styles"

ScreenResult = TypeVar("ScreenResult")


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
        self, ws: Workspace, settings: AppSettings | None = None, start: LiveStart | None = None
    ) -> None:
        """`start`: how the first load starts (engine/validation/live.py): FRESH by default;
        the command line prepares it before Textual (cli/common.py start_first_load), or
        starts from the first screen the last run recorded. Its watcher, if any, is the
        workspace's; without one the app makes its own when `settings.watch`."""
        settings = settings if settings is not None else AppSettings()
        start = start if start is not None else LiveStart()
        super().__init__(settings.keymap)
        self.ws = ws
        self.settings = settings
        self.use_git = settings.use_git
        self.rater, self.rate_blind = (
            settings.initial_rate if settings.initial_rate is not None else (None, True)
        )
        """Who rates, and whether blind, in a session opened from the app (`s`): what
        `voyage-tui rate` was given, else the engine's choice, blind."""
        self.wizard_outcome: object | None = None
        """How a wizard opened by `voyage-tui new` ended (a WizardOutcome)."""
        self.navigation = Navigation(self, rater_only=settings.rater_only)
        """Every switch between the browser, the triage queue and the rater session."""
        self.refused_actions = refused_app_actions() if settings.rater_only else frozenset()
        self.load_done = (0, 0)
        """How many files of how many the first load has checked (its latest report)."""
        """The app's actions this session refuses (a rater-only one: app/rater_only.py)."""
        watcher = start.watcher
        if watcher is None and settings.watch:
            watcher = watcher_of(ws)
        self.live = LiveSuite(
            ws,
            use_git=settings.use_git,
            cache=settings.cache,
            start=start,
            run=self._run_live,
            publish=self._publish_live,
            watcher=watcher if settings.watch else None,
        )
        """The suite as loaded, watched and re-checked: the app runs its jobs in workers and
        presents its events."""

    @property
    def view(self) -> SuiteView | None:
        """The suite as shown (None before the first load)."""
        return self.live.view

    @property
    def first_screen(self) -> FirstScreen | None:
        """What the last run's first screen showed, drawn at once (a FROM_CACHE start)."""
        return self.live.first_screen

    # --- start-up ------------------------------------------------------------------------

    def on_mount(self) -> None:
        self.apply_user_keymap()
        settings = self.settings
        self.navigation.start(self.rater, self.rate_blind)
        if settings.rater_only:
            self._begin_load()
            return
        if settings.initial_diff is not None:
            self.push_screen(DiffScreen(*settings.initial_diff, match=settings.match))
        if settings.initial_adjudicate is not None:
            from voyage_tui.app.screens.adjudicate import AdjudicateScreen

            self.push_screen(AdjudicateScreen(settings.initial_adjudicate))
        if settings.initial_rate is not None:
            self.navigation.rate(self.rater, self.rate_blind)
        if settings.initial_triage:
            self.action_triage()
        if settings.initial_wizard is not None:
            self.push_screen(WizardScreen(settings.initial_wizard, standalone=True))
        self._begin_load()

    def _begin_load(self) -> None:
        if self.live.start is Start.FROM_CACHE:
            # Drawn from the record: arming the watcher and the load (a stat of every file)
            # would only hold the interpreter lock the first paint needs.
            self.call_after_refresh(self._after_first_screen)
            return
        self.live.begin()

    # --- links: every click on a Markdown link reaches here ---------------------------------

    def open_url(self, url: str, *, new_tab: bool = True) -> None:
        """Open `url` only as engine/links.py allows: never in a rater-only session, else only
        an http(s) URL, given to the browser as the engine re-assembled it; a refusal is said."""
        decision = link_to_open(url, rater_only=self.settings.rater_only)
        if decision.url is None:
            self.notify(decision.reason, severity="warning", markup=False)
            return
        super().open_url(decision.url, new_tab=new_tab)

    # --- what a rater-only session refuses (app/rater_only.py decides) ----------------------

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action in self.refused_actions:
            return False
        return super().check_action(action, parameters)

    def get_system_commands(self, screen: Screen[Any]) -> Iterable[SystemCommand]:
        for command in super().get_system_commands(screen):
            if not self.settings.rater_only or command.title in SYSTEM_COMMANDS:
                yield command

    if TYPE_CHECKING:

        @overload
        def push_screen(
            self,
            screen: Screen[ScreenResult] | str,
            callback: ScreenResultCallbackType[ScreenResult] | None = None,
            wait_for_dismiss: Literal[False] = False,
            *,
            mode: str | None = None,
        ) -> AwaitMount: ...

        @overload
        def push_screen(
            self,
            screen: Screen[ScreenResult] | str,
            callback: ScreenResultCallbackType[ScreenResult] | None = None,
            wait_for_dismiss: Literal[True] = True,
            *,
            mode: str | None = None,
        ) -> asyncio.Future[ScreenResult]: ...

    def push_screen(
        self,
        screen: Screen[ScreenResult] | str,
        callback: ScreenResultCallbackType[ScreenResult] | None = None,
        wait_for_dismiss: bool = False,
        *,
        mode: str | None = None,
    ) -> AwaitMount | asyncio.Future[ScreenResult]:
        """Textual's, but a screen the navigation does not allow (every screen but the rating
        views, in a rater-only session) is not opened, whichever way it was asked for."""
        if not self.navigation.allows(screen):
            self.navigation.refused(screen)
            if wait_for_dismiss:
                # Never opened, so never dismissed: the caller's await ends with no result.
                refused: asyncio.Future[ScreenResult] = asyncio.get_running_loop().create_future()
                refused.cancel()
                return refused
            return AwaitMount(self.screen, [])
        # (The mixins above App leave super()'s overloads untyped for mypy.)
        if wait_for_dismiss:
            future = super().push_screen(screen, callback, True, mode=mode)
            return cast("asyncio.Future[ScreenResult]", future)
        return cast(AwaitMount, super().push_screen(screen, callback, False, mode=mode))

    def _after_first_screen(self) -> None:
        self._mark_painted()
        self.live.after_first_screen()

    def _mark_painted(self) -> None:
        if self.live.painted():
            self.first_screen_painted()

    def first_screen_painted(self) -> None:
        """Called once, when the first full screen is on the terminal: the recorded first
        screen, or without one the listing (or the loaded suite, if it came first). (A hook
        for benchmarks/app_probe.py.)"""

    def _run_live(self, group: str, job: Callable[[], None]) -> None:
        """The live suite's jobs run in thread workers; a new load replaces the one running."""

        def start() -> None:
            self.run_worker(job, thread=True, group=group, exclusive=group == "suite")

        try:
            asyncio.get_running_loop()
        except RuntimeError:  # a worker's thread (a load, the watcher): start it from the app's
            if not self.live.closed:
                self.call_from_thread(start)
            return
        start()

    def _publish_live(self, event: LiveEvent) -> None:
        """The live suite's events, from any thread, as the app's messages."""
        match event:
            case Progressed(done, total):
                self.post_message(LoadProgress(done, total))
            case Listed(view, done, total):
                self.post_message(SuiteListed(view, done, total))
            case Loaded(view):
                self.post_message(SuiteLoaded(view))
            case Changed(view, touched):
                self.post_message(SuiteChanged(view, set(touched)))
            case Failed(error):
                self.post_message(LoadFailed(error))
            case WatchFailed(reason):
                self.call_from_thread(
                    self.notify,
                    f"Not watching the workspace for changes: {reason}. Changes made outside "
                    "the app show after “Re-validate everything” (command palette).",
                    severity="warning",
                    timeout=15,
                    markup=False,
                )

    def load_suite(self) -> None:
        """Load the whole suite again (a load running is replaced)."""
        self.live.load()

    def on_unmount(self) -> None:
        self.live.close()
        self.live.record_first_screen()

    async def run_async(self, *args: Any, **kwargs: Any) -> Any:
        """Textual's, with the watching thread stopped however the app ends: Textual's shutdown
        can fail before the app's Unmount (a widget's task cancelled under it), and asyncio.run
        waits for every worker thread before it returns, so a watcher left running hangs the
        exit."""
        try:
            return await super().run_async(*args, **kwargs)
        finally:
            self.live.close()

    # --- re-validation -------------------------------------------------------------------

    def revalidate_paths(self, paths: set[str]) -> None:
        self.live.revalidate(paths)

    def action_revalidate_all(self) -> None:
        self.live.load()

    # --- messages to screens -------------------------------------------------------------

    def _screens(self) -> list[VoyageScreen[Any]]:
        if not self.is_running:
            return []  # closing: the screens' widgets are being taken down
        return [s for s in self.navigation.every_screen() if isinstance(s, VoyageScreen)]

    def on_load_progress(self, message: LoadProgress) -> None:
        self.load_done = (message.done, message.total)
        for screen in self._screens():
            screen.load_progress(message.done, message.total)

    def on_suite_listed(self, message: SuiteListed) -> None:
        if not self.live.show_listed(message.view):
            return  # the loaded suite is on screen already
        for screen in self._screens():
            screen.suite_listed(message.view, message.done, message.total)
        self.load_done = (message.done, message.total)
        self.call_after_refresh(self._listing_painted)

    def _listing_painted(self) -> None:
        self.live.listing_painted()  # the load may check the files now
        self._mark_painted()  # a first screen a person can act on

    def checking(self) -> bool:
        """True, and said to the person, while the first load checks the files: what needs
        results (diagnostics, triage, scoring) waits for them rather than act on nothing."""
        if self.view is not None:
            return False
        done, total = self.load_done
        count = f" ({done:,} / {plural(total, 'file')})" if total else ""
        self.notify(
            f"Checking the suite{count}: this needs every file checked; try again in a moment",
            timeout=3,
        )
        return True

    def on_suite_loaded(self, message: SuiteLoaded) -> None:
        if not self.live.show(message.view):
            return  # late: a newer view is shown
        for screen in self._screens():
            screen.suite_loaded(message.view)
        self.call_after_refresh(self._loaded_painted)

    def _loaded_painted(self) -> None:
        self.live.loaded_painted()
        self._mark_painted()

    def on_suite_changed(self, message: SuiteChanged) -> None:
        touched = self.live.show_change(message.view, message.touched)
        if touched is None:
            return  # late: a newer view is shown
        for screen in self._screens():
            screen.suite_changed(message.view, touched)

    def on_load_failed(self, message: LoadFailed) -> None:
        self.notify(f"Loading the workspace failed: {message.error}", severity="error", timeout=30)
        for screen in self._screens():
            screen.load_failed()

    # --- actions shared by screens and the command palette --------------------------------

    def browser(self) -> BrowserScreen | None:
        return self.navigation.browser()

    def reveal(self, path: str) -> None:
        self.navigation.reveal(path)

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
        self.navigation.rate(self.rater, self.rate_blind)

    def open_rater_on(self, fixture_id: str, run_id: str) -> None:
        """The rater session opened on one agent run (triage's `enter` on an unrated run)."""
        self.navigation.rate_run(self.rater, self.rate_blind, fixture_id, run_id)

    def action_agreement(self) -> None:
        from voyage_tui.app.screens.agreement import AgreementScreen

        self.push_screen(AgreementScreen())

    # --- triage ----------------------------------------------------------------------------

    def action_triage(self) -> None:
        """Open the triage queue (or go back to it when it is open under other screens)."""
        self.navigation.triage()

    def exposure_report(self) -> ExposureReport | None:
        """The latest exposure report (None before the git checks ran, or without git)."""
        return self.live.exposure()

    # --- holdouts ---------------------------------------------------------------------------

    def ask_retire(self, paths: Sequence[str], then: Callable[[bool], None]) -> None:
        """The one question before any retire in the app (the browser's, triage's; a bulk
        retire asks once): `then(commit)` runs on a yes, nothing on a cancel."""
        from voyage_tui.app.screens.modals import retire_question
        from voyage_tui.engine.git.retire_question import RetireQuestion

        def answered(choice: str | None) -> None:
            commit = RetireQuestion.commit_for(choice)
            if commit is not None:
                then(commit)

        self.push_screen(retire_question(*paths), answered)

    def retire_holdout(self, path: str) -> None:
        """Ask, then make the holdout public through the engine (and commit when asked)."""

        def answered(commit: bool) -> None:
            self._retire(path, commit)

        self.ask_retire([path], answered)

    @work(thread=True, group="retire")
    def _retire(self, path: str, commit: bool) -> None:
        from voyage_tui.engine.triage.retirer import Retirer, Target

        report = self.live.exposure()
        exposure = report.by_path().get(path) if report is not None else None
        signals = tuple(exposure.signals) if exposure is not None else ()
        # Journaled like triage's retire, so `u` on the triage screen takes it back.
        done = Retirer(self.ws).retire([Target(path, signals=signals)], commit=commit)
        for _, why in done.problems:
            prefix = "Not retired" if done.action is None and not done.unrecorded else "Retired"
            self.call_from_thread(
                self.notify, f"{prefix}: {why}", severity="error", timeout=8, markup=False
            )
        if done.action is not None:
            result = done.results[0]
            note = f"Retired {path} (u in triage undoes it)"
            if commit:
                note += (
                    f"; committed {result.commit[:12]}"
                    if result.commit
                    else f"; commit failed: {result.commit_error}"
                )
            self.call_from_thread(self.notify, note, timeout=5, markup=False)
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
        if self.checking():
            return
        self._with_gold(lambda gold: self.push_screen(RunsScreen(gold)))

    def action_compare_runs_command(self) -> None:
        if self.checking():
            return
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
        if self.checking():
            return
        self.push_screen(WizardScreen())

    def unsaved_buffers(self) -> list[tuple[str, str]]:
        """(path, text) of each editor with unsaved changes: what a crash writes to recovery."""
        buffers = []
        for screen in self.navigation.every_screen():
            if isinstance(screen, EditorScreen):
                try:
                    if screen.dirty:
                        buffers.append((screen.rel, screen.text_area.text))
                except Exception:
                    continue  # a screen too broken to ask; the others still count
        return buffers

    async def action_quit(self) -> None:
        every = self.navigation.every_screen()
        editors = [s for s in every if isinstance(s, EditorScreen) and s.dirty]
        if not editors:
            self.exit(0)
            return
        editor = editors[-1]
        self.navigation.back_to(editor)  # its area, the screens above it closed
        editor.leave(then=self.action_quit_after_leave)

    def action_quit_after_leave(self) -> None:
        self.run_worker(self.action_quit(), exclusive=True, group="quit")
