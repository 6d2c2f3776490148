"""One vocabulary of file kinds (engine/kinds.py) and a table per concern keyed by it: every
table has a row for every kind, so a new kind cannot be forgotten by one part of the program."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path

import pytest

from voyage_tui.app.widgets.detail_pane import KIND_WIDGETS
from voyage_tui.engine.details import DETAIL_FORMAT, DetailFormat
from voyage_tui.engine.editing import OPENING, Opening
from voyage_tui.engine.items import FACTS
from voyage_tui.engine.kinds import FIXTURE_KINDS, ITEM_KINDS, FileKind
from voyage_tui.engine.validation.checkers import CHECKERS
from voyage_tui.engine.validation.suite import Suite
from voyage_tui.engine.validation.view import GROUPING, Grouping
from voyage_tui.engine.workspace.classify import WALK, Walk

REGISTRIES: dict[str, Mapping[FileKind, object]] = {
    "classify (WALK)": WALK,
    "check (CHECKERS)": CHECKERS,
    "group (GROUPING)": GROUPING,
    "detail (DETAIL_FORMAT)": DETAIL_FORMAT,
    "detail (KIND_WIDGETS)": KIND_WIDGETS,
    "open (OPENING)": OPENING,
    "facts (FACTS)": FACTS,
}


@pytest.mark.parametrize("name", REGISTRIES)
def test_every_registry_covers_every_kind(name: str) -> None:
    registry = REGISTRIES[name]
    missing = [kind for kind in FileKind if kind not in registry]
    assert not missing, f"{name} has no row for {missing}"
    assert set(registry) == set(FileKind), f"{name} has rows for what is no kind"


def test_the_kinds_print_as_the_strings_validate_and_the_app_always_showed() -> None:
    assert {k: k.value for k in FileKind} == {
        FileKind.TASK: "task",
        FileKind.TRAJECTORY: "trajectory",
        FileKind.AGENT_RUN: "agent-run",
        FileKind.GOLD: "gold",
        FileKind.GOLD_RUN: "gold-run",
        FileKind.RATING: "rating",
        FileKind.ADJUDICATION: "adjudication",
        FileKind.REFERENCE: "reference",
        FileKind.CONFIG: "config",
        FileKind.MISPLACED_TASK: "misplaced",
        FileKind.OTHER: "other",
    }
    assert f"{FileKind.GOLD_RUN}" == "gold-run" and FileKind.GOLD_RUN == "gold-run"


def test_the_tables_agree_on_which_kinds_are_items() -> None:
    """A kind that is an item is listed by the walk, checked or grouped; the others never."""
    for kind in FileKind:
        is_item = kind in ITEM_KINDS
        assert (WALK[kind] not in (Walk.NOT_LISTED, Walk.MISPLACED)) == is_item, kind
        assert (GROUPING[kind] is not Grouping.NOT_LISTED) == is_item, kind
        assert (DETAIL_FORMAT[kind] is not DetailFormat.NONE) == is_item, kind
        assert (OPENING[kind] is not Opening.NOTHING) == is_item, kind
        if not is_item:
            assert CHECKERS[kind] is None and FACTS[kind] is None, kind
    assert FIXTURE_KINDS <= ITEM_KINDS


def test_every_checker_makes_items_of_its_own_kinds_on_the_sample(sample_copy: Path) -> None:
    """The checked items of the sample have the kinds the tables give them, and their facts the
    type FACTS names."""
    suite = Suite.open(sample_copy, use_git=False)
    kinds = {item.kind for item in suite.items.values()}
    # the sample has ratings, and may have an adjudications file
    assert ITEM_KINDS - {FileKind.ADJUDICATION} <= kinds <= ITEM_KINDS
    for item in suite.items.values():
        assert type(item.kind) is FileKind, item.path
        assert item.facts is None or type(item.facts) is FACTS[item.kind], item.path
