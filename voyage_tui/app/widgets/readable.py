"""Markdown and code for reading in a pane, wide things at their natural width.

Textual's Markdown shrinks a table to its container, so a table in a narrow pane cuts its cells
(`sql-inj…`), and a code block is clipped at the pane's edge. Here the tables and code blocks at
the top level of a text are taken out of the Markdown and drawn as widgets of their natural
width (a column as wide as its longest cell, up to WIDEST_COLUMN; a code line up to WIDEST),
between Markdown widgets for the prose, which wraps at the pane's width. The pane scrolls
sideways (`overflow-x: auto` in its stylesheet) to reach what is wider than it; nothing is cut.

The text given is drawn as it is: the callers make workspace text printable first.
"""

from __future__ import annotations

from collections.abc import Callable

from markdown_it import MarkdownIt
from markdown_it.token import Token
from rich import box
from rich.console import RenderableType
from rich.measure import Measurement
from rich.syntax import Syntax
from rich.table import Table
from rich.text import Text
from textual.geometry import Size
from textual.widget import Widget
from textual.widgets import Markdown, Static

from voyage_tui.app.widgets.safe_text import printable
from voyage_tui.engine.rules.task_context import CONTEXT_FILE_CHARS, TaskContext

WIDEST_COLUMN = 60
"""A table column's widest: a longer cell wraps inside its column (never cut)."""

WIDEST = 400
"""A table's or code block's widest: a longer code line wraps (a minified line would otherwise
be thousands of columns)."""

CODE_THEME = "ansi_dark"


class Wide(Static):
    """A renderable at its natural width, however narrow its container: the container scrolls
    sideways to show it. (Static measures a renderable against its container, which would
    bring the table or code back to the pane's width.)"""

    DEFAULT_CSS = """
    Wide {
        width: auto;
        height: auto;
        margin-bottom: 1;
    }
    """

    def __init__(self, renderable: RenderableType, widest: int, classes: str = "") -> None:
        super().__init__(renderable, classes=classes)
        self._renderable = renderable
        self._widest = widest

    def get_content_width(self, container: Size, viewport: Size) -> int:
        console = self.app.console
        options = console.options.update_width(self._widest)
        return Measurement.get(console, options, self._renderable).maximum


def _inline(token: Token | None) -> Text:
    """A table cell's inline Markdown as text: code, bold, italics and links kept as styles."""
    text = Text()
    styles: list[str] = []
    for child in (token.children or []) if token is not None else []:
        kind = child.type
        if kind in ("strong_open", "em_open", "s_open", "link_open"):
            styles.append(
                {"strong_open": "bold", "em_open": "italic", "s_open": "strike"}.get(
                    kind, "underline"
                )
            )
        elif kind in ("strong_close", "em_close", "s_close", "link_close") and styles:
            styles.pop()
        elif kind == "code_inline":
            text.append(child.content, style=" ".join([*styles, "bold cyan"]))
        elif kind in ("softbreak", "hardbreak"):
            text.append(" ")
        else:
            text.append(child.content, style=" ".join(styles))
    return text


def table_of(tokens: list[Token]) -> Table:
    """A Rich table from the tokens of one Markdown table (`table_open` to `table_close`)."""
    table = Table(box=box.SQUARE, show_lines=True, header_style="bold", padding=(0, 1))
    rows: list[list[Text]] = []
    in_body = False
    for index, token in enumerate(tokens):
        if token.type == "th_open":
            table.add_column(_inline(tokens[index + 1]), max_width=WIDEST_COLUMN, overflow="fold")
        elif token.type == "tbody_open":
            in_body = True
        elif token.type == "tr_open" and in_body:
            rows.append([])
        elif token.type == "td_open" and rows:
            rows[-1].append(_inline(tokens[index + 1]))
    for row in rows:
        table.add_row(*row)
    return table


def code(text: str, lexer: str, *, line_numbers: bool = False) -> Wide:
    """Code at its natural width, highlighted."""
    syntax = Syntax(
        text.rstrip("\n"),
        lexer or "text",
        theme=CODE_THEME,
        word_wrap=True,
        line_numbers=line_numbers,
    )
    return Wide(syntax, WIDEST, classes="code")


def markdown_widgets(text: str, *, empty: str = "") -> list[Widget]:
    """`text` as Markdown widgets for its prose and Wide widgets for its top-level tables and
    code blocks, in order."""
    if not text.strip():
        return [Markdown(empty)] if empty else []
    lines = text.splitlines()
    tokens = MarkdownIt("gfm-like").parse(text)
    widgets: list[Widget] = []
    start = 0  # the first line not yet shown

    def prose(until: int) -> None:
        chunk = "\n".join(lines[start:until])
        if chunk.strip():
            widgets.append(Markdown(chunk))

    index = 0
    while index < len(tokens):
        token = tokens[index]
        wide: Widget | None = None
        end = index
        if token.level == 0 and token.map is not None:
            if token.type == "table_open":
                end = next(i for i in range(index, len(tokens)) if tokens[i].type == "table_close")
                wide = Wide(table_of(tokens[index : end + 1]), WIDEST, classes="table")
            elif token.type in ("fence", "code_block"):
                wide = code(token.content, token.info.split()[0] if token.info.strip() else "")
        if wide is not None and token.map is not None:
            first, last = token.map
            prose(first)
            widgets.append(wide)
            start = last
        index = end + 1
    prose(len(lines))
    return widgets


def context_widgets(context: TaskContext, title: Callable[[str], Widget]) -> list[Widget]:
    """A task's `context` (engine/rules/task_context.py): inline text as Markdown with its code
    blocks, each file named and shown as code; `title` makes a section's heading."""
    if not context.parts and not context.files_left_out:
        return []
    widgets: list[Widget] = [title("Context")]
    for part in context.parts:
        if part.file is None:
            widgets += markdown_widgets(printable(part.text))
            continue
        name = Text.assemble(("file ", "dim"), (printable(part.file, lines=False), "bold"))
        if part.problem is not None:
            name.append(f"  not shown: {printable(part.problem.message)}", style="yellow")
            widgets.append(Static(name, classes="context-file"))
            continue
        widgets.append(Static(name, classes="context-file"))
        lexer = Syntax.guess_lexer(part.path or part.file, part.text)
        widgets.append(code(printable(part.text), lexer, line_numbers=True))
        if part.cut:
            widgets.append(
                Static(
                    Text(
                        f"… {part.cut} more characters in the file (the first "
                        f"{CONTEXT_FILE_CHARS} are shown)",
                        style="dim italic",
                    )
                )
            )
    if context.files_left_out:
        widgets.append(
            Static(
                Text(
                    f"… {context.files_left_out} more context files named, not shown",
                    style="dim italic",
                )
            )
        )
    return widgets
