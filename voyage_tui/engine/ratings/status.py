"""Progress and pace of a rating campaign (SPEC 6, `ratings status`; the status view of the app
asks the same): per rater the items assigned, done and left, the median seconds per item and
the items per hour; over the campaign the items and those complete.

- Items are the workspace's agent runs (runs.py), one per (fixture_id, run_id).
- Assigned: by assignment.py with a team (the assignment given: campaign/figures.py passes the
  one with the ratings in, so a member's rated items are theirs and a newcomer gets only open
  places); without one every item is assigned to every rater who has a ratings file.
- Done: the rater's assigned items they have a rating in force for; left: assigned, not rated.
- Complete: items with at least `overlap` raters' ratings in force (anyone's, in the team or
  not).
- `median_s`: the median `duration_s` of the rater's ratings in force that record one;
  `per_hour`: 3600 over that median (issue 36 row 4: over the mean, one item left open on
  screen for 15 minutes made a 3.7 s rater's pace 24.8 an hour). Both None without such a
  rating (and `per_hour` when the median is 0 s: a pace of no time at all says nothing).
- `too_fast`: the rater's ratings in force whose `duration_s` is below `[rating]
  min_seconds` (0: none ever is): rated quicker than a person reads a run.
- Raters: every team member, then every rater with a rating in force who is not one (assigned
  nothing; their ratings still count towards `complete`).
"""

from __future__ import annotations

import os
import statistics
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from voyage_tui.engine.ratings.assignment import Assignment
from voyage_tui.engine.ratings.records import RATINGS_SUFFIX, Rating
from voyage_tui.engine.ratings.runs import RunKey
from voyage_tui.engine.ratings.store import RatingStore
from voyage_tui.engine.workspace.rater_name import file_owner, rater_name_problem


@dataclass(frozen=True, slots=True)
class RaterStatus:
    name: str
    assigned: int
    done: int
    left: int
    median_s: float | None
    per_hour: float | None
    in_team: bool
    """False for a rater who is not one of a set team (assigned nothing)."""
    rated: int = 0
    """Every item the rater has a rating in force for, assigned or not."""
    too_fast: int = 0
    """The rater's ratings in force timed below `[rating] min_seconds`."""

    def to_json(self) -> dict[str, Any]:
        return {
            "assigned": self.assigned,
            "done": self.done,
            "left": self.left,
            "median_s": self.median_s,
            "per_hour": self.per_hour,
            "too_fast": self.too_fast,
        }


@dataclass(frozen=True, slots=True)
class CampaignStatus:
    overlap: int
    total: int
    complete: int
    raters: dict[str, RaterStatus]
    team: tuple[str, ...]
    """`[rating] raters` (empty: no team)."""
    min_seconds: float = 0.0
    """`[rating] min_seconds`: the threshold `too_fast` counts below."""

    @property
    def too_fast(self) -> int:
        return sum(r.too_fast for r in self.raters.values())

    @property
    def outsiders(self) -> list[str]:
        return [name for name, r in self.raters.items() if not r.in_team]

    def to_json(self) -> dict[str, Any]:
        """SPEC 6: `{"overlap", "items": {"total", "complete"}, "raters": {name: {...}}}`."""
        return {
            "overlap": self.overlap,
            "items": {"total": self.total, "complete": self.complete},
            "raters": {name: r.to_json() for name, r in self.raters.items()},
        }


def campaign_status(
    pairs: Sequence[RunKey],
    in_force: Iterable[Rating],
    assignment: Assignment,
    file_raters: Iterable[str] = (),
    min_seconds: float = 0.0,
) -> CampaignStatus:
    """The status of the items `pairs` given the ratings in force (`RatingStore.effective()`;
    a retraction among them is ignored) and the assignment. `file_raters` are the raters with a
    ratings file, who are assigned every item when there is no team; a rating timed below
    `min_seconds` is too fast."""
    items = set(pairs)
    rated: dict[str, set[RunKey]] = {}
    durations: dict[str, list[float]] = {}
    by_item: dict[RunKey, set[str]] = {}
    for rating in in_force:
        if rating.scores is None:
            continue
        # a team member is one rater however their records spell them (Assignment.member
        # ignores letter case), so `ann`'s ratings are `Ann`'s row, not a second one
        rater = assignment.member(rating.rater) or rating.rater
        durations.setdefault(rater, [])
        if rating.duration_s is not None:
            durations[rater].append(rating.duration_s)
        if rating.run_key in items:
            rated.setdefault(rater, set()).add(rating.run_key)
            by_item.setdefault(rating.run_key, set()).add(rater)
    if assignment.has_team:
        names = list(assignment.team) + sorted(set(durations) - set(assignment.team))
        mine = {name: set(found) for name, found in assignment.by_rater(pairs).items()}
    else:
        names = sorted(set(file_raters) | set(durations))
        mine = {name: items for name in names}
    raters: dict[str, RaterStatus] = {}
    for name in names:
        assigned = mine.get(name, set())
        done = len(assigned & rated.get(name, set()))
        median, per_hour = pace(durations.get(name, []))
        fast = sum(1 for seconds in durations.get(name, []) if seconds < min_seconds)
        raters[name] = RaterStatus(
            name=name,
            assigned=len(assigned),
            done=done,
            left=len(assigned) - done,
            median_s=median,
            per_hour=per_hour,
            in_team=assignment.in_team(name),
            rated=len(rated.get(name, set())),
            too_fast=fast,
        )
    complete = sum(1 for raters_of in by_item.values() if len(raters_of) >= assignment.overlap)
    return CampaignStatus(
        overlap=assignment.overlap,
        total=len(items),
        complete=complete,
        raters=raters,
        team=assignment.team,
        min_seconds=min_seconds,
    )


def pace(durations: Sequence[float]) -> tuple[float | None, float | None]:
    """(median seconds per item, items per hour at that median) of some `duration_s`; None
    without any."""
    if not durations:
        return None, None
    median = float(statistics.median(durations))
    return median, (3600 / median if median > 0 else None)


def raters_with_a_file(store: RatingStore) -> list[str]:
    """The raters a ratings file is named after (`<ratings>/<rater>.jsonl`), whatever it holds:
    the rater its records name when it is named after their slug (`firstname-lastname.jsonl`
    is "Firstname Lastname"'s, one rater, not two); a file whose name cannot be a rater's is
    nobody's."""
    out = []
    for path, checked in store.files.items():
        name = os.path.basename(path)[: -len(RATINGS_SUFFIX)]
        if rater_name_problem(name) is None:
            out.append(file_owner((r.rater for r in checked.ratings), name) or name)
    return out
