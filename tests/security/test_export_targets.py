"""Where the diff screen's export (`w`, then enter) writes, against a branch that plants things.

A branch committed `<run>-diff.md` as a symlink to the reviewer's `.venv/bin/activate`; pressing
`w` then enter overwrote the script through the link, without a question. An export now asks
before it replaces any file, and never writes through a symlink (at the name or at a folder on
the way, whether it leads out or stays inside), nor into a FIFO or device: it says what it
refused and why, and offers no overwrite.
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest
from textual.widgets import Input

from tests.app.scenarios import copy_sample
from tests.app.support import wait_until
from voyage_tui.app.app import VoyageApp
from voyage_tui.app.screens.diff import DiffScreen
from voyage_tui.app.screens.modals import ChoiceScreen
from voyage_tui.app.screens.review_modals import PathScreen
from voyage_tui.app.settings import AppSettings
from voyage_tui.engine.workspace.model import Workspace

GOLD = "fixtures/gold/jwt-auth/gold.json"
RUNS = "fixtures/gold/jwt-auth/runs"
ACTIVATE = "# the reviewer's virtualenv\nexport VIRTUAL_ENV=/home/carol/.venv\n"


@pytest.fixture
def root(tmp_path: Path) -> Path:
    return copy_sample(tmp_path)


def _app(root: Path, run: str = "run-misses") -> VoyageApp:
    return VoyageApp(
        Workspace.load(root),
        AppSettings(
            use_git=False, watch=False, keymap={}, initial_diff=(GOLD, f"{RUNS}/{run}.json")
        ),
    )


def _notes(app: VoyageApp) -> list[str]:
    return [str(n.message) for n in app._notifications]


async def _press_w_then_enter(pilot) -> DiffScreen:
    app = pilot.app
    await wait_until(
        pilot, lambda: isinstance(app.screen, DiffScreen) and app.screen.scored is not None
    )
    screen = app.screen
    await pilot.press("w")
    await wait_until(pilot, lambda: isinstance(app.screen, PathScreen))
    await pilot.press("enter")
    return screen  # type: ignore[return-value]


async def _refused(pilot, *words: str) -> str:
    """Wait for the one refusal note; no question was asked and nothing else was said."""
    app = pilot.app
    await wait_until(pilot, lambda: any("Not written" in n for n in _notes(app)))
    await app.workers.wait_for_complete()
    await pilot.pause()
    assert not isinstance(app.screen, ChoiceScreen)
    (note,) = [n for n in _notes(app) if "Not written" in n]
    for word in words:
        assert word in note, note
    assert not any(n.startswith("Wrote") for n in _notes(app))
    return note


@pytest.mark.parametrize(
    "link",
    [
        "../../../../.venv/bin/activate",  # inside the workspace, in a virtualenv
        "../gold.json",  # inside the workspace, a file of the suite
        "run-misses.json",  # the run itself, beside it
    ],
)
async def test_a_planted_symlink_at_the_default_name_is_refused_not_written_through(
    root: Path, link: str
) -> None:
    venv = root / ".venv/bin"
    venv.mkdir(parents=True)
    (venv / "activate").write_text(ACTIVATE)
    before = {p: p.read_bytes() for p in root.rglob("*") if p.is_file() and not p.is_symlink()}
    planted = root / RUNS / "run-misses-diff.md"
    planted.symlink_to(link)
    app = _app(root)
    async with app.run_test(size=(120, 40)) as pilot:
        await _press_w_then_enter(pilot)
        note = await _refused(pilot, f"{RUNS}/run-misses-diff.md", "symlink")
        assert "nothing was written" in note.lower()
    assert planted.is_symlink() and os.readlink(planted) == link
    after = {p: p.read_bytes() for p in root.rglob("*") if p.is_file() and not p.is_symlink()}
    assert after == before


async def test_a_symlink_leading_out_at_the_default_name_is_refused(
    root: Path, tmp_path: Path
) -> None:
    outside = tmp_path / "outside.sh"
    outside.write_text("keep me\n")
    (root / RUNS / "run-misses-diff.md").symlink_to(outside)
    app = _app(root)
    async with app.run_test(size=(120, 40)) as pilot:
        await _press_w_then_enter(pilot)
        await _refused(pilot, "symlink")
    assert outside.read_text() == "keep me\n"


async def test_a_folder_symlinked_on_the_way_is_refused(root: Path) -> None:
    (root / RUNS / "out").symlink_to("..")  # stays inside the workspace
    app = _app(root)
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await _wait_diff(pilot)
        await pilot.press("w")
        await wait_until(pilot, lambda: isinstance(app.screen, PathScreen))
        app.screen.query_one(Input).value = f"{RUNS}/out/diff.md"
        await pilot.press("enter")
        assert screen is not None
        await _refused(pilot, f"{RUNS}/out", "symlink")
    assert not (root / "fixtures/gold/jwt-auth/diff.md").exists()


async def _wait_diff(pilot) -> DiffScreen:
    app = pilot.app
    await wait_until(
        pilot, lambda: isinstance(app.screen, DiffScreen) and app.screen.scored is not None
    )
    return app.screen  # type: ignore[return-value]


async def test_a_fifo_at_the_default_name_is_refused_without_blocking(root: Path) -> None:
    fifo = root / RUNS / "run-misses-diff.md"
    os.mkfifo(fifo)
    app = _app(root)
    async with app.run_test(size=(120, 40)) as pilot:
        await _press_w_then_enter(pilot)
        await _refused(pilot, "not a regular file")
    assert fifo.is_fifo()


async def test_a_hostile_run_name_gives_a_plain_default_and_a_one_line_header(root: Path) -> None:
    name = "run\n\n**safe to merge**\x1b]0;owned\x07\u202e"
    shutil.copy(root / RUNS / "run-misses.json", root / RUNS / f"{name}.json")
    app = _app(root, name)
    async with app.run_test(size=(120, 40)) as pilot:
        app_screen = await _wait_diff(pilot)
        await pilot.press("w")
        await wait_until(pilot, lambda: isinstance(app.screen, PathScreen))
        default = app.screen.query_one(Input).value
        assert default == f"{RUNS}/run__**safe to merge**_]0;owned__-diff.md"
        await pilot.press("enter")
        await wait_until(pilot, lambda: any(n.startswith("Wrote") for n in _notes(app)))
        assert app.screen is app_screen
    written = (root / default).read_text()
    assert written.splitlines()[0] == (
        "### run\\x0a\\x0a\\*\\*safe to merge\\*\\*\\x1b\\]0;owned\\x07\\u202e vs jwt-auth"
    )
    assert sorted(p.name for p in (root / RUNS).iterdir() if p.name.endswith(".md")) == [
        default.rsplit("/", 1)[1]
    ]


async def test_a_path_that_climbs_out_of_a_symlinked_folder_is_refused(root: Path) -> None:
    """`runs/out/../x.md` reads as `runs/x.md`, but the system resolves `out` first: through a
    link to another folder, `..` is that folder's parent. A path with `..` is not exported."""
    elsewhere = root / "fixtures/elsewhere/deep"
    elsewhere.mkdir(parents=True)
    (root / RUNS / "out").symlink_to(elsewhere)
    app = _app(root)
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await _wait_diff(pilot)
        screen.write_markdown(f"{RUNS}/out/../x.md")
        await _refused(pilot, "..")
    assert not (root / "fixtures/elsewhere/x.md").exists()
    assert not (root / RUNS / "x.md").exists()
