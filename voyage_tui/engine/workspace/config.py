"""`voyage.toml`: every path and knob has a default; an unknown key is a diagnostic."""

from __future__ import annotations

import posixpath
import re
import tomllib
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from voyage_tui.engine import diagnostics as dg
from voyage_tui.engine.diagnostics import Diagnostic
from voyage_tui.engine.formats.schema_errors import plain_error
from voyage_tui.engine.loading.text import position_of_index
from voyage_tui.engine.suggest import hint
from voyage_tui.engine.workspace.config_file import CONFIG_NAME
from voyage_tui.engine.workspace.rater_name import rater_name_problem

__all__ = ["CONFIG_NAME", "VoyageConfig", "key_position", "parse_config"]


class PathsConfig(BaseModel):
    model_config = ConfigDict(strict=True, extra="forbid")

    fixtures: str = "fixtures"
    journey: str = "references/journey.md"
    routing_table: str = "references/routing-table.md"
    rule_catalogue: str = "references/rule-catalogue.yaml"
    rubric: str = "rubric.md"
    ratings: str = "ratings"
    adjudications: str = ""
    """Empty: `adjudications.jsonl` beside the ratings folder (SPEC 3.9)."""
    gold: list[str] = Field(default_factory=lambda: ["."])


class GitConfig(BaseModel):
    model_config = ConfigDict(strict=True, extra="forbid")

    repo: str = "."
    # Empty: a final_head_sha may be reachable from any branch, tag, remote-tracking branch or
    # HEAD. Set: only from these branches, local or remote-tracking (docs/git-checks.md).
    branches: list[str] = Field(default_factory=list)


class HoldoutConfig(BaseModel):
    model_config = ConfigDict(strict=True, extra="forbid")

    custodians: list[str] = Field(default_factory=list)
    bundle_paths: list[str] = Field(default_factory=list)
    # Nothing is skipped by default: a holdout's prompt pasted into an agent's Markdown
    # instructions is the commonest leak, so Markdown is searched like any other file.
    ignore_paths: list[str] = Field(default_factory=list)


class LimitsConfig(BaseModel):
    model_config = ConfigDict(strict=True, extra="forbid")

    # Bounded like every number read from a file: 1 TiB is past any file voyage-tui reads.
    max_file_bytes: int = Field(default=1_048_576, gt=0, le=1 << 40)


class TriageConfig(BaseModel):
    model_config = ConfigDict(strict=True, extra="forbid")

    min_f1: float = Field(default=0.5, ge=0.0, le=1.0, allow_inf_nan=False)
    """A recorded run of a gold file scoring below this F1 is a `low-score` item."""
    ratings_per_run: int = Field(default=2, ge=0, le=1_000_000)
    """Deprecated in favour of `[rating] overlap`: when written, an agent run with fewer ratings
    in force than this is an `unrated` item (0: never); when not, `[rating] overlap` counts."""


class RatingConfig(BaseModel):
    """A rating campaign (SPEC 3.9): who rates, how many ratings each item wants, and how far
    apart raters' scores must be for an item to be disputed."""

    model_config = ConfigDict(strict=True, extra="forbid")

    # Bounded like every number and list read from a file: a team is a few dozen people, and
    # assignment hashes every rater for every item.
    raters: list[str] = Field(default_factory=list, max_length=1000)
    overlap: int = Field(default=2, ge=1, le=1000)
    dispute_spread: int = Field(default=2, ge=1, le=100)


class ResultsConfig(BaseModel):
    model_config = ConfigDict(strict=True, extra="forbid")

    baseline: str = ""
    """The agent others are compared against (SPEC 3.10); empty: no comparisons."""


class VoyageConfig(BaseModel):
    model_config = ConfigDict(strict=True, extra="forbid")

    paths: PathsConfig = Field(default_factory=PathsConfig)
    git: GitConfig = Field(default_factory=GitConfig)
    holdout: HoldoutConfig = Field(default_factory=HoldoutConfig)
    limits: LimitsConfig = Field(default_factory=LimitsConfig)
    triage: TriageConfig = Field(default_factory=TriageConfig)
    rating: RatingConfig = Field(default_factory=RatingConfig)
    results: ResultsConfig = Field(default_factory=ResultsConfig)

    def explicitly_set(self, section: str, key: str) -> bool:
        part = getattr(self, section)
        return key in part.model_fields_set


_SECTIONS: dict[str, type[BaseModel]] = {
    "paths": PathsConfig,
    "git": GitConfig,
    "holdout": HoldoutConfig,
    "limits": LimitsConfig,
    "triage": TriageConfig,
    "rating": RatingConfig,
    "results": ResultsConfig,
}


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
    workspace/rater_name.py) and without a second spelling of a name already listed (two names
    equal but for letter case share one ratings file on a case-insensitive file system). Each
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
        earlier = kept.get(name.casefold())
        if earlier is not None:
            again = (
                "is listed twice"
                if earlier == name
                else f"is {earlier!r} again but for letter case (one ratings file on a "
                "case-insensitive file system)"
            )
            diagnostics.append(
                dg.error(
                    rel,
                    where,
                    "config-invalid",
                    f"[rating] raters: {name!r} {again}; it counts once. Remove the copy",
                )
            )
            continue
        kept[name.casefold()] = name
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
    cleaned: dict[str, Any] = {}
    for section, value in raw.items():
        model = _SECTIONS.get(section)
        if model is None:
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
        known = model.model_fields
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
            try:
                model.model_validate({key: item})
            except ValidationError as exc:
                # TOML names its values as JSON does (true, a list, the text '...')
                problem = plain_error(exc.errors(include_url=False)[0], json=True)
                default = known[key].get_default(call_default_factory=True)
                diagnostics.append(
                    dg.error(
                        rel,
                        _locate(text, section, key),
                        "config-invalid",
                        f"[{section}] {problem}; the default {default!r} is used",
                    )
                )
                continue
            if _holds_nul(item):
                default = known[key].get_default(call_default_factory=True)
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
                default = known[key].get_default(call_default_factory=True)
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
                item = _checked_raters(text, rel, item, diagnostics)
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
            section_values[key] = item
        cleaned[section] = section_values
    return VoyageConfig.model_validate(cleaned), diagnostics
