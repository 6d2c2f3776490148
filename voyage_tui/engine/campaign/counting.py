"""What a rated item is, and who counts (SPEC 3.11).

An item is what a rater judges: today one agent run, `(fixture_id, (run_id,))`; a pairwise
judgement (SPEC 3.12) will be an item of two runs, `(fixture_id, (run_a, run_b))` with the runs
sorted, so every figure keyed by item takes it without a second kind of key.

People and programs are kept apart: agreement, assignment, `ratings status`, disputes and
effective scores count people only, unless a caller asks for programs (a judge's alignment)
or all (`results --raters all`). The one test is here (`counts`), so no consumer learns the
difference on its own.
"""

from __future__ import annotations

from enum import StrEnum
from typing import NamedTuple

from voyage_tui.engine.ratings.records import Rating


class ItemKey(NamedTuple):
    """What a record rates: a fixture and its run (or, later, its pair of runs, sorted)."""

    fixture_id: str
    runs: tuple[str, ...]

    @classmethod
    def of_run(cls, fixture_id: str, run_id: str) -> ItemKey:
        return cls(fixture_id, (run_id,))

    @property
    def run_key(self) -> tuple[str, str] | None:
        """(fixture_id, run_id) of a one-run item, as the ratings modules key it; None for a
        pair of runs."""
        return (self.fixture_id, self.runs[0]) if len(self.runs) == 1 else None


class Raters(StrEnum):
    """Whose records a figure counts."""

    PEOPLE = "people"
    PROGRAMS = "programs"
    ALL = "all"


def item_of(rating: Rating) -> ItemKey:
    return ItemKey.of_run(rating.fixture_id, rating.run_id)


def counts(rating: Rating, raters: Raters) -> bool:
    """Whether `rating` is one of `raters`' records."""
    if raters is Raters.ALL:
        return True
    return rating.is_program == (raters is Raters.PROGRAMS)
