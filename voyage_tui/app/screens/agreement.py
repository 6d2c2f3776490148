"""How far the raters agree: Krippendorff's alpha per dimension, Cohen's kappa per pair of
raters, and the items they disagree on most, each opening every rater's scores and note side by
side for a calibration discussion. The figures are the engine's (`voyage-tui agreement` prints
the same); this screen only lays them out."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from rich.table import Table
from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import BindingType
from textual.containers import Vertical, VerticalScroll
from textual.widgets import OptionList, Static
from textual.widgets.option_list import Option

from voyage_tui.app.actions import bindings
from voyage_tui.app.screens.base import VoyageModal, VoyageScreen
from voyage_tui.app.widgets.key_footer import KeyFooter
from voyage_tui.app.widgets.key_list import KeyList
from voyage_tui.app.widgets.pair_panes import one_line
from voyage_tui.app.widgets.safe_text import printable
from voyage_tui.engine.campaign.figures import agreement, calibrations
from voyage_tui.engine.campaign.snapshot import Campaign, load_campaign
from voyage_tui.engine.campaign.source import WorkTree
from voyage_tui.engine.judging.align import Alignment, align, judge_names
from voyage_tui.engine.ratings.agreement import AgreementReport, DisputedItem
from voyage_tui.engine.ratings.calibration import Calibration
from voyage_tui.engine.ratings.labels import RaterLabels
from voyage_tui.engine.ratings.runs import RunKey
from voyage_tui.engine.references.rubric import Rubric
from voyage_tui.engine.validation.view import SuiteView
from voyage_tui.engine.wording import plural
from voyage_tui.engine.workspace.model import Workspace

DISPUTED = 10
"""The most disputed items listed."""

ALPHA = "\N{GREEK SMALL LETTER ALPHA}"
KAPPA = "\N{GREEK SMALL LETTER KAPPA}"


def _figure(value: float | None) -> str:
    return "—" if value is None else f"{value:.3f}"


def _name(text: str) -> str:
    return printable(text, lines=False)


@dataclass(frozen=True)
class Computed:
    report: AgreementReport
    problems: list[str]
    rubric: Rubric
    adjudicated: frozenset[RunKey] = frozenset()
    """The items with an adjudication in force (marked in the disputed list)."""
    calibrated: tuple[Calibration, ...] = ()
    """Each rater against the adjudicated scores."""
    judges: tuple[Alignment, ...] = ()
    """Each judge (a program rater) against the people (SPEC 3.11)."""


def _computed(ws: Workspace, view: SuiteView | None) -> Computed:
    """The agreement of the ratings on disk, under the suite's rubric (in a thread)."""
    campaign = load_campaign(
        WorkTree(ws, loaded_rubric=view.refs.rubric if view is not None else None)
    )
    report, problems = compute(campaign)
    calibrated = tuple(calibrations(campaign))
    judges = tuple(align(campaign, name) for name in judge_names(campaign))
    return Computed(
        report, problems, campaign.rubric, frozenset(campaign.adjudicated()), calibrated, judges
    )


def _interval(ci: tuple[float, float] | None) -> str:
    return "" if ci is None else f" [{ci[0]:.2f}, {ci[1]:.2f}]"


def judges_text(judges: tuple[Alignment, ...]) -> Text:
    """Per judge and dimension: its kappa with the people against theirs among themselves,
    each with its 95% interval; a judge below the ceiling is marked (empty without judges)."""
    text = Text()
    if not judges:
        return text
    text.append("Judges", style="bold")
    text.append(
        f"  a program's {KAPPA} with the people vs the people's own (95% interval)\n", style="dim"
    )
    for report in judges:
        text.append(f"  {_name(report.judge)}\n", style="bold")
        for d in report.dimensions.values():
            text.append(f"    {_name(d.dimension)}  ")
            text.append(_figure(d.judge_kappa), style=_quality(d.judge_kappa))
            text.append(_interval(d.judge_kappa_ci), style="dim")
            text.append("  vs  ")
            text.append(_figure(d.human_kappa), style=_quality(d.human_kappa))
            text.append(_interval(d.human_kappa_ci), style="dim")
            text.append(f"  ({d.items} items)", style="dim")
            if d.below_ceiling:
                text.append("  below the ceiling", style="bold yellow")
            text.append("\n")
    text.rstrip()
    return text


