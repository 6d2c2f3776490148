"""Which agent is better, by how much and how sure: the figures of `voyage-tui results` (the
engine's, engine/results/), laid out as a table, a forest plot of the comparisons in plain Rich
bars, and a drill-down: `enter` on a comparison lists its fixtures worst first, `enter` on one of
them shows every rating of both agents' runs side by side. Unblinded: this is the lead's view, so
it opens from the browser and the palette only (never from the rater session)."""

from __future__ import annotations

import os
from dataclasses import dataclass
from typing import ClassVar

from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text
from textual import on, work
from textual.app import ComposeResult
from textual.binding import BindingType
from textual.containers import Vertical, VerticalScroll
from textual.widgets import OptionList, Static
from textual.widgets.option_list import Option

from voyage_tui.app.actions import bindings
from voyage_tui.app.screens.base import VoyageModal, VoyageScreen
from voyage_tui.app.screens.modals import ChoiceScreen
from voyage_tui.app.widgets.key_footer import KeyFooter
from voyage_tui.app.widgets.safe_text import printable
from voyage_tui.engine.ratings.effective import ItemScores
from voyage_tui.engine.reports import figures
from voyage_tui.engine.reports.context import ReportContext, report_context
from voyage_tui.engine.reports.model import Report
from voyage_tui.engine.reports.render import render
from voyage_tui.engine.results.compute import ResultsInputs, UnknownBaseline, compute_results
from voyage_tui.engine.results.inputs import gather_inputs
from voyage_tui.engine.results.model import Comparison, PairedFixture, ResultsReport
from voyage_tui.engine.validation.view import SuiteView
from voyage_tui.engine.workspace.model import Workspace
from voyage_tui.engine.workspace.writes import OutputExists, write_output

EXPORTS = {"md": "reports/results.md", "html": "reports/results.html"}
"""Where the screen exports (workspace-relative): the same bytes as `voyage-tui results
--format md|html --output FILE` for the same baseline."""
BAR = 21
"""The forest plot's width in cells (odd: 0 sits in the middle)."""
VERDICT = {
    "better": ("↑ better", "bold green"),
    "worse": ("↓ worse", "bold red"),
    "unclear": ("· unclear", "dim"),
}


def _name(text: str) -> str:
    return printable(text, lines=False)


def _figure(value: float | None, signed: bool = False) -> str:
    """As every report writes it (engine/reports/figures.py): never `-0.00`."""
    return figures.signed(value) if signed else figures.figure(value)


def _ci(low: float | None, high: float | None) -> str:
    return figures.interval(None if low is None or high is None else [low, high])


@dataclass(frozen=True)
class Computed:
    inputs: ResultsInputs | None
    report: ResultsReport | None
    problem: str = ""
    campaign: ReportContext | None = None


def compute(ws: Workspace, view: SuiteView, baseline: str | None) -> Computed:
    """The report over the suite on screen, and its campaign (in a thread)."""
    snapshot = view.campaign()
    inputs = gather_inputs(snapshot, view.items)
    context = report_context(snapshot, inputs.agents())
    try:
        return Computed(inputs, compute_results(inputs, baseline), campaign=context)
    except UnknownBaseline as exc:
        return Computed(inputs, compute_results(inputs, None), str(exc), context)


