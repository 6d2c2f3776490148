"""Who rates which item (SPEC 3.9): rendezvous hashing over `[rating] raters`.

With a team (`raters` set), each item (fixture_id, run_id) is assigned to the
`min(overlap, len(raters))` raters with the highest
`sha256(f"{rater}\\0{fixture_id}\\0{run_id}")` hex digest. Anyone can recompute it by hand,
and a rater added to the team takes items only from others: every other rater's digest of an
item is unchanged, so the new rater enters an item's top `overlap` by pushing one out, never by
reordering the rest. Without a team every rater may rate every item.

Once ratings are in (SPEC 3.9, amended; issue 36), hashing fills only the places still open: an
item's assignees are the team members who have a person's rating in force for it, then the
highest-ranked others until `min(overlap, len(raters))`. So a rater who joins mid-campaign is
given only work still needed, and nobody loses an item they have rated. A rater outside the team
takes no team place: their rating counts towards an item's completeness (status.py) but the
team's places stay the team's, so an item an outsider rated is still asked of its team members.
The ratings are the campaign snapshot's (campaign/figures.py `assignment`): the session, triage's
`unrated` items, `ratings status`, `serve` and `rate` all ask that one assignment.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field

from voyage_tui.engine.ratings.records import Rating
from voyage_tui.engine.ratings.runs import RunKey
from voyage_tui.engine.workspace.model import Workspace
from voyage_tui.engine.workspace.rater_name import rater_key


def digest(rater: str, fixture_id: str, run_id: str) -> str:
    """The hex digest a rater holds for an item, as SPEC 3.9 writes it."""
    seed = f"{rater}\0{fixture_id}\0{run_id}"
    # surrogatepass: the same bytes as UTF-8 for every text; an id read with a lone surrogate
    # (a JSON `\udc00` escape) still gets a digest instead of stopping the assignment.
    return hashlib.sha256(seed.encode("utf-8", "surrogatepass")).hexdigest()


def assigned_raters(
    pair: RunKey, raters: Sequence[str], overlap: int, rated: Iterable[str] = ()
) -> list[str]:
    """The raters `pair` is assigned to, highest digest first: those of `rated` (the members of
    `raters` who have rated it), then the others with the highest digests until
    `min(overlap, len(raters))`. More raters than that who rated keep it all the same (their
    ratings are in; nobody is told an item they rated is not theirs). Equal digests (only one
    name listed twice can give them) fall back to the name, so the answer never depends on the
    list's order."""
    fixture_id, run_id = pair
    by_name = sorted(set(raters))
    # A stable sort: names with one digest keep their alphabetical order.
    ranked = sorted(by_name, key=lambda r: digest(r, fixture_id, run_id), reverse=True)
    places = max(0, min(overlap, len(ranked)))
    done = set(rated)
    kept = [name for name in ranked if name in done]
    open_places = max(0, places - len(kept))
    chosen = set(kept) | set([name for name in ranked if name not in done][:open_places])
    return [name for name in ranked if name in chosen]


@dataclass(frozen=True, slots=True)
class Assignment:
    """The assignment of a campaign: `team` is `[rating] raters` (empty: no team, and every
    rater may rate every item) and `overlap` the ratings each item wants."""

    team: tuple[str, ...]
    overlap: int
    rated: Mapping[RunKey, frozenset[str]] = field(default_factory=dict, compare=False)
    """The team members (the team's spelling) with a person's rating in force, per item: their
    places are taken (SPEC 3.9, amended). Empty: hashing alone, as before any rating."""

    @classmethod
    def of(cls, raters: Iterable[str], overlap: int) -> Assignment:
        return cls(tuple(dict.fromkeys(raters)), overlap)

    def with_ratings(self, in_force: Iterable[Rating]) -> Assignment:
        """This assignment once `in_force` (people's ratings in force: the caller leaves
        programs out, SPEC 3.11) are in: each team member who rated an item keeps a place on
        it. A retraction frees the place; an outsider's rating takes none."""
        rated: dict[RunKey, set[str]] = {}
        for rating in in_force:
            if rating.scores is None or not self.team:
                continue
            name = self.member(rating.rater)
            if name is not None:
                rated.setdefault(rating.run_key, set()).add(name)
        return Assignment(self.team, self.overlap, {k: frozenset(v) for k, v in rated.items()})

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

    def raters_of(self, pair: RunKey) -> list[str]:
        """The team members `pair` is assigned to (highest digest first); [] without a team."""
        if not self.team:
            return []
        return assigned_raters(pair, self.team, self.overlap, self.rated.get(pair, ()))

    def is_assigned(self, rater: str, pair: RunKey) -> bool:
        """Whether `rater` is asked to rate `pair`: every item is everyone's without a team;
        with one, only the items hashing puts among the rater's (none for an outsider)."""
        if not self.team:
            return True
        name = self.member(rater)
        return name is not None and name in self.raters_of(pair)

    def items_of(self, rater: str, pairs: Iterable[RunKey]) -> list[RunKey]:
        """The items of `pairs` assigned to `rater`, in the order given."""
        return [pair for pair in pairs if self.is_assigned(rater, pair)]

    def by_rater(self, pairs: Iterable[RunKey]) -> dict[str, list[RunKey]]:
        """Each team member's items (in the order given); {} without a team. One digest per
        member and item, so a whole campaign costs len(pairs) x len(team) hashes."""
        out: dict[str, list[RunKey]] = {name: [] for name in self.team}
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