def calibration_text(calibrated: tuple[Calibration, ...]) -> Text:
    """One line per rater: their kappa against the adjudicated scores per dimension, with the
    items it was computed on (empty when nothing is adjudicated yet)."""
    text = Text()
    if not calibrated:
        return text
    text.append("Calibration", style="bold")
    text.append(f"  each rater against the adjudicated scores ({KAPPA}, items)\n", style="dim")
    by_rater: dict[str, list[Calibration]] = {}
    for row in calibrated:
        by_rater.setdefault(row.rater, []).append(row)
    width = max(len(_name(r)) for r in by_rater)
    for rater, rows in by_rater.items():
        text.append(f"  {_name(rater).ljust(width)}  ", style="bold")
        for index, row in enumerate(rows):
            if index:
                text.append(" · ", style="dim")
            text.append(f"{_name(row.dimension)} ")
            text.append(_figure(row.kappa), style=_quality(row.kappa))
            text.append(f" ({row.items})", style="dim")
        text.append("\n")
    text.rstrip()
    return text


def compute(campaign: Campaign) -> tuple[AgreementReport, list[str]]:
    """The report over the people's ratings in force, and what was left out of it (said as
    the command line says it: a file that cannot be read, records with errors)."""
    report = agreement(campaign, disputed=DISPUTED)
    missing = campaign.left_out()  # the engine's decision, the same as the command line's
    problems = missing.screen_lines()
    return report, problems


def figures_table(report: AgreementReport) -> Table:
    """One row per dimension: alpha over all raters, then kappa for each pair of raters."""
    table = Table(box=None, padding=(0, 1), header_style="bold", show_edge=False)
    table.add_column("dimension", style="bold", no_wrap=True)
    table.add_column(f"{ALPHA} all", justify="right", no_wrap=True)
    table.add_column("items", justify="right", style="dim", no_wrap=True)
    pairs = sorted({p.raters for p in report.pairs})
    labels = report.labels  # short ones for long names (the engine's, as the command line's)
    for pair in pairs:
        table.add_column(f"{KAPPA} {_name(labels.pair(pair, '·'))}", justify="right")
    kappas = {(p.raters, p.dimension): p for p in report.pairs}
    for name, dimension in report.dimensions.items():
        row: list[Text] = [
            Text(_name(name)),
            Text(_figure(dimension.alpha), style=_quality(dimension.alpha)),
            Text(str(dimension.items)),
        ]
        for pair in pairs:
            kappa = kappas.get((pair, name))
            if kappa is None:
                row.append(Text("—", style="dim"))
                continue
            cell = Text(_figure(kappa.kappa), style=_quality(kappa.kappa))
            cell.append(f" ({kappa.items})", style="dim")
            row.append(cell)
        table.add_row(*row)
    return table


def _quality(value: float | None) -> str:
    """Krippendorff's rule of thumb: 0.8 and above is reliable, below 0.667 is not."""
    if value is None:
        return "dim"
    if value >= 0.8:
        return "green"
    if value >= 0.667:
        return "yellow"
    return "bold red"


def reasons_text(report: AgreementReport) -> Text:
    """Why a figure is `—`, once per reason."""
    seen: dict[str, list[str]] = {}
    for name, dimension in report.dimensions.items():
        if dimension.reason:
            seen.setdefault(dimension.reason, []).append(f"{ALPHA} {_name(name)}")
    labels = report.labels
    for pair in report.pairs:
        if pair.reason:
            label = f"{KAPPA} {_name(labels.pair(pair.raters, '·'))} {_name(pair.dimension)}"
            seen.setdefault(pair.reason, []).append(label)
    text = Text()
    for reason, where in seen.items():
        shown = ", ".join(where[:4]) + (f" and {len(where) - 4} more" if len(where) > 4 else "")
        text.append("— ", style="bold")
        text.append(f"{reason} ({shown})\n", style="dim")
    omitted = report.pairs_omitted
    if omitted.count:
        # many raters: the table holds the lowest kappas only (the engine's choice, said here)
        text.append(f"{plural(omitted.count, 'pair figure')} not shown: ", style="bold")
        text.append(f"{omitted.reason}\n", style="dim")
    text.rstrip()
    return text


def legend_text(report: AgreementReport) -> Text:
    """Each label and the rater it stands for, when some name is too long to head a column
    (engine/ratings/labels.py); empty otherwise."""
    text = Text()
    labels = report.labels
    if not labels.abbreviated:
        return text
    for index, (label, name) in enumerate(labels.legend):
        if index:
            text.append(" · ", style="dim")
        text.append(_name(label), style="bold")
        text.append(f" {_name(name)}")
    return text


