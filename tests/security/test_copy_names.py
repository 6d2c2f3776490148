"""What the app copies to the clipboard, from names a branch chose.

`c` copies the selected item's path, and `c` in the problems list copies a diagnostic. A folder
named with a line break and a shell command put that line break on the clipboard, to be pasted
into a terminal (where it runs the command); an ESC went along too. Copies are escaped as the
screen shows them, one line, no control character.
"""

from __future__ import annotations

from pathlib import Path

from tests.app.support import make_app, wait_loaded, wait_until
from tests.conftest import task_yaml
from voyage_tui.app.widgets.diagnostics_list import DiagnosticsList

NAME = "t1\ntouch pwned\n\x1b]0;title\x07\u202e[b]"
SHOWN = "t1\\x0atouch pwned\\x0a\\x1b]0;title\\x07\\u202e[b]"


async def test_a_copied_path_or_diagnostic_holds_no_line_break_or_control(
    make_workspace,
) -> None:
    rel = f"fixtures/bug-diagnosis/{NAME}/task.yaml"
    broken = task_yaml("t1").replace("expected_boundary: unit", "expected_boundary: unitt")
    root: Path = make_workspace({rel: broken})
    app = make_app(root)
    async with app.run_test(size=(120, 40)) as pilot:
        browser = await wait_loaded(pilot)
        assert browser.suite_tree.select_path(rel)
        await pilot.press("c")
        assert app.clipboard == f"fixtures/bug-diagnosis/{SHOWN}/task.yaml"
        # looked at now: the note goes after two seconds, which a loaded machine can take below
        assert any(
            str(n.message) == f"Copied fixtures/bug-diagnosis/{SHOWN}/task.yaml"
            for n in app._notifications
        )
        listing = browser.query_one("#item-diagnostics", DiagnosticsList)
        await wait_until(pilot, lambda: bool(listing.diagnostics))
        await pilot.press("d", "c")
        await wait_until(pilot, lambda: "task.yaml:" in app.clipboard)
        assert app.clipboard.startswith(f"fixtures/bug-diagnosis/{SHOWN}/task.yaml:")
        assert "\n" not in app.clipboard and "\x1b" not in app.clipboard
