"""The keys of one pair before anything is written: the rater's draft, the one model of it (the
rater screen sends keys here and shows the result; `RaterSession.draft()` starts one).

A cursor over the rubric's dimensions and the scores given so far. A digit scores the dimension
under the cursor and moves to the next one without a score; the digit that scores the last one
completes the draft (the screen submits it). Going back (`left`) only moves the cursor, so
fixing one score costs one key, not a re-entry of every score after it; `clear` drops every
score. A scale past 9 takes two digits (`1` on a 1..10 scale waits for `0`, or for `enter` to
mean 1).

Every score goes through `_score`, which takes only a value of the dimension's scale
(`scale_values`: the rubric's clamped scale, engine/references/rubric.py), so a draft never
holds a score its dimension does not allow, whatever keys came in.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Final

from voyage_tui.engine.ratings.rules import scale_values
from voyage_tui.engine.references.rubric import Dimension

SCORED: Final = "scored"
PENDING: Final = "pending"
COMPLETE: Final = "complete"
REFUSED: Final = "refused"


@dataclass(slots=True)
class KeyResult:
    outcome: str
    """SCORED (moved on), PENDING (a digit of a longer score), COMPLETE, or REFUSED."""
    message: str = ""
    """Why a key was refused."""


@dataclass(slots=True)
class ScoreDraft:
    dimensions: list[Dimension]
    scores: dict[str, int] = field(default_factory=dict)
    cursor: int = 0
    pending: str = ""
    """Digits typed toward a score of two digits (a scale past 9)."""
    note: str = ""

    @property
    def current(self) -> Dimension | None:
        """The dimension under the cursor (None without dimensions)."""
        return self.dimensions[self.cursor] if self.dimensions else None

    @property
    def complete(self) -> bool:
        return bool(self.dimensions) and all(d.name in self.scores for d in self.dimensions)

    def digit(self, key: str) -> KeyResult:
        """A digit key: scores the current dimension, or waits for a second digit."""
        dimension = self.current
        if dimension is None:
            return KeyResult(REFUSED, "the rubric has no dimensions")
        if len(key) != 1 or not key.isdigit() or not key.isascii():
            return KeyResult(REFUSED, f"{key!r} is not a digit")
        values = [str(v) for v in scale_values(dimension)]
        typed = self.pending + key
        longer = [v for v in values if v.startswith(typed) and v != typed]
        if typed in values and not longer:
            return self._score(int(typed))
        if longer:
            self.pending = typed
            return KeyResult(PENDING)
        self.pending = ""
        return KeyResult(
            REFUSED, f"{dimension.name} takes {values[0]} to {values[-1]}, not {typed}"
        )

    def confirm_pending(self) -> KeyResult | None:
        """`enter` after a digit that could start a longer score: take it as it stands. None
        when no digit is pending."""
        if not self.pending:
            return None
        typed, self.pending = self.pending, ""
        return self._score(int(typed))

    def _score(self, value: int) -> KeyResult:
        """The one place a score enters the draft, and the one check of the scale."""
        dimension = self.current
        if dimension is None:
            return KeyResult(REFUSED, "the rubric has no dimensions")
        values = scale_values(dimension)
        if value not in values:
            return KeyResult(
                REFUSED, f"{dimension.name} takes {values[0]} to {values[-1]}, not {value}"
            )
        self.scores[dimension.name] = value
        self.pending = ""
        if self.complete:
            return KeyResult(COMPLETE)
        count = len(self.dimensions)
        for step in range(1, count + 1):
            index = (self.cursor + step) % count
            if self.dimensions[index].name not in self.scores:
                self.cursor = index
                break
        return KeyResult(SCORED)

    def back(self) -> bool:
        """The cursor to the previous dimension (its score stays); False on the first."""
        self.pending = ""
        if self.cursor == 0:
            return False
        self.cursor -= 1
        return True

    def forward(self) -> bool:
        """The cursor to the next dimension; False on the last."""
        self.pending = ""
        if self.cursor >= len(self.dimensions) - 1:
            return False
        self.cursor += 1
        return True

    def clear(self) -> None:
        """Drop every score (and a pending digit); the cursor back on the first dimension.
        The note stays: it is about the pair, not the scores."""
        self.scores.clear()
        self.pending = ""
        self.cursor = 0


def score_keys(dimensions: list[Dimension]) -> list[str]:
    """The digit keys that can score some dimension of `dimensions`, in order: every digit of
    the values of their scales (a 1..5 rubric takes `1` to `5`; a 0..10 scale needs each digit,
    `1` then `0` for 10). The screens bind only these, so their help lists only these (issue 36:
    it listed `0` to `9` for a 1..5 rubric); a digit of the rubric that is off the scale of the
    dimension under the cursor is still refused by `ScoreDraft.digit`, with the reason."""
    digits = {c for d in dimensions for v in scale_values(d) for c in str(v)}
    return sorted(digits)
