"""Shared markdown-it-py helpers: one parser, plain text of inline tokens."""

from __future__ import annotations

from functools import lru_cache

from markdown_it import MarkdownIt
from markdown_it.token import Token


@lru_cache(maxsize=1)
def parser() -> MarkdownIt:
    return MarkdownIt("commonmark").enable("table")


def parse(text: str) -> list[Token]:
    return parser().parse(text)


def plain(inline: Token) -> str:
    """The text of an inline token without its markup (emphasis, code spans, links)."""
    if not inline.children:
        return inline.content.strip()
    parts: list[str] = []
    for child in inline.children:
        if child.type in ("text", "code_inline"):
            parts.append(child.content)
        elif child.type in ("softbreak", "hardbreak"):
            parts.append("\n")
    return "".join(parts).strip()


def line_of(token: Token) -> int | None:
    """1-based line of a block token."""
    return token.map[0] + 1 if token.map else None
