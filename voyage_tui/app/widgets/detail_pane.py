"""The selected item, rendered for reading: a task's prompt and ground truth as Markdown, a
trajectory's phases and gates as a checklist against the journey, a gold file's findings."""

from __future__ import annotations

import asyncio
import dataclasses
from collections.abc import Callable
from typing import Any

import yaml
from rich.console import Console, ConsoleOptions, RenderResult
from rich.measure import Measurement
from rich.syntax import Syntax
from rich.table import Table
from rich.text import Text
from textual.containers import Horizontal, VerticalScroll
from textual.widget import Widget
from textual.widgets import Markdown, Static

from voyage_tui.app.widgets.readable import context_widgets
from voyage_tui.app.widgets.safe_text import printable
from voyage_tui.app.widgets.transcript import source_rows, transcript_widgets
from voyage_tui.engine.details import MISSING, RECORDED, SKIPPED, TRAVERSED, Detail
from voyage_tui.engine.diagnostics import Diagnostic
from voyage_tui.engine.items import AgentRunFacts, Facts, GoldFacts
from voyage_tui.engine.kinds import FileKind
from voyage_tui.engine.wording import plural

PHASE_MARKS = {TRAVERSED: ("✓", "green"), SKIPPED: ("↷", "yellow"), MISSING: ("·", "dim")}
GATE_MARKS = {"pass": ("✓", "green"), "conditional": ("◐", "yellow"), "blocked": ("✗", "red")}


def _field_table(rows: list[tuple[str, Any]]) -> Table:
    table = Table.grid(padding=(0, 2))
    table.add_column(style="bold cyan", no_wrap=True)
    # A long value (a path) is folded onto more lines, never cut: the pane's width is used
    # and nothing is hidden behind an ellipsis.
    table.add_column(overflow="fold")
    for name, value in rows:
        if value is None or value == "":
            continue
        table.add_row(name, value if isinstance(value, Text) else str(value))
    return table


def _section(title: str) -> Static:
    return Static(Text(title, style="bold underline"), classes="section-title")


def _as_text(value: Any) -> str:
    if isinstance(value, str):
        return value
    return yaml.safe_dump(value, sort_keys=False, allow_unicode=True).strip()


def task_widgets(detail: Detail) -> list[Widget]:
    item = detail.item
    widgets: list[Widget] = [
        Static(
            _field_table(
                [
                    ("class", detail.field("class")),
                    ("boundary", detail.field("expected_boundary")),
                    ("visibility", detail.field("visibility")),
                    ("canary", item.canary),
                    ("adversarial intent", detail.field("adversarial_intent")),
                ]
            )
        ),
        _section("Prompt"),
        Markdown(_as_text(detail.field("prompt") or "")),
        _section("Ground truth"),
        Markdown(_as_text(detail.field("ground_truth") or "")),
    ]
    # Code blocks and files at their natural width: the pane scrolls sideways (browser.tcss).
    widgets += context_widgets(detail.context, _section)
    if detail.field("harness_constraints") is not None:
        widgets += [
            _section("Harness constraints"),
            Static(_as_text(detail.field("harness_constraints"))),
        ]
    notes = detail.field("scoring_notes")
    if isinstance(notes, dict) and notes:
        widgets.append(_section("Scoring notes"))
        widgets.append(Static(_field_table([(str(k), _as_text(v)) for k, v in notes.items()])))
    return widgets


def checklist(detail: Detail) -> Text:
    text = Text()
    text.append("Phases\n", style="bold")
    for row in detail.phases:
        mark, style = PHASE_MARKS[row.status]
        text.append(f" {mark} ", style=style)
        text.append(f"{row.number}: {row.name}")
        if row.status == SKIPPED:
            text.append(f"  skipped: {row.reason}", style="yellow")
        elif row.status == MISSING:
            text.append("  not traversed", style="dim")
        text.append("\n")
    text.append("Gates\n", style="bold")
    for gate in detail.gates:
        if gate.status == RECORDED:
            mark, style = GATE_MARKS.get(gate.verdict, ("?", "red"))
            text.append(f" {mark} ", style=style)
            text.append(f"gate-{gate.number} ")
            text.append(gate.verdict, style=style)
            text.append(f"  {gate.description}", style="dim")
        elif gate.status == SKIPPED:
            text.append(" ↷ ", style="yellow")
            text.append(f"gate-{gate.number}  skipped: {gate.reason}", style="yellow")
        else:
            text.append(" · ", style="dim")
            text.append(f"gate-{gate.number}  not recorded", style="dim")
        text.append("\n")
    return text


