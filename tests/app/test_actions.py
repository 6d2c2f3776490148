"""One action registry feeds the bindings, the footer, the help panel, the command palette, the
dialogs and the keymap check; the screens are typed instead of looked up with hasattr.

The registry is imported inside the tests that need it, so the behaviour tests also run (and
fail) on code from before it."""

from __future__ import annotations

import importlib
import pkgutil
import re
from pathlib import Path

import pytest
from textual.binding import Binding
from textual.screen import ModalScreen, Screen
from textual.widget import Widget
from textual.widgets import Footer, HelpPanel, Input, Markdown
from textual.widgets._footer import FooterKey

import voyage_tui.app
from tests.app.support import make_app, wait_loaded, wait_until
from tests.conftest import task_yaml
from voyage_tui.app.app import VoyageApp
from voyage_tui.app.settings import AppSettings
from voyage_tui.engine.workspace.model import Workspace

REPO = Path(__file__).resolve().parents[2]
APP = REPO / "voyage_tui" / "app"
BROKEN = "fixtures/bug-diagnosis/b1/task.yaml"


@pytest.fixture
def root(make_workspace) -> Path:
    broken = task_yaml("b1").replace("visibility: public", "visibility: secret")
    return make_workspace({BROKEN: broken})


def _keymap_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, text: str) -> None:
    path = tmp_path / "keymap.toml"
    path.write_text(text)
    monkeypatch.setenv("VOYAGE_TUI_KEYMAP", str(path))


def _import_every_app_module() -> None:
    for info in pkgutil.walk_packages(voyage_tui.app.__path__, "voyage_tui.app."):
        importlib.import_module(info.name)


def _subclasses(cls: type) -> list[type]:
    found = []
    for sub in cls.__subclasses__():
        found.append(sub)
        found += _subclasses(sub)
    return list(dict.fromkeys(found))


def _app_classes(base: type) -> list[type]:
    _import_every_app_module()
    return [c for c in _subclasses(base) if c.__module__.startswith("voyage_tui.app")]


async def _workers_done(pilot) -> None:
    """Let the item's detail load and render before the app closes (a worker that finishes
    after the screen has gone fails to find its widgets)."""
    for _ in range(3):  # loading the detail starts the rendering worker
        await pilot.app.workers.wait_for_complete()
        await pilot.pause()


def _keys(binding: Binding) -> list[str]:
    return [k.strip() for k in binding.key.split(",")]


# --- the keymap: remapped keys are the keys the person reads ---------------------------------


