"""The campaign around a report (issue 35 item 4): when the latest rating was made, the suite's
commit if it is a git work tree, the agents, the raters, how many items are rated and how many
are left, and the raters' agreement per dimension with its Krippendorff's alpha. Computed from
the campaign snapshot the report's figures come from (people's ratings, as every figure counts
them); the commit is read from the repository's regular files, bounded, without running git."""

from __future__ import annotations

import os
import re
from dataclasses import dataclass
from typing import Any

from voyage_tui.engine.campaign.snapshot import Campaign
from voyage_tui.engine.wording import plural

MAX_REF_BYTES = 4096
MAX_PACKED_REFS_BYTES = 1 << 20
_SHA = re.compile(r"^[0-9a-f]{40}(?:[0-9a-f]{24})?$")


@dataclass(frozen=True, slots=True)
class ReportContext:
    latest_rating: str | None
    """The date (YYYY-MM-DD) of the latest rating in force."""
    commit: str | None
    agents: tuple[str, ...]
    raters: tuple[str, ...]
    items: int
    rated: int
    """Items with at least one rating in force."""
    complete: int
    """Items with as many raters as the campaign's overlap asks."""
    overlap: int
    agreement: tuple[tuple[str, float | None, str | None], ...]
    """(dimension, alpha or None, why None), in the rubric's order."""

    def to_json(self) -> dict[str, Any]:
        return {
            "latest_rating": self.latest_rating,
            "commit": self.commit,
            "agents": list(self.agents),
            "raters": list(self.raters),
            "items": {
                "total": self.items,
                "rated": self.rated,
                "complete": self.complete,
                "left": self.items - self.complete,
            },
            "overlap": self.overlap,
            "agreement": {
                name: {"alpha": alpha, "reason": why} for name, alpha, why in self.agreement
            },
        }

    def items_list(self) -> list[tuple[str, str]]:
        out: list[tuple[str, str]] = []
        if self.latest_rating:
            out.append(("ratings as of", self.latest_rating))
        if self.commit:
            out.append(("suite commit", self.commit[:12]))
        out.append(("agents", ", ".join(self.agents) or "none"))
        out.append(("raters", ", ".join(self.raters) or "none"))
        left = self.items - self.complete
        out.append(
            (
                "items",
                f"{self.rated} of {plural(self.items, 'agent run')} rated; {self.complete} "
                f"rated by {plural(self.overlap, 'rater')} (the overlap asked), {left} left",
            )
        )
        if self.agreement:
            parts = [
                f"{name} {alpha:.2f}" if alpha is not None else f"{name} — ({why or 'no alpha'})"
                for name, alpha, why in self.agreement
            ]
            out.append(("agreement (Krippendorff's alpha)", "; ".join(parts)))
        return out


def report_context(campaign: Campaign, agents: list[str]) -> ReportContext:
    """The context of a report computed from `campaign` (which knows the suite's runs)."""
    from voyage_tui.engine.campaign import figures

    status = figures.status(campaign)
    agreement = figures.agreement(campaign, disputed=0)
    in_force = list(campaign.in_force().values())
    runs = {run.run_key for run in campaign.runs.runs} if campaign.runs is not None else set()
    dates = [r.rated_at for r in in_force if r.rated_at]
    rated_items = {(r.fixture_id, r.run_id) for r in in_force} & runs
    return ReportContext(
        latest_rating=str(max(dates))[:10] if dates else None,
        commit=head_commit(str(campaign.ws.root_real)),
        agents=tuple(agents),
        raters=tuple(agreement.raters or sorted(status.raters)),
        items=status.total,
        rated=len(rated_items),
        complete=status.complete,
        overlap=status.overlap,
        agreement=tuple((name, d.alpha, d.reason) for name, d in agreement.dimensions.items()),
    )


def _read_small(path: str, limit: int) -> str | None:
    """A regular file of at most `limit` bytes, else None, read by the engine's bounded reader:
    a FIFO or a device planted as `.git/HEAD` is never opened (it could block a report for
    ever), a symlink out of the file's folder is not followed."""
    from voyage_tui.engine.loading.safe_read import read_bytes

    folder = os.path.dirname(path)
    data = read_bytes(
        path, os.path.basename(path), root_real=os.path.realpath(folder), max_bytes=limit
    )
    return data.decode("ascii", "replace") if isinstance(data, bytes) else None


def head_commit(root: str) -> str | None:
    """The commit HEAD names in the repository at or above `root`, read from its files (HEAD,
    the loose ref, packed-refs; a linked worktree's common dir), bounded; None when there is
    no repository or it cannot be read. No git process: a report runs nothing."""
    from voyage_tui.engine.git.repo import find_repository

    location = find_repository(root)
    if location is None:
        return None
    git_dir = location.git_dir
    head = _read_small(os.path.join(git_dir, "HEAD"), MAX_REF_BYTES)
    if head is None:
        return None
    head = head.strip()
    if _SHA.match(head):
        return head
    if not head.startswith("ref: refs/"):
        return None
    ref = head[len("ref: ") :].strip()
    if ".." in ref.split("/"):
        return None
    common = _read_small(os.path.join(git_dir, "commondir"), MAX_REF_BYTES)
    dirs = [git_dir]
    if common is not None:
        dirs.append(os.path.normpath(os.path.join(git_dir, common.strip())))
    for folder in dirs:
        loose = _read_small(os.path.join(folder, *ref.split("/")), MAX_REF_BYTES)
        if loose is not None and _SHA.match(loose.strip()):
            return loose.strip()
    for folder in dirs:
        packed = _read_small(os.path.join(folder, "packed-refs"), MAX_PACKED_REFS_BYTES)
        for line in (packed or "").splitlines():
            sha, _, name = line.partition(" ")
            if name.strip() == ref and _SHA.match(sha):
                return sha
    return None
