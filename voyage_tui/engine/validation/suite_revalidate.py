"""Re-validation of a change: `revalidate(paths)` re-checks only what the paths touch (a
journey.md change every trajectory, a catalogue change every gold file and run, a context file
its fixture), re-walking only when a walk alone can tell; `changed_since_load` says what moved
since a load that used the cache (the app re-checks it once its watcher is armed)."""

from __future__ import annotations

import heapq
import os
import stat
from collections.abc import Iterable

from voyage_tui.engine.bulk import gc_paused
from voyage_tui.engine.items import Item
from voyage_tui.engine.kinds import AFTER_RUNS_KINDS, FileKind
from voyage_tui.engine.references.loaded import (
    load_catalogue,
    load_journey,
    load_routing_table,
)
from voyage_tui.engine.validation.checkers import check_job
from voyage_tui.engine.validation.layout_replay import replay_layout
from voyage_tui.engine.validation.suite_base import by_depth, is_gold
from voyage_tui.engine.validation.suite_load import SuiteLoad
from voyage_tui.engine.workspace.classify import FILE_KINDS, JSON_KINDS, TASK_FILE
from voyage_tui.engine.workspace.config import CONFIG_NAME
from voyage_tui.engine.workspace.layout import git_ignored, scan
from voyage_tui.engine.workspace.model import Workspace, normalize_rel


