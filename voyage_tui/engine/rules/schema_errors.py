"""Turn a pydantic ValidationError into diagnostics that say what to do, at the right line.

The models carry the shape (required fields, types, closed vocabularies); this module only
translates. Fields whose shape is a union (context, scoring_notes, ...) are checked by their own
rules with better messages, so their errors are skipped here.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from pydantic import BaseModel, ValidationError

from voyage_tui.engine import diagnostics as dg
from voyage_tui.engine.diagnostics import Diagnostic
from voyage_tui.engine.loading.positions import Positions
from voyage_tui.engine.suggest import hint

# The code for a value outside a field's closed vocabulary.
VOCABULARY_CODES: dict[str, str] = {
    "class": "invalid-class",
    "expected_boundary": "invalid-boundary",
    "visibility": "invalid-visibility",
    "kind": "invalid-kind",
    "path": "invalid-path",
    "terminal_state": "invalid-terminal-state",
    "severity": "invalid-severity",
    "owner_reviewer": "invalid-owner-reviewer",
    "expected_verdict": "invalid-verdict",
    "schema": "invalid-schema",
}

_EXPECTED = {
    "string_type": "text",
    "int_type": "a whole number",
    "int_from_float": "a whole number",
    "float_type": "a number",
    "bool_type": "true or false",
    "list_type": "a list",
    "dict_type": "a mapping",
    "model_type": "a mapping",
    "model_attributes_type": "a mapping",
}


def describe(value: Any, json: bool = False) -> str:
    """How a person would name the value they wrote, in YAML's words (with a hint where YAML's
    typing surprises) or, with `json`, in JSON's."""
    if value is None:
        return "null" if json else "empty (null)"
    if isinstance(value, bool):
        if json:
            return "true" if value else "false"
        return (
            f"the boolean {str(value).lower()} (YAML reads yes/no/on/off/true/false as booleans; "
            "quote the value to make it text)"
        )
    if isinstance(value, (int, float)):
        return f"the number {value!r}" + ("" if json else " (quote it to make it text)")
    if isinstance(value, str):
        return f"the text {value!r}"
    if isinstance(value, list):
        return "a list"
    if isinstance(value, dict):
        return "an object" if json else "a mapping"
    return f"a {type(value).__name__}"


def key_problem(key: Any) -> str:
    """'the key `1` is read as a number, not text; quote it' for a key that is not text."""
    if key is None:
        written, what = "null", "null"
    elif isinstance(key, bool):
        written, what = str(key).lower(), "a boolean"
    elif isinstance(key, (int, float)):
        written, what = repr(key), "a number"
    else:
        written, what = str(key), f"a {type(key).__name__}"
    return f'the key `{written}` is read as {what}, not text; quote it (`"{written}"`)'


def _field_help(models: Iterable[type[BaseModel]]) -> dict[str, str]:
    help_: dict[str, str] = {}
    for model in models:
        for name, info in model.model_fields.items():
            key = info.alias or name
            if info.description and key not in help_:
                help_[key] = info.description
    return help_


def _label(loc: tuple[Any, ...]) -> str:
    parts: list[str] = []
    for step in loc:
        if isinstance(step, int):
            parts.append(f"[{step}]")
        else:
            parts.append(("." if parts else "") + str(step))
    return "".join(parts)


def translate(
    exc: ValidationError,
    rel: str,
    positions: Positions,
    *,
    models: Iterable[type[BaseModel]],
    skip: frozenset[str] = frozenset(),
    vocabularies: Mapping[str, tuple[str, ...]] | None = None,
    base: tuple[Any, ...] = (),
) -> list[Diagnostic]:
    """One diagnostic per offending place. `base` prefixes each location (for payload items
    validated one by one inside a bigger document)."""
    help_ = _field_help(models)
    out: list[Diagnostic] = []
    seen: set[tuple[Any, ...]] = set()
    for err in exc.errors(include_url=False):
        loc = tuple(err["loc"])
        if loc and loc[0] in skip:
            continue
        if loc in seen:
            continue
        seen.add(loc)
        kind = err["type"]
        if kind == "invalid_key":
            # pydantic names the offending key in `input` (its `loc` holds it as text).
            key = err.get("input")
            out.append(
                dg.error(
                    rel,
                    positions.key(base + loc[:-1] + (key,)),
                    "wrong-type",
                    f"{key_problem(key)}: keys are field names",
                )
            )
            continue
        path = base + loc
        name = next((str(step) for step in reversed(loc) if isinstance(step, str)), "value")
        where = _label(loc)
        if kind == "missing":
            about = help_.get(name, "")
            out.append(
                dg.error(
                    rel,
                    positions.value(path[:-1]),
                    "missing-field",
                    f"required field `{where}` is missing; add it"
                    + (f": {about[0].lower()}{about[1:].rstrip('.')}" if about else ""),
                )
            )
            continue
        value = err.get("input")
        if kind == "literal_error":
            choices = (vocabularies or {}).get(name, ())
            if isinstance(value, str):
                choice_text = (
                    ", ".join(choices) if choices else err.get("ctx", {}).get("expected", "")
                )
                out.append(
                    dg.error(
                        rel,
                        positions.value(path),
                        VOCABULARY_CODES.get(name, "invalid-value"),
                        f"`{where}` is {value!r}, which is not one of: {choice_text}"
                        f"{hint(value, choices)}",
                    )
                )
                continue
            expected = "text"
        elif kind in ("string_too_short", "too_short"):
            out.append(
                dg.error(
                    rel, positions.value(path), "empty-field", f"`{where}` is empty; fill it in"
                )
            )
            continue
        elif kind in ("greater_than_equal", "greater_than"):
            limit = err.get("ctx", {}).get("ge", err.get("ctx", {}).get("gt"))
            out.append(
                dg.error(
                    rel,
                    positions.value(path),
                    "value-out-of-range",
                    f"`{where}` is {value!r}; it must be {limit} or more"
                    + (" (0 means file-scoped)" if name == "line" else ""),
                )
            )
            continue
        elif kind == "extra_forbidden":
            out.append(
                dg.error(
                    rel, positions.key(path), "unknown-field", f"`{where}` is not allowed here"
                )
            )
            continue
        else:
            expected = _EXPECTED.get(kind, err.get("msg", "a different value").lower())
        out.append(
            dg.error(
                rel,
                positions.value(path),
                "wrong-type",
                f"`{where}` must be {expected}, not {describe(value)}",
            )
        )
    return out


def unknown_fields(
    data: Mapping[Any, Any],
    model: type[BaseModel],
    rel: str,
    positions: Positions,
    *,
    also_known: frozenset[str] = frozenset(),
    base: tuple[Any, ...] = (),
) -> list[Diagnostic]:
    known = [info.alias or name for name, info in model.model_fields.items()]
    out: list[Diagnostic] = []
    for key in data:
        if key in known or key in also_known:
            continue
        if not isinstance(key, str):
            continue  # a key that is not text is an error of the model (`invalid_key`)
        label = key
        out.append(
            dg.warning(
                rel,
                positions.key(base + (key,)),
                "unknown-field",
                f"unknown field `{label}`; it is ignored{hint(str(key), known)}",
            )
        )
    return out
