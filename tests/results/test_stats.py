"""The statistics of results against references: scipy.stats.bootstrap (percentile method; close,
not equal: the resampling differs) and scipy.stats.permutation_test (sign flips; exact up to 16
fixtures, so equal), and the degenerate cases, each a defined figure with a reason."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.budget import examples
from tests.results.common import scipy_stats
from voyage_tui.engine.ratings.effective import ItemScores
from voyage_tui.engine.results.compute import ResultsInputs, RunRow, compute_results
from voyage_tui.engine.results.stats import (
    EXACT_MAX,
    bootstrap_interval,
    paired_interval,
    sign_flip_p,
)


def scipy_interval(values: list[float]) -> tuple[float, float]:
    ci = (
        scipy_stats()
        .bootstrap(
            (np.asarray(values),),
            np.mean,
            method="percentile",
            n_resamples=10_000,
            random_state=np.random.default_rng(0),
        )
        .confidence_interval
    )
    return float(ci.low), float(ci.high)


def scipy_p(differences: list[float], exact: bool) -> float:
    return float(
        scipy_stats()
        .permutation_test(
            (np.asarray(differences),),
            np.mean,
            permutation_type="samples",
            n_resamples=np.inf if exact else 20_000,  # within 0.001 of 100,000 here, 15x cheaper
            alternative="two-sided",
            random_state=np.random.default_rng(0),
        )
        .pvalue
    )


RNG = np.random.default_rng(7)
SAMPLES = {
    "ratings 1-5": (RNG.integers(1, 6, size=40) * 1.0).tolist(),
    "means of two raters": (RNG.integers(2, 11, size=300) / 2).tolist(),
    "many values (the index path)": RNG.normal(3, 1, size=600).tolist(),
    "skewed": [1.0] * 30 + [5.0] * 3,
}


@pytest.mark.parametrize("name", SAMPLES)
def test_bootstrap_interval_is_close_to_scipy_s_percentile_interval(name: str) -> None:
    values = SAMPLES[name]
    ours = bootstrap_interval(values)
    assert ours is not None
    low, high = scipy_interval(values)
    # Two Monte Carlo estimates of the same percentiles: within a tenth of the width.
    tolerance = 0.1 * (high - low)
    assert abs(ours.low - low) <= tolerance
    assert abs(ours.high - high) <= tolerance
    assert ours.low <= sum(values) / len(values) <= ours.high


def test_bootstrap_is_the_same_every_time() -> None:
    values = SAMPLES["ratings 1-5"]
    assert bootstrap_interval(values) == bootstrap_interval(list(values))


@pytest.mark.parametrize("n", [2, 3, 5, 8, 12, EXACT_MAX])
def test_exact_permutation_p_equals_scipy_s(n: int) -> None:
    rng = np.random.default_rng(n)
    for differences in (
        rng.normal(0.4, 1, size=n).tolist(),
        (rng.integers(-2, 3, size=n) / 2).tolist(),  # ties in |difference|
    ):
        assert sign_flip_p(differences) == pytest.approx(
            scipy_p(differences, exact=True), abs=1e-12
        )


def test_random_flips_above_sixteen_fixtures_are_close_to_scipy() -> None:
    rng = np.random.default_rng(3)
    for differences in (
        (rng.integers(-2, 4, size=40) / 2).tolist(),
        rng.normal(0.15, 1, size=200).tolist(),  # many values: the sign-matrix path
    ):
        ours = sign_flip_p(differences)
        assert ours is not None
        assert ours == pytest.approx(scipy_p(differences, exact=False), abs=0.02)
        k = round(ours * 10_001) - 1
        assert ours == (k + 1) / 10_001  # (k + 1) / (10,000 + 1)


def test_degenerate_statistics() -> None:
    assert bootstrap_interval([]) is None
    assert bootstrap_interval([3.0]) is None
    constant = bootstrap_interval([4.0] * 7)
    assert constant is not None and (constant.low, constant.high) == (4.0, 4.0)
    assert sign_flip_p([]) is None
    assert sign_flip_p([0.0] * 5) == 1.0
    assert sign_flip_p([0.0] * 40) == 1.0
    assert sign_flip_p([2.0]) == 1.0  # both signs are as far from 0 as the observed one


@given(st.lists(st.integers(1, 5), min_size=2, max_size=30))
@settings(max_examples=examples(40), deadline=None)
def test_the_interval_contains_the_mean(values: list[int]) -> None:
    interval = bootstrap_interval([float(v) for v in values])
    assert interval is not None
    assert interval.low <= sum(values) / len(values) <= interval.high


@given(st.lists(st.integers(-4, 4).map(lambda v: v / 2), min_size=2, max_size=30))
@settings(max_examples=examples(40), deadline=None)
def test_negated_differences_negate_the_interval(differences: list[float]) -> None:
    ours = paired_interval(differences)
    theirs = paired_interval([-d for d in differences])
    assert ours is not None and theirs is not None
    assert (theirs.low, theirs.high) == (-ours.high, -ours.low)


def _inputs(a: list[int], b: list[int]) -> ResultsInputs:
    runs, items = [], {}
    for i, (x, y) in enumerate(zip(a, b, strict=False)):
        for agent, value in (("a", x), ("b", y)):
            row = RunRow(f"t{i}", f"{agent}-{i}", agent)
            runs.append(row)
            items[row.run_key] = ItemScores(row.run_key, {"r": {"d": value}})
    return ResultsInputs(runs, items, ["d"])


VERDICT_FLIP = {"better": "worse", "worse": "better", "unclear": "unclear"}


@given(
    st.lists(st.integers(1, 5), min_size=1, max_size=24),
    st.lists(st.integers(1, 5), min_size=1, max_size=24),
)
@settings(max_examples=examples(40), deadline=None)
def test_swapping_agent_and_baseline_negates_diff_and_flips_the_verdict(a, b) -> None:
    inputs = _inputs(a, b)
    (ab,) = compute_results(inputs, "b").comparisons
    (ba,) = compute_results(inputs, "a").comparisons
    assert ab.diff == -ba.diff  # type: ignore[operator]
    assert ab.p == ba.p
    assert ab.verdict == VERDICT_FLIP[ba.verdict]
    if ab.ci is not None and ba.ci is not None:
        assert (ab.ci.low, ab.ci.high) == (-ba.ci.high, -ba.ci.low)


def test_degenerate_reports_have_a_reason_and_no_nan() -> None:
    def one(a: list[int], b: list[int]):
        (c,) = compute_results(_inputs(a, b), "b").comparisons
        return c

    single = one([4], [2])
    assert (single.diff, single.ci, single.p, single.verdict) == (2.0, None, 1.0, "unclear")
    assert single.note == "one shared fixture: no interval"
    assert single.reason == "too-few-fixtures"
    zero = one([3, 4, 2], [3, 4, 2])
    assert (zero.diff, zero.ci.as_list(), zero.p, zero.verdict) == (0.0, [0.0, 0.0], 1.0, "unclear")  # type: ignore[union-attr]
    assert zero.note == "every difference is zero" and zero.reason == "too-few-fixtures"
    report = compute_results(_inputs([5, 5, 5], [1, 2, 3]), "b")
    stat = report.agents["a"].dimensions["d"]
    assert (stat.mean, stat.ci.as_list(), stat.n) == (5.0, [5.0, 5.0], 3)  # type: ignore[union-attr]
    assert stat.reason == "every item has the same score: the interval has no width"
    # no shared fixture: the agents rated different fixtures
    runs = [RunRow("t1", "a-1", "a"), RunRow("t2", "b-1", "b")]
    items = {r.run_key: ItemScores(r.run_key, {"r": {"d": 3}}) for r in runs}
    (none,) = compute_results(ResultsInputs(runs, items, ["d"]), "b").comparisons
    assert (none.fixtures, none.diff, none.ci, none.p, none.verdict) == (
        0,
        None,
        None,
        None,
        "unclear",
    )
    assert none.note == "no fixture where both agents have rated runs"
    assert none.reason == "no-data"
    unrated = compute_results(ResultsInputs(runs, {}, ["d"]), "b").agents["a"].dimensions["d"]
    assert (unrated.mean, unrated.ci, unrated.n, unrated.reason) == (None, None, 0, "no rated item")
    text = repr(compute_results(_inputs([4], [2]), "b").to_json())
    assert "nan" not in text.lower()
    assert math.isfinite(single.diff)


def test_threads_do_not_change_the_figures(monkeypatch) -> None:
    from voyage_tui.engine.results import compute

    rng = np.random.default_rng(11)
    inputs = _inputs(rng.integers(1, 6, size=40).tolist(), rng.integers(1, 6, size=40).tolist())
    monkeypatch.setattr(compute, "WORKERS", 1)
    alone = compute_results(inputs, "b").to_json()
    monkeypatch.setattr(compute, "WORKERS", 4)
    monkeypatch.setattr(compute.os, "cpu_count", lambda: 4)
    assert compute_results(inputs, "b").to_json() == alone


def test_a_clearly_different_comparison_skips_the_flips_and_gives_the_same_p(monkeypatch) -> None:
    """Hoeffding's bound decides k = 0 without drawing when no flip can be expected to reach the
    observed sum; drawing them gives the same p."""
    from voyage_tui.engine.results import stats

    differences = [1.0 + (i % 3) * 0.5 for i in range(200)]
    assert stats.flips_cannot_reach(sum(d * d for d in differences), sum(differences))
    shortcut = stats.sign_flip_p(differences)
    monkeypatch.setattr(stats, "flips_cannot_reach", lambda *_: False)
    assert stats.sign_flip_p(differences) == shortcut == 1 / (stats.RESAMPLES + 1)
    # a close call is drawn as before
    close = [(-1.0) ** i * (1 + i % 2) for i in range(200)]
    assert not stats.flips_cannot_reach(sum(d * d for d in close), abs(sum(close)))
