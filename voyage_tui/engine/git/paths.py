"""`bundle_paths` and `ignore_paths` patterns, matched the way a .gitignore line matches.

- A pattern without `/` (other than a trailing one) matches a file or folder name at any depth:
  `*.md` matches every Markdown file, `prompts` everything under any folder named `prompts`.
- A pattern with a `/` is anchored at the workspace root: `agent/*.py`, `agent/prompts`
  (everything under it), `agent/**/system.md`. `../` reaches files of the repository outside a
  workspace that sits in a subfolder.
- `*` and `?` stay within one path component, `**` crosses folders, `[abc]` is a class.
- A pattern naming a folder matches everything under it.
Paths given to a matcher are workspace-relative and `/`-separated.
"""

from __future__ import annotations

import posixpath
import re
from collections.abc import Iterable
from functools import lru_cache


def _translate(pattern: str) -> str:
    out: list[str] = []
    i, n = 0, len(pattern)
    while i < n:
        c = pattern[i]
        if c == "*":
            if pattern.startswith("**", i):
                before_ok = i == 0 or pattern[i - 1] == "/"
                after = pattern[i + 2 : i + 3]
                if before_ok and after == "/":
                    out.append("(?:[^/]*/)*")  # `**/`: any number of folders, none included
                    i += 3
                    continue
                out.append(".*")
                i += 2
                continue
            out.append("[^/]*")
        elif c == "?":
            out.append("[^/]")
        elif c == "[":
            end = pattern.find("]", i + 2 if pattern[i + 1 : i + 2] in ("!", "]") else i + 1)
            if end == -1:
                out.append(re.escape(c))
            else:
                body = pattern[i + 1 : end]
                if body.startswith("!"):
                    body = "^" + body[1:]
                out.append(f"[{body.replace(chr(92), chr(92) * 2)}]")
                i = end
        else:
            out.append(re.escape(c))
        i += 1
    return "".join(out)


def _compile_one(raw: str) -> str | None:
    pattern = raw.strip().replace("\\", "/")
    while pattern.startswith("./"):
        pattern = pattern[2:]
    pattern = pattern.rstrip("/")
    if not pattern or pattern == ".":
        return None
    if "/" in pattern:
        if pattern.startswith("/"):
            pattern = pattern.lstrip("/")
        if pattern.startswith("../") or "/../" in pattern:
            # normalise `a/../b` but keep leading `..` segments
            pattern = posixpath.normpath(pattern)
        return f"^{_translate(pattern)}(?:/.*)?$"
    return f"(?:^|/){_translate(pattern)}(?:/|$)"


class PathMatcher:
    """A set of patterns compiled into one regular expression; answers are cached per path."""

    __slots__ = ("_cache", "_regex", "patterns")

    def __init__(self, patterns: Iterable[str]) -> None:
        self.patterns = [p for p in patterns if isinstance(p, str)]
        parts = [part for part in (_compile_one(p) for p in self.patterns) if part]
        self._regex = re.compile("|".join(f"(?:{p})" for p in parts)) if parts else None
        self._cache: dict[str, bool] = {}

    def __bool__(self) -> bool:
        return self._regex is not None

    def __call__(self, path: str) -> bool:
        if self._regex is None:
            return False
        hit = self._cache.get(path)
        if hit is None:
            hit = self._regex.search(path) is not None
            self._cache[path] = hit
        return hit


@lru_cache(maxsize=64)
def matcher(patterns: tuple[str, ...]) -> PathMatcher:
    return PathMatcher(patterns)
