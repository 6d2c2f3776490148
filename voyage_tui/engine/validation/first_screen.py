"""The app's first screen as its last run left it, so a suite of any size opens at once.

Checking that 100,000 files are unchanged takes a stat of each (seconds), and Textual can draw
nothing useful before it knows the header's counts and the tree's groups. So when the app closes
it records what those lines said (a few hundred bytes, whatever the suite's size), and the next
start draws them from this record, marked "checking…", while a worker checks the files against
the validation cache; the checked suite then replaces the record on screen. The record is never
trusted for anything but that first picture: nothing is acted on until the files are checked.

It is kept beside the validation cache (cache.py), in the same private folder with the same
checks (cache_store.py), as msgpack, under the same key (cache_key.py): a change to voyage-tui,
voyage.toml or a reference file makes the record unusable, as it makes the cache. A record that
is missing, planted, corrupt or of another shape is ignored: the app then shows its loading
screen, as on a first start.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

import msgpack

from voyage_tui.engine.validation.cache import SUFFIX as CACHE_SUFFIX
from voyage_tui.engine.validation.cache import cache_file_name
from voyage_tui.engine.validation.cache_key import key_of
from voyage_tui.engine.validation.cache_store import cache_root, read_private, write_private

if TYPE_CHECKING:
    from voyage_tui.engine.loading.once import ReadOnce
    from voyage_tui.engine.validation.view import SuiteView
    from voyage_tui.engine.workspace.model import Workspace

MAGIC = "voyage-tui first screen"
FORMAT = 1
SUFFIX = ".first.msgpack"
"""Beside the workspace's cache file (its name with this suffix instead of `.msgpack`)."""
MAX_BYTES = 4 * 1024 * 1024
MAX_LINES = 10_000
MAX_TEXT = 4_096
MAX_COUNT = 1 << 53

FIXTURES, TRAJECTORIES, TOP = "fixtures", "trajectories", "top"
"""Where a group line sits: under Fixtures, under Trajectories, or on its own (gold, ratings)."""


@dataclass(frozen=True, slots=True)
class GroupLine:
    section: str
    key: str
    """The group's key in the browser's listing (`class:bug-diagnosis`, `gold`, ...)."""
    title: str
    size: int
    errors: int
    warnings: int


@dataclass(frozen=True, slots=True)
class WorkspaceLine:
    path: str
    errors: int
    warnings: int


@dataclass(frozen=True, slots=True)
class FirstScreen:
    """The header's counts and the tree's group lines, unfiltered, as the last run saw them."""

    fixtures: int
    errors: int
    warnings: int
    holdouts: int
    exposed: int
    groups: tuple[GroupLine, ...]
    workspace: tuple[WorkspaceLine, ...]
    use_git: bool
    """Whether git checks were on: a record made without them (no exposures counted) is not
    shown to a run with them, nor the other way round."""


def first_screen_of(view: SuiteView, *, use_git: bool) -> FirstScreen:
    """What the browser's first screen shows of `view`, with no filter."""
    rows = view.listing("")
    groups = [
        GroupLine(section, g.key, g.title, len(g.items), g.errors, g.warnings)
        for section, found in (
            (FIXTURES, rows.fixtures),
            (TRAJECTORIES, rows.trajectories),
            (TOP, (rows.gold, rows.ratings) if rows.ratings.items else (rows.gold,)),
        )
        for g in found
    ]
    workspace = [WorkspaceLine(p, *view.severity_counts(p)) for p in rows.workspace]
    summary = view.summary
    return FirstScreen(
        fixtures=view.fixture_count,
        errors=summary.errors,
        warnings=summary.warnings,
        holdouts=view.holdout_count,
        exposed=len(view.exposed),
        groups=tuple(groups),
        workspace=tuple(workspace),
        use_git=use_git,
    )


def record_name(ws: Workspace) -> str:
    return cache_file_name(ws.root_real)[: -len(CACHE_SUFFIX)] + SUFFIX


def save_first_screen(ws: Workspace, screen: FirstScreen, *, root: Path | None = None) -> bool:
    """Record `screen` for the next start of the app on `ws`. False when it was not written
    (the cache folder unusable, a full disk): the next start then shows its loading screen."""
    if len(screen.groups) > MAX_LINES or len(screen.workspace) > MAX_LINES:
        return False
    key, _ = key_of(ws)
    body = [
        [screen.fixtures, screen.errors, screen.warnings, screen.holdouts, screen.exposed],
        [[g.section, g.key, g.title, g.size, g.errors, g.warnings] for g in screen.groups],
        [[w.path, w.errors, w.warnings] for w in screen.workspace],
        screen.use_git,
    ]
    try:
        data = msgpack.packb([MAGIC, FORMAT, key, body], use_bin_type=True)
    except (TypeError, ValueError, OverflowError):
        return False
    if len(data) > MAX_BYTES:
        return False
    return write_private(root or cache_root(), record_name(ws), data) is True


def load_first_screen(
    ws: Workspace, *, use_git: bool, root: Path | None = None, reads: ReadOnce | None = None
) -> FirstScreen | None:
    """The first screen recorded for `ws` under its current key, or None (none, another key,
    made with git checks on when they are off now or the other way round, or not a record).
    `reads`: the start's reads, which its first load takes up (the key reads the references)."""
    data = read_private(root or cache_root(), record_name(ws), MAX_BYTES)
    if data is None:
        return None
    try:
        raw = msgpack.unpackb(
            data,
            raw=False,
            strict_map_key=True,
            max_str_len=MAX_TEXT * 4,
            max_bin_len=0,
            max_array_len=MAX_LINES,
            max_map_len=0,
            max_ext_len=0,
        )
    except Exception:  # msgpack raises many kinds for malformed input; all mean "no record"
        return None
    try:
        screen = _decode(raw, key_of(ws, reads)[0])
    except (TypeError, ValueError):
        return None
    return screen if screen is not None and screen.use_git == use_git else None


def _count(value: Any) -> int:
    if type(value) is not int or not 0 <= value < MAX_COUNT:
        raise ValueError("not a count")
    return value


def _text(value: Any) -> str:
    if type(value) is not str or len(value) > MAX_TEXT:
        raise ValueError("not a text")
    return value


def _rows(value: Any, width: int) -> Iterable[list[Any]]:
    if type(value) is not list:
        raise ValueError("not a list")
    for row in value:
        if type(row) is not list or len(row) != width:
            raise ValueError("not a row")
        yield row


def _decode(raw: Any, key: str) -> FirstScreen | None:
    if type(raw) is not list or len(raw) != 4 or raw[:3] != [MAGIC, FORMAT, key]:
        return None
    body = raw[3]
    if type(body) is not list or len(body) != 4 or type(body[3]) is not bool:
        return None
    if type(body[0]) is not list or len(body[0]) != 5:
        return None
    fixtures, errors, warnings, holdouts, exposed = map(_count, body[0])
    groups = []
    for section, group_key, title, *group_counts in _rows(body[1], 6):
        if section not in (FIXTURES, TRAJECTORIES, TOP):
            raise ValueError("not a section")
        groups.append(
            GroupLine(section, _text(group_key), _text(title), *map(_count, group_counts))
        )
    workspace = [
        WorkspaceLine(_text(path), *map(_count, path_counts))
        for path, *path_counts in _rows(body[2], 3)
    ]
    return FirstScreen(
        fixtures, errors, warnings, holdouts, exposed, tuple(groups), tuple(workspace), body[3]
    )
