"""The user's keymap: `keymap.toml` in the user config dir remaps any binding by its id.

# ~/.config/voyage-tui/keymap.toml
[keymap]
"browser.next-error" = "j"
"editor.save" = "ctrl+s,f2"
"""

from __future__ import annotations

import os
import tomllib
from pathlib import Path


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
