"""Adjudications: one JSON object per line of `adjudications.jsonl` (SPEC 3.9).

The JSON Schema of a record (`voyage-tui schema adjudication`). The engine checks the file with
engine/ratings/adjudications.py, which gives each problem its own code and line and is stricter
still (a blank id, an empty `scores`, a time that is not UTC, a dimension the rubric lacks).
"""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field


class BasedOn(BaseModel):
    model_config = ConfigDict(strict=True, extra="forbid", title="a rating the adjudicator saw")

    rater: str = Field(min_length=1, description="The rater whose rating was shown.")
    rated_at: str = Field(description="That rating's `rated_at` (ISO 8601, UTC).")


class AdjudicationRecord(BaseModel):
    model_config = ConfigDict(strict=True, extra="allow", title="voyage-tui adjudication record")

    fixture_id: str = Field(min_length=1, description="The adjudicated fixture's `id`.")
    run_id: str = Field(min_length=1, description="The adjudicated agent run's `run_id`.")
    adjudicator: str = Field(min_length=1, description="Who settled the dispute.")
    scores: dict[str, int] | None = Field(
        description="Rubric dimension -> final score, each within the dimension's scale; null "
        "for a retraction (an undo: the item is unadjudicated again)."
    )
    based_on: list[BasedOn] = Field(
        default_factory=list,
        description="The ratings shown to the adjudicator, by rater and `rated_at`; when one of "
        "them is no longer that rater's rating in force, the adjudication is stale (a warning).",
    )
    note: str = Field(default="", description="The adjudicator's note.")
    rated_at: str = Field(description="When the adjudication was made, ISO 8601, UTC.")
