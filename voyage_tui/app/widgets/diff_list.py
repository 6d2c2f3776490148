"""The diff rows, gold on the left and run on the right; each state has its own symbol and colour,
so the list reads the same in monochrome."""

from __future__ import annotations

from typing import Any

from rich.table import Table
from rich.text import Text
from textual.widgets.option_list import Option

from voyage_tui.app.widgets.key_list import KeyList
from voyage_tui.engine.review.rows import DUAL_SYMBOL, MATCHED, MISSED, SPURIOUS, DiffRow

STYLE = {MATCHED: "green", MISSED: "red", SPURIOUS: "yellow", DUAL_SYMBOL: "cyan"}
WORD = {MATCHED: "matched", MISSED: "missed", SPURIOUS: "spurious"}


def _side(row: DiffRow, gold: bool, show_file: bool) -> Text:
    text = Text()
    present = row.has_gold if gold else row.has_run
    if not present:
        text.append(
            "— not in the gold —" if gold else "— not found by the run —", style="dim italic"
        )
        return text
    if show_file:
        text.append(row.file, style="bold")
        text.append("  ")
    rule_key = row.rule_key if gold else (row.run_rule_key or row.rule_key)
    text.append(rule_key)
    severity = row.gold_severity if gold else row.run_severity
    line = row.gold_line if gold else row.run_line
    if severity:
        text.append(f"  {severity}", style="dim")
    if line is not None:
        text.append(f"  :{line}" if line else "  (file)", style="dim")
    if not gold and len(row.reviewers) > 1:
        text.append(f"  [{', '.join(row.reviewers)}]", style="dim italic")
    return text


def row_renderable(row: DiffRow, show_file: bool = True) -> Table:
    style = STYLE[DUAL_SYMBOL] if row.symbol == DUAL_SYMBOL else STYLE[row.state]
    grid = Table.grid(expand=True, padding=(0, 1))
    grid.add_column(width=2, no_wrap=True)
    grid.add_column(ratio=1)
    grid.add_column(width=1, no_wrap=True)
    grid.add_column(ratio=1)
    marker = Text(row.symbol, style=f"bold {style}")
    left = _side(row, True, show_file)
    right = _side(row, False, show_file)
    if row.differences:
        right.append("\n")
        right.append("; ".join(row.differences), style="italic yellow")
    grid.add_row(marker, left, Text("│", style="dim"), right)
    return grid


def column_titles() -> Table:
    grid = Table.grid(expand=True, padding=(0, 1))
    grid.add_column(width=2, no_wrap=True)
    grid.add_column(ratio=1)
    grid.add_column(width=1, no_wrap=True)
    grid.add_column(ratio=1)
    grid.add_row(
        Text(""), Text("gold", style="bold"), Text("│", style="dim"), Text("run", style="bold")
    )
    return grid


def file_header(file: str, count: int) -> Text:
    return Text(f"{file}  ({count})", style="bold underline")


class DiffList(KeyList):
    """Options are rows; with grouping, disabled file headers sit between them."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.rows: list[DiffRow | None] = []
        """Parallel to the options: the row of each option, None for a file header."""

    def show_rows(self, rows: list[DiffRow], grouped: bool) -> None:
        self.clear_options()
        self.rows = []
        options: list[Option] = []
        if grouped:
            files: dict[str, list[DiffRow]] = {}
            for row in rows:
                files.setdefault(row.file, []).append(row)
            for file, members in sorted(files.items()):
                options.append(Option(file_header(file, len(members)), disabled=True))
                self.rows.append(None)
                for row in members:
                    options.append(Option(row_renderable(row, show_file=False)))
                    self.rows.append(row)
        else:
            for row in rows:
                options.append(Option(row_renderable(row)))
                self.rows.append(row)
        if not options:
            options.append(Option(Text("no rows in this view", style="dim"), disabled=True))
            self.rows.append(None)
        self.add_options(options)
        first = next((i for i, r in enumerate(self.rows) if r is not None), None)
        if first is not None:
            self.highlighted = first

    def current_row(self) -> DiffRow | None:
        index = self.highlighted
        if index is None or index >= len(self.rows):
            return None
        return self.rows[index]

    def jump_to_difference(self, forward: bool) -> bool:
        indices = [i for i, r in enumerate(self.rows) if r is not None and r.is_difference]
        if not indices:
            return False
        here = self.highlighted if self.highlighted is not None else -1
        if forward:
            target = next((i for i in indices if i > here), indices[0])
        else:
            target = next((i for i in reversed(indices) if i < here), indices[-1])
        self.highlighted = target
        return True
