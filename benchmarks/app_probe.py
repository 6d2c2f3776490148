"""Run the app headless the way `voyage-tui PATH` does and report timings as JSON.

    python -m benchmarks.app_probe WORKSPACE [--change REL]

first_screen: from the start of this script (before any import) to the first full screen with
the whole suite loaded (the browser's tree drawn). change_to_header: from writing a broken
version of REL to the header showing the new error count, with the watcher on.
"""

from __future__ import annotations

import time

START = time.perf_counter()

import argparse  # noqa: E402
import json  # noqa: E402
import re  # noqa: E402
import sys  # noqa: E402
from pathlib import Path  # noqa: E402

from voyage_tui.cli.common import arm_watcher, prepare_for_app  # noqa: E402
from voyage_tui.engine.workspace.model import Workspace  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("workspace")
    parser.add_argument("--change", default=None)
    parser.add_argument("--cache", action="store_true", help="use (and fill) the item cache")
    args = parser.parse_args()
    ws = Workspace.load(args.workspace)
    # As open_cmd does: the watcher armed before the first load lists the files.
    watcher = arm_watcher(ws, args.change is not None)
    prepared = prepare_for_app(ws, use_git=False, cache=args.cache)

    from voyage_tui.app.app import VoyageApp
    from voyage_tui.app.messages import SuiteChanged, SuiteLoaded

    result: dict[str, float] = {}

    class Probe(VoyageApp):
        def on_suite_loaded(self, message: SuiteLoaded) -> None:
            self.call_after_refresh(self._first_screen)

        def on_mount(self) -> None:
            self.set_timer(120, lambda: self.exit(1))  # never hang a benchmark run

        def _first_screen(self) -> None:
            result["first_screen"] = time.perf_counter() - START
            result["items"] = len(self.view.items) if self.view else 0
            if args.change is None:
                self.set_timer(
                    0.5 if args.cache else 0.01, lambda: self.exit(0)
                )  # let the cache be written
                return
            self.set_timer(1.0, self._change)  # let the watcher settle

        def _change(self) -> None:
            path = Path(ws.abs(args.change))
            self._errors_before = self.view.summary.errors if self.view else 0
            self._changed_at = time.perf_counter()
            text = re.sub(
                r"(?m)^expected_boundary: .*$",
                "expected_boundary: nowhere",
                path.read_text(),
                count=1,
            )
            path.write_text(text)

        def on_suite_changed(self, message: SuiteChanged) -> None:
            if (
                getattr(self, "_changed_at", None)
                and message.view.summary.errors > self._errors_before
            ):
                self.call_after_refresh(self._header_updated)

        def _header_updated(self) -> None:
            result["change_to_header"] = time.perf_counter() - self._changed_at
            self.exit(0)

    app = Probe(
        ws,
        use_git=False,
        watch=args.change is not None,
        keymap={},
        prepared=prepared,
        watcher=watcher,
    )
    app.run(headless=True, size=(120, 40))
    prepared.cancel()
    if watcher is not None:
        watcher.close()
    json.dump(result, sys.stdout)


if __name__ == "__main__":
    main()
