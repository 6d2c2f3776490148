"""A workspace whose own name is hostile or not UTF-8 reaches the screen as visible escapes, and
nothing the app draws can stop the web driver (under `serve`, a lone surrogate in one frame used
to end the whole app)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from textual.app import App, ComposeResult
from textual.drivers.web_driver import WebDriver

from tests.app.support import header_text, make_app, wait_loaded
from tests.conftest import task_yaml
from voyage_tui.app.app import VoyageApp
from voyage_tui.app.widgets.suite_header import SuiteHeader

HOSTILE = os.fsdecode(b"ws [b]bold[/b] \x1b]0;owned\x07 \xff")


class _HeaderApp(App[None]):
    def compose(self) -> ComposeResult:
        yield SuiteHeader()


async def test_the_loading_header_shows_the_name_as_escapes_not_markup() -> None:
    app = _HeaderApp()
    async with app.run_test() as pilot:
        header = app.query_one(SuiteHeader)
        header.show_loading(3, 10, HOSTILE)
        await pilot.pause()
        shown = str(header.content)
        assert "[b]bold[/b]" in shown
        assert "\\x1b" in shown and "\x1b" not in shown
        assert "\\udcff" in shown
        shown.encode("utf-8")


async def test_the_loaded_header_shows_a_name_that_is_not_utf8_as_an_escape(
    tmp_path: Path,
) -> None:
    root = tmp_path / HOSTILE
    (root / "fixtures/bug-diagnosis/t1").mkdir(parents=True)
    (root / "fixtures/bug-diagnosis/t1/task.yaml").write_text(task_yaml("t1"), encoding="utf-8")
    app = make_app(root)
    async with app.run_test(size=(120, 40)) as pilot:
        await wait_loaded(pilot)
        shown = header_text(app)
        assert "1 fixture" in shown
        assert "\\udcff" in shown and "\\x1b" in shown
        shown.encode("utf-8")


def test_the_web_driver_writes_a_lone_surrogate_as_an_escape_instead_of_failing(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr("textual.constants.DRIVER", "textual.drivers.web_driver:WebDriver")
    driver_class = VoyageApp.get_driver_class(object.__new__(VoyageApp))
    assert issubclass(driver_class, WebDriver)
    sent: list[bytes] = []
    driver = object.__new__(driver_class)
    driver._write = sent.append  # type: ignore[method-assign]
    driver.write("name \udcff end")
    assert sent and b"\\udcff" in sent[0]
    assert sent[0].decode("utf-8")


def test_outside_serve_the_driver_is_textuals_own(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("textual.constants.DRIVER", None)
    driver_class = VoyageApp.get_driver_class(object.__new__(VoyageApp))
    assert driver_class is App.get_driver_class(object.__new__(App))
