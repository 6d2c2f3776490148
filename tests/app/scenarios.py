"""The screens as a person sees them, on the sample workspace: shared by the snapshot tests
and by `screenshots/make_screenshots.py`, so the README shows exactly what the tests pin."""

from __future__ import annotations

import shutil
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from pathlib import Path

from textual.app import App
from textual.pilot import Pilot
from textual.screen import Screen
from textual.widgets import Input, TextArea
from textual.worker import WorkerState

from tests.app.support import wait_until
from tests.sample import copy_sample_into
from voyage_tui.app.app import VoyageApp
from voyage_tui.app.screens.browser import BrowserScreen
from voyage_tui.app.screens.editor import EditorScreen
from voyage_tui.app.screens.modals import ChoiceScreen
from voyage_tui.app.settings import AppSettings
from voyage_tui.engine.workspace.model import Workspace

REPO = Path(__file__).resolve().parents[2]

TASK = "fixtures/bug-diagnosis/pagination-last-page-dropped/task.yaml"
GOLD = "fixtures/gold/jwt-auth/gold.json"
TRAJECTORY = "fixtures/trajectories/access-token-expiry-and-refresh/task.yaml"
GOLD_RUN = "fixtures/gold/jwt-auth/runs/run-perfect.json"
AGENT_RUN = "fixtures/bug-diagnosis/pagination-last-page-dropped/runs/run-b1.yaml"
BROKEN = "fixtures/feature-change/retry-after-on-429/task.yaml"


def copy_sample(target: Path) -> Path:
    """voyage.toml and fixtures/ into `target` (named `sample`, so headers read the same)."""
    root = target / "sample"
    if root.exists():
        shutil.rmtree(root)
    root.mkdir(parents=True)
    copy_sample_into(root)
    return root


def break_fixture(root: Path) -> None:
    path = root / BROKEN
    text = path.read_text()
    text = text.replace("class: feature-change", "class: feature-chang", 1)
    text = text.replace("visibility: public", "visibility: public\ngrond_truth: typo", 1)
    path.write_text(text)


async def wait_for(pilot: Pilot, condition: Callable[[], bool], timeout: float = 15.0) -> None:
    await wait_until(pilot, condition, timeout)


def steady_cursors(screen: Screen[object]) -> None:
    """No blinking: a cursor shows or not by what was done, not by when the shot is taken.

    An Input: call it before the box takes the focus (focusing it then shows its cursor for
    good; an Input that has the focus already would hide it). A TextArea: call it once it has
    the focus; it then draws its cursor for good, but its cache of drawn lines does not tell a
    cursor blinked off from no blinking, so a line drawn in the off half of a blink would stay
    without its cursor: the cache is emptied."""
    for box in screen.query(Input):
        box.cursor_blink = False
    for area in screen.query(TextArea):
        area.cursor_blink = False
        area.notify_style_update()  # empties TextArea's cache of drawn lines
        area.refresh()


async def loaded(pilot: Pilot) -> BrowserScreen:
    app = pilot.app
    await wait_for(pilot, lambda: getattr(app, "view", None) is not None)
    await pilot.pause()
    browser = app.browser()  # type: ignore[attr-defined]
    assert browser is not None
    steady_cursors(browser)
    return browser


def busy(app: App[object]) -> bool:
    """Work under way that will change the screen: a worker, or a debounced re-check of the
    editor's buffer waiting for the typing to pause."""
    if any(w.state in (WorkerState.PENDING, WorkerState.RUNNING) for w in app.workers):
        return True
    return any(isinstance(s, EditorScreen) and s.lint_pending for s in app.screen_stack)


async def idle(pilot: Pilot, timeout: float = 30.0) -> None:
    """Wait until the app is idle: nothing under way (see `busy`) twice in a row, with the
    messages processed in between, since finished work can hand on more (a message, a worker,
    a re-check). No fixed pause: whatever the machine's speed, the screen is the same."""
    app = pilot.app
    deadline = time.monotonic() + timeout
    quiet = 0
    while quiet < 2:
        if time.monotonic() > deadline:
            raise AssertionError("the app did not become idle")
        await app.workers.wait_for_complete()
        await pilot.pause()
        if busy(app):
            quiet = 0
            await pilot.pause(0.05)
        else:
            quiet += 1


