"""`voyage.toml`, declared once: its sections, their keys, each key's type, default and bounds.

This is the one model of the file. The engine holds the configuration as these dataclasses
(workspace/config.py reads the file into them, checking each value by the bounds below, so
`validate` starts without pydantic), and the pydantic models of formats/config.py, which word
the diagnostics of a value the checks refuse, are built from them: a key, a default or a bound
is written here and nowhere else (tests/engine/test_config_fast.py).

A key's bounds, its field's metadata (`bounds`), are the keyword arguments of pydantic's
`Field` (`gt`, `ge`, `le`, `max_length`, `allow_inf_nan`), plus `ceiling`: a larger value is
not refused for the default but taken down to the bound, with a diagnostic. Every number has
its bounds: the reader has no rule for an unbounded one.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

MAX_FILE_BYTES_CEILING = 64 << 20
"""64 MiB: the most `[limits] max_file_bytes` may raise the bound of one file read to. A file
within it is read whole (a task, a run) or as a stream of bounded lines (ratings,
adjudications: loading/line_stream.py); a voyage.toml asking for more gets this, and a
diagnostic."""


def bounds(**given: Any) -> dict[str, Any]:
    """A key's bounds, as its field's metadata (module docstring)."""
    return given


def _fields_set() -> Any:
    return field(default=frozenset(), repr=False, compare=False)


@dataclass(slots=True)
class PathsConfig:
    fixtures: str = "fixtures"
    journey: str = "references/journey.md"
    routing_table: str = "references/routing-table.md"
    rule_catalogue: str = "references/rule-catalogue.yaml"
    rubric: str = "rubric.md"
    ratings: str = "ratings"
    adjudications: str = ""
    """Empty: `adjudications.jsonl` beside the ratings folder (SPEC 3.9)."""
    gold: list[str] = field(default_factory=lambda: ["."])
    fields_set: frozenset[str] = _fields_set()
    """The keys voyage.toml wrote (as pydantic's `model_fields_set`)."""


@dataclass(slots=True)
class GitConfig:
    repo: str = "."
    # Empty: a final_head_sha may be reachable from any branch, tag, remote-tracking branch or
    # HEAD. Set: only from these branches, local or remote-tracking (docs/git-checks.md).
    branches: list[str] = field(default_factory=list)
    fields_set: frozenset[str] = _fields_set()


@dataclass(slots=True)
class HoldoutConfig:
    custodians: list[str] = field(default_factory=list)
    bundle_paths: list[str] = field(default_factory=list)
    # Nothing is skipped by default: a holdout's prompt pasted into an agent's Markdown
    # instructions is the commonest leak, so Markdown is searched like any other file.
    ignore_paths: list[str] = field(default_factory=list)
    fields_set: frozenset[str] = _fields_set()


@dataclass(slots=True)
class LimitsConfig:
    # Bounded like every number read from a file; a larger value is a diagnostic, and the
    # ceiling applies.
    max_file_bytes: int = field(
        default=1_048_576, metadata=bounds(gt=0, le=MAX_FILE_BYTES_CEILING, ceiling=True)
    )
    fields_set: frozenset[str] = _fields_set()


@dataclass(slots=True)
class TriageConfig:
    min_f1: float = field(default=0.5, metadata=bounds(ge=0.0, le=1.0, allow_inf_nan=False))
    """A recorded run of a gold file scoring below this F1 is a `low-score` item."""
    ratings_per_run: int = field(default=2, metadata=bounds(ge=0, le=1_000_000))
    """Deprecated in favour of `[rating] overlap`: when written, an agent run with fewer ratings
    in force than this is an `unrated` item (0: never); when not, `[rating] overlap` counts."""
    fields_set: frozenset[str] = _fields_set()


@dataclass(slots=True)
class RatingConfig:
    """A rating campaign (SPEC 3.9): who rates, how many ratings each item wants, how far
    apart raters' scores must be for an item to be disputed, and how quick a rating is too
    quick to be read."""

    # Bounded like every number and list read from a file: a team is a few dozen people, and
    # assignment hashes every rater for every item.
    raters: list[str] = field(default_factory=list, metadata=bounds(max_length=1000))
    overlap: int = field(default=2, metadata=bounds(ge=1, le=1000))
    dispute_spread: int = field(default=2, metadata=bounds(ge=1, le=100))
    min_seconds: float = field(
        default=5.0, metadata=bounds(ge=0.0, le=86_400.0, allow_inf_nan=False)
    )
    """A rating whose `duration_s` is below this is flagged too fast (`ratings status`, a
    triage warning: issue 36 row 4); 0: never."""
    fields_set: frozenset[str] = _fields_set()


@dataclass(slots=True)
class ResultsConfig:
    baseline: str = ""
    """The agent others are compared against (SPEC 3.10); empty: no comparisons."""
    fields_set: frozenset[str] = _fields_set()


Section = (
    PathsConfig
    | GitConfig
    | HoldoutConfig
    | LimitsConfig
    | TriageConfig
    | RatingConfig
    | ResultsConfig
)

SECTIONS: dict[str, type[Section]] = {
    "paths": PathsConfig,
    "git": GitConfig,
    "holdout": HoldoutConfig,
    "limits": LimitsConfig,
    "triage": TriageConfig,
    "rating": RatingConfig,
    "results": ResultsConfig,
}
"""voyage.toml's sections, in the order the file format declares them."""