def trajectory_widgets(detail: Detail, routing_table: str) -> list[Widget]:
    widgets: list[Widget] = [
        Static(
            _field_table(
                [
                    ("path", detail.field("path")),
                    ("terminal state", detail.field("terminal_state")),
                    ("visibility", detail.field("visibility")),
                    ("final_head_sha", detail.field("final_head_sha")),
                    ("canary", detail.item.canary),
                ]
            )
        ),
        _section("Prompt"),
        Markdown(_as_text(detail.field("prompt") or "")),
        _section("Journey"),
        Static(checklist(detail)),
    ]
    selected = detail.field("routing_selected")
    skipped = detail.field("routing_skipped")
    if selected is not None or skipped is not None:
        routing = Text()
        routing.append("selected\n", style="bold")
        for name in str(selected or "").split(","):
            if name.strip():
                routing.append(f"  {name.strip()}\n")
        routing.append("skipped\n", style="bold")
        for entry in str(skipped or "").split("|"):
            if entry.strip():
                routing.append(f"  {entry.strip()}\n")
        routing.append("\ncheck by hand against the table →", style="dim italic")
        widgets += [
            _section("Routing (metadata, not validated)"),
            Horizontal(
                Static(routing, classes="routing-fields"),
                Markdown(routing_table, classes="routing-table"),
                classes="routing",
            ),
        ]
    return widgets


FINDING_COLUMNS = ("file", "line", "rule_key", "severity", "owner", "dual_flaggable")
SHARED_COLUMNS = ("file", "rule_key", "dual_flaggable")
"""The columns of long values: they share the pane's width; the others keep what they need."""

MIN_SHARED_WIDTH = 12
"""Narrower than this for a long column, and the findings are listed rather than tabled."""


def _finding_rows(data: dict[str, Any]) -> list[tuple[str, ...]]:
    findings = data.get("findings")
    return [
        (
            str(finding.get("file", "")),
            str(finding.get("line", "")),
            str(finding.get("rule_key", "")),
            str(finding.get("severity", "")),
            str(finding.get("owner_reviewer", "")),
            str(finding.get("dual_flaggable", "") or ""),
        )
        for finding in (findings if isinstance(findings, list) else [])
        if isinstance(finding, dict)
    ]


class FindingsTable:
    """A gold file's findings, laid out for the width the pane has at each render: a table
    whose short columns (line, severity, owner) take what they need and whose long ones
    share the rest in proportion to their longest value; where even that leaves a long column
    too narrow to read (80x24), one finding per entry instead. Long values fold onto more
    lines; none ends in an ellipsis."""

    def __init__(self, data: dict[str, Any]) -> None:
        self.rows = _finding_rows(data)
        self.longest = [
            max([len(name), *(len(row[i]) for row in self.rows)])
            for i, name in enumerate(FINDING_COLUMNS)
        ]

    def __rich_measure__(self, console: Console, options: ConsoleOptions) -> Measurement:
        return Measurement(min(20, options.max_width), options.max_width)

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        if self._fits(options.max_width):
            yield self.table()
        else:
            yield self.listing()

    def _fits(self, width: int) -> bool:
        fixed = sum(
            self.longest[i] + 3  # a cell's padding and its separator
            for i, name in enumerate(FINDING_COLUMNS)
            if name not in SHARED_COLUMNS
        )
        shared = width - fixed - 3 * len(SHARED_COLUMNS)
        return shared >= MIN_SHARED_WIDTH * len(SHARED_COLUMNS)

    def table(self) -> Table:
        table = Table(show_edge=False, expand=True)
        for index, column in enumerate(FINDING_COLUMNS):
            table.add_column(
                column,
                no_wrap=column in ("line", "severity"),
                overflow="fold",
                ratio=self.longest[index] if column in SHARED_COLUMNS else None,
            )
        for row in self.rows:
            table.add_row(*row)
        return table

    def listing(self) -> Table:
        table = Table.grid(expand=True)
        table.add_column(overflow="fold")
        for file, line, rule_key, severity, owner, dual in self.rows:
            entry = Text()
            entry.append(f"{file}:{line}", style="bold")
            entry.append(f"  {severity}\n")
            entry.append(f"  {rule_key}", style="cyan")
            if owner:
                entry.append(f" · {owner}", style="dim")
            if dual:
                entry.append(f" · dual: {dual}", style="dim")
            table.add_row(entry)
        return table


