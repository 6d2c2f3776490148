"""How far the raters agree, per rubric dimension (docs/cli.md, "agreement"):

- Krippendorff's alpha at the ordinal level over all raters (the `krippendorff` package), on the
  items at least two raters scored on that dimension;
- Cohen's kappa with quadratic weights for each pair of raters, on the items both scored, over
  the dimension's whole scale (quadratic weights depend on the list of possible scores, not only
  on the scores given);
- the items the raters disagree on most (the largest spread of one dimension's scores), with
  every rater's scores and notes, for a calibration discussion.

A figure that is undefined (one rater, no item two raters share, every score the same) is None
with the reason, never a NaN. numpy and krippendorff are imported only here, and only when an
alpha is computed, so `validate` never loads them.
"""

from __future__ import annotations

import math
import warnings
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from itertools import combinations
from typing import Any

from voyage_tui.engine.ratings.records import Rating
from voyage_tui.engine.ratings.rules import scale_values
from voyage_tui.engine.ratings.runs import PairKey
from voyage_tui.engine.references.rubric import Rubric

ONE_RATER = "only one rater scored this dimension"
NO_RATINGS = "no rater scored this dimension"
NO_SHARED_ITEM = "no item was scored by two raters"
NO_OVERLAP = "the two raters scored no item in common"
ALL_SAME = "every score given is the same, so agreement beyond chance is undefined"
ONE_VALUE_SCALE = "the dimension's scale has a single value"


@dataclass(frozen=True, slots=True)
class DimensionAgreement:
    dimension: str
    alpha: float | None
    items: int
    """Items at least two raters scored on this dimension (the units alpha is computed on)."""
    ratings: int
    """The scores given on those items."""
    reason: str | None = None
    """Why alpha is None."""

    def to_json(self) -> dict[str, Any]:
        return {
            "alpha": self.alpha,
            "items": self.items,
            "ratings": self.ratings,
            "reason": self.reason,
        }


@dataclass(frozen=True, slots=True)
class PairAgreement:
    raters: tuple[str, str]
    dimension: str
    kappa: float | None
    items: int
    """Items both raters scored on this dimension."""
    reason: str | None = None

    def to_json(self) -> dict[str, Any]:
        return {
            "raters": list(self.raters),
            "dimension": self.dimension,
            "kappa": self.kappa,
            "items": self.items,
            "reason": self.reason,
        }


@dataclass(frozen=True, slots=True)
class DisputedItem:
    fixture_id: str
    run_id: str
    spread: int
    """The largest difference between two raters' scores of one dimension of this item."""
    spreads: dict[str, int]
    """That difference per dimension (dimensions at least two raters scored)."""
    ratings: list[Rating]
    """Every rater's rating in force, by rater name."""

    @property
    def pair(self) -> PairKey:
        return (self.fixture_id, self.run_id)

    @property
    def widest(self) -> list[str]:
        """The dimensions whose spread is the item's spread."""
        return [d for d, s in self.spreads.items() if s == self.spread]

    def to_json(self) -> dict[str, Any]:
        return {
            "fixture_id": self.fixture_id,
            "run_id": self.run_id,
            "spread": self.spread,
            "spreads": dict(self.spreads),
            "ratings": [
                {"rater": r.rater, "scores": dict(r.scores or {}), "note": r.note}
                for r in self.ratings
            ],
        }


@dataclass(slots=True)
class AgreementReport:
    raters: list[str] = field(default_factory=list)
    dimensions: dict[str, DimensionAgreement] = field(default_factory=dict)
    """In the rubric's order."""
    pairs: list[PairAgreement] = field(default_factory=list)
    """By rater pair (names sorted), then dimension in the rubric's order."""
    disputed: list[DisputedItem] = field(default_factory=list)
    """Largest spread first."""

    def below(self, min_alpha: float) -> list[DimensionAgreement]:
        """Dimensions whose alpha is below `min_alpha` (an undefined alpha is not below)."""
        return [d for d in self.dimensions.values() if d.alpha is not None and d.alpha < min_alpha]

    def to_json(self) -> dict[str, Any]:
        return {
            "raters": list(self.raters),
            "dimensions": {name: d.to_json() for name, d in self.dimensions.items()},
            "pairs": [p.to_json() for p in self.pairs],
            "disputed": [d.to_json() for d in self.disputed],
        }


# --- the statistics -------------------------------------------------------------------------------


def quadratic_kappa(a: Sequence[int], b: Sequence[int], labels: Sequence[int]) -> float | None:
    """Cohen's kappa with quadratic weights over `labels` (scikit-learn's
    `cohen_kappa_score(a, b, weights="quadratic", labels=labels)`), or None where it is undefined:
    no items, or both raters gave one and the same score throughout (no disagreement is
    expected by chance). Integer sums, one division: exact up to the last float step."""
    if len(a) != len(b):
        raise ValueError("the two raters' score lists differ in length")
    total = len(a)
    if total == 0:
        return None
    index = {label: i for i, label in enumerate(labels)}
    size = len(labels)
    rows = [0] * size
    cols = [0] * size
    observed = 0
    for x, y in zip(a, b, strict=True):
        i, j = index[x], index[y]
        rows[i] += 1
        cols[j] += 1
        observed += (i - j) ** 2
    expected = sum(rows[i] * cols[j] * (i - j) ** 2 for i in range(size) for j in range(size))
    if expected == 0:
        return None
    # 1 - observed / (expected / total), kept in integers until the last step
    return 1.0 - (observed * total) / expected