async def select(pilot: Pilot, path: str) -> BrowserScreen:
    browser = await loaded(pilot)
    pilot.app.reveal(path)  # type: ignore[attr-defined]
    await wait_for(pilot, lambda: browser._shown_path == path)
    await idle(pilot)
    return browser


async def open_editor(pilot: Pilot, path: str) -> EditorScreen:
    await select(pilot, path)
    await pilot.press("e")
    app = pilot.app
    await wait_for(
        pilot, lambda: isinstance(app.screen, EditorScreen) and app.screen.opened is not None
    )
    editor: EditorScreen = app.screen  # type: ignore[assignment]
    await wait_for(pilot, lambda: editor.text_area.has_focus)
    steady_cursors(editor)
    await wait_for(pilot, lambda: bool(editor.diagnostics))
    await idle(pilot)
    return editor


TIMERS = "timers"
"""Tag of a scenario whose screen a timer can change: a debounce after typing, a blinking cursor."""


@dataclass(frozen=True)
class Scenario:
    name: str
    title: str
    steps: Callable[[Pilot], Awaitable[None]]
    size: tuple[int, int] = (120, 40)
    prepare: Callable[[Path], None] | None = None
    tags: tuple[str, ...] = field(default_factory=tuple)
    git: bool = False
    """Run the git checks (the copy must be a repository: see `prepare`)."""


async def _browser(pilot: Pilot) -> None:
    await select(pilot, TASK)


async def _filter(pilot: Pilot) -> None:
    browser = await loaded(pilot)
    await pilot.press("slash", *"token")
    await wait_for(pilot, lambda: browser.suite_tree.needle == "token")
    await idle(pilot)


async def _trajectory(pilot: Pilot) -> None:
    await select(pilot, TRAJECTORY)


async def _gold(pilot: Pilot) -> None:
    await select(pilot, GOLD)


async def _gold_run(pilot: Pilot) -> None:
    await select(pilot, GOLD_RUN)


async def _agent_run(pilot: Pilot) -> None:
    await select(pilot, AGENT_RUN)


async def _editor_errors(pilot: Pilot) -> None:
    await open_editor(pilot, BROKEN)


async def _conflict(pilot: Pilot) -> None:
    editor = await open_editor(pilot, BROKEN)
    disk = editor.app.ws.abs(BROKEN)  # type: ignore[attr-defined]
    with open(disk, "a", encoding="utf-8") as handle:
        handle.write("# edited elsewhere\n")
    editor.text_area.move_cursor((0, 0))
    await pilot.press(*"# mine", "enter", "ctrl+s")
    await wait_for(pilot, lambda: isinstance(pilot.app.screen, ChoiceScreen))
    await idle(pilot)


async def _help(pilot: Pilot) -> None:
    await select(pilot, TASK)
    await pilot.press("f1")
    await idle(pilot)


async def _small(pilot: Pilot) -> None:
    await select(pilot, TRAJECTORY)


HOLDOUT = "fixtures/release-verification/canary-promotion-error-budget/task.yaml"


async def _small_holdout(pilot: Pilot) -> None:
    await select(pilot, HOLDOUT)


GOLD_RUNS = (
    "run-perfect",
    "run-misses",
    "run-invents",
    "run-dual-flaggable",
    "run-two-reviewers",
    "run-invalid-finding",
    "run-empty",
    "run-downgraded",
)


async def _open_review(pilot: Pilot, screen: object, ready: Callable[[object], bool]) -> None:
    await loaded(pilot)
    pilot.app.push_screen(screen)  # type: ignore[arg-type]
    await wait_for(pilot, lambda: pilot.app.screen is screen and ready(screen))
    await idle(pilot)


def _diff_steps(run: str) -> Callable[[Pilot], Awaitable[None]]:
    async def steps(pilot: Pilot) -> None:
        from voyage_tui.app.screens.diff import DiffScreen

        await _open_review(
            pilot,
            DiffScreen(GOLD, f"fixtures/gold/jwt-auth/runs/{run}.json"),
            lambda s: s.scored is not None,
        )  # type: ignore[attr-defined]

    return steps


async def _diff_grouped_missed(pilot: Pilot) -> None:
    await _diff_steps("run-misses")(pilot)
    await pilot.press("g", "n")
    await idle(pilot)


