"""The rubric beside a pair being rated: every dimension on one line (the scored ones with the
score and the anchor chosen), the current one opened with its anchors and the fixture's notes.

What the keys build before anything is written is the engine's `ScoreDraft`
(engine/ratings/keypad.py); this module only shows it.
"""

from __future__ import annotations

from rich.table import Table
from rich.text import Text
from textual.app import ComposeResult
from textual.containers import Vertical, VerticalScroll
from textual.widgets import Static

from voyage_tui.app.widgets.pair_panes import one_line
from voyage_tui.engine.ratings.content import DimensionNotes
from voyage_tui.engine.ratings.keypad import ScoreDraft
from voyage_tui.engine.ratings.records import Rating
from voyage_tui.engine.ratings.rules import scale_values
from voyage_tui.engine.references.rubric import Dimension

FIXTURE_STYLE = "cyan"
"""The fixture's own anchors and notes: set apart from the rubric's, and not in the theme's
error colour (Textual draws ANSI magenta close to its red)."""


def _anchor_of(dimension: Dimension, value: int) -> str:
    anchor = dimension.anchors.get(value)
    return one_line(anchor) if anchor is not None else "between anchors"


def dimension_line(draft: ScoreDraft, index: int, *, busy: bool = False) -> Text:
    """One dimension on one line: marker, name, and the score given with its anchor. The
    question of the dimension under the cursor heads its scale (`scale_table`), which wraps."""
    dimension = draft.dimensions[index]
    here = index == draft.cursor
    score = draft.scores.get(dimension.name)
    text = Text(no_wrap=True, overflow="ellipsis", end="")
    if here:
        text.append("▶ ", style="bold cyan")
    elif score is not None:
        text.append("✓ ", style="green")
    else:
        text.append("· ", style="dim")
    text.append(one_line(dimension.name), style="bold reverse" if here else "bold")
    if score is not None:
        text.append(f"  {score} ", style="bold green")
        text.append(_anchor_of(dimension, score), style="" if here else "green")
    if here and draft.pending:
        text.append(f"  {draft.pending}_", style="bold yellow")
    if here and busy:
        text.append("  saving…", style="dim")
    return text


SHORT_NAME = 4
"""Characters of a dimension's name kept when the one-line rubric is too wide for its line."""


def strip_line(draft: ScoreDraft, *, busy: bool = False, width: int | None = None) -> Text:
    """Every dimension on one line (a short terminal): the scored ones with their score, the
    one the next key scores marked, so the scale below it can have the rows. Wider than
    `width`, the other dimensions' names are shortened, never the highlighted one's."""
    text = _strip(draft, busy=busy, short=False)
    if width is not None and text.cell_len > width:
        text = _strip(draft, busy=busy, short=True)
    return text


def _strip(draft: ScoreDraft, *, busy: bool, short: bool) -> Text:
    text = Text(no_wrap=True, overflow="ellipsis", end="")
    for index, dimension in enumerate(draft.dimensions):
        if index:
            text.append(" · ", style="dim")
        score = draft.scores.get(dimension.name)
        name = one_line(dimension.name)
        if short and index != draft.cursor and len(name) > SHORT_NAME + 1:
            name = name[:SHORT_NAME] + "…"
        if index == draft.cursor:
            text.append("▶ ", style="bold cyan")
            text.append(name, style="bold reverse")
            if draft.pending:
                text.append(f" {draft.pending}_", style="bold yellow")
        elif score is not None:
            text.append(f"✓ {name} ", style="green")
            text.append(str(score), style="bold green")
        else:
            text.append(name, style="dim")
    if busy:
        text.append("  saving…", style="dim")
    return text


def scale_table(
    dimension: Dimension,
    notes: DimensionNotes | None,
    was: int | None = None,
    *,
    compact: bool = False,
    one_row: bool = False,
) -> Table:
    """The scale of the dimension under the cursor: each anchored value with its anchor, the
    fixture's own anchor for that value under it, then the fixture's other notes. `was`: the
    score of the rating in force (a re-rating). `compact` (a short terminal): the fixture's
    notes are only marked `◆`; the task pane lists them in full under Scoring notes.
    `one_row` (shorter still): compact, and every row one line, cut with an ellipsis (the
    rubric file and the task pane have the whole text)."""
    compact = compact or one_row
    table = Table.grid(padding=(0, 1))
    table.add_column(width=5, justify="right", no_wrap=True)
    if one_row:
        table.add_column(ratio=1, no_wrap=True, overflow="ellipsis")
    else:
        table.add_column(ratio=1)
    has_notes = notes is not None and bool(notes.text)
    if dimension.description:
        question = Text(one_line(dimension.description), style="italic")
        if one_row and has_notes:  # said here, not on a row of its own
            question = Text.assemble(("◆ notes in the task  ", FIXTURE_STYLE), question)
        table.add_row(Text("?", style="bold"), question)
    fixture_anchors = notes.anchors if notes is not None else {}
    for value in scale_values(dimension):
        anchor = dimension.anchors.get(value)
        here = fixture_anchors.get(value)
        if anchor is None and here is None and was != value:
            continue
        cell = Text(one_line(anchor) if anchor is not None else "")
        if was == value:
            cell.append("  (was)", style="dim italic")
        if one_row:
            # the marks first: an ellipsis at the row's end would cut them off
            marks = Text()
            if here:
                marks.append("◆ ", style=FIXTURE_STYLE)
            if was == value:
                marks.append("(was) ", style="dim italic")
            cell = Text.assemble(marks, one_line(anchor) if anchor is not None else "")
        elif here and compact:
            cell.append("  ◆", style=FIXTURE_STYLE)
        elif here:
            cell.append("\n◆ this fixture: ", style=FIXTURE_STYLE)
            cell.append(one_line(here), style=FIXTURE_STYLE)
        table.add_row(Text(str(value), style="bold"), cell)
    if has_notes and one_row and dimension.description:
        pass  # on the question's row
    elif notes is not None and notes.text and compact:
        table.add_row(
            Text("◆", style=FIXTURE_STYLE),
            Text("this fixture has notes: see Scoring notes in the task", style=FIXTURE_STYLE),
        )
    elif notes is not None:
        for line in notes.text:
            table.add_row(
                Text("◆", style=FIXTURE_STYLE),
                Text.assemble(("this fixture: ", FIXTURE_STYLE), (one_line(line), FIXTURE_STYLE)),
            )
    return table