def ordinal_alpha(units: Sequence[dict[str, int]], values: Sequence[int]) -> float | None:
    """Krippendorff's alpha at the ordinal level over `units` (each rater -> score), or None
    where it is undefined (see `alpha_reason`)."""
    return _alpha(units, values)[0]


def _alpha(
    units: Sequence[dict[str, int]], values: Sequence[int]
) -> tuple[float | None, str | None]:
    pairable = [u for u in units if len(u) >= 2]
    raters = sorted({r for u in units for r in u})
    if not raters:
        return None, NO_RATINGS
    if len(raters) < 2:
        return None, ONE_RATER
    if not pairable:
        return None, NO_SHARED_ITEM
    if len(values) < 2:
        return None, ONE_VALUE_SCALE
    if len({s for u in pairable for s in u.values()}) < 2:
        return None, ALL_SAME
    import krippendorff
    import numpy as np

    data = np.full((len(raters), len(pairable)), np.nan)
    row = {r: i for i, r in enumerate(raters)}
    for column, unit in enumerate(pairable):
        for rater, score in unit.items():
            data[row[rater], column] = score
    with warnings.catch_warnings(), np.errstate(all="ignore"):
        warnings.simplefilter("ignore")
        value = float(
            krippendorff.alpha(
                reliability_data=data,
                level_of_measurement="ordinal",
                value_domain=list(values),
            )
        )
    if not math.isfinite(value):
        return None, ALL_SAME
    return value, None


# --- the report -----------------------------------------------------------------------------------


def compute_agreement(
    ratings: Iterable[Rating], rubric: Rubric, *, disputed: int = 10
) -> AgreementReport:
    """Agreement over the ratings in force (`RatingStore.effective().values()`; a retraction
    is skipped). A score outside its dimension's scale, or of a dimension the rubric lacks, is
    left out (validate reports it). `disputed` caps the list of most disputed items."""
    by_item: dict[PairKey, dict[str, Rating]] = {}
    for rating in ratings:
        if rating.scores is not None:
            by_item.setdefault(rating.pair, {})[rating.rater] = rating
    report = AgreementReport(raters=sorted({r for item in by_item.values() for r in item}))
    scores: dict[str, dict[PairKey, dict[str, int]]] = {}
    for dimension in rubric.dimensions:
        allowed = set(scale_values(dimension))
        per_item: dict[PairKey, dict[str, int]] = {}
        for pair, item in by_item.items():
            for rater, rating in item.items():
                score = _score_of(rating, dimension.name, rubric)
                if score is not None and score in allowed:
                    per_item.setdefault(pair, {})[rater] = score
        scores[dimension.name] = per_item
        pairable = [u for u in per_item.values() if len(u) >= 2]
        alpha, reason = _alpha(list(per_item.values()), scale_values(dimension))
        report.dimensions[dimension.name] = DimensionAgreement(
            dimension.name,
            alpha,
            items=len(pairable),
            ratings=sum(len(u) for u in pairable),
            reason=reason,
        )
    for first, second in combinations(report.raters, 2):
        for dimension in rubric.dimensions:
            shared = [
                (unit[first], unit[second])
                for _, unit in sorted(scores[dimension.name].items())
                if first in unit and second in unit
            ]
            kappa = quadratic_kappa(
                [x for x, _ in shared], [y for _, y in shared], scale_values(dimension)
            )
            if not shared:
                why: str | None = NO_OVERLAP
            elif kappa is None:
                why = ALL_SAME
            else:
                why = None
            report.pairs.append(
                PairAgreement((first, second), dimension.name, kappa, len(shared), why)
            )
    report.disputed = most_disputed(by_item, scores, limit=disputed)
    return report


def _score_of(rating: Rating, dimension: str, rubric: Rubric) -> int | None:
    if rating.scores is None:
        return None
    if dimension in rating.scores:
        return rating.scores[dimension]
    for name, score in rating.scores.items():  # a record read without the rules (tests, tools)
        found = rubric.find(name)
        if found is not None and found.name == dimension:
            return score
    return None


def most_disputed(
    by_item: dict[PairKey, dict[str, Rating]],
    scores: dict[str, dict[PairKey, dict[str, int]]],
    *,
    limit: int = 10,
) -> list[DisputedItem]:
    """Items whose raters differ, largest spread of one dimension first (then the sum of the
    spreads, then the ids)."""
    found: list[DisputedItem] = []
    for pair, item in by_item.items():
        spreads: dict[str, int] = {}
        for dimension, per_item in scores.items():
            unit = per_item.get(pair, {})
            if len(unit) >= 2:
                spreads[dimension] = max(unit.values()) - min(unit.values())
        spread = max(spreads.values(), default=0)
        if spread > 0:
            found.append(
                DisputedItem(
                    pair[0],
                    pair[1],
                    spread,
                    spreads,
                    [item[r] for r in sorted(item)],
                )
            )
    found.sort(key=lambda d: (-d.spread, -sum(d.spreads.values()), d.fixture_id, d.run_id))
    return found[:limit] if limit >= 0 else found
