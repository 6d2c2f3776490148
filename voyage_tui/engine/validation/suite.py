"""The validated suite: every file's Item, the suite-level rules, and incremental re-validation.

`validate_all` reads and checks every file once; `revalidate(paths)` re-checks only what the given
paths touch (a journey.md change re-checks every trajectory, a catalogue change every gold file
and run, a context file its fixture) and recomputes the cheap suite-level rules.

`Suite` is made of one class per concern, each in its module and each building on the ones
before it: the state and its answers (suite_base.py), the ratings and the campaign
(suite_ratings.py), the gold bytes kept for results (suite_gold.py), the full load
(suite_load.py), the re-check of a change (suite_revalidate.py).
"""

from __future__ import annotations

import os

from voyage_tui.engine.validation.suite_base import Prepared, Summary, summarize
from voyage_tui.engine.validation.suite_load import PendingPrepared
from voyage_tui.engine.validation.suite_revalidate import SuiteRevalidate
from voyage_tui.engine.workspace.model import Workspace

# What callers took from this module before the split (the live suite, cli/common.py, view.py).
__all__ = ["PendingPrepared", "Prepared", "Suite", "Summary", "summarize"]


class Suite(SuiteRevalidate):
    """A workspace's validated suite (see the module's docstring for its parts)."""

    @classmethod
    def open(
        cls,
        start: str | os.PathLike[str] | None = None,
        *,
        use_git: bool = True,
        parallel: bool = False,
    ) -> Suite:
        """Find the workspace from `start` and validate all of it. Raises NoWorkspace.
        `parallel` forks a second process for the bulk of the work: only for single-threaded
        callers such as the command line."""
        suite = cls(Workspace.load(start), use_git=use_git, parallel=parallel)
        suite.validate_all()
        return suite
