"""The progress and pace of a rating campaign: per rater the items assigned, done and left, the
median seconds per item, the items per hour and the ratings too fast. Opened from the agreement screen. The figures
are the engine's (engine/ratings/status.py; `voyage-tui ratings status` prints the same); this
screen only lays them out."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from rich.table import Table
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import BindingType
from textual.containers import VerticalScroll
from textual.widgets import Static

from voyage_tui.app.actions import bindings
from voyage_tui.app.screens.base import VoyageScreen
from voyage_tui.app.widgets.key_footer import KeyFooter
from voyage_tui.app.widgets.safe_text import printable
from voyage_tui.engine.campaign.figures import status
from voyage_tui.engine.campaign.snapshot import load_campaign
from voyage_tui.engine.campaign.source import WorkTree
from voyage_tui.engine.ratings.status import CampaignStatus, RaterStatus
from voyage_tui.engine.validation.view import SuiteView
from voyage_tui.engine.wording import plural

BAR = 10
"""Cells of a rater's done-of-assigned bar."""


@dataclass(frozen=True)
class Computed:
    status: CampaignStatus
    problems: list[str]


def _computed(view: SuiteView) -> Computed:
    """The status of the suite's agent runs and the ratings on disk (in a thread)."""
    campaign = load_campaign(WorkTree(view.ws, view.items, view.refs.rubric))
    missing = campaign.left_out()  # the engine's decision, as the command line's
    return Computed(status(campaign), missing.screen_lines())


def _name(text: str) -> str:
    return printable(text, lines=False)


def _figure(value: float | None) -> Text:
    return Text("—", style="dim") if value is None else Text(f"{value:.1f}")


def headline(status: CampaignStatus) -> Text:
    text = Text("Rating campaign", style="bold")
    if status.team:
        text.append(f": a team of {len(status.team)} ", style="bold")
        text.append(f"({_name(', '.join(status.team))})")
    else:
        text.append(": no team", style="bold")
        text.append(" ([rating] raters is empty: every rater may rate every item)", style="dim")
    text.append(f" · overlap {status.overlap}")
    return text


def summary(status: CampaignStatus) -> Text:
    text = Text(f"{plural(status.total, 'agent run')}, ")
    style = "green" if status.total and status.complete == status.total else "bold"
    text.append(f"{status.complete} complete", style=style)
    text.append(f" (rated by at least {plural(status.overlap, 'rater')})", style="dim")
    return text


def bar(rater: RaterStatus) -> Text:
    """The share of the rater's assigned items done, as a bar of BAR cells."""
    if not rater.assigned:
        return Text("")
    filled = round(BAR * rater.done / rater.assigned)
    text = Text("█" * filled, style="green" if rater.left == 0 else "cyan")
    text.append("░" * (BAR - filled), style="dim")
    return text


def raters_table(status: CampaignStatus) -> Table:
    table = Table(box=None, padding=(0, 1), header_style="bold", show_edge=False)
    table.add_column("rater", style="bold", no_wrap=True)
    for heading in ("assigned", "done", "left", "median s", "per hour", "too fast"):
        table.add_column(heading, justify="right", no_wrap=True)
    table.add_column("", no_wrap=True)
    for name, rater in status.raters.items():
        table.add_row(
            Text(_name(name)),
            Text(str(rater.assigned)),
            Text(str(rater.done), style="green" if rater.assigned and not rater.left else ""),
            Text(str(rater.left), style="bold" if rater.left else "dim"),
            _figure(rater.median_s),
            _figure(rater.per_hour),
            Text(str(rater.too_fast), style="bold yellow" if rater.too_fast else "dim"),
            bar(rater) if rater.in_team else Text("not in the team", style="yellow"),
        )
    return table


class RatingStatusScreen(VoyageScreen[None]):
    HELP = """
## Rating status

Per rater: the items assigned (`[rating] raters` and `overlap` in voyage.toml; every item to
every rater without a team), done and left, the median seconds per item, the items per hour
at that median, and the ratings faster than `[rating] min_seconds` (from each rating's
`duration_s`; triage lists them as warnings). An item is complete once raters enough to reach the
overlap have rated it. {rating-status.reload} computes again.
"""

    SCOPE = "rating-status"
    BINDINGS: ClassVar[list[BindingType]] = bindings("rating-status")

    def __init__(self) -> None:
        super().__init__()
        self.status: CampaignStatus | None = None

    def compose(self) -> ComposeResult:
        yield Static(Text("Rating campaign", style="bold"), id="status-title")
        yield Static(Text("Loading the suite…", style="dim"), id="status-summary")
        yield Static("", id="status-problems")
        with VerticalScroll(id="status-figures"):
            yield Static("", id="status-table")
            yield Static("", id="status-note")
        yield KeyFooter()

    def on_mount(self) -> None:
        self.query_one("#status-problems").display = False
        self.load()

    def load(self) -> None:
        """Compute the figures again (once the suite is loaded); only the newest is shown."""
        view = self.app.view
        if view is None:
            return  # suite_loaded computes them
        self.run_in_thread(lambda: _computed(view), self._computed, key="rating-status")

    def suite_loaded(self, view: SuiteView) -> None:
        self.load()

    def suite_changed(self, view: SuiteView, touched: set[str]) -> None:
        """Ratings written meanwhile (a session in another terminal), runs added or gone."""
        self.load()

    def _computed(self, message: Computed) -> None:
        status = self.status = message.status
        self.query_one("#status-title", Static).update(headline(status))
        self.query_one("#status-summary", Static).update(summary(status))
        problems = self.query_one("#status-problems", Static)
        problems.update(Text("\n".join(f"! {printable(p)}" for p in message.problems), "yellow"))
        problems.display = bool(message.problems)
        table = self.query_one("#status-table", Static)
        note = self.query_one("#status-note", Static)
        if not status.raters:
            table.update(Text("No ratings yet, and no team: nobody to list.", style="dim"))
            note.update("")
            return
        table.update(raters_table(status))
        outsiders = status.outsiders
        note.update(
            Text(
                f"\n{plural(len(outsiders), 'rater')} not in [rating] raters: nothing is "
                "assigned to them, and their ratings count towards the complete items.",
                style="dim",
            )
            if outsiders
            else ""
        )

    def action_back(self) -> None:
        self.app.navigation.back(self)  # to the screen that opened this one

    def action_reload(self) -> None:
        self.load()
