"""The git checks as `validate` runs them: diagnostics for `final_head_sha` and holdout exposure.

The Suite holds one GitChecks. `run_all` (after a full validation) checks every SHA in one batch
and computes exposure from one pass over history; `refresh` (after an incremental re-validation)
re-attaches the known results to the items that were re-checked and asks git only about SHAs it
has not seen yet, in one batch. Exposure is not recomputed on a file change: history does not
move when a file is saved, and a full history pass per keystroke is what this design avoids. A
fixture that becomes a holdout between two full validations is checked at the next one (the app
or `voyage-tui exposure` can ask for a fresh report at any time with `refresh_exposure`).

The results are published as data, a GitResults: each item's git diagnostics by path, the
holdouts found exposed, and what belongs to no item (no repository, a shallow clone). Items are
never touched: the suite's counts and the app's view combine the items with the latest results,
so a view already shown keeps the results it was made with.
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from voyage_tui.engine import diagnostics as dg
from voyage_tui.engine.diagnostics import Diagnostic
from voyage_tui.engine.items import Item
from voyage_tui.engine.kinds import FileKind
from voyage_tui.engine.wording import plural
from voyage_tui.engine.workspace.config_file import CONFIG_NAME
from voyage_tui.engine.workspace.model import Workspace

if TYPE_CHECKING:
    from voyage_tui.engine.git.exposure import ExposureReport, HoldoutExposure
    from voyage_tui.engine.git.repo import GitUnavailable
    from voyage_tui.engine.git.sha_check import ShaOutcome

# History, the repository and YAML are imported where a check runs: `validate --no-git` makes a
# GitChecks and never asks it anything, and must not pay for them at start-up (issue 23).

GIT_CODES = frozenset(
    {
        "sha-not-found",
        "sha-not-commit",
        "sha-unreachable",
        "sha-shallow-missing",
        "sha-not-fetched",
        "sha-unreadable",
        "sha-unchecked",
        "sha-wrong-algorithm",
        "holdout-exposed",
        "holdout-not-tracked",
    }
)
"""Codes of the diagnostics this module reports about items."""


@dataclass(frozen=True, slots=True)
class GitResults:
    """What the git checks found at one moment. Never changed: a new check makes a new one."""

    by_path: Mapping[str, tuple[Diagnostic, ...]] = field(default_factory=dict)
    """Each item's git diagnostics (only items that have some)."""
    exposed: frozenset[str] = frozenset()
    """The paths of the holdouts found exposed."""
    workspace: tuple[Diagnostic, ...] = ()
    """What belongs to no item: no repository, a shallow clone, history that could not be read."""

    def for_path(self, path: str) -> tuple[Diagnostic, ...]:
        return self.by_path.get(path, ())


def sha_repo_path(ws: Workspace) -> str:
    """`[git] repo`, resolved against the workspace root."""
    return os.path.normpath(os.path.join(str(ws.root), os.path.expanduser(ws.config.git.repo)))


def _repo_label(ws: Workspace) -> str:
    if ws.config.explicitly_set("git", "repo"):
        return f"the repository `{ws.config.git.repo}` ([git] repo)"
    return "the workspace's repository"


def _workspace_path(ws: Workspace) -> str:
    return (
        CONFIG_NAME
        if os.path.isfile(os.path.join(ws.root, CONFIG_NAME))
        else (ws.fixtures_rel or ".")
    )


