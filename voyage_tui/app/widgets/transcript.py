"""An agent run's transcript for reading: one block per message, its role as the heading, tool
calls folded (a Collapsible per call, closed), bounded so a huge log stays quick to show.

A transcript is a list of messages or free text. A message is what `voyage-tui import` writes
(`role`, `content`, `tool_calls` of `{function, arguments}`) or the hand-written shape of the
sample's runs (`role`, `text`, and for a tool step `name`, `input`, `output`): a tool step is
folded like a call.
"""

from __future__ import annotations

from typing import Any, cast

from rich.text import Text
from textual.content import Content
from textual.widget import Widget
from textual.widgets import Collapsible, Static

SHOWN_MESSAGES = 100
SHOWN_CHARS = 4_000
ROLE_STYLES = {
    "user": "bold green",
    "assistant": "bold cyan",
    "system": "bold magenta",
    "tool": "bold yellow",
    "note": "italic dim",
}


def _cut(text: str, limit: int = SHOWN_CHARS) -> str:
    if len(text) <= limit:
        return text
    return text[:limit] + f"\n… {len(text) - limit} more characters (open the file to read them)"


def _plain(title: str) -> str:
    """A fold's title as plain text: Collapsible would read a string as markup, and a
    transcript's `[` is the agent's, not a style."""
    return cast(str, Content(title))  # typed str by Collapsible, drawn as Content by its title


def source_rows(metadata: Any) -> list[tuple[str, Any]]:
    """Where an imported run came from (SPEC 3.13's metadata): harness, log, sample, epoch,
    model and the harness's own scores; nothing for a run written by hand."""
    if not isinstance(metadata, dict) or not isinstance(metadata.get("source"), str):
        return []
    outcome = metadata.get("outcome")
    scores = (
        ", ".join(f"{k} {v:g}" for k, v in outcome.items() if isinstance(v, int | float))
        if isinstance(outcome, dict)
        else None
    )
    return [
        ("source", metadata.get("source")),
        ("log", metadata.get("log")),
        ("sample", metadata.get("sample")),
        ("epoch", metadata.get("epoch")),
        ("model", metadata.get("model")),
        ("outcome", scores),
    ]


def transcript_widgets(transcript: Any) -> list[Widget]:
    if isinstance(transcript, str):
        return [Static(Text(_cut(transcript, SHOWN_CHARS * 4)))]
    if not isinstance(transcript, list):
        return []
    widgets: list[Widget] = []
    for message in transcript[:SHOWN_MESSAGES]:
        if not isinstance(message, dict):
            widgets.append(Static(Text(_cut(str(message)))))
            continue
        widgets += _message(message)
        calls = message.get("tool_calls")
        for call in calls if isinstance(calls, list) else []:
            if not isinstance(call, dict):
                continue
            arguments = call.get("arguments")
            text = arguments if isinstance(arguments, str) else str(arguments)
            widgets.append(
                Collapsible(
                    Static(Text(_cut(text))),
                    title=_plain(f"tool call: {call.get('function', '?')}"),
                    collapsed=True,
                )
            )
    if len(transcript) > SHOWN_MESSAGES:
        more = len(transcript) - SHOWN_MESSAGES
        widgets.append(Static(Text(f"… {more} more messages in the file", style="italic dim")))
    return widgets


def _message(message: dict[str, Any]) -> list[Widget]:
    role = str(message.get("role", "?"))
    heading = Text(role, style=ROLE_STYLES.get(role, "bold"))
    if isinstance(message.get("function"), str):
        heading.append(f" ({message['function']})", style="dim")
    content = message.get("content", message.get("text"))
    text = content if isinstance(content, str) else str(content or "")
    out: list[Widget] = []
    step = "input" in message or "output" in message
    if text or not step:
        out.append(
            Static(Text.assemble(heading, "\n", Text(_cut(text))), classes="transcript-message")
        )
    if step:
        name = message.get("name", role)
        first = str(message.get("input", "")).split("\n", 1)[0]
        parts = [f"input: {message.get('input', '')}"]
        if "output" in message:
            parts.append(f"output: {message.get('output', '')}")
        out.append(
            Collapsible(
                Static(Text(_cut("\n".join(parts)))),
                title=_plain(_cut(f"{name}: {first}", 80)),
                collapsed=True,
            )
        )
    return out
