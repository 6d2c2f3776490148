"""`voyage.toml`: every path and knob has a default; an unknown key is a diagnostic."""

from __future__ import annotations

import math
import posixpath
import re
import tomllib
from collections.abc import Callable
from dataclasses import Field, dataclass, field, fields
from typing import Any

from voyage_tui.engine import diagnostics as dg
from voyage_tui.engine.diagnostics import Diagnostic
from voyage_tui.engine.formats.config_spec import (
    SECTIONS,
    GitConfig,
    HoldoutConfig,
    LimitsConfig,
    PathsConfig,
    RatingConfig,
    ResultsConfig,
    Section,
    TriageConfig,
)
from voyage_tui.engine.loading.text import position_of_index
from voyage_tui.engine.suggest import hint
from voyage_tui.engine.workspace.config_file import CONFIG_NAME
from voyage_tui.engine.workspace.rater_name import rater_key, rater_name_problem

__all__ = ["CONFIG_NAME", "VoyageConfig", "key_position", "parse_config"]


# The configuration as the engine holds it is the one model of the file (formats/config_spec.py:
# plain dataclasses, so reading voyage.toml imports no pydantic, issue 23). Each value is
# checked by a rule made from its declared type and bounds (_CHECKS); the pydantic models of
# formats/config.py, built from the same declaration, are asked only for the wording of a value
# those rules do not accept.


@dataclass(slots=True)
class VoyageConfig:
    paths: PathsConfig = field(default_factory=PathsConfig)
    git: GitConfig = field(default_factory=GitConfig)
    holdout: HoldoutConfig = field(default_factory=HoldoutConfig)
    limits: LimitsConfig = field(default_factory=LimitsConfig)
    triage: TriageConfig = field(default_factory=TriageConfig)
    rating: RatingConfig = field(default_factory=RatingConfig)
    results: ResultsConfig = field(default_factory=ResultsConfig)

    def explicitly_set(self, section: str, key: str) -> bool:
        part: Section = getattr(self, section)
        return key in part.fields_set

    @classmethod
    def model_validate(cls, data: dict[str, Any]) -> VoyageConfig:
        """A configuration from already-parsed sections, validated strictly by the file
        format's model (raises pydantic's ValidationError): for tests and callers that build
        one in code."""
        from voyage_tui.engine.formats.config import VoyageModel

        model = VoyageModel.model_validate(data)
        sections: dict[str, Section] = {}
        for name, kind in _SECTIONS.items():
            part = getattr(model, name)
            values = {key: getattr(part, key) for key in _KEYS[name]}
            sections[name] = kind(**values, fields_set=frozenset(part.model_fields_set))
        return cls(**sections)  # type: ignore[arg-type]  # each name is given its own section


_SECTIONS = SECTIONS
_KEYS: dict[str, tuple[str, ...]] = {
    name: tuple(f.name for f in fields(kind) if f.name != "fields_set")
    for name, kind in _SECTIONS.items()
}
"""Each section's keys, in the order the file format declares them."""

_MISSING = object()
"""A check's answer for a value it does not accept: the model is asked."""


def _str(value: Any) -> Any:
    return value if type(value) is str else _MISSING


def _strings(max_length: int | None = None) -> Callable[[Any], Any]:
    def check(value: Any) -> Any:
        if type(value) is not list or any(type(v) is not str for v in value):
            return _MISSING
        if max_length is not None and len(value) > max_length:
            return _MISSING
        return list(value)

    return check


def _int(low: int, high: int) -> Callable[[Any], Any]:
    def check(value: Any) -> Any:
        # strict: a bool is no int here, as in pydantic's strict mode
        return value if type(value) is int and low <= value <= high else _MISSING

    return check


def _float(low: float, high: float) -> Callable[[Any], Any]:
    def check(value: Any) -> Any:
        if type(value) is int and abs(value) <= 1 << 53:
            value = float(value)  # strict pydantic takes an int for a float, as a float
        if type(value) is not float or not math.isfinite(value) or not low <= value <= high:
            return _MISSING
        return value

    return check


