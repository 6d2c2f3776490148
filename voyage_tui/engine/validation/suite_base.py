"""The validated suite's state and what it answers (issue 34 split `Suite` by concern): every
file's Item, the workspace-level diagnostics, the counts; the dependents index and the item
store every check goes through; the suite-level rules and the git checks.

The concerns build on it in turn (each module's class adds one, and may call those below it):
the ratings and the campaign (suite_ratings.py), the gold bytes a check keeps for results
(suite_gold.py), the full load (suite_load.py), the re-check of a change (suite_revalidate.py);
`Suite` (suite.py) is the last of them.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from voyage_tui.engine.diagnostics import Diagnostic, Severity
from voyage_tui.engine.git.checks import GitChecks, GitResults
from voyage_tui.engine.items import Item
from voyage_tui.engine.kinds import FIXTURE_KINDS, FileKind
from voyage_tui.engine.loading.once import ReadOnce
from voyage_tui.engine.loading.safe_read import is_within
from voyage_tui.engine.ratings.runs import RunKey
from voyage_tui.engine.references.loaded import References, load_references
from voyage_tui.engine.validation.cache import ItemCache
from voyage_tui.engine.validation.parallel import ForkedMap
from voyage_tui.engine.validation.suite_rules import adversarial_coverage, coverage, duplicate_ids
from voyage_tui.engine.workspace.classify import Classifier
from voyage_tui.engine.workspace.layout import Layout
from voyage_tui.engine.workspace.model import Workspace

if TYPE_CHECKING:
    from voyage_tui.engine.ratings.adjudications import AdjudicationsFile
    from voyage_tui.engine.ratings.records import RatingsFile


Progress = Callable[[int, int], None]
"""(done, total) during a full validation; it may raise to abandon the validation."""


@dataclass(frozen=True, slots=True)
class Summary:
    files: int
    errors: int
    warnings: int
    infos: int


def summarize(
    files: int,
    workspace: Iterable[Diagnostic],
    per_item: Iterable[Iterable[Diagnostic]],
) -> Summary:
    """The counts of a suite: its workspace-level diagnostics and every item's."""
    counts = {Severity.ERROR: 0, Severity.WARNING: 0, Severity.INFO: 0}
    for diagnostic in workspace:
        counts[diagnostic.severity] += 1
    for diagnostics in per_item:
        for diagnostic in diagnostics:
            counts[diagnostic.severity] += 1
    return Summary(
        files=files,
        errors=counts[Severity.ERROR],
        warnings=counts[Severity.WARNING],
        infos=counts[Severity.INFO],
    )


@dataclass(slots=True)
class Prepared:
    """The start of a full validation, taken early: references read, files listed, and (when it
    pays) a child process already checking half of the fixtures. See Suite.prepare."""

    refs: References
    layout: Layout
    tasks: ForkedMap[Job, Item | None]
    """The files that need checking (all of them without a cache), as (kind, path)."""
    cache: ItemCache | None = None
    reused: dict[str, Item] = field(default_factory=dict)
    """Fixtures unchanged since the cache recorded them."""
    listing_current: bool = False
    """The cache's listing was replayed (no walk) and holds as it is (layout_replay.py)."""

    def cancel(self) -> None:
        self.tasks.cancel()

    def resolve(self) -> Prepared:
        return self


Job = tuple[FileKind, str]
"""One file of a full validation: the kind its checker is found by (validation/checkers.py),
and its path. Every listed fixture is a TASK job: its checker tells a trajectory apart."""


def work_list(layout: Layout, rules: Classifier) -> list[Job]:
    """Every file of a full validation as (kind, path), in the order items are listed."""
    task, agent_run, gold, gold_run = (
        FileKind.TASK,
        FileKind.AGENT_RUN,
        FileKind.GOLD,
        FileKind.GOLD_RUN,
    )
    work = [(task, rel) for rel in layout.tasks]
    work += [(agent_run, rel) for rel in layout.agent_runs]
    work += [
        (gold_run if rules.kind(rel) is gold_run else gold, rel) for rel in layout.json_candidates
    ]
    return work


def by_depth(rel: str) -> tuple[int, str]:
    """Shallow paths first: a gold file before the runs beside it (a run's folder lies deeper
    than its gold file's), and within one folder by name (the first gold file owns the runs)."""
    return rel.count("/"), rel


GOLD_KINDS = (FileKind.GOLD, FileKind.GOLD_RUN)


def is_gold(item: Item | None) -> bool:
    return item is not None and item.kind is FileKind.GOLD