class GitChecks:
    def __init__(self) -> None:
        self.shas: dict[str, ShaOutcome] = {}
        self.exposure: ExposureReport | None = None
        self._sha_problem: GitUnavailable | None = None
        self._reach_problem: str | None = None
        self._missing_branches: list[str] = []
        self._branches_found = True
        self._exposure_warnings: list[Diagnostic] = []
        self._exposure_by_path: dict[str, HoldoutExposure] = {}
        self.results = GitResults()
        """The last results published (what `refresh` starts from)."""

    # --- entry points ------------------------------------------------------------------------------

    def run_all(self, ws: Workspace, items: Mapping[str, Item]) -> GitResults:
        self.shas = {}
        self._sha_problem = None
        self._reach_problem = None
        self._missing_branches = []
        self._branches_found = True
        self._check_shas(ws, items.values())
        self.refresh_exposure(ws, items)
        return self.results_for(ws, items)

    def refresh(
        self, ws: Workspace, items: Mapping[str, Item], touched: Iterable[str]
    ) -> GitResults:
        """The results after a re-validation: the items at `touched` checked again (git is asked
        only about SHAs it has not seen), every other item's results kept."""
        from voyage_tui.engine.git.sha_check import is_full_sha

        touched = set(touched)
        fresh = [items[p] for p in touched if p in items]
        new = [i for i in fresh if i.kind is FileKind.TRAJECTORY and is_full_sha(i.final_head_sha)]
        if any(i.final_head_sha not in self.shas for i in new) and self._sha_problem is None:
            self._check_shas(ws, new)
        by_path = {
            p: ds for p, ds in self.results.by_path.items() if p in items and p not in touched
        }
        exposed = {p for p in self.results.exposed if p in items and p not in touched}
        for item in fresh:
            self._collect(ws, item, by_path, exposed)
        self.results = GitResults(
            by_path, frozenset(exposed), tuple(self.workspace_diagnostics(ws, items))
        )
        return self.results

    def check_one(self, ws: Workspace, item: Item) -> GitResults:
        """One document on its own (the wizard's): its SHA checked if not seen yet, no exposure.
        The results of the whole suite, if any, are left as they were."""
        from voyage_tui.engine.git.sha_check import is_full_sha

        sha = item.final_head_sha
        unseen = item.kind is FileKind.TRAJECTORY and is_full_sha(sha) and sha not in self.shas
        if unseen and self._sha_problem is None:
            self._check_shas(ws, [item])
        found = tuple(self._sha_diagnostics(ws, item))
        return GitResults(
            {item.path: found} if found else {},
            frozenset(),
            tuple(self.workspace_diagnostics(ws, {item.path: item})),
        )

    def recompute_exposure(self, ws: Workspace, items: Mapping[str, Item]) -> GitResults:
        """For the app, off the UI thread: a fresh exposure report (one pass over history, as on
        a full validation) and the results it gives (`Suite.recompute_exposure` keeps them)."""
        self.refresh_exposure(ws, items)
        return self.results_for(ws, items)

    def refresh_exposure(self, ws: Workspace, items: Mapping[str, Item]) -> ExposureReport:
        """A fresh exposure report, not yet in the results (`results_for` puts it there)."""
        from voyage_tui.engine.git.exposure import compute_exposure

        self.exposure = compute_exposure(ws, items.values())
        self._exposure_by_path = self.exposure.by_path()
        self._exposure_warnings = [
            dg.warning(_workspace_path(ws), None, code, message)
            for code, message in self.exposure.warnings
            if code != "git-no-repository"  # every holdout says so as `holdout-not-tracked`
        ]
        return self.exposure

    def results_for(self, ws: Workspace, items: Mapping[str, Item]) -> GitResults:
        """The results for every item from what is known now (SHAs checked, the last exposure
        report); kept as `results` for the next `refresh`."""
        by_path: dict[str, tuple[Diagnostic, ...]] = {}
        exposed: set[str] = set()
        for item in items.values():
            self._collect(ws, item, by_path, exposed)
        self.results = GitResults(
            by_path, frozenset(exposed), tuple(self.workspace_diagnostics(ws, items))
        )
        return self.results

    def _collect(
        self,
        ws: Workspace,
        item: Item,
        by_path: dict[str, tuple[Diagnostic, ...]],
        exposed: set[str],
    ) -> None:
        found = self._sha_diagnostics(ws, item) + self._exposure_diagnostics(ws, item)
        if found:
            by_path[item.path] = tuple(found)
        if self._is_exposed(item):
            exposed.add(item.path)

    # --- final_head_sha ----------------------------------------------------------------------------

    def _check_shas(self, ws: Workspace, items: Iterable[Item]) -> None:
        from voyage_tui.engine.git.repo import GitUnavailable, open_repo
        from voyage_tui.engine.git.sha_check import check_shas, is_full_sha, resolve_branches

        shas = [
            i.final_head_sha
            for i in items
            if i.kind is FileKind.TRAJECTORY
            and is_full_sha(i.final_head_sha)
            and i.final_head_sha not in self.shas
        ]
        if not shas:
            return
        try:
            # `[git] repo`, set by hand, may name a bare repository; one inside the workspace
            # (a committed folder) is refused, and "." alone never opens one.
            explicit = ws.config.explicitly_set("git", "repo")
            with open_repo(sha_repo_path(ws), bare_ok=explicit, workspace=ws.root_real) as repo:
                reach_from = None  # unset: any branch, tag, remote-tracking branch or HEAD
                problem = None
                if ws.config.git.branches:
                    branches = resolve_branches(repo, ws.config.git.branches)
                    self._missing_branches = branches.missing
                    self._branches_found = bool(branches.refs)
                    problem = branches.problem
                    reach_from = branches.refs
                outcomes, reach_problem = check_shas(repo, shas, reach_from)
        except GitUnavailable as exc:
            self._sha_problem = exc
            return
        self.shas.update(outcomes)
        if problem or reach_problem:
            self._reach_problem = problem or reach_problem

    def _sha_diagnostics(self, ws: Workspace, item: Item) -> list[Diagnostic]:
        sha = item.final_head_sha
        if item.kind is not FileKind.TRAJECTORY or not self.shas:
            return []  # nothing checked, nothing to say (and nothing of git imported)
        from voyage_tui.engine.git.sha_check import (
            MISSING,
            NOT_FETCHED,
            SHALLOW_MISSING,
            UNCHECKED,
            UNREADABLE,
            WRONG_LENGTH,
            is_full_sha,
        )

        if not is_full_sha(sha):
            return []
        assert sha is not None
        outcome = self.shas.get(sha)
        if outcome is None:
            return []  # the repository could not be read: one workspace-level warning says so
        rel, pos, repo = item.path, item.sha_position, _repo_label(ws)
        kind = outcome.kind
        if kind == MISSING:
            return [
                dg.error(
                    rel,
                    pos,
                    "sha-not-found",
                    f"final_head_sha {sha} names no object in {repo}; check the SHA "
                    "(`git rev-parse <branch>`), or fetch the commit if it lives elsewhere",
                )
            ]
        if kind == SHALLOW_MISSING:
            return [
                dg.warning(
                    rel,
                    pos,
                    "sha-shallow-missing",
                    f"final_head_sha {sha} is not in {repo}, which is a shallow clone, so it could "
                    "not be checked; fetch the full history (`git fetch --unshallow`)",
                )
            ]
        if kind == NOT_FETCHED:
            return [
                dg.warning(
                    rel,
                    pos,
                    "sha-not-fetched",
                    f"final_head_sha {sha} is not in {repo}, which is a partial clone, and "
                    "voyage-tui fetches nothing, so it could not be checked; fetch it "
                    f"(`git fetch origin {sha}`) or check the SHA",
                )
            ]
        if kind == UNREADABLE:
            return [
                dg.warning(
                    rel,
                    pos,
                    "sha-unreadable",
                    f"final_head_sha {sha} could not be checked: the object is corrupt in {repo} "
                    f"({outcome.note}); run `git fsck`",
                )
            ]
        if kind == UNCHECKED:
            return [
                dg.warning(
                    rel,
                    pos,
                    "sha-unchecked",
                    f"final_head_sha {sha} could not be checked: {outcome.note}",
                )
            ]
        if kind == WRONG_LENGTH:
            digits = 64 if outcome.note == "sha256" else 40
            return [
                dg.error(
                    rel,
                    pos,
                    "sha-wrong-algorithm",
                    f"{repo} uses {outcome.note.upper().replace('SHA', 'SHA-')} object names "
                    f"({digits} hex digits); a {len(sha)}-digit final_head_sha cannot name a commit in it",
                )
            ]
        if kind != "commit":
            how = " (`git rev-parse <tag>^{commit}` gives the commit)" if kind == "tag" else ""
            return [
                dg.error(
                    rel,
                    pos,
                    "sha-not-commit",
                    f"final_head_sha {sha} names a {kind} in {repo}, not a commit; use the SHA of "
                    f"the commit the verdict binds to{how}",
                )
            ]
        if outcome.reachable is False:
            branches = ws.config.git.branches
            if branches:
                named = ", ".join(f"`{b}`" for b in branches)
                return [
                    dg.warning(
                        rel,
                        pos,
                        "sha-unreachable",
                        f"commit {sha} is not reachable from [git] branches ({named}) of {repo}; "
                        "merge it into one of them, or list the branch that holds it",
                    )
                ]
            return [
                dg.warning(
                    rel,
                    pos,
                    "sha-unreachable",
                    f"commit {sha} is not reachable from any branch or tag of {repo}, so the next "
                    "`git gc` may delete it; push a branch or tag that holds it",
                )
            ]
        return []

    # --- exposure ----------------------------------------------------------------------------------

    def _exposure_of(self, item: Item) -> HoldoutExposure | None:
        if self.exposure is None or not item.is_fixture or item.visibility != "holdout":
            return None
        return self._exposure_by_path.get(item.path)

    def _is_exposed(self, item: Item) -> bool:
        found = self._exposure_of(item)
        return found is not None and found.exposed

    def _exposure_diagnostics(self, ws: Workspace, item: Item) -> list[Diagnostic]:
        found = self._exposure_of(item)
        if found is None:
            return []
        out: list[Diagnostic] = []
        if found.exposed:
            out.append(
                dg.error(
                    item.path,
                    _visibility_position(ws, item),
                    "holdout-exposed",
                    f"holdout `{found.id}` is exposed: {summarize(found)}; a contributor has seen "
                    f"it, so it is no longer an honest holdout: retire it "
                    f"(`voyage-tui exposure --retire {found.id}`) and write a fresh one",
                )
            )
        if not found.tracked:
            note = next(s.detail for s in found.signals if s.kind == "not-tracked")
            out.append(dg.info(item.path, None, "holdout-not-tracked", note))
        return out

    # --- what belongs to no item ------------------------------------------------------------------

    def workspace_diagnostics(self, ws: Workspace, items: Mapping[str, Item]) -> list[Diagnostic]:
        out: list[Diagnostic] = []
        if self._sha_problem is not None:
            from voyage_tui.engine.git.sha_check import is_full_sha

            unchecked = sum(
                1
                for i in items.values()
                if i.kind is FileKind.TRAJECTORY and is_full_sha(i.final_head_sha)
            )
            if unchecked:
                exc = self._sha_problem
                out.append(
                    dg.warning(
                        _workspace_path(ws),
                        None,
                        exc.code,
                        f"final_head_sha could not be checked against {_repo_label(ws)}: "
                        f"{exc.message}; {plural(unchecked, 'trajectory SHA')} unchecked. Run in a clone, "
                        "set [git] repo in voyage.toml, or pass --no-git",
                    )
                )
        out.extend(self._branch_warnings(ws))
        if self._reach_problem is not None:
            out.append(
                dg.warning(
                    _workspace_path(ws),
                    None,
                    "sha-reachability-unchecked",
                    f"whether the final_head_sha commits are reachable from a branch or tag could "
                    f"not be checked: {self._reach_problem}",
                )
            )
        out.extend(self._exposure_warnings)
        return out

    def _branch_warnings(self, ws: Workspace) -> list[Diagnostic]:
        if not self._missing_branches:
            return []
        from voyage_tui.engine.workspace.config import key_position

        text = ws.read_text(CONFIG_NAME)
        pos = key_position(text, "git", "branches") if isinstance(text, str) else None
        outcome = (
            "the others are used"
            if self._branches_found
            else "no branch it names exists, so whether the final_head_sha commits are "
            "reachable was not checked"
        )
        return [
            dg.warning(
                CONFIG_NAME,
                pos,
                "git-branch-missing",
                f"[git] branches names `{name}`, which is neither a branch nor a remote-tracking "
                f"branch in {_repo_label(ws)}; {outcome}. Fix the name, or fetch or create the "
                "branch",
            )
            for name in self._missing_branches
        ]


