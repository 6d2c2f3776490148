"""Which rows `voyage-tui ratings export` writes (SPEC 6), decided here so any face exports the
same: one row per effective rating and dimension, then one per adjudicated dimension.

- A rater's row comes from their rating in force for the item (`RatingStore.effective`: the
  last record in file order, a retraction leaving none). Superseded and withdrawn ratings are
  not exported.
- An adjudication in force (its last record, unless a retraction) adds one row per dimension it
  settles, `source` `adjudicated`, `rater` the adjudicator, `blind` false and no `duration_s`.
  The raters' rows of that item stay beside it: an export is for analysis.
- `agent` is the run's label, shown (an export is not for raters); None for a run the suite
  no longer has.
- `note` is the note of the rating or adjudication the row comes from ("" for none), on each of
  its rows (issue 36 row 5): a row stands alone in a notebook.

Rows come by fixture_id, run_id, then the raters' rows (by rater) before the adjudication's,
each in the rubric's order of dimensions (a dimension the rubric lacks last, by name).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from voyage_tui.engine.ratings.adjudications import Adjudication
from voyage_tui.engine.ratings.records import Rating
from voyage_tui.engine.ratings.runs import RunKey

COLUMNS = (
    "fixture_id",
    "run_id",
    "agent",
    "rater",
    "dimension",
    "score",
    "rated_at",
    "blind",
    "duration_s",
    "source",
    "note",
)
RATER = "rater"
ADJUDICATED = "adjudicated"


@dataclass(frozen=True, slots=True)
class ExportRow:
    fixture_id: str
    run_id: str
    agent: str | None
    rater: str
    dimension: str
    score: int
    rated_at: str
    blind: bool
    duration_s: float | None
    source: str
    note: str = ""

    def to_json(self) -> dict[str, Any]:
        return {name: getattr(self, name) for name in COLUMNS}


def export_rows(
    ratings: Iterable[Rating],
    adjudications: Iterable[Adjudication],
    agents: Mapping[RunKey, str | None],
    dimensions: Iterable[str] = (),
) -> list[ExportRow]:
    """The rows for `ratings` (the ratings in force) and `adjudications` (those in force),
    `agents` giving each run's label, `dimensions` the rubric's order."""
    order = {name: index for index, name in enumerate(dimensions)}

    def by_rubric(scores: Mapping[str, int]) -> list[tuple[str, int]]:
        return sorted(scores.items(), key=lambda kv: (order.get(kv[0], len(order)), kv[0]))

    keyed: list[tuple[tuple[str, str, int, str], list[ExportRow]]] = []
    for rating in ratings:
        if rating.scores is None:
            continue
        rows = [
            ExportRow(
                rating.fixture_id,
                rating.run_id,
                agents.get(rating.run_key),
                rating.rater,
                dimension,
                score,
                rating.rated_at,
                rating.blind,
                rating.duration_s,
                RATER,
                rating.note,
            )
            for dimension, score in by_rubric(rating.scores)
        ]
        keyed.append(((rating.fixture_id, rating.run_id, 0, rating.rater), rows))
    for adjudication in adjudications:
        if adjudication.scores is None:
            continue
        rows = [
            ExportRow(
                adjudication.fixture_id,
                adjudication.run_id,
                agents.get(adjudication.run_key),
                adjudication.adjudicator,
                dimension,
                score,
                adjudication.rated_at,
                False,
                None,
                ADJUDICATED,
                adjudication.note,
            )
            for dimension, score in by_rubric(adjudication.scores)
        ]
        keyed.append(((adjudication.fixture_id, adjudication.run_id, 1, ""), rows))
    keyed.sort(key=lambda pair: pair[0])
    return [row for _, rows in keyed for row in rows]
