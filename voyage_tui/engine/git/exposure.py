"""Holdout exposure (docs/git-checks.md, "Holdout exposure"): which holdout fixtures a contributor has seen, and the proof.

A fixed number of git processes, whatever the number of fixtures or commits:
- one `git log --name-only --no-renames -z` over every branch, tag, remote-tracking branch and
  HEAD (merges list no files, so a merge never counts as touching a fixture): `foreign-author`,
  `co-change`, and the commits of each file where a leak was found;
- one `git ls-files -s`: the tracked files (a holdout's task.yaml missing there and from history
  is `not-tracked`) and their blob ids in the index;
- one read of the tracked files, in Python, for canaries (`canary-leak`) and, outside the
  fixtures folder, distinctive passages (`content-leak`); leaks.py says why this is not a
  `git grep`. A file holding a leak is hashed here, as git would store it, to tell whether the
  work tree changed it: `git ls-files -m` would stat every tracked file and could run filters;
- for leaking lines the history cannot settle (usually none), `git blame`, at most
  MAX_BLAMED_FILES files, side by side.
The tracked files are read while git log writes the history. Public fixtures are never reported.

In a shallow clone the commits the clone was cut at show every file they hold as changed, so
they prove nothing about who changed a holdout: no `foreign-author` or `co-change` comes from
them, and no leak is credited to them. The commits after them are whole and still count.

When the repository is there but its history or index cannot be read (a bad HEAD, a missing or
corrupt commit or tree, a broken packed-refs, a corrupt index, no git), the report says so in
`history_error`: it holds only the leaks the work tree shows and must not pass.
"""

from __future__ import annotations

import os
import posixpath
import tempfile
from collections.abc import Iterable
from dataclasses import dataclass, field

from voyage_tui.engine.git.leaks import CANARY, Hit, LeakScanner, blob_id, read_scanned
from voyage_tui.engine.git.passages import distinctive_passages
from voyage_tui.engine.git.paths import PathMatcher
from voyage_tui.engine.git.repo import GitRepo, GitUnavailable, Result, Running, open_repo
from voyage_tui.engine.items import Item
from voyage_tui.engine.workspace.layout import NEVER_SEARCHED
from voyage_tui.engine.workspace.model import Workspace

FOREIGN_AUTHOR = "foreign-author"
CO_CHANGE = "co-change"
CONTENT_LEAK = "content-leak"
CANARY_LEAK = "canary-leak"
NOT_TRACKED = "not-tracked"
EXPOSURE_KINDS = (FOREIGN_AUTHOR, CO_CHANGE, CONTENT_LEAK, CANARY_LEAK)
KIND_ORDER = {kind: n for n, kind in enumerate((*EXPOSURE_KINDS, NOT_TRACKED))}

MIN_CANARY_CHARS = 8
"""A canary shorter than this could match by chance; it is not searched for."""
MAX_BLAMED_FILES = 4
"""Leaking lines of up to this many files (those not committed once and left unchanged, which the
history pass settles) are traced to the commit that wrote them with `git blame`, side by side; a
leak in any further file is credited to the latest commit that changed the file."""

_LOG_FORMAT = "%x1e%H%x1f%aN%x1f%aE%x1f%as"
_NEUTRAL = ("-c", "log.follow=false", "-c", "diff.relative=false")
"""User settings that would change the output parsed here are switched off for these commands."""


@dataclass(frozen=True, slots=True)
class Signal:
    kind: str
    commit: str | None
    author: str | None
    detail: str
    date: str | None = None

    def to_json(self) -> dict[str, str | None]:
        return {
            "kind": self.kind,
            "commit": self.commit,
            "author": self.author,
            "detail": self.detail,
        }


