"""Effective scores (SPEC 3.9), decided once for every face: agreement's calibration, results,
`ratings export`, `ratings status`, triage and the adjudication screen all ask here.

- An item is one (fixture_id, run_id).
- A rater's effective rating of an item is their rating in force (`RatingStore.effective`: the
  last record in file order, unless it is a retraction).
- The effective score of an item on a dimension is its adjudicated score for that dimension if
  there is one, else the mean of its raters' effective scores on it.
- An item is disputed when its raters' effective scores on some dimension differ by at least
  `[rating] dispute_spread`.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field

from voyage_tui.engine.ratings.records import Rating
from voyage_tui.engine.ratings.runs import RunKey

Adjudicated = Mapping[RunKey, Mapping[str, int]]
"""The adjudication in force per item: dimension -> final score (retracted ones left out)."""


@dataclass(slots=True)
class ItemScores:
    run_key: RunKey
    by_rater: dict[str, dict[str, int]] = field(default_factory=dict)
    """Each rater's effective scores of the item, in the order their ratings were read."""
    adjudicated: dict[str, int] = field(default_factory=dict)
    """The adjudicated score per dimension, for the dimensions an adjudication settled."""

    @property
    def raters(self) -> list[str]:
        return list(self.by_rater)

    @property
    def dimensions(self) -> list[str]:
        seen: dict[str, None] = {}
        for scores in self.by_rater.values():
            seen.update(dict.fromkeys(scores))
        seen.update(dict.fromkeys(self.adjudicated))
        return list(seen)

    def score(self, dimension: str) -> float | None:
        """The effective score on `dimension`, or None when nobody scored it."""
        if dimension in self.adjudicated:
            return float(self.adjudicated[dimension])
        values = [s[dimension] for s in self.by_rater.values() if dimension in s]
        return sum(values) / len(values) if values else None

    def scores(self) -> dict[str, float]:
        """`score` of every dimension, in `dimensions` order. One pass over the ratings (results
        asks this of 100,000 items at once)."""
        totals: dict[str, int] = {}
        counts: dict[str, int] = {}
        for scores in self.by_rater.values():
            for dimension, value in scores.items():
                totals[dimension] = totals.get(dimension, 0) + value
                counts[dimension] = counts.get(dimension, 0) + 1
        out = {dimension: total / counts[dimension] for dimension, total in totals.items()}
        for dimension, value in self.adjudicated.items():
            out[dimension] = float(value)
        return out

    def source(self, dimension: str) -> str:
        """`adjudicated` or `raters`: where the effective score on `dimension` comes from."""
        return "adjudicated" if dimension in self.adjudicated else "raters"

    def spread(self) -> dict[str, int]:
        """Per dimension two or more raters scored: the highest minus the lowest score."""
        out: dict[str, int] = {}
        for dimension in self.dimensions:
            values = [s[dimension] for s in self.by_rater.values() if dimension in s]
            if len(values) >= 2:
                out[dimension] = max(values) - min(values)
        return out

    def disputed(self, dispute_spread: int) -> bool:
        return any(gap >= dispute_spread for gap in self.spread().values())


def item_scores(
    ratings: Iterable[Rating], adjudicated: Adjudicated | None = None
) -> dict[RunKey, ItemScores]:
    """Every item with a rating in force or an adjudication, in first-seen order.

    `ratings` are ratings in force (`RatingStore.effective().values()`); a retraction among them
    is ignored, so passing `latest()` by mistake cannot count an undone rating."""
    items: dict[RunKey, ItemScores] = {}
    for rating in ratings:
        if rating.scores is None:
            continue
        item = items.get(rating.run_key)
        if item is None:
            item = items[rating.run_key] = ItemScores(rating.run_key)
        item.by_rater[rating.rater] = dict(rating.scores)
    for pair, scores in (adjudicated or {}).items():
        item = items.get(pair)
        if item is None:
            item = items[pair] = ItemScores(pair)
        item.adjudicated = dict(scores)
    return items
