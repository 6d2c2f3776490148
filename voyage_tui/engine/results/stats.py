"""The statistics of results (SPEC 3.10): a percentile bootstrap interval of a mean, and a
two-sided sign-flip permutation test of a mean difference. numpy is imported inside each function,
never when this module loads (`validate` imports nothing of it, but stays numpy-free regardless).

Both draw with a generator seeded by `SEED` afresh for every figure, so the same values always
give the same interval and p, whatever else is computed beside them.

How the resamples are drawn, fast and exactly:

- Bootstrap. A resample's mean depends only on how many times each *distinct* value was drawn;
  for n items taking k distinct values, those counts are Multinomial(n, share of each value). Where
  k is small (ratings on a 1-5 scale and their means take a few dozen values at most) the 10,000
  resamples are drawn as 10,000 multinomial count vectors: the same distribution of means as
  drawing n item indices per resample, at a cost of k instead of n per resample. Otherwise the
  index matrix is drawn in chunks of at most `CHUNK_CELLS` cells, so memory stays bounded.
- Sign flips. Likewise the flipped sum is, per distinct |difference| v held by c fixtures,
  v * (2 * Binomial(c, 1/2) - c); above `EXACT_MAX` fixtures the random flips are drawn that way
  (or as chunked sign matrices when the values are many). Up to `EXACT_MAX` fixtures every one of
  the 2^n assignments is enumerated, the observed one included.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

RESAMPLES = 10_000
SEED = 20_261_201
"""Fixed: the same input gives the same figures (SPEC 3.10)."""
LEVEL = 0.95
EXACT_MAX = 16
"""Up to this many fixtures the permutation p enumerates all 2^n sign assignments."""
CHUNK_CELLS = 4_000_000
"""At most this many cells (resamples x items) of an index or sign matrix at once."""
FEW_VALUES = 256
"""At most this many distinct values: draw counts per value instead of item indices."""
TIE_TOLERANCE = 1e-9
"""|mean| counts as at least the observed one within this (relative) margin: the same sum in
another order differs in its last bits."""


@dataclass(frozen=True, slots=True)
class Interval:
    low: float
    high: float

    def as_list(self) -> list[float]:
        return [self.low, self.high]


def bootstrap_interval(values: Sequence[float]) -> Interval | None:
    """The 95% percentile bootstrap interval of the mean of `values` (RESAMPLES resamples of
    len(values) items drawn with replacement). None for fewer than two values: one value has
    no spread to resample."""
    import numpy as np

    n = len(values)
    if n < 2:
        return None
    data = np.asarray(values, dtype=np.float64)
    rng = np.random.default_rng(SEED)
    distinct, counts = np.unique(data, return_counts=True)
    if len(distinct) == 1:
        value = float(distinct[0])
        return Interval(value, value)
    if len(distinct) <= FEW_VALUES:
        draws = rng.multinomial(n, counts / n, size=RESAMPLES)
        means = (draws @ distinct) / n
    else:
        means = np.empty(RESAMPLES, dtype=np.float64)
        step = max(1, CHUNK_CELLS // n)
        for start in range(0, RESAMPLES, step):
            stop = min(RESAMPLES, start + step)
            index = rng.integers(0, n, size=(stop - start, n))
            means[start:stop] = data[index].mean(axis=1)
    tail = (1 - LEVEL) / 2 * 100
    low, high = np.percentile(means, [tail, 100 - tail])
    return Interval(float(low), float(high))


def paired_interval(differences: Sequence[float]) -> Interval | None:
    """`bootstrap_interval` of paired differences, made symmetric: the interval of the negated
    differences is exactly the negated interval, so swapping an agent and its baseline negates
    the interval and flips the verdict (the draws are made on one orientation of the data,
    chosen by the data alone, and the percentiles of a negation are the negated percentiles)."""
    values = list(differences)
    negated = [-v for v in values]
    total = math.fsum(values)
    flip = total < 0 or (total == 0 and sorted(negated) > sorted(values))
    interval = bootstrap_interval(negated if flip else values)
    if interval is None:
        return None
    if total == 0 and sorted(negated) == sorted(values):
        # The differences are their own negation: the resample means are symmetric about 0,
        # so is the interval (the half-width of the drawn one on each side).
        half = (interval.high - interval.low) / 2
        return Interval(-half, half)
    if not flip:
        return interval
    return Interval(-interval.high, -interval.low)


def sign_flip_p(differences: Sequence[float]) -> float | None:
    """Two-sided p of the mean difference under random signs (SPEC 3.10): the share of sign
    assignments whose |mean| is at least the observed one. Exact (all 2^n, the observed one
    included) up to EXACT_MAX differences, else (k + 1) / (RESAMPLES + 1) over random flips.
    None for no differences."""
    import numpy as np

    n = len(differences)
    if n == 0:
        return None
    data = np.asarray(differences, dtype=np.float64)
    observed = abs(float(data.sum()))
    # Compared as sums (the mean times n): the same test, one division fewer per assignment.
    threshold = observed - TIE_TOLERANCE * max(1.0, observed)
    if n <= EXACT_MAX:
        codes = np.arange(1 << n, dtype=np.int64)[:, None]
        signs = 1 - 2 * ((codes >> np.arange(n, dtype=np.int64)) & 1)
        sums = np.abs(signs @ data)
        return float(np.count_nonzero(sums >= threshold)) / float(1 << n)
    if flips_cannot_reach(float(np.dot(data, data)), threshold):
        return 1 / (RESAMPLES + 1)
    rng = np.random.default_rng(SEED)
    magnitudes, counts = np.unique(np.abs(data), return_counts=True)
    if len(magnitudes) <= FEW_VALUES:
        heads = rng.binomial(counts, 0.5, size=(RESAMPLES, len(counts)))
        sums = np.abs((2 * heads - counts) @ magnitudes)
        k = int(np.count_nonzero(sums >= threshold))
    else:
        k = 0
        step = max(1, CHUNK_CELLS // n)
        for start in range(0, RESAMPLES, step):
            stop = min(RESAMPLES, start + step)
            flips = 1.0 - 2.0 * rng.integers(0, 2, size=(stop - start, n))
            k += int(np.count_nonzero(np.abs(flips @ data) >= threshold))
    return (k + 1) / (RESAMPLES + 1)


UNREACHABLE = 1e-12
"""Below this chance that any of the RESAMPLES random flips reaches the observed sum, k is 0
without drawing them."""


def flips_cannot_reach(sum_of_squares: float, threshold: float) -> bool:
    """Whether no random sign flip can be expected to reach `threshold` (a sum): Hoeffding's
    bound for a sum of signed values, P(|S| >= t) <= 2 exp(-t^2 / (2 sum d^2)), times the
    number of flips, is below UNREACHABLE. The p is then (0 + 1) / (RESAMPLES + 1), as drawing
    would give but with a chance under 1e-12, and a clearly different comparison (most, on a
    big suite) costs no draws."""
    if threshold <= 0 or sum_of_squares <= 0:
        return False
    exponent = threshold * threshold / (2.0 * sum_of_squares)
    return exponent > 700 or 2.0 * math.exp(-exponent) * RESAMPLES < UNREACHABLE


# --- the verdict rule (SPEC 3.10, amended) ------------------------------------------------

ALPHA = 0.05
"""The default significance level (`--alpha`)."""
POWER = 0.80
"""The power `mde` and `--plan` are computed for."""
REASONS = ("too-few-fixtures", "no-data", "not-significant")
"""Why a comparison is `unclear`."""


def holm(ps: Sequence[float | None]) -> list[float | None]:
    """Holm's step-down adjustment of every p in `ps` (None stays None and is not counted):
    the i-th smallest of m p-values times (m - i + 1), made monotone (never below the one
    before it in that order) and capped at 1. Ties keep their order, so they get one value."""
    known = sorted((p, i) for i, p in enumerate(ps) if p is not None)
    m = len(known)
    out: list[float | None] = [None] * len(ps)
    running = 0.0
    for rank, (p, i) in enumerate(known):
        running = max(running, min(1.0, (m - rank) * p))
        out[i] = running
    return out


def smallest_p(fixtures: int) -> float:
    """The smallest two-sided sign-flip p that `fixtures` differences can give: the observed
    assignment and its mirror, 2 of 2^n (SPEC 3.10's `too-few-fixtures`)."""
    return 2.0 / 2.0**fixtures if fixtures < 1075 else 0.0


Z_975 = 1.959964
"""z(0.975), as SPEC 3.10 writes it: the two-sided quantile at the default alpha 0.05."""
Z_POWER = 0.841621
"""z(0.80), as SPEC 3.10 writes it: the quantile of POWER."""


def z_sum(alpha: float) -> float:
    """z(1 - alpha/2) + z(POWER): exactly SPEC 3.10's 1.959964 + 0.841621 at alpha 0.05 (so
    `mde` is the SPEC's figure to the last digit, not the exact normal quantiles', which differ
    by 2e-7), the normal quantile of 1 - alpha/2 at any other alpha."""
    if alpha == ALPHA:
        return Z_975 + Z_POWER
    from statistics import NormalDist

    return NormalDist().inv_cdf(1 - alpha / 2) + Z_POWER


def sample_sd(values: Sequence[float]) -> float | None:
    """The sample standard deviation (ddof 1); None for fewer than two values."""
    if len(values) < 2:
        return None
    import statistics

    return statistics.stdev(values)


MDE_FEW = "fewer than 2 fixtures"
MDE_FLAT = "every fixture differs by the same amount (sd 0)"


def minimum_detectable(
    differences: Sequence[float], alpha: float
) -> tuple[float | None, str | None]:
    """(`mde`, why it is None): the smallest true mean difference a comparison over these
    paired differences detects with POWER at two-sided `alpha`, z_sum(alpha) * sd / sqrt(n)
    (SPEC 3.10), the normal approximation."""
    sd = sample_sd(differences)
    if sd is None:
        return None, MDE_FEW
    if sd == 0:
        return None, MDE_FLAT
    return z_sum(alpha) * sd / math.sqrt(len(differences)), None


def fixtures_needed(sd: float | None, detect: float, alpha: float) -> int | None:
    """How many fixtures would detect a true difference of `detect` with POWER at two-sided
    `alpha`, given the paired differences' sd: mde's formula solved for n, rounded up (at
    least 2, the fewest with an sd). None without an sd, or for sd 0 (no spread to size)."""
    if sd is None or sd == 0:
        return None
    if detect <= 0:
        raise ValueError("the difference to detect is above 0")
    n = math.ceil((z_sum(alpha) * sd / detect) ** 2 - 1e-9)
    return max(2, n)


def decide(
    interval: Interval | None, p_holm: float | None, fixtures: int, alpha: float
) -> tuple[str, str | None]:
    """(verdict, reason): `better` when the interval lies above 0 and p_holm < alpha, `worse`
    when below and p_holm < alpha; else `unclear` with `no-data` (no shared fixture),
    `too-few-fixtures` (2 / 2^n >= alpha: no assignment of signs could reach alpha) or
    `not-significant`. A verdict never rests on the interval alone."""
    if fixtures == 0 or p_holm is None:
        return "unclear", "no-data"
    if smallest_p(fixtures) >= alpha:
        return "unclear", "too-few-fixtures"
    if interval is not None and p_holm < alpha:
        if interval.low > 0:
            return "better", None
        if interval.high < 0:
            return "worse", None
    return "unclear", "not-significant"
