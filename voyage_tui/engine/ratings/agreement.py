"""How far the raters agree, per rubric dimension (docs/cli.md, "agreement"):

- Krippendorff's alpha at the ordinal level over all raters (the `krippendorff` package), on the
  items at least two raters scored on that dimension;
- Cohen's kappa with quadratic weights for each pair of raters, on the items both scored, over
  the dimension's whole scale (quadratic weights depend on the list of possible scores, not only
  on the scores given);
- the items the raters disagree on most (the largest spread of one dimension's scores), with
  every rater's scores and notes, for a calibration discussion.

With many raters the pairs are summarised, not all listed: past LIST_EVERY_PAIR pairs of raters
per dimension, a pair that shares fewer than MIN_SHARED_ITEMS items is left out, and of the
others only the TOP_PAIRS lowest kappas per dimension are listed; `pairs_omitted` counts the
rest and says why. Kappa is then computed for all pairs at once from five sums per pair (numpy,
over the items each rater scored), never rater pair by rater pair over every item: 1,000 raters
make 499,500 pairs.

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

from voyage_tui.engine.ratings.labels import RaterLabels, rater_labels
from voyage_tui.engine.ratings.records import Rating
from voyage_tui.engine.ratings.rules import scale_values
from voyage_tui.engine.ratings.runs import RunKey
from voyage_tui.engine.references.rubric import Rubric

ONE_RATER = "only one rater scored this dimension"
NO_RATINGS = "no rater scored this dimension"
NO_SHARED_ITEM = "no item was scored by two raters"
NO_OVERLAP = "the two raters scored no item in common"
ALL_SAME = "every score given is the same, so agreement beyond chance is undefined"
ONE_VALUE_SCALE = "the dimension's scale has a single value"

LIST_EVERY_PAIR = 45
"""Up to this many pairs of raters (10 raters), every pair is listed for every dimension, with
or without items in common, as a team's report always was."""
MIN_SHARED_ITEMS = 3
"""Past LIST_EVERY_PAIR, a pair sharing fewer items is not listed: a kappa over one or two items
says little, and there are thousands of such pairs."""
TOP_PAIRS = 50
"""Past LIST_EVERY_PAIR, the pairs listed per dimension: the lowest kappas (the raters to talk
to), then pairs whose kappa is undefined while room is left."""
DENSE_CELLS = 4_000_000
"""Raters x items of one dimension up to which the sums are matrix products (blocked by rows;
three float arrays of that many cells, about 100 MB at the bound); past it, the pairs a sparse
campaign has are summed item by item (4 million scores is past any real campaign)."""


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
    def run_key(self) -> RunKey:
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
    pairs_omitted: PairsOmitted = field(default_factory=lambda: PairsOmitted())
    """The (pair, dimension) figures not in `pairs`, and why."""

    @property
    def labels(self) -> RaterLabels:
        """The raters' short labels for tables of pairs (labels.py), the same on every face."""
        return rater_labels(self.raters)

    def below(self, min_alpha: float) -> list[DimensionAgreement]:
        """Dimensions whose alpha is below `min_alpha` (an undefined alpha is not below)."""
        return [d for d in self.dimensions.values() if d.alpha is not None and d.alpha < min_alpha]

    def to_json(self) -> dict[str, Any]:
        return {
            "raters": list(self.raters),
            "dimensions": {name: d.to_json() for name, d in self.dimensions.items()},
            "pairs": [p.to_json() for p in self.pairs],
            "pairs_omitted": self.pairs_omitted.to_json(),
            "disputed": [d.to_json() for d in self.disputed],
        }


