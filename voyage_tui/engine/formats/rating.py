"""Rater records: one JSON object per line of `ratings/<rater>.jsonl`.

The JSON Schema of a record (`voyage-tui schema rating`). The engine checks the files with
engine/ratings/records.py and rules.py, which give each problem its own code and line and are
stricter still (a blank id, an empty `scores`, a `rated_at` that is not a UTC time); a test
keeps every record this model refuses refused by those checks too.
"""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field


class RatingRecord(BaseModel):
    model_config = ConfigDict(strict=True, extra="allow", title="voyage-tui rating record")

    fixture_id: str = Field(min_length=1, description="The rated fixture's `id`.")
    run_id: str = Field(min_length=1, description="The rated agent run's `run_id`.")
    rater: str = Field(min_length=1, description="The rater's name; equals the file's name.")
    scores: dict[str, int] | None = Field(
        description="Rubric dimension -> score, each within the dimension's scale; null for a "
        "retraction (an undo: the run is unrated again)."
    )
    note: str = Field(default="", description="The rater's note.")
    rated_at: str = Field(description="ISO 8601, UTC.")
    blind: bool = Field(description="Whether the agent's label was hidden from the rater.")
    duration_s: float | None = Field(default=None, ge=0, description="Seconds spent on the item.")
