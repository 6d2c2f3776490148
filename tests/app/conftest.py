"""Every app test: the error log and recovery files go to the test's own folder, and an error
the app reported and survived still fails the test unless the test expected it (and cleared
`app.reported_errors`): the app no longer stops on them, so the tests must look."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from voyage_tui.app.resilience import Resilient


@pytest.fixture(autouse=True)
def private_state(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path / "state"))
    apps: list[Resilient] = []
    report = Resilient.report_error

    def noted(self: Resilient, error: BaseException, context: str) -> None:
        apps.append(self)
        report(self, error, context)

    monkeypatch.setattr(Resilient, "report_error", noted)
    yield
    left = [
        error for app in {id(app): app for app in apps}.values() for error in app.reported_errors
    ]
    if left:
        pytest.fail(f"the app reported errors the test did not expect: {left!r}")
