"""One walk of the workspace that lists every file the engine validates.

What each path is comes from the classifier (classify.py), the same answer live re-validation
gets; the walk only decides which folders to list (those the classifier says may hold a
workspace file), lists each once, and reports what it cannot list or must not follow: folders
that cannot be read, symlinks leading out of the workspace, a folder where a file belongs, a
task.yaml in the wrong place. JSON files git ignores are dropped (`scan`).
"""

from __future__ import annotations

import os
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from voyage_tui.engine import diagnostics as dg
from voyage_tui.engine.diagnostics import Diagnostic
from voyage_tui.engine.kinds import FileKind
from voyage_tui.engine.loading.safe_read import is_within
from voyage_tui.engine.loading.stamps import Stamp, stamp, stamp_of
from voyage_tui.engine.workspace.classify import (
    FILE_KINDS,
    NEVER_SEARCHED,
    RUNS_FOLDER,
    TASK_FILE,
    WALK,
    Classifier,
    Walk,
)
from voyage_tui.engine.workspace.config_file import CONFIG_NAME
from voyage_tui.engine.workspace.model import Workspace

if TYPE_CHECKING:
    from voyage_tui.engine.git.repo import Location

__all__ = [
    "FOLDER_UNREADABLE",
    "NEVER_SEARCHED",
    "RUNS_FOLDER",
    "TASK_FILE",
    "Layout",
    "ask_git_ignored",
    "git_ignored",
    "scan",
]

FOLDER_UNREADABLE = "folder-unreadable"


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
    adjudications: str | None = None
    """The adjudications file, when something is at its path (engine/ratings/adjudications.py)."""
    problems: list[Diagnostic] = field(default_factory=list)
    """Files that exist but cannot be validated: wrong place, not regular, symlinked out; folders
    that cannot be listed."""
    unreadable_under_gold: dict[str, Diagnostic] = field(default_factory=dict)
    """Folders of the gold walk that cannot be listed, by path: like the JSON files found there,
    they drop out when git ignores them (a database volume owned by another user), so their
    diagnostics join `problems` only after that question."""
    folder_stamps: list[tuple[str, Stamp]] = field(default_factory=list)
    """With `scan(..., stamp_folders=True)`: every folder the walk listed or looked at (refused
    configured folders, symlinks to folders), stamped before it was listed. While none of these
    stamps moves, a walk would list the same files (engine/validation/result_cache.py)."""


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


SeenFolder = Callable[[str, str, os.stat_result], None]
"""(workspace-relative folder, its path, its lstat): told of each folder the walk lists, with
the lstat it took before listing it (a PathStamper's `seen_folder`, which then needs none)."""


