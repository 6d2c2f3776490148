"""The watchfiles private name the watcher uses (voyage_tui/engine/watcher.py PRIVATE_NAMES)
still exists, and still starts as the watcher starts it, on the pinned watchfiles: an upgrade that
renames or changes it fails here, naming it, as the Textual ones do
(tests/app/test_textual_private.py)."""

from __future__ import annotations

import importlib
import threading
from pathlib import Path

import pytest
import watchfiles

from tests.conftest import REPO
from voyage_tui.engine import watcher
from voyage_tui.engine.watcher import PRIVATE_NAMES, open_notifier


@pytest.mark.parametrize(("owner", "name"), PRIVATE_NAMES)
def test_each_private_name_exists(owner: str, name: str) -> None:
    assert hasattr(importlib.import_module(owner), name), (
        f"watchfiles {watchfiles.__version__} has no {owner}.{name}: "
        "voyage_tui/engine/watcher.py (open_notifier) must be adapted to this watchfiles"
    )


def test_the_notifier_starts_records_a_change_and_times_out_as_the_watcher_asks(
    tmp_path: Path,
) -> None:
    for polling in (False, True):
        folder = tmp_path / f"polling-{polling}"
        folder.mkdir()
        notifier = open_notifier([str(folder)], polling)
        try:
            stop = threading.Event()
            assert notifier.watch(50, 50, 200, stop) == "timeout"
            (folder / "a.yaml").write_text("x")
            found = notifier.watch(50, 50, 5_000, stop)
            assert isinstance(found, set), found
            paths = {path for _, path in found}
            # polling may also see the folder itself change (its mtime), when the poll falls
            # between the file's creation and its write
            assert str(folder / "a.yaml") in paths, paths
            assert paths <= {str(folder / "a.yaml"), str(folder)}, paths
        finally:
            notifier.close()


def test_no_other_module_uses_a_private_name_of_watchfiles() -> None:
    root = REPO / "voyage_tui"
    offenders = [
        str(path.relative_to(root))
        for path in root.rglob("*.py")
        if path != Path(watcher.__file__) and "watchfiles._" in path.read_text(encoding="utf-8")
    ]
    assert offenders == []