def means_table(report: ResultsReport) -> Table:
    """A row per (dimension, agent): n, mean and interval, and against the baseline the
    difference, Holm's p and the verdict in words (SPEC 3.10's rule)."""
    table = Table(box=None, padding=(0, 1), header_style="bold", show_edge=False)
    for column, justify in (
        ("dimension", "left"),
        ("agent", "left"),
        ("n", "right"),
        ("mean", "right"),
        ("95% CI", "left"),
        ("diff", "right"),
        ("p_holm", "right"),
        ("verdict", "left"),
    ):
        table.add_column(column, justify=justify, no_wrap=True)  # type: ignore[arg-type]
    compared = {(c.agent, c.dimension): c for c in report.comparisons}
    for dimension in report.dimensions:
        first = True
        for agent, result in report.agents.items():
            stat = result.dimensions[dimension]
            c = compared.get((agent, dimension))
            ci = stat.ci
            cells = [
                Text(_name(dimension) if first else "", style="bold"),
                Text(_name(agent)),
                Text(str(stat.n)),
                Text(_figure(stat.mean)),
                Text(_ci(ci.low if ci else None, ci.high if ci else None), style="dim"),
            ]
            if c is not None:
                word, style = VERDICT[c.verdict]
                p = figures.p_value(c.p_holm)
                cells += [Text(_figure(c.diff, signed=True)), Text(p), Text(word, style=style)]
            else:
                label = "baseline" if agent == report.baseline else ""
                cells += [Text(""), Text(""), Text(label, style="italic dim")]
            table.add_row(*cells)
            first = False
    return table


def outcomes_table(report: ResultsReport) -> Table:
    """The imported runs' harness scores beside the ratings (SPEC 3.13): per agent and score
    the n, mean, 95% interval (Wilson or bootstrap) and pass_all_k across epochs."""
    table = Table(
        title=figures.OUTCOMES_HEADING,
        title_justify="left",
        box=None,
        padding=(0, 1),
        header_style="bold",
        show_edge=False,
    )
    for column, justify in (
        ("agent", "left"),
        ("score", "left"),
        ("n", "right"),
        ("mean", "right"),
        ("95% CI", "left"),
        ("pass_all_k", "right"),
    ):
        table.add_column(column, justify=justify, no_wrap=True)  # type: ignore[arg-type]
    for agent, name, n, mean, ci, method, share in figures.outcome_rows(report):
        table.add_row(
            Text(_name(agent)),
            Text(_name(name)),
            Text(str(n)),
            Text(_figure(mean)),
            Text(f"{ci} {method}", style="dim"),
            Text(share),
        )
    return table


def forest_bar(comparison: Comparison, bound: float) -> Text:
    """The interval as `─`, the difference as `●`, 0 as `│`, on a scale of ±bound."""
    cells = [" "] * BAR
    middle = BAR // 2

    def at(value: float) -> int:
        return max(0, min(BAR - 1, middle + round(value / bound * middle)))

    if comparison.ci is not None:
        for i in range(at(comparison.ci.low), at(comparison.ci.high) + 1):
            cells[i] = "─"
    cells[middle] = "│" if cells[middle] == " " else "┼"
    if comparison.diff is not None:
        cells[at(comparison.diff)] = "●"
    _, style = VERDICT[comparison.verdict]
    return Text("▕" + "".join(cells) + "▏", style=style)


def comparison_label(c: Comparison, bound: float, width: int) -> Text:
    word, style = VERDICT[c.verdict]
    text = Text(no_wrap=True, overflow="ellipsis")
    text.append(f"{_name(c.agent)} · {_name(c.dimension)}".ljust(width), style="bold")
    text.append(" ")
    text.append_text(forest_bar(c, bound))
    ci = c.ci
    text.append(
        f" {_figure(c.diff, signed=True):>6} "
        f"{_ci(ci.low if ci else None, ci.high if ci else None):<14}"
    )
    # The verdict before the mde and the reason: at 80 columns the end of the line is cut.
    text.append(f" {word}", style=style)
    if c.reason:
        text.append(f" ({c.reason})", style="dim")
    text.append(f"  mde {_figure(c.mde)}", style="dim")
    return text


