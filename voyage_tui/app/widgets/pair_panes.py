"""The two sides of a pair being rated: the task (prompt, ground truth, boundary, the fixture's
scoring notes, its context) and the run (output as Markdown, the patch as a highlighted diff, the
transcript); tables and code at their natural width (widgets/readable.py), the pane scrolls
sideways to them.

Everything shown comes from the engine's PairContent, which in blind mode has already dropped
the agent's label and the run's metadata; these widgets add no name of their own either (a
diagnostic's path would show the run's file name, so a blind pane gives only its message).
"""

from __future__ import annotations

from typing import Any

from rich.table import Table
from rich.text import Text
from textual.widget import Widget
from textual.widgets import Static

from voyage_tui.app.widgets.readable import code, context_widgets, markdown_widgets
from voyage_tui.app.widgets.safe_text import printable
from voyage_tui.engine.diagnostics import Diagnostic
from voyage_tui.engine.ratings.content import PairContent

TRANSCRIPT_STEPS = 200
"""Steps of a transcript shown; the rest are counted, not drawn (a run's file may be 1 MiB)."""


def one_line(text: str) -> str:
    """Prose on one line (its whitespace runs as single spaces), safe to draw."""
    return printable(" ".join(text.split()), lines=False)


def _section(title: str) -> Static:
    return Static(Text(title, style="bold"), classes="section-title")


def _problems(problems: list[Diagnostic], *, with_paths: bool) -> list[Widget]:
    if not problems:
        return []
    text = Text()
    for problem in problems:
        if with_paths:
            text.append(f"{printable(problem.location(), lines=False)}: ", style="bold")
        text.append(f"{problem.severity.value} {problem.code}: ", style="red")
        text.append(printable(problem.message) + "\n")
    text.rstrip()
    return [Static(text, classes="pair-problems")]


def task_widgets(content: PairContent) -> list[Widget]:
    task = content.task
    widgets: list[Widget] = [
        Static(
            Text.assemble(("Task  ", "bold"), (printable(task.path, lines=False), "dim")),
            classes="pane-title",
        )
    ]
    widgets += _problems(task.problems, with_paths=True)
    widgets += [
        _section("Prompt"),
        *markdown_widgets(printable(task.prompt), empty="*(no prompt)*"),
    ]
    widgets += context_widgets(task.context, _section)
    widgets += [
        _section("Ground truth"),
        *markdown_widgets(printable(task.ground_truth), empty="*(no ground truth)*"),
    ]
    if task.expected_boundary:
        widgets += [
            Static(
                Text.assemble(
                    ("Expected boundary  ", "bold"), printable(task.expected_boundary, lines=False)
                ),
                classes="section-title",
            )
        ]
    if task.scoring_notes:
        widgets += [_section("Scoring notes"), Static(_notes_text(content))]
    return widgets


def _notes_text(content: PairContent) -> Text:
    text = Text()
    for name, notes in content.task.scoring_notes.items():
        text.append(printable(name, lines=False), style="bold cyan")
        text.append("\n")
        for line in notes.text:
            text.append(f"  {one_line(line)}\n")
        for score, anchor in sorted(notes.anchors.items()):
            text.append(f"  {score}  ", style="bold")
            text.append(f"{one_line(anchor)}\n")
    text.rstrip()
    return text


def run_widgets(content: PairContent) -> list[Widget]:
    run = content.run
    title = Text("Run  ", style="bold")
    if content.blind:
        title.append("blind: the agent is hidden", style="dim")
    elif run.agent:
        title.append(f"agent {printable(run.agent, lines=False)}", style="bold yellow")
    if not content.blind:
        title.append(f"  {printable(run.path, lines=False)}", style="dim")
    widgets: list[Widget] = [Static(title, classes="pane-title")]
    widgets += _problems(run.problems, with_paths=not content.blind)
    if run.metadata:
        widgets.append(Static(_metadata_table(run.metadata)))
    widgets += [_section("Output"), *markdown_widgets(printable(run.output), empty="*(no output)*")]
    if run.patch is not None and run.patch.strip():
        widgets += [_section("Patch"), code(printable(run.patch), "diff")]
    if run.transcript:
        widgets += [_section("Transcript"), Static(transcript_text(run.transcript))]
    return widgets


def _metadata_table(metadata: dict[str, Any]) -> Table:
    table = Table.grid(padding=(0, 2))
    table.add_column(style="bold")
    table.add_column()
    for key, value in metadata.items():
        table.add_row(Text(one_line(str(key))), Text(one_line(str(value))))
    return table


def transcript_text(transcript: str | list[Any]) -> Text:
    """A transcript compactly: one line per step, `role name: input → output`."""
    if isinstance(transcript, str):
        return Text(printable(transcript))
    text = Text()
    for step in transcript[:TRANSCRIPT_STEPS]:
        if not isinstance(step, dict):
            text.append(f"{one_line(str(step))}\n")
            continue
        role = one_line(str(step.get("role", "")))
        name = step.get("name")
        text.append(role, style="bold cyan" if role == "tool" else "bold")
        if name:
            text.append(f" {one_line(str(name))}", style="cyan")
        text.append(": ")
        text.append(one_line(str(step.get("text", step.get("input", "")))))
        output = step.get("output")
        if output is not None:
            text.append(" → ", style="dim")
            text.append(one_line(str(output)), style="dim")
        text.append("\n")
    hidden = len(transcript) - TRANSCRIPT_STEPS
    if hidden > 0:
        text.append(f"… {hidden} more steps in the file", style="dim italic")
    text.rstrip()
    return text
