"""The rubric beside the pair being rated: the scale of the dimension under the cursor. (The keys
themselves, the draft, are the engine's: tests/ratings/test_keypad.py.)"""

from __future__ import annotations

from voyage_tui.app.widgets.rubric_panel import scale_table
from voyage_tui.engine.ratings.content import DimensionNotes
from voyage_tui.engine.references.rubric import Dimension


def five(name: str) -> Dimension:
    return Dimension(name, anchors={1: "bad", 3: "fair", 5: "good"})


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


def _rendered(renderable: object, width: int) -> str:
    from rich.console import Console

    console = Console(width=width, record=True, color_system=None)
    console.print(renderable)
    return console.export_text()


def test_the_question_of_the_dimension_under_the_cursor_wraps_in_full() -> None:
    from voyage_tui.app.widgets.rubric_panel import dimension_line
    from voyage_tui.engine.ratings.keypad import ScoreDraft

    question = "Does the review name every blocker the diff introduces, with its file and line?"
    dimension = Dimension("correctness", description=question, anchors={1: "bad", 5: "good"})
    draft = ScoreDraft([dimension])
    assert question not in dimension_line(draft, 0).plain  # the one-line row cuts nothing off
    shown = " ".join(_rendered(scale_table(dimension, None), 40).split())
    assert question in shown


def test_the_fixtures_anchors_are_not_in_the_error_colour() -> None:
    notes = DimensionNotes(text=["Only integration counts."], anchors={5: "Shared store."})
    for table in (scale_table(five("a"), notes), scale_table(five("a"), notes, compact=True)):
        for column in table.columns:
            for cell in column._cells:
                styles = [str(span.style) for span in getattr(cell, "spans", [])]
                styles.append(str(getattr(cell, "style", "")))
                assert not any("red" in s or "magenta" in s for s in styles), styles
