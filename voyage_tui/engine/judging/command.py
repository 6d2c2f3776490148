"""A judge's command: from the command line, or from the user's own `judges.toml` in the user
config dir (`$XDG_CONFIG_HOME/voyage-tui/`, else `~/.config/voyage-tui/`, where the keymap
lives). Never from voyage.toml or any file of the workspace: a workspace may come from anyone,
and running what it names would run a stranger's program (docs/trust.md).

```toml
[judges.gpt]
command = ["python3", "/home/me/judges/openai_judge.py"]   # or one string, split like a shell
pass_env = ["OPENAI_API_KEY", "OPENAI_BASE_URL", "JUDGE_MODEL"]
```

The command's sha256 (of its argv as a JSON list) names it in every record it makes, so a
changed command is seen as a new judge under the same name.
"""

from __future__ import annotations

import hashlib
import json
import os
import shlex
import tomllib
from dataclasses import dataclass
from pathlib import Path

CONFIG_FILE = "judges.toml"
CONFIG_ENV = "VOYAGE_TUI_JUDGES"
"""A path that replaces the user's judges.toml (tests, or a keeper with several)."""


class JudgeConfigError(ValueError):
    """No usable command: the message says why and what to do."""


@dataclass(frozen=True, slots=True)
class JudgeCommand:
    argv: tuple[str, ...]
    pass_env: tuple[str, ...] = ()
    """Names of the user's environment variables the judge is given besides the minimal set."""
    origin: str = "--command"
    """Where the command came from, as said to the user."""

    @property
    def sha256(self) -> str:
        return command_sha256(self.argv)


def command_sha256(argv: tuple[str, ...] | list[str]) -> str:
    return hashlib.sha256(json.dumps(list(argv), ensure_ascii=False).encode("utf-8")).hexdigest()


def user_config_dir() -> Path:
    base = os.environ.get("XDG_CONFIG_HOME") or os.path.join(os.path.expanduser("~"), ".config")
    return Path(base) / "voyage-tui"


def judges_config_path() -> Path:
    return Path(os.environ.get(CONFIG_ENV) or user_config_dir() / CONFIG_FILE)


def split_command(text: str) -> tuple[str, ...]:
    try:
        argv = tuple(shlex.split(text))
    except ValueError as exc:
        raise JudgeConfigError(f"the command cannot be split into words: {exc}") from exc
    if not argv:
        raise JudgeConfigError("the command is empty")
    return argv


def resolve_command(name: str, command: str | None, pass_env: tuple[str, ...] = ()) -> JudgeCommand:
    """The judge `name`'s command: `command` when given (from the command line), else the
    user's judges.toml entry `[judges.NAME]`."""
    if command is not None:
        return JudgeCommand(split_command(command), pass_env, "--command")
    path = judges_config_path()
    try:
        with open(path, "rb") as handle:
            data = tomllib.load(handle)
    except FileNotFoundError:
        raise JudgeConfigError(
            f"no --command given and no {CONFIG_FILE} in the user config dir ({path}); give "
            f"--command CMD, or add [judges.{name}] command = [...] there"
        ) from None
    except (OSError, tomllib.TOMLDecodeError) as exc:
        raise JudgeConfigError(f"{path} cannot be read: {exc}") from exc
    judges = data.get("judges")
    entry = judges.get(name) if isinstance(judges, dict) else None
    if not isinstance(entry, dict):
        raise JudgeConfigError(f"{path} has no [judges.{name}] table; give --command CMD")
    raw = entry.get("command")
    if isinstance(raw, str):
        argv = split_command(raw)
    elif isinstance(raw, list) and raw and all(isinstance(a, str) for a in raw):
        argv = tuple(raw)
    else:
        raise JudgeConfigError(
            f"{path}: [judges.{name}] command must be a string or a list of strings"
        )
    extra = entry.get("pass_env", [])
    if not isinstance(extra, list) or not all(isinstance(v, str) for v in extra):
        raise JudgeConfigError(f"{path}: [judges.{name}] pass_env must be a list of names")
    return JudgeCommand(argv, tuple(dict.fromkeys([*extra, *pass_env])), str(path))
