"""Every run of one gold file, right verdicts first, best F1 first; Enter opens a run's diff,
two marks compare them."""

from __future__ import annotations

from rich.table import Table
from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.widgets import OptionList, Static
from textual.widgets.option_list import Option

from voyage_tui.app.actions import bindings
from voyage_tui.app.screens.base import VoyageScreen
from voyage_tui.app.widgets.key_footer import KeyFooter
from voyage_tui.app.widgets.key_list import KeyList
from voyage_tui.engine.kinds import FileKind
from voyage_tui.engine.review.inputs import RankedRun, ReviewError, rank_runs
from voyage_tui.engine.wording import plural
from voyage_tui.engine.workspace.model import Workspace


def ranked_renderable(run: RankedRun, mark: str) -> Table:
    grid = Table.grid(expand=True, padding=(0, 2))
    grid.add_column(width=3, no_wrap=True)
    grid.add_column(width=2, no_wrap=True)
    grid.add_column(ratio=2)
    grid.add_column(ratio=3)
    grid.add_column(ratio=2)
    name = Text(run.name, style="bold")
    if run.scored is None:
        grid.add_row(
            Text(f"{run.rank}."),
            Text(mark, style="bold cyan"),
            name,
            Text(f"cannot score: {run.problem}", style="red"),
            Text(""),
        )
        return grid
    score = run.scored.score
    figures = Text()
    figures.append(f"F1 {score.f1:.3f}", style="bold")
    figures.append(f"  P {score.precision:.3f}  R {score.recall:.3f}  ", style="dim")
    figures.append(f"tp {score.tp} fp {score.fp} fn {score.fn}")
    verdict = Text(f"{score.run_verdict} ")
    verdict.append(
        "✓" if score.verdict_match else "✗ expected " + str(score.expected_verdict),
        style="green" if score.verdict_match else "bold red",
    )
    if score.invalid_findings:
        verdict.append(f"  !{len(score.invalid_findings)} invalid", style="magenta")
    grid.add_row(Text(f"{run.rank}."), Text(mark, style="bold cyan"), name, figures, verdict)
    return grid


class RunsScreen(VoyageScreen[None]):
    SCOPE = "runs"
    BINDINGS = bindings("runs")
    HELP = """
## Runs of a gold file

Runs whose verdict matches the gold's come first; a wrong verdict ranks below every right
one. Within each, by F1 (then recall, then name). `enter` opens the run's diff · {runs.mark}
marks a run (first mark: the baseline) · {runs.compare} compares each marked run with the
highlighted one.
"""

    def __init__(self, gold_rel: str, opened_from: str | None = None) -> None:
        super().__init__()
        self.gold_rel = gold_rel
        self.opened_from = opened_from
        """The run whose diff the list was opened from: the cursor starts on it."""
        self.ranked: list[RankedRun] = []
        self.marked: list[str] = []

    def compose(self) -> ComposeResult:
        yield Static(Text.assemble(("Runs of ", ""), (self.gold_rel, "bold")), id="runs-title")
        yield Static("ranking…", id="runs-summary")
        yield KeyList(id="runs-list")
        yield KeyFooter()

    def on_mount(self) -> None:
        if self.app.view is None:
            # opened straight onto a diff: the runs are known once the workspace has loaded
            self.query_one("#runs-summary", Static).update(
                Text("waiting for the workspace to load…", style="dim")
            )
            return
        self.load()

    def suite_loaded(self, view: object) -> None:
        self.load()

    def _run_paths(self) -> list[str]:
        view = self.app.view
        if view is None:
            return []
        return sorted(
            p
            for p, i in view.items.items()
            if i.kind is FileKind.GOLD_RUN and i.parent == self.gold_rel
        )

    def load(self) -> None:
        """Rank the runs again; only the newest ranking is shown."""
        ws, paths = self.app.ws, self._run_paths()
        self.run_in_thread(lambda: self._rank(ws, paths), self._show, key="runs")

    def _rank(self, ws: Workspace, paths: list[str]) -> list[RankedRun] | ReviewError:
        try:
            return rank_runs(ws, self.gold_rel, paths)
        except ReviewError as exc:
            return exc

    def _show(self, ranked: list[RankedRun] | ReviewError) -> None:
        if isinstance(ranked, ReviewError):
            self.query_one("#runs-summary", Static).update(Text(str(ranked), style="red"))
            return
        self.ranked = ranked
        summary = self.query_one("#runs-summary", Static)
        summary.update(
            Text(f"{plural(len(ranked), 'run')}, right verdicts first, then best F1", style="dim")
            if ranked
            else Text("No runs beside this gold file (runs/*.json).", style="dim")
        )
        self._render_list()
        self.query_one(OptionList).focus()

    def _render_list(self) -> None:
        listing = self.query_one(OptionList)
        highlighted = listing.highlighted
        listing.clear_options()
        for run in self.ranked:
            mark = ""
            if run.path in self.marked:
                mark = "B" if self.marked.index(run.path) == 0 else "R"
            listing.add_option(Option(ranked_renderable(run, mark)))
        if self.ranked:
            if highlighted is None:
                highlighted = self._index_of(self.opened_from)
            listing.highlighted = min(highlighted, len(self.ranked) - 1)

    def _index_of(self, path: str | None) -> int:
        return next((i for i, run in enumerate(self.ranked) if run.path == path), 0)

    def highlight(self, path: str) -> None:
        """Put the cursor on a run (coming back to this list from that run's diff)."""
        self.opened_from = path
        if self.ranked:
            self.query_one(OptionList).highlighted = self._index_of(path)

    def _current(self) -> RankedRun | None:
        index = self.query_one(OptionList).highlighted
        return self.ranked[index] if index is not None and index < len(self.ranked) else None

    @on(OptionList.OptionSelected, "#runs-list")
    def _open(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        run = self.ranked[event.option_index]
        from voyage_tui.app.screens.diff import DiffScreen

        self.app.push_screen(DiffScreen(self.gold_rel, run.path))

    def action_mark(self) -> None:
        run = self._current()
        if run is None:
            return
        if run.path in self.marked:
            self.marked.remove(run.path)
        else:
            self.marked = [*self.marked, run.path][-2:]
        self._render_list()

    def action_compare(self) -> None:
        current = self._current()
        if current is None:
            return
        if len(self.marked) == 2:
            baseline, run = self.marked
        elif len(self.marked) == 1 and self.marked[0] != current.path:
            baseline, run = self.marked[0], current.path
        else:
            self.notify(
                f"Mark a baseline run ({self.app.key_text('runs.mark')}), then compare "
                f"({self.app.key_text('runs.compare')}) on another run",
                timeout=3,
            )
            return
        from voyage_tui.app.screens.compare import CompareScreen

        self.app.push_screen(CompareScreen(self.gold_rel, run, baseline))

    def action_back(self) -> None:
        self.app.navigation.back(self)  # to the screen that opened this one
