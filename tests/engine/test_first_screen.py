"""The app's recorded first screen (engine/validation/first_screen.py): what it holds, when it
is used, and that nothing but a record this user wrote under the current key is ever shown."""

from __future__ import annotations

import os
from pathlib import Path

import msgpack
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.budget import examples
from tests.conftest import task_yaml
from voyage_tui.engine.validation.cache_key import key_of
from voyage_tui.engine.validation.cache_store import cache_root
from voyage_tui.engine.validation.first_screen import (
    FORMAT,
    MAGIC,
    FirstScreen,
    GroupLine,
    WorkspaceLine,
    first_screen_of,
    load_first_screen,
    record_name,
    save_first_screen,
)
from voyage_tui.engine.validation.suite import Suite
from voyage_tui.engine.validation.view import view_of
from voyage_tui.engine.workspace.model import Workspace


def screen_of(root: Path) -> FirstScreen:
    suite = Suite.open(root, use_git=False)
    return first_screen_of(view_of(suite), use_git=False)


def record_path(ws: Workspace) -> Path:
    return cache_root() / record_name(ws)


def write_raw(ws: Workspace, data: bytes, mode: int = 0o600) -> None:
    path = record_path(ws)
    path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
    path.write_bytes(data)
    path.chmod(mode)


def test_the_record_holds_the_header_counts_and_the_group_lines(sample_copy: Path) -> None:
    suite = Suite.open(sample_copy, use_git=False)
    view = view_of(suite)
    first = first_screen_of(view, use_git=False)
    rows = view.listing("")
    assert first.fixtures == view.fixture_count == 25
    assert (first.errors, first.warnings) == (view.summary.errors, view.summary.warnings)
    assert first.holdouts == view.holdout_count
    assert [g.key for g in first.groups] == [g.key for g in rows.groups()]
    sizes = {g.key: g.size for g in first.groups}
    assert sizes["class:bug-diagnosis"] == 3
    assert sizes["ratings"] == 3


def test_a_saved_record_loads_back_equal(sample_copy: Path) -> None:
    ws = Workspace.load(sample_copy)
    first = screen_of(sample_copy)
    assert save_first_screen(ws, first)
    assert load_first_screen(Workspace.load(sample_copy), use_git=False) == first
    mode = record_path(ws).stat().st_mode & 0o777
    assert mode == 0o600


def test_no_record_means_none(sample_copy: Path) -> None:
    assert load_first_screen(Workspace.load(sample_copy), use_git=False) is None


def test_a_record_made_with_git_checks_is_not_shown_without_them(sample_copy: Path) -> None:
    ws = Workspace.load(sample_copy)
    save_first_screen(ws, screen_of(sample_copy))  # use_git=False
    assert load_first_screen(ws, use_git=True) is None
    assert load_first_screen(ws, use_git=False) is not None


def test_a_changed_reference_or_config_makes_the_record_unusable(sample_copy: Path) -> None:
    ws = Workspace.load(sample_copy)
    save_first_screen(ws, screen_of(sample_copy))
    journey = sample_copy / "fixtures/references/journey.md"
    journey.write_text(journey.read_text() + "\n")
    assert load_first_screen(Workspace.load(sample_copy), use_git=False) is None
    save_first_screen(Workspace.load(sample_copy), screen_of(sample_copy))
    config = sample_copy / "voyage.toml"
    config.write_text(config.read_text() + "\n# edited\n")
    assert load_first_screen(Workspace.load(sample_copy), use_git=False) is None


def test_two_workspaces_have_two_records(make_workspace, tmp_path: Path) -> None:
    root = make_workspace({"fixtures/bug-diagnosis/a/task.yaml": task_yaml("a")})
    other = tmp_path / "other"
    os.rename(root, other)
    root = make_workspace({"fixtures/bug-diagnosis/b/task.yaml": task_yaml("b")})
    save_first_screen(Workspace.load(root), screen_of(root))
    assert load_first_screen(Workspace.load(other), use_git=False) is None


def _valid_body() -> list[object]:
    return [
        [3, 1, 0, 1, 0],
        [["fixtures", "class:bug-diagnosis", "bug-diagnosis", 3, 1, 0]],
        [["voyage.toml", 1, 0]],
        False,
    ]


def test_a_hand_written_record_under_the_right_key_is_read(make_workspace) -> None:
    root = make_workspace({})
    ws = Workspace.load(root)
    key = key_of(ws)[0]
    write_raw(ws, msgpack.packb([MAGIC, FORMAT, key, _valid_body()]))
    first = load_first_screen(ws, use_git=False)
    assert first is not None
    assert first.groups == (GroupLine("fixtures", "class:bug-diagnosis", "bug-diagnosis", 3, 1, 0),)
    assert first.workspace == (WorkspaceLine("voyage.toml", 1, 0),)