class SuiteBase:
    """What a suite holds, and its answers: items, diagnostics, counts."""

    def __init__(
        self,
        ws: Workspace,
        *,
        use_git: bool = True,
        parallel: bool = False,
        reads: ReadOnce | None = None,
        keep_gold: bool = False,
    ) -> None:
        """`reads`: the files this run read already (loading/once.py; the cache's key took the
        references' digests from them): the first load parses those bytes. `keep_gold`: keep
        the bytes of the gold files and runs a full validation checks in this process, for
        `review_inputs` (a one-shot command; the live suite keeps none)."""
        self.ws = ws
        self.keep_gold = keep_gold
        self._gold_bytes: dict[str, bytes] = {}
        self.use_git = use_git
        self.parallel = parallel
        self._reads: ReadOnce | None = (
            reads if reads is not None else ReadOnce(str(ws.root), ws.root_real)
        )
        self.refs: References = load_references(ws, self._reads)
        self.items: dict[str, Item] = {}
        self.layout_problems: list[Diagnostic] = []
        self.suite_diagnostics: list[Diagnostic] = []
        # Git checks (final_head_sha, holdout exposure): results kept beside the items, never
        # on them; counts and views combine the two. See engine/git/checks.py.
        self.git = GitChecks()
        self.git_results = GitResults()
        self._cache: ItemCache | None = None
        self._reused: dict[str, Item] = {}
        self._listing_current = False
        self._dependents_index: dict[str, set[str]] | None = None
        """Workspace file -> the items that depend on it; built when first needed, then kept
        up to date by _set_item."""
        # Ratings name agent runs: they are checked after the runs, against these pairs, and
        # against the runs git history once held (asked once per full validation, if at all).
        self._run_pairs: frozenset[RunKey] = frozenset()
        self._history: set[RunKey] | None = None
        self._history_asked = False
        self._ratings_checked: dict[str, RatingsFile] = {}
        self._adjudications_checked: AdjudicationsFile | None = None
        """Each ratings file as last checked: an adjudication is stale against them."""

    def run_git_checks(self) -> None:
        """final_head_sha and holdout exposure over the whole suite (no-op without git)."""
        if self.use_git:
            self.git_results = self.git.run_all(self.ws, self.items)

    def recompute_exposure(self) -> None:
        """A fresh exposure report (one pass over history); for the app, off the UI thread."""
        if self.use_git:
            self.git_results = self.git.recompute_exposure(self.ws, self.items)

    @property
    def git_diagnostics(self) -> list[Diagnostic]:
        """The git checks' diagnostics that belong to no item."""
        return list(self.git_results.workspace)

    @staticmethod
    def _gold_by_folder(items: Iterable[Item]) -> dict[str, str]:
        by_folder: dict[str, str] = {}
        for item in sorted((i for i in items if i.kind is FileKind.GOLD), key=lambda i: i.path):
            by_folder.setdefault(item.folder, item.path)
        return by_folder

    def _suite_rules(self) -> None:
        fixtures = list(self.fixtures())
        self.suite_diagnostics = duplicate_ids(fixtures) + adversarial_coverage(
            fixtures, self.ws.fixtures_rel
        )

    def _dependents(self) -> dict[str, set[str]]:
        """Workspace file -> the items whose diagnostics depend on it (context files, the README
        beside a gold file, a run's gold file)."""
        if self._dependents_index is None:
            index: dict[str, set[str]] = {}
            for path, item in self.items.items():
                for dep in item.deps:
                    index.setdefault(dep, set()).add(path)
            self._dependents_index = index
        return self._dependents_index

    def _set_item(self, rel: str, item: Item | None) -> None:
        """Store (or, with None, drop) the item of `rel`, keeping the dependents index true."""
        index = self._dependents_index
        if index is not None:
            old = self.items.get(rel)
            for dep in old.deps if old is not None else ():
                index.get(dep, set()).discard(rel)
            for dep in item.deps if item is not None else ():
                index.setdefault(dep, set()).add(rel)
        self._gold_bytes.pop(rel, None)
        if item is None:
            self.items.pop(rel, None)
        else:
            self.items[rel] = item

    def _reachable(self, rel: str) -> bool:
        """Whether the full walk reaches `rel`: it refuses folders symlinked out of the
        workspace, and follows a symlinked folder only where a fixture's folders are (a class,
        a fixture, its runs) or where a configured folder is one."""
        ws = self.ws
        if not is_within(ws.root_real, os.path.realpath(os.path.dirname(ws.abs(rel)))):
            return False
        rules = ws.classifier
        parts = rel.split("/")
        roots = rules.roots()
        for cut in range(1, len(parts)):
            folder = "/".join(parts[:cut])
            if (
                os.path.islink(ws.abs(folder))
                and not rules.fixture_shape(folder)
                and folder not in roots
            ):
                return False
        return True

    def fixtures(self) -> Iterator[Item]:
        return (i for i in self.items.values() if i.kind in FIXTURE_KINDS)

    def workspace_diagnostics(self) -> list[Diagnostic]:
        """Diagnostics that belong to no single item: config, references, layout, suite rules."""
        return [
            *self.ws.config_diagnostics,
            *self.refs.diagnostics,
            *self.layout_problems,
            *self.suite_diagnostics,
            *self.git_diagnostics,
        ]

    def item_diagnostics(self, path: str) -> tuple[Diagnostic, ...]:
        """One item's diagnostics: its file's and its git checks'."""
        item = self.items.get(path)
        if item is None:
            return ()
        return item.diagnostics + self.git_results.for_path(path)

    def diagnostics(self) -> list[Diagnostic]:
        out = self.workspace_diagnostics()
        for path in self.items:
            out.extend(self.item_diagnostics(path))
        out.sort(key=Diagnostic.sort_key)
        return out

    def diagnostics_for(self, path: str) -> list[Diagnostic]:
        out = list(self.item_diagnostics(path))
        out += [d for d in self.workspace_diagnostics() if d.path == path]
        out.sort(key=Diagnostic.sort_key)
        return out

    def summary(self) -> Summary:
        return summarize(
            len(self.items),
            self.workspace_diagnostics(),
            (self.item_diagnostics(p) for p in self.items),
        )

    def coverage(self) -> dict[str, dict[str, int]]:
        return coverage(self.fixtures())