def summarize(found: HoldoutExposure) -> str:
    """`co-change (2 commits, latest 1a2b3c4d by Ana <a@x>), content-leak (agent/p.md:3)`."""
    from voyage_tui.engine.git.exposure import (
        CANARY_LEAK,
        CO_CHANGE,
        CONTENT_LEAK,
        FOREIGN_AUTHOR,
    )

    parts = []
    for kind in (FOREIGN_AUTHOR, CO_CHANGE, CONTENT_LEAK, CANARY_LEAK):
        signals = [s for s in found.signals if s.kind == kind]
        if not signals:
            continue
        if kind in (FOREIGN_AUTHOR, CO_CHANGE):
            latest = signals[-1]
            count = plural(len(signals), "commit")
            parts.append(
                f"{kind} ({count}, latest {(latest.commit or '')[:10]} by {latest.author})"
            )
        else:
            places = [s.detail.rsplit(" appears in ", 1)[-1] for s in signals]
            more = f" +{len(places) - 2} more" if len(places) > 2 else ""
            parts.append(f"{kind} ({', '.join(places[:2])}{more})")
    return ", ".join(parts)


def _visibility_position(ws: Workspace, item: Item) -> tuple[int, int] | None:
    """The `visibility` value's line and column from the YAML marks; read again from the file,
    which is done only for the few holdouts found exposed."""
    from voyage_tui.engine.loading.yaml_doc import load_yaml

    text = ws.read_text(item.path)
    if not isinstance(text, str):
        return None
    doc = load_yaml(text, item.path)
    return doc.positions.value(("visibility",)) if doc.ok else None
