"""The triage queue as a list that renders only the lines on screen (Textual's line API).

A workspace of 10,000 fixtures can have 10,000 items in its queue; a list of widgets or of
measured options would lay every one of them out on each change (seconds), where this one draws
the thirty or so in view. One line per item: the mark, the kind, the title, the location.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar

from rich.cells import cell_len
from rich.segment import Segment
from rich.style import Style
from rich.text import Text
from textual import events
from textual.binding import BindingType
from textual.geometry import Size
from textual.message import Message
from textual.scroll_view import ScrollView
from textual.strip import Strip

from voyage_tui.app.actions import bindings
from voyage_tui.app.widgets.safe_text import printable
from voyage_tui.engine.triage.keys import DRIFT, ERROR, EXPOSED, LOW_SCORE, UNRATED, WARNING
from voyage_tui.engine.triage.queue import TriageItem

KIND_STYLE = {
    ERROR: "bold red",
    EXPOSED: "bold magenta",
    LOW_SCORE: "yellow",
    DRIFT: "cyan",
    WARNING: "yellow",
    UNRATED: "blue",
}
KIND_WIDTH = 9
WIDE = 100
"""From this many columns on, the location column is wider."""


def short_location(item: TriageItem) -> str:
    """The file and its folder (`retry-after-on-429/task.yaml:2`): the detail pane below the
    list has the full path."""
    short = "/".join(item.path.split("/")[-2:])
    return short if item.line is None else f"{short}:{item.line}"


def _keep_end(text: str, width: int) -> str:
    """`text` cut from the left to `width` cells (`…/task.yaml:12`): the file and the line are
    what a location is read for."""
    if cell_len(text) <= width:
        return text
    kept = text
    while kept and cell_len(kept) > width - 1:
        kept = kept[1:]
    return "…" + kept


def row_text(item: TriageItem, marked: bool, width: int) -> Text:
    """One row, exactly `width` cells: `● error     title…     retry-after-on-429/task.yaml:2`."""
    location_width = 32 if width >= WIDE else 22
    title_width = max(width - 2 - (KIND_WIDTH + 1) - 1 - location_width, 8)
    title = Text(printable(item.title, lines=False), no_wrap=True)
    title.truncate(title_width, overflow="ellipsis", pad=True)
    where = Text(
        _keep_end(printable(short_location(item), lines=False), location_width),
        style="dim",
        no_wrap=True,
    )
    where.truncate(location_width, pad=True)
    text = Text(no_wrap=True, end="")
    text.append("● " if marked else "  ", style="bold green")
    text.append(item.kind.ljust(KIND_WIDTH)[:KIND_WIDTH], style=KIND_STYLE[item.kind])
    text.append(" ")
    text.append_text(title)
    text.append(" ")
    text.append_text(where)
    text.truncate(width, pad=True)
    return text


class TriageList(ScrollView, can_focus=True):
    """Rows of the queue with a cursor; `Highlighted` when the cursor moves, `Selected` on
    `enter` (or a click on the row under the cursor)."""

    DEFAULT_CSS = """
    TriageList > .triage-list--cursor {
        background: $block-cursor-background;
        color: $block-cursor-foreground;
        text-style: bold;
    }
    TriageList:blur > .triage-list--cursor {
        background: $block-cursor-blurred-background;
        text-style: none;
    }
    """
    COMPONENT_CLASSES: ClassVar[set[str]] = {"triage-list--cursor"}

    SCOPE = "triage-list"
    BINDINGS: ClassVar[list[BindingType]] = bindings("triage-list")

    class Highlighted(Message):
        def __init__(self, triage_list: TriageList, index: int | None) -> None:
            super().__init__()
            self.triage_list = triage_list
            self.index = index

        @property
        def control(self) -> TriageList:
            return self.triage_list

    class Selected(Message):
        def __init__(self, triage_list: TriageList, index: int) -> None:
            super().__init__()
            self.triage_list = triage_list
            self.index = index

        @property
        def control(self) -> TriageList:
            return self.triage_list

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.items: list[TriageItem] = []
        self.marked: set[str] = set()
        self._cursor: int | None = None

    # --- content -------------------------------------------------------------------------------

    def set_rows(self, items: Sequence[TriageItem], marked: set[str], cursor: int | None) -> None:
        self.items = list(items)
        self.marked = marked
        self.virtual_size = Size(self.size.width, len(self.items))
        self._cursor = None
        self.highlighted = cursor if cursor is not None or not self.items else 0
        self.refresh()

    def refresh_row(self, index: int) -> None:
        self.refresh_lines(index - self.scroll_offset.y, 1)

    # --- the cursor ----------------------------------------------------------------------------

    @property
    def highlighted(self) -> int | None:
        return self._cursor

    @highlighted.setter
    def highlighted(self, index: int | None) -> None:
        if not self.items:
            index = None
        elif index is not None:
            index = min(max(index, 0), len(self.items) - 1)
        old, self._cursor = self._cursor, index
        if old is not None:
            self.refresh_row(old)
        if index is not None:
            self.refresh_row(index)
            self._keep_in_view(index)
        if old != index:
            self.post_message(self.Highlighted(self, index))

    def _keep_in_view(self, index: int) -> None:
        height = max(self.scrollable_content_region.height, 1)
        top = self.scroll_offset.y
        if index < top:
            self.scroll_to(y=index, animate=False)
        elif index >= top + height:
            self.scroll_to(y=index - height + 1, animate=False)

    def action_cursor(self, step: int) -> None:
        """Arrows move by one and wrap around at the ends."""
        if not self.items:
            return
        here = self._cursor if self._cursor is not None else -step
        self.highlighted = (here + step) % len(self.items)

    def action_page(self, step: int) -> None:
        if self.items:
            height = max(self.scrollable_content_region.height - 1, 1)
            self.highlighted = (self._cursor or 0) + step * height

    def action_first(self) -> None:
        self.highlighted = 0

    def action_last(self) -> None:
        self.highlighted = len(self.items) - 1

    def action_select(self) -> None:
        if self._cursor is not None:
            self.post_message(self.Selected(self, self._cursor))

    def on_click(self, event: events.Click) -> None:
        index = event.y + self.scroll_offset.y
        if 0 <= index < len(self.items):
            if index == self._cursor:
                self.post_message(self.Selected(self, index))
            self.highlighted = index

    def on_resize(self) -> None:
        self.virtual_size = Size(self.size.width, len(self.items))

    # --- drawing -------------------------------------------------------------------------------

    def render_line(self, y: int) -> Strip:
        width = self.scrollable_content_region.width or self.size.width
        index = y + self.scroll_offset.y
        base = self.rich_style
        if index >= len(self.items):
            return Strip.blank(width, base)
        item = self.items[index]
        text = row_text(item, item.key in self.marked, width)
        segments = list(text.render(self.app.console))
        style: Style = base
        if index == self._cursor:
            style = base + self.get_component_rich_style("triage-list--cursor")
            segments = list(Segment.apply_style(segments, post_style=style))
        else:
            segments = list(Segment.apply_style(segments, style=base))
        return Strip(segments).crop_extend(0, width, style)