class ResultsScreen(VoyageScreen[None]):
    HELP = """
## Results

Per agent and rubric dimension the mean effective score with a 95% bootstrap interval; against
the baseline (`[results] baseline` in voyage.toml; {results.baseline} takes the next agent) the
paired difference over shared fixtures, its interval, Holm's p (`p_holm`), the smallest
difference the suite could detect (`mde`) and the verdict: better or worse only when the
interval excludes 0 and p_holm is below 0.05, else unclear with the reason. The
forest plot draws each interval as `─` and the difference as `●` around 0 (`│`): `enter` on a
comparison lists its fixtures, worst first. {results.reload} computes again. {results.export-md}
and {results.export-html} write `reports/results.md` and `reports/results.html`: the files
`voyage-tui results --format md` and `--format html` write, byte for byte.
"""

    SCOPE = "results"
    BINDINGS: ClassVar[list[BindingType]] = bindings("results")

    def __init__(self) -> None:
        super().__init__()
        self.report: ResultsReport | None = None
        self.campaign: ReportContext | None = None
        self.inputs: ResultsInputs | None = None
        self.baseline: str | None = None
        self._chosen = False
        """The baseline was chosen on the screen ({results.baseline}), not taken from voyage.toml."""

    def compose(self) -> ComposeResult:
        yield Static(Text("Results", style="bold"), id="results-title")
        yield Static("", id="results-notices")
        with VerticalScroll(id="results-figures"):
            yield Static(Text("computing…", style="dim"), id="results-table")
        yield Static(
            Text.assemble(
                ("Against the baseline", "bold"),
                ("  interval ─, difference ●, 0 │ · enter: the fixtures, worst first", "dim"),
            ),
            id="results-forest-title",
        )
        yield OptionList(id="results-forest")
        yield KeyFooter()

    def on_mount(self) -> None:
        self.query_one("#results-notices").display = False
        self.load()

    def suite_loaded(self, view: SuiteView) -> None:
        self.load()

    def suite_changed(self, view: SuiteView, touched: set[str]) -> None:
        self.load()

    def load(self) -> None:
        view = self.app.view
        if view is None:
            return  # computed once the suite has loaded (suite_loaded)
        ws = self.app.ws
        baseline = self.baseline if self._chosen else (ws.config.results.baseline or None)
        self.run_in_thread(lambda: compute(ws, view, baseline), self._computed, key="results")

    def _computed(self, computed: Computed) -> None:
        report = self.report = computed.report
        self.inputs = computed.inputs
        self.campaign = computed.campaign
        if report is None:
            return
        self.baseline = report.baseline
        title = Text("Results", style="bold")
        title.append(f"   {_name(figures.headline(report))}", style="dim")
        self.query_one("#results-title", Static).update(title)
        notes = [computed.problem] if computed.problem else []
        notes += list(report.notices)
        if not report.baseline:
            keys = " or ".join(self.app.key_names("results.baseline")) or "(no key)"
            notes.append(f"set [results] baseline in voyage.toml, or press {keys} to choose one")
        notices = self.query_one("#results-notices", Static)
        notices.update(Text("\n".join(f"! {_name(n)}" for n in notes), "yellow"))
        notices.display = bool(notes)
        table = self.query_one("#results-table", Static)
        body: RenderableType = (
            means_table(report)
            if report.agents
            else Text("No agent runs: nothing to compare.", style="dim")
        )
        if report.outcomes:
            body = Group(body, Text(""), outcomes_table(report))
        table.update(body)
        listing = self.query_one("#results-forest", OptionList)
        highlighted = listing.highlighted
        listing.clear_options()
        comparisons = report.comparisons
        if comparisons:
            bound = max(
                [abs(v) for c in comparisons if c.ci for v in (c.ci.low, c.ci.high)]
                + [abs(c.diff) for c in comparisons if c.diff is not None]
                + [1e-9]
            )
            width = min(max(len(f"{c.agent} · {c.dimension}") for c in comparisons), 32)
            listing.add_options(
                Option(comparison_label(c, bound, width), id=str(i))
                for i, c in enumerate(comparisons)
            )
            listing.highlighted = min(highlighted or 0, len(comparisons) - 1)
        else:
            listing.add_option(Option(Text("No comparisons.", "dim"), disabled=True))
        listing.focus()

    @on(OptionList.OptionSelected, "#results-forest")
    def _open(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        if self.report is None or self.inputs is None or event.option.id is None:
            return
        comparison = self.report.comparisons[int(event.option.id)]
        self.app.push_screen(FixturesScreen(comparison, self.inputs))

    def action_back(self) -> None:
        self.app.navigation.back(self)  # to the screen that opened this one

    def action_reload(self) -> None:
        self.load()

    def action_export(self, fmt: str) -> None:
        """Write the report as `fmt` (md or html) to EXPORTS[fmt], asking before it replaces
        a file that is there."""
        if self.report is None or fmt not in EXPORTS:
            return
        self._export(Report(self.report, campaign=self.campaign), fmt, False)

    @work(thread=True, group="results-export")
    def _export(self, report: Report, fmt: str, replace: bool) -> None:
        rel = EXPORTS[fmt]
        ws = self.app.ws
        data = render(report, fmt).encode("utf-8", "surrogatepass")
        try:
            write_output(ws, os.path.join(ws.root, rel), data, force=replace)
        except OutputExists:
            self.app.call_from_thread(self._ask_replace, report, fmt)
            return
        except OSError as exc:
            why = _name(str(exc))
            self.app.call_from_thread(
                self.notify, f"Not written: {why}", severity="error", timeout=8, markup=False
            )
            return
        self.app.call_from_thread(self.notify, f"Wrote {rel}", timeout=3, markup=False)

    def _ask_replace(self, report: Report, fmt: str) -> None:
        def answered(answer: str | None) -> None:
            if answer == "overwrite":
                self._export(report, fmt, True)

        self.app.push_screen(
            ChoiceScreen(f"{EXPORTS[fmt]} already exists. Replace it?", ["overwrite"]),
            answered,
        )

    def action_next_baseline(self) -> None:
        """The next agent becomes the baseline (by name; after the last, none)."""
        if self.inputs is None:
            return
        agents = self.inputs.agents()
        if not agents:
            return
        if self.baseline in agents:
            index = agents.index(self.baseline) + 1
            self.baseline = agents[index] if index < len(agents) else None
        else:
            self.baseline = agents[0]
        self._chosen = True
        self.load()


def pair_label(pair: PairedFixture, width: int) -> Text:
    text = Text(no_wrap=True, overflow="ellipsis")
    diff = pair.diff
    style = "bold red" if diff < 0 else ("bold green" if diff > 0 else "dim")
    text.append(f"{diff:+.2f}  ", style=style)
    text.append(_name(pair.fixture_id).ljust(width), style="bold")
    text.append(f"  {pair.agent_mean:.2f} ({_name(', '.join(pair.agent_runs))})")
    text.append(f" vs {pair.baseline_mean:.2f} ({_name(', '.join(pair.baseline_runs))})", "dim")
    return text


class FixturesScreen(VoyageScreen[None]):
    """The shared fixtures of one comparison, the agent furthest below the baseline first."""

    HELP = """
## The fixtures of a comparison

Every fixture both agents have rated runs on, the difference of their means there first, worst
first. `enter` shows every rating of both agents' runs on the fixture side by side.
"""

    SCOPE = "results-fixtures"
    BINDINGS: ClassVar[list[BindingType]] = bindings("results-fixtures")

    def __init__(self, comparison: Comparison, inputs: ResultsInputs) -> None:
        super().__init__()
        self.comparison = comparison
        self.inputs = inputs
        self.pairs = comparison.pairs()

    def compose(self) -> ComposeResult:
        c = self.comparison
        title = Text.assemble(
            (f"{_name(c.agent)} vs {_name(c.baseline)}", "bold"),
            f" · {_name(c.dimension)} · ",
            (f"{c.fixtures} fixtures, worst first", "dim"),
        )
        yield Static(title, id="results-title")
        yield OptionList(id="results-fixtures")
        yield KeyFooter()

    def on_mount(self) -> None:
        listing = self.query_one(OptionList)
        if self.pairs:
            width = min(max(len(p.fixture_id) for p in self.pairs), 40)
            listing.add_options(
                Option(pair_label(p, width), id=str(i)) for i, p in enumerate(self.pairs)
            )
            listing.highlighted = 0
        else:
            listing.add_option(Option(Text("No shared fixture.", "dim"), disabled=True))
        listing.focus()

    @on(OptionList.OptionSelected, "#results-fixtures")
    def _open(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        if event.option.id is None:
            return
        pair = self.pairs[int(event.option.id)]
        self.app.push_screen(RatingsScreen(self.comparison, pair, self.inputs))

    def action_back(self) -> None:
        self.app.navigation.back(self)  # to the screen that opened this one


def ratings_table(comparison: Comparison, pair: PairedFixture, inputs: ResultsInputs) -> Table:
    """A column per run of either agent on the fixture (its agent named), a row per rater and
    the adjudication if any, each cell that rater's score on every dimension."""
    runs = [(comparison.agent, r) for r in pair.agent_runs]
    runs += [(comparison.baseline, r) for r in pair.baseline_runs]
    items: dict[str, ItemScores | None] = {
        run: inputs.items.get((pair.fixture_id, run)) for _, run in runs
    }
    table = Table(box=None, padding=(0, 2), header_style="bold", show_edge=False, expand=True)
    table.add_column("", style="bold", no_wrap=True)
    for agent, run in runs:
        table.add_column(f"{_name(agent)} · {_name(run)}", ratio=1)
    raters: dict[str, None] = {}
    for item in items.values():
        if item is not None:
            raters.update(dict.fromkeys(item.by_rater))
    dimensions = list(inputs.dimensions)

    def cell(scores: dict[str, int] | None) -> Text:
        if not scores:
            return Text("—", style="dim")
        return Text(" · ".join(f"{_name(d)} {scores[d]}" for d in dimensions if d in scores))

    for rater in raters:
        table.add_row(
            Text(_name(rater)),
            *[cell(item.by_rater.get(rater) if item else None) for item in items.values()],
        )
    if any(item is not None and item.adjudicated for item in items.values()):
        table.add_row(
            Text("adjudicated", style="bold"),
            *[cell(item.adjudicated if item else None) for item in items.values()],
        )
    table.add_row(Text(""), *[Text("") for _ in runs])
    table.add_row(
        Text("effective", style="bold"),
        *[
            Text(
                " · ".join(
                    f"{_name(d)} {v:.2f}" for d, v in (item.scores() if item else {}).items()
                )
                or "—",
                style="bold",
            )
            for item in items.values()
        ],
    )
    return table


class RatingsScreen(VoyageModal[None]):
    """One fixture of a comparison: the ratings of both agents' runs side by side."""

    BINDINGS: ClassVar[list[BindingType]] = bindings(
        "dialog", only=["dialog.cancel", "dialog.close"]
    )

    def __init__(self, comparison: Comparison, pair: PairedFixture, inputs: ResultsInputs) -> None:
        super().__init__()
        self.comparison = comparison
        self.run_key = pair
        self.inputs = inputs

    def action_cancel(self) -> None:
        self.dismiss(None)

    def compose(self) -> ComposeResult:
        pair = self.run_key
        with Vertical(classes="dialog wide"):
            yield Static(
                Text.assemble(
                    (_name(pair.fixture_id), "bold"),
                    f"   {_name(self.comparison.dimension)}: ",
                    (
                        f"{pair.agent_mean:.2f} vs {pair.baseline_mean:.2f} ({pair.diff:+.2f})",
                        "bold",
                    ),
                ),
                classes="question",
            )
            with VerticalScroll(classes="dialog-detail tall"):
                yield Static(ratings_table(self.comparison, pair, self.inputs))
            yield Static(Text("escape closes", style="dim"))
        yield KeyFooter()