class RubricPanel(Vertical):
    """The rubric's dimensions, one line each, and under the one the next key scores its scale
    in a region of its own that scrolls: on a short terminal the scale gives way, never the
    lines with the scores already chosen."""

    def __init__(self, *, fold: bool = False, **kwargs: object) -> None:
        """`fold`: when short of room, the anchors one row each and then every dimension on
        one line, before the scale scrolls (the rater session); else only the fixture's
        anchors fold to a mark (the adjudication keypad, as it was)."""
        super().__init__(**kwargs)  # type: ignore[arg-type]
        self.fold = fold
        self._lines: list[Static] = []
        self._strip = Static("", classes="rubric-dimension rubric-strip")
        self._scale = Static("", classes="rubric-scale-text")
        self._scale_box = VerticalScroll(self._scale, classes="rubric-scale", can_focus=False)
        self._note = Static("", classes="rubric-note")

    def compose(self) -> ComposeResult:
        yield self._strip
        yield self._scale_box
        yield self._note

    def show(
        self,
        draft: ScoreDraft,
        notes: dict[str, DimensionNotes],
        in_force: Rating | None = None,
        *,
        busy: bool = False,
        room: int | None = None,
    ) -> None:
        """`room`: the rows the panel may take; the scale gets what the lines leave."""
        if len(self._lines) != len(draft.dimensions):
            # The scale and the note are composed once; only the dimension lines change, so
            # the scale is always a child to move (a remove-and-mount of everything left it
            # out of the panel until the mount ran, and moving it then failed).
            for line in self._lines:
                line.remove()
            self._lines = [Static("", classes="rubric-dimension") for _ in draft.dimensions]
            if self._lines:
                self.mount_all(self._lines, before=self._scale_box)
        earlier = in_force.scores if in_force is not None and in_force.scores else {}
        for index, line in enumerate(self._lines):
            line.update(dimension_line(draft, index, busy=busy))
        current = draft.current
        strip = False
        if current is not None and self._lines:
            args = (current, notes.get(current.name), earlier.get(current.name))
            table, strip = self._fit(args, room, len(self._lines), 1 if draft.note else 0)
            self._scale.update(table)
            if strip:
                width = self.content_region.width or self.app.size.width - 2
                self._strip.update(strip_line(draft, busy=busy, width=width))
                self.move_child(self._scale_box, after=self._strip)
            else:
                self.move_child(self._scale_box, after=self._lines[draft.cursor])
            self._scale_box.scroll_home(animate=False)
        self._strip.display = strip
        for line in self._lines:
            line.display = not strip
        note = Text.assemble(("note  ", "bold"), (one_line(draft.note), "italic"))
        self._note.update(note if draft.note else "")
        self._note.display = bool(draft.note)

    def _fit(
        self,
        args: tuple[Dimension, DimensionNotes | None, int | None],
        room: int | None,
        lines: int,
        note: int,
    ) -> tuple[Table, bool]:
        """The fullest scale that fits in `room` rows beside a line per dimension; when none
        does, every dimension on one line (the strip) and the fullest scale under it, so a
        short terminal gives the rows to the run, not the rubric (issue 36). The scale box
        scrolls what still does not fit. Whether the strip is used."""
        if room is None:
            return scale_table(*args), False
        if not self.fold:
            space = max(room - lines - note, 3)
            self._scale_box.styles.max_height = space
            table = scale_table(*args)
            return (
                table if self._rows(table) <= space else scale_table(*args, compact=True)
            ), False
        tables = [
            scale_table(*args),
            scale_table(*args, compact=True),
            scale_table(*args, one_row=True),
        ]
        heights = [self._rows(table) for table in tables]
        for strip, space in ((False, room - lines - note), (True, room - 1 - note)):
            for table, height in zip(tables, heights, strict=True):
                if height <= space:
                    self._scale_box.styles.max_height = space
                    return table, strip
        self._scale_box.styles.max_height = max(room - 1 - note, 3)
        return tables[-1], True

    def _rows(self, table: Table) -> int:
        """How many rows `table` takes at the panel's width."""
        width = self.content_region.width or self.app.size.width - 2
        console = self.app.console
        return len(console.render_lines(table, console.options.update_width(max(width, 20))))