async def _row_detail(pilot: Pilot) -> None:
    from voyage_tui.app.screens.review_modals import RowDetailScreen
    from voyage_tui.app.widgets.diff_list import DiffList

    await _diff_steps("run-two-reviewers")(pilot)
    listing = pilot.app.screen.query_one(DiffList)
    listing.highlighted = next(
        i for i, r in enumerate(listing.rows) if r is not None and r.rule_key == "jwt-weak-secret"
    )
    await pilot.press("enter")
    await wait_for(pilot, lambda: isinstance(pilot.app.screen, RowDetailScreen))
    await idle(pilot)


async def _runs(pilot: Pilot) -> None:
    from voyage_tui.app.screens.runs import RunsScreen

    await _open_review(pilot, RunsScreen(GOLD), lambda s: bool(s.ranked))  # type: ignore[attr-defined]


async def _compare(pilot: Pilot) -> None:
    from voyage_tui.app.screens.compare import CompareScreen

    screen = CompareScreen(
        GOLD,
        "fixtures/gold/jwt-auth/runs/run-downgraded.json",
        "fixtures/gold/jwt-auth/runs/run-perfect.json",
    )
    await _open_review(pilot, screen, lambda s: s.comparison is not None)  # type: ignore[attr-defined]


async def _compare_misses(pilot: Pilot) -> None:
    from voyage_tui.app.screens.compare import CompareScreen

    screen = CompareScreen(
        GOLD,
        "fixtures/gold/jwt-auth/runs/run-invents.json",
        "fixtures/gold/jwt-auth/runs/run-misses.json",
    )
    await _open_review(pilot, screen, lambda s: s.comparison is not None)  # type: ignore[attr-defined]


async def _rate_session(pilot: Pilot, keys: tuple[str, ...] = ()) -> None:
    """The rater session as `me`, blind, on a clock that does not move (0:00 on the item)."""
    from voyage_tui.app.screens.rate import RateScreen

    await loaded(pilot)
    screen = RateScreen("me", clock=lambda: 0.0)
    pilot.app.push_screen(screen)
    await wait_for(pilot, lambda: screen.state is not None and not screen.busy)
    await idle(pilot)
    if keys:
        await pilot.press(*keys)
        await wait_for(pilot, lambda: not screen.busy)
        await idle(pilot)


async def _rate_scored(pilot: Pilot) -> None:
    await _rate_session(pilot, ("4", "3", "n", *"good fix, thin tests", "enter"))


async def _agreement(pilot: Pilot) -> None:
    from voyage_tui.app.screens.agreement import AgreementScreen

    await _open_review(pilot, AgreementScreen(), lambda s: s.report is not None)  # type: ignore[attr-defined]


async def _agreement_disputed(pilot: Pilot) -> None:
    from voyage_tui.app.screens.agreement import DisputedScreen

    await _agreement(pilot)
    await pilot.press("enter")
    await wait_for(pilot, lambda: isinstance(pilot.app.screen, DisputedScreen))
    await idle(pilot)


LONG_RATER_NAMES = {
    "alice": "Firstname Lastname",
    "bob": "Firstname Lastname-Other",
    "carol": "Firstname Other",
}
"""The sample's raters renamed so that their names, cut to a column, come out the same."""


def long_rater_names(root: Path) -> None:
    """The sample's ratings, each file and record under a long name (LONG_RATER_NAMES)."""
    import json

    folder = root / "fixtures/ratings"
    for short, long in LONG_RATER_NAMES.items():
        old = folder / f"{short}.jsonl"
        lines = []
        for line in old.read_text(encoding="utf-8").splitlines():
            record = json.loads(line)
            record["rater"] = long
            lines.append(json.dumps(record))
        (folder / f"{long}.jsonl").write_text("\n".join(lines) + "\n", encoding="utf-8")
        old.unlink()


def _rating_team(root: Path) -> None:
    """A campaign on the sample: alice, bob and dan (who has not started) with overlap 2; carol
    rates from outside the team."""
    config = root / "voyage.toml"
    config.write_text(
        config.read_text() + '\n[rating]\nraters = ["alice", "bob", "dan"]\noverlap = 2\n'
    )


async def _rating_status(pilot: Pilot) -> None:
    """`p` on the agreement screen: each rater's progress and pace."""
    from voyage_tui.app.screens.rating_status import RatingStatusScreen

    await _agreement(pilot)
    await pilot.press("p")
    await wait_for(
        pilot,
        lambda: (
            isinstance(pilot.app.screen, RatingStatusScreen) and pilot.app.screen.status is not None
        ),
    )


