"""The rater session driven with the pilot: keys score, the last key saves (one fsync'd line),
`u` takes ratings back, quitting and starting again resumes; what a blind rater is not shown;
the clock; a save that fails."""

from __future__ import annotations

import errno
import io
import json
import threading
from pathlib import Path

import pytest
from rich.console import Console
from textual.widgets import HelpPanel, Static

from tests.app.scenarios import copy_sample
from tests.app.support import wait_loaded, wait_until
from voyage_tui.app.app import VoyageApp
from voyage_tui.app.screens.agreement import AgreementScreen
from voyage_tui.app.screens.rate import RateScreen
from voyage_tui.app.settings import AppSettings
from voyage_tui.app.widgets.detail_pane import DetailPane
from voyage_tui.app.widgets.diagnostics_list import DiagnosticsList
from voyage_tui.app.widgets.rubric_panel import RubricPanel
from voyage_tui.engine.campaign.source import WorkTree
from voyage_tui.engine.ratings import store as ratings_store
from voyage_tui.engine.ratings.session import RaterSession
from voyage_tui.engine.validation.suite import Suite
from voyage_tui.engine.workspace.model import Workspace

MINE = "fixtures/ratings/me.jsonl"
DIMENSIONS = ["correctness", "verification", "scope", "evidence", "communication"]


@pytest.fixture
def root(tmp_path: Path) -> Path:
    return copy_sample(tmp_path)


def rate_app(root: Path, rater: str | None = "me", *, blind: bool = True) -> VoyageApp:
    return VoyageApp(
        Workspace.load(root),
        AppSettings(use_git=False, watch=False, keymap={}, initial_rate=(rater, blind)),
    )


def records(root: Path) -> list[dict]:
    path = root / MINE
    if not path.exists():
        return []
    data = path.read_bytes()
    assert data == b"" or data.endswith(b"\n"), "every record is a whole line"
    return [json.loads(line) for line in data.decode().splitlines()]


def queue_of(root: Path, rater: str = "me", *, blind: bool = True) -> list[tuple[str, str]]:
    """The pairs in the rater's order, as the engine computes it (not as the screen says)."""
    suite = Suite.open(root, use_git=False)
    session = RaterSession.open(
        suite.ws,
        suite.refs.rubric.value,
        suite.items,
        rater,
        read=WorkTree(suite.ws).rater_store,
        blind=blind,
        use_git=False,
        lock=False,
    )
    return [run.run_key for run in session.queue]


async def session_screen(pilot) -> RateScreen:
    app = pilot.app
    await wait_until(
        pilot,
        lambda: (
            isinstance(app.screen, RateScreen)
            and (app.screen.state is not None or app.screen.problem is not None)
            and not app.screen.busy
        ),
    )
    await pilot.pause()
    return app.screen  # type: ignore[return-value]


async def rate(pilot, screen: RateScreen, keys: str) -> None:
    """Press `keys` (digits: one key per dimension; else one named key) and wait until the
    step is on disk and shown."""
    before = screen.state
    await pilot.press(*(list(keys) if keys.isdigit() else [keys]))
    await wait_until(pilot, lambda: screen.state is not before and not screen.busy)


def pair(record: dict) -> tuple[str, str]:
    return (record["fixture_id"], record["run_id"])


# --- the flow of the issue: rate two, undo one, quit, resume ------------------------------------


async def test_rate_two_undo_one_quit_and_resume_at_the_right_item(root: Path) -> None:
    order = queue_of(root)
    app = rate_app(root)
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await session_screen(pilot)
        assert screen.state is not None and screen.state.current is not None
        assert screen.state.current.run_key == order[0]
        assert screen.state.progress == "0/12 rated"

        await rate(pilot, screen, "43554")
        [first] = records(root)
        assert pair(first) == order[0]
        assert first["scores"] == dict(zip(DIMENSIONS, [4, 3, 5, 5, 4], strict=True))
        assert first["rater"] == "me" and first["blind"] is True
        assert screen.state.current.run_key == order[1]
        assert screen.state.progress == "1/12 rated"

        await rate(pilot, screen, "22132")
        assert [pair(r) for r in records(root)] == [order[0], order[1]]
        assert screen.state.progress == "2/12 rated"

        await rate(pilot, screen, "u")
        written = records(root)
        assert len(written) == 3
        assert pair(written[2]) == order[1] and written[2]["scores"] is None  # a retraction
        assert screen.state.current.run_key == order[1]  # the undone item is open again
        assert screen.state.progress == "1/12 rated"
        await pilot.press("ctrl+q")

    again = rate_app(root)
    async with again.run_test(size=(120, 40)) as pilot:
        screen = await session_screen(pilot)
        assert screen.state is not None and screen.state.current is not None
        assert screen.state.current.run_key == order[1]
        assert screen.state.progress == "1/12 rated"
    assert len(records(root)) == 3  # opening and quitting wrote nothing


