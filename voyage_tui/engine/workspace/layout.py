"""One walk of the workspace that lists every file the engine validates.

Each folder is listed once: fixtures by their fixed shape (`<class>/<id>/task.yaml`, agent runs in
`<id>/runs/*.yaml`), gold candidates (`*.json`) anywhere under the gold roots, skipping .git, .venv,
node_modules and (in a git repository) ignored paths.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field

from voyage_tui.engine import diagnostics as dg
from voyage_tui.engine.diagnostics import Diagnostic
from voyage_tui.engine.loading.safe_read import is_within
from voyage_tui.engine.workspace.model import Workspace

TASK_FILE = "task.yaml"
RUNS_FOLDER = "runs"
FOLDER_UNREADABLE = "folder-unreadable"
NEVER_SEARCHED = frozenset(
    {".git", ".venv", "node_modules", ".voyage", "__pycache__", ".hg", ".svn"}
)


@dataclass(slots=True)
class Layout:
    tasks: list[str] = field(default_factory=list)
    """task.yaml files at fixtures/<class>/<id>/ (trajectories included)."""
    agent_runs: list[str] = field(default_factory=list)
    """fixtures/<class>/<id>/runs/*.yaml"""
    json_candidates: list[str] = field(default_factory=list)
    """*.json under the gold roots (gold files are those whose `schema` says so)."""
    ratings: list[str] = field(default_factory=list)
    """`<ratings>/*.jsonl`: the raters' files (engine/ratings)."""
    problems: list[Diagnostic] = field(default_factory=list)
    """Files that exist but cannot be validated: wrong place, not regular, symlinked out; folders
    that cannot be listed."""
    unreadable_under_gold: dict[str, Diagnostic] = field(default_factory=dict)
    """Folders of the gold walk that cannot be listed, by path: like the JSON files found there,
    they drop out when git ignores them (a database volume owned by another user), so their
    diagnostics join `problems` only after that question."""


def _kind_of(entry: os.DirEntry[str]) -> str:
    try:
        if entry.is_symlink():
            return "symlink"
        if entry.is_file(follow_symlinks=False):
            return "file"
        if entry.is_dir(follow_symlinks=False):
            return "dir"
    except OSError:
        pass
    return "other"


class _Walker:
    def __init__(self, ws: Workspace) -> None:
        self.ws = ws
        self.layout = Layout()
        self.fixtures = ws.fixtures_rel
        self.gold_roots = ws.gold_roots

    def _list(self, path: str, rel: str, *, gold_walk: bool = False) -> list[os.DirEntry[str]]:
        """The folder's entries. One that cannot be listed is an error, never a silent gap in
        the suite (its fixtures would simply not be checked); the walk goes on beside it."""
        entries: list[os.DirEntry[str]] = []
        try:
            with os.scandir(path) as it:
                for entry in it:
                    entries.append(entry)
        except (FileNotFoundError, NotADirectoryError):
            pass  # gone since its parent was listed, or a configured folder that is absent
        except (OSError, ValueError) as exc:
            reason = exc.strerror if isinstance(exc, OSError) and exc.strerror else str(exc)
            where = rel or "."
            problem = dg.error(
                where,
                None,
                FOLDER_UNREADABLE,
                f"this folder cannot be read ({reason}); nothing in it was checked",
            )
            if gold_walk:
                self.layout.unreadable_under_gold[where] = problem
            else:
                self.layout.problems.append(problem)
        return entries

    # A folder symlinked to somewhere inside the workspace is followed; outside, it is refused.
    def _follow(self, entry: os.DirEntry[str], rel: str) -> bool:
        real = os.path.realpath(entry.path)
        if not is_within(self.ws.root_real, real):
            self.layout.problems.append(
                dg.error(
                    rel,
                    None,
                    "symlink-outside-workspace",
                    "this folder is a symlink to outside the workspace; nothing in it was read",
                )
            )
            return False
        return os.path.isdir(real)

    def _in_gold(self, rel: str) -> bool:
        return any(
            root == "" or rel == root or rel.startswith(root + "/") for root in self.gold_roots
        )

    def _gold_covers_below(self, rel: str) -> bool:
        return any(
            root == "" or root == rel or root.startswith(rel + "/") or rel.startswith(root + "/")
            for root in self.gold_roots
        )

    def _inside(self, rel: str) -> bool:
        """A configured folder (fixtures, a gold root) that resolves outside the workspace, by a
        symlink on the way, is refused: nothing in it is read."""
        if not rel:
            return True
        if is_within(self.ws.root_real, os.path.realpath(self.ws.abs(rel))):
            return True
        self.layout.problems.append(
            dg.error(
                rel,
                None,
                "symlink-outside-workspace",
                "this folder leads outside the workspace through a symlink; nothing in it was read",
            )
        )
        return False

    def walk(self) -> Layout:
        fixtures_abs = self.ws.abs(self.fixtures)
        if os.path.isdir(fixtures_abs) and self._inside(self.fixtures):
            self._walk_fixtures(fixtures_abs)
        for root in dict.fromkeys(self.gold_roots):
            if (
                root != self.fixtures
                and os.path.isdir(self.ws.abs(root))
                and not self._inside(root)
            ):
                continue
            self._walk_generic(self.ws.abs(root), root)
        return self.layout

    def _join(self, rel: str, name: str) -> str:
        return f"{rel}/{name}" if rel else name

    def _walk_fixtures(self, fixtures_abs: str) -> None:
        fixtures = self.fixtures
        in_gold = self._in_gold
        for class_entry in self._list(fixtures_abs, fixtures):
            class_rel = self._join(fixtures, class_entry.name)
            kind = _kind_of(class_entry)
            if kind == "symlink" and class_entry.name not in NEVER_SEARCHED:
                if not self._follow(class_entry, class_rel):
                    continue
                kind = "dir"
            if kind == "file":
                if class_entry.name == TASK_FILE:
                    self._misplaced(class_rel)
                elif class_entry.name.endswith(".json") and in_gold(class_rel):
                    self.layout.json_candidates.append(class_rel)
                continue
            if kind != "dir" or class_entry.name in NEVER_SEARCHED:
                continue
            for fixture_entry in self._list(class_entry.path, class_rel):
                fixture_rel = self._join(class_rel, fixture_entry.name)
                fkind = _kind_of(fixture_entry)
                if fkind == "symlink":
                    if not self._follow(fixture_entry, fixture_rel):
                        continue
                    fkind = "dir"
                if fkind == "file":
                    if fixture_entry.name == TASK_FILE:
                        self._misplaced(fixture_rel)
                    elif fixture_entry.name.endswith(".json") and in_gold(fixture_rel):
                        self.layout.json_candidates.append(fixture_rel)
                    continue
                if fkind == "dir":
                    self._walk_fixture_folder(
                        fixture_entry.path, fixture_rel, self._gold_covers_below(fixture_rel)
                    )

    def _walk_fixture_folder(self, folder_abs: str, folder_rel: str, gold_below: bool) -> None:
        in_gold = self._in_gold
        for entry in self._list(folder_abs, folder_rel):
            name = entry.name
            rel = self._join(folder_rel, name)
            kind = _kind_of(entry)
            if name == TASK_FILE:
                self._task_entry(entry, rel, kind)
            elif name == RUNS_FOLDER and kind in ("dir", "symlink"):
                if kind == "symlink" and not self._follow(entry, rel):
                    continue
                for run in self._list(entry.path, rel):
                    run_rel = self._join(rel, run.name)
                    if run.name.endswith((".yaml", ".yml")):
                        self.layout.agent_runs.append(run_rel)
                    elif gold_below and run.name.endswith(".json") and in_gold(run_rel):
                        self.layout.json_candidates.append(run_rel)
            elif gold_below and kind == "file" and name.endswith(".json") and in_gold(rel):
                self.layout.json_candidates.append(rel)
            elif gold_below and kind == "dir" and name not in NEVER_SEARCHED:
                self._walk_generic(entry.path, rel, fixtures_done=True)

    def _task_entry(self, entry: os.DirEntry[str], rel: str, kind: str) -> None:
        if kind in ("file", "symlink"):
            # Symlinks are checked again, unread, when the file is read.
            self.layout.tasks.append(rel)
            return
        what = "a folder" if kind == "dir" else "not a regular file (a FIFO, device or socket)"
        self.layout.problems.append(
            dg.error(
                rel, None, "not-a-regular-file", f"task.yaml here is {what}; it was not opened"
            )
        )

    def _misplaced(self, rel: str) -> None:
        self.layout.problems.append(
            dg.error(
                rel,
                None,
                "misplaced-task-file",
                "task.yaml belongs in fixtures/<class>/<id>/ (or fixtures/trajectories/<id>/); "
                "move it into a folder named after its id",
            )
        )

    def _walk_generic(self, start_abs: str, start_rel: str, fixtures_done: bool = False) -> None:
        stack = [(start_abs, start_rel)]
        fixtures = self.fixtures
        while stack:
            folder_abs, folder_rel = stack.pop()
            if not fixtures_done and (
                folder_rel == fixtures or (fixtures and folder_rel.startswith(fixtures + "/"))
            ):
                continue  # walked above, by its shape
            for entry in self._list(folder_abs, folder_rel, gold_walk=True):
                name = entry.name
                rel = self._join(folder_rel, name)
                kind = _kind_of(entry)
                if kind == "dir":
                    if name not in NEVER_SEARCHED:
                        stack.append((entry.path, rel))
                elif name.endswith(".json") and kind in ("file", "symlink") and self._in_gold(rel):
                    self.layout.json_candidates.append(rel)


def scan(ws: Workspace, *, use_git: bool = True) -> Layout:
    layout = _Walker(ws).walk()
    unreadable = layout.unreadable_under_gold
    if use_git and (layout.json_candidates or unreadable):
        # A trailing `/` marks a folder, so a `db-data/` pattern matches it.
        folders = {f"{rel}/": rel for rel in unreadable if rel != "."}
        ignored = git_ignored(ws, [*layout.json_candidates, *folders])
        if ignored:
            layout.json_candidates = [p for p in layout.json_candidates if p not in ignored]
            unreadable = {rel: d for rel, d in unreadable.items() if f"{rel}/" not in ignored}
    layout.problems.extend(unreadable.values())
    from voyage_tui.engine.ratings.store import list_ratings_files

    layout.ratings, ratings_problems = list_ratings_files(ws)
    layout.problems.extend(ratings_problems)
    layout.tasks.sort()
    layout.agent_runs.sort()
    layout.json_candidates = sorted(dict.fromkeys(layout.json_candidates))
    return layout


def git_ignored(ws: Workspace, paths: list[str]) -> set[str]:
    """The paths git ignores, asked in one `git check-ignore` process; empty outside a repo.
    The repository is the one a `.git` entry names, and git runs with the settings that keep
    it from running anything the repository names (engine/git/repo.py). Names are passed as
    the bytes they are on disk, so a name that is not UTF-8 is asked about like any other."""
    from voyage_tui.engine.git.repo import find_repository, run_plain

    location = find_repository(str(ws.root))
    if location is None or location.work_tree is None:
        return set()
    prefix = os.path.relpath(ws.root_real, os.path.realpath(location.work_tree))
    if prefix.startswith(".."):
        return set()
    base = "" if prefix == "." else prefix.replace(os.sep, "/") + "/"
    asked = {os.fsencode(base + p): p for p in paths}
    proc = run_plain(
        location,
        ["check-ignore", "-z", "--stdin"],
        b"".join(raw + b"\0" for raw in asked),
        timeout=30,
    )
    if proc is None or proc.returncode not in (0, 1):
        return set()
    return {asked[raw] for raw in proc.stdout.split(b"\0") if raw in asked}