async def _adjudicate(pilot: Pilot) -> None:
    from voyage_tui.app.screens.adjudicate import AdjudicateScreen

    screen = AdjudicateScreen("dana")
    await _open_review(
        pilot,
        screen,
        lambda s: s.report is not None and s.content is not None and s.working == 0,  # type: ignore[attr-defined]
    )
    await pilot.press("3", "4")  # two final scores typed: the keypad on the third
    await idle(pilot)


async def _adjudicate_run(pilot: Pilot) -> None:
    """The adjudicator reads the run (`o` three times: ratings, task, run) with a note typed."""
    await _adjudicate(pilot)
    await pilot.press("n", *"bob missed the cap test", "enter")
    await pilot.press("o", "o", "o")
    await idle(pilot)


async def _triage(pilot: Pilot) -> None:
    from tests.app.triage_steps import open_triage

    await open_triage(pilot)


async def _triage_snooze(pilot: Pilot) -> None:
    from tests.app.triage_steps import mark_and_snooze

    await mark_and_snooze(pilot)


def _seed(root: Path) -> None:
    from tests.triage.seed import seed_every_kind

    seed_every_kind(root)


TRIAGE_SCENARIOS = [
    Scenario(
        "triage",
        "Triage: everything that needs a person, worst first",
        _triage,
        prepare=_seed,
        git=True,
        tags=("triage",),
    ),
    Scenario(
        "triage-80x24",
        "Triage at 80x24",
        _triage,
        size=(80, 24),
        prepare=_seed,
        git=True,
        tags=("triage",),
    ),
    Scenario(
        "triage-wide",
        "Triage on a wide terminal",
        _triage,
        size=(160, 40),
        prepare=_seed,
        git=True,
        tags=("triage",),
    ),
    Scenario(
        "triage-snooze",
        "Triage: three items marked, snoozing them",
        _triage_snooze,
        prepare=_seed,
        git=True,
        tags=("triage",),
    ),
]

SCENARIOS: list[Scenario] = [
    Scenario("browser", "Browser with a task's detail", _browser),
    Scenario("browser-filter", "Filtering by prompt text", _filter, tags=(TIMERS,)),
    Scenario("detail-trajectory", "A trajectory against the journey", _trajectory),
    Scenario("detail-gold", "A gold corpus file", _gold),
    Scenario("detail-gold-run", "A recorded run beside a gold file", _gold_run),
    Scenario("detail-agent-run", "An agent run waiting to be rated", _agent_run),
    Scenario(
        "editor-errors",
        "Editor with errors marked",
        _editor_errors,
        prepare=break_fixture,
        tags=(TIMERS,),
    ),
    Scenario(
        "editor-conflict",
        "Save refused: the file changed on disk",
        _conflict,
        prepare=break_fixture,
        tags=(TIMERS,),
    ),
    Scenario("help", "Help for the focused widget (F1)", _help),
    Scenario("browser-80x24", "The browser at 80x24", _small, size=(80, 24)),
    Scenario(
        "browser-80x24-holdout",
        "At 80x24 a long id ends in an ellipsis; the holdout mark stays",
        _small_holdout,
        size=(80, 24),
    ),
    *[
        Scenario(f"diff-{run}", f"Gold vs {run}", _diff_steps(run), tags=("review",))
        for run in GOLD_RUNS
    ],
    Scenario(
        "diff-grouped",
        "Diff grouped by file, at the next difference",
        _diff_grouped_missed,
        tags=("review",),
    ),
    Scenario(
        "diff-row-detail",
        "A diff row in full, with the source around it",
        _row_detail,
        tags=("review",),
    ),
    Scenario(
        "runs",
        "Every run of a gold file: right verdicts first, then by F1",
        _runs,
        tags=("review",),
    ),
    Scenario(
        "compare-regression",
        "Run against run: a BLOCK -> ALLOW regression",
        _compare,
        tags=("review",),
    ),
    Scenario(
        "compare",
        "Run against run: keys gained, spurious keys added",
        _compare_misses,
        tags=("review",),
    ),
    Scenario(
        "diff-80x24",
        "The diff at 80x24",
        _diff_steps("run-invents"),
        size=(80, 24),
        tags=("review",),
    ),
    *TRIAGE_SCENARIOS,
]


