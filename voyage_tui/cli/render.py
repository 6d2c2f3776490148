"""Rendering diagnostics for people (text), machines (json) and CI annotations (github).

Every piece of workspace text printed by any command goes through `shown` (text formats) or
`dumps`/`json_safe` (JSON): a path, a YAML key, an id or a name may hold an escape sequence that
would steer the terminal (engine/safe_text.py decides which characters, for the app too)."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from itertools import groupby

from voyage_tui.engine.diagnostics import Diagnostic, Severity
from voyage_tui.engine.safe_text import json_text, one_line
from voyage_tui.engine.wording import plural

TYPE_CHECKING = False  # typing's, without importing typing: validate's start-up (issue 23)
if TYPE_CHECKING:
    from typing import Any

shown = one_line
"""Workspace text as the command line prints it: on one line, each control character, bidi
override and lone surrogate as its escape (`\x1b`, `\u202e`)."""

_COLORS = {Severity.ERROR: "\033[31m", Severity.WARNING: "\033[33m", Severity.INFO: "\033[36m"}
_BOLD, _RESET = "\033[1m", "\033[0m"


def text_lines(diagnostics: Iterable[Diagnostic], color: bool = False) -> list[str]:
    """`path:line:col: severity code: message`, grouped by file with a blank line between."""
    lines: list[str] = []
    for _, group in groupby(diagnostics, key=lambda d: d.path):
        if lines:
            lines.append("")
        for d in group:
            severity = d.severity.value
            location = shown(d.location())
            if color:
                severity = f"{_COLORS[d.severity]}{severity}{_RESET}"
                location = f"{_BOLD}{location}{_RESET}"
            lines.append(f"{location}: {severity} {shown(d.code)}: {shown(d.message)}")
    return lines


def summary_line(files: int, errors: int, warnings: int, infos: int) -> str:
    return (
        f"{plural(files, 'file')} checked: {plural(errors, 'error')}, "
        f"{plural(warnings, 'warning')}, {plural(infos, 'info')}"
    )


def coverage_lines(coverage: dict[str, dict[str, int]]) -> list[str]:
    titles = {
        "classes": "classes",
        "boundaries": "boundaries",
        "visibility": "visibility",
        "trajectory_paths": "trajectories",
    }
    width = max(len(t) for t in titles.values())
    lines = ["coverage:"]
    for key, title in titles.items():
        counts = coverage.get(key, {})
        cells = " · ".join(f"{shown(name)} {count}" for name, count in counts.items())
        lines.append(f"  {title.ljust(width)}  {cells}")
    return lines


def _escape_data(value: str) -> str:
    """A workflow command's message: its control characters shown as escapes (a CR or LF among
    them, so no text can start a line, and so another `::` command), then GitHub's own
    escapes, of which `%0D` and `%0A` are kept for completeness."""
    return shown(value).replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def _escape_property(value: str) -> str:
    """A property's value (`file=`, `title=`): as a message, and `:` and `,`, which would end
    it."""
    return _escape_data(value).replace(":", "%3A").replace(",", "%2C")


_GITHUB_LEVEL = {Severity.ERROR: "error", Severity.WARNING: "warning", Severity.INFO: "notice"}


def github_lines(
    diagnostics: Iterable[Diagnostic],
    prefix: str = "",
    *,
    is_folder: Callable[[str], bool] = lambda path: False,
    anchor: str | None = None,
) -> list[str]:
    """GitHub Actions workflow commands: each becomes an annotation on the file and line.
    `prefix` is the workspace's folder relative to where the job runs (the repository root), as
    GitHub resolves `file=` from there, not from the workspace.

    GitHub annotates files, not folders: a diagnostic about a folder (the suite's coverage, a
    folder that cannot be read) goes on `anchor` (the workspace's voyage.toml), or on no file
    when there is none, and its message starts with the folder it is about."""
    lines = []
    for d in diagnostics:
        path: str | None = d.path
        line, column, message = d.line, d.column, d.message
        if is_folder(d.path):
            path, line, column = anchor, None, None
            message = f"{d.path or '.'}: {message}"
        props = [] if path is None else [f"file={_escape_property(prefix + path)}"]
        if line is not None:
            props.append(f"line={line}")
        if column is not None:
            props.append(f"col={column}")
        props.append(f"title={_escape_property(d.code)}")
        lines.append(f"::{_GITHUB_LEVEL[d.severity]} {','.join(props)}::{_escape_data(message)}")
    return lines


def json_safe(text: str) -> str:
    """JSON text with every character that could steer a terminal (DEL, C1, a bidi override, a
    lone surrogate from a `\\udc00` escape in a run or a file name that is not UTF-8) written
    as its `\\uXXXX` escape: in JSON these stand only inside strings, where the escape is the
    same value, so a program reads back the exact text (json.dumps escapes C0 itself)."""
    return json_text(text)


def dumps(payload: Any) -> str:
    import json  # only for --format json: not on every command's start-up (issue 23)

    return json_safe(json.dumps(payload, indent=2, ensure_ascii=False))
