"""Who rates which item (SPEC 3.9): rendezvous hashing over `[rating] raters`.

With a team (`raters` set), each item (fixture_id, run_id) is assigned to the
`min(overlap, len(raters))` raters with the highest
`sha256(f"{rater}\\0{fixture_id}\\0{run_id}")` hex digest. Anyone can recompute it by hand,
and a rater added to the team takes items only from others: every other rater's digest of an
item is unchanged, so the new rater enters an item's top `overlap` by pushing one out, never by
reordering the rest. Without a team every rater may rate every item.

The session (session.py), triage's `unrated` items and `ratings status` all ask here.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from voyage_tui.engine.ratings.runs import PairKey
from voyage_tui.engine.workspace.model import Workspace
from voyage_tui.engine.workspace.rater_name import rater_key


def digest(rater: str, fixture_id: str, run_id: str) -> str:
    """The hex digest a rater holds for an item, as SPEC 3.9 writes it."""
    seed = f"{rater}\0{fixture_id}\0{run_id}"
    # surrogatepass: the same bytes as UTF-8 for every text; an id read with a lone surrogate
    # (a JSON `\udc00` escape) still gets a digest instead of stopping the assignment.
    return hashlib.sha256(seed.encode("utf-8", "surrogatepass")).hexdigest()


def assigned_raters(pair: PairKey, raters: Sequence[str], overlap: int) -> list[str]:
    """The raters `pair` is assigned to, highest digest first: the `min(overlap, len(raters))`
    of `raters` with the highest digests. Equal digests (only one name listed twice can give
    them) fall back to the name, so the answer never depends on the list's order."""
    fixture_id, run_id = pair
    by_name = sorted(set(raters))
    # A stable sort: names with one digest keep their alphabetical order.
    ranked = sorted(by_name, key=lambda r: digest(r, fixture_id, run_id), reverse=True)
    return ranked[: max(0, min(overlap, len(ranked)))]


@dataclass(frozen=True, slots=True)
class Assignment:
    """The assignment of a campaign: `team` is `[rating] raters` (empty: no team, and every
    rater may rate every item) and `overlap` the ratings each item wants."""

    team: tuple[str, ...]
    overlap: int

    @classmethod
    def of(cls, raters: Iterable[str], overlap: int) -> Assignment:
        return cls(tuple(dict.fromkeys(raters)), overlap)

    @property
    def has_team(self) -> bool:
        return bool(self.team)

    def member(self, rater: str) -> str | None:
        """The team's spelling of `rater`: the member of the same rater key (`José` for
        `Jose`, workspace/rater_name.py `rater_key`; voyage.toml refuses two names of one
        key); None for an outsider."""
        if rater in self.team:
            return rater
        wanted = rater_key(rater)
        return next((name for name in self.team if rater_key(name) == wanted), None)

    def in_team(self, rater: str) -> bool:
        """Whether `rater` is one of the team; without a team, everyone is."""
        return not self.team or self.member(rater) is not None

    def outsiders(self, names: Iterable[str]) -> list[str]:
        """The names that are not in a set team, in the order given (none without a team)."""
        return [name for name in names if not self.in_team(name)]

    def raters_of(self, pair: PairKey) -> list[str]:
        """The team members `pair` is assigned to (highest digest first); [] without a team."""
        if not self.team:
            return []
        return assigned_raters(pair, self.team, self.overlap)

    def is_assigned(self, rater: str, pair: PairKey) -> bool:
        """Whether `rater` is asked to rate `pair`: every item is everyone's without a team;
        with one, only the items hashing puts among the rater's (none for an outsider)."""
        if not self.team:
            return True
        name = self.member(rater)
        return name is not None and name in self.raters_of(pair)

    def items_of(self, rater: str, pairs: Iterable[PairKey]) -> list[PairKey]:
        """The items of `pairs` assigned to `rater`, in the order given."""
        return [pair for pair in pairs if self.is_assigned(rater, pair)]

    def by_rater(self, pairs: Iterable[PairKey]) -> dict[str, list[PairKey]]:
        """Each team member's items (in the order given); {} without a team. One digest per
        member and item, so a whole campaign costs len(pairs) x len(team) hashes."""
        out: dict[str, list[PairKey]] = {name: [] for name in self.team}
        for pair in pairs:
            for name in self.raters_of(pair):
                out[name].append(pair)
        return out


def workspace_assignment(ws: Workspace) -> Assignment:
    """The assignment `voyage.toml`'s `[rating]` asks for (names it refuses already left out:
    workspace/config.py)."""
    return Assignment.of(ws.config.rating.raters, ws.config.rating.overlap)


def outside_the_team(assignment: Assignment, rater: str) -> str | None:
    """What to tell a rater who is not one of a set team (None for everyone else): nothing is
    assigned to them, and they may rate every run all the same (SPEC 3.9, issue 19)."""
    if assignment.in_team(rater):
        return None
    shown = list(assignment.team[:MAX_NAMES_SHOWN])
    more = len(assignment.team) - len(shown)
    team = ", ".join(shown) + (f" and {more} more" if more else "")
    return (
        f"{rater} is not one of [rating] raters ({team}), so no run is assigned to {rater}; "
        "every run can still be rated"
    )


MAX_NAMES_SHOWN = 8
"""The team names a message lists before `and N more`."""
