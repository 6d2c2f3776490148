"""Agreement: kappa against scikit-learn and alpha against the krippendorff package on random
data, the undefined cases as None with a reason, and the most disputed items."""

from __future__ import annotations

import json
import math
from typing import Any

import krippendorff
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.budget import examples
from tests.ratings.common import rating, rubric
from voyage_tui.engine.ratings import agreement as agreement_mod
from voyage_tui.engine.ratings.agreement import (
    ALL_SAME,
    LIST_EVERY_PAIR,
    MIN_SHARED_ITEMS,
    NO_OVERLAP,
    NO_SHARED_ITEM,
    ONE_RATER,
    TOP_PAIRS,
    compute_agreement,
    ordinal_alpha,
    pair_sums,
    quadratic_kappa,
)


def cohen_kappa_score(*args: Any, **kwargs: Any) -> Any:
    """scikit-learn's, imported at the first call: importing it costs every test process about
    two seconds of CPU while the tests are collected, and only three tests here call it."""
    from sklearn.metrics import cohen_kappa_score as theirs

    return theirs(*args, **kwargs)


SCALES = [list(range(1, 6)), list(range(0, 11)), [1, 2, 3], list(range(-2, 3))]


@st.composite
def two_raters(draw: st.DrawFn) -> tuple[list[int], list[int], list[int]]:
    labels = draw(st.sampled_from(SCALES))
    n = draw(st.integers(min_value=1, max_value=40))
    a = draw(st.lists(st.sampled_from(labels), min_size=n, max_size=n))
    b = draw(st.lists(st.sampled_from(labels), min_size=n, max_size=n))
    return a, b, labels


@settings(max_examples=examples(400), deadline=None)
@given(two_raters())
def test_kappa_matches_scikit_learn(data):
    a, b, labels = data
    ours = quadratic_kappa(a, b, labels)
    with np.errstate(all="ignore"), _quiet():
        theirs = cohen_kappa_score(a, b, weights="quadratic", labels=labels)
    if ours is None:
        assert math.isnan(theirs), "undefined only where scikit-learn has no value either"
        assert len(set(a) | set(b)) == 1
    else:
        assert abs(ours - theirs) <= 1e-9


def test_kappa_depends_on_the_whole_scale():
    # Only 1, 2 and 5 are used: over the used scores alone (scikit-learn's default) 2 and 5 are
    # neighbours; over the scale they are three apart.
    a, b = [1, 2, 5, 5, 2], [2, 1, 5, 1, 5]
    used = cohen_kappa_score(a, b, weights="quadratic")
    assert quadratic_kappa(a, b, [1, 2, 5]) == pytest.approx(used, abs=1e-12)
    assert quadratic_kappa(a, b, [1, 2, 5]) != pytest.approx(
        quadratic_kappa(a, b, [1, 2, 3, 4, 5]), abs=1e-3
    )
    theirs = cohen_kappa_score(a, b, weights="quadratic", labels=[1, 2, 3, 4, 5])
    assert quadratic_kappa(a, b, [1, 2, 3, 4, 5]) == pytest.approx(theirs, abs=1e-12)


@st.composite
def reliability(draw: st.DrawFn) -> tuple[list[dict[str, int]], list[int]]:
    values = draw(st.sampled_from(SCALES))
    raters = [f"r{i}" for i in range(draw(st.integers(min_value=2, max_value=5)))]
    units = draw(
        st.lists(
            st.dictionaries(st.sampled_from(raters), st.sampled_from(values), max_size=len(raters)),
            min_size=1,
            max_size=30,
        )
    )
    return units, values


def _matrix(units: list[dict[str, int]]) -> np.ndarray:
    raters = sorted({r for u in units for r in u})
    data = np.full((len(raters), len(units)), np.nan)
    for column, unit in enumerate(units):
        for rater, score in unit.items():
            data[raters.index(rater), column] = score
    return data


@settings(max_examples=examples(300), deadline=None)
@given(reliability())
def test_alpha_matches_the_krippendorff_package(data):
    units, values = data
    ours = ordinal_alpha(units, values)
    pairable = [u for u in units if len(u) >= 2]
    if ours is None:
        # undefined: fewer than two raters, nothing pairable, or no variation to speak of
        assert (
            len({r for u in units for r in u}) < 2
            or not pairable
            or len({s for u in pairable for s in u.values()}) < 2
        )
        return
    with _quiet():
        theirs = krippendorff.alpha(
            reliability_data=_matrix(units), level_of_measurement="ordinal", value_domain=values
        )
    assert abs(ours - theirs) <= 1e-9


