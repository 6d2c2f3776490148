"""Disputed items (SPEC 3.9): the items whose raters' effective scores on some dimension differ by
at least `[rating] dispute_spread`, with whether an adjudication settles them. `voyage-tui
adjudicate --list` and the adjudication screen both ask here.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from voyage_tui.engine.diagnostics import Diagnostic
from voyage_tui.engine.ratings.adjudications import Adjudication, AdjudicationsFile, BasedOn
from voyage_tui.engine.ratings.effective import ItemScores, item_scores
from voyage_tui.engine.ratings.records import Rating, utc_now
from voyage_tui.engine.ratings.runs import RunKey
from voyage_tui.engine.ratings.store import Key, RatingStore


@dataclass(frozen=True, slots=True)
class Dispute:
    item: ItemScores
    adjudicated: bool
    """An adjudication is in force for the item."""

    @property
    def run_key(self) -> RunKey:
        return self.item.run_key

    @property
    def spread(self) -> dict[str, int]:
        """Per dimension two or more raters scored: the highest minus the lowest score."""
        return self.item.spread()

    @property
    def raters(self) -> list[str]:
        return sorted(self.item.raters)

    def to_json(self) -> dict[str, Any]:
        fixture_id, run_id = self.run_key
        return {
            "fixture_id": fixture_id,
            "run_id": run_id,
            "spread": self.spread,
            "raters": self.raters,
            "adjudicated": self.adjudicated,
        }


def disputes(
    ratings: Iterable[Rating], adjudicated: Mapping[RunKey, Mapping[str, int]], spread: int
) -> list[Dispute]:
    """The disputed items among `ratings` (the ratings in force), by fixture_id then run_id.
    An adjudicated item stays disputed (its raters still disagree); `adjudicated` says it is
    settled."""
    items = item_scores(ratings, adjudicated)
    out = [
        Dispute(item, pair in adjudicated) for pair, item in items.items() if item.disputed(spread)
    ]
    out.sort(key=lambda d: d.run_key)
    return out


@dataclass(slots=True)
class DisputeReport:
    """The ratings and the adjudications as read, and the disputes they make."""

    store: RatingStore
    adjudications: AdjudicationsFile
    items: list[Dispute] = field(default_factory=list)
    in_force: Mapping[Key, Rating] = field(default_factory=dict)
    """The ratings in force that count (people's: engine/campaign/figures.py decides)."""

    def to_json(self) -> dict[str, Any]:
        return {"items": [d.to_json() for d in self.items]}

    def ratings_of(self, pair: RunKey) -> list[Rating]:
        """The raters' ratings in force for `pair`, by rater: what an adjudicator is shown, and
        what the adjudication's `based_on` names."""
        found = [r for r in self.in_force.values() if r.run_key == pair]
        return sorted(found, key=lambda r: r.rater)

    def adjudication_of(self, pair: RunKey) -> Adjudication | None:
        """The adjudication in force for `pair`, if any."""
        return self.adjudications.effective().get(pair)

    def adjudication_for(
        self, pair: RunKey, adjudicator: str, scores: Mapping[str, int], note: str = ""
    ) -> Adjudication:
        """The record that settles `pair` with `scores`, based on the ratings shown now."""
        return Adjudication(
            pair[0],
            pair[1],
            adjudicator,
            dict(scores),
            utc_now(),
            tuple(BasedOn.of(r) for r in self.ratings_of(pair)),
            note,
        )

    def retraction_for(self, pair: RunKey, adjudicator: str) -> Adjudication:
        """The record that undoes `pair`'s adjudication (append-only: `scores: null`)."""
        return Adjudication(pair[0], pair[1], adjudicator, None, utc_now())

    def unreadable(self) -> list[Diagnostic]:
        """What could not be read at all, so figures may lack records (exit 2)."""
        out = [d for d in self.store.problems]
        out += [d for f in self.store.files.values() if not f.readable for d in f.diagnostics]
        if not self.adjudications.readable:
            out += self.adjudications.diagnostics
        return out
