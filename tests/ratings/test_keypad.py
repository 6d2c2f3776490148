"""The keys of one pair before anything is written (engine/ratings/keypad.py): a digit scores
the dimension under the cursor and moves to the next one without a score; the digit that scores
the last completes; going back moves the cursor only; `clear` drops every score; a scale past 9
takes two digits (or one and `enter`). Whatever keys come in, no score leaves its dimension's
scale."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from voyage_tui.engine.ratings.keypad import COMPLETE, PENDING, REFUSED, SCORED, ScoreDraft
from voyage_tui.engine.ratings.rules import scale_values
from voyage_tui.engine.references.rubric import Dimension, parse_rubric


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


def test_clear_drops_every_score_and_keeps_the_note() -> None:
    draft = ScoreDraft([five("a"), five("b")], note="flaky test")
    draft.digit("2")
    assert draft.digit("1").outcome == COMPLETE
    draft.clear()
    assert draft.scores == {} and draft.cursor == 0 and draft.pending == ""
    assert draft.note == "flaky test" and not draft.complete


def test_a_key_that_is_not_a_digit_is_refused() -> None:
    draft = ScoreDraft([five("a")])
    assert draft.digit("x").outcome == REFUSED
    assert draft.digit("٣").outcome == REFUSED  # a digit, but not one a scale is written in
    assert draft.scores == {}


def test_no_dimension_refuses_every_key() -> None:
    draft = ScoreDraft([])
    assert draft.digit("1").outcome == REFUSED
    assert draft.confirm_pending() is None
    assert not draft.back() and not draft.forward() and not draft.complete


def test_the_scale_is_the_rubrics_clamped_one() -> None:
    # An anchor past the 20 values a scale may hold is left out (engine/references/rubric.py):
    # the keypad takes the scale as clamped, so 25 is refused.
    text = "# Rubric\n\n## wide\n\n- 1: low\n- 20: high\n- 25: beyond\n"
    rubric, _ = parse_rubric(text, "rubric.md")
    (dimension,) = rubric.dimensions
    draft = ScoreDraft([dimension])
    assert draft.digit("2").outcome == PENDING
    assert draft.digit("5").outcome == REFUSED
    assert draft.digit("2").outcome == PENDING
    assert draft.digit("0").outcome == COMPLETE and draft.scores == {"wide": 20}


KEYS = st.sampled_from([*"0123456789", "enter", "left", "right", "clear", "x"])
DIMENSIONS = st.lists(
    st.builds(
        lambda low, span, name: Dimension(name, anchors={low: "low", low + span: "high"}),
        st.integers(0, 12),
        st.integers(0, 19),
        st.text("abcdef", min_size=1, max_size=4),
    ),
    max_size=4,
    unique_by=lambda d: d.name,
)


@given(DIMENSIONS, st.lists(KEYS, max_size=40))
def test_any_keys_keep_every_score_on_its_dimensions_scale(
    dimensions: list[Dimension], keys: list[str]
) -> None:
    draft = ScoreDraft(dimensions)
    for key in keys:
        if key == "enter":
            result = draft.confirm_pending()
            outcome = None if result is None else result.outcome
        elif key == "left":
            draft.back()
            outcome = None
        elif key == "right":
            draft.forward()
            outcome = None
        elif key == "clear":
            draft.clear()
            outcome = None
        else:
            outcome = draft.digit(key).outcome
        by_name = {d.name: d for d in dimensions}
        assert set(draft.scores) <= set(by_name)
        for name, score in draft.scores.items():
            assert score in scale_values(by_name[name])
        assert 0 <= draft.cursor < max(len(dimensions), 1)
        assert (outcome == COMPLETE) <= draft.complete
        if draft.pending:
            current = draft.current
            assert current is not None
            assert any(str(v).startswith(draft.pending) for v in scale_values(current))


def test_the_score_keys_are_the_digits_the_rubric_can_take() -> None:
    """Issue 36 row 6: the help listed `0` to `9` for a 1..5 rubric. The keys that can score
    are the digits of the scales' values (a 0..10 scale needs every digit: `1` then `0`)."""
    from voyage_tui.engine.ratings.keypad import score_keys

    assert score_keys([five("a"), five("b")]) == ["1", "2", "3", "4", "5"]
    assert score_keys([Dimension("a", anchors={2: "x", 4: "y"})]) == ["2", "3", "4"]
    assert score_keys([Dimension("t", anchors={0: "x", 10: "y"})]) == list("0123456789")
    assert score_keys([Dimension("t", anchors={11: "x", 13: "y"})]) == ["1", "2", "3"]
    assert score_keys([]) == []