@dataclass(slots=True)
class HoldoutExposure:
    id: str
    path: str
    """The fixture's task.yaml, workspace-relative."""
    canary: bool
    signals: list[Signal] = field(default_factory=list)

    @property
    def exposed(self) -> bool:
        return any(s.kind in EXPOSURE_KINDS for s in self.signals)

    @property
    def tracked(self) -> bool:
        return not any(s.kind == NOT_TRACKED for s in self.signals)

    def kinds(self) -> list[str]:
        return list(dict.fromkeys(s.kind for s in self.signals if s.kind in EXPOSURE_KINDS))

    def to_json(self) -> dict[str, object]:
        return {"id": self.id, "path": self.path, "signals": [s.to_json() for s in self.signals]}


@dataclass(slots=True)
class ExposureReport:
    holdouts: list[HoldoutExposure] = field(default_factory=list)
    warnings: list[tuple[str, str]] = field(default_factory=list)
    """(code, message) of what could not be checked: no repository, a shallow clone, ..."""
    history_error: str | None = None
    """Why the repository's history or index could not be read, when it could not: the report
    then holds only what the work tree shows, so it must not pass."""

    @property
    def exposed(self) -> list[HoldoutExposure]:
        return [h for h in self.holdouts if h.exposed]

    @property
    def not_tracked(self) -> list[HoldoutExposure]:
        return [h for h in self.holdouts if not h.tracked]

    @property
    def with_canary(self) -> int:
        return sum(1 for h in self.holdouts if h.canary)

    @property
    def canary_share(self) -> float:
        return self.with_canary / len(self.holdouts) if self.holdouts else 0.0

    def by_path(self) -> dict[str, HoldoutExposure]:
        return {h.path: h for h in self.holdouts}

    def to_json(self) -> dict[str, object]:
        return {
            "holdouts": len(self.holdouts),
            "exposed": [h.to_json() for h in self.exposed],
            "not_tracked": [{"id": h.id, "path": h.path} for h in self.not_tracked],
            "with_canary": self.with_canary,
            "canary_share": round(self.canary_share, 4),
            "warnings": [{"code": c, "message": m} for c, m in self.warnings],
            "history_error": self.history_error,
        }


# --- custodians -------------------------------------------------------------------------------


class Custodians:
    """`custodians` entries: an email (`ana@example.com`), a name (`Ana Lima`) or both
    (`Ana Lima <ana@example.com>`, matching either). Case does not matter."""

    def __init__(self, entries: Iterable[str]) -> None:
        self.names: set[str] = set()
        self.emails: set[str] = set()
        for raw in entries:
            entry = raw.strip()
            if "<" in entry and entry.endswith(">"):
                name, _, email = entry[:-1].partition("<")
                if name.strip():
                    self.names.add(name.strip().casefold())
                if email.strip():
                    self.emails.add(email.strip().casefold())
            elif "@" in entry:
                self.emails.add(entry.casefold())
            elif entry:
                self.names.add(entry.casefold())

    def __bool__(self) -> bool:
        return bool(self.names or self.emails)

    def __contains__(self, author: tuple[str, str]) -> bool:
        name, email = author
        return name.casefold() in self.names or email.casefold() in self.emails


# --- the computation --------------------------------------------------------------------------


@dataclass(slots=True)
class _Holdout:
    item: Item
    folder: str
    """The fixture folder, repository-relative."""
    report: HoldoutExposure
    in_history: bool = False


def holdouts_of(items: Iterable[Item]) -> list[Item]:
    return sorted(
        (i for i in items if i.is_fixture and i.visibility == "holdout"), key=lambda i: i.path
    )


def compute_exposure(
    ws: Workspace, items: Iterable[Item], repo: GitRepo | None = None
) -> ExposureReport:
    """The exposure of every holdout among `items` (the suite's items; public fixtures are read
    only to tell boilerplate from distinctive passages). Never raises for a git problem: what
    cannot be checked is a warning of the report (and `history_error` when a repository is
    there but cannot be read)."""
    all_items = list(items)
    holdout_items = holdouts_of(all_items)
    report = ExposureReport(
        [
            HoldoutExposure(i.id or i.folder.rsplit("/", 1)[-1], i.path, bool(i.canary))
            for i in holdout_items
        ]
    )
    if not holdout_items:
        return report
    owned = repo is None
    try:
        if repo is None:
            repo = open_repo(str(ws.root))
        _Computation(ws, repo, all_items, holdout_items, report).run()
    except GitUnavailable as exc:
        _untracked_everywhere(report, exc.message)
        report.warnings.append((exc.code, f"holdout exposure could not be checked: {exc.message}"))
    finally:
        if owned and repo is not None:
            repo.close()
    for holdout in report.holdouts:
        holdout.signals.sort(key=lambda s: (KIND_ORDER[s.kind], s.date or "", s.detail))
    return report


