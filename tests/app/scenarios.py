"""The screens as a person sees them, on the sample workspace: shared by the snapshot tests
and by `screenshots/make_screenshots.py`, so the README shows exactly what the tests pin."""

from __future__ import annotations

import shutil
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from pathlib import Path

from textual.pilot import Pilot

from tests.app.support import wait_until
from voyage_tui.app.app import VoyageApp
from voyage_tui.app.screens.browser import BrowserScreen
from voyage_tui.app.screens.editor import EditorScreen
from voyage_tui.app.screens.modals import ChoiceScreen
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
    shutil.copy(REPO / "voyage.toml", root / "voyage.toml")
    shutil.copytree(REPO / "fixtures", root / "fixtures")
    return root


def break_fixture(root: Path) -> None:
    path = root / BROKEN
    text = path.read_text()
    text = text.replace("class: feature-change", "class: feature-chang", 1)
    text = text.replace("visibility: public", "visibility: public\ngrond_truth: typo", 1)
    path.write_text(text)


async def wait_for(pilot: Pilot, condition: Callable[[], bool], timeout: float = 15.0) -> None:
    await wait_until(pilot, condition, timeout)


async def loaded(pilot: Pilot) -> BrowserScreen:
    app = pilot.app
    await wait_for(pilot, lambda: getattr(app, "view", None) is not None)
    await pilot.pause()
    browser = app.browser()  # type: ignore[attr-defined]
    assert browser is not None
    return browser


async def settled(pilot: Pilot) -> None:
    await pilot.app.workers.wait_for_complete()
    await pilot.pause(0.2)
    await pilot.app.workers.wait_for_complete()
    await pilot.pause()


async def select(pilot: Pilot, path: str) -> BrowserScreen:
    browser = await loaded(pilot)
    pilot.app.reveal(path)  # type: ignore[attr-defined]
    await wait_for(pilot, lambda: browser._shown_path == path)
    await settled(pilot)
    return browser


async def open_editor(pilot: Pilot, path: str) -> EditorScreen:
    await select(pilot, path)
    await pilot.press("e")
    app = pilot.app
    await wait_for(
        pilot, lambda: isinstance(app.screen, EditorScreen) and app.screen.opened is not None
    )
    editor: EditorScreen = app.screen  # type: ignore[assignment]
    editor.text_area.cursor_blink = False
    await wait_for(pilot, lambda: bool(editor.diagnostics))
    await settled(pilot)
    return editor


@dataclass(frozen=True)
class Scenario:
    name: str
    title: str
    steps: Callable[[Pilot], Awaitable[None]]
    size: tuple[int, int] = (120, 40)
    prepare: Callable[[Path], None] | None = None
    tags: tuple[str, ...] = field(default_factory=tuple)


async def _browser(pilot: Pilot) -> None:
    await select(pilot, TASK)


async def _filter(pilot: Pilot) -> None:
    browser = await loaded(pilot)
    await pilot.press("slash", *"token")
    await wait_for(pilot, lambda: browser.tree.needle == "token")
    await settled(pilot)


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
    await settled(pilot)


async def _help(pilot: Pilot) -> None:
    await select(pilot, TASK)
    await pilot.press("f1")
    await settled(pilot)


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
    await settled(pilot)


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
    await settled(pilot)


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
    await settled(pilot)


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


SCENARIOS: list[Scenario] = [
    Scenario("browser", "Browser with a task's detail", _browser),
    Scenario("browser-filter", "Filtering by prompt text", _filter),
    Scenario("detail-trajectory", "A trajectory against the journey", _trajectory),
    Scenario("detail-gold", "A gold corpus file", _gold),
    Scenario("detail-gold-run", "A recorded run beside a gold file", _gold_run),
    Scenario("detail-agent-run", "An agent run waiting to be rated", _agent_run),
    Scenario("editor-errors", "Editor with errors marked", _editor_errors, prepare=break_fixture),
    Scenario(
        "editor-conflict",
        "Save refused: the file changed on disk",
        _conflict,
        prepare=break_fixture,
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
    Scenario("runs", "Every run of a gold file, ranked by F1", _runs, tags=("review",)),
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
]


def scenario_app(root: Path) -> VoyageApp:
    return VoyageApp(Workspace.load(root), use_git=False, watch=False, keymap={})
