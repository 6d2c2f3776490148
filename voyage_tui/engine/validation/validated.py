"""One way to get a validated suite (issue 34): with the validation cache, the references read
once, and the cache written again for the next run.

`voyage-tui validate` answers an unchanged suite from its listing without making a Suite
(result_cache.py); anything else needs the Suite itself: `validate` when the replay misses, and
every command that reads the items (exposure, results, triage, `ratings status`, `ratings
export`, the authoring session of `new`). They all come here, so a command after `validate` (or
after another command) checks only what changed, and `validate` after a command replays what it
left. The app's start is the one other load (cli/common.py: `Suite.prepare_early`, the cache
too), because it lists the files while Textual is imported.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from typing import Any

from voyage_tui.engine.bulk import gc_paused
from voyage_tui.engine.kinds import AFTER_RUNS_KINDS
from voyage_tui.engine.loading.once import ReadOnce
from voyage_tui.engine.loading.stamps import Stamp
from voyage_tui.engine.validation.cache import ItemCache
from voyage_tui.engine.validation.suite import Suite
from voyage_tui.engine.workspace.layout import Layout
from voyage_tui.engine.workspace.model import Workspace


def validated_suite(
    where: Workspace | str | os.PathLike[str] | None,
    *,
    use_git: bool,
    git_checks: bool = True,
    parallel: bool = True,
    keep_gold: bool = False,
) -> Suite:
    """The workspace (or the one found from `where`: Workspace.load, which raises NoWorkspace)
    validated with the cache, which is written again before this returns. `git_checks=False`
    leaves final_head_sha and exposure unrun (a command that reads no git result) while the
    walk still asks git what it ignores (`use_git`). `parallel` forks a child for half of the
    files: for single-threaded callers only (the command line). `keep_gold`: the suite keeps
    the bytes of the gold files and runs it checked, for `Suite.review_inputs` (results)."""
    ws = where if isinstance(where, Workspace) else Workspace.load(where)
    suite, write = check_with_cache(
        ws, use_git=use_git, git_checks=git_checks, parallel=parallel, keep_gold=keep_gold
    )
    write()
    return suite


def check_with_cache(
    ws: Workspace,
    *,
    use_git: bool,
    use_cache: bool = True,
    git_checks: bool = True,
    parallel: bool = True,
    reads: ReadOnce | None = None,
    keep_gold: bool = False,
) -> tuple[Suite, Callable[[], None]]:
    """The suite validated, the items of unchanged files taken from the cache; and the cache's
    write, for the caller to run once its answer is out (`validate` prints first). Without git,
    the listing is written too, for `validate` to replay. `use_cache=False` (`--no-cache`):
    nothing is read from the cache, every file is checked, and what was found is written, so a
    cache that was wrong for a reason no stamp sees is put right. `reads`: what the run read
    already (a replay's key read the references)."""
    reads = reads if reads is not None else ReadOnce(str(ws.root), ws.root_real)
    suite = Suite(ws, use_git=use_git, parallel=parallel, reads=reads, keep_gold=keep_gold)
    cache = ItemCache(ws, listing=not use_git, reuse=use_cache, reads=reads)
    # The collector would walk the whole suite again and again as the stamps and the cache's
    # lists are made: nothing made here forms a cycle (engine/bulk.py).
    with gc_paused():
        prepared = suite.prepare(fork=suite.parallel, cache=cache)
        # Stamped before validate_all reads them: an edit in between moves the stamp.
        after_runs = [*prepared.layout.ratings, *_adjudications(ws)]
        ratings = {rel: cache.stamper.stamp(rel) for rel in after_runs}
        suite.validate_all(prepared=prepared, git=git_checks)
        cache.record({rel: i for rel, i in suite.items.items() if i.kind not in AFTER_RUNS_KINDS})
        listing = None if use_git else _listing(suite, prepared.layout, cache, ratings)

    def write() -> None:
        with gc_paused():
            cache.write(listing)

    return suite, write


def _adjudications(ws: Workspace) -> list[str]:
    rel = ws.adjudications_rel
    return [rel] if rel else []


def _listing(
    suite: Suite, layout: Layout, cache: ItemCache, ratings: dict[str, Stamp]
) -> dict[str, Any] | None:
    # Imported by the check alone: with the workspace's classifier and configuration, it is
    # half of what a replay would import otherwise (the start-up of `validate`, issue 23).
    from voyage_tui.engine.validation.layout_replay import listing_parts

    parts = listing_parts(
        layout,
        suite.items,
        ratings,
        [*suite.ws.config_diagnostics, *suite.refs.diagnostics],
        suite.layout_problems,
        suite.suite_diagnostics,
        suite.coverage(),
    )
    return parts.finish(cache)
