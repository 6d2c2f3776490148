"""Turn a pydantic ValidationError into diagnostics that say what to do, at the right line.

The models carry the shape (required fields, types, closed vocabularies); this module only
translates. Fields whose shape is a union (context, scoring_notes, ...) are checked by their own
rules with better messages, so their errors are skipped here.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from typing import Any, get_args

from pydantic import BaseModel, ValidationError
from pydantic_core import ErrorDetails

from voyage_tui.engine import diagnostics as dg
from voyage_tui.engine.diagnostics import Diagnostic
from voyage_tui.engine.loading.positions import Positions
from voyage_tui.engine.suggest import hint
from voyage_tui.engine.wording import plural

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
    "none_required": "empty (null)",
    "bytes_type": "text",
}

# pydantic names each member of a union in the error's location (`transcript.str`,
# `transcript.list[any]`): those steps are types, not places in the file.
_TYPE_STEP = re.compile(r"^(?:str|int|float|bool|bytes|none|any|[a-z-]+\[.*\])$")


def _long_number(value: Any) -> str | None:
    """A whole number of 30 digits or more, counted rather than written out (a file's number
    may have thousands of digits); None for anything else."""
    if not isinstance(value, int) or isinstance(value, bool) or -(10**30) < value < 10**30:
        return None
    try:
        return f"a number of {plural(len(str(abs(value))), 'digit')}"
    except ValueError:  # past Python's 4,300-digit limit for str()
        return "a number too long to show"


def describe(value: Any, json: bool = False, *, quote_hint: bool = True) -> str:
    """How a person would name the value they wrote, in YAML's words (with a hint where YAML's
    typing surprises) or, with `json`, in JSON's. `quote_hint=False` leaves out the advice to
    quote a value, for a place where text would be wrong too."""
    if value is None:
        return "null" if json else "empty (null)"
    if isinstance(value, bool):
        if json:
            return "true" if value else "false"
        return (
            f"the boolean {str(value).lower()} (YAML reads yes/no/on/off/true/false as booleans"
            + ("; quote the value to make it text)" if quote_hint else ")")
        )
    long_number = _long_number(value)
    if long_number is not None:
        return long_number + (" (quote it to make it text)" if quote_hint and not json else "")
    if isinstance(value, (int, float)):
        return f"the number {value!r}" + (
            " (quote it to make it text)" if quote_hint and not json else ""
        )
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


def _model_names(models: Iterable[type[BaseModel]]) -> set[str]:
    """The names of the models reachable from `models`: a union member that is a model is
    named by its class in an error's location (`context.FileRef`)."""
    names: set[str] = set()
    todo: list[Any] = list(models)
    while todo:
        kind = todo.pop()
        if isinstance(kind, type) and issubclass(kind, BaseModel):
            if kind.__name__ in names:
                continue
            names.add(kind.__name__)
            todo.extend(info.annotation for info in kind.model_fields.values())
        else:
            todo.extend(get_args(kind))
    return names


def _label(loc: tuple[Any, ...]) -> str:
    parts: list[str] = []
    for step in loc:
        if isinstance(step, int):
            parts.append(f"[{step}]")
        else:
            parts.append(("." if parts else "") + str(step))
    return "".join(parts)


def _sentence(about: str) -> str:
    """A field's description as the end of a sentence: 'Stable, unique ...' -> 'stable, ...',
    but 'ISO 8601, UTC' stays as written."""
    about = about.rstrip(".")
    if len(about) > 1 and about[1].isupper():
        return about
    return about[:1].lower() + about[1:]


def _either(expected: list[str]) -> str:
    unique = list(dict.fromkeys(expected))
    return unique[0] if len(unique) == 1 else ", ".join(unique[:-1]) + " or " + unique[-1]


def _from_pydantic(message: str) -> str:
    """pydantic's own words as the end of `must be ...`: 'Input should be a valid URL' -> 'a
    valid URL', for an error this module has no sentence of its own for."""
    for lead in ("Input should be ", "Value error, ", "Assertion failed, "):
        if message.startswith(lead):
            return message[len(lead) :]
    return f"a valid value ({message})"