async def test_undo_goes_back_through_every_rating_of_the_session_and_redo_returns(
    root: Path,
) -> None:
    order = queue_of(root)
    app = rate_app(root)
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await session_screen(pilot)
        await rate(pilot, screen, "11111")
        await rate(pilot, screen, "22222")
        await rate(pilot, screen, "backspace")
        await rate(pilot, screen, "u")
        assert screen.state is not None and screen.state.current is not None
        assert screen.state.current.run_key == order[0]
        assert screen.state.progress == "0/12 rated"
        assert [r["scores"] for r in records(root)][2:] == [None, None]
        await pilot.press("u")  # nothing of the session is left to undo: nothing is written
        await pilot.pause()
        assert len(records(root)) == 4
        assert "Nothing of this session to undo" in screen.status

        await rate(pilot, screen, "ctrl+r")
        assert records(root)[-1]["scores"] == dict.fromkeys(DIMENSIONS, 1)
        assert screen.state.current.run_key == order[1]
        assert screen.state.progress == "1/12 rated"


# --- the keys within one item --------------------------------------------------------------------


async def test_back_a_dimension_then_one_key_fixes_it_and_the_chosen_anchor_stays_shown(
    root: Path,
) -> None:
    app = rate_app(root)
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await session_screen(pilot)
        await pilot.press("4", "3", "5")
        assert screen.draft.cursor == 3
        await pilot.press("left", "shift+tab")
        assert screen.draft.cursor == 1
        await pilot.press("1")  # verification again; the cursor goes on to evidence
        assert screen.draft.scores == {"correctness": 4, "verification": 1, "scope": 5}
        assert screen.draft.cursor == 3
        lines = [str(line.content) for line in screen.query_one(RubricPanel)._lines]
        assert "Correct outcome with minor gaps" in lines[0]  # correctness 4
        assert "No verification, or claims of tests" in lines[1]  # verification 1
        assert records(root) == []  # nothing is written before the last key
        await rate(pilot, screen, "54")
        [written] = records(root)
        assert written["scores"] == {
            "correctness": 4,
            "verification": 1,
            "scope": 5,
            "evidence": 5,
            "communication": 4,
        }


async def test_a_key_off_the_scale_is_refused_and_scores_nothing(root: Path) -> None:
    """A digit no dimension can take is no key of the screen (issue 36 row 6: the help listed
    `Score 0` to `Score 9` for a 1..5 rubric); the help lists the scale's keys only."""
    app = rate_app(root)
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await session_screen(pilot)
        await pilot.press("9", "0")
        assert screen.draft.scores == {}
        scoring = sorted(
            b.binding.key
            for b in screen.active_bindings.values()
            if b.binding.action.startswith("score(")
        )
        assert scoring == ["1", "2", "3", "4", "5"]
        await pilot.press("f1")
        await pilot.pause()
        keys = screen.query_one(HelpPanel).query_one("BindingsTable")
        console = Console(width=60, record=True, file=io.StringIO())
        console.print(keys.render_bindings_table())  # type: ignore[attr-defined]
        shown = console.export_text()
        assert "Score 5" in shown and "Score 0" not in shown and "Score 6" not in shown
        await pilot.press("f1")
        await pilot.press("3")
        assert screen.draft.scores == {"correctness": 3}
        assert screen.status == ""


async def test_a_note_before_the_last_key_is_saved_with_the_rating(root: Path) -> None:
    app = rate_app(root)
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await session_screen(pilot)
        await pilot.press("4", "n")
        await pilot.press("tab", "tab", "ctrl+r")  # keys the input leaves: ignored
        assert screen.draft.cursor == 1
        await pilot.press(*"thin tests 12", "enter")  # digits go into the note, not the scores
        assert screen.draft.note == "thin tests 12"
        assert screen.draft.scores == {"correctness": 4}
        await pilot.press("n", *" more", "escape")  # escape drops what was typed
        assert screen.draft.note == "thin tests 12"
        assert isinstance(app.screen, RateScreen)
        await rate(pilot, screen, "4444")
        assert records(root)[0]["note"] == "thin tests 12"


