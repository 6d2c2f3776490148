"""The user's keymap: `keymap.toml` in the user config dir remaps any binding by its id.

# ~/.config/voyage-tui/keymap.toml
[keymap]
"browser.next-error" = "j"
"editor.save" = "ctrl+s,f2"

The ids are those of the action registry (`actions.py`). The keymap goes to Textual through its
public `App.set_keymap`; the app keeps its own copy to show the keys as remapped in the help
text, the palette and the dialogs' buttons.
"""

from __future__ import annotations

import os
import tomllib
from collections.abc import Mapping
from pathlib import Path

from textual.actions import SkipAction
from textual.binding import Binding
from textual.keys import format_key
from textual.widgets import HelpPanel

from voyage_tui.app.actions import REGISTRY, binding_ids, split_keys
from voyage_tui.app.safe_display import SafeDisplayApp


def config_dir() -> Path:
    base = os.environ.get("XDG_CONFIG_HOME") or os.path.join(os.path.expanduser("~"), ".config")
    return Path(base) / "voyage-tui"


def keymap_path() -> Path:
    return Path(os.environ.get("VOYAGE_TUI_KEYMAP", config_dir() / "keymap.toml"))


def load_keymap(path: Path | None = None) -> tuple[dict[str, str], str | None]:
    """(binding id -> keys, problem). A missing file is no keymap; a broken one is reported,
    never fatal."""
    path = path or keymap_path()
    try:
        raw = tomllib.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        return {}, None
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError) as exc:
        return {}, f"keymap {path} ignored: {exc}"
    table = raw.get("keymap", raw)
    keymap = {str(k): v for k, v in table.items() if isinstance(v, str)}
    bad = [k for k, v in table.items() if not isinstance(v, str)]
    problem = f"keymap {path}: values must be key strings ({', '.join(bad)})" if bad else None
    return keymap, problem


SHARED_SCOPES = {"app"}
"""Scopes whose keys are live on every screen, so a remapped key may take one of theirs."""


def check_keymap(keymap: Mapping[str, str]) -> tuple[dict[str, str], list[str]]:
    """(the entries that apply, problems). An id the registry does not know, or a binding left
    without keys, is named and skipped; the rest applies. A remapped key that takes another
    binding's key on the same screen is named too (Textual gives the key to the keymap)."""
    known = set(binding_ids())
    unknown = sorted(k for k in keymap if k not in known)
    empty = sorted(k for k, v in keymap.items() if k in known and not split_keys(v))
    usable = {k: v for k, v in keymap.items() if k in known and split_keys(v)}
    problems: list[str] = []
    if unknown:
        problems.append(
            f"keymap: no binding has the id {', '.join(unknown)} (ignored; the rest applies). "
            "The ids are listed in the documentation (the app, Keymap)."
        )
    if empty:
        problems.append(f"keymap: no keys given for {', '.join(empty)} (ignored)")
    problems += _clashes(usable)
    return usable, problems


def keys_after(keymap: Mapping[str, str], action_id: str) -> list[str]:
    keys = keymap.get(action_id) or REGISTRY[action_id].keys
    return split_keys(keys) if keys else []


def _clashes(keymap: Mapping[str, str]) -> list[str]:
    problems = []
    for action_id in keymap:
        scope = REGISTRY[action_id].scope
        together = {scope} | SHARED_SCOPES
        for key in keys_after(keymap, action_id):
            normal = _normal(key)
            for other in REGISTRY.values():
                if other.id == action_id or other.keys is None or other.scope not in together:
                    continue
                if other.id in keymap and other.id < action_id:
                    continue  # both remapped: said once
                if normal in {_normal(k) for k in keys_after(keymap, other.id)}:
                    problems.append(f"keymap: {action_id} = {key!r} takes that key from {other.id}")
    return problems


def _normal(key: str) -> str:
    """ "?" and "question_mark" are one key; so are "ctrl+slash" and "ctrl+/"."""
    return "+".join(format_key(part) for part in key.split("+"))


class KeymappedApp(SafeDisplayApp):
    """What both apps share: the user's keymap by binding id, the keys shown as remapped, and
    the help panel that fills them into a screen's help text."""

    def __init__(self, keymap: Mapping[str, str] | None = None) -> None:
        """`keymap`: the bindings to remap; None reads the user's keymap file on mount."""
        super().__init__()
        self.keymap_given = dict(keymap) if keymap is not None else None
        self.user_keymap: dict[str, str] = {}
        """What was applied: binding id -> keys, as written."""

    def apply_user_keymap(self) -> None:
        """Remap through Textual's public keymap; every problem is said, none is fatal."""
        if self.keymap_given is not None:
            given, problems = self.keymap_given, []
        else:
            given, problem = load_keymap()
            problems = [problem] if problem else []
        self.user_keymap, more = check_keymap(given)
        if self.user_keymap:
            self.set_keymap(self.user_keymap)
        for problem in problems + more:
            self.notify(problem, severity="warning", timeout=15, markup=False)

    def key_names(self, action_id: str) -> list[str]:
        """The keys of a binding as the footer shows them (`^s`, `esc`), after the keymap."""
        return [
            self.get_key_display(Binding(key, ""))
            for key in keys_after(self.user_keymap, action_id)
        ]

    def key_text(self, action_id: str) -> str:
        return "/".join(self.key_names(action_id))

    def action_toggle_help(self) -> None:
        if self.screen.query(HelpPanel):
            self.action_hide_help_panel()
        else:
            self.action_show_help_panel()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """`escape` is the help's only while the help is open: otherwise the binding is off, so
        the key, the footer and the help's key list are the screen's."""
        if action == "close_help":
            return bool(self.screen.query(HelpPanel))
        return True

    def action_close_help(self) -> None:
        """`escape` with the help open closes it and does nothing else."""
        if not self.screen.query(HelpPanel):
            raise SkipAction()  # closed meanwhile: the key is the screen's
        self.action_hide_help_panel()

    def action_hide_help_panel(self) -> None:
        super().action_hide_help_panel()
        self.screen.refresh_bindings()

    def action_show_help_panel(self) -> None:
        """Textual's, with the panel that shows the keys as remapped (also what its palette
        command "Keys" opens)."""
        from voyage_tui.app.help import VoyageHelpPanel

        if not self.screen.query(HelpPanel):
            self.screen.mount(VoyageHelpPanel())
            self.screen.refresh_bindings()