def _untracked_everywhere(report: ExposureReport, why: str) -> None:
    for holdout in report.holdouts:
        if holdout.tracked:
            holdout.signals.append(
                Signal(NOT_TRACKED, None, None, f"not in git ({why}); its exposure cannot be known")
            )


_SHALLOW_NOTE = " (the clone is shallow: the commit that wrote it is not known)"
_UNREAD_NOTE = " (the history could not be read: the commit that wrote it is not known)"


class _Computation:
    def __init__(
        self,
        ws: Workspace,
        repo: GitRepo,
        items: list[Item],
        holdout_items: list[Item],
        report: ExposureReport,
    ) -> None:
        self.ws = ws
        self.repo = repo
        self.items = items
        self.report = report
        if repo.work_tree is None:
            raise GitUnavailable(
                "git-bare-repository",
                f"{repo.path} is a bare repository; it has no work tree holding the fixtures",
            )
        # The work tree is the one the `.git` entry was found in: known without asking git, so
        # the work tree is still searched when git cannot read the repository.
        self.toplevel = os.path.realpath(repo.work_tree)
        prefix = posixpath.normpath(
            os.path.relpath(ws.root_real, self.toplevel).replace(os.sep, "/")
        )
        if prefix.startswith(".."):
            raise GitUnavailable(
                "git-no-repository",
                f"the workspace {ws.root} is outside the repository {self.toplevel}",
            )
        self.prefix = "" if prefix == "." else prefix + "/"
        self.holdouts = [
            _Holdout(item, posixpath.normpath(self.prefix + item.folder), exposure)
            for item, exposure in zip(holdout_items, report.holdouts, strict=True)
        ]
        self.by_folder = {h.folder: h for h in self.holdouts}
        fixtures = (
            posixpath.normpath(self.prefix + ws.fixtures_rel) if ws.fixtures_rel else self.prefix
        )
        self.fixtures_repo = "" if fixtures in (".", "") else fixtures.rstrip("/")
        holdout_cfg = ws.config.holdout
        self.custodians = Custodians(holdout_cfg.custodians)
        self.bundle = PathMatcher(holdout_cfg.bundle_paths)
        self.ignored = PathMatcher(holdout_cfg.ignore_paths)
        self.object_format = "sha1"
        self.boundary: set[str] = set()
        """The commits a shallow clone was cut at."""

    # workspace-relative path of a repository path (`../x` when outside the workspace)
    def ws_rel(self, repo_path: str) -> str:
        if not self.prefix:
            return repo_path
        if repo_path.startswith(self.prefix):
            return repo_path[len(self.prefix) :]
        return posixpath.relpath(repo_path, self.prefix.rstrip("/"))

    def holdout_of(self, repo_path: str) -> _Holdout | None:
        """The holdout whose folder holds `repo_path` (fixtures/<class>/<id>/...)."""
        fixtures = self.fixtures_repo
        if fixtures:
            if not repo_path.startswith(fixtures + "/"):
                return None
            rest = repo_path[len(fixtures) + 1 :]
            base = fixtures + "/"
        else:
            rest, base = repo_path, ""
        parts = rest.split("/", 2)
        if len(parts) < 3:
            return None
        return self.by_folder.get(f"{base}{parts[0]}/{parts[1]}")

    def _unreadable(self, why: str) -> None:
        """The repository is there but git cannot read it: say so once, go on with the work tree."""
        if self.report.history_error is None:
            self.report.history_error = why
            self.report.warnings.append(
                (
                    "exposure-history-unreadable",
                    f"the repository's history cannot be read ({why}), so exposure by commits "
                    "is unknown and only leaks in the work tree are reported; repair the "
                    "repository (`git fsck`, or a fresh clone)",
                )
            )

    def run(self) -> None:
        try:
            info = self.repo.info()
        except GitUnavailable as exc:
            self._unreadable(exc.message)
            info = None
        if info is not None:
            self.object_format = info.object_format
            if info.shallow:
                self.boundary = self.repo.shallow_commits()
                self.report.warnings.append(
                    (
                        "exposure-shallow",
                        "the repository is a shallow clone: history before its depth was not "
                        "read, and the commits it was cut at prove nothing (they seem to change "
                        "every file), so no foreign-author or co-change comes from them and no "
                        "leak is credited to them; fetch the full history (`git fetch "
                        "--unshallow`, or `fetch-depth: 0` in CI)",
                    )
                )
        # Passages are chosen, tracked files searched and leaking lines blamed while git log is
        # still writing the history. It writes to a file, not a pipe: a pipe would stall git
        # whenever this thread holds the GIL for a long string operation.
        handle, history_file = tempfile.mkstemp(prefix="voyage-history-", suffix=".log")
        os.close(handle)
        try:
            self._run_with_history(history_file)
        finally:
            os.unlink(history_file)

    def _start(self, args: list[str]) -> Running | None:
        if self.report.history_error is not None:
            return None
        try:
            return self.repo.start(args)
        except GitUnavailable as exc:
            self._unreadable(exc.message)
            return None

    def _run_with_history(self, history_file: str) -> None:
        log = self._start(
            [
                *_NEUTRAL,
                "log",
                "--ignore-missing",
                "--branches",
                "--tags",
                "--remotes",
                "HEAD",
                "--name-only",
                "--no-renames",
                "--no-ext-diff",
                "--no-textconv",
                "-z",
                f"--format={_LOG_FORMAT}",
                f"--output={history_file}",
            ]
        )
        self._patterns()
        # Every tracked file and its blob in the index: the index, not the work tree, so
        # nothing is stat'ed or filtered.
        listing = self._start(["ls-files", "-z", "-s"])
        listed = listing.wait() if listing is not None else None
        index: dict[str, str] | None = None
        if listed is not None and listed.ok:
            index = _index_entries(listed.out)
        elif listed is not None:
            self._unreadable(f"`git ls-files` failed: {listed.first_error()}")
        tracked = list(index) if index is not None else self._work_tree_files()
        hits = self._collect(self._scan(tracked))
        touches: dict[str, list[tuple[str, str, str]]] = {}
        if log is not None:
            result = log.wait()
            if result.ok:
                with open(history_file, "rb") as written:
                    result.out = written.read()
            touches = self._history(result, set(hits))
        if index is not None:
            self._tracked(set(index))
        changed = self._changed(hits, index)
        self._report_leaks(hits, self._attribute(hits, touches, changed))

    def _work_tree_files(self) -> list[str]:
        """Without an index, the files of the work tree (repository-relative), so leaks are
        still found; folders that never hold the project's own text are skipped."""
        found: list[str] = []
        for folder, dirs, files in os.walk(self.toplevel):
            dirs[:] = sorted(d for d in dirs if d not in NEVER_SEARCHED)
            rel = os.path.relpath(folder, self.toplevel).replace(os.sep, "/")
            base = "" if rel == "." else rel + "/"
            found.extend(base + name for name in sorted(files))
        return found

    def _changed(
        self,
        hits: dict[str, dict[int, list[tuple[str, _Holdout, str]]]],
        index: dict[str, str] | None,
    ) -> set[str]:
        """The files holding a leak whose work-tree bytes are not the blob in the index (hashed
        here, raw: a file git would convert on the way in counts as changed, which costs only a
        blame)."""
        if index is None:
            return set(hits)
        out: set[str] = set()
        for path in hits:
            data = read_scanned(os.path.join(self.toplevel, path))
            if data is None or blob_id(data, self.object_format) != index.get(path):
                out.add(path)
        return out

    # --- history -------------------------------------------------------------------------------

    def _history(self, log: Result, leaking: set[str]) -> dict[str, list[tuple[str, str, str]]]:
        """Signals from every commit; returns, for each file in `leaking`, the commits that
        changed it (sha, author, date), newest first."""
        last_change: dict[str, list[tuple[str, str, str]]] = {}
        if not log.ok:
            message = log.first_error()
            if "does not have any commits" in message or "bad default revision" in message:
                return last_change  # no commit yet: no history to expose anything
            self._unreadable(f"`git log` failed: {message}")
            return last_change
        custodians, bundle, holdout_of, ws_rel = (
            self.custodians,
            self.bundle,
            self.holdout_of,
            self.ws_rel,
        )
        fixtures = self.fixtures_repo + "/" if self.fixtures_repo else ""
        # What each path means is worked out once: histories change the same files over and over.
        meaning: dict[str, tuple[_Holdout | None, str | None]] = {}
        out = log.out.decode("utf-8", "surrogateescape")
        for record in out.split("\x1e"):
            if not record:
                continue
            header, _, names = record.partition("\x00")
            fields = header.split("\x1f")
            if len(fields) < 4:
                continue
            touched: dict[str, _Holdout] = {}
            bundle_files: list[str] = []
            paths = names.split("\x00")
            for path in paths:
                if path.startswith("\n"):
                    path = path[1:]
                if not path:
                    continue
                known = meaning.get(path)
                if known is None:
                    holdout = holdout_of(path) if path.startswith(fixtures) else None
                    in_bundle = None
                    if holdout is None and bundle and bundle(ws_rel(path)):
                        in_bundle = ws_rel(path)
                    known = meaning[path] = (holdout, in_bundle)
                if known[0] is not None:
                    touched[known[0].folder] = known[0]
                elif known[1] is not None:
                    bundle_files.append(known[1])
                if path in leaking:
                    last_change.setdefault(path, []).append(
                        (fields[0], f"{fields[1]} <{fields[2]}>", fields[3].strip())
                    )
            if touched:
                if fields[0].lower() in self.boundary:
                    # A shallow clone's cut: it seems to add every file it holds.
                    for holdout in touched.values():
                        holdout.in_history = True
                else:
                    self._commit_signals(fields, touched, bundle_files, custodians)
        return last_change

    def _commit_signals(
        self,
        fields: list[str],
        touched: dict[str, _Holdout],
        bundle_files: list[str],
        custodians: Custodians,
    ) -> None:
        sha, name, email, date = fields[0], fields[1], fields[2], fields[3].strip()
        author = f"{name} <{email}>"
        foreign = bool(custodians) and (name, email) not in custodians
        for holdout in touched.values():
            holdout.in_history = True
            signals = holdout.report.signals
            if foreign:
                signals.append(
                    Signal(
                        FOREIGN_AUTHOR,
                        sha,
                        author,
                        f"{author} changed {holdout.item.folder} on {date} and is not a custodian",
                        date,
                    )
                )
            if bundle_files:
                more = f" (+{len(bundle_files) - 1} more)" if len(bundle_files) > 1 else ""
                signals.append(
                    Signal(
                        CO_CHANGE,
                        sha,
                        author,
                        f"changed {holdout.item.folder} together with bundle file "
                        f"{bundle_files[0]}{more} on {date}",
                        date,
                    )
                )

    def _tracked(self, tracked: set[str]) -> None:
        for holdout in self.holdouts:
            if self.prefix + holdout.item.path in tracked or holdout.in_history:
                continue
            holdout.report.signals.append(
                Signal(
                    NOT_TRACKED,
                    None,
                    None,
                    f"{holdout.item.path} is not tracked by git (new, untracked or ignored); "
                    "its exposure cannot be known",
                )
            )

    # --- content and canary leaks ----------------------------------------------------------------

    def _patterns(self) -> None:
        self.content: dict[str, list[_Holdout]] = {}
        self.canaries: dict[str, list[_Holdout]] = {}
        by_key = {h.item.path: h for h in self.holdouts}
        passages = distinctive_passages(
            {h.item.path: (h.item.prompt, h.item.ground_truth) for h in self.holdouts},
            (
                (i.prompt, i.ground_truth)
                for i in self.items
                if i.is_fixture and i.path not in by_key
            ),
        )
        for key, found in passages.items():
            for passage in found:
                self.content.setdefault(passage, []).append(by_key[key])
        for holdout in self.holdouts:
            canary = holdout.item.canary
            if canary and len(canary) >= MIN_CANARY_CHARS:
                self.canaries.setdefault(canary, []).append(holdout)

    def _scan(self, tracked: list[str]) -> list[Hit]:
        """Canaries in every tracked file; passages in tracked files outside the fixtures folder
        that ignore_paths do not skip."""
        fixtures_prefix = self.fixtures_repo + "/" if self.fixtures_repo else ""

        def passages_wanted(path: str) -> bool:
            if not fixtures_prefix or path.startswith(fixtures_prefix):
                return False  # with no fixtures subfolder, nothing is outside it
            return not self.ignored(self.ws_rel(path))

        def expected(path: str) -> str | None:
            holdout = self.holdout_of(path) if path.startswith(fixtures_prefix) else None
            canary = holdout.item.canary if holdout is not None else None
            # A canary two holdouts share is searched everywhere: each copy leaks the other.
            return canary if canary and len(self.canaries.get(canary, ())) == 1 else None

        scanner = LeakScanner(self.content, self.canaries)
        return scanner.scan(self.toplevel, tracked, passages_wanted, expected)

    def _collect(self, found: list[Hit]) -> dict[str, dict[int, list[tuple[str, _Holdout, str]]]]:
        """path -> line -> [(kind, holdout, text)], without a canary in its own folder."""
        hits: dict[str, dict[int, list[tuple[str, _Holdout, str]]]] = {}
        for hit in found:
            kind = CANARY_LEAK if hit.kind == CANARY else CONTENT_LEAK
            owners = self.canaries if kind == CANARY_LEAK else self.content
            for holdout in owners.get(hit.text, ()):
                if kind == CANARY_LEAK and hit.path.startswith(holdout.folder + "/"):
                    continue  # its own folder
                entries = hits.setdefault(hit.path, {}).setdefault(hit.line, [])
                if not any(e[0] == kind and e[1] is holdout for e in entries):
                    entries.append((kind, holdout, hit.text))
        return hits

    def _attribute(
        self,
        hits: dict[str, dict[int, list[tuple[str, _Holdout, str]]]],
        touches: dict[str, list[tuple[str, str, str]]],
        changed: set[str],
    ) -> dict[tuple[str, int], tuple[str | None, str, str | None, str]]:
        """(path, line) -> (commit, author, date, note) of each leaking line:
        - a file committed once and unchanged since: that commit wrote every line of it;
        - otherwise `git blame` of the lines, for at most MAX_BLAMED_FILES files, side by side;
        - beyond that, the latest commit that changed the file, said to be only that.
        A shallow clone's cut commit is credited with nothing; without a history, nothing is."""
        out: dict[tuple[str, int], tuple[str | None, str, str | None, str]] = {}
        if self.report.history_error is not None:
            for path in hits:
                out.update({(path, line): (None, "", None, _UNREAD_NOTE) for line in hits[path]})
            return out
        boundary = self.boundary

        def credit(
            path: str, lines: Iterable[int], sha: str, author: str, date: str | None, note: str
        ) -> None:
            if sha.lower() in boundary:
                out.update({(path, line): (None, "", None, _SHALLOW_NOTE) for line in lines})
            else:
                out.update({(path, line): (sha, author, date, note) for line in lines})

        to_blame: list[str] = []
        for path in sorted(hits):
            commits = touches.get(path, [])
            if len(commits) == 1 and path not in changed:
                credit(path, hits[path], *commits[0], "")
            elif len(to_blame) < MAX_BLAMED_FILES:
                to_blame.append(path)
            elif commits:
                note = " (the file's latest commit; not traced to the line)"
                credit(path, hits[path], *commits[0], note)
        started = []
        for path in to_blame:
            # The work-tree file against history: no textconv; filters are emptied for every
            # command (repo.py).
            args = ["blame", "--porcelain", "--no-textconv"]
            for line in sorted(hits[path]):
                args += ["-L", f"{line},{line}"]
            running = self._start([*args, "--", path])
            if running is not None:
                started.append((path, running))
        for path, running in started:
            result = running.wait()
            if not result.ok:
                continue
            for line, (sha, author, date) in _parse_blame(result.out).items():
                if sha is None:
                    out[(path, line)] = (None, "", None, " (not committed yet)")
                else:
                    credit(path, (line,), sha, author, date, "")
        return out

    def _report_leaks(
        self,
        hits: dict[str, dict[int, list[tuple[str, _Holdout, str]]]],
        attributed: dict[tuple[str, int], tuple[str | None, str, str | None, str]],
    ) -> None:
        for path in sorted(hits):
            for line, entries in sorted(hits[path].items()):
                where = f"{self.ws_rel(path)}:{line}"
                commit, author, date, note = attributed.get((path, line), (None, "", None, ""))
                for kind, holdout, text in entries:
                    if kind == CANARY_LEAK:
                        detail = f"its canary {text} appears in {where}{note}"
                    else:
                        detail = f"the passage \u201c{_clip(text)}\u201d appears in {where}{note}"
                    holdout.report.signals.append(
                        Signal(kind, commit, author or None, detail, date)
                    )