def plain_problem(
    err: Mapping[str, Any], where: str, *, json: bool = False, choices: tuple[str, ...] = ()
) -> str:
    """One pydantic error as a person would say it: "`line` must be a whole number, not the
    text '7'". For the errors that are only about the value's type or range; `translate` says
    the rest (missing fields, closed vocabularies) with more to go on."""
    kind = err["type"]
    value = err.get("input")
    ctx = err.get("ctx") or {}
    if kind in ("greater_than_equal", "greater_than", "less_than_equal", "less_than"):
        bound = {
            "greater_than_equal": f"{ctx.get('ge')} or more",
            "greater_than": f"more than {ctx.get('gt')}",
            "less_than_equal": f"{ctx.get('le')} or less",
            "less_than": f"less than {ctx.get('lt')}",
        }[kind]
        shown = _long_number(value) or repr(value)
        return f"`{where}` is {shown}; it must be {bound}"
    if kind in ("string_too_short", "too_short"):
        return f"`{where}` is empty; fill it in"
    if kind in ("string_too_long", "too_long"):
        most = ctx.get("max_length")
        return f"`{where}` is too long; it may hold at most {most}" + (
            " characters" if kind == "string_too_long" else " items"
        )
    if kind == "literal_error" or choices:
        listed = (
            ", ".join(choices)
            if choices
            else str(ctx.get("expected", "")).replace("'", "").replace(" or ", ", ")
        )
        return f"`{where}` must be one of: {listed}, not {describe(value, json, quote_hint=False)}"
    expected = _EXPECTED.get(kind)
    if expected is None:
        return f"`{where}` must be {_from_pydantic(str(err.get('msg', '')))}, not " + describe(
            value, json, quote_hint=False
        )
    text = expected == "text"
    problem = f"`{where}` must be {expected}, not {describe(value, json, quote_hint=text)}"
    if text and isinstance(value, list) and not json:
        name = where.rsplit(".", 1)[-1]
        problem += f"; to keep several lines, write `{name}: |` and the lines indented below it"
    return problem


def plain_error(err: Mapping[str, Any], *, json: bool = False) -> str:
    """`plain_problem` for an error of a model validated on its own (a voyage.toml section)."""
    return plain_problem(err, _label(tuple(err["loc"])), json=json)


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
    models = tuple(models)
    help_ = _field_help(models)
    model_names = _model_names(models)
    json = rel.endswith(".json")
    out: list[Diagnostic] = []
    # A value that matches no member of a union gets one error per member: they are told as
    # one problem at the value ("must be text or a list"), in the order pydantic gave them.
    places: dict[tuple[Any, ...], list[ErrorDetails]] = {}
    in_union: set[tuple[Any, ...]] = set()
    for err in exc.errors(include_url=False):
        loc = tuple(
            step
            for step in err["loc"]
            if not (isinstance(step, str) and (_TYPE_STEP.match(step) or step in model_names))
        )
        if loc and loc[0] in skip:
            continue
        places.setdefault(loc, []).append(err)
        if len(loc) < len(err["loc"]):
            in_union.add(loc)
    # A union member that got inside the value (a list whose item is wrong) says more than the
    # members that refused the value outright: only its errors are told.
    for loc in [u for u in in_union if any(o[: len(u)] == u and o != u for o in in_union)]:
        del places[loc]
    for loc, errs in places.items():
        err = errs[0]
        kind = err["type"]
        if kind == "invalid_key" or (loc and loc[-1] == "[key]"):
            # pydantic names the offending key in `input` (its `loc` holds it as text).
            key = err.get("input")
            place = loc[:-1] if kind == "invalid_key" else loc[:-2]
            key = key if kind == "invalid_key" else loc[-2]
            out.append(
                dg.error(
                    rel,
                    positions.key(base + place + (key,)),
                    "wrong-type",
                    # a model's keys are its fields; a mapping's (`scores`) are its own
                    key_problem(key) + (": keys are field names" if kind == "invalid_key" else ""),
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
                    + (f": {_sentence(about)}" if about else ""),
                )
            )
            continue
        value = err.get("input")
        choices = tuple((vocabularies or {}).get(name, ()))
        if kind == "literal_error" and isinstance(value, str):
            choice_text = ", ".join(choices) if choices else err.get("ctx", {}).get("expected", "")
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
        if kind in ("string_too_short", "too_short"):
            code = "empty-field"
        elif kind in ("greater_than_equal", "greater_than", "less_than_equal", "less_than"):
            code = "value-out-of-range"
        elif kind == "extra_forbidden":
            out.append(
                dg.error(
                    rel, positions.key(path), "unknown-field", f"`{where}` is not allowed here"
                )
            )
            continue
        else:
            code = "wrong-type"
        if len(errs) > 1 and all(e["type"] in _EXPECTED for e in errs):
            expected = _either([_EXPECTED[e["type"]] for e in errs])
            message = f"`{where}` must be {expected}, not {describe(value, json, quote_hint=False)}"
        else:
            message = plain_problem(
                err, where, json=json, choices=choices if kind == "literal_error" else ()
            )
            if code == "value-out-of-range" and name == "line":
                message += " (0 means file-scoped)"
        out.append(dg.error(rel, positions.value(path), code, message))
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
                positions.key((*base, key)),
                "unknown-field",
                f"unknown field `{label}`; it is ignored{hint(str(key), known)}",
            )
        )
    return out
