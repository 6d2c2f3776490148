"""How far to trust a judge (SPEC 3.11, `voyage-tui judge align`): per rubric dimension, on the
items the judge and at least one person scored,

- `judge_kappa`: the mean over people P of the quadratic-weighted kappa between the judge's
  score and P's effective score (their rating in force), on the items both scored; a judge run
  K times per item scores its rounded mean (halves up);
- `human_kappa`: the mean over pairs of people of their kappa on those items: the ceiling the
  judge is held to;
- each with a 95% percentile bootstrap interval over items (RESAMPLES resamples, SEED): an item
  drawn twice counts twice in every kappa of the resample, and a resample in which a figure is
  undefined is left out of its interval;
- `bias`: the mean over items of the judge's score minus the people's mean score; `exact`: the
  share of items where the judge's score equals the people's rounded mean; `confusion`: counts
  of judge score (rows) x people's rounded mean (columns) over the scale;
- `self_kappa`: Krippendorff's alpha (ordinal) among the judge's repeats, when it has two.

Only the records of the judge's latest command count (the command of its last record): a
changed command started afresh, and its older answers are another judge's. Kappa and alpha are
agreement.py's. A figure that is undefined is None with its reason, never a NaN.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from itertools import combinations
from typing import Any

from voyage_tui.engine.campaign.counting import Raters
from voyage_tui.engine.campaign.snapshot import Campaign
from voyage_tui.engine.ratings.agreement import ordinal_alpha, quadratic_kappa
from voyage_tui.engine.ratings.rules import scale_values
from voyage_tui.engine.ratings.runs import RunKey

RESAMPLES = 1000
SEED = 20261208
LEVEL = 0.95

NO_SHARED = "no item was scored by both the judge and a person"
JUDGE_UNDEFINED = "kappa is undefined for every person (every score on the shared items the same)"
ONE_PERSON = "fewer than two people scored these items, so there is no ceiling to compare with"
NO_PAIR = "no two people scored an item in common"
HUMAN_UNDEFINED = "kappa is undefined for every pair of people (every score the same)"
ONE_REPEAT = "the judge was run once per item (--repeat 2 or more gives its self-agreement)"
NO_INTERVAL = "the figure is undefined in every resample"


@dataclass(frozen=True, slots=True)
class DimensionAlignment:
    dimension: str
    items: int
    judge_kappa: float | None
    judge_kappa_ci: tuple[float, float] | None
    human_kappa: float | None
    human_kappa_ci: tuple[float, float] | None
    bias: float | None
    exact: float | None
    scale: list[int]
    confusion: list[list[int]]
    """Rows: the judge's score; columns: the people's rounded mean; both over `scale`."""
    self_kappa: float | None
    reasons: dict[str, str] = field(default_factory=dict)
    """Why each figure that is None is."""

    @property
    def below_ceiling(self) -> bool:
        """The judge's interval lies wholly under the people's: it agrees with them less than
        they agree among themselves, beyond the noise of the items."""
        j, h = self.judge_kappa_ci, self.human_kappa_ci
        return j is not None and h is not None and j[1] < h[0]

    def to_json(self) -> dict[str, Any]:
        return {
            "items": self.items,
            "judge_kappa": self.judge_kappa,
            "judge_kappa_ci": list(self.judge_kappa_ci) if self.judge_kappa_ci else None,
            "human_kappa": self.human_kappa,
            "human_kappa_ci": list(self.human_kappa_ci) if self.human_kappa_ci else None,
            "bias": self.bias,
            "exact": self.exact,
            "confusion": {"scale": self.scale, "counts": self.confusion},
            "self_kappa": self.self_kappa,
            "reasons": dict(self.reasons),
        }


@dataclass(frozen=True, slots=True)
class Alignment:
    judge: str
    command_sha256: str | None
    repeats: int
    """The most repeats the judge has of one item."""
    dimensions: dict[str, DimensionAlignment]

    def below(self, min_kappa: float) -> list[DimensionAlignment]:
        return [
            d
            for d in self.dimensions.values()
            if d.judge_kappa_ci is not None and d.judge_kappa_ci[0] < min_kappa
        ]

    def to_json(self) -> dict[str, Any]:
        return {
            "judge": self.judge,
            "command_sha256": self.command_sha256,
            "repeats": self.repeats,
            "dimensions": {name: d.to_json() for name, d in self.dimensions.items()},
        }


def judge_names(campaign: Campaign) -> list[str]:
    """Every judge with a record in the campaign."""
    return campaign.raters(Raters.PROGRAMS)


def _latest_command(
    campaign: Campaign, name: str
) -> tuple[str | None, dict[RunKey, dict[int, dict[str, int]]]]:
    """The judge's latest command and its scores in force: item -> repeat -> scores."""
    mine = [r for r in campaign.records(Raters.PROGRAMS) if r.rater == name]
    if not mine:
        return None, {}
    sha = (mine[-1].judge or {}).get("command_sha256")
    out: dict[RunKey, dict[int, dict[str, int]]] = {}
    for rating in mine:
        judge = rating.judge or {}
        repeat = judge.get("repeat", 1)
        if judge.get("command_sha256") != sha or not isinstance(repeat, int):
            continue
        repeats = out.setdefault(rating.run_key, {})
        if rating.scores is None:
            repeats.pop(repeat, None)
        else:
            repeats[repeat] = dict(rating.scores)
    return (sha if isinstance(sha, str) else None), {k: v for k, v in out.items() if v}


