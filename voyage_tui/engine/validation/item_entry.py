"""One item of the validation cache as a compact list, and back (cache.py describes the list,
"one item as a compact list"). Apart from cache.py so that reading the cache file imports no
Item: `validate`'s replay answers from the summaries and diagnostics alone (issue 23)."""

from __future__ import annotations

import dataclasses
from typing import Any

from voyage_tui.engine.items import FACTS, Facts, Item, stored_item
from voyage_tui.engine.kinds import FileKind
from voyage_tui.engine.loading.stamps import Stamp
from voyage_tui.engine.validation.cache import as_text, decode_diagnostics

__all__ = ["decode_item", "encode_item", "without_git"]


def _plain_facts(facts: Facts | None) -> list[Any] | None:
    """Facts as stored: their fields, plain data (bool, int, str, None) msgpack gives back."""
    return None if facts is None else facts.plain()


_KINDS = {kind.value: kind for kind in FileKind}


def _decode_facts(kind: FileKind, raw: object) -> Facts | None:
    if raw is None:
        return None
    facts = FACTS[kind]
    if facts is None or type(raw) is not list:
        raise TypeError("not the facts of this kind")
    return facts.from_plain(raw)


def encode_item(rel: str, own: Stamp, deps: list[list[Any]], item: Item) -> list[Any] | None:
    """The entry for `item`, or None when it cannot be stored exactly (then it is checked again
    next time, which is only slower)."""
    facts = item.facts
    if facts is not None and type(facts) is not FACTS[item.kind]:
        return None
    path = item.path
    return [
        own,
        deps,
        None if path == rel else path,
        item.kind.value,
        item.id,
        item.fixture_class,
        item.boundary,
        item.visibility,
        item.id_position,
        [
            [
                None if d.path == path else d.path,
                d.line,
                d.column,
                d.severity.value,
                d.code,
                d.message,
            ]
            for d in item.diagnostics
        ],
        item.prompt,
        item.ground_truth,
        item.canary,
        item.final_head_sha,
        item.sha_position,
        item.parent,
        _plain_facts(facts),
    ]


_OPT_TEXT = (str, type(None))


def decode_position(value: Any) -> tuple[int, int] | None:
    if value is None:
        return None
    line, column = value
    if type(line) is not int or type(column) is not int:
        raise TypeError("not a position")
    return (line, column)


def decode_item(rel: str, raw: list[Any]) -> Item:
    """The Item of an entry. Raises TypeError or ValueError (KeyError for a severity or a kind) on
    anything encode_item did not write, so a damaged entry is checked again rather than shown.
    Runs once per reused item at every start: checks are inline and the Item positional."""
    (
        _,
        deps,
        path,
        kind,
        id_,
        fixture_class,
        boundary,
        visibility,
        id_position,
        raw_diagnostics,
        prompt,
        ground_truth,
        canary,
        final_head_sha,
        sha_position,
        parent,
        raw_facts,
    ) = raw
    if path is None:
        path = rel
    if (
        type(path) is not str
        or type(kind) is not str
        or type(prompt) is not str
        or type(ground_truth) is not str
        or type(id_) not in _OPT_TEXT
        or type(fixture_class) not in _OPT_TEXT
        or type(boundary) not in _OPT_TEXT
        or type(visibility) not in _OPT_TEXT
        or type(canary) not in _OPT_TEXT
        or type(final_head_sha) not in _OPT_TEXT
        or type(parent) not in _OPT_TEXT
    ):
        raise TypeError("not an entry of this format")
    file_kind = _KINDS[kind]  # KeyError for a kind this version does not know
    facts = _decode_facts(file_kind, raw_facts)
    diagnostics = decode_diagnostics(path, raw_diagnostics)
    return stored_item(
        path,
        file_kind,
        id_,
        fixture_class,
        boundary,
        visibility,
        prompt,
        ground_truth,
        canary,
        final_head_sha,
        decode_position(sha_position),
        decode_position(id_position),
        parent,
        facts,
        tuple(diagnostics),
        tuple(as_text(dep) for dep, _ in deps) if deps else (),
    )


def without_git(item: Item) -> Item:
    from voyage_tui.engine.git.checks import GIT_CODES

    if not any(d.code in GIT_CODES for d in item.diagnostics):
        return item
    return dataclasses.replace(
        item, diagnostics=tuple(d for d in item.diagnostics if d.code not in GIT_CODES)
    )