def findings_table(data: dict[str, Any]) -> FindingsTable:
    return FindingsTable(data)


def gold_widgets(detail: Detail) -> list[Widget]:
    data = detail.data if isinstance(detail.data, dict) else {}
    table = findings_table(data)
    return [
        Static(
            _field_table(
                [
                    ("description", data.get("description")),
                    ("source", data.get("source")),
                    ("expected verdict", data.get("expected_verdict")),
                    ("readme", _readme(detail)),
                ]
            )
        ),
        _section("Findings"),
        Static(table),
    ]


def _readme(detail: Detail) -> str | None:
    facts = detail.item.facts
    return facts.readme if isinstance(facts, GoldFacts) else None


def gold_run_widgets(detail: Detail) -> list[Widget]:
    data = detail.data if isinstance(detail.data, list) else []
    text = Text()
    for payload in data:
        if not isinstance(payload, dict):
            continue
        listed = payload.get("findings")
        findings = listed if isinstance(listed, list) else []
        text.append(f"{payload.get('reviewer', '?')}", style="bold")
        text.append(f"  {plural(len(findings), 'finding')}\n", style="dim")
        for finding in findings:
            if isinstance(finding, dict):
                text.append(
                    f"  {finding.get('severity', '?'):<10} {finding.get('file', '?')}:{finding.get('line', '?')}  {finding.get('rule_key', '?')}\n"
                )
    return [
        Static(_field_table([("gold", detail.item.parent), ("reviewers", len(data))])),
        _section("Reviewer payloads"),
        Static(text),
    ]


def agent_run_widgets(detail: Detail) -> list[Widget]:
    widgets: list[Widget] = [
        Static(
            _field_table(
                [
                    ("run", detail.field("run_id")),
                    ("agent", detail.field("agent")),
                    ("fixture", detail.item.parent),
                    *source_rows(detail.field("metadata")),
                ]
            )
        ),
        _section("Output"),
        Markdown(_as_text(detail.field("output") or "")),
    ]
    patch = detail.field("patch")
    if isinstance(patch, str) and patch.strip():
        widgets += [
            _section("Patch"),
            Static(Syntax(patch, "diff", word_wrap=True, theme="ansi_dark")),
        ]
    transcript = transcript_widgets(detail.field("transcript"))
    if transcript:
        widgets += [_section("Transcript"), *transcript]
    return widgets


KindWidgets = Callable[[Detail, str], list[Widget]]
"""(the item's detail, the routing table) -> the widgets above its diagnostics."""

KIND_WIDGETS: dict[FileKind, KindWidgets | None] = {
    FileKind.TASK: lambda detail, _: task_widgets(detail),
    FileKind.TRAJECTORY: trajectory_widgets,
    FileKind.AGENT_RUN: lambda detail, _: agent_run_widgets(detail),
    FileKind.GOLD: lambda detail, _: gold_widgets(detail),
    FileKind.GOLD_RUN: lambda detail, _: gold_run_widgets(detail),
    FileKind.RATING: None,  # its records' problems are the diagnostics below
    FileKind.ADJUDICATION: None,  # as a ratings file's
    FileKind.REFERENCE: None,  # never an item
    FileKind.CONFIG: None,
    FileKind.MISPLACED_TASK: None,
    FileKind.OTHER: None,
}
"""What the pane shows of an item of each kind (the detail concern's face; how the file is read
is the engine's `DETAIL_FORMAT`)."""