@dataclass(frozen=True, slots=True)
class PairsOmitted:
    few_items: int = 0
    """(pair, dimension) figures left out for sharing fewer than MIN_SHARED_ITEMS items."""
    beyond_top: int = 0
    """Those left out for not being among the TOP_PAIRS lowest kappas of their dimension."""

    @property
    def count(self) -> int:
        return self.few_items + self.beyond_top

    @property
    def reason(self) -> str | None:
        if not self.count:
            return None
        parts = []
        if self.few_items:
            parts.append(f"{self.few_items:,} share fewer than {MIN_SHARED_ITEMS} items")
        if self.beyond_top:
            parts.append(
                f"{self.beyond_top:,} are beyond the {TOP_PAIRS} lowest kappas of their dimension"
            )
        return (
            f"with more than {LIST_EVERY_PAIR} pairs of raters, only pairs sharing at least "
            f"{MIN_SHARED_ITEMS} items and among the {TOP_PAIRS} lowest kappas per dimension are "
            f"listed; of the pairs per dimension not listed, {' and '.join(parts)}"
        )

    def to_json(self) -> dict[str, Any]:
        return {"count": self.count, "reason": self.reason}


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
    by_item: dict[RunKey, dict[str, Rating]] = {}
    for rating in ratings:
        if rating.scores is not None:
            by_item.setdefault(rating.run_key, {})[rating.rater] = rating
    report = AgreementReport(raters=sorted({r for item in by_item.values() for r in item}))
    scores: dict[str, dict[RunKey, dict[str, int]]] = {}
    for dimension in rubric.dimensions:
        allowed = set(scale_values(dimension))
        per_item: dict[RunKey, dict[str, int]] = {}
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
    if len(report.raters) * (len(report.raters) - 1) // 2 <= LIST_EVERY_PAIR:
        report.pairs = _every_pair(report.raters, rubric, scores)
    else:
        report.pairs, report.pairs_omitted = _lowest_pairs(report.raters, rubric, scores)
    report.disputed = most_disputed(by_item, scores, limit=disputed)
    return report


def _every_pair(
    raters: list[str], rubric: Rubric, scores: dict[str, dict[RunKey, dict[str, int]]]
) -> list[PairAgreement]:
    """Every pair of a few raters, on every dimension, by pair then dimension."""
    pairs = []
    for first, second in combinations(raters, 2):
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
            pairs.append(PairAgreement((first, second), dimension.name, kappa, len(shared), why))
    return pairs


@dataclass(frozen=True, slots=True)
class PairSums:
    """For every pair of raters (first < second, as indices into the sorted raters) that shares
    an item: the items shared and, over them, the sums that make quadratic kappa. Positions
    (a score less the scale's lowest value) are what kappa's weights count, so
    observed = Σ(a - b)² = a2 + b2 - 2·ab and, from the margins,
    expected = Σ_k Σ_l rows_k · cols_l · (k - l)² = n·a2 + n·b2 - 2·a1·b1."""

    first: Any
    second: Any
    n: Any
    a1: Any
    b1: Any
    a2: Any
    b2: Any
    ab: Any


