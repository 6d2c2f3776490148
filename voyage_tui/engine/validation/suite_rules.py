"""Rules over the whole suite: unique ids, adversarial coverage, and the coverage counts."""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Iterable

from voyage_tui.engine import diagnostics as dg
from voyage_tui.engine.diagnostics import Diagnostic
from voyage_tui.engine.formats.vocabulary import (
    BOUNDARIES,
    CLASSES,
    TRAJECTORY_PATHS,
    VISIBILITIES,
)
from voyage_tui.engine.items import Item
from voyage_tui.engine.kinds import FileKind

MANDATORY_CLASSES = ("adversarial", "no-change-needed")


def duplicate_ids(fixtures: Iterable[Item]) -> list[Diagnostic]:
    by_id: dict[str, list[Item]] = defaultdict(list)
    for item in fixtures:
        if item.id:
            by_id[item.id].append(item)
    out: list[Diagnostic] = []
    for fixture_id, items in by_id.items():
        if len(items) < 2:
            continue
        for item in items:
            others = ", ".join(o.path for o in items if o is not item)
            out.append(
                dg.error(
                    item.path,
                    item.id_position,
                    "duplicate-id",
                    f"id {fixture_id!r} is also used by {others}; ids are unique across the suite",
                )
            )
    return out


def class_folder(item: Item, fixtures_rel: str) -> str:
    """The class folder a fixture sits in (`fixtures/<class>/<id>/task.yaml`)."""
    prefix = fixtures_rel + "/" if fixtures_rel else ""
    rest = item.path[len(prefix) :] if item.path.startswith(prefix) else item.path
    return rest.split("/", 1)[0]


def adversarial_coverage(fixtures: Iterable[Item], fixtures_rel: str) -> list[Diagnostic]:
    # A fixture that did not load (broken YAML, no `class:`) is still there, in its class
    # folder, with its own error: the class is present, not missing.
    present = {
        item.fixture_class or class_folder(item, fixtures_rel)
        for item in fixtures
        if item.kind is FileKind.TASK
    }
    missing = [c for c in MANDATORY_CLASSES if c not in present]
    if not missing:
        return []
    return [
        dg.error(
            fixtures_rel or ".",
            None,
            "adversarial-coverage",
            f"the suite has no {' and no '.join(repr(m) for m in missing)} fixture; adversarial "
            "coverage is mandatory so a bundle cannot win by reflexively minimising",
        )
    ]


def coverage(fixtures: Iterable[Item]) -> dict[str, dict[str, int]]:
    classes: Counter[str] = Counter()
    boundaries: Counter[str] = Counter()
    visibility: Counter[str] = Counter()
    paths: Counter[str] = Counter()
    for item in fixtures:
        if item.visibility in VISIBILITIES:
            visibility[item.visibility] += 1
        if item.kind is FileKind.TASK:
            if item.fixture_class in CLASSES:
                classes[item.fixture_class] += 1
            if item.boundary in BOUNDARIES:
                boundaries[item.boundary] += 1
        elif item.kind is FileKind.TRAJECTORY and item.fixture_class in TRAJECTORY_PATHS:
            paths[item.fixture_class] += 1
    return {
        "classes": {c: classes[c] for c in CLASSES},
        "boundaries": {b: boundaries[b] for b in BOUNDARIES},
        "visibility": {v: visibility[v] for v in VISIBILITIES},
        "trajectory_paths": {p: paths[p] for p in TRAJECTORY_PATHS},
    }
