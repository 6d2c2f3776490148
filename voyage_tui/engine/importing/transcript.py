"""A harness's chat messages as a run's `transcript`: role, text and tool calls, bounded.

A log may hold thousands of messages of any length; the run file (and the detail pane that shows
it) keeps the first MAX_MESSAGES, each text cut at MAX_TEXT characters, and says what was left.
"""

from __future__ import annotations

import json
from typing import Any

MAX_MESSAGES = 400
MAX_TEXT = 20_000
MAX_ARGUMENTS = 4_000


def cut(text: str, limit: int) -> str:
    if len(text) <= limit:
        return text
    return text[:limit] + f"\n[... {len(text) - limit} more characters not imported]"


def text_of(content: Any) -> str:
    """A message's content as text: a string, or Inspect's list of content parts."""
    if isinstance(content, str):
        return content
    if not isinstance(content, list):
        return ""
    parts: list[str] = []
    for part in content:
        if isinstance(part, str):
            parts.append(part)
        elif isinstance(part, dict):
            kind = part.get("type")
            if kind == "text" and isinstance(part.get("text"), str):
                parts.append(part["text"])
            elif kind == "reasoning" and isinstance(part.get("reasoning"), str):
                parts.append(f"[reasoning] {part['reasoning']}")
            elif isinstance(kind, str):
                parts.append(f"[{kind}]")
    return "\n".join(parts)


def messages_of(messages: Any) -> list[dict[str, Any]]:
    if not isinstance(messages, list):
        return []
    out: list[dict[str, Any]] = []
    for message in messages[:MAX_MESSAGES]:
        if not isinstance(message, dict):
            continue
        role = message.get("role")
        entry: dict[str, Any] = {
            "role": role if isinstance(role, str) else "unknown",
            "content": cut(text_of(message.get("content")), MAX_TEXT),
        }
        calls = message.get("tool_calls")
        if isinstance(calls, list) and calls:
            entry["tool_calls"] = [_call(call) for call in calls if isinstance(call, dict)]
        if isinstance(message.get("function"), str):
            entry["function"] = message["function"]
        out.append(entry)
    if len(messages) > MAX_MESSAGES:
        out.append(
            {
                "role": "note",
                "content": f"{len(messages) - MAX_MESSAGES} more messages not imported",
            }
        )
    return out


def _call(call: dict[str, Any]) -> dict[str, Any]:
    arguments = call.get("arguments")
    text = arguments if isinstance(arguments, str) else json.dumps(arguments, ensure_ascii=False)
    function = call.get("function")
    return {
        "function": function if isinstance(function, str) else "?",
        "arguments": cut(text, MAX_ARGUMENTS),
    }
