"""RULE_CATALOGUE: the rule keys a finding may carry, from YAML, JSON, or (best effort) JS."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from voyage_tui.engine import diagnostics as dg
from voyage_tui.engine.diagnostics import Diagnostic
from voyage_tui.engine.loading.json_doc import load_json
from voyage_tui.engine.loading.yaml_doc import load_yaml


@dataclass(slots=True)
class Catalogue:
    keys: tuple[str, ...] = ()
    _set: frozenset[str] = field(default_factory=frozenset)

    def __post_init__(self) -> None:
        self._set = frozenset(self.keys)

    def __contains__(self, key: object) -> bool:
        return key in self._set

    def __len__(self) -> int:
        return len(self.keys)


def _keys_from_data(data: Any) -> list[str] | None:
    if isinstance(data, dict) and "RULE_CATALOGUE" in data:
        data = data["RULE_CATALOGUE"]
    if isinstance(data, list):
        return (
            [item for item in data if isinstance(item, str)]
            if all(isinstance(item, str) for item in data)
            else None
        )
    if isinstance(data, dict):
        return [key for key in data if isinstance(key, str)]
    return None


def parse_catalogue(text: str, rel: str) -> tuple[Catalogue, list[Diagnostic]]:
    lower = rel.lower()
    if lower.endswith((".mjs", ".js", ".cjs")):
        keys = _keys_from_js(text)
        if keys is None:
            return Catalogue(), [
                dg.error(
                    rel,
                    None,
                    "catalogue-unreadable",
                    "could not find `RULE_CATALOGUE` as an array of strings or an object literal "
                    "in this file; export it that way or use a rule-catalogue.yaml",
                )
            ]
        diagnostics: list[Diagnostic] = []
    else:
        doc = load_json(text, rel) if lower.endswith(".json") else load_yaml(text, rel)
        if not doc.ok:
            return Catalogue(), doc.diagnostics
        diagnostics = list(doc.diagnostics)
        keys = _keys_from_data(doc.data)
        if keys is None:
            return Catalogue(), [
                *diagnostics,
                dg.error(
                    rel,
                    (1, 1),
                    "catalogue-unreadable",
                    "the catalogue must be a list of rule keys, a mapping whose keys are rule keys, or either under `RULE_CATALOGUE:`",
                ),
            ]
    if not keys:
        diagnostics.append(
            dg.error(rel, (1, 1), "catalogue-empty", "the rule catalogue lists no rule keys")
        )
    seen: dict[str, None] = {}
    for key in keys:
        seen.setdefault(key, None)
    return Catalogue(tuple(seen)), diagnostics


# --- JavaScript, best effort: no JS engine, just the literal after `RULE_CATALOGUE =`. ---

_JS_START = re.compile(r"RULE_CATALOGUE\s*(?::[^=]+)?=\s*")
_WRAPPERS = re.compile(r"(?:Object\.freeze\s*\(|new\s+Set\s*\(|Object\.keys\s*\(|\(\s*)+")
_IDENT = re.compile(r"[A-Za-z_$][\w$\-]*")


def _keys_from_js(text: str) -> list[str] | None:
    match = _JS_START.search(text)
    if match is None:
        return None
    i = match.end()
    wrapper = _WRAPPERS.match(text, i)
    if wrapper:
        i = wrapper.end()
    while i < len(text) and text[i].isspace():
        i += 1
    if i >= len(text) or text[i] not in "[{":
        return None
    return _literal_keys(text, i)


def _literal_keys(text: str, i: int) -> list[str] | None:
    """Strings at depth 1 of an array literal, or keys at depth 1 of an object literal."""
    opener = text[i]
    keys: list[str] = []
    depth = 0
    expect_key = opener == "{"
    n = len(text)
    while i < n:
        ch = text[i]
        if ch in "'\"`":
            end = i + 1
            while end < n and text[end] != ch:
                end += 2 if text[end] == "\\" else 1
            literal = text[i + 1 : end]
            if depth == 1 and (opener == "[" or expect_key):
                keys.append(literal)
                expect_key = False
            i = end + 1
            continue
        if text.startswith("//", i):
            i = text.find("\n", i)
            i = n if i < 0 else i
            continue
        if text.startswith("/*", i):
            i = text.find("*/", i)
            i = n if i < 0 else i + 2
            continue
        if ch in "[{(":
            depth += 1
        elif ch in "]})":
            depth -= 1
            if depth == 0:
                return keys
        elif ch == "," and depth == 1 and opener == "{":
            expect_key = True
        elif ch == ":" and depth == 1:
            expect_key = False
        elif depth == 1 and expect_key and opener == "{":
            ident = _IDENT.match(text, i)
            if ident:
                keys.append(ident.group(0))
                expect_key = False
                i = ident.end()
                continue
        i += 1
    return None
