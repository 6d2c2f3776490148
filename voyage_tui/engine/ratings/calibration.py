"""Calibration (issue 19): each rater against the adjudicated scores, so a lead sees who drifts.

Per rater and rubric dimension: Cohen's kappa with quadratic weights (agreement.py
`quadratic_kappa`, over the dimension's whole scale) between the rater's scores and the final
scores, over the items that rater rated on that dimension and that have an adjudication in
force settling it. A (rater, dimension) with no such item is not listed; a kappa that cannot be
computed (both sides gave one and the same score throughout) is None with its reason.
`voyage-tui agreement` and the agreement screen both ask here.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from voyage_tui.engine.ratings.agreement import quadratic_kappa
from voyage_tui.engine.ratings.records import Rating
from voyage_tui.engine.ratings.rules import scale_values
from voyage_tui.engine.ratings.runs import RunKey
from voyage_tui.engine.references.rubric import Rubric

NO_VARIATION = "one score throughout on both sides: kappa is undefined"


@dataclass(frozen=True, slots=True)
class Calibration:
    rater: str
    dimension: str
    kappa: float | None
    items: int
    """Items the rater scored on the dimension that an adjudication settles."""
    reason: str | None = None
    """Why `kappa` is None."""

    def to_json(self) -> dict[str, Any]:
        return {
            "rater": self.rater,
            "dimension": self.dimension,
            "kappa": self.kappa,
            "items": self.items,
        }


def calibration(
    ratings: Iterable[Rating],
    adjudicated: Mapping[RunKey, Mapping[str, int]],
    rubric: Rubric,
) -> list[Calibration]:
    """Each rater against the final scores: `ratings` are the ratings in force, `adjudicated`
    the adjudications in force (`AdjudicationsFile.in_force()`). By rater, then dimension in the
    rubric's order. A score off its dimension's scale is left out (validate reports it)."""
    by_rater: dict[str, list[Rating]] = {}
    for rating in ratings:
        if rating.scores is not None and rating.run_key in adjudicated:
            by_rater.setdefault(rating.rater, []).append(rating)
    out: list[Calibration] = []
    for rater in sorted(by_rater):
        for dimension in rubric.dimensions:
            labels = scale_values(dimension)
            allowed = set(labels)
            mine: list[int] = []
            final: list[int] = []
            for rating in by_rater[rater]:
                score = (rating.scores or {}).get(dimension.name)
                settled = adjudicated[rating.run_key].get(dimension.name)
                if score is not None and settled is not None and {score, settled} <= allowed:
                    mine.append(score)
                    final.append(settled)
            if not mine:
                continue
            kappa = quadratic_kappa(mine, final, labels)
            reason = NO_VARIATION if kappa is None else None
            out.append(Calibration(rater, dimension.name, kappa, len(mine), reason))
    return out
