"""Computing a workspace's queue the way the command line does, for the engine tests."""

from __future__ import annotations

from datetime import date
from pathlib import Path

from voyage_tui.engine.triage.queue import Queue, build_queue
from voyage_tui.engine.triage.state import StateStore
from voyage_tui.engine.validation.suite import Suite
from voyage_tui.engine.validation.view import view_of

TODAY = date(2026, 3, 2)


def queue_of(root: Path, today: date = TODAY, *, git: bool = True) -> Queue:
    suite = Suite.open(root, use_git=git)
    loaded = StateStore(suite.ws).load()
    return build_queue(
        view_of(suite),
        loaded.state,
        today,
        exposure=suite.git.exposure,
        state_diagnostics=loaded.diagnostics,
    )


def keys(queue: Queue) -> list[str]:
    return [item.key for item in queue.items]
