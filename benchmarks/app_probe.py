"""Run the app headless the way `voyage-tui PATH` does and report timings as JSON.

    python -m benchmarks.app_probe WORKSPACE [--change REL]

It starts the app as `voyage-tui PATH` does (cli/common.py: the watcher, the first load, the
first screen the last run recorded), headless, at 120x40.

first_screen: from the start of this script (before any import) to the first full screen on
the terminal: the header's counts and the tree's groups, from the recorded first screen when
there is one (a warm start), else the tree drawn from the listing (a cold start: a screen a
person can move in, filter and open files from while the files are checked). loaded: to the
loaded suite on screen (every file checked, or found unchanged in the validation cache: every
count). change_to_header: from
writing a broken version of REL to the header showing the new error count.
"""

from __future__ import annotations

import time

START = time.perf_counter()

import argparse  # noqa: E402
import json  # noqa: E402
import re  # noqa: E402
import sys  # noqa: E402
from pathlib import Path  # noqa: E402

from voyage_tui.cli.common import start_first_load  # noqa: E402
from voyage_tui.engine.workspace.model import Workspace  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("workspace")
    parser.add_argument("--change", default=None)
    parser.add_argument(
        "--cache", action="store_true", help="use (and fill) the validation cache, as by default"
    )
    args = parser.parse_args()
    ws = Workspace.load(args.workspace)
    load = start_first_load(ws, use_git=False, watch=True, cache=args.cache)

    from voyage_tui.app.app import VoyageApp
    from voyage_tui.app.messages import SuiteChanged, SuiteLoaded
    from voyage_tui.app.settings import AppSettings

    result: dict[str, float] = {}

    class Probe(VoyageApp):
        def first_screen_painted(self) -> None:
            result["first_screen"] = time.perf_counter() - START

        def on_suite_loaded(self, message: SuiteLoaded) -> None:
            if "loaded" not in result:
                self.call_after_refresh(self._loaded)

        def on_mount(self) -> None:
            self.set_timer(120, lambda: self.exit(1))  # never hang a benchmark run

        def _loaded(self) -> None:
            result["loaded"] = time.perf_counter() - START
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

    settings = AppSettings(use_git=False, watch=True, cache=args.cache, keymap={})
    app = Probe(ws, settings, load)
    try:
        app.run(headless=True, size=(120, 40))
    finally:
        load.close()
    json.dump(result, sys.stdout)


if __name__ == "__main__":
    main()
