"""The Textual private names the app uses (voyage_tui/app/textual_private.py) still exist on the
pinned Textual: an upgrade that renames one fails here, naming it."""

from __future__ import annotations

import importlib
import inspect

import pytest
import textual
from textual.app import App
from textual.screen import Screen
from textual.widgets import Tree

from tests import fast_textual
from voyage_tui.app import textual_private
from voyage_tui.app.textual_private import OVERRIDDEN_HOOKS, PRIVATE_NAMES


def _owner(dotted: str) -> object:
    module, _, attr = dotted.rpartition(".")
    try:
        return importlib.import_module(dotted)
    except ImportError:
        return getattr(importlib.import_module(module), attr)


@pytest.mark.parametrize(("owner", "name"), PRIVATE_NAMES + fast_textual.PRIVATE_NAMES)
def test_each_private_name_exists(owner: str, name: str) -> None:
    holder = _owner(owner)
    found = hasattr(holder, name)
    if not found and inspect.isclass(holder):
        # Instance attributes set in __init__ (DOMNode._pruning, MessagePump._closing).
        found = name in inspect.getsource(holder.__init__)
    assert found, (
        f"Textual {textual.__version__} has no {owner}.{name}: "
        "voyage_tui/app/textual_private.py (or the tests' tests/fast_textual.py) must be "
        "adapted to this Textual"
    )


@pytest.mark.parametrize(("owner", "name"), OVERRIDDEN_HOOKS)
def test_each_overridden_hook_exists(owner: type, name: str) -> None:
    assert callable(getattr(owner, name, None)), (
        f"Textual {textual.__version__} has no {owner.__name__}.{name}: "
        "voyage_tui/app/resilience.py overrides it to keep the app running after an error"
    )


async def test_the_wrappers_work_on_live_objects() -> None:
    calls: list[object] = []
    await textual_private.invoke(lambda: calls.append("none"), 1)
    await textual_private.invoke(lambda value: calls.append(value), 2)
    assert calls == ["none", 2]

    class Probe(App[None]):
        def compose(self):  # type: ignore[no-untyped-def]
            tree: Tree[str] = Tree("root")
            tree.root.add("group").add_leaf("leaf")
            yield tree

    app = Probe()
    async with app.run_test() as pilot:
        screen: Screen[object] = app.screen
        assert not textual_private.is_pruning(screen)
        assert not textual_private.is_closing(screen)
        tree = app.query_one(Tree)
        tree.root.expand_all()
        textual_private.rebuild_tree_lines(tree)
        assert tree.last_line >= 2  # the line map holds the rows just expanded
        app.add_mode("other", Screen)
        app.switch_mode("other")
        await pilot.pause()
        other = app.screen
        assert screen not in app.screen_stack  # the default mode's, off screen
        assert textual_private.every_screen(app) == [screen, other]
        await pilot.pause()


def test_no_other_module_of_the_app_imports_textual_privately() -> None:
    from pathlib import Path

    import voyage_tui.app

    root = Path(voyage_tui.app.__file__).parent
    offenders = [
        str(path.relative_to(root))
        for path in root.rglob("*.py")
        if path.name != "textual_private.py"
        and any(
            marker in path.read_text(encoding="utf-8")
            for marker in (
                "from textual._",
                "import textual._",
                "._pruning",
                "._tree_lines",
                "._screen_stacks",
            )
        )
    ]
    assert offenders == []
