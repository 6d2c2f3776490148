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