class _Walker:
    def __init__(
        self, ws: Workspace, *, stamp_folders: bool = False, seen: SeenFolder | None = None
    ) -> None:
        self.ws = ws
        self.rules = Classifier.of(ws)
        self.layout = Layout()
        self.stamp_folders = stamp_folders
        self.seen = seen
        self.listed: set[str] = set()
        """Folders already listed, by workspace-relative path (the configured folders nest)."""

    def _list(self, path: str, rel: str, *, gold_walk: bool = False) -> list[os.DirEntry[str]]:
        """The folder's entries. One that cannot be listed is an error, never a silent gap in
        the suite (its fixtures would simply not be checked); the walk goes on beside it."""
        entries: list[os.DirEntry[str]] = []
        if self.stamp_folders or self.seen is not None:
            # Before the listing: a change while it runs moves the stamp. One lstat serves the
            # listing's stamp and the chain of every file below (loading/stamps.py).
            try:
                st: os.stat_result | None = os.lstat(path)
            except (OSError, ValueError):  # ValueError: a NUL in the name
                st = None
            if self.stamp_folders:
                self.layout.folder_stamps.append((rel, None if st is None else stamp_of(path, st)))
            if st is not None and self.seen is not None:
                self.seen(rel, path, st)
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

    def _symlinked_folder(self, entry: os.DirEntry[str], rel: str) -> str | None:
        """ "dir" for a symlink to a folder inside the workspace (followed), "outside" for one to a
        folder outside it (refused, with an error), None for a symlink to anything else."""
        if self.stamp_folders:  # where it leads decides whether the walk goes in
            self.layout.folder_stamps.append((rel, stamp(entry.path)))
        real = os.path.realpath(entry.path)
        if not os.path.isdir(real):
            return None
        if is_within(self.ws.root_real, real):
            return "dir"
        self.layout.problems.append(
            dg.error(
                rel,
                None,
                "symlink-outside-workspace",
                "this folder is a symlink to outside the workspace; nothing in it was read",
            )
        )
        return "outside"

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
        rules = self.rules
        for root in rules.roots():
            if root in self.listed or not rules.may_hold(root):
                continue
            before = stamp(self.ws.abs(root)) if self.stamp_folders else None
            if os.path.isdir(self.ws.abs(root)) and not self._inside(root):
                if self.stamp_folders:  # refused: it must still lead outside next time
                    self.layout.folder_stamps.append((root, before))
                continue
            self._walk(root)
        return self.layout

    def _walk(self, start: str) -> None:
        rules, layout = self.rules, self.layout
        stack = [(start, self.ws.abs(start), rules.folder(start))]
        while stack:
            folder, folder_abs, here = stack.pop()
            if folder in self.listed:
                continue
            self.listed.add(folder)
            # The fixtures' own folders are always reported when unreadable; the rest of the
            # walk looks for gold files, and git may ignore a folder of it.
            gold_walk = not here.holds_fixtures
            for entry in self._list(folder_abs, folder, gold_walk=gold_walk):
                name = entry.name
                rel = f"{folder}/{name}" if folder else name
                kind = _kind_of(entry)
                if kind == "symlink" and here.fixture_shape(name):
                    followed = self._symlinked_folder(entry, rel)
                    if followed == "outside":
                        continue
                    if followed == "dir":
                        kind = "dir"
                if kind == "dir":
                    if here.kind(name) is FileKind.ADJUDICATION:
                        continue  # listed by scan, where it is read and reported
                    if here.kind(name) is FileKind.RATING:
                        # An item with its error, as live re-validation makes it (reading it
                        # says what it is, unopened): the ratings folder is the user's.
                        layout.ratings.append(rel)
                        continue
                    # Every file kind has a suffix: a folder without a dot is none of them.
                    if "." in name and here.kind(name) in FILE_KINDS:
                        self._folder_in_place_of_file(rel)
                    if here.may_hold(name):
                        stack.append((rel, entry.path, here.child(name, rules)))
                    continue
                how = WALK[here.kind(name)]
                if how is Walk.NOT_LISTED or how is Walk.ADJUDICATIONS:
                    continue
                if how is Walk.FIXTURE:
                    # Symlinks and FIFOs too: reading the file checks (and reports) them unread.
                    layout.tasks.append(rel)
                elif how is Walk.AGENT_RUN:
                    layout.agent_runs.append(rel)
                elif how is Walk.MISPLACED:
                    self._misplaced(rel)
                elif how is Walk.RATINGS:
                    # A FIFO or device too: a ratings file in the ratings folder is the user's
                    # (never git-ignored), so one that is no file is reported, unopened.
                    layout.ratings.append(rel)
                elif kind == "other":
                    continue  # a FIFO or device named like a gold file: not one
                elif how is Walk.JSON:
                    layout.json_candidates.append(rel)

    def _folder_in_place_of_file(self, rel: str) -> None:
        name = rel.rsplit("/", 1)[-1]
        self.layout.problems.append(
            dg.error(rel, None, "not-a-regular-file", f"{name} here is a folder; it was not opened")
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


def scan(
    ws: Workspace,
    *,
    use_git: bool = True,
    stamp_folders: bool = False,
    seen: SeenFolder | None = None,
) -> Layout:
    """Every file to validate. `stamp_folders`: the listing's stamps (Layout.folder_stamps);
    `seen`: told of each folder listed, with its lstat (SeenFolder)."""
    layout = _Walker(ws, stamp_folders=stamp_folders, seen=seen).walk()
    unreadable = layout.unreadable_under_gold
    if use_git and (layout.json_candidates or unreadable):
        # A trailing `/` marks a folder, so a `db-data/` pattern matches it.
        folders = {f"{rel}/": rel for rel in unreadable if rel != "."}
        ignored, problem = ask_git_ignored(ws, [*layout.json_candidates, *folders])
        if problem is not None:
            layout.problems.append(problem)
        if ignored:
            layout.json_candidates = [p for p in layout.json_candidates if p not in ignored]
            unreadable = {rel: d for rel, d in unreadable.items() if f"{rel}/" not in ignored}
    layout.problems.extend(unreadable.values())
    layout.tasks.sort()
    layout.agent_runs.sort()
    layout.ratings.sort()
    layout.json_candidates = sorted(dict.fromkeys(layout.json_candidates))
    adjudications = ws.adjudications_rel
    if (
        adjudications
        and ws.classifier.kind(adjudications) is FileKind.ADJUDICATION
        and os.path.lexists(ws.abs(adjudications))
    ):
        layout.adjudications = adjudications
    return layout


def git_ignored(ws: Workspace, paths: list[str]) -> set[str]:
    """The paths git ignores (ask_git_ignored), for a re-check of a few paths: when git cannot
    answer, none is taken as ignored, so every file is checked."""
    return ask_git_ignored(ws, paths)[0]


def ask_git_ignored(ws: Workspace, paths: list[str]) -> tuple[set[str], Diagnostic | None]:
    """The paths git ignores, asked in one `git check-ignore` process; empty outside a repo.
    The repository is the one a `.git` entry names, and git runs with the settings that keep
    it from running anything the repository names, and within the one time limit of every git
    process (engine/git/repo.py). Names are passed as the bytes they are on disk, so a name
    that is not UTF-8 is asked about like any other. When git does not answer (it was stopped
    at the limit, or not run after another git process of this run was), nothing is taken as
    ignored, and the warning says so."""
    from voyage_tui.engine.git.repo import find_repository, run_plain_result

    location = find_repository(str(ws.root))
    if location is None or location.work_tree is None:
        return set(), None
    prefix = os.path.relpath(ws.root_real, os.path.realpath(location.work_tree))
    if prefix.startswith(".."):
        return set(), None
    base = "" if prefix == "." else prefix.replace(os.sep, "/") + "/"
    asked = {os.fsencode(base + p): p for p in paths}
    proc, why = run_plain_result(
        location, ["check-ignore", "-z", "--stdin"], b"".join(raw + b"\0" for raw in asked)
    )
    if proc is not None and proc.returncode in (0, 1):
        return {asked[raw] for raw in proc.stdout.split(b"\0") if raw in asked}, None
    if proc is not None:
        lines = [line.strip() for line in proc.stderr.decode("utf-8", "replace").splitlines()]
        why = next((line for line in lines if line), f"git exited with status {proc.returncode}")
    problem = dg.warning(
        CONFIG_NAME if os.path.isfile(ws.abs(CONFIG_NAME)) else ".",
        None,
        "git-check-failed",
        "which files git ignores could not be asked (`git check-ignore`): "
        f"{why.removeprefix('fatal: ')}; every JSON file was checked, ignored or not",
    )
    return set(), problem


def git_ignores_file(ws: Workspace, rel: str) -> bool:
    """Whether git ignores the workspace file `rel` (ask_git_ignored), asked once and then
    answered from `ws.ignore_answers` while the files that decide it are as they were: a rater
    appending record after record must not start a git process per record (issue 34). The
    answer is asked again when any of them changes (its size, time or inode): each `.gitignore`
    from the work tree's top down to the file's folder, the repository's `info/exclude`, its
    `config` (`core.excludesFile`) and its index (a tracked file is not ignored), the user's
    git configuration and global ignore file at their usual places, and whether there is a
    repository at all. An answer git could not give (a failure, a time-out) is not kept."""
    from voyage_tui.engine.git.repo import find_repository

    location = find_repository(str(ws.root))
    state = _ignore_state(location, ws, rel)
    kept = ws.ignore_answers.get(rel)
    if kept is not None and kept[0] == state:
        return kept[1]
    ignored, problem = ask_git_ignored(ws, [rel])
    answer = rel in ignored
    if problem is None:
        ws.ignore_answers[rel] = (state, answer)
    return answer


def _ignore_state(location: Location | None, ws: Workspace, rel: str) -> object:
    """The stamps of the files git reads to decide whether `rel` is ignored (git_ignores_file)."""
    if location is None or location.work_tree is None:
        return None
    top = os.path.realpath(location.work_tree)
    folder = os.path.dirname(os.path.join(ws.root_real, rel))
    sources = [os.path.join(location.git_dir, name) for name in ("info/exclude", "config", "index")]
    config_home = os.environ.get("XDG_CONFIG_HOME") or os.path.expanduser("~/.config")
    sources += [
        os.path.expanduser("~/.gitconfig"),
        os.path.join(config_home, "git", "config"),
        os.path.join(config_home, "git", "ignore"),
    ]
    while True:
        sources.append(os.path.join(folder, ".gitignore"))
        if folder == top or not folder.startswith(top + os.sep):
            break
        folder = os.path.dirname(folder)
    return (location, tuple(_file_stamp(path) for path in sources))


def _file_stamp(path: str) -> tuple[int, int, int, int] | None:
    try:
        info = os.stat(path)
    except OSError:
        return None
    return (info.st_dev, info.st_ino, info.st_size, info.st_mtime_ns)


WATCHED_FILES = (CONFIG_NAME, ".gitignore")
"""Files at the workspace's root whose change a watcher hands on (a re-check of everything, a
walk again)."""


def watched(ws: Workspace) -> tuple[list[str], list[str]]:
    """What a watcher of `ws` needs to see: the folders that may hold a workspace file (the
    configured fixtures, gold and ratings folders, those of the reference files and the
    adjudications file), watched whole, and the root's own files among them (voyage.toml, the
    root .gitignore, a reference file at the root), watched one by one: never `.venv`, `.git`
    or anything else beside them. A configured folder that is the root itself (`gold = ["."]`,
    the default) is "": every folder at the root but those never searched (NEVER_SEARCHED),
    as the walk goes."""
    rules = Classifier.of(ws)
    adjudications = ws.adjudications_rel
    named = [*rules.references, *([adjudications] if adjudications else [])]
    wanted = {*rules.roots(), *(rel.rsplit("/", 1)[0] for rel in named if "/" in rel)}
    if "" in wanted:
        wanted = {""}
    folders = sorted(f for f in wanted if not any(f.startswith(g + "/") for g in wanted if g))
    files = [*WATCHED_FILES, *(rel for rel in named if "/" not in rel)]
    return folders, list(dict.fromkeys(files))
