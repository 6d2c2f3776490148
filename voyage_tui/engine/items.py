"""What the engine keeps about each validated file: a summary, never the parsed document.

The suite holds one Item per file (11,000 of them on a large suite), so an Item is small: the
fields the browser, the filter, the coverage counts and the git checks need, and the diagnostics.

An Item is frozen: a view already handed to the screen holds Items, and a worker re-validating
on another thread must never change what that view shows. A new result is a new Item
(`dataclasses.replace`), put in the suite's map in place of the old one.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from voyage_tui.engine.diagnostics import Diagnostic, Severity

# Item kinds
TASK = "task"
TRAJECTORY = "trajectory"
GOLD = "gold"
GOLD_RUN = "gold-run"
AGENT_RUN = "agent-run"
RATING = "rating"


@dataclass(frozen=True, slots=True)
class Item:
    path: str
    kind: str
    id: str | None = None
    fixture_class: str | None = None
    """A task's class; for a trajectory, its journey path (lightweight, full, ...)."""
    boundary: str | None = None
    visibility: str | None = None
    prompt: str = ""
    ground_truth: str = ""
    canary: str | None = None
    final_head_sha: str | None = None
    sha_position: tuple[int, int] | None = None
    id_position: tuple[int, int] | None = None
    parent: str | None = None
    """For a gold run, its gold file; for an agent run, its fixture's task.yaml."""
    extra: dict[str, Any] = field(default_factory=dict)
    """Small per-kind facts (a gold file's verdict, an agent run's agent). Filled when the Item
    is made and never changed after: nothing writes to an Item's `extra`."""
    diagnostics: tuple[Diagnostic, ...] = ()
    deps: tuple[str, ...] = ()
    """Other workspace files whose state the diagnostics depend on (context files, the README
    beside a gold file, a run's gold file): a change to one of them re-checks this item."""

    def __post_init__(self) -> None:
        # Callers may hand over a list; the Item keeps a tuple, so nobody appends to it later.
        if type(self.diagnostics) is not tuple:
            object.__setattr__(self, "diagnostics", tuple(self.diagnostics))

    @property
    def folder(self) -> str:
        return self.path.rsplit("/", 1)[0] if "/" in self.path else ""

    @property
    def errors(self) -> int:
        return sum(1 for d in self.diagnostics if d.severity is Severity.ERROR)

    @property
    def warnings(self) -> int:
        return sum(1 for d in self.diagnostics if d.severity is Severity.WARNING)

    @property
    def is_fixture(self) -> bool:
        return self.kind in (TASK, TRAJECTORY)