def _index_entries(listing: bytes) -> dict[str, str]:
    """path -> blob id from `git ls-files -z -s` (`<mode> <blob> <stage>\t<path>`); of a path in
    conflict, the first stage listed."""
    entries: dict[str, str] = {}
    for record in listing.split(b"\0"):
        meta, tab, raw_path = record.partition(b"\t")
        if not tab or not raw_path:
            continue
        fields = meta.split(b" ")
        blob = fields[1].decode("ascii", "replace") if len(fields) > 1 else ""
        entries.setdefault(raw_path.decode("utf-8", "surrogateescape"), blob)
    return entries


def _clip(text: str, limit: int = 60) -> str:
    return text if len(text) <= limit else text[: limit - 1].rstrip() + "\u2026"


MAX_STAMP_DIGITS = 12
"""A commit time read from git is converted only up to this many digits (year 33,658 and
beyond is no date anyone committed on)."""


def _parse_blame(out: bytes) -> dict[int, tuple[str | None, str, str | None]]:
    """Final line number -> (commit, author, date) from `git blame --porcelain`."""
    import datetime

    result: dict[int, tuple[str | None, str, str | None]] = {}
    authors: dict[str, tuple[str, str | None]] = {}
    current: str | None = None
    line_no = 0
    name = mail = ""
    when: str | None = None
    for raw in out.decode("utf-8", "replace").split("\n"):
        if raw.startswith("\t"):
            if current is not None:
                if current not in authors:
                    authors[current] = (f"{name} {mail}".strip(), when)
                author, date = authors[current]
                if set(current) == {"0"}:
                    result[line_no] = (None, "", None)
                else:
                    result[line_no] = (current, author, date)
            current = None
            continue
        parts = raw.split(" ")
        if current is None and len(parts) >= 3 and len(parts[0]) in (40, 64):
            current, line_no = parts[0], int(parts[2])
            name, mail, when = "", "", None
            continue
        if raw.startswith("author "):
            name = raw[7:]
        elif raw.startswith("author-mail "):
            mail = raw[12:]
        elif raw.startswith("author-time "):
            # A commit's date is the committer's to choose: git keeps @4611686018427387904,
            # which datetime refuses with OSError (past time_t) or ValueError (past 9999).
            stamp = raw[12:].strip()
            try:
                when = (
                    datetime.datetime.fromtimestamp(int(stamp), datetime.UTC).date().isoformat()
                    if len(stamp) <= MAX_STAMP_DIGITS
                    else None
                )
            except (ValueError, OverflowError, OSError):
                when = None
    return result
