"""Gold vs run: what the review agent found, missed and made up, side by side, with the figures."""

from __future__ import annotations

from rich.text import Text
from textual import on, work
from textual.app import ComposeResult
from textual.widgets import OptionList, Static

from voyage_tui.app.actions import bindings
from voyage_tui.app.screens.base import VoyageScreen
from voyage_tui.app.screens.modals import ChoiceScreen
from voyage_tui.app.screens.review_modals import PathScreen, RowDetailScreen
from voyage_tui.app.widgets.diff_list import STYLE, DiffList, column_titles
from voyage_tui.app.widgets.key_footer import KeyFooter
from voyage_tui.app.widgets.safe_text import printable
from voyage_tui.engine.atomic import ContentChanged, Expected
from voyage_tui.engine.diagnostics import Diagnostic
from voyage_tui.engine.review.detail import row_detail
from voyage_tui.engine.review.export import (
    default_export_rel,
    export_target,
    markdown_table,
    write_markdown_file,
)
from voyage_tui.engine.review.inputs import ReviewError, ReviewInputs, Scored
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
from voyage_tui.engine.scoring.scorer import DEFAULT_MATCH, MatchMode
from voyage_tui.engine.wording import plural

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


def _why(exc: Exception) -> str:
    if isinstance(exc, UnicodeEncodeError):
        bad = exc.object[exc.start : exc.end]
        return f"the text holds {ascii(bad)[1:-1]}, a lone surrogate (a JSON escape) UTF-8 cannot encode"
    return str(exc)


