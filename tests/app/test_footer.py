"""Nothing important is cut at 80x24 (issue 22 item 4): every screen's footer keeps quit and help
and the screen's primary action, and drops the least important keys first when it is short. What
is kept is decided once, by the registry's `keep` (voyage_tui/app/actions.py). And the focused
pane has a frame of its own (item 1), set once for every screen in styles/app.tcss."""

from __future__ import annotations

from pathlib import Path

import pytest
from textual.app import App
from textual.color import Color
from textual.dom import DOMNode
from textual.strip import Strip
from textual.widget import Widget
from textual.widgets import Footer
from textual.widgets._footer import FooterKey

from tests.app.scenarios import SCENARIOS, Scenario, copy_sample, scenario_app, wait_for
from voyage_tui.app.app import VoyageApp

SMALL = (80, 24)


def _one_per_screen() -> list[Scenario]:
    """A scenario per screen and state: those that share their steps (the same screen at
    another size) and the diffs of the other runs are the same footer."""
    seen: set[object] = set()
    chosen = []
    for scenario in SCENARIOS:
        if scenario.steps in seen or (
            scenario.name.startswith("diff-run-") and scenario.name != "diff-run-invents"
        ):
            continue
        seen.add(scenario.steps)
        chosen.append(scenario)
    return chosen


SCREENS = _one_per_screen()


def bottom_line(app: VoyageApp) -> str:
    strips: list[Strip] = app.screen._compositor.render_strips()
    return strips[-1].text


def shown_key(app: VoyageApp, action_id: str) -> str:
    """`^q Quit`: the key (as the keymap has it) and its word, as the footer writes them."""
    from voyage_tui.app.actions import action

    a = action(action_id)
    return f"{app.get_key_display(a.binding())} {a.description}"


def framed(widget: Widget) -> bool:
    return widget.styles.border.top[0] == "round"


def assert_the_focused_pane_is_framed_in_the_accent(app: VoyageApp) -> None:
    """The pane that holds the focus is framed in the accent colour, every other pane in
    another colour."""
    accent = Color.parse(app.theme_variables["accent"])
    panes = [w for w in app.screen.query("*") if framed(w)]
    focused = app.focused
    assert focused is not None and panes, "a screen of panes, one of them focused"
    holder = next((w for w in focused.ancestors_with_self if w in panes), None)
    assert holder is not None, f"{focused!r} is in no framed pane"
    for pane in panes:
        colour = pane.styles.border.top[1]
        assert (colour == accent) is (pane is holder), f"{pane!r}: {colour} ({holder!r} holds it)"


@pytest.mark.parametrize("scenario", SCREENS, ids=[s.name for s in SCREENS])
async def test_at_80x24_the_footer_keeps_quit_and_help_and_the_focused_pane_is_framed(
    scenario: Scenario, tmp_path: Path
) -> None:
    root = copy_sample(tmp_path)
    if scenario.prepare is not None:
        scenario.prepare(root)
    app = scenario_app(root, git=scenario.git)
    async with app.run_test(size=SMALL) as pilot:
        await scenario.steps(pilot)
        await pilot.pause()
        line = bottom_line(app)
        footers = app.screen.query(Footer)
        if app.screen.is_modal:
            # A dialog asks one question: the app's keys but ctrl+q do not reach it, and its
            # answers are its buttons. Where it has a footer, cancelling stays in it.
            if footers:
                assert shown_key(app, "dialog.cancel").split()[1] in line, line
            return
        assert shown_key(app, "app.quit") in line, line
        assert shown_key(app, "app.help") in line, line
        # Every key shown is whole: none runs under the palette's key or off the screen.
        footer = footers.only_one()
        keys = [k for k in footer.query(FooterKey) if k.display]
        palette = [k for k in keys if k.has_class("-command-palette")]
        right = palette[0].region.x if palette else footer.region.right
        for key in keys:
            if key not in palette:
                assert key.region.right <= right, f"{key.description} is cut: {line}"
        assert_the_focused_pane_is_framed_in_the_accent(app)


def test_the_least_kept_keys_go_first_and_of_two_alike_the_one_declared_later() -> None:
    from voyage_tui.app.actions import fit_footer

    entries = [
        ("browser.filter", 10),  # normal
        ("browser.next-error", 14),  # normal
        ("app.quit", 9),  # essential
        ("browser.add", 15),  # primary
        (None, 5),  # a key of one of Textual's widgets: normal
        ("app.help", 9),  # essential
    ]
    assert fit_footer(entries, 62) == [True] * 6
    assert fit_footer(entries, 57) == [True, True, True, True, False, True]
    assert fit_footer(entries, 50) == [True, False, True, True, False, True]
    assert fit_footer(entries, 30) == [False, False, True, False, False, True]
    # of two alike, the one declared later goes first (app.quit after app.help)
    assert fit_footer(entries, 10) == [False, False, False, False, False, True]
    # ... whatever their order on screen (a key the keymap moved is shown last)
    moved = [entries[1], entries[0], *entries[2:]]
    assert fit_footer(moved, 50) == [False, True, True, True, False, True]


def test_every_screen_composes_the_fitted_footer() -> None:
    app = Path(__file__).resolve().parents[2] / "voyage_tui" / "app"
    for source in app.rglob("*.py"):
        text = source.read_text(encoding="utf-8")
        assert " Footer()" not in text, f"{source.name}: yield KeyFooter(), not Textual's Footer"


async def test_a_footers_keys_mount_without_restyling_themselves(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Each key is born with the compactness the footer gives it (and the palette's key with
    Textual's): Textual's keys start compact and restyled themselves, and their parts, once or
    twice each as they mounted, on every screen (a sixth of the calls of starting one). The
    keys still follow the footer's `compact` after they mount."""
    restyled: list[str] = []
    update_styles = App.update_styles

    def noted(self: App[object], node: DOMNode, animate: bool = True) -> None:
        if isinstance(node, FooterKey):
            restyled.append(node.key)
        update_styles(self, node, animate)

    monkeypatch.setattr(App, "update_styles", noted)
    app = scenario_app(copy_sample(tmp_path))
    async with app.run_test(size=(120, 40)) as pilot:
        await wait_for(pilot, lambda: app.view is not None)
        await pilot.press("f1")  # another screen's footer, and the help beside it
        await pilot.pause()
        footer = app.screen.query_one(Footer)
        keys = list(footer.query(FooterKey))
        assert len(keys) > 3
        assert restyled == []
        assert [k.has_class("-compact") for k in keys] == [
            k.has_class("-command-palette") for k in keys
        ]
        footer.compact = True
        await pilot.pause()
        assert all(k.has_class("-compact") for k in footer.query(FooterKey))
