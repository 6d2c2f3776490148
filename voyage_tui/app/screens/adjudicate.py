"""Adjudication: the disputed items (raters' scores on a dimension at least `[rating]
dispute_spread` apart), and for the one highlighted every rater's scores and note side by side
with the rubric's anchors. The rater session's keypad (`ScoreDraft`) sets the final scores; the
digit that scores the last dimension appends the adjudication, `based_on` the ratings shown. `u`
undoes the item's adjudication by appending a retraction. Which items are disputed, what a
record holds and how it is written are the engine's (engine/ratings/disputes.py,
adjudications.py); this screen only shows them and sends the keys.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import BindingType
from textual.containers import Horizontal, Vertical
from textual.widgets import ContentSwitcher, Input, OptionList, Static
from textual.widgets.option_list import Option

from voyage_tui.app.actions import bindings
from voyage_tui.app.help import help_text
from voyage_tui.app.screens.agreement import ratings_side_by_side
from voyage_tui.app.screens.base import VoyageScreen
from voyage_tui.app.screens.rate import PaneScroll
from voyage_tui.app.widgets.key_footer import KeyFooter
from voyage_tui.app.widgets.pair_panes import one_line, run_widgets, task_widgets
from voyage_tui.app.widgets.rubric_panel import RubricPanel
from voyage_tui.app.widgets.safe_text import printable
from voyage_tui.engine.campaign.figures import dispute_report
from voyage_tui.engine.campaign.snapshot import load_campaign
from voyage_tui.engine.campaign.source import WorkTree
from voyage_tui.engine.ratings.adjudications import Adjudication, append_adjudication
from voyage_tui.engine.ratings.agreement import DisputedItem
from voyage_tui.engine.ratings.content import PairContent, load_pair
from voyage_tui.engine.ratings.disputes import Dispute, DisputeReport
from voyage_tui.engine.ratings.keypad import COMPLETE, REFUSED, ScoreDraft, score_keys
from voyage_tui.engine.ratings.names import RaterNameError, resolve_rater
from voyage_tui.engine.ratings.runs import RunIndex, RunKey
from voyage_tui.engine.references.rubric import Rubric
from voyage_tui.engine.validation.view import SuiteView
from voyage_tui.engine.wording import plural
from voyage_tui.engine.workspace.model import Workspace


def _name(text: str) -> str:
    return printable(text, lines=False)


@dataclass(frozen=True)
class Loaded:
    report: DisputeReport
    rubric: Rubric
    adjudicator: str | None
    runs: RunIndex | None = None
    problem: str = ""


def _load(ws: Workspace, view: SuiteView | None, adjudicator: str | None, git: bool) -> Loaded:
    campaign = load_campaign(
        WorkTree(ws, loaded_rubric=view.refs.rubric if view is not None else None)
    )
    problem = ""
    if adjudicator is None:
        try:
            adjudicator = resolve_rater(ws, None, use_git=git)
        except RaterNameError as exc:
            problem = str(exc).replace("--rater", "--adjudicator")
    runs = RunIndex.from_items(view.items) if view is not None else campaign.runs
    return Loaded(dispute_report(campaign), campaign.rubric, adjudicator, runs, problem)


def _load_content(
    ws: Workspace, rubric: Rubric, runs: RunIndex | None, pair: RunKey
) -> PairContent | None:
    """The task and the run of `pair`, as the rater read them: blind, so the adjudication
    screen shows no agent label, as it showed none before it showed the run."""
    run = runs.by_pair.get(pair) if runs is not None else None
    return load_pair(ws, rubric, run, blind=True) if run is not None else None


def middle(text: str, width: int) -> str:
    """`text` in `width` cells, cut in the middle: fixture ids share their ends less often
    than their beginnings, and the end is where a run's variant is usually named."""
    if width <= 0 or len(text) <= width:
        return text
    if width == 1:
        return "…"
    head = width // 2
    tail = width - 1 - head
    return text[:head] + "…" + (text[-tail:] if tail else "")