def _check_of(declared: Field[Any]) -> Callable[[Any], Any]:
    """The rule of a key, from its declared type and bounds (formats/config_spec.py)."""
    bounds = declared.metadata
    if declared.type == "str":
        return _str
    if declared.type == "list[str]":
        return _strings(bounds.get("max_length"))
    if declared.type == "int":
        return _int(bounds["ge"] if "ge" in bounds else bounds["gt"] + 1, bounds["le"])
    if declared.type == "float":
        return _float(bounds["ge"], bounds["le"])
    raise TypeError(f"voyage.toml key {declared.name}: no rule for a {declared.type}")


_CHECKS: dict[str, dict[str, Callable[[Any], Any]]] = {
    name: {f.name: _check_of(f) for f in fields(kind) if f.name != "fields_set"}
    for name, kind in _SECTIONS.items()
}
"""Each key's rule, as the file format's model states it: the value as the model would give it
back, or _MISSING when the model is to be asked (for its verdict and its wording)."""

_CEILINGS: dict[tuple[str, str], int] = {
    (name, f.name): f.metadata["le"]
    for name, kind in _SECTIONS.items()
    for f in fields(kind)
    if f.metadata.get("ceiling")
}
"""Keys whose larger values are taken down to a ceiling (with a diagnostic) rather than refused
for the default: a keeper who raised the bound past it wants the most there is."""


def checked_value(section: str, key: str, value: Any) -> tuple[Any, str | None]:
    """(the value as the configuration holds it, None), or (None, what is wrong with it in the
    file format's words). The model is imported only for a value the rules do not accept."""
    fast = _CHECKS[section][key](value)
    if fast is not _MISSING:
        return fast, None
    from pydantic import ValidationError

    from voyage_tui.engine.formats.config import SECTION_MODELS
    from voyage_tui.engine.formats.schema_errors import plain_error

    try:
        part = SECTION_MODELS[section].model_validate({key: value})
    except ValidationError as exc:
        # TOML names its values as JSON does (true, a list, the text '...')
        return None, plain_error(exc.errors(include_url=False)[0], json=True)
    return getattr(part, key), None


def _default(section: str, key: str) -> Any:
    return getattr(_SECTIONS[section](), key)


_LONG_NUMBER = re.compile(r"[0-9][0-9_]{4000,}")


def _locate(text: str, section: str | None, key: str | None) -> tuple[int, int] | None:
    """Line of `[section]` or of `key =` inside it. tomllib keeps no positions, and a config
    file is small, so a scan of its lines is enough to point at the right one."""
    current: str | None = None
    for number, raw in enumerate(text.splitlines(), start=1):
        line = raw.strip()
        header = re.match(r"^\[\[?\s*([^\]]+?)\s*\]", line)
        if header:
            current = header.group(1).strip().strip('"')
            if key is None and current == section:
                return number, raw.index("[") + 1
            if key is not None and current == f"{section}.{key}":  # `[paths.sub]`
                return number, raw.index("[") + 1
            continue
        if key is not None and current == section:
            match = re.match(r'^\s*"?([A-Za-z0-9_\-]+)"?\s*=', raw)
            if match and match.group(1) == key:
                return number, match.start(1) + 1
        if key is not None and section is not None and current is None:
            # `paths.journy = ...` or `paths = { journy = ... }` before any table header
            dotted = re.match(r'^\s*"?([A-Za-z0-9_\-]+)"?\s*\.\s*"?([A-Za-z0-9_\-]+)"?\s*=', raw)
            if dotted and dotted.group(1) == section and dotted.group(2) == key:
                return number, dotted.start(2) + 1
            inline = re.match(r'^\s*"?([A-Za-z0-9_\-]+)"?\s*=\s*\{', raw)
            if inline and inline.group(1) == section:
                found = re.search(r'[{,]\s*"?(' + re.escape(key) + r')"?\s*=', raw)
                if found:
                    return number, found.start(1) + 1
    return None


def key_position(text: str, section: str, key: str) -> tuple[int, int] | None:
    """Line and column of `key` in `[section]` of voyage.toml's text, if it is written there."""
    return _locate(text, section, key)


def _shown_number(value: int) -> str:
    """A number as a message shows it: with its thousands, or by its digits when too long."""
    digits = len(str(value))
    return f"{value:,}" if digits <= 30 else f"a number of {digits:,} digits"


