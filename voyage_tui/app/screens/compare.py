"""Run against run: what a change to the agent gained or lost on the same gold, with the same
comparison as `voyage-tui score --baseline`; a lost key or a BLOCK -> ALLOW flip is a regression."""

from __future__ import annotations

from rich.table import Table
from rich.text import Text
from textual.app import ComposeResult
from textual.containers import VerticalScroll
from textual.widgets import Static

from voyage_tui.app.actions import bindings
from voyage_tui.app.screens.base import VoyageScreen
from voyage_tui.app.widgets.key_footer import KeyFooter
from voyage_tui.engine.review.inputs import ReviewError, Scored, load_gold, score_pair
from voyage_tui.engine.scoring.compare import BaselineComparison, compare_runs
from voyage_tui.engine.workspace.model import Workspace


def _keys(title: str, keys: tuple[tuple[str, str], ...], symbol: str, style: str) -> Text:
    text = Text()
    text.append(f"{title} ({len(keys)})\n", style="bold")
    if not keys:
        text.append("  none\n", style="dim")
    for file, rule_key in keys:
        text.append(f"  {symbol} ", style=f"bold {style}")
        text.append(f"{file}  {rule_key}\n")
    return text


def comparison_widgets(
    baseline: Scored, run: Scored, comparison: BaselineComparison
) -> list[Static]:
    banner = Text()
    if comparison.regression:
        banner.append(" ✗ REGRESSION ", style="bold white on red")
        banner.append("  " + "; ".join(comparison.reasons), style="bold red")
    else:
        banner.append(" ✓ no regression ", style="bold black on green")
        banner.append("  no gold key lost, no BLOCK -> ALLOW flip", style="dim")
    verdict = Text("verdict  ")
    verdict.append(comparison.baseline_verdict, style="bold")
    verdict.append("  →  ")
    verdict.append(comparison.run_verdict, style="bold")
    flip = comparison.verdict_flip
    if flip is None:
        verdict.append("   (unchanged)", style="dim")
    elif comparison.block_to_allow:
        verdict.append("   BLOCK -> ALLOW flip", style="bold red")
    else:
        verdict.append(f"   flip {flip[0]} -> {flip[1]}", style="yellow")
    figures = Table(show_edge=False, box=None, padding=(0, 2))
    figures.add_column("")
    for name in ("tp", "fp", "fn", "precision", "recall", "f1"):
        figures.add_column(name, justify="right")

    def row(label: str, values: dict[str, float]) -> None:
        figures.add_row(
            label,
            *(
                f"{values[k]:.3f}" if isinstance(values[k], float) else str(values[k])
                for k in ("tp", "fp", "fn", "precision", "recall", "f1")
            ),
        )

    row(f"baseline {baseline.run_name}", comparison.baseline_figures)
    row(f"run {run.run_name}", comparison.run_figures)
    return [
        Static(banner, classes="compare-banner"),
        Static(verdict),
        Static(figures),
        Static(_keys("gold keys gained", comparison.gained, "+", "green")),
        Static(_keys("gold keys lost", comparison.lost, "-", "red")),
        Static(_keys("spurious keys added", comparison.spurious_added, "+", "yellow")),
        Static(_keys("spurious keys removed", comparison.spurious_removed, "-", "green")),
    ]


class CompareScreen(VoyageScreen[None]):
    SCOPE = "compare"
    BINDINGS = bindings("compare")
    HELP = """
## Run against run

Gold keys gained and lost, spurious keys added and removed, the verdict flip. A lost key or a
BLOCK -> ALLOW flip is a regression (the same rule as `voyage-tui score --baseline`).
"""

    def __init__(self, gold_rel: str, run_rel: str, baseline_rel: str) -> None:
        super().__init__()
        self.gold_rel = gold_rel
        self.run_rel = run_rel
        self.baseline_rel = baseline_rel
        self.comparison: BaselineComparison | None = None

    def compose(self) -> ComposeResult:
        yield Static("", id="compare-title")
        yield VerticalScroll(id="compare-body")
        yield KeyFooter()

    def on_mount(self) -> None:
        self.load()

    def load(self) -> None:
        """Score both runs again; only the newest scores are shown."""
        ws = self.app.ws
        self.run_in_thread(lambda: self._score(ws), self._scored, key="compare")

    def _score(self, ws: Workspace) -> tuple[Scored, Scored, BaselineComparison] | ReviewError:
        try:
            gold = load_gold(ws, self.gold_rel)
            baseline = score_pair(ws, self.gold_rel, self.baseline_rel, gold)
            run = score_pair(ws, self.gold_rel, self.run_rel, gold)
        except ReviewError as exc:
            return exc
        return baseline, run, compare_runs(run.score, baseline.score)

    def _scored(self, scored: tuple[Scored, Scored, BaselineComparison] | ReviewError) -> None:
        if isinstance(scored, ReviewError):
            self.query_one("#compare-title", Static).update(Text(str(scored), style="red"))
            return
        self.call_next(self._show, *scored)  # (mounts widgets: awaited in its own turn)

    async def _show(self, baseline: Scored, run: Scored, comparison: BaselineComparison) -> None:
        self.comparison = comparison
        self.query_one("#compare-title", Static).update(
            Text.assemble(
                ("baseline ", "dim"),
                (baseline.run_name, "bold"),
                ("  →  run ", "dim"),
                (run.run_name, "bold"),
                (f"   gold {self.gold_rel}", "dim"),
            )
        )
        body = self.query_one("#compare-body", VerticalScroll)
        await body.remove_children()
        await body.mount_all(comparison_widgets(baseline, run, comparison))

    def action_swap(self) -> None:
        self.run_rel, self.baseline_rel = self.baseline_rel, self.run_rel
        self.load()

    def action_back(self) -> None:
        self.app.navigation.back(self)  # to the screen that opened this one