def test_alpha_of_krippendorffs_worked_example():
    """The ordinal example of the krippendorff package (Krippendorff 2011's data): 0.815."""
    rows = [
        [1, 2, 3, 3, 2, 1, 4, 1, 2, None, None, None],
        [1, 2, 3, 3, 2, 2, 4, 1, 2, 5, None, 3],
        [None, 3, 3, 3, 2, 3, 4, 2, 2, 5, 1, None],
        [1, 2, 3, 3, 2, 4, 4, 1, 2, 5, 1, None],
    ]
    units = [
        {f"c{r}": row[u] for r, row in enumerate(rows) if row[u] is not None}
        for u in range(len(rows[0]))
    ]
    alpha = ordinal_alpha(units, [1, 2, 3, 4, 5])
    assert alpha is not None and round(alpha, 3) == 0.815


class _quiet:
    def __enter__(self) -> None:
        import warnings

        self._catch = warnings.catch_warnings()
        self._catch.__enter__()
        warnings.simplefilter("ignore")

    def __exit__(self, *exc: object) -> None:
        self._catch.__exit__(*exc)


# --- the report ---------------------------------------------------------------------------------


def R(rater: str, run_id: str, correctness: int, scope: int, note: str = "", fixture: str = "t1"):
    return rating(
        fixture_id=fixture,
        run_id=run_id,
        rater=rater,
        scores={"correctness": correctness, "scope": scope},
        note=note,
    )


def test_one_rater_gives_no_figure_and_says_why():
    report = compute_agreement([R("alice", "a", 4, 3), R("alice", "b", 2, 1)], rubric())
    assert report.raters == ["alice"]
    assert report.dimensions["correctness"].alpha is None
    assert report.dimensions["correctness"].reason == ONE_RATER
    assert report.pairs == []
    assert "NaN" not in json.dumps(report.to_json())


def test_raters_without_a_shared_item_give_no_figure():
    report = compute_agreement([R("alice", "a", 4, 3), R("bob", "b", 2, 1)], rubric())
    assert report.dimensions["scope"].reason == NO_SHARED_ITEM
    [kappa_c, kappa_s] = report.pairs
    assert (kappa_c.kappa, kappa_c.items, kappa_c.reason) == (None, 0, NO_OVERLAP)
    assert kappa_s.reason == NO_OVERLAP


def test_every_rating_the_same_gives_no_figure():
    report = compute_agreement(
        [R("alice", "a", 4, 3), R("bob", "a", 4, 3), R("alice", "b", 4, 3), R("bob", "b", 4, 3)],
        rubric(),
    )
    d = report.dimensions["correctness"]
    assert (d.alpha, d.items, d.ratings, d.reason) == (None, 2, 4, ALL_SAME)
    assert report.pairs[0].kappa is None and report.pairs[0].reason == ALL_SAME
    text = json.dumps(report.to_json(), allow_nan=False)  # raises on a NaN
    assert '"alpha": null' in text


def test_the_report_counts_items_and_ratings_and_lists_pairs_in_order():
    ratings = [
        R("alice", "a", 5, 5),
        R("bob", "a", 4, 5),
        R("carol", "a", 5, 3),
        R("alice", "b", 1, 1),
        R("bob", "b", 2, 1),
        R("carol", "c", 3, 3),  # carol alone on c: not pairable
    ]
    report = compute_agreement(ratings, rubric())
    d = report.dimensions["correctness"]
    assert (d.items, d.ratings) == (2, 5)
    assert d.alpha is not None and -1 <= d.alpha <= 1
    assert [(p.raters, p.dimension, p.items) for p in report.pairs] == [
        (("alice", "bob"), "correctness", 2),
        (("alice", "bob"), "scope", 2),
        (("alice", "carol"), "correctness", 1),
        (("alice", "carol"), "scope", 1),
        (("bob", "carol"), "correctness", 1),
        (("bob", "carol"), "scope", 1),
    ]
    payload = report.to_json()
    assert set(payload) == {"raters", "dimensions", "pairs", "pairs_omitted", "disputed"}
    assert set(payload["dimensions"]["scope"]) == {"alpha", "items", "ratings", "reason"}
    assert set(payload["pairs"][0]) == {"raters", "dimension", "kappa", "items", "reason"}


