"""`voyage.toml` as a file format: a pydantic model of each section, strict, no extra keys.

The engine reads the file with engine/workspace/config.py, which checks each value by hand (the
same rules, so `validate` starts without importing pydantic) and asks these models only for the
wording of a value they refuse; tests/engine/test_config_fast.py checks that the two agree.
"""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field

from voyage_tui.engine.loading.safe_read import MAX_FILE_BYTES_CEILING


class PathsModel(BaseModel):
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


class GitModel(BaseModel):
    model_config = ConfigDict(strict=True, extra="forbid")

    repo: str = "."
    # Empty: a final_head_sha may be reachable from any branch, tag, remote-tracking branch or
    # HEAD. Set: only from these branches, local or remote-tracking (docs/git-checks.md).
    branches: list[str] = Field(default_factory=list)


class HoldoutModel(BaseModel):
    model_config = ConfigDict(strict=True, extra="forbid")

    custodians: list[str] = Field(default_factory=list)
    bundle_paths: list[str] = Field(default_factory=list)
    # Nothing is skipped by default: a holdout's prompt pasted into an agent's Markdown
    # instructions is the commonest leak, so Markdown is searched like any other file.
    ignore_paths: list[str] = Field(default_factory=list)


class LimitsModel(BaseModel):
    model_config = ConfigDict(strict=True, extra="forbid")

    # Bounded like every number read from a file; a larger value is a diagnostic, and the
    # ceiling applies (engine/workspace/config.py).
    max_file_bytes: int = Field(default=1_048_576, gt=0, le=MAX_FILE_BYTES_CEILING)


class TriageModel(BaseModel):
    model_config = ConfigDict(strict=True, extra="forbid")

    min_f1: float = Field(default=0.5, ge=0.0, le=1.0, allow_inf_nan=False)
    """A recorded run of a gold file scoring below this F1 is a `low-score` item."""
    ratings_per_run: int = Field(default=2, ge=0, le=1_000_000)
    """Deprecated in favour of `[rating] overlap`: when written, an agent run with fewer ratings
    in force than this is an `unrated` item (0: never); when not, `[rating] overlap` counts."""


class RatingModel(BaseModel):
    """A rating campaign (SPEC 3.9): who rates, how many ratings each item wants, and how far
    apart raters' scores must be for an item to be disputed."""

    model_config = ConfigDict(strict=True, extra="forbid")

    # Bounded like every number and list read from a file: a team is a few dozen people, and
    # assignment hashes every rater for every item.
    raters: list[str] = Field(default_factory=list, max_length=1000)
    overlap: int = Field(default=2, ge=1, le=1000)
    dispute_spread: int = Field(default=2, ge=1, le=100)


class ResultsModel(BaseModel):
    model_config = ConfigDict(strict=True, extra="forbid")

    baseline: str = ""
    """The agent others are compared against (SPEC 3.10); empty: no comparisons."""


class VoyageModel(BaseModel):
    model_config = ConfigDict(strict=True, extra="forbid")

    paths: PathsModel = Field(default_factory=PathsModel)
    git: GitModel = Field(default_factory=GitModel)
    holdout: HoldoutModel = Field(default_factory=HoldoutModel)
    limits: LimitsModel = Field(default_factory=LimitsModel)
    triage: TriageModel = Field(default_factory=TriageModel)
    rating: RatingModel = Field(default_factory=RatingModel)
    results: ResultsModel = Field(default_factory=ResultsModel)


SECTION_MODELS: dict[str, type[BaseModel]] = {
    "paths": PathsModel,
    "git": GitModel,
    "holdout": HoldoutModel,
    "limits": LimitsModel,
    "triage": TriageModel,
    "rating": RatingModel,
    "results": ResultsModel,
}