def _round(value: float) -> int:
    return math.floor(value + 0.5)


def align(
    campaign: Campaign, name: str, *, resamples: int = RESAMPLES, seed: int = SEED
) -> Alignment:
    sha, judged = _latest_command(campaign, name)
    people: dict[RunKey, dict[str, dict[str, int]]] = {}
    for rating in campaign.in_force(Raters.PEOPLE).values():
        if rating.scores is not None:
            people.setdefault(rating.run_key, {})[rating.rater] = dict(rating.scores)
    dimensions: dict[str, DimensionAlignment] = {}
    for dimension in campaign.rubric.dimensions:
        scale = scale_values(dimension)
        allowed = set(scale)
        rows: list[tuple[int, dict[str, int], list[int]]] = []
        for pair, repeats in judged.items():
            runs = [s[dimension.name] for s in repeats.values() if s.get(dimension.name) in allowed]
            humans = {
                p: s[dimension.name]
                for p, s in people.get(pair, {}).items()
                if s.get(dimension.name) in allowed
            }
            if runs and humans:
                rows.append((_round(sum(runs) / len(runs)), humans, runs))
        dimensions[dimension.name] = _figures(dimension.name, scale, rows, resamples, seed)
    most = max((len(r) for r in judged.values()), default=0)
    return Alignment(name, sha, most, dimensions)


def _figures(
    name: str,
    scale: list[int],
    rows: list[tuple[int, dict[str, int], list[int]]],
    resamples: int,
    seed: int,
) -> DimensionAlignment:
    reasons: dict[str, str] = {}
    index = {v: i for i, v in enumerate(scale)}
    confusion = [[0] * len(scale) for _ in scale]
    if not rows:
        for figure in ("judge_kappa", "human_kappa", "bias", "exact", "self_kappa"):
            reasons[figure] = NO_SHARED
        return DimensionAlignment(
            name, 0, None, None, None, None, None, None, scale, confusion, None, reasons
        )
    judge = [j for j, _, _ in rows]
    persons = sorted({p for _, h, _ in rows for p in h})
    columns = {p: [h.get(p) for _, h, _ in rows] for p in persons}
    judge_kappa = _mean_kappa([(judge, columns[p]) for p in persons], scale)
    if judge_kappa is None:
        reasons["judge_kappa"] = JUDGE_UNDEFINED
    pairs = [(columns[p], columns[q]) for p, q in combinations(persons, 2)]
    human_kappa = _mean_kappa(pairs, scale)
    if human_kappa is None:
        reasons["human_kappa"] = (
            ONE_PERSON
            if len(persons) < 2
            else NO_PAIR
            if not any(_shared(a, b) for a, b in pairs)
            else HUMAN_UNDEFINED
        )
    judge_ci = human_ci = None
    if judge_kappa is not None or human_kappa is not None:
        judge_ci, human_ci = _bootstrap(judge, columns, persons, scale, resamples, seed)
    if judge_kappa is not None and judge_ci is None:
        reasons["judge_kappa_ci"] = NO_INTERVAL
    if human_kappa is not None and human_ci is None:
        reasons["human_kappa_ci"] = NO_INTERVAL
    if judge_kappa is None:
        judge_ci = None
    if human_kappa is None:
        human_ci = None
    diffs: list[float] = []
    exact = 0
    for j, humans, _ in rows:
        mean = sum(humans.values()) / len(humans)
        diffs.append(j - mean)
        rounded = _round(mean)
        exact += rounded == j
        confusion[index[j]][index[rounded]] += 1
    units = [{str(k): s for k, s in enumerate(runs)} for _, _, runs in rows]
    self_kappa = ordinal_alpha(units, scale) if any(len(u) >= 2 for u in units) else None
    if self_kappa is None:
        reasons["self_kappa"] = (
            ONE_REPEAT
            if not any(len(u) >= 2 for u in units)
            else "the judge's repeats give one and the same score throughout"
        )
    return DimensionAlignment(
        name,
        len(rows),
        judge_kappa,
        judge_ci,
        human_kappa,
        human_ci,
        sum(diffs) / len(diffs),
        exact / len(rows),
        scale,
        confusion,
        self_kappa,
        reasons,
    )