async def test_skip_leaves_a_run_for_after_the_others(root: Path) -> None:
    order = queue_of(root)
    app = rate_app(root)
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await session_screen(pilot)
        await rate(pilot, screen, "s")
        assert screen.state is not None and screen.state.current is not None
        assert screen.state.current.run_key == order[1]
        assert records(root) == []


# --- writing: on disk before the screen moves; a failed write keeps the scores ------------------


async def test_the_screen_moves_on_only_once_the_rating_is_on_disk(
    root: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    order = queue_of(root)
    release = threading.Event()
    writing = threading.Event()
    append = ratings_store.append_lines

    def slow_append(*args, **kwargs):
        writing.set()
        assert release.wait(10)
        return append(*args, **kwargs)

    monkeypatch.setattr(ratings_store, "append_lines", slow_append)
    app = rate_app(root)
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await session_screen(pilot)
        before = screen.state
        await pilot.press(*"55555")
        await wait_until(pilot, writing.is_set)
        await pilot.press("3")  # refused while the write is under way
        await pilot.pause()
        assert screen.busy and screen.state is before
        assert screen.state is not None and screen.state.current is not None
        assert screen.state.current.run_key == order[0]
        release.set()
        await wait_until(pilot, lambda: screen.state is not before and not screen.busy)
        assert screen.state.current.run_key == order[1]
        assert screen.draft.scores == {}  # the refused key did not score the next run
        assert len(records(root)) == 1


async def test_a_save_that_fails_keeps_the_scores_and_enter_tries_again(
    root: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    order = queue_of(root)
    append = ratings_store.append_lines

    def full_disk(*args, **kwargs):
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(ratings_store, "append_lines", full_disk)
    app = rate_app(root)
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await session_screen(pilot)
        await pilot.press(*"12345")
        await wait_until(pilot, lambda: not screen.busy)
        assert "Not saved" in screen.status and "No space left" in screen.status
        assert screen.status.endswith("enter tries again")
        assert screen.state is not None and screen.state.current is not None
        assert screen.state.current.run_key == order[0]
        assert screen.draft.complete
        monkeypatch.setattr(ratings_store, "append_lines", append)
        await rate(pilot, screen, "enter")
        [written] = records(root)
        assert pair(written) == order[0]
        assert written["scores"] == dict(zip(DIMENSIONS, [1, 2, 3, 4, 5], strict=True))


def _fail_once(monkeypatch: pytest.MonkeyPatch, part: int) -> None:
    """The next append writes `part` bytes of its lines, then fails as a full disk does."""
    append = ratings_store.append_lines

    def failing(ws, rel, lines, *, shown=None):
        with open(ws.abs(rel), "ab") as handle:
            handle.write("".join(line.rstrip("\n") + "\n" for line in lines).encode()[:part])
        monkeypatch.setattr(ratings_store, "append_lines", append)
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(ratings_store, "append_lines", failing)


async def test_after_a_save_that_left_part_of_a_line_the_next_says_its_real_line(
    root: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    _fail_once(monkeypatch, 20)
    app = rate_app(root)
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await session_screen(pilot)
        await pilot.press(*"12345")
        await wait_until(pilot, lambda: not screen.busy and "Not saved" in screen.status)
        await rate(pilot, screen, "enter")
        assert f"line 2 of {MINE}" in screen.status
        lines = (root / MINE).read_text().split("\n")
        assert json.loads(lines[1])["scores"]["correctness"] == 1  # line 1: the torn piece


async def test_a_failed_undo_says_which_key_tries_again_and_that_key_does(
    root: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    order = queue_of(root)
    app = rate_app(root)
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await session_screen(pilot)
        await rate(pilot, screen, "55555")
        _fail_once(monkeypatch, 0)
        await pilot.press("u")
        await wait_until(pilot, lambda: not screen.busy and "No space" in screen.status)
        assert "enter" not in screen.status
        assert "Not undone" in screen.status and "u tries again" in screen.status
        await pilot.press("enter")  # does nothing: nothing of the draft is complete
        await pilot.pause()
        assert len(records(root)) == 1
        await rate(pilot, screen, "u")
        assert [r["scores"] for r in records(root)][1] is None
        assert screen.state is not None and screen.state.current is not None
        assert screen.state.current.run_key == order[0]


# --- blind ----------------------------------------------------------------------------------------


def _agents(root: Path) -> set[str]:
    import yaml

    found = set()
    for path in root.glob("fixtures/*/*/runs/*.yaml"):
        data = yaml.safe_load(path.read_text())
        found.add(data["agent"])
        found.add(str(data.get("metadata", {}).get("model", data["agent"])))
    return found


async def test_blind_never_shows_the_agent_nor_the_run_id(root: Path) -> None:
    agents = _agents(root)
    assert agents  # the sample has labelled runs
    app = rate_app(root)
    async with app.run_test(size=(160, 50)) as pilot:
        screen = await session_screen(pilot)
        for _ in range(3):
            assert screen.state is not None and screen.state.current is not None
            shown = app.export_screenshot()
            run_id = screen.state.current.run_id
            assert not [a for a in agents if a in shown]
            assert run_id not in shown
            await rate(pilot, screen, "33333")
        assert {r["blind"] for r in records(root)} == {True}


async def test_no_blind_shows_the_agent_and_records_blind_false(root: Path) -> None:
    app = rate_app(root, blind=False)
    async with app.run_test(size=(160, 50)) as pilot:
        screen = await session_screen(pilot)
        assert screen.state is not None and screen.state.current is not None
        # not blind: by fixture path, then run
        assert screen.state.current.run_key == queue_of(root, blind=False)[0]
        shown = app.export_screenshot()
        assert "agent&#160;agent-a" in shown or "agent agent-a" in shown
        await rate(pilot, screen, "33333")
        assert records(root)[0]["blind"] is False


# --- the clock ------------------------------------------------------------------------------------


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


async def test_time_away_is_not_time_on_the_item(root: Path) -> None:
    clock = Clock()
    app = VoyageApp(Workspace.load(root), AppSettings(use_git=False, watch=False, keymap={}))
    async with app.run_test(size=(120, 40)) as pilot:
        await wait_loaded(pilot)
        app.push_screen(RateScreen("me", clock=clock))
        screen = await session_screen(pilot)
        clock.now += 10
        app.app_suspend_signal.publish(app)  # ctrl+z, or $EDITOR
        clock.now += 600
        app.app_resume_signal.publish(app)
        clock.now += 5
        app.push_screen(AgreementScreen())  # another screen on top
        await wait_until(pilot, lambda: isinstance(app.screen, AgreementScreen))
        await pilot.pause()
        clock.now += 300
        await pilot.press("escape")
        await wait_until(pilot, lambda: app.screen is screen)
        await pilot.pause()
        clock.now += 2
        await rate(pilot, screen, "33333")
        assert records(root)[0]["duration_s"] == 17.0


# --- what stops a session ------------------------------------------------------------------------


async def test_a_name_that_cannot_be_a_file_name_says_why(root: Path) -> None:
    app = rate_app(root, rater="a/b")
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await session_screen(pilot)
        assert screen.session is None
        assert screen.problem is not None and "cannot be used" in screen.problem
        await pilot.press("5")  # no session: the key does nothing
        assert records(root) == []


async def test_a_name_too_long_in_bytes_says_why_and_writes_nothing(root: Path) -> None:
    app = rate_app(root, rater="\U0001f600" * 64)  # 64 characters, 256 bytes
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await session_screen(pilot)
        assert screen.session is None
        assert screen.problem is not None and "bytes" in screen.problem
        message = str(screen.query_one("#rate-message").content)
        assert "No rater session" in message and "over 128 bytes" in message
        assert sorted(p.name for p in (root / MINE).parent.iterdir()) == [
            "alice.jsonl",
            "bob.jsonl",
            "carol.jsonl",
        ]


async def test_a_ratings_file_that_cannot_be_read_stops_the_session(root: Path) -> None:
    (root / MINE).mkdir()  # not a regular file: refused as unreadable, even for root
    app = rate_app(root)
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await session_screen(pilot)
        assert screen.session is None
        assert screen.problem is not None and "cannot be read" in screen.problem


async def test_a_ratings_file_that_is_no_ratings_stops_the_session_and_says_why(
    root: Path,
) -> None:
    script = b"# This file must be used with source bin/activate\nexport PATH=/x:$PATH\n"
    (root / MINE).write_bytes(script)
    app = rate_app(root)
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await session_screen(pilot)
        assert screen.session is None
        assert screen.problem is not None
        assert f"{MINE} is not a ratings file: line 1 is not JSON" in screen.problem
        message = str(screen.query_one("#rate-message").content)
        assert "No rater session" in message and "not a ratings file" in message
        await pilot.press(*"55555")
        await pilot.pause()
    assert (root / MINE).read_bytes() == script


async def test_every_run_rated_says_so_and_u_still_undoes(root: Path) -> None:
    order = queue_of(root)
    app = rate_app(root)
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await session_screen(pilot)
        for _ in order:
            await rate(pilot, screen, "33333")
        assert screen.state is not None and screen.state.current is None
        assert screen.state.progress == "12/12 rated"
        message = str(screen.query_one("#rate-message").content)
        assert "Every agent run is rated" in message
        await pilot.press("5")
        await rate(pilot, screen, "u")
        assert screen.state.current is not None and screen.state.current.run_key == order[-1]
        assert len(records(root)) == len(order) + 1


# --- the ways in ----------------------------------------------------------------------------------


async def test_s_in_the_browser_opens_the_session_as_the_rater_given(root: Path) -> None:
    app = rate_app(root)
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await session_screen(pilot)
        await pilot.press("escape")
        await wait_until(pilot, lambda: not isinstance(app.screen, RateScreen))
        await pilot.press("s")
        again = await session_screen(pilot)
        assert again is not screen and again.rater == "me"


async def test_the_palette_holds_rating_and_agreement() -> None:
    from voyage_tui.app.actions import palette_actions

    actions = {a.palette: a.action for a in palette_actions("app")}
    assert actions["Rate agent runs"] == "rate_session"
    assert actions["Rater agreement"] == "agreement"
    assert callable(VoyageApp.action_rate_session) and callable(VoyageApp.action_agreement)


async def test_the_ratings_files_are_in_the_tree_with_their_problems(root: Path) -> None:
    bob = root / "fixtures/ratings/bob.jsonl"
    bob.write_text(bob.read_text() + '{"fixture_id": "nope"}\n')
    app = VoyageApp(Workspace.load(root), AppSettings(use_git=False, watch=False, keymap={}))
    async with app.run_test(size=(120, 40)) as pilot:
        browser = await wait_loaded(pilot)
        tree = browser.suite_tree
        assert tree.select_path("fixtures/ratings/alice.jsonl")
        assert "fixtures/ratings/bob.jsonl" in [i.path for i in tree.ordered_items()]
        errors_at = tree.find_error()
        assert errors_at == "fixtures/ratings/bob.jsonl"
        labels = [str(node.label) for node in tree.root.children]
        assert any(label.startswith("Ratings") for label in labels)

        app.reveal("fixtures/ratings/bob.jsonl")
        listing = browser.query_one(DiagnosticsList)
        await wait_until(pilot, lambda: bool(listing.diagnostics))
        assert {d.code for d in listing.diagnostics} == {"rating-missing-field"}
        pane = browser.query_one(DetailPane)

        def shown() -> str:
            return " ".join(str(w.content) for w in pane.query(Static))

        await wait_until(pilot, lambda: "bob.jsonl" in shown())
        await pilot.pause(0.2)
        assert "Not loaded" not in shown()  # JSON lines are not read as one YAML document


async def test_a_fifo_in_the_ratings_folder_is_in_the_tree_with_its_error_never_opened(
    root: Path,
) -> None:
    import os

    os.mkfifo(root / "fixtures/ratings/pipe.jsonl")
    app = VoyageApp(Workspace.load(root), AppSettings(use_git=False, watch=False, keymap={}))
    async with app.run_test(size=(120, 40)) as pilot:
        browser = await wait_loaded(pilot)
        app.reveal("fixtures/ratings/pipe.jsonl")  # the detail pane reads it: it must not wait
        listing = browser.query_one(DiagnosticsList)
        await wait_until(pilot, lambda: bool(listing.diagnostics))
        assert {d.code for d in listing.diagnostics} == {"not-a-regular-file"}
        await pilot.pause(0.2)
