"""Where a campaign snapshot is read from. The work tree today (`WorkTree`); a commit of the
suite or an imported log later, behind the same few questions, so the snapshot and every figure
above it do not change when a source is added.

This module and snapshot.py are the only readers of ratings files, the adjudications file and
(for a campaign) the rubric: no consumer calls `RatingStore.load`, `load_adjudications` or
`load_rubric` itself (the validation suite checks each file on its own, and reads the rubric
among its references).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Protocol

from voyage_tui.engine.items import Item
from voyage_tui.engine.ratings.adjudications import AdjudicationsFile, load_adjudications
from voyage_tui.engine.ratings.records import Rating, RatingsFile
from voyage_tui.engine.ratings.runs import RunIndex
from voyage_tui.engine.ratings.store import Key, RatingStore, list_ratings_files
from voyage_tui.engine.references.loaded import Loaded, load_rubric
from voyage_tui.engine.references.rubric import Rubric
from voyage_tui.engine.workspace.model import Workspace


class Source(Protocol):
    """What a snapshot asks of where the campaign lives."""

    @property
    def ws(self) -> Workspace: ...

    def rubric(self) -> Loaded[Rubric]: ...

    def runs(self) -> RunIndex | None:
        """The suite's agent runs, when the source knows them (None: records naming a run are
        not checked against any)."""
        ...

    def ratings(self, rubric: Rubric) -> RatingStore: ...

    def adjudications(
        self, rubric: Rubric, in_force: Mapping[Key, Rating] | None
    ) -> AdjudicationsFile: ...


@dataclass(frozen=True)
class WorkTree:
    """The workspace's files as they are on disk.

    With a validated suite's `items` the runs are known; with the ratings files the suite
    already checked (`checked`, against those runs) nothing is read twice, and a record naming
    a run the suite lacks does not count, as validate says. Without them every record counts
    whatever run it names (as `agreement` has always read them). `rubric` is the suite's, when
    it has read it. `check_runs` checks the records against the runs when the suite's checked
    files are not at hand (results counts only the suite's runs, from the screen as from the
    command line)."""

    workspace: Workspace
    items: Mapping[str, Item] | None = None
    loaded_rubric: Loaded[Rubric] | None = None
    checked: Mapping[str, RatingsFile] | None = None
    check_runs: bool = False
    checked_adjudications: AdjudicationsFile | None = None
    """The adjudications file as the suite checked it (None: read it)."""

    @property
    def ws(self) -> Workspace:
        return self.workspace

    def rubric(self) -> Loaded[Rubric]:
        return self.loaded_rubric if self.loaded_rubric is not None else load_rubric(self.ws)

    def runs(self) -> RunIndex | None:
        return RunIndex.from_items(self.items) if self.items is not None else None

    def _checked_runs(self) -> RunIndex | None:
        """The runs records are checked against: only where the suite checked them so."""
        return self.runs() if self.checked is not None or self.check_runs else None

    def ratings(self, rubric: Rubric) -> RatingStore:
        if self.checked is None:
            return RatingStore.load(self.ws, rubric, self._checked_runs())
        listed, problems = list_ratings_files(self.ws)
        files: list[RatingsFile] = []
        missing = [rel for rel in listed if rel not in self.checked]
        files = [self.checked[rel] for rel in listed if rel in self.checked]
        if missing:
            files += RatingStore.load(
                self.ws, rubric, self._checked_runs(), paths=missing
            ).files.values()
        return RatingStore(sorted(files, key=_path), problems)

    def adjudications(
        self, rubric: Rubric, in_force: Mapping[Key, Rating] | None
    ) -> AdjudicationsFile:
        if self.checked_adjudications is not None:
            return self.checked_adjudications
        return load_adjudications(self.ws, rubric, self._checked_runs(), in_force)

    def rater_store(
        self, rubric: Rubric, runs: RunIndex | None, paths: Iterable[str]
    ) -> RatingStore:
        """A rater session's (or a judge's) own file(s), checked against the suite's runs: the
        store it appends through."""
        return RatingStore.load(self.ws, rubric, runs, paths=paths)


def _path(checked: RatingsFile) -> str:
    return checked.path