class DiffScreen(VoyageScreen[None]):
    """Also the only screen of `voyage-tui diff` on loose files (LooseDiffApp): there `loose` is
    true and nothing here reaches for the workspace or VoyageApp."""

    SCOPE = "diff"
    BINDINGS = bindings("diff")
    HELP = """
## Gold vs run

Left: the gold; right: the run. `=` matched, `~` matched via dual_flaggable, `-` missed,
`+` spurious. {diff.next-difference} / {diff.previous-difference} next / previous difference ·
{diff.show-all} {diff.show-matched} {diff.show-missed} {diff.show-spurious} show all / matched /
missed / spurious · {diff.group} group by file · `enter` the row in full · {diff.copy} copy as
Markdown · {diff.write} write Markdown to a file · {diff.runs} every run of this gold ·
{diff.compare} compare with another run.
"""

    def __init__(
        self,
        gold_rel: str,
        run_rel: str,
        inputs: ReviewInputs | None = None,
        match: MatchMode = DEFAULT_MATCH,
    ) -> None:
        """`inputs`: where the files are read and checked; the app's workspace by default,
        matching gold keys as `match` (`inputs` carries its own)."""
        super().__init__()
        self.match = inputs.match if inputs is not None else match
        self.gold_rel = gold_rel
        self.run_rel = run_rel
        self.inputs = inputs
        self.scored: Scored | None = None
        self.problems: list[Diagnostic] | None = None
        """Why nothing was scored: the gold file's (or the run's) errors, as `score` gives them."""
        self.rows: list[DiffRow] = []
        self.states: tuple[str, ...] = STATES
        self.grouped = False

    def compose(self) -> ComposeResult:
        yield Static(f"{self.run_rel}  vs  {self.gold_rel}", id="diff-title")
        yield Static("scoring…", id="diff-figures")
        banner = Static("", id="diff-banner")
        banner.display = False
        yield banner
        yield Static("", id="diff-columns")
        yield Static(column_titles(), id="diff-column-titles")
        yield DiffList(id="diff-rows")
        yield Static("", id="diff-invalid")
        yield KeyFooter()

    def on_mount(self) -> None:
        self.load()

    @property
    def loose(self) -> bool:
        """Files named on the command line, outside any workspace the app has open."""
        return self.inputs is not None and self.inputs.ws is None

    def _inputs(self) -> ReviewInputs:
        if self.inputs is None:
            self.inputs = ReviewInputs.of_workspace(self.app.ws, self.match)
        return self.inputs

    def load(self) -> None:
        """Score the pair again; only the newest score is shown."""
        self.run_in_thread(self._score, self._scored, key="load")

    def _score(self) -> Scored | ReviewError:
        try:
            # (the catalogue is read here, off the UI thread, the first time)
            return self._inputs().score_pair(self.gold_rel, self.run_rel)
        except ReviewError as exc:
            return exc

    def _scored(self, scored: Scored | ReviewError) -> None:
        if isinstance(scored, ReviewError):
            self._failed(scored)
        else:
            self._loaded(scored)

    def _failed(self, exc: ReviewError) -> None:
        """No figures for files that cannot be scored: a banner with their errors instead, the
        same `voyage-tui score` prints for them."""
        self.problems = exc.diagnostics
        self.query_one("#diff-figures", Static).display = False
        text = Text("Cannot score", style="bold red")
        text.append(f": {exc.note}\n" if exc.note else "\n", style="red")
        for diagnostic in exc.diagnostics:
            text.append(f"  {diagnostic.location()}: ", style="bold")
            text.append(f"{diagnostic.severity.value} {diagnostic.code}: ", style="red")
            text.append(diagnostic.message + "\n")
        banner = self.query_one("#diff-banner", Static)
        banner.update(text)
        banner.display = True

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
        figures = figures_text(scored.score)
        if self.match == "seed":
            # Named only when it is not the default, so the default screen stays as it was.
            figures.append("\nmatch seed: (file, rule_key) only, dual_flaggable ignored", "cyan")
        note = self._catalogue_note()
        if note:
            figures.append("\n")
            figures.append(note)
        self.query_one("#diff-figures", Static).update(figures)
        self._render_invalid()
        self._refresh_rows()
        self.query_one(DiffList).focus()

    def _catalogue_note(self) -> Text:
        """Said once, under the figures, when no catalogue checked the rule keys."""
        inputs = self.inputs
        if inputs is None or inputs.catalogue is not None:
            return Text("")
        return Text(f"catalogue {inputs.catalogue_note}", style="yellow")

    def _render_invalid(self) -> None:
        assert self.scored is not None
        invalid = self.scored.score.invalid_findings
        widget = self.query_one("#diff-invalid", Static)
        if not invalid:
            widget.display = False
            return
        text = Text(
            f"! {plural(len(invalid), 'invalid finding')} left out of the score\n",
            style="bold magenta",
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
        if self.loose:
            self.app.exit(0)  # the only screen of `voyage-tui diff` on loose files
            return
        self.app.navigation.back(self)  # to the screen that opened this one

    def _in_workspace(self, what: str) -> bool:
        if self.loose:
            self.notify(f"{what} needs a workspace; these files are outside one", timeout=3)
        return not self.loose

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

    def show_row(self, row: DiffRow) -> None:
        """The row's detail in a dialog (read in a thread: it may open the run's files)."""
        scored = self.scored
        assert scored is not None
        self.run_in_thread(
            lambda: row_detail(self._inputs().ws, scored, row),
            lambda detail: self.app.push_screen(RowDetailScreen(detail)),
            key="row",
        )

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
        if text is None:
            return
        try:
            self.app.copy_to_clipboard(text)
        except (ValueError, OSError) as exc:  # text the terminal cannot take (a lone surrogate)
            self.notify(f"Not copied: {_why(exc)}", severity="error", timeout=8, markup=False)
            return
        self.notify("Diff copied as a Markdown table", timeout=2)

    def action_write_markdown(self) -> None:
        if self.scored is None or not self._in_workspace("Writing a file"):
            return
        # Built from the run's file name, which the branch chose: a plain name beside the run.
        default = default_export_rel(self.run_rel, self.scored.run_name)

        def chosen(path: str | None) -> None:
            if path:
                self.write_markdown(path)

        self.app.push_screen(
            PathScreen("Write the diff as Markdown to (workspace-relative):", default), chosen
        )

    @work(thread=True, group="diff-write")
    def write_markdown(self, rel: str) -> None:
        """Export to `rel`: at once when nothing is there, after asking when a file is; refused,
        with the reason on screen, for a symlink, a FIFO or anything else no export replaces."""
        try:
            expect = export_target(self.app.ws, rel)
        except OSError as exc:  # WriteRefused says what and why; another OSError: lstat failed
            self.app.call_from_thread(self._not_written, exc)
            return
        if expect.sha256 is None:
            self._write(rel, expect)
        else:
            self.app.call_from_thread(self._ask_overwrite, rel, expect)

    def _ask_overwrite(self, rel: str, expect: Expected) -> None:
        def answered(answer: str | None) -> None:
            if answer == "overwrite":
                self.overwrite_markdown(rel, expect)

        shown = printable(rel, lines=False)  # a path typed or built from names: one line
        self.app.push_screen(
            ChoiceScreen(f"{shown} already exists. Overwrite it with this diff?", ["overwrite"]),
            answered,
        )

    @work(thread=True, group="diff-write")
    def overwrite_markdown(self, rel: str, expect: Expected) -> None:
        self._write(rel, expect)

    def _write(self, rel: str, expect: Expected) -> None:
        """In a worker: the write itself, only over what `expect` says is there."""
        text = self.markdown()
        if text is None:
            return
        shown = printable(rel, lines=False)
        try:
            write_markdown_file(self.app.ws, rel, text, expect)
        except ContentChanged:
            self.app.call_from_thread(self._changed_meanwhile, expect)
            return
        except (OSError, ValueError) as exc:  # ValueError: text UTF-8 cannot hold
            self.app.call_from_thread(self._not_written, exc)
            return
        self.app.call_from_thread(self.notify, f"Wrote {shown}", timeout=3, markup=False)

    def _not_written(self, exc: Exception) -> None:
        why = printable(_why(exc), lines=False)
        self.notify(f"Not written: {why}", severity="error", timeout=8, markup=False)

    def _changed_meanwhile(self, expect: Expected) -> None:
        why = (
            "a file appeared at that name meanwhile"
            if expect.sha256 is None
            else "the file changed on disk while you were asked"
        )
        self.notify(
            f"Not written: {why}; nothing was written. "
            f"Press {self.app.key_text('diff.write')} to try again",
            severity="error",
            timeout=8,
            markup=False,
        )

    def action_runs(self) -> None:
        if not self._in_workspace("The runs list"):
            return
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
        if not self._in_workspace("Comparing runs"):
            return
        self.app.compare_runs(self.gold_rel, self.run_rel)