class SuiteRevalidate(SuiteLoad):
    """A loaded suite kept true to the workspace, change by change."""

    def changed_since_load(self) -> set[str] | None:
        """The paths that changed since the load listed and checked them: files that appeared
        or went, files (or files they depend on) whose stamp moved since it was taken before
        their check, and every ratings file and the adjudications file (they are not stamped). For the app, which arms its
        watcher after its first load: re-checking these then misses nothing. None when the load
        used no cache (nothing was stamped) or the walk's problems changed: check everything."""
        cache = self._cache
        if cache is None:
            return None
        cache.new_run()  # the folders as they are now, not as the load saw them
        # Every folder as the load's listing recorded it: the load's layout (it replayed that
        # listing; one it walked moved a stamp of it), without a walk.
        replayed = None if self.use_git else replay_layout(self.ws, cache)
        if replayed is not None:
            layout = replayed.layout
        else:
            cache.new_run()
            layout = scan(self.ws, use_git=self.use_git)
        if layout.problems != self.layout_problems:
            return None
        listed = {*layout.tasks, *layout.agent_runs, *layout.json_candidates}
        checked = {p for p, i in self.items.items() if i.kind not in AFTER_RUNS_KINDS}
        changed = listed ^ checked
        changed.update(p for p in listed & checked if not cache.unchanged(p))
        changed.update(layout.ratings)
        changed.update(p for p, i in self.items.items() if i.kind in AFTER_RUNS_KINDS)
        adjudications = self.ws.adjudications_rel
        if adjudications and os.path.lexists(self.ws.abs(adjudications)):
            changed.add(adjudications)  # made since, or changed: it is not stamped either
        return changed

    def revalidate(self, paths: Iterable[str]) -> set[str]:
        """Re-check what `paths` (workspace-relative, created, changed or deleted) touch.
        Returns the paths of the items that were re-checked, added or removed.

        Each path is what the classifier says it is, as in the full walk; what only a walk can
        tell (a folder appearing or going, a file where a folder was, a misplaced task.yaml, a
        changed .gitignore) re-walks the workspace, so the result is always what a full
        validate of the workspace as it now is would give."""
        rels = {normalize_rel(p) for p in paths}
        if CONFIG_NAME in rels:
            self.ws = Workspace.from_root(self.ws.root)
            before = set(self.items)
            self.validate_all()
            return before | set(self.items)
        rules = self.ws.classifier
        touched: set[str] = set()
        recheck: set[str] = set()
        ratings: set[str] = set()
        all_ratings = False
        adjudications = False
        rescan = False
        with gc_paused():
            dependents = self._dependents()
            for rel in rels:
                kind = rules.kind(rel)
                if kind is FileKind.RATING:
                    ratings.add(rel)
                    continue
                if kind is FileKind.ADJUDICATION:
                    adjudications = True
                    continue
                role = rules.reference_role(rel) if kind is FileKind.REFERENCE else None
                if role is not None:
                    recheck |= self._reload_reference(role)
                    all_ratings = all_ratings or role == "rubric"
                    continue
                rescan = rescan or self._needs_walk(rel, kind)
                if kind in FILE_KINDS:
                    recheck.add(rel)
                elif kind in JSON_KINDS:
                    recheck |= self._json_targets(rel)
                recheck.update(dependents.get(rel, ()))
                fixture = rules.fixture_folder(rel)
                if kind is FileKind.OTHER and fixture is not None:
                    # Any other file in a fixture's folder may be one of its context files.
                    task = f"{fixture}/{TASK_FILE}"
                    if task in self.items:
                        recheck.add(task)
            if rescan:
                layout = scan(self.ws, use_git=self.use_git)
                self.layout_problems = layout.problems
                fresh = set(layout.tasks) | set(layout.agent_runs) | set(layout.json_candidates)
                gone = [p for p in self.items if p not in fresh and p not in layout.ratings]
                for path in gone:
                    self._set_item(path, None)
                touched.update(gone)
                recheck |= {p for p in fresh if p not in self.items}
                ratings |= set(layout.ratings)
            signature = self._suite_signature(recheck | touched)
            kinds_before = {p: self.items[p].kind for p in recheck if p in self.items}
            touched |= self._recheck(recheck)
            runs_moved = all_ratings or self._runs_moved(touched, kinds_before)
            if runs_moved:
                ratings |= {p for p, i in self.items.items() if i.kind is FileKind.RATING}
            if ratings:
                touched |= self._check_ratings(sorted(ratings))
            if ratings or adjudications or rescan or runs_moved:
                # Stale against the ratings, and checked against the runs and the rubric.
                touched |= self._check_adjudications()
            # The suite-level rules read only ids, kinds and classes: when the re-checked items
            # kept theirs (the usual edit), skip the pass over every fixture.
            if rescan or self._suite_signature(touched) != signature:
                self._suite_rules()
            if self.use_git:  # cached results; git is asked only about SHAs it has not seen
                self.git_results = self.git.refresh(self.ws, self.items, touched)
        return touched

    def _suite_signature(self, paths: set[str]) -> dict[str, tuple[object, ...] | None]:
        out: dict[str, tuple[object, ...] | None] = {}
        for path in paths:
            item = self.items.get(path)
            out[path] = (
                None if item is None else (item.kind, item.id, item.id_position, item.fixture_class)
            )
        return out

    def _reload_reference(self, which: str) -> set[str]:
        if which == "journey":
            self.refs.journey = load_journey(self.ws)
            return {p for p, i in self.items.items() if i.kind is FileKind.TRAJECTORY}
        if which == "rubric":
            from voyage_tui.engine.campaign.source import WorkTree

            # the campaign's source reads the rubric (issue 34: one reader of rating data)
            self.refs.rubric = WorkTree(self.ws).rubric()
            return {p for p, i in self.items.items() if i.kind is FileKind.TASK}
        if which == "catalogue":
            self.refs.catalogue = load_catalogue(self.ws)
            return {
                p for p, i in self.items.items() if i.kind in (FileKind.GOLD, FileKind.GOLD_RUN)
            }
        self.refs.routing_table = load_routing_table(self.ws)
        return set()

    def _needs_walk(self, rel: str, kind: FileKind) -> bool:
        """Whether the change at `rel` can only be judged by walking the workspace again."""
        if kind is FileKind.MISPLACED_TASK:
            return True
        if self.use_git and rel.rsplit("/", 1)[-1] == ".gitignore":
            return True  # which JSON files are gold candidates may have changed
        absolute = self.ws.abs(rel)
        if os.path.isdir(absolute) and not os.path.islink(absolute):
            return True  # a folder appeared or changed
        prefix = rel + "/"
        if not os.path.lexists(absolute) and any(p.startswith(prefix) for p in self.items):
            return True  # a folder holding items went
        # A layout problem at or around the path (a folder where a file belongs, a folder that
        # could not be read) may have gone with this change.
        return any(
            d.path == rel or d.path.startswith(prefix) or rel.startswith(d.path + "/")
            for d in self.layout_problems
        )

    def _json_targets(self, rel: str) -> set[str]:
        """A JSON file and the runs beside it: a gold file appearing, changing or vanishing
        changes which of them are runs."""
        targets = {rel}
        folder = rel.rsplit("/", 1)[0] if "/" in rel else ""
        prefix = f"{folder}/runs/" if folder else "runs/"
        targets |= {
            p for p, i in self.items.items() if i.kind is FileKind.GOLD_RUN and p.startswith(prefix)
        }
        runs_dir = self.ws.abs(prefix.rstrip("/"))
        try:
            names = os.listdir(runs_dir) if os.path.isdir(runs_dir) else []
        except OSError:  # unreadable: a full walk reports it (`folder-unreadable`)
            names = []
        rules = self.ws.classifier
        targets.update(
            prefix + name for name in names if rules.kind(prefix + name) is FileKind.GOLD_RUN
        )
        return targets

    def _recheck(self, paths: set[str]) -> set[str]:
        """Check each path again, gold files before the runs beside them; a file that becomes
        or stops being a gold file re-checks the runs beside it in turn."""
        touched: set[str] = set()
        ignored = self._ignored_json(paths)
        gold_by_folder = self._gold_by_folder(self.items.values())
        rules = self.ws.classifier
        pending = [by_depth(p) for p in paths]
        heapq.heapify(pending)
        while pending:
            _, rel = heapq.heappop(pending)
            if rel in touched:
                continue
            touched.add(rel)
            was_gold = is_gold(self.items.get(rel))
            item = None
            if rel not in ignored and os.path.lexists(self.ws.abs(rel)):
                item = self._check_one(rel, gold_by_folder)
            self._set_item(rel, item)
            if is_gold(item) != was_gold:
                folder = rules.folder_of(rel)
                first = min(
                    (
                        p
                        for p, i in self.items.items()
                        if i.kind is FileKind.GOLD and i.folder == folder
                    ),
                    default=None,
                )
                if first is None:
                    gold_by_folder.pop(folder, None)
                else:
                    gold_by_folder[folder] = first
                more = self._json_targets(rel) - touched
                ignored |= self._ignored_json(more)
                for path in more:
                    heapq.heappush(pending, by_depth(path))
        return touched

    def _ignored_json(self, paths: Iterable[str]) -> set[str]:
        """The JSON paths git ignores: like the full walk, never gold files or runs."""
        if not self.use_git:
            return set()
        rules = self.ws.classifier
        candidates = [p for p in paths if rules.kind(p) in JSON_KINDS]
        return git_ignored(self.ws, candidates) if candidates else set()

    def _check_one(self, rel: str, gold_by_folder: dict[str, str]) -> Item | None:
        """The item of one path, decided as the full walk decides it."""
        ws, refs = self.ws, self.refs
        rules = ws.classifier
        kind = rules.kind(rel)
        if kind not in FILE_KINDS and kind not in JSON_KINDS:
            return None
        if not self._reachable(rel):
            return None
        try:
            mode = os.lstat(ws.abs(rel)).st_mode
        except OSError:
            mode = 0
        if stat.S_ISDIR(mode):
            return None  # a folder where a file belongs is a layout problem (see scan)
        if kind in FILE_KINDS:
            return check_job(ws, refs, (kind, rel))
        if not (stat.S_ISREG(mode) or stat.S_ISLNK(mode)):
            return None  # a FIFO or device named like a JSON file: the walk lists none
        from voyage_tui.engine.validation.file_check import check_gold_run, check_json_candidate

        if kind is FileKind.GOLD_RUN:
            gold = gold_by_folder.get(rules.run_gold_folder(rel))
            if gold is not None:
                return check_gold_run(ws, refs, rel, gold)
        return check_json_candidate(ws, refs, rel)