async def test_help_and_footer_show_a_remapped_key(
    root: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    _keymap_file(tmp_path, monkeypatch, '[keymap]\n"browser.next-error" = "z"\n')
    app = VoyageApp(Workspace.load(root), AppSettings(use_git=False, watch=False))
    async with app.run_test(size=(120, 40)) as pilot:
        browser = await wait_loaded(pilot)
        footer = {k.description: k.key_display for k in browser.query_one(Footer).query(FooterKey)}
        assert footer["Next error"] == "z"
        await pilot.press("f1")
        await wait_until(pilot, lambda: bool(app.screen.query(HelpPanel)))
        browser.query_one("#filter", Input).focus()  # the screen's own note, whatever is focused
        await pilot.pause()
        note = " ".join(app.screen.query_one(HelpPanel).query_one(Markdown).source.split())
        assert "`z` / `N` next / previous item with an error" in note
        assert "`n`" not in note


async def test_the_help_note_of_the_screen_shows_under_the_focused_widgets(root: Path) -> None:
    app = make_app(root)
    async with app.run_test(size=(120, 40)) as pilot:
        browser = await wait_loaded(pilot)
        assert app.focused is browser.suite_tree
        await pilot.press("f1")
        await wait_until(pilot, lambda: bool(app.screen.query(HelpPanel)))
        await pilot.pause()
        note = " ".join(app.screen.query_one(HelpPanel).query_one(Markdown).source.split())
        assert "## Suite tree" in note and "## Browser" in note
        assert "`n` / `N` next / previous item" in note
        assert "{" not in note  # every placeholder filled


async def test_an_unknown_id_in_the_keymap_is_reported_and_the_rest_applies(
    root: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    _keymap_file(
        tmp_path,
        monkeypatch,
        '[keymap]\n"browser.next-eror" = "x"\n"browser.next-error" = "z"\n',
    )
    app = VoyageApp(Workspace.load(root), AppSettings(use_git=False, watch=False))
    said: list[str] = []
    notify = app.notify
    monkeypatch.setattr(
        app, "notify", lambda message, **kw: (said.append(message), notify(message, **kw))[1]
    )
    async with app.run_test(size=(120, 40)) as pilot:
        browser = await wait_loaded(pilot)
        text = " ".join(said)
        assert "browser.next-eror" in text and "rest applies" in text
        await pilot.press("z")
        assert browser.suite_tree.current_path() == BROKEN
        await _workers_done(pilot)


async def test_textuals_keymap_is_left_to_textual(
    root: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The app once stored its own keymap argument in Textual's private `_keymap`: with no
    keymap file that left None there, and Textual's public `update_keymap` failed on it."""
    monkeypatch.setenv("VOYAGE_TUI_KEYMAP", str(tmp_path / "no-such-keymap.toml"))
    app = VoyageApp(Workspace.load(root), AppSettings(use_git=False, watch=False))
    async with app.run_test(size=(120, 40)) as pilot:
        browser = await wait_loaded(pilot)
        app.update_keymap({"browser.next-error": "z"})
        await pilot.press("z")
        assert browser.suite_tree.current_path() == BROKEN
        await _workers_done(pilot)


def test_check_keymap_names_unknown_ids_empty_keys_and_clashes() -> None:
    from voyage_tui.app.keymap import check_keymap

    usable, problems = check_keymap(
        {
            "browser.next-error": "z",
            "nope.x": "y",
            "editor.save": " ",
            "browser.edit": "c",  # the copy-path key, on the same screen
            "diff.runs": "z",  # another screen: no clash with browser's z
        }
    )
    assert usable == {"browser.next-error": "z", "browser.edit": "c", "diff.runs": "z"}
    text = "\n".join(problems)
    assert "nope.x" in text and "rest applies" in text
    assert "no keys given for editor.save" in text
    assert "browser.edit = 'c' takes that key from browser.copy-path" in text
    assert "diff.runs" not in text and len(problems) == 3


def test_the_default_keys_do_not_clash_on_any_screen() -> None:
    from voyage_tui.app.actions import OVERLAY_KEYS, REGISTRY, split_keys
    from voyage_tui.app.keymap import SHARED_SCOPES

    for scope in {a.scope for a in REGISTRY.values()} - SHARED_SCOPES:
        seen: dict[str, str] = {}
        for a in REGISTRY.values():
            if a.keys is None or a.scope not in {scope} | SHARED_SCOPES or a.id in OVERLAY_KEYS:
                continue
            for key in split_keys(a.keys):
                assert key not in seen, f"{key} is {seen[key]} and {a.id}"
                seen[key] = a.id


# --- dialogs: one meaning per key -----------------------------------------------------------------


def test_every_dialog_gives_a_key_one_meaning() -> None:
    meanings: dict[str, set[str]] = {}
    where: dict[str, set[str]] = {}
    dialogs = _app_classes(ModalScreen)
    assert len(dialogs) >= 4
    for dialog in dialogs:
        for binding in dialog.__dict__.get("BINDINGS", []):
            assert isinstance(binding, Binding) and binding.id, f"{dialog.__name__}: {binding!r}"
            for key in _keys(binding):
                meanings.setdefault(key, set()).add(binding.id)
                where.setdefault(key, set()).add(dialog.__name__)
    clashes = {k: (sorted(m), sorted(where[k])) for k, m in meanings.items() if len(m) > 1}
    assert not clashes, f"a key means different things in different dialogs: {clashes}"
    assert meanings["escape"] == {"dialog.cancel"} and meanings["c"] == {"dialog.cancel"}
    assert "dialog.commit" in {m for ms in meanings.values() for m in ms}


async def test_c_cancels_and_m_commits_in_the_retire_dialog(make_workspace) -> None:
    from voyage_tui.app.screens.modals import ChoiceScreen

    holdout = "# canary: 3f1c2b9e-6a1d-4f4e-9d1a-0c2b7e5a9f10\n" + task_yaml("h1").replace(
        "visibility: public", "visibility: holdout"
    )
    root = make_workspace({"fixtures/bug-diagnosis/h1/task.yaml": holdout})
    path = root / "fixtures/bug-diagnosis/h1/task.yaml"
    app = make_app(root)
    async with app.run_test(size=(120, 40)) as pilot:
        browser = await wait_loaded(pilot)
        assert browser.suite_tree.select_path("fixtures/bug-diagnosis/h1/task.yaml")
        await pilot.press("R")
        await wait_until(pilot, lambda: isinstance(app.screen, ChoiceScreen))
        await wait_until(pilot, lambda: bool(app.screen.query("#choice-cancel")))
        labels = [str(b.label) for b in app.screen.query("Button")]
        assert labels == ["Retire and commit (m)", "Retire only (o)", "Cancel (esc/c)"]
        await pilot.press("c")
        await wait_until(pilot, lambda: app.screen is browser)
        await pilot.pause(0.2)
        assert path.read_text() == holdout  # cancelled: nothing retired, nothing committed


async def test_a_dialogs_keys_follow_the_keymap(
    root: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from voyage_tui.app.screens.modals import unsaved_changes

    _keymap_file(tmp_path, monkeypatch, '[keymap]\n"dialog.discard" = "x"\n')
    app = VoyageApp(Workspace.load(root), AppSettings(use_git=False, watch=False))
    answers: list[str | None] = []
    async with app.run_test(size=(120, 40)) as pilot:
        await wait_loaded(pilot)
        app.push_screen(unsaved_changes("a.yaml"), lambda answer: answers.append(answer))
        await wait_until(pilot, lambda: bool(app.screen.query("#choice-cancel")))
        assert "Discard (x)" in [str(b.label) for b in app.screen.query("Button")]
        await pilot.press("d")  # no longer the discard key
        await pilot.pause()
        assert answers == []
        await pilot.press("r")  # reload is not a question this dialog asks
        await pilot.pause()
        assert answers == []
        await pilot.press("x")
        await wait_until(pilot, lambda: answers == ["discard"])


def test_a_question_offers_only_registered_answers() -> None:
    from voyage_tui.app.screens.modals import ChoiceScreen

    with pytest.raises(ValueError, match="maybe"):
        ChoiceScreen("Go?", ["maybe"])


# --- the registry feeds bindings, palette, help and docs ------------------------------------------


def test_every_screen_and_widget_takes_its_bindings_from_the_registry() -> None:
    from voyage_tui.app.actions import REGISTRY
    from voyage_tui.app.screens.base import VoyageScreen

    screens = _app_classes(Screen)
    assert screens and all(issubclass(s, VoyageScreen) for s in screens), [
        s.__name__ for s in screens if not issubclass(s, VoyageScreen)
    ]
    owners = [VoyageApp, *screens, *_app_classes(Widget)]
    for owner in owners:
        scope = getattr(owner, "SCOPE", None)
        for binding in owner.__dict__.get("BINDINGS", []):
            assert isinstance(binding, Binding) and binding.id in REGISTRY, (owner, binding)
            declared = REGISTRY[binding.id]
            assert (binding.key, binding.action) == (declared.keys, declared.action)
            if scope:
                assert declared.scope == scope, f"{owner.__name__} binds {binding.id}"


def test_every_placeholder_in_a_help_note_is_a_binding_id() -> None:
    from voyage_tui.app.actions import binding_ids, placeholders

    ids = set(binding_ids())
    notes = 0
    for cls in _app_classes(Widget):
        help_text = cls.__dict__.get("HELP")
        if help_text:
            notes += 1
            unknown = [p for p in placeholders(help_text) if p not in ids]
            assert not unknown, f"{cls.__name__}: {unknown}"
            left = re.sub(r"\{[a-z][a-z0-9-]*\.[a-z0-9-]+\}", "", help_text)
            assert "{" not in left, f"{cls.__name__}: a brace that is no placeholder"
    assert notes >= 6


def test_no_help_note_wraps_a_placeholder_in_backticks() -> None:
    """The keys come filled in as code (`` `left` or `shift+tab` ``): a note that wraps its
    placeholder in backticks as well showed stray ones (issue 36 row 6, "(←` or `shift+tab goes
    back)")."""
    from voyage_tui.app.actions import fill_keys

    for cls in _app_classes(Widget):
        help_text = cls.__dict__.get("HELP")
        if help_text:
            filled = fill_keys(help_text, lambda _id: ["left", "shift+tab"])
            assert "``" not in filled, cls.__name__
            assert not re.search(r"`\{[a-z][a-z0-9-]*\.[a-z0-9-]+\}`", help_text), cls.__name__


async def test_the_palette_lists_every_action_of_the_screen_and_the_app(root: Path) -> None:
    from voyage_tui.app.actions import palette_actions
    from voyage_tui.app.commands import VoyageCommands
    from voyage_tui.app.screens.editor import EditorScreen
    from voyage_tui.app.screens.runs import RunsScreen

    app = make_app(root)
    async with app.run_test(size=(120, 40)) as pilot:
        await wait_loaded(pilot)
        for make in (None, lambda: EditorScreen(BROKEN), lambda: RunsScreen("none.json")):
            if make is not None:
                app.push_screen(make())
                await pilot.pause()
            screen = app.screen
            provider = VoyageCommands(screen)
            hits = [h async for h in provider.discover()]
            expected = palette_actions(screen.SCOPE) + palette_actions("app")
            assert [h.text for h in hits] == [a.palette for a in expected]
            assert {"Re-validate everything", "Compare runs", "Runs of a gold file"} <= {
                str(h.text) for h in hits
            }


async def test_a_palette_command_runs_on_the_screen_and_shows_remapped_keys(
    root: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from voyage_tui.app.commands import VoyageCommands

    _keymap_file(tmp_path, monkeypatch, '[keymap]\n"browser.next-error" = "j"\n')
    app = VoyageApp(Workspace.load(root), AppSettings(use_git=False, watch=False))
    async with app.run_test(size=(120, 40)) as pilot:
        browser = await wait_loaded(pilot)
        provider = VoyageCommands(browser)
        hit = next(h for h in [h async for h in provider.search("next error")])
        assert "Next error" in str(hit.text) and hit.help.endswith("(j)")
        await hit.command()
        assert browser.suite_tree.current_path() == BROKEN
        await _workers_done(pilot)


def test_the_keymap_ids_in_the_docs_are_the_registrys() -> None:
    from voyage_tui.app.actions import keymap_table

    docs = (REPO / "docs" / "app.md").read_text()
    found = re.search(r"<!-- keymap-ids -->\n(.*?)\n<!-- /keymap-ids -->", docs, re.DOTALL)
    assert found, "docs/app.md has no keymap-ids block"
    assert found.group(1) == keymap_table(), (
        "docs/app.md's keymap table is not the registry's; put this between the markers:\n"
        + keymap_table()
    )


# --- typed screens ------------------------------------------------------------------------------


def test_no_hasattr_or_attr_defined_ignores_in_the_app() -> None:
    offenders = []
    for path in sorted(APP.rglob("*.py")):
        for number, line in enumerate(path.read_text().splitlines(), 1):
            if "hasattr(" in line or "type: ignore[attr-defined]" in line:
                offenders.append(f"{path.relative_to(REPO)}:{number}: {line.strip()}")
    assert not offenders, "\n".join(offenders)
