"""The suite's ratings part: the ratings files and the adjudications file, checked after the
runs they name, and the campaign made from what was checked (engine/campaign/)."""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable, Mapping
from typing import TYPE_CHECKING

from voyage_tui.engine.items import Item, RatingsFacts
from voyage_tui.engine.kinds import FileKind
from voyage_tui.engine.ratings.runs import RunIndex, RunKey
from voyage_tui.engine.validation.suite_base import SuiteBase

if TYPE_CHECKING:
    from voyage_tui.engine.campaign.snapshot import Campaign


class SuiteRatings(SuiteBase):
    """The ratings and the adjudications of a suite, and its campaign."""

    def _check_ratings(self, paths: Iterable[str]) -> set[str]:
        """Check ratings files against the agent runs now in the suite; returns their paths."""
        runs = RunIndex.from_items(self.items)
        self._run_pairs = frozenset(runs.by_pair)
        done: set[str] = set()
        for rel in paths:
            done.add(rel)
            if not os.path.lexists(self.ws.abs(rel)):
                self.items.pop(rel, None)
                self._ratings_checked.pop(rel, None)
                continue
            from voyage_tui.engine.ratings.rules import check_ratings_file

            # The rubric is parsed (markdown-it) only when a ratings file needs it.
            rubric = self.refs.rubric.value
            checked = check_ratings_file(self.ws, rubric, rel, runs, self._deleted_runs)
            self._ratings_checked[rel] = checked
            self.items[rel] = Item(
                rel,
                FileKind.RATING,
                id=checked.rater,
                diagnostics=tuple(checked.diagnostics),
                facts=RatingsFacts(len(checked.ratings)),
            )
        return done

    def campaign(self) -> Campaign:
        """The rating campaign as this suite has read it: its runs, its rubric, the ratings
        files and the adjudications file it checked, none read again (engine/campaign/)."""
        return self.campaign_loader()()

    def campaign_loader(self, items: Mapping[str, Item] | None = None) -> Callable[[], Campaign]:
        """The campaign of the suite as it is now, made when first asked for (a view that no
        screen asks it of never parses the rubric). What the suite has checked is taken now:
        a ratings file re-checked later (the one a change touched, read again alone) is in the
        next loader's campaign, every other file as it was. `items`: a copy of the suite's
        items already made (a view's), else one is made."""
        from voyage_tui.engine.campaign.source import WorkTree

        source = WorkTree(
            self.ws,
            items if items is not None else dict(self.items),
            self.refs.rubric,
            dict(self._ratings_checked),
            checked_adjudications=self._adjudications_checked,
        )
        made: list[Campaign] = []

        def campaign() -> Campaign:
            if not made:
                from voyage_tui.engine.campaign.snapshot import load_campaign

                made.append(load_campaign(source))
            return made[0]

        return campaign

    def _check_adjudications(self) -> set[str]:
        """Check the adjudications file against the rubric, the agent runs and the ratings in
        force now; returns its path (its item added, replaced or dropped)."""
        rel = self.ws.adjudications_rel
        if (
            self.ws.classifier.kind(rel) is not FileKind.ADJUDICATION
            or not os.path.lexists(self.ws.abs(rel))
            or not self._reachable(rel)
        ):
            self._adjudications_checked = None
            if self.items.pop(rel, None) is not None:
                return {rel}
            return set()
        from voyage_tui.engine.campaign.counting import Raters
        from voyage_tui.engine.campaign.snapshot import in_force_of
        from voyage_tui.engine.campaign.source import WorkTree
        from voyage_tui.engine.ratings.store import RatingStore

        store = RatingStore(self._ratings_checked.values())
        people = in_force_of(store, Raters.PEOPLE)
        # read through the campaign's source, the one reader of the rating data (issue 34):
        # checked against the suite's runs, as validate reports it
        checked = WorkTree(self.ws, self.items, check_runs=True).adjudications(
            self.refs.rubric.value, people
        )
        self._adjudications_checked = checked
        self.items[rel] = Item(
            rel,
            FileKind.ADJUDICATION,
            id=rel.rsplit("/", 1)[-1],
            diagnostics=tuple(checked.diagnostics),
            facts=RatingsFacts(len(checked.records)),
        )
        return {rel}

    def _deleted_runs(self) -> set[RunKey] | None:
        if not self.use_git:
            return None
        if not self._history_asked:
            from voyage_tui.engine.ratings.history import deleted_run_pairs

            self._history_asked = True
            self._history = deleted_run_pairs(self.ws)
        return self._history

    def _runs_moved(self, touched: set[str], kinds_before: dict[str, FileKind]) -> bool:
        """Whether the (fixture_id, run_id) pairs ratings are checked against changed."""
        kinds = {FileKind.AGENT_RUN, FileKind.TASK, FileKind.TRAJECTORY}
        if not any(
            kinds_before.get(p) in kinds or (p in self.items and self.items[p].kind in kinds)
            for p in touched
        ):
            return False
        return frozenset(RunIndex.from_items(self.items).by_pair) != self._run_pairs
