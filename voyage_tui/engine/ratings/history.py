"""Which agent runs the workspace's git history once held: a rating of a run that is gone now is
a warning (`rating-deleted-run`), of one that never existed an error (`rating-unknown-run`).

Asked only when a rating names a run the suite lacks, in one `git log` over every ref limited to
the runs folders. Without git (`--no-git`, no repository, a failing git) the answer is None:
nothing is known to be deleted.
"""

from __future__ import annotations

import os

from voyage_tui.engine.ratings.runs import RunKey
from voyage_tui.engine.workspace.model import Workspace

_NEUTRAL = ("-c", "log.follow=false", "-c", "log.showSignature=false", "-c", "diff.relative=false")
"""User settings that would change the listing parsed here are switched off."""


def deleted_run_pairs(ws: Workspace) -> set[RunKey] | None:
    """(fixture folder name, run file stem) of every agent run file any commit reachable from a
    branch, tag, remote or HEAD touched; None when git cannot be asked. A shallow clone knows
    only the history it holds."""
    from voyage_tui.engine.git.repo import GitUnavailable, open_repo

    try:
        with open_repo(str(ws.root)) as repo:
            info = repo.info()
            if info.toplevel is None:
                return None
            inside = os.path.relpath(ws.root_real, info.toplevel).replace(os.sep, "/")
            if inside == ".." or inside.startswith("../"):
                return None
            fixtures = "/".join(p for p in (inside, ws.fixtures_rel) if p and p != ".")
            base = f"{fixtures}/" if fixtures else ""
            result = repo.run(
                [
                    *_NEUTRAL,
                    "log",
                    "--ignore-missing",
                    "--branches",
                    "--tags",
                    "--remotes",
                    "HEAD",
                    "--format=",
                    "--name-only",
                    "--no-renames",
                    "-z",
                    "--",
                    f":(top,glob){base}*/*/runs/*.yaml",
                    f":(top,glob){base}*/*/runs/*.yml",
                ]
            )
    except GitUnavailable:
        return None
    if not result.ok:
        return None
    pairs: set[RunKey] = set()
    for name in result.out.decode("utf-8", "surrogateescape").split("\x00"):
        name = name.strip("\n")
        if not name.startswith(base):
            continue
        parts = name[len(base) :].split("/")
        if len(parts) == 4 and parts[2] == "runs":
            pairs.add((parts[1], os.path.splitext(parts[3])[0]))
    return pairs
