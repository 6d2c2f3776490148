"""Gold vs run: what the review agent found, missed and made up, side by side, with the figures."""

from __future__ import annotations

import os

from rich.text import Text
from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.screen import Screen
from textual.widgets import Footer, OptionList, Static

from voyage_tui.app.screens.review_modals import PathScreen, RowDetailScreen
from voyage_tui.app.widgets.diff_list import STYLE, DiffList, column_titles
from voyage_tui.engine.atomic import atomic_write_text
from voyage_tui.engine.review.detail import row_detail
from voyage_tui.engine.review.export import markdown_table
from voyage_tui.engine.review.inputs import ReviewError, Scored, score_pair
from voyage_tui.engine.review.rows import (
    MATCHED,
    MISSED,
    SPURIOUS,
    STATES,
    DiffRow,
    diff_rows,
    only,
)
from voyage_tui.engine.scoring.report import RunScore

FILTER_TITLES = {
    STATES: "all rows",
    (MATCHED,): "matched only",
    (MISSED,): "missed only",
    (SPURIOUS,): "spurious only",
}


def figures_text(score: RunScore) -> Text:
    text = Text()
    text.append(f"tp {score.tp}", style="bold green")
    text.append(" · ")
    text.append(f"fp {score.fp}", style="bold yellow")
    text.append(" · ")
    text.append(f"fn {score.fn}", style="bold red")
    text.append(f" · precision {score.precision:.3f} · recall {score.recall:.3f} · ")
    text.append(f"F1 {score.f1:.3f}", style="bold")
    text.append("   verdict ")
    text.append(score.run_verdict, style="bold")
    text.append(f" vs expected {score.expected_verdict} ")
    if score.verdict_match:
        text.append("✓ match", style="bold green")
    else:
        text.append("✗ MISMATCH", style="bold red reverse")
    return text


