"""What the agreement figures leave out, decided once for every face (the agreement screen and
`voyage-tui agreement` both ask here, so they always name the same records).

Retracted and superseded ratings are not "left out": the rating in force replaced them
(`RatingStore.effective`). What is left out is what could not count at all:

- a ratings file, or the ratings folder, that could not be read: every rating in it is missing
  from the figures, so they cannot be trusted (the command exits 2);
- in a file that was read, each record with an error (an unknown dimension, a score off the
  rubric's scale, a missing field...) and each line a crash cut off (`rating-torn-line`): the
  record is skipped, the rest of the file counts. `validate` and the browser list them.
"""

from __future__ import annotations

from dataclasses import dataclass

from voyage_tui.engine.diagnostics import Diagnostic, Severity
from voyage_tui.engine.ratings.store import RatingStore
from voyage_tui.engine.wording import plural

TORN_LINE = "rating-torn-line"


@dataclass(frozen=True, slots=True)
class LeftOut:
    unreadable: tuple[Diagnostic, ...]
    """Why a file or the folder could not be read (its ratings are all missing)."""
    records: tuple[Diagnostic, ...]
    """The problem of each record left out of a file that was read."""

    @property
    def any(self) -> bool:
        return bool(self.unreadable or self.records)

    def screen_lines(self) -> list[str]:
        """What a screen over the ratings says was left out (agreement, rating status)."""
        lines = [
            f"{d.location()}: {d.message}; its ratings are missing from the figures"
            for d in self.unreadable
        ]
        if self.records:
            lines.append(
                f"{plural(len(self.records), 'problem')} in the ratings files left records out; "
                "the browser's Ratings group (or `voyage-tui validate`) lists them"
            )
        return lines


def left_out(store: RatingStore) -> LeftOut:
    unreadable = list(store.problems)
    unreadable += [d for f in store.files.values() if not f.readable for d in f.diagnostics]
    records = [
        d
        for f in store.files.values()
        if f.readable
        for d in f.diagnostics
        if d.severity is Severity.ERROR or d.code == TORN_LINE
    ]
    return LeftOut(tuple(unreadable), tuple(records))