def _leaves_workspace(value: Any) -> str | None:
    """The first configured path that is absolute or climbs out of the workspace: nothing there
    is the workspace's to read (a voyage.toml of `gold = ["/"]` would walk the whole disk)."""
    for path in value if isinstance(value, list) else [value]:
        if not isinstance(path, str):
            continue
        norm = posixpath.normpath(path.replace("\\", "/"))
        if (
            norm.startswith("/")
            or norm == ".."
            or norm.startswith("../")
            or (len(norm) > 1 and norm[1] == ":" and norm[0].isalpha())
        ):
            return path
    return None


def _holds_nul(value: Any) -> bool:
    """A NUL (TOML writes it `\\u0000`) in a path, branch or name: the OS and git refuse such a
    string outright (Python raises ValueError), and no file or branch can be named by it."""
    return any(
        isinstance(v, str) and "\0" in v for v in (value if isinstance(value, list) else [value])
    )


def _checked_raters(
    text: str, rel: str, names: list[str], diagnostics: list[Diagnostic]
) -> list[str]:
    """`[rating] raters` without the names that cannot be a rater's (each is also a file name:
    workspace/rater_name.py) and without a second name of one rater key (`José` after `Jose`,
    `ann-smith` after `Ann Smith`: they would share one ratings file and one lock). Each
    one left out is an error at its place in the list. Leaving a name out, rather than the whole
    team, keeps every other rater's assignment as it is (rendezvous hashing, SPEC 3.9)."""
    kept: dict[str, str] = {}
    seen: dict[str, int] = {}
    for name in names:
        occurrence = seen.get(name, 0)
        seen[name] = occurrence + 1
        where = _name_position(text, name, occurrence)
        problem = rater_name_problem(name)
        if problem is not None:
            diagnostics.append(
                dg.error(
                    rel,
                    where,
                    "config-invalid",
                    f"[rating] raters: {name!r} cannot be a rater's name ({problem}): it is "
                    "also the name of the rater's ratings file; it is left out of the team",
                )
            )
            continue
        key = rater_key(name)
        earlier = kept.get(key)
        if earlier is not None:
            again = (
                "is listed twice"
                if earlier == name
                else f"is {earlier!r} again but for letter case (one ratings file and one "
                "session lock)"
                if earlier.casefold() == name.casefold()
                else f"and {earlier!r} are one rater (one rater key, {key!r}: one ratings file "
                "and one session lock)"
            )
            diagnostics.append(
                dg.error(
                    rel,
                    where,
                    "config-invalid",
                    f"[rating] raters: {name!r} {again}; it counts once, as {earlier!r}. Remove "
                    "the copy, or give the second person a name of their own",
                )
            )
            continue
        kept[key] = name
    return list(kept.values())


def _name_position(text: str, name: str, occurrence: int) -> tuple[int, int] | None:
    """Where the `occurrence`-th (from 0) quoted `name` stands after `raters =` in [rating], else
    where the key does (a name written with escapes is not found as typed)."""
    key = _locate(text, "rating", "raters")
    if key is None:
        return None
    lines = text.splitlines(keepends=True)
    start = sum(len(line) for line in lines[: key[0] - 1]) + key[1] - 1
    found: list[int] = []
    for quote in ('"', "'"):
        at = text.find(f"{quote}{name}{quote}", start)
        while at != -1:
            found.append(at + 1)
            at = text.find(f"{quote}{name}{quote}", at + 1)
    # The list ends at its closing bracket: a string found after it is another key's.
    end = text.find("]", start)
    found = sorted(i for i in found if end == -1 or i < end)
    if occurrence < len(found):
        return position_of_index(text, found[occurrence])
    return key