SCENARIOS += [
    Scenario(
        "rate-session", "Rating an agent run, blind: task beside run, rubric below", _rate_session
    ),
    Scenario(
        "rate-scored",
        "Two dimensions scored (their anchors stay shown), a note added",
        _rate_scored,
    ),
    Scenario("rate-80x24", "The rater session at 80x24", _rate_scored, size=(80, 24)),
    Scenario(
        "rate-wide", "A wide terminal: the rubric beside the pair", _rate_scored, size=(170, 48)
    ),
    Scenario("agreement", "Rater agreement: alpha, kappa, the most disputed items", _agreement),
    Scenario("agreement-80x24", "Rater agreement at 80x24", _agreement, size=(80, 24)),
    Scenario(
        "agreement-80x24-long-names",
        "Raters with long names at 80x24: pairs by short labels, with a legend",
        _agreement,
        size=(80, 24),
        prepare=long_rater_names,
    ),
    Scenario(
        "agreement-disputed",
        "A disputed item: every rater's scores and note side by side",
        _agreement_disputed,
    ),
    Scenario(
        "rating-status",
        "Rating status: per rater assigned, done, left, seconds per item, items per hour",
        _rating_status,
        prepare=_rating_team,
    ),
    Scenario(
        "rating-status-80x24",
        "Rating status at 80x24",
        _rating_status,
        size=(80, 24),
        prepare=_rating_team,
    ),
    Scenario(
        "adjudicate",
        "Adjudication: every rater's scores beside the final scores being typed",
        _adjudicate,
    ),
    Scenario("adjudicate-80x24", "Adjudication at 80x24", _adjudicate, size=(80, 24)),
    Scenario(
        "adjudicate-run",
        "Adjudication: the run's pane, a note typed",
        _adjudicate_run,
    ),
    Scenario(
        "adjudicate-run-80x24",
        "Adjudication at 80x24: the run's pane, a note typed",
        _adjudicate_run,
        size=(80, 24),
    ),
]


def set_results_baseline(root: Path) -> None:
    """The sample's voyage.toml with `[results] baseline`: the agent labelled `baseline`."""
    config = root / "voyage.toml"
    config.write_text(config.read_text() + '\n[results]\nbaseline = "baseline"\n')


async def _results(pilot: Pilot) -> None:
    from voyage_tui.app.screens.results import ResultsScreen

    await loaded(pilot)
    await pilot.press("v")
    await wait_for(
        pilot,
        lambda: isinstance(pilot.app.screen, ResultsScreen) and pilot.app.screen.report is not None,
    )
    await idle(pilot)


async def _results_fixtures(pilot: Pilot) -> None:
    from voyage_tui.app.screens.results import FixturesScreen

    await _results(pilot)
    await pilot.press("enter")
    await wait_for(pilot, lambda: isinstance(pilot.app.screen, FixturesScreen))
    await idle(pilot)


async def _results_ratings(pilot: Pilot) -> None:
    from voyage_tui.app.screens.results import RatingsScreen

    await _results_fixtures(pilot)
    await pilot.press("enter")
    await wait_for(pilot, lambda: isinstance(pilot.app.screen, RatingsScreen))
    await idle(pilot)


SCENARIOS += [
    Scenario(
        "results",
        "Results: means with intervals, the forest plot against the baseline",
        _results,
        prepare=set_results_baseline,
    ),
    Scenario(
        "results-80x24", "Results at 80x24", _results, size=(80, 24), prepare=set_results_baseline
    ),
    Scenario(
        "results-fixtures",
        "A comparison's fixtures, the agent furthest below the baseline first",
        _results_fixtures,
        prepare=set_results_baseline,
    ),
    Scenario(
        "results-ratings",
        "One fixture: both agents' ratings side by side, unblinded",
        _results_ratings,
        prepare=set_results_baseline,
    ),
]


def scenario_app(root: Path, git: bool = False) -> VoyageApp:
    return VoyageApp(Workspace.load(root), AppSettings(use_git=git, watch=False, keymap={}))


# The creation wizard's steps live in their own module (it imports Scenario from here).
from tests.app.wizard_scenarios import WIZARD_SCENARIOS  # noqa: E402

SCENARIOS += [Scenario(name, title, steps, size) for name, title, steps, size in WIZARD_SCENARIOS]
