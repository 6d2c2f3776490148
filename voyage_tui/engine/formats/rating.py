"""Rater records: one JSON object per line of `ratings/<rater>.jsonl`."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field


class RatingRecord(BaseModel):
    model_config = ConfigDict(strict=True, extra="allow", title="voyage-tui rating record")

    fixture_id: str = Field(min_length=1)
    run_id: str = Field(min_length=1)
    rater: str = Field(min_length=1)
    scores: dict[str, int] = Field(description="Rubric dimension -> score.")
    note: str = ""
    rated_at: str = Field(description="ISO 8601, UTC.")
    blind: bool = True
    duration_s: float | None = Field(default=None, description="Seconds spent on the item.")
