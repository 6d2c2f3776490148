"""Text from the workspace never reaches the terminal as control sequences: an escape character
in a prompt, an agent's output, a gold file, a rater's note or a folder's name would otherwise
let the workspace colour, retitle or write to the clipboard of the person's terminal (OSC 52), and
bidi overrides would reorder what is shown. Every line the browser draws, on every item and in
its detail pane, is checked for them."""

from __future__ import annotations

import json
from pathlib import Path

from tests.app.support import make_app, wait_loaded
from tests.fast_textual import screen_text
from tests.sample import copy_sample_into
from voyage_tui.app.widgets.suite_tree import SuiteTree

ESC_YAML = r"\e]52;c;cHduZWQ=\a\e[31mRED\e[0m \u202eevil"
ESC_TEXT = "\x1b]52;c;cHduZWQ=\x07\x1b[31mRED\x1b[0m \u202eevil"
FORBIDDEN = ("\x1b", "\x07", "\u202e")


def hostile_workspace(tmp_path: Path) -> Path:
    root = tmp_path / "ws"
    copy_sample_into(root)
    task = root / "fixtures/bug-diagnosis/pagination-last-page-dropped/task.yaml"
    text = task.read_text(encoding="utf-8")
    text += f'notes: "{ESC_YAML}"\n'
    task.write_text(text, encoding="utf-8")
    (root / "fixtures/bug-diagnosis/esc-prompt").mkdir()
    (root / "fixtures/bug-diagnosis/esc-prompt/task.yaml").write_text(
        "id: esc-prompt\nclass: bug-diagnosis\n"
        f'prompt: "{ESC_YAML}"\nground_truth: "{ESC_YAML}"\n'
        f'expected_boundary: "{ESC_YAML}"\nvisibility: public\n',
        encoding="utf-8",
    )
    run = root / "fixtures/bug-diagnosis/pagination-last-page-dropped/runs/run-a1.yaml"
    run.write_text(run.read_text(encoding="utf-8").replace("## Cause", f"## {ESC_YAML}"))
    ratings = root / "fixtures/ratings/alice.jsonl"
    lines = ratings.read_text(encoding="utf-8").splitlines()
    record = json.loads(lines[0])
    record["note"] = ESC_TEXT
    lines[0] = json.dumps(record)
    ratings.write_text("\n".join(lines) + "\n", encoding="utf-8")
    gold = root / "fixtures/gold/jwt-auth/gold.json"
    data = json.loads(gold.read_text(encoding="utf-8"))
    data["description"] = ESC_TEXT
    gold.write_text(json.dumps(data, indent=2), encoding="utf-8")
    odd = root / "fixtures/refactor" / "esc\x1b[31mname"
    odd.mkdir(parents=True)
    (odd / "task.yaml").write_text("id: [unclosed\n", encoding="utf-8")
    return root


async def test_no_line_the_browser_draws_holds_a_control_sequence(tmp_path: Path) -> None:
    app = make_app(hostile_workspace(tmp_path))
    async with app.run_test(size=(140, 50)) as pilot:
        browser = await wait_loaded(pilot)
        tree = browser.query_one(SuiteTree)
        tree.root.expand_all()
        await pilot.pause()
        seen = set()
        for _ in range(tree.last_line + 1):  # every line of the tree, each item's detail with it
            await pilot.press("down")
            await pilot.pause()
            screen = screen_text(app)
            seen.add(screen)
            bad = [c for c in FORBIDDEN if c in screen]
            assert not bad, (bad, screen)
        # The hostile text was shown, escaped: from the prompt, the agent's output, the gold
        # file, the rater's note, and the folder's name.
        shown = "\n".join(seen)
        assert shown.count("\\x1b[31mRED") >= 4, shown
        assert "esc\\x1b[31mname" in shown


async def test_no_line_the_other_screens_draw_holds_a_control_sequence(tmp_path: Path) -> None:
    from voyage_tui.app.screens.diff import DiffScreen
    from voyage_tui.app.screens.rate import RateScreen
    from voyage_tui.app.screens.runs import RunsScreen
    from voyage_tui.app.screens.triage import TriageScreen

    app = make_app(hostile_workspace(tmp_path))
    gold = "fixtures/gold/jwt-auth/gold.json"
    screens = [
        lambda: RateScreen("alice", blind=False),
        TriageScreen,
        lambda: RunsScreen(gold),
        lambda: DiffScreen(gold, "fixtures/gold/jwt-auth/runs/run-perfect.json"),
    ]
    async with app.run_test(size=(140, 50)) as pilot:
        await wait_loaded(pilot)
        for make in screens:
            await app.push_screen(make())
            for _ in range(12):  # move through what the screen lists
                await pilot.pause(0.05)
                screen = screen_text(app)
                bad = [c for c in FORBIDDEN if c in screen]
                assert not bad, (type(app.screen).__name__, bad, screen)
                await pilot.press("down")
            app.pop_screen()
            await pilot.pause()


async def test_the_editor_keeps_an_escape_in_the_document_and_never_draws_it(
    tmp_path: Path,
) -> None:
    """An editing widget cannot escape its text (it is the person's document): the app's line
    filter drops what the terminal would act on from what is drawn, and the buffer and the saved
    file keep every character."""
    from voyage_tui.app.screens.editor import EditorScreen

    root = hostile_workspace(tmp_path)
    readme = root / "fixtures/gold/jwt-auth/README.md"
    readme.write_text(f"# Notes\n\n{ESC_TEXT}\n", encoding="utf-8")
    app = make_app(root)
    async with app.run_test(size=(140, 50)) as pilot:
        await wait_loaded(pilot)
        editor = EditorScreen("fixtures/gold/jwt-auth/README.md")
        await app.push_screen(editor)
        await pilot.pause(0.2)
        assert ESC_TEXT in editor.text_area.text
        screen = screen_text(app)
        assert "[31mRED" in screen
        assert not [c for c in FORBIDDEN if c in screen], screen
