"""The campaign snapshot: the rubric, the runs (with their agents), every rating record, the
adjudications, read once from a source (source.py) and never changed after. The live suite
makes a new one for each view from the files it has checked (Suite.campaign_loader): a change
to one ratings file re-reads that file only, every other file's records are the ones read.

Every figure of a campaign (effective scores, disputes, assignment, agreement, calibration,
status, export, triage's rating items, results) is a function of a snapshot: figures.py, and
results and triage above it. Who counts is asked of `counting.counts` here, once; people only
unless a caller says otherwise.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

from voyage_tui.engine.campaign.counting import ItemKey, Raters, counts, item_of
from voyage_tui.engine.campaign.source import Source
from voyage_tui.engine.ratings.adjudications import AdjudicationsFile
from voyage_tui.engine.ratings.effective import Adjudicated, ItemScores, item_scores
from voyage_tui.engine.ratings.left_out import LeftOut, left_out
from voyage_tui.engine.ratings.records import Rating
from voyage_tui.engine.ratings.runs import RunIndex
from voyage_tui.engine.ratings.store import Key, RatingStore
from voyage_tui.engine.references.loaded import Loaded
from voyage_tui.engine.references.rubric import Rubric
from voyage_tui.engine.workspace.model import Workspace


@dataclass(frozen=True)
class Campaign:
    source: Source
    loaded_rubric: Loaded[Rubric]
    runs: RunIndex | None
    """The suite's agent runs, when the source knows them."""
    store: RatingStore
    """Every ratings file as read. Never appended to: a rater session has its own store."""
    adjudications: AdjudicationsFile
    _memo: dict[Any, Any] = field(default_factory=dict, compare=False, repr=False)
    """Views computed once per snapshot (the snapshot never changes, so neither do they)."""

    @property
    def ws(self) -> Workspace:
        return self.source.ws

    @property
    def rubric(self) -> Rubric:
        return self.loaded_rubric.value

    # --- records -------------------------------------------------------------------------------

    def records(self, raters: Raters = Raters.PEOPLE) -> Iterator[Rating]:
        """Every record of `raters` that counts, file by file, in file order."""
        return (r for r in self.store.ratings() if counts(r, raters))

    def in_force(self, raters: Raters = Raters.PEOPLE) -> dict[Key, Rating]:
        """The rating in force per (fixture_id, run_id, rater) of `raters`: the last record in
        file order, unless it is a retraction."""
        key = ("in_force", raters)
        if key not in self._memo:
            self._memo[key] = in_force_of(self.store, raters)
        found: dict[Key, Rating] = self._memo[key]
        return found

    def by_item(self, raters: Raters = Raters.PEOPLE) -> dict[ItemKey, list[Rating]]:
        """The ratings in force of each item, by item key."""
        out: dict[ItemKey, list[Rating]] = {}
        for rating in self.in_force(raters).values():
            out.setdefault(item_of(rating), []).append(rating)
        return out

    def raters(self, raters: Raters = Raters.PEOPLE) -> list[str]:
        return sorted({r.rater for r in self.records(raters)})

    def adjudicated(self) -> Adjudicated:
        """The adjudication in force per item: dimension -> final score."""
        if "adjudicated" not in self._memo:
            self._memo["adjudicated"] = self.adjudications.in_force()
        found: Adjudicated = self._memo["adjudicated"]
        return found

    def item_scores(self, raters: Raters = Raters.PEOPLE) -> dict[tuple[str, str], ItemScores]:
        """Every item's effective scores (SPEC 3.9) from `raters`' ratings in force and the
        adjudications in force."""
        return item_scores(self.in_force(raters).values(), self.adjudicated())

    def left_out(self) -> LeftOut:
        """What could not count (ratings/left_out.py)."""
        return left_out(self.store)


def in_force_of(store: RatingStore, raters: Raters) -> dict[Key, Rating]:
    """`raters`' rating in force per key: their last record in file order, unless it is a
    retraction (the one definition: the snapshot's, and validate's staleness check)."""
    latest: dict[Key, Rating] = {}
    for rating in store.ratings():
        if counts(rating, raters):
            latest[rating.key] = rating
    return {k: r for k, r in latest.items() if r.scores is not None}


def load_campaign(source: Source) -> Campaign:
    """Read the campaign from `source`: the rubric, the runs, every ratings file, then the
    adjudications (checked for staleness against the people's ratings in force, which the
    snapshot keeps: one pass over the records, not two)."""
    loaded = source.rubric()
    store = source.ratings(loaded.value)
    people = in_force_of(store, Raters.PEOPLE)
    adjudications = source.adjudications(loaded.value, people)
    memo: dict[Any, Any] = {("in_force", Raters.PEOPLE): people}
    return Campaign(source, loaded, source.runs(), store, adjudications, memo)