def disputed_label(
    item: DisputedItem,
    width: int = 0,
    adjudicated: bool = False,
    labels: RaterLabels | None = None,
) -> Text:
    """One line: the spread, the item (padded to `width`), the widest dimension and each
    rater's score of it (by `labels`, when given); `adjudicated` marks an item whose final
    scores are settled."""
    where = f"{_name(item.fixture_id)} / {_name(item.run_id)}"
    widest = item.widest[0]
    text = Text(no_wrap=True, overflow="ellipsis")
    text.append(f"spread {item.spread}  ", style="bold red" if item.spread >= 2 else "bold yellow")
    text.append(where.ljust(width), style="bold")
    text.append(f"  {_name(widest)}", style="bold")
    if len(item.widest) > 1:
        text.append(f" (+{len(item.widest) - 1})", style="dim")
    scores = " · ".join(
        f"{_name(labels.of(r.rater) if labels else r.rater)} {(r.scores or {}).get(widest, '·')}"
        for r in item.ratings
    )
    text.append(f"  {scores}", style="italic")
    if adjudicated:
        text.append("  ✓ adjudicated", style="green")
    return text


class AgreementScreen(VoyageScreen[None]):
    HELP = """
## Rater agreement

Krippendorff's alpha (ordinal) per rubric dimension over all raters, and Cohen's kappa
(quadratic weights) per pair of raters with the items both scored in brackets; green from
0.8, yellow from 0.667. Once items are adjudicated, each rater's kappa against the final
scores (calibration: who drifts). Below, the items the raters disagree on most (`✓ adjudicated` once
their final scores are settled): `enter` shows every rater's scores and note side by side,
{agreement.adjudicate} opens the adjudication screen. {agreement.reload} computes again;
{agreement.status} shows each rater's progress and pace.
"""

    SCOPE = "agreement"
    BINDINGS: ClassVar[list[BindingType]] = bindings("agreement")

    def __init__(self) -> None:
        super().__init__()
        self.report: AgreementReport | None = None
        self.rubric: Rubric | None = None

    def compose(self) -> ComposeResult:
        yield Static(Text("Rater agreement", style="bold"), id="agreement-title")
        yield Static("", id="agreement-problems")
        with VerticalScroll(id="agreement-figures"):
            yield Static("", id="agreement-legend")
            yield Static(Text("computing…", style="dim"), id="agreement-table")
            yield Static("", id="agreement-reasons")
            yield Static("", id="agreement-calibration")
            yield Static("", id="agreement-judges")
        yield Static(
            Text.assemble(
                ("Most disputed items", "bold"),
                ("  largest spread of one dimension's scores first · enter: side by side", "dim"),
            ),
            id="agreement-disputed-title",
        )
        yield KeyList(id="agreement-disputed")
        yield KeyFooter()

    def on_mount(self) -> None:
        self.query_one("#agreement-problems").display = False
        self.query_one("#agreement-legend").display = False
        self.query_one("#agreement-judges").display = False
        self.load()

    def load(self) -> None:
        """Compute the agreement again; only the newest computation is shown."""
        app = self.app
        view = app.view
        ws: Workspace = app.ws
        self.run_in_thread(lambda: _computed(ws, view), self._computed, key="agreement")

    def suite_changed(self, view: SuiteView, touched: set[str]) -> None:
        """Ratings written meanwhile (a session in another terminal) count at once."""
        if any(p.endswith(".jsonl") or p == view.refs.rubric.path for p in touched):
            self.load()

    def _computed(self, message: Computed) -> None:
        report = self.report = message.report
        self.rubric = message.rubric
        title = Text("Rater agreement", style="bold")
        legend = legend_text(report)
        if report.raters:
            title.append(f" of {plural(len(report.raters), 'rater')}")
            if not legend:  # else the legend below names them
                title.append(f": {_name(', '.join(report.raters))}")
        self.query_one("#agreement-title", Static).update(title)
        shown = self.query_one("#agreement-legend", Static)
        shown.update(legend)
        shown.display = bool(legend)
        problems = self.query_one("#agreement-problems", Static)
        problems.update(Text("\n".join(f"! {printable(p)}" for p in message.problems), "yellow"))
        problems.display = bool(message.problems)
        table = self.query_one("#agreement-table", Static)
        reasons = self.query_one("#agreement-reasons", Static)
        if not report.raters:
            table.update(Text("No ratings yet: nothing to compare.", style="dim"))
            reasons.update("")
        else:
            table.update(figures_table(report))
            reasons.update(reasons_text(report))
        calibrated = self.query_one("#agreement-calibration", Static)
        calibrated.update(calibration_text(message.calibrated))
        calibrated.display = bool(message.calibrated)
        judges = self.query_one("#agreement-judges", Static)
        judges.update(judges_text(message.judges))
        judges.display = bool(message.judges)
        listing = self.query_one("#agreement-disputed", OptionList)
        highlighted = listing.highlighted
        listing.clear_options()
        if report.disputed:
            width = min(max(len(f"{d.fixture_id} / {d.run_id}") for d in report.disputed), 60)
            listing.add_options(
                Option(
                    disputed_label(item, width, item.run_key in message.adjudicated, report.labels),
                    id=str(index),
                )
                for index, item in enumerate(report.disputed)
            )
            listing.highlighted = min(highlighted or 0, len(report.disputed) - 1)
        else:
            listing.add_option(
                Option(Text("No item has raters who disagree.", "dim"), disabled=True)
            )
        listing.focus()

    @on(OptionList.OptionSelected, "#agreement-disputed")
    def _open(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        report = self.report
        if report is None or event.option.id is None:
            return
        self.app.push_screen(DisputedScreen(report.disputed[int(event.option.id)], self.rubric))

    def action_back(self) -> None:
        self.app.navigation.back(self)  # to the screen that opened this one

    def action_reload(self) -> None:
        self.load()

    def action_status(self) -> None:
        """The campaign's progress and pace (rating_status.py)."""
        from voyage_tui.app.screens.rating_status import RatingStatusScreen

        self.app.push_screen(RatingStatusScreen())

    def action_adjudicate(self) -> None:
        from voyage_tui.app.screens.adjudicate import AdjudicateScreen

        self.app.push_screen(AdjudicateScreen())


def ratings_side_by_side(item: DisputedItem, rubric: Rubric | None) -> Table:
    """A column per rater: the scores by dimension (the widest spreads marked), the note."""
    table = Table(box=None, padding=(0, 2), header_style="bold", show_edge=False, expand=True)
    table.add_column("", style="bold", no_wrap=True)
    for rating in item.ratings:
        table.add_column(_name(rating.rater), ratio=1)
    dimensions = (
        [d.name for d in rubric.dimensions]
        if rubric is not None
        else list(dict.fromkeys(k for r in item.ratings for k in (r.scores or {})))
    )
    for name in dimensions:
        spread = item.spreads.get(name)
        widest = spread == item.spread
        label = Text(_name(name), style="bold red" if widest else "bold")
        if spread:
            label.append(f" ±{spread}", style="dim")
        cells = []
        for rating in item.ratings:
            score = (rating.scores or {}).get(name)
            anchor = _anchor(rubric, name, score)
            cell = Text("·" if score is None else str(score), style="bold red" if widest else "")
            if anchor:
                cell.append(f"  {anchor}", style="dim")
            cells.append(cell)
        table.add_row(label, *cells)
    table.add_row(Text(""), *[Text("") for _ in item.ratings])
    table.add_row(
        Text("note", style="bold"),
        *[Text(one_line(r.note) or "—", style="italic") for r in item.ratings],
    )
    table.add_row(
        Text("rated", style="bold"),
        *[
            Text(
                f"{_name(r.rated_at)}{'' if r.blind else ' · not blind'}"
                + (f" · {r.duration_s:g}s" if r.duration_s is not None else ""),
                style="dim",
            )
            for r in item.ratings
        ],
    )
    return table


def _anchor(rubric: Rubric | None, name: str, score: int | None) -> str:
    if rubric is None or score is None:
        return ""
    dimension = rubric.find(name)
    anchor = dimension.anchors.get(score) if dimension is not None else None
    return one_line(anchor) if anchor else ""


class DisputedScreen(VoyageModal[None]):
    """One disputed item: every rater's rating and note side by side."""

    BINDINGS: ClassVar[list[BindingType]] = bindings(
        "dialog", only=["dialog.cancel", "dialog.close"]
    )

    def action_cancel(self) -> None:
        self.dismiss(None)

    def __init__(self, item: DisputedItem, rubric: Rubric | None) -> None:
        super().__init__()
        self.item = item
        self.rubric = rubric

    def compose(self) -> ComposeResult:
        item = self.item
        with Vertical(classes="dialog wide"):
            title = Text.assemble(
                (_name(item.fixture_id), "bold"),
                f" / {_name(item.run_id)}",
                (f"   spread {item.spread} on {_name(', '.join(item.widest))}", "bold red"),
            )
            yield Static(title, classes="question")
            with VerticalScroll(classes="dialog-detail tall"):
                yield Static(ratings_side_by_side(item, self.rubric))
            yield Static(Text("escape closes", style="dim"))
        yield KeyFooter()