def item_label(dispute: Dispute, width: int = 0) -> Text:
    """Two lines: settled or not, the run id and the widest spread; under it the fixture id,
    cut in the middle to `width` (0: whole). The run comes first so that the runs of one
    fixture, the usual neighbours in the list, differ on their first line."""
    fixture_id, run_id = dispute.run_key
    text = Text(no_wrap=True, overflow="ellipsis")
    if dispute.adjudicated:
        text.append("✓ ", style="green")
    else:
        text.append("· ", style="bold yellow")
    text.append(_name(run_id), style="bold")
    spread = dispute.spread
    widest = max(spread.values(), default=0)
    dims = [d for d, gap in spread.items() if gap == widest]
    text.append(f"  spread {widest} ", style="bold red" if widest >= 2 else "bold yellow")
    text.append(_name(", ".join(dims)), style="dim")
    text.append("\n  ")
    text.append(middle(_name(fixture_id), width - 2 if width else 0), style="dim")
    return text


PANES = ("adjudicate-ratings", "adjudicate-task", "adjudicate-run")
PANE_NAMES = {"adjudicate-ratings": "Ratings", "adjudicate-task": "Task", "adjudicate-run": "Run"}


class AdjudicateScreen(VoyageScreen[None]):
    HELP = """
## Adjudication

The disputed items, the open ones marked `·`, the adjudicated ones `✓`, each by its run id with
its fixture id under it. On the right the highlighted item named in full, then one pane at a
time: every rater's scores and note side by side with the rubric's anchors, the task (prompt,
ground truth, scoring notes) or the run (output, patch). {adjudicate.other-pane} moves to the
next pane and scrolls it (`up` / `down`), then back to the list; {adjudicate.maximise}
maximises the pane. Below, the final scores. Type the score of each dimension
({adjudicate.previous-dimension} goes back); {adjudicate.note} adds a one-line note before the
last one, which appends the adjudication to the adjudications file, based on the ratings
shown. {adjudicate.undo} undoes the highlighted item's adjudication (a retraction is
appended), {adjudicate.clear} starts its scores again, {adjudicate.reload} reads the files
again. Blind like the rater session: the run's agent is not shown.
"""

    SCOPE = "adjudicate"
    BINDINGS: ClassVar[list[BindingType]] = bindings("adjudicate")
    ALLOW_IN_MAXIMIZED_VIEW: ClassVar[str | None] = "#adjudicate-title, Footer"

    def __init__(self, adjudicator: str | None = None) -> None:
        super().__init__()
        self.adjudicator = adjudicator
        self.report: DisputeReport | None = None
        self.rubric: Rubric | None = None
        self.runs: RunIndex | None = None
        self.draft: ScoreDraft | None = None
        self.selected: RunKey | None = None
        self.content: PairContent | None = None
        """The selected item's task and run, once read (None meanwhile, or no such run)."""
        self.status = ""
        self._before_note: PaneScroll | None = None

    def compose(self) -> ComposeResult:
        yield Static(Text("Adjudication", style="bold"), id="adjudicate-title")
        with Horizontal(id="adjudicate-body"):
            yield OptionList(id="adjudicate-items")
            with Vertical(id="adjudicate-detail"):
                yield Static("", id="adjudicate-item")
                yield Static("", id="adjudicate-tabs")
                with ContentSwitcher(id="adjudicate-panes", initial=PANES[0]):
                    with PaneScroll(id="adjudicate-ratings"):
                        yield Static(Text("reading…", style="dim"), id="adjudicate-side-by-side")
                    yield PaneScroll(id="adjudicate-task")
                    yield PaneScroll(id="adjudicate-run")
                yield Static("", id="adjudicate-final")
                yield RubricPanel(id="adjudicate-keypad")
        yield Input(
            placeholder="a one-line note (enter keeps it, escape drops it)", id="adjudicate-note"
        )
        yield Static("", id="adjudicate-status")
        yield KeyFooter()

    def on_mount(self) -> None:
        self.query_one("#adjudicate-note").display = False
        self._show_tabs()
        self.load()

    def load(self) -> None:
        app = self.app
        ws, view, adjudicator, git = app.ws, app.view, self.adjudicator, app.use_git
        self.run_in_thread(lambda: _load(ws, view, adjudicator, git), self._loaded, key="load")

    def suite_loaded(self, view: SuiteView) -> None:
        """Opened before the suite was read (`voyage-tui adjudicate`): the runs are known now,
        so the item's task and run can be shown."""
        if self.runs is None and not self.busy:
            self.content = None
            self.load()

    def suite_changed(self, view: SuiteView, touched: set[str]) -> None:
        """Ratings or adjudications written meanwhile (another terminal) count at once; the
        item's task or run edited meanwhile is read again."""
        if self.busy:
            return
        content = self.content
        if content is not None and {content.task.path, content.run.path} & touched:
            self.content = None  # `_select` reads it again once the files are loaded
            self.load()
        elif any(p.endswith(".jsonl") for p in touched):
            self.load()

    def on_resize(self) -> None:
        """The list's labels are cut to its width: cut them again once it is laid out anew."""
        self.call_after_refresh(self._relabel)

    def _relabel(self) -> None:
        report = self.report
        if report is None or not report.items or self.gone:
            return
        listing = self.query_one("#adjudicate-items", OptionList)
        width = listing.scrollable_content_region.width
        for i, dispute in enumerate(report.items):
            listing.replace_option_prompt_at_index(i, item_label(dispute, width))

    # --- showing ---------------------------------------------------------------------------

    def _loaded(self, loaded: Loaded) -> None:
        self.report, self.rubric, self.runs = loaded.report, loaded.rubric, loaded.runs
        self.refresh_bindings()
        self.adjudicator = loaded.adjudicator
        if loaded.problem:
            self.status = loaded.problem
        items = loaded.report.items
        title = Text("Adjudication", style="bold")
        open_ = sum(1 for d in items if not d.adjudicated)
        title.append(f"  {plural(len(items), 'disputed item')}, {open_} open", style="dim")
        if self.adjudicator:
            title.append(f"  · as {_name(self.adjudicator)}", style="dim")
        self.query_one("#adjudicate-title", Static).update(title)
        listing = self.query_one("#adjudicate-items", OptionList)
        listing.clear_options()
        if not items:
            listing.add_option(Option(Text("No disputed items.", style="dim"), disabled=True))
            self.selected, self.draft = None, None
            self._show_item()
            return
        width = listing.scrollable_content_region.width or min(44, self.app.size.width * 3 // 10)
        listing.add_options(Option(item_label(d, width), id=str(i)) for i, d in enumerate(items))
        pairs = [d.run_key for d in items]
        index = pairs.index(self.selected) if self.selected in pairs else 0
        listing.highlighted = index
        self._select(items[index])
        if not isinstance(self.focused, (PaneScroll, Input)):
            listing.focus()  # reading a pane (after a write, a change on disk) goes on

    @on(OptionList.OptionHighlighted, "#adjudicate-items")
    def _highlighted(self, event: OptionList.OptionHighlighted) -> None:
        event.stop()
        report = self.report
        if report is None or event.option.id is None:
            return
        dispute = report.items[int(event.option.id)]
        if dispute.run_key != self.selected:
            self.status = ""
            self._select(dispute)

    @on(OptionList.OptionSelected, "#adjudicate-items")
    def _selected(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        self.action_confirm()

    def _select(self, dispute: Dispute) -> None:
        changed = dispute.run_key != self.selected or self.content is None
        self.selected = dispute.run_key
        rubric = self.rubric
        scored = set(dispute.item.dimensions)
        dimensions = [d for d in rubric.dimensions if d.name in scored] if rubric else []
        self.draft = ScoreDraft(dimensions)
        self._show_item()
        if changed and rubric is not None:
            self.content = None
            ws, runs, pair = self.app.ws, self.runs, dispute.run_key
            self.run_in_thread(
                lambda: _load_content(ws, rubric, runs, pair),
                lambda content: self.call_later(self._show_content, pair, content),
                key="content",
            )

    async def _show_content(self, pair: RunKey, content: PairContent | None) -> None:
        if pair != self.selected or self.gone:
            return
        task = self.query_one("#adjudicate-task", PaneScroll)
        run = self.query_one("#adjudicate-run", PaneScroll)
        await task.remove_children()
        await run.remove_children()
        if content is None:
            missing = Text("The run's file is not in the suite any more.", style="dim")
            await task.mount(Static(missing))
            await run.mount(Static(missing))
        else:
            await task.mount_all(task_widgets(content))
            await run.mount_all(run_widgets(content))
        task.scroll_home(animate=False)
        run.scroll_home(animate=False)
        self.content = content

    def _dispute(self) -> Dispute | None:
        report = self.report
        if report is None:
            return None
        return next((d for d in report.items if d.run_key == self.selected), None)

    def _show_item(self) -> None:
        report, dispute = self.report, self._dispute()
        side = self.query_one("#adjudicate-side-by-side", Static)
        final = self.query_one("#adjudicate-final", Static)
        keypad = self.query_one("#adjudicate-keypad", RubricPanel)
        self.query_one("#adjudicate-item", Static).update(self._item_title(dispute))
        if report is None or dispute is None:
            side.update(Text("Nothing to adjudicate: no raters disagree.", style="dim"))
            final.update("")
            keypad.display = False
            self._show_status()
            return
        ratings = report.ratings_of(dispute.run_key)
        spreads = dispute.spread
        widest = max(spreads.values(), default=0)
        item = DisputedItem(dispute.run_key[0], dispute.run_key[1], widest, spreads, ratings)
        side.update(ratings_side_by_side(item, self.rubric))
        final.update(self._final_text(report.adjudication_of(dispute.run_key)))
        keypad.display = self.draft is not None and bool(self.draft.dimensions)
        if self.draft is not None:
            # A third of the terminal: the raters' scores above stay the larger part.
            room = max(self.app.size.height // 3, 6)
            keypad.show(self.draft, {}, busy=self.busy, room=room)
        self._show_status()

    def _item_title(self, dispute: Dispute | None) -> Text:
        """The item in full: it wraps (the Static does) rather than lose a character."""
        if dispute is None:
            return Text("")
        fixture_id, run_id = dispute.run_key
        return Text.assemble(
            (_name(fixture_id), "bold"), (" · ", "dim"), (_name(run_id), "bold cyan")
        )

    def _show_tabs(self) -> None:
        current = self.query_one("#adjudicate-panes", ContentSwitcher).current
        text = Text()
        for pane in PANES:
            name = f" {PANE_NAMES[pane]} "
            text.append(name, style="bold reverse" if pane == current else "dim")
            text.append(" ")
        key = help_text(self.app, "{adjudicate.other-pane}").replace("`", "")
        text.append(f" {key}: next pane", style="dim")
        self.query_one("#adjudicate-tabs", Static).update(text)

    def _final_text(self, adjudication: Adjudication | None) -> Text:
        """The scores in force and their note (the note being typed is the keypad's)."""
        text = Text("Final scores", style="bold")
        if adjudication is None or adjudication.scores is None:
            text.append("  none yet: type them below", style="dim")
            return text
        scores = " · ".join(f"{_name(k)} {v}" for k, v in adjudication.scores.items())
        text.append(f"  {scores}", style="bold green")
        text.append(
            f"  by {_name(adjudication.adjudicator)}, {_name(adjudication.rated_at)}", style="dim"
        )
        if adjudication.note:
            text.append(f"\n  note: {one_line(adjudication.note)}", style="italic")
        return text

    def _show_status(self) -> None:
        status = self.query_one("#adjudicate-status", Static)
        status.update(Text(printable(self.status), style="yellow") if self.status else "")
        status.display = bool(self.status)

    # --- keys ------------------------------------------------------------------------------

    def action_back(self) -> None:
        if isinstance(self.focused, Input):
            self._close_note()  # escape in the note drops what was typed
            return
        self.app.navigation.back(self)  # to the screen that opened this one

    def action_note(self) -> None:
        if self.draft is None or self.busy or self._dispute() is None:
            return
        focused = self.focused
        self._before_note = focused if isinstance(focused, PaneScroll) else None
        box = self.query_one("#adjudicate-note", Input)
        box.value = self.draft.note
        box.display = True
        box.focus()

    @on(Input.Submitted, "#adjudicate-note")
    def _note_given(self, event: Input.Submitted) -> None:
        event.stop()
        if self.draft is not None:
            self.draft.note = " ".join(event.value.split())
        self._close_note()
        self._show_item()

    def _close_note(self) -> None:
        """Back to the pane being read when `n` was pressed, else to the list."""
        self.query_one("#adjudicate-note").display = False
        before, self._before_note = self._before_note, None
        (before or self.query_one("#adjudicate-items")).focus()

    def action_other_pane(self) -> None:
        """The list, then each pane in turn (shown and scrolled by the arrows), then the list."""
        switcher = self.query_one("#adjudicate-panes", ContentSwitcher)
        focused = self.focused
        at = PANES.index(focused.id) if isinstance(focused, PaneScroll) and focused.id else -1
        # set_focus, not focus(): at once, so the next `o` of a burst (keys queued before a
        # deferred focus lands) moves on from this pane rather than from the one before.
        if at == len(PANES) - 1:
            self.set_focus(self.query_one("#adjudicate-items"))
            switcher.current = PANES[0]
        else:
            switcher.current = PANES[at + 1]
            self.set_focus(self.query_one(f"#{PANES[at + 1]}"))
        self._show_tabs()

    def action_maximise_pane(self) -> None:
        if self.maximized is not None:
            self.minimize()
            return
        current = self.query_one("#adjudicate-panes", ContentSwitcher).current
        if current is not None:
            pane = self.query_one(f"#{current}")
            self.set_focus(pane)
            self.maximize(pane, container=False)

    def action_reload(self) -> None:
        self.load()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """Only the digits the rubric's scales take are keys (so the help lists only those)."""
        if action == "score":
            dimensions = self.rubric.dimensions if self.rubric is not None else []
            return bool(parameters) and parameters[0] in score_keys(list(dimensions))
        return True

    def action_score(self, key: str) -> None:
        draft = self.draft
        if draft is None or self.busy or self._dispute() is None:
            return
        result = draft.digit(key)
        self.status = result.message if result.outcome == REFUSED else ""
        if result.outcome == COMPLETE:
            self._submit()
        self._show_item()

    def action_confirm(self) -> None:
        draft = self.draft
        if draft is None or self.busy:
            return
        result = draft.confirm_pending()
        if result is not None and result.outcome == COMPLETE:
            self._submit()
        self._show_item()

    def action_previous_dimension(self) -> None:
        if self.draft is not None:
            self.draft.back()
            self._show_item()

    def action_next_dimension(self) -> None:
        if self.draft is not None:
            self.draft.forward()
            self._show_item()

    def action_clear(self) -> None:
        if self.draft is not None:
            self.draft.clear()
            self._show_item()

    def action_undo(self) -> None:
        report, dispute = self.report, self._dispute()
        if report is None or dispute is None or self.busy:
            return
        if report.adjudication_of(dispute.run_key) is None:
            self.status = "this item has no adjudication to undo"
            self._show_status()
            return
        if not self.adjudicator:
            self._show_status()
            return
        self._write(report.retraction_for(dispute.run_key, self.adjudicator), "undone")

    def _submit(self) -> None:
        report, dispute, draft = self.report, self._dispute(), self.draft
        if report is None or dispute is None or draft is None:
            return
        if not self.adjudicator:
            self.status = self.status or "no adjudicator name; start with --adjudicator NAME"
            return
        record = report.adjudication_for(
            dispute.run_key, self.adjudicator, draft.scores, draft.note
        )
        self._write(record, "adjudicated")

    def _write(self, record: Adjudication, done: str) -> None:
        ws = self.app.ws

        def job() -> str:
            try:
                append_adjudication(ws, record)
            except OSError as exc:  # WriteRefused included: its message says what to do
                return f"nothing was written: {exc}"
            return ""

        def then(problem: str) -> None:
            fixture_id, run_id = record.run_key
            self.status = problem or f"{fixture_id} / {run_id} {done}"
            self.load()

        # One write at a time: the screen is `busy` (keys refused) until it is read back.
        self.run_in_thread(job, then, key="write", exclusive=True)
