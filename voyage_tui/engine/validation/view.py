"""A consistent, read-only picture of the suite at one moment, for a UI on another thread.

The app never reads a Suite while a worker re-validates it: the worker hands over a SuiteView
(a shallow copy of the item map; Items are replaced, never mutated, by re-validation).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from voyage_tui.engine.diagnostics import Diagnostic, Severity
from voyage_tui.engine.items import TASK, TRAJECTORY, Item
from voyage_tui.engine.references.loaded import References
from voyage_tui.engine.validation.suite import Suite, Summary
from voyage_tui.engine.workspace.model import Workspace


@dataclass(frozen=True, slots=True)
class SuiteView:
    ws: Workspace
    refs: References
    items: dict[str, Item]
    workspace_diagnostics: tuple[Diagnostic, ...]
    summary: Summary
    coverage: dict[str, dict[str, int]]
    by_path: dict[str, tuple[Diagnostic, ...]]
    """Workspace-level diagnostics (duplicate ids, layout problems) that name one file."""
    children: dict[str, tuple[Item, ...]]
    """Items listed under another (agent runs under their fixture, runs under their gold)."""

    @property
    def root(self) -> Path:
        return self.ws.root

    def fixtures(self) -> Iterator[Item]:
        return (i for i in self.items.values() if i.kind in (TASK, TRAJECTORY))

    @property
    def fixture_count(self) -> int:
        return sum(1 for _ in self.fixtures())

    @property
    def holdout_count(self) -> int:
        return sum(1 for i in self.fixtures() if i.visibility == "holdout")

    def diagnostics_for(self, path: str) -> list[Diagnostic]:
        item = self.items.get(path)
        out = list(item.diagnostics) if item else []
        out += self.by_path.get(path, ())
        out.sort(key=Diagnostic.sort_key)
        return out

    def severity_counts(self, path: str) -> tuple[int, int]:
        """(errors, warnings) of one file, its workspace-level diagnostics included."""
        errors = warnings = 0
        item = self.items.get(path)
        for d in (*(item.diagnostics if item else ()), *self.by_path.get(path, ())):
            if d.severity is Severity.ERROR:
                errors += 1
            elif d.severity is Severity.WARNING:
                warnings += 1
        return errors, warnings

    def children_of(self, path: str) -> tuple[Item, ...]:
        return self.children.get(path, ())


def view_of(suite: Suite) -> SuiteView:
    workspace = tuple(suite.workspace_diagnostics())
    items = dict(suite.items)
    by_path: dict[str, list[Diagnostic]] = {}
    for d in workspace:
        if d.path in items:
            by_path.setdefault(d.path, []).append(d)
    children: dict[str, list[Item]] = {}
    for item in items.values():
        if item.parent is not None and item.parent in items:
            children.setdefault(item.parent, []).append(item)
    return SuiteView(
        ws=suite.ws,
        refs=dataclasses.replace(suite.refs),
        items=items,
        workspace_diagnostics=workspace,
        summary=suite.summary(),
        coverage=suite.coverage(),
        by_path={p: tuple(ds) for p, ds in by_path.items()},
        children={p: tuple(sorted(cs, key=lambda i: i.path)) for p, cs in children.items()},
    )
