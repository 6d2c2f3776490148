"""The suite view as data: frozen items, counts that are the sum of the items, and the browser's
listing (groups, order, filter, next error) as plain functions of a view."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest

from tests.conftest import task_yaml
from voyage_tui.engine import diagnostics as dg
from voyage_tui.engine.diagnostics import Diagnostic, Severity
from voyage_tui.engine.items import Item
from voyage_tui.engine.kinds import FileKind
from voyage_tui.engine.validation.file_check import check_fixture
from voyage_tui.engine.validation.suite import Suite
from voyage_tui.engine.validation.view import (
    ITEM,
    WORKSPACE,
    changed_paths,
    listing,
    next_error,
    view_of,
)

BROKEN_BOUNDARY = "expected_boundary: unitt"


def _suite(root: Path) -> Suite:
    return Suite.open(root, use_git=False)


def _errors(diagnostics: object) -> int:
    return sum(1 for d in diagnostics if d.severity is Severity.ERROR)  # type: ignore[attr-defined]


# --- frozen items ------------------------------------------------------------------------------


def test_an_item_is_frozen(make_workspace) -> None:
    root = make_workspace({"fixtures/bug-diagnosis/t1/task.yaml": task_yaml("t1")})
    suite = _suite(root)
    item = suite.items["fixtures/bug-diagnosis/t1/task.yaml"]
    with pytest.raises(dataclasses.FrozenInstanceError):
        item.id = "other"  # type: ignore[misc]
    with pytest.raises(dataclasses.FrozenInstanceError):
        item.diagnostics = ()  # type: ignore[misc]
    # and its diagnostics cannot be appended to either
    with pytest.raises(AttributeError):
        item.diagnostics.append(dg.error(item.path, None, "x", "y"))  # type: ignore[attr-defined]


def test_an_item_made_with_a_list_keeps_a_tuple() -> None:
    d = dg.error("a", None, "x", "y")
    item = Item("a", FileKind.TASK, diagnostics=[d])  # type: ignore[arg-type]
    assert item.diagnostics == (d,)


def test_a_view_keeps_what_it_showed_while_the_suite_moves_on(make_workspace) -> None:
    rel = "fixtures/bug-diagnosis/t1/task.yaml"
    root = make_workspace({rel: task_yaml("t1")})
    suite = _suite(root)
    before = view_of(suite)
    (root / rel).write_text(task_yaml("t1").replace("expected_boundary: unit", BROKEN_BOUNDARY))
    suite.revalidate({rel})
    after = view_of(suite)
    assert before.items[rel].diagnostics == ()
    assert before.summary.errors == 0
    assert after.summary.errors == 1
    assert changed_paths(before, after) == {rel}


def test_the_header_count_is_the_sum_over_items(make_workspace) -> None:
    root = make_workspace(
        {
            "fixtures/bug-diagnosis/t1/task.yaml": task_yaml("t1"),
            "fixtures/bug-diagnosis/b1/task.yaml": task_yaml("b1").replace(
                "expected_boundary: unit", BROKEN_BOUNDARY
            ),
            "fixtures/refactor/t1/task.yaml": task_yaml("t1", "refactor"),  # duplicate id
        }
    )
    view = view_of(_suite(root))
    per_item = sum(_errors(i.diagnostics) for i in view.items.values())
    workspace = _errors(view.workspace_diagnostics)
    assert view.summary.errors == per_item + workspace == 3


# --- the suite rule about adversarial coverage ------------------------------------------------


def test_a_class_whose_only_fixture_failed_to_parse_is_not_missing(make_workspace) -> None:
    root = make_workspace(
        {
            "fixtures/bug-diagnosis/t1/task.yaml": task_yaml("t1"),
            "fixtures/adversarial/adv-1/task.yaml": "id: adv-1\nclass: [unclosed\n",
        }
    )
    codes = [d.code for d in _suite(root).diagnostics()]
    assert "adversarial-coverage" not in codes
    # the fixture is there, and broken: its own error says so
    assert any(
        d.path == "fixtures/adversarial/adv-1/task.yaml" and d.severity is Severity.ERROR
        for d in _suite(root).diagnostics()
    )


def test_a_class_with_no_fixture_at_all_is_still_missing(make_workspace) -> None:
    root = make_workspace(
        {
            "fixtures/bug-diagnosis/t1/task.yaml": task_yaml("t1"),
            "fixtures/no-change-needed/ncn-1/task.yaml": task_yaml("ncn-1", "no-change-needed"),
        },
        coverage=False,
    )
    found = [d for d in _suite(root).diagnostics() if d.code == "adversarial-coverage"]
    assert len(found) == 1 and "'adversarial'" in found[0].message


# --- the browser's listing ---------------------------------------------------------------------


@pytest.fixture
def listed(make_workspace) -> Path:
    return make_workspace(
        {
            "fixtures/bug-diagnosis/zeta/task.yaml": task_yaml("zeta"),
            "fixtures/bug-diagnosis/alpha/task.yaml": task_yaml("alpha").replace(
                "expected_boundary: unit", BROKEN_BOUNDARY
            ),
            "fixtures/refactor/storage/task.yaml": task_yaml("storage", "refactor").replace(
                "Fix the off-by-one in the pagination helper.", "Rename the storage module."
            ),
            "fixtures/my-own-class/odd/task.yaml": task_yaml("odd", "my-own-class"),
        },
        coverage=False,
    )


def test_groups_come_in_vocabulary_order_then_unknown_folders(listed: Path) -> None:
    view = view_of(_suite(listed))
    rows = listing(view)
    keys = [g.key for g in rows.fixtures]
    assert keys[0] == "class:bug-diagnosis"
    assert keys[-1] == "class:my-own-class"  # an unknown class folder still shows, last
    assert "class:adversarial" in keys  # without a filter, empty known groups are listed
    group = rows.group("class:bug-diagnosis")
    assert group is not None
    assert [i.id for i in group.items] == ["alpha", "zeta"]  # by id
    assert (group.errors, group.warnings) == (1, 0)
    assert rows.gold.key == "gold" and rows.gold.items == ()


def test_the_filter_keeps_matches_by_id_prompt_or_path_and_only_their_groups(
    listed: Path,
) -> None:
    view = view_of(_suite(listed))
    by_prompt = listing(view, "STORAGE module")
    assert [g.key for g in by_prompt.fixtures] == ["class:refactor"]
    assert by_prompt.matched == 1
    assert by_prompt.trajectories == ()
    assert listing(view, "zzz").matched == 0
    rows = listing(view, "alp")
    assert [p for p in rows.entries if rows.kind_of(p) == ITEM] == [
        "fixtures/bug-diagnosis/alpha/task.yaml"
    ]


def test_next_error_stops_on_suite_level_errors_too(listed: Path) -> None:
    view = view_of(_suite(listed))
    rows = listing(view)
    alpha = "fixtures/bug-diagnosis/alpha/task.yaml"
    # no adversarial or no-change-needed fixture: a suite-level error on the fixtures folder
    assert "fixtures" in rows.entries and rows.kind_of("fixtures") == WORKSPACE
    odd = "fixtures/my-own-class/odd/task.yaml"  # `class: my-own-class` is no class
    assert next_error(view, rows, None) == alpha
    assert next_error(view, rows, alpha) == odd
    assert next_error(view, rows, odd) == "fixtures"
    assert next_error(view, rows, "fixtures") == alpha  # wraps
    assert next_error(view, rows, alpha, forward=False) == "fixtures"
    assert next_error(view, rows, None, forward=False) == "fixtures"
    assert view.next_error(odd) == "fixtures"


def test_next_error_is_none_when_nothing_has_one(make_workspace) -> None:
    root = make_workspace({"fixtures/bug-diagnosis/t1/task.yaml": task_yaml("t1")})
    view = view_of(_suite(root))
    assert next_error(view, listing(view), None) is None


def test_exposed_is_a_field_of_the_view_not_a_code_to_search_for(make_workspace) -> None:
    rel = "fixtures/bug-diagnosis/t1/task.yaml"
    root = make_workspace({rel: task_yaml("t1")})
    suite = _suite(root)
    item = suite.items[rel]
    # a diagnostic that merely carries the code does not make a holdout exposed
    lookalike = Diagnostic(rel, None, None, Severity.ERROR, "holdout-exposed", "a message")
    suite.items[rel] = dataclasses.replace(item, diagnostics=(lookalike,))
    view = view_of(suite)
    assert view.exposed == frozenset()
    assert not view.is_exposed(rel)


def test_a_broken_fixture_keeps_its_folder_id_and_kind(make_workspace) -> None:
    root = make_workspace({"fixtures/bug-diagnosis/t1/task.yaml": "a: [\n"})
    suite = _suite(root)
    item = check_fixture(suite.ws, suite.refs, "fixtures/bug-diagnosis/t1/task.yaml")
    assert (item.kind, item.id, item.fixture_class) == (FileKind.TASK, "t1", None)
    assert _errors(item.diagnostics) >= 1


def test_ratings_files_are_a_group_of_their_own_only_when_there_are_some(
    listed: Path, tmp_path: Path
) -> None:
    from tests.app.scenarios import copy_sample

    without = listing(view_of(_suite(listed)))
    assert without.ratings.items == () and "ratings" not in [g.key for g in without.groups()]

    view = view_of(_suite(copy_sample(tmp_path)))
    rows = listing(view)
    assert [g.key for g in rows.groups()][-2:] == ["gold", "ratings"]
    names = [i.path.rsplit("/", 1)[-1] for i in rows.ratings.items]
    assert names == ["alice.jsonl", "bob.jsonl", "carol.jsonl"]
    assert list(rows.entries[-len(names) :]) == [i.path for i in rows.ratings.items]
    assert view.group_of(rows.ratings.items[0]) == "ratings"
    assert [i.path for i in listing(view, "bob").ratings.items] == [rows.ratings.items[1].path]
