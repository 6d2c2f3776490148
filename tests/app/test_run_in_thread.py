"""The screens' one way to work off the UI thread (VoyageScreen.run_in_thread): a result is
shown only while it is wanted, and a failure is reported, not lost."""

from __future__ import annotations

import asyncio
import threading
from pathlib import Path

from textual.app import ComposeResult
from textual.widgets import Static

from tests.app.support import make_app, wait_loaded, wait_until
from voyage_tui.app.screens.base import VoyageScreen


class Probe(VoyageScreen[None]):
    def __init__(self) -> None:
        super().__init__()
        self.shown: list[str] = []

    def compose(self) -> ComposeResult:
        yield Static("probe")

    def show(self, result: str) -> None:
        self.shown.append(result)


def _waiting(gate: threading.Event, result: str) -> str:
    assert gate.wait(10)
    return result


async def test_a_result_superseded_by_a_newer_call_is_dropped(sample_copy: Path) -> None:
    app = make_app(sample_copy)
    async with app.run_test() as pilot:
        await wait_loaded(pilot)
        screen = Probe()
        await app.push_screen(screen)
        gate = threading.Event()
        screen.run_in_thread(lambda: _waiting(gate, "old"), screen.show, key="queue")
        screen.run_in_thread(lambda: "new", screen.show, key="queue")
        await wait_until(pilot, lambda: screen.shown == ["new"])
        assert screen.working == 1
        gate.set()
        await wait_until(pilot, lambda: screen.working == 0)
        assert screen.shown == ["new"]  # the older result came last and was dropped


async def test_calls_without_a_key_all_arrive_and_stale_drops_one(sample_copy: Path) -> None:
    app = make_app(sample_copy)
    async with app.run_test() as pilot:
        await wait_loaded(pilot)
        screen = Probe()
        await app.push_screen(screen)
        screen.run_in_thread(lambda: "a", screen.show)
        screen.run_in_thread(lambda: "b", screen.show)
        screen.run_in_thread(lambda: "c", screen.show, stale=lambda: True)
        await wait_until(pilot, lambda: screen.working == 0)
        assert sorted(screen.shown) == ["a", "b"]


async def test_a_result_after_the_screen_closed_is_dropped(sample_copy: Path) -> None:
    app = make_app(sample_copy)
    async with app.run_test() as pilot:
        await wait_loaded(pilot)
        screen = Probe()
        await app.push_screen(screen)
        gate, started = threading.Event(), threading.Event()

        def late() -> str:
            started.set()
            return _waiting(gate, "late")

        screen.run_in_thread(late, screen.show)
        await wait_until(pilot, started.is_set)  # (a job not started yet is cancelled)
        app.pop_screen()
        await pilot.pause()
        gate.set()
        await wait_until(pilot, lambda: screen.working == 0)
        assert screen.shown == []


async def test_an_exception_in_the_job_is_reported_and_then_not_called(sample_copy: Path) -> None:
    app = make_app(sample_copy)
    async with app.run_test() as pilot:
        await wait_loaded(pilot)
        screen = Probe()
        await app.push_screen(screen)

        def broken() -> str:
            raise OSError("disk gone")

        screen.run_in_thread(broken, screen.show)
        await wait_until(pilot, lambda: screen.working == 0)
        assert screen.shown == []
        assert [str(e) for e in app.reported_errors] == ["disk gone"]
        app.reported_errors.clear()
        assert app.is_running  # reported, and the app carries on


async def test_an_exclusive_step_runs_alone_and_busy_lasts_until_its_result_is_shown(
    sample_copy: Path,
) -> None:
    app = make_app(sample_copy)
    async with app.run_test() as pilot:
        await wait_loaded(pilot)
        screen = Probe()
        await app.push_screen(screen)
        gate = threading.Event()
        busy_while_shown: list[bool] = []

        async def show_slowly(result: str) -> None:
            await asyncio.sleep(0.05)  # a `then` that awaits (the rater draws the next pair so)
            busy_while_shown.append(screen.busy)
            screen.show(result)

        assert not screen.busy
        first = screen.run_in_thread(lambda: _waiting(gate, "one"), show_slowly, exclusive=True)
        assert first is not None and screen.busy
        refused = screen.run_in_thread(lambda: "two", screen.show, exclusive=True)
        assert refused is None  # one step at a time: the second is refused, not queued
        screen.run_in_thread(lambda: "free", screen.show)  # not exclusive: runs meanwhile
        await wait_until(pilot, lambda: screen.shown == ["free"])
        assert screen.busy
        gate.set()
        await wait_until(pilot, lambda: not screen.busy)
        assert screen.shown == ["free", "one"] and busy_while_shown == [True]
        assert screen.working == 0

        def broken() -> str:
            raise OSError("disk gone")

        assert screen.run_in_thread(broken, screen.show, exclusive=True) is not None
        await wait_until(pilot, lambda: not screen.busy)  # a failed step frees the screen too
        assert [str(e) for e in app.reported_errors] == ["disk gone"]
        app.reported_errors.clear()
        assert screen.run_in_thread(lambda: "three", screen.show, exclusive=True) is not None
        await wait_until(pilot, lambda: not screen.busy and screen.shown[-1] == "three")