def pair_sums(
    per_item: dict[RunKey, dict[str, int]], raters: list[str], low: int, *, dense: bool | None
) -> PairSums:
    """The sums of every pair of raters sharing an item. `dense` forces the matrix products
    (True) or the item-by-item sums (False); None takes the cheaper by an estimate of their
    steps (the matrix path only up to DENSE_CELLS)."""
    import numpy as np

    index = {name: i for i, name in enumerate(raters)}
    units = [u for u in per_item.values() if len(u) >= 2]
    used = sorted({index[r] for u in units for r in u})
    if dense is None:
        # The matrix products cost raters² x items multiply-adds (in BLAS, a few hundred
        # times cheaper each than a step of Python); item by item costs one Python step per
        # pair of raters per item they share. Dense ratings (everyone scores everything)
        # favour the first, a sparse campaign the second.
        pair_steps = sum(len(u) * (len(u) - 1) // 2 for u in units)
        dense = (
            len(used) * len(units) <= DENSE_CELLS
            and len(used) ** 2 * len(units) * 6 <= pair_steps * 300
        )
    if not units:
        empty = np.zeros(0, dtype=np.int64)
        return PairSums(*([empty] * 8))
    if dense:
        return _dense_sums(np, units, index, used, low)
    return _sparse_sums(np, units, index, low)


def _dense_sums(
    np: Any, units: list[dict[str, int]], index: dict[str, int], used: list[int], low: int
) -> PairSums:
    # Raters x items: M (1 where scored), X (the position), X2 (its square). Every sum is a
    # matrix product over the items, done in blocks of rows so memory stays rows x raters.
    # float64 holds these integer sums exactly (far below 2**53).
    row = {rater: i for i, rater in enumerate(used)}
    m = np.zeros((len(used), len(units)))
    x = np.zeros((len(used), len(units)))
    for column, unit in enumerate(units):
        for rater, score in unit.items():
            r = row[index[rater]]
            m[r, column] = 1.0
            x[r, column] = score - low
    x2 = x * x
    ids = np.asarray(used, dtype=np.int64)
    block = max(1, 2_000_000 // max(1, len(used)))
    parts: list[tuple[Any, ...]] = []
    for start in range(0, len(used), block):
        stop = min(start + block, len(used))
        # each pair once: the block's rows against the raters from its own first row on,
        # above the diagonal (first < second)
        rows, cols = np.triu_indices(stop - start, 1, len(used) - start)
        sums = [
            (left[start:stop] @ right[start:].T)[rows, cols]
            for left, right in ((m, m), (x, m), (m, x), (x2, m), (m, x2), (x, x))
        ]
        shared = np.nonzero(sums[0])[0]
        parts.append(
            (
                ids[rows[shared] + start],
                ids[cols[shared] + start],
                *(v[shared].astype(np.int64) for v in sums),
            )
        )
    return PairSums(*(np.concatenate([p[i] for p in parts]) for i in range(8)))


def _sparse_sums(np: Any, units: list[dict[str, int]], index: dict[str, int], low: int) -> PairSums:
    sums: dict[tuple[int, int], list[int]] = {}
    for unit in units:
        scored = sorted((index[r], s - low) for r, s in unit.items())
        for i, (a, x) in enumerate(scored):
            for b, y in scored[i + 1 :]:
                acc = sums.get((a, b))
                if acc is None:
                    acc = sums[(a, b)] = [0, 0, 0, 0, 0, 0]
                acc[0] += 1
                acc[1] += x
                acc[2] += y
                acc[3] += x * x
                acc[4] += y * y
                acc[5] += x * y
    keys = list(sums)
    columns = list(zip(*(sums[k] for k in keys), strict=True)) if keys else [()] * 6
    return PairSums(
        np.asarray([k[0] for k in keys], dtype=np.int64),
        np.asarray([k[1] for k in keys], dtype=np.int64),
        *(np.asarray(c, dtype=np.int64) for c in columns),
    )


def _kappa_of(n: int, a1: int, b1: int, a2: int, b2: int, ab: int) -> float | None:
    """quadratic_kappa's figure from the sums, with its integer arithmetic and one division."""
    observed = a2 + b2 - 2 * ab
    expected = n * a2 + n * b2 - 2 * a1 * b1
    if n == 0 or expected == 0:
        return None
    return 1.0 - (observed * n) / expected


def _lowest_pairs(
    raters: list[str], rubric: Rubric, scores: dict[str, dict[RunKey, dict[str, int]]]
) -> tuple[list[PairAgreement], PairsOmitted]:
    import numpy as np

    total = len(raters) * (len(raters) - 1) // 2
    few = beyond = 0
    chosen: list[PairAgreement] = []
    for dimension in rubric.dimensions:
        low = scale_values(dimension)[0]
        sums = pair_sums(scores[dimension.name], raters, low, dense=None)
        enough = np.nonzero(sums.n >= MIN_SHARED_ITEMS)[0]
        few += total - len(enough)
        n, a1, b1 = sums.n[enough], sums.a1[enough], sums.b1[enough]
        a2, b2, ab = sums.a2[enough], sums.b2[enough], sums.ab[enough]
        expected = n * a2 + n * b2 - 2 * a1 * b1
        observed = a2 + b2 - 2 * ab
        defined = np.nonzero(expected != 0)[0]
        # kappa = 1 - observed·n/expected: the lowest kappas are the highest ratios
        ratio = (observed[defined] * n[defined]) / expected[defined]
        if len(defined) > TOP_PAIRS:
            top = np.argpartition(-ratio, TOP_PAIRS - 1)[:TOP_PAIRS]
            picked = list(defined[top])
        else:
            picked = list(defined)
        if len(picked) < TOP_PAIRS:
            undefined = np.nonzero(expected == 0)[0]
            picked += list(undefined[: TOP_PAIRS - len(picked)])
        beyond += len(enough) - len(picked)
        for at in picked:
            i = int(enough[at])
            figures = [int(v[i]) for v in (sums.n, sums.a1, sums.b1, sums.a2, sums.b2, sums.ab)]
            kappa = _kappa_of(*figures)
            first, second = raters[int(sums.first[i])], raters[int(sums.second[i])]
            chosen.append(
                PairAgreement(
                    (first, second),
                    dimension.name,
                    kappa,
                    figures[0],
                    None if kappa is not None else ALL_SAME,
                )
            )
    order = {d.name: i for i, d in enumerate(rubric.dimensions)}
    chosen.sort(key=lambda p: (p.raters, order[p.dimension]))
    return chosen, PairsOmitted(few, beyond)


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
    by_item: dict[RunKey, dict[str, Rating]],
    scores: dict[str, dict[RunKey, dict[str, int]]],
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