def parse_config(text: str, rel: str = CONFIG_NAME) -> tuple[VoyageConfig, list[Diagnostic]]:
    """The configuration (defaults where the file says nothing or is wrong) and its diagnostics."""
    try:
        raw = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        match = re.search(r"line (\d+), column (\d+)", str(exc))
        pos = (int(match.group(1)), int(match.group(2))) if match else None
        return VoyageConfig(), [
            dg.error(
                rel, pos, "config-syntax", f"voyage.toml is not valid TOML: {exc}; defaults used"
            )
        ]
    except ValueError as exc:
        # tomllib converts an integer with int(), which refuses more than 4,300 digits
        # ("Exceeds the limit") instead of raising its own error with a place.
        long_number = _LONG_NUMBER.search(text)
        problem = (
            "holds a number with too many digits to read"
            if "integer string conversion" in str(exc)
            else f"could not be read: {exc}"
        )
        return VoyageConfig(), [
            dg.error(
                rel,
                position_of_index(text, long_number.start()) if long_number else None,
                "config-syntax",
                f"voyage.toml {problem}; defaults used",
            )
        ]
    diagnostics: list[Diagnostic] = []
    cleaned: dict[str, Any] = {}  # section name -> its dataclass
    for section, value in raw.items():
        if section not in _SECTIONS:
            diagnostics.append(
                dg.warning(
                    rel,
                    _locate(text, section, None) or _locate(text, None, section),
                    "config-unknown-key",
                    f"unknown section `{section}` in voyage.toml; it is ignored"
                    f"{hint(section, _SECTIONS)}",
                )
            )
            continue
        if not isinstance(value, dict):
            diagnostics.append(
                dg.error(
                    rel,
                    _locate(text, None, section) or _locate(text, section, None),
                    "config-invalid",
                    f"`{section}` must be a table (`[{section}]`); defaults used",
                )
            )
            continue
        known = _KEYS[section]
        section_values: dict[str, Any] = {}
        for key, item in value.items():
            if key not in known:
                diagnostics.append(
                    dg.warning(
                        rel,
                        _locate(text, section, key),
                        "config-unknown-key",
                        f"unknown key `{key}` in [{section}]; it is ignored{hint(key, known)}",
                    )
                )
                continue
            ceiling = _CEILINGS.get((section, key))
            if ceiling is not None and type(item) is int and item > ceiling:
                diagnostics.append(
                    dg.error(
                        rel,
                        _locate(text, section, key),
                        "config-invalid",
                        f"[{section}] {key}: {_shown_number(item)} is over the ceiling of "
                        f"{ceiling:,} ({ceiling >> 20} MiB); the ceiling is used",
                    )
                )
                section_values[key] = ceiling
                continue
            checked, wrong = checked_value(section, key, item)
            if wrong is not None:
                default = _default(section, key)
                diagnostics.append(
                    dg.error(
                        rel,
                        _locate(text, section, key),
                        "config-invalid",
                        f"[{section}] {wrong}; the default {default!r} is used",
                    )
                )
                continue
            if _holds_nul(item):
                default = _default(section, key)
                diagnostics.append(
                    dg.error(
                        rel,
                        _locate(text, section, key),
                        "config-invalid",
                        f"[{section}] {key}: the value holds a NUL character (\\u0000), which no "
                        f"path, branch or name can contain; the default {default!r} is used",
                    )
                )
                continue
            escaping = _leaves_workspace(item) if section == "paths" else None
            if escaping is not None:
                default = _default(section, key)
                diagnostics.append(
                    dg.error(
                        rel,
                        _locate(text, section, key),
                        "config-invalid",
                        f"[{section}] {key}: {escaping!r} is outside the workspace; paths are "
                        f"relative to the folder of voyage.toml and stay inside it, so the default "
                        f"{default!r} is used",
                    )
                )
                continue
            if section == "rating" and key == "raters":
                checked = _checked_raters(text, rel, checked, diagnostics)
            if section == "triage" and key == "ratings_per_run":
                diagnostics.append(
                    dg.warning(
                        rel,
                        _locate(text, section, key),
                        "config-deprecated",
                        "[triage] ratings_per_run is deprecated in favour of [rating] overlap "
                        "(the ratings each item wants); it still decides triage's `unrated` "
                        "items while it is written. Remove it, and set [rating] overlap instead",
                    )
                )
            section_values[key] = checked
        cleaned[section] = _SECTIONS[section](
            **section_values, fields_set=frozenset(section_values)
        )
    return VoyageConfig(**cleaned), diagnostics
