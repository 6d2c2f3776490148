"""The app as the command line opens it, recorded instead of run: the one fake app of the tests.

Every command that opens the app goes through cli/common.py (`prepare_for_app`, then
`VoyageApp(ws, settings, start).run()`); a test that asks only what the command line decided
(the settings, the watcher handed over, the order of the start) replaces both here."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import asdict
from pathlib import Path
from typing import Any

import pytest

from voyage_tui.app.settings import AppSettings
from voyage_tui.engine.validation.live import LiveStart


def record_openings(
    monkeypatch: pytest.MonkeyPatch,
    *,
    on_prepare: Callable[[], None] | None = None,
    on_cancel: Callable[[], None] | None = None,
) -> list[dict[str, Any]]:
    """Each opening of the app as {"root", every AppSettings field, "watcher", "start"};
    `on_prepare` and `on_cancel` are told when the first load is started and cancelled."""
    import voyage_tui.app
    from voyage_tui.cli import common

    calls: list[dict[str, Any]] = []

    class Prepared:
        def cancel(self) -> None:
            if on_cancel is not None:
                on_cancel()

    def prepare(*args: object, **kwargs: object) -> Prepared:
        if on_prepare is not None:
            on_prepare()
        return Prepared()

    class FakeApp:
        def __init__(self, ws: Any, settings: AppSettings, start: LiveStart) -> None:
            calls.append(
                {
                    "root": Path(ws.root),
                    **asdict(settings),
                    "watcher": start.watcher,
                    "start": start,
                }
            )

        def run(self) -> int:
            return 0

    monkeypatch.setattr(voyage_tui.app, "VoyageApp", FakeApp)
    monkeypatch.setattr(common, "prepare_for_app", prepare)
    return calls