def test_the_most_disputed_items_come_first_with_every_raters_scores_and_note():
    ratings = [
        R("alice", "calm", 4, 3, "fine"),
        R("bob", "calm", 4, 3, "fine too"),
        R("alice", "split", 5, 3, "great"),
        R("bob", "split", 1, 3, "wrong outcome"),
        R("alice", "close", 3, 3),
        R("bob", "close", 4, 5),
    ]
    report = compute_agreement(ratings, rubric())
    assert [(d.run_id, d.spread) for d in report.disputed] == [("split", 4), ("close", 2)]
    top = report.disputed[0]
    assert top.widest == ["correctness"]
    assert [(r.rater, r.note) for r in top.ratings] == [
        ("alice", "great"),
        ("bob", "wrong outcome"),
    ]
    assert report.to_json()["disputed"][0]["ratings"][1] == {
        "rater": "bob",
        "scores": {"correctness": 1, "scope": 3},
        "note": "wrong outcome",
    }
    assert compute_agreement(ratings, rubric(), disputed=1).disputed == report.disputed[:1]


def test_scores_off_the_scale_and_retractions_are_left_out():
    ratings = [
        R("alice", "a", 4, 3),
        R("bob", "a", 9, 3),  # validate reports it; the figures leave it out
        rating(fixture_id="t1", run_id="a", rater="carol", scores=None),
    ]
    report = compute_agreement(ratings, rubric())
    assert report.raters == ["alice", "bob"]
    assert report.dimensions["correctness"].items == 0
    assert report.dimensions["scope"].items == 1


@settings(max_examples=examples(100), deadline=None)
@given(
    st.lists(
        st.tuples(
            st.sampled_from("abc"), st.sampled_from("wxyz"), st.integers(1, 5), st.integers(1, 5)
        ),
        max_size=30,
    )
)
def test_the_report_never_holds_a_nan(data):
    ratings = [R(rater, run, c, s) for rater, run, c, s in data]
    report = compute_agreement(ratings, rubric())
    json.dumps(report.to_json(), allow_nan=False)
    for d in report.dimensions.values():
        assert (d.alpha is None) == (d.reason is not None)
    for p in report.pairs:
        assert (p.kappa is None) == (p.reason is not None)


# --- many raters (issue 18, item 8) -------------------------------------------------------------


@st.composite
def campaigns(draw: st.DrawFn) -> tuple[dict[tuple[str, str], dict[str, int]], list[int]]:
    values = draw(st.sampled_from(SCALES))
    raters = [f"r{i}" for i in range(draw(st.integers(min_value=2, max_value=8)))]
    units = draw(
        st.lists(
            st.dictionaries(st.sampled_from(raters), st.sampled_from(values), max_size=len(raters)),
            min_size=1,
            max_size=20,
        )
    )
    return {("t1", f"run-{i}"): u for i, u in enumerate(units)}, values


@settings(max_examples=examples(200), deadline=None)
@given(campaigns(), st.booleans())
def test_pair_sums_give_quadratic_kappa_exactly(data, dense):
    """The sums (matrix products or item by item) give the very figure quadratic_kappa gives
    on the shared items: same integers, same one division."""
    per_item, values = data
    raters = sorted({r for u in per_item.values() for r in u})
    sums = pair_sums(per_item, raters, values[0], dense=dense)
    found = {}
    for i in range(len(sums.n)):
        figures = [int(v[i]) for v in (sums.n, sums.a1, sums.b1, sums.a2, sums.b2, sums.ab)]
        found[(raters[int(sums.first[i])], raters[int(sums.second[i])])] = figures
    for a_index, first in enumerate(raters):
        for second in raters[a_index + 1 :]:
            shared = [
                (u[first], u[second])
                for _, u in sorted(per_item.items())
                if first in u and second in u
            ]
            if not shared:
                assert (first, second) not in found
                continue
            assert found[(first, second)][0] == len(shared)
            want = quadratic_kappa([x for x, _ in shared], [y for _, y in shared], values)
            assert agreement_mod._kappa_of(*found[(first, second)]) == want


def crowd(raters: int, items: int, seed: int = 7) -> list:
    """`raters` raters scoring `items` runs, each rater with a bias, so kappas differ."""
    import random

    rng = random.Random(seed)
    out = []
    for r in range(raters):
        bias = rng.choice((-1, 0, 0, 1))
        for i in range(items):
            truth = 1 + (i * 7) % 5
            c = min(5, max(1, truth + bias + rng.choice((-1, 0, 0, 0, 1))))
            s = rng.choice((1, 3, 5))
            out.append(R(f"rater-{r:04d}", f"run-{i:02d}", c, s))
    return out