@pytest.mark.parametrize(
    "change",
    [
        lambda b: b.__setitem__(0, [3, 1, 0, 1]),  # a count missing
        lambda b: b.__setitem__(0, [3, -1, 0, 1, 0]),  # a negative count
        lambda b: b.__setitem__(0, [3, True, 0, 1, 0]),  # a bool for a count
        lambda b: b.__setitem__(0, [3, 1.5, 0, 1, 0]),  # a float
        lambda b: b.__setitem__(0, [2**60, 1, 0, 1, 0]),  # too large
        lambda b: b[1][0].__setitem__(0, "elsewhere"),  # an unknown section
        lambda b: b[1][0].__setitem__(2, "x" * 5000),  # a title too long
        lambda b: b[1][0].__setitem__(2, b"bytes"),  # bytes for a text
        lambda b: b[1].__setitem__(0, {"a": 1}),  # a map for a row
        lambda b: b.__setitem__(2, "not rows"),
        lambda b: b.__setitem__(3, 1),  # not a bool
        lambda b: b.append("more"),
    ],
)
def test_a_record_of_another_shape_is_ignored(make_workspace, change) -> None:
    ws = Workspace.load(make_workspace({}))
    body = _valid_body()
    change(body)
    write_raw(ws, msgpack.packb([MAGIC, FORMAT, key_of(ws)[0], body], use_bin_type=True))
    assert load_first_screen(ws, use_git=False) is None


@pytest.mark.parametrize(
    "head",
    [
        ["voyage-tui item cache", FORMAT],  # another file's magic
        [MAGIC, FORMAT + 1],  # a later format
    ],
)
def test_a_record_with_another_magic_or_format_is_ignored(make_workspace, head) -> None:
    ws = Workspace.load(make_workspace({}))
    write_raw(ws, msgpack.packb([*head, key_of(ws)[0], _valid_body()]))
    assert load_first_screen(ws, use_git=False) is None


def test_a_record_under_another_key_is_ignored(make_workspace) -> None:
    ws = Workspace.load(make_workspace({}))
    write_raw(ws, msgpack.packb([MAGIC, FORMAT, "another key", _valid_body()]))
    assert load_first_screen(ws, use_git=False) is None


def test_a_truncated_record_is_ignored(sample_copy: Path) -> None:
    ws = Workspace.load(sample_copy)
    save_first_screen(ws, screen_of(sample_copy))
    data = record_path(ws).read_bytes()
    for cut in range(0, len(data), max(1, len(data) // 40)):
        write_raw(ws, data[:cut])
        assert load_first_screen(ws, use_git=False) is None


def test_a_record_others_could_have_written_is_ignored(sample_copy: Path) -> None:
    ws = Workspace.load(sample_copy)
    save_first_screen(ws, screen_of(sample_copy))
    path = record_path(ws)
    path.chmod(0o644)  # group or others could have replaced it
    assert load_first_screen(ws, use_git=False) is None


def test_a_symlink_planted_at_the_record_is_not_followed(sample_copy: Path, tmp_path: Path) -> None:
    ws = Workspace.load(sample_copy)
    save_first_screen(ws, screen_of(sample_copy))
    path = record_path(ws)
    target = tmp_path / "planted"
    os.replace(path, target)
    path.symlink_to(target)
    assert load_first_screen(ws, use_git=False) is None
    save_first_screen(ws, screen_of(sample_copy))  # replaces the link, never writes through it
    assert not path.is_symlink()
    assert target.read_bytes() != b"" and load_first_screen(ws, use_git=False) is not None


@settings(
    max_examples=examples(200),
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture],
)
@given(data=st.binary(max_size=300))
def test_any_bytes_at_the_record_never_raise(make_workspace, data: bytes) -> None:
    ws = Workspace.load(make_workspace({}))
    write_raw(ws, data)
    assert load_first_screen(ws, use_git=False) is None


@settings(
    max_examples=examples(100),
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture],
)
@given(
    body=st.recursive(
        st.none()
        | st.booleans()
        | st.integers(-(2**63), 2**64 - 1)
        | st.floats()
        | st.text(max_size=8),
        lambda inner: st.lists(inner, max_size=6),
        max_leaves=30,
    )
)
def test_any_body_under_the_right_key_never_raises(make_workspace, body: object) -> None:
    ws = Workspace.load(make_workspace({}))
    write_raw(ws, msgpack.packb([MAGIC, FORMAT, key_of(ws)[0], body]))
    first = load_first_screen(ws, use_git=False)
    assert first is None or isinstance(first, FirstScreen)
