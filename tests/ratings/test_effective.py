"""Effective scores (SPEC 3.9): adjudicated if any, else the mean of the raters in force."""

from __future__ import annotations

from voyage_tui.engine.ratings.effective import item_scores
from voyage_tui.engine.ratings.records import Rating


def _r(rater: str, run: str, **scores: int) -> Rating:
    return Rating("fx", run, rater, scores, "2026-01-01T00:00:00Z")


def test_mean_of_raters_then_adjudication_per_dimension() -> None:
    items = item_scores(
        [_r("ann", "r1", correctness=1, clarity=4), _r("ben", "r1", correctness=4, clarity=4)],
        {("fx", "r1"): {"correctness": 3}},
    )
    item = items[("fx", "r1")]
    assert item.scores() == {"correctness": 3.0, "clarity": 4.0}
    assert item.source("correctness") == "adjudicated"
    assert item.source("clarity") == "raters"
    assert item.spread() == {"correctness": 3, "clarity": 0}
    assert item.disputed(2) and not item.disputed(4)


def test_retractions_do_not_count() -> None:
    gone = Rating("fx", "r1", "ann", None, "2026-01-01T00:00:00Z")
    assert item_scores([gone, _r("ben", "r1", clarity=2)])[("fx", "r1")].scores() == {"clarity": 2}
    assert item_scores([gone]) == {}


def test_an_adjudicated_item_nobody_rates_any_more_keeps_its_score() -> None:
    items = item_scores([], {("fx", "r2"): {"clarity": 5}})
    assert items[("fx", "r2")].scores() == {"clarity": 5.0}
    assert items[("fx", "r2")].spread() == {}