def test_many_raters_list_the_lowest_kappas_and_count_the_rest():
    ratings = crowd(40, 12)
    # one late rater shares only two items with anyone: never listed
    ratings += [R("zz-late", "run-00", 3, 3), R("zz-late", "run-01", 1, 1)]
    report = compute_agreement(ratings, rubric())
    raters = report.raters
    total = len(raters) * (len(raters) - 1) // 2
    assert total > LIST_EVERY_PAIR
    dims = ["correctness", "scope"]
    listed = {(p.raters, p.dimension): p for p in report.pairs}
    assert len(listed) == len(report.pairs) <= TOP_PAIRS * len(dims)
    assert report.pairs_omitted.count == total * len(dims) - len(report.pairs)
    assert report.pairs_omitted.few_items == (len(raters) - 1) * len(dims)  # zz-late's pairs
    assert not any("zz-late" in p.raters for p in report.pairs)
    assert report.pairs == sorted(report.pairs, key=lambda p: (p.raters, dims.index(p.dimension)))
    by_rater: dict[str, dict] = {}
    for r in ratings:
        by_rater.setdefault(r.rater, {})[r.run_key] = r.scores
    for dim in dims:
        # brute force: every pair's kappa over its shared items
        everything = []
        for a_index, first in enumerate(raters):
            for second in raters[a_index + 1 :]:
                mine, theirs = by_rater[first], by_rater[second]
                shared = [(mine[k][dim], theirs[k][dim]) for k in sorted(mine) if k in theirs]
                if len(shared) >= MIN_SHARED_ITEMS:
                    kappa = quadratic_kappa(*zip(*shared, strict=True), [1, 2, 3, 4, 5])
                    everything.append(((first, second), kappa, len(shared)))
        defined = sorted(k for _, k, _ in everything if k is not None)
        ours = [p for p in report.pairs if p.dimension == dim]
        assert len(ours) == min(TOP_PAIRS, len(everything))
        assert sorted(p.kappa for p in ours if p.kappa is not None) == defined[: len(ours)]
        for p in ours:
            [(_, kappa, items)] = [e for e in everything if e[0] == p.raters]
            assert (p.kappa, p.items) == (kappa, items)  # the very figure, not a float twin
    payload = report.to_json()
    assert payload["pairs_omitted"]["count"] == report.pairs_omitted.count
    assert "fewer than 3 items" in payload["pairs_omitted"]["reason"]
    json.dumps(payload, allow_nan=False)


def test_a_team_still_sees_every_pair():
    report = compute_agreement(crowd(10, 4), rubric())
    assert len(report.pairs) == 45 * 2
    assert report.pairs_omitted.count == 0 and report.to_json()["pairs_omitted"] == {
        "count": 0,
        "reason": None,
    }


def test_three_hundred_raters_are_summarised():
    """The issue's case on a smaller scale for CI (the benchmark times 1,000 raters; no
    timing here)."""
    report = compute_agreement(crowd(300, 12), rubric())
    assert len(report.pairs) == TOP_PAIRS * 2
    assert report.pairs_omitted.count == 300 * 299 // 2 * 2 - len(report.pairs)
    assert len(json.dumps(report.to_json())) < 300_000


# --- the raters' short labels (engine/ratings/labels.py) -----------------------------------------


def test_short_names_are_their_own_labels() -> None:
    from voyage_tui.engine.ratings.labels import rater_labels

    labels = rater_labels(["alice", "bob", "carol"])
    assert not labels.abbreviated
    assert labels.pair(("alice", "bob")) == "alice · bob"


def test_long_names_get_initials_that_tell_every_pair_apart() -> None:
    from voyage_tui.engine.ratings.labels import rater_labels

    names = ["Firstname Lastname", "Firstname Lastname-Other", "Firstname Other"]
    labels = rater_labels(names)
    assert labels.abbreviated
    assert [labels.of(n) for n in names] == ["FL", "FLO", "FO"]
    assert labels.legend == [("FL", names[0]), ("FLO", names[1]), ("FO", names[2])]


def test_initials_two_raters_share_are_numbered_past_any_label_taken() -> None:
    from voyage_tui.engine.ratings.labels import rater_labels

    names = ["Ann Smith", "Anna Svensson", "A. S. 1", "bob_the_builder", "🙂🙂🙂🙂🙂🙂🙂🙂🙂"]
    labels = [rater_labels(names).of(n) for n in names]
    assert labels[:3] == ["AS2", "AS3", "AS1"]
    assert labels[3] == "BTB"  # underscores part words, as spaces and dashes do
    assert labels[4] == "?"
    assert len(set(labels)) == len(labels)