def _shared(a: Sequence[int | None], b: Sequence[int | None]) -> bool:
    return any(x is not None and y is not None for x, y in zip(a, b, strict=True))


def _mean_kappa(
    pairs: Sequence[tuple[Sequence[int | None], Sequence[int | None]]], scale: list[int]
) -> float | None:
    """The mean of the defined kappas of `pairs`, each over the items both scored."""
    values = []
    for a, b in pairs:
        both = [(x, y) for x, y in zip(a, b, strict=True) if x is not None and y is not None]
        kappa = quadratic_kappa([x for x, _ in both], [y for _, y in both], scale)
        if kappa is not None:
            values.append(kappa)
    return sum(values) / len(values) if values else None


def _bootstrap(
    judge: list[int],
    columns: dict[str, list[int | None]],
    persons: list[str],
    scale: list[int],
    resamples: int,
    seed: int,
) -> tuple[tuple[float, float] | None, tuple[float, float] | None]:
    """Both intervals from the same resamples of items. A resample is a weight per item (how
    often it was drawn); every kappa of it comes from weighted sums, the ones agreement's
    kappa is made of, so 1,000 resamples cost a few matrix products, not 1,000 loops."""
    import numpy as np

    low = scale[0]
    n = len(judge)
    j = np.asarray(judge, dtype=np.float64) - low
    rng = np.random.default_rng(seed)
    judge_sum = np.zeros(resamples)
    judge_count = np.zeros(resamples)
    human_sum = np.zeros(resamples)
    human_count = np.zeros(resamples)
    masks = {}
    values = {}
    for p in persons:
        col = columns[p]
        masks[p] = np.asarray([v is not None for v in col], dtype=np.float64)
        values[p] = np.asarray([(v - low) if v is not None else 0 for v in col], dtype=np.float64)
    block = max(1, 2_000_000 // max(n, 1))
    weights_blocks = []
    for start in range(0, resamples, block):
        size = min(block, resamples - start)
        draws = rng.integers(0, n, size=(size, n))
        weights = np.zeros((size, n))
        np.add.at(weights, (np.repeat(np.arange(size), n), draws.ravel()), 1.0)
        weights_blocks.append((start, weights))

    def kappas(w: Any, m: Any, x: Any, y: Any) -> tuple[Any, Any]:
        count = w @ m
        a1, b1 = w @ (m * x), w @ (m * y)
        a2, b2, ab = w @ (m * x * x), w @ (m * y * y), w @ (m * x * y)
        observed = a2 + b2 - 2 * ab
        expected = count * a2 + count * b2 - 2 * a1 * b1
        ok = (count > 0) & (expected > 1e-9)
        safe = np.where(ok, expected, 1.0)
        return np.where(ok, 1.0 - observed * count / safe, 0.0), ok

    for start, w in weights_blocks:
        stop = start + w.shape[0]
        for p in persons:
            value, ok = kappas(w, masks[p], j, values[p])
            judge_sum[start:stop] += value
            judge_count[start:stop] += ok
        for p, q in combinations(persons, 2):
            value, ok = kappas(w, masks[p] * masks[q], values[p], values[q])
            human_sum[start:stop] += value
            human_count[start:stop] += ok

    def interval(total: Any, count: Any) -> tuple[float, float] | None:
        defined = count > 0
        if not defined.any():
            return None
        means = total[defined] / count[defined]
        tail = (1 - LEVEL) / 2 * 100
        lo, hi = np.percentile(means, [tail, 100 - tail])
        return (float(lo), float(hi))

    return interval(judge_sum, judge_count), interval(human_sum, human_count)