class DiffScreen(Screen[None]):
    HELP = """
## Gold vs run

Left: the gold; right: the run. `=` matched, `~` matched via dual_flaggable, `-` missed,
`+` spurious. `n` / `N` next / previous difference · `a` `=` `-` `+` show all / matched /
missed / spurious · `g` group by file · `enter` the row in full · `y` copy as Markdown ·
`w` write Markdown to a file · `r` every run of this gold · `b` compare with another run.
"""

    BINDINGS = [
        Binding("escape", "back", "Back", id="diff.back"),
        Binding("n", "next_difference", "Next diff", id="diff.next-difference"),
        Binding("N", "previous_difference", "Prev diff", show=False, id="diff.previous-difference"),
        Binding("a", "show('all')", "All", id="diff.show-all"),
        Binding("equals_sign", "show('matched')", "Matched", id="diff.show-matched"),
        Binding("minus", "show('missed')", "Missed", id="diff.show-missed"),
        Binding("plus", "show('spurious')", "Spurious", id="diff.show-spurious"),
        Binding("g", "toggle_group", "Group by file", id="diff.group"),
        Binding("y", "copy_markdown", "Copy MD", id="diff.copy"),
        Binding("w", "write_markdown", "Write MD", show=False, id="diff.write"),
        Binding("r", "runs", "Runs", id="diff.runs"),
        Binding("b", "compare", "Compare", show=False, id="diff.compare"),
    ]

    def __init__(self, gold_rel: str, run_rel: str) -> None:
        super().__init__()
        self.gold_rel = gold_rel
        self.run_rel = run_rel
        self.scored: Scored | None = None
        self.rows: list[DiffRow] = []
        self.states: tuple[str, ...] = STATES
        self.grouped = False

    def compose(self) -> ComposeResult:
        yield Static(f"{self.run_rel}  vs  {self.gold_rel}", id="diff-title")
        yield Static("scoring…", id="diff-figures")
        yield Static("", id="diff-columns")
        yield Static(column_titles(), id="diff-column-titles")
        yield DiffList(id="diff-rows")
        yield Static("", id="diff-invalid")
        yield Footer()

    def on_mount(self) -> None:
        self.load()

    @work(thread=True, exclusive=True, group="diff-load")
    def load(self) -> None:
        try:
            scored = score_pair(self.app.ws, self.gold_rel, self.run_rel)  # type: ignore[attr-defined]
        except ReviewError as exc:
            self.app.call_from_thread(self._failed, str(exc))
            return
        self.app.call_from_thread(self._loaded, scored)

    def _failed(self, message: str) -> None:
        self.query_one("#diff-figures", Static).update(
            Text(f"Cannot score: {message}", style="bold red")
        )

    def _loaded(self, scored: Scored) -> None:
        self.scored = scored
        self.rows = diff_rows(scored.score)
        self.query_one("#diff-title", Static).update(
            Text.assemble(
                (scored.run_name, "bold"),
                "  vs gold  ",
                (scored.gold_name, "bold"),
                (f"   {self.run_rel}", "dim"),
            )
        )
        self.query_one("#diff-figures", Static).update(figures_text(scored.score))
        self._render_invalid()
        self._refresh_rows()
        self.query_one(DiffList).focus()

    def _render_invalid(self) -> None:
        assert self.scored is not None
        invalid = self.scored.score.invalid_findings
        widget = self.query_one("#diff-invalid", Static)
        if not invalid:
            widget.display = False
            return
        text = Text(
            f"! {len(invalid)} invalid finding(s) left out of the score\n", style="bold magenta"
        )
        for finding in invalid:
            where = f"finding {finding.index}" if finding.index is not None else "whole payload"
            text.append(f"  {finding.reviewer}, {where}: ", style="magenta")
            text.append("; ".join(finding.problems) + "\n")
        widget.update(text)
        widget.display = True

    def _refresh_rows(self) -> None:
        visible = only(self.rows, self.states)
        columns = Text()
        columns.append(f"showing {FILTER_TITLES.get(self.states, 'rows')}", style="bold")
        columns.append(f" ({len(visible)} of {len(self.rows)})", style="dim")
        if self.grouped:
            columns.append(" · grouped by file", style="dim")
        counts = {s: sum(1 for r in self.rows if r.state == s) for s in STATES}
        columns.append("    ")
        for state, symbol in ((MATCHED, "="), (MISSED, "-"), (SPURIOUS, "+")):
            columns.append(f"{symbol} {counts[state]} {state}  ", style=STYLE[state])
        self.query_one("#diff-columns", Static).update(columns)
        self.query_one(DiffList).show_rows(visible, self.grouped)

    # --- actions -------------------------------------------------------------------------

    def action_back(self) -> None:
        self.app.pop_screen()

    def action_next_difference(self) -> None:
        if not self.query_one(DiffList).jump_to_difference(True):
            self.notify("No differences: the run matches the gold", timeout=2)

    def action_previous_difference(self) -> None:
        self.query_one(DiffList).jump_to_difference(False)

    def action_show(self, which: str) -> None:
        self.states = STATES if which == "all" else (which,)
        self._refresh_rows()

    def action_toggle_group(self) -> None:
        self.grouped = not self.grouped
        self._refresh_rows()

    @on(OptionList.OptionSelected, "#diff-rows")
    def _selected(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        row = self.query_one(DiffList).current_row()
        if row is not None and self.scored is not None:
            self.show_row(row)

    @work(thread=True, exclusive=True, group="diff-row")
    def show_row(self, row: DiffRow) -> None:
        assert self.scored is not None
        detail = row_detail(self.app.ws, self.scored, row)  # type: ignore[attr-defined]
        self.app.call_from_thread(self.app.push_screen, RowDetailScreen(detail))

    def markdown(self) -> str | None:
        if self.scored is None:
            return None
        return markdown_table(
            self.scored.gold_name,
            self.scored.run_name,
            self.scored.score,
            only(self.rows, self.states),
        )

    def action_copy_markdown(self) -> None:
        text = self.markdown()
        if text is not None:
            self.app.copy_to_clipboard(text)
            self.notify("Diff copied as a Markdown table", timeout=2)

    def action_write_markdown(self) -> None:
        if self.scored is None:
            return
        folder = self.run_rel.rsplit("/", 1)[0]
        default = f"{folder}/{self.scored.run_name}-diff.md"

        def chosen(path: str | None) -> None:
            if path:
                self.write_markdown(path)

        self.app.push_screen(
            PathScreen("Write the diff as Markdown to (workspace-relative):", default), chosen
        )

    @work(thread=True, group="diff-write")
    def write_markdown(self, rel: str) -> None:
        text = self.markdown()
        ws = self.app.ws  # type: ignore[attr-defined]
        target = os.path.normpath(ws.abs(rel))
        root = os.path.normpath(str(ws.root))
        if not target.startswith(root + os.sep):
            self.app.call_from_thread(
                self.notify, f"{rel} is outside the workspace; not written", severity="error"
            )
            return
        if text is None:
            return
        try:
            os.makedirs(os.path.dirname(target), exist_ok=True)
            atomic_write_text(target, text)
        except OSError as exc:
            self.app.call_from_thread(self.notify, f"Not written: {exc}", severity="error")
            return
        self.app.call_from_thread(self.notify, f"Wrote {rel}", timeout=3)

    def action_runs(self) -> None:
        from voyage_tui.app.screens.runs import RunsScreen

        stack = self.app.screen_stack
        below = stack[-2] if len(stack) > 1 else None
        if isinstance(below, RunsScreen) and below.gold_rel == self.gold_rel:
            # came here from that list: go back to it rather than stack a second one
            below.highlight(self.run_rel)
            self.app.pop_screen()
            return
        self.app.push_screen(RunsScreen(self.gold_rel, opened_from=self.run_rel))

    def action_compare(self) -> None:
        self.app.compare_runs(self.gold_rel, self.run_rel)  # type: ignore[attr-defined]