def _printable_facts(facts: Facts | None) -> Facts | None:
    """`facts` with every text made safe to draw."""
    if isinstance(facts, GoldFacts):
        return dataclasses.replace(
            facts,
            description=printable(facts.description),
            expected_verdict=printable(facts.expected_verdict),
            readme=printable(facts.readme) if facts.readme is not None else None,
        )
    if isinstance(facts, AgentRunFacts):
        return dataclasses.replace(facts, agent=printable(facts.agent))
    return facts  # numbers and flags only


def _printable_value(value: Any) -> Any:
    """`value` (a parsed document, or part of one) with every string, keys too, made safe to
    draw: what a workspace's file says is shown, never sent to the terminal as a sequence."""
    if isinstance(value, str):
        return printable(value)
    if isinstance(value, list):
        return [_printable_value(v) for v in value]
    if isinstance(value, dict):
        return {_printable_value(k): _printable_value(v) for k, v in value.items()}
    return value


def printable_detail(detail: Detail) -> Detail:
    """A copy of `detail` whose every text from the workspace (the document, the file's path
    and id, the journey's names, a load problem) is escaped as `printable` does."""
    item = detail.item

    def line(text: str | None) -> str | None:
        return printable(text, lines=False) if text is not None else None

    shown = dataclasses.replace(
        item,
        path=printable(item.path, lines=False),
        id=line(item.id),
        parent=line(item.parent),
        canary=line(item.canary),
        facts=_printable_facts(item.facts),
    )
    problem = detail.load_problem
    return Detail(
        shown,
        _printable_value(detail.data),
        printable(detail.text),
        [
            dataclasses.replace(r, name=printable(r.name), reason=printable(r.reason))
            for r in detail.phases
        ],
        [
            dataclasses.replace(
                g,
                description=printable(g.description),
                verdict=printable(g.verdict),
                reason=printable(g.reason),
            )
            for g in detail.gates
        ],
        Diagnostic(
            problem.path,
            problem.line,
            problem.column,
            problem.severity,
            problem.code,
            printable(problem.message),
        )
        if problem
        else None,
        detail.context,  # context_widgets makes its text printable
    )


class DetailPane(VerticalScroll):
    HELP = """
## Detail

The selected item's fields. Below them, its diagnostics.
"""

    async def show_detail(
        self,
        detail: Detail | None,
        routing_table: str = "",
        empty: str = "Select an item in the tree.",
    ) -> None:
        """Show one item's detail; with none, the line `empty`."""
        # Shielded: a render is replaced (its worker cancelled) as the cursor or the filter
        # moves, and cancelling this await would cancel the old widgets' own tasks, which the
        # app awaits too; the CancelledError would end the app without a word.
        await asyncio.shield(self.remove_children())
        if detail is None:
            await self.mount(Static(Text(empty, style="dim")))
            return
        detail = printable_detail(detail)
        routing_table = printable(routing_table)
        item = detail.item
        title = Text()
        title.append(item.id or item.path, style="bold")
        title.append(f"  {item.kind}  ", style="dim")
        title.append(item.path, style="dim italic")
        widgets: list[Widget] = [Static(title, classes="detail-title")]
        if detail.data is None:
            problem = (
                detail.load_problem.message
                if detail.load_problem
                else "the file could not be loaded"
            )
            widgets.append(Static(Text(f"Not loaded: {problem}", style="red")))
        elif (kind_widgets := KIND_WIDGETS[item.kind]) is not None:
            widgets += kind_widgets(detail, routing_table)
        await self.mount_all(widgets)
        self.scroll_home(animate=False)
