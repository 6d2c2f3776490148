"""The keys of one item before anything is written: a digit scores the dimension under the
cursor and moves to the next one without a score; the digit that scores the last completes;
going back moves the cursor only; a scale past 9 takes two digits (or one and `enter`)."""

from __future__ import annotations

from voyage_tui.app.widgets.rubric_panel import (
    COMPLETE,
    PENDING,
    REFUSED,
    SCORED,
    ScoreDraft,
    scale_table,
)
from voyage_tui.engine.ratings.content import DimensionNotes
from voyage_tui.engine.references.rubric import Dimension


def five(name: str) -> Dimension:
    return Dimension(name, anchors={1: "bad", 3: "fair", 5: "good"})


def test_one_key_per_dimension_and_the_last_completes() -> None:
    draft = ScoreDraft([five("a"), five("b"), five("c")])
    assert [draft.digit(k).outcome for k in "241"] == [SCORED, SCORED, COMPLETE]
    assert draft.scores == {"a": 2, "b": 4, "c": 1}  # between anchors is on the scale


def test_going_back_keeps_the_later_scores_and_one_key_fixes_one() -> None:
    draft = ScoreDraft([five("a"), five("b"), five("c")])
    draft.digit("2")
    draft.digit("4")
    assert draft.back() and draft.back() and not draft.back()
    assert draft.cursor == 0
    assert draft.digit("5").outcome == SCORED
    assert draft.cursor == 2  # on to the first dimension without a score
    assert draft.scores == {"a": 5, "b": 4}
    assert draft.digit("3").outcome == COMPLETE


def test_forward_then_the_skipped_one_last() -> None:
    draft = ScoreDraft([five("a"), five("b"), five("c")])
    assert draft.forward()
    draft.digit("1")  # b
    assert draft.cursor == 2
    draft.digit("1")  # c; a is still open, so the cursor wraps to it
    assert draft.cursor == 0
    assert draft.digit("1").outcome == COMPLETE


def test_off_the_scale_is_refused_and_scores_nothing() -> None:
    draft = ScoreDraft([five("a")])
    result = draft.digit("7")
    assert result.outcome == REFUSED and "a takes 1 to 5, not 7" in result.message
    assert draft.scores == {}


def test_a_scale_past_nine_takes_two_digits_or_one_and_enter() -> None:
    ten = Dimension("t", anchors={0: "none", 10: "all"})
    draft = ScoreDraft([ten, Dimension("u", anchors={0: "none", 10: "all"})])
    assert draft.digit("1").outcome == PENDING
    assert draft.scores == {}
    assert draft.digit("0").outcome == SCORED
    assert draft.scores == {"t": 10}
    assert draft.digit("1").outcome == PENDING
    result = draft.confirm_pending()
    assert result is not None and result.outcome == COMPLETE
    assert draft.scores == {"t": 10, "u": 1}
    assert ScoreDraft([ten]).digit("7").outcome == COMPLETE  # nothing longer starts with 7


def test_a_wrong_second_digit_is_refused() -> None:
    ten = Dimension("t", anchors={1: "low", 10: "high"})
    draft = ScoreDraft([ten])
    draft.digit("1")
    assert draft.digit("5").outcome == REFUSED
    assert draft.pending == "" and draft.scores == {}


def test_the_scale_shows_the_fixtures_anchor_in_full_or_marked_when_short() -> None:
    notes = DimensionNotes(text=["Only integration counts."], anchors={5: "Shared store."})
    full = scale_table(five("a"), notes, was=3)
    compact = scale_table(five("a"), notes, was=3, compact=True)
    full_text = " ".join(str(cell) for column in full.columns for cell in column._cells)
    compact_text = " ".join(str(cell) for column in compact.columns for cell in column._cells)
    assert "this fixture: Shared store." in full_text
    assert "Only integration counts." in full_text
    assert "(was)" in full_text
    assert "Shared store." not in compact_text and "◆" in compact_text
    assert "see Scoring notes" in compact_text
