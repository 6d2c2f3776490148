"""Settings written into a git config file as text, the way `git config --file F --add KEY VALUE`
would write them, without starting one git process per setting (a test repository takes a few
settings, a hostile one dozens; each process costs more than the whole file write).

tests/security/test_hostile_repo.py shows, with git itself, that `git config --list` reads the
same entries, in the same order, from this text as from the `git config --add` calls.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from pathlib import Path

# git's own rules for a key given as `section[.subsection].name` (config.c, git_config_parse_key)
_SECTION = re.compile(r"[A-Za-z0-9-]+\Z")
_NAME = re.compile(r"[A-Za-z][A-Za-z0-9-]*\Z")
# Only the headers git itself writes (`[core]`, `[remote "origin"]`): an unusual file is refused,
# not guessed at.
_HEADER = re.compile(r'\s*\[([A-Za-z0-9-]+)(?: "((?:[^"\\\n]|\\.)*)")?\]\s*\Z')
_ESCAPED = re.compile(r"\\(.)")


def _split(key: str) -> tuple[str, str | None, str]:
    section, dot, rest = key.partition(".")
    subsection, dot2, name = rest.rpartition(".")
    if not dot or not _SECTION.match(section) or not _NAME.match(name):
        raise ValueError(f"not a git config key: {key!r}")
    if "\n" in subsection or "\0" in subsection:
        raise ValueError(f"git refuses this subsection: {key!r}")
    return section, (subsection if dot2 else None), name


def _header(section: str, subsection: str | None) -> str:
    if subsection is None:
        return f"[{section}]"
    escaped = subsection.replace("\\", "\\\\").replace('"', '\\"')
    return f'[{section} "{escaped}"]'


def _quoted(value: str) -> str:
    """Always in double quotes, so leading and trailing spaces, `;` and `#` are kept; inside them
    git reads back `\\\\`, `\\"`, `\\n` and `\\t` as the characters they stand for."""
    if "\0" in value:
        raise ValueError("a git config value cannot hold NUL")
    escaped = (
        value.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n").replace("\t", "\\t")
    )
    return f'"{escaped}"'


def _section_of(line: str) -> tuple[str, str | None] | None:
    if not line.lstrip().startswith("["):
        return None
    match = _HEADER.match(line)
    if match is None:
        raise ValueError(f"a config header this helper does not read: {line!r}")
    sub = match.group(2)
    return match.group(1).lower(), (None if sub is None else _ESCAPED.sub(r"\1", sub))


def add_settings(config: Path, settings: Iterable[tuple[str, str]]) -> None:
    """Add each (key, value) to the config file `config` as `git config --add` does: a value
    joins the last section of its name (so a key set twice holds both values, in order), and a
    section not yet in the file is started at its end."""
    text = config.read_text(encoding="utf-8") if config.exists() else ""
    # split on "\n" alone: a value may hold a carriage return, which splitlines() would cut at
    lines = text.split("\n")
    if lines[-1] == "":
        lines.pop()
    for key, value in settings:
        section, subsection, name = _split(key)
        wanted = (section.lower(), subsection)
        insert_at = None
        current = None
        for index, line in enumerate(lines):
            found = _section_of(line)
            if found is not None:
                current = found
            if current == wanted:
                insert_at = index + 1
        entry = f"\t{name} = {_quoted(value)}"
        if insert_at is None:
            lines += [_header(section, subsection), entry]
        else:
            lines.insert(insert_at, entry)
    config.write_text("".join(f"{line}\n" for line in lines), encoding="utf-8")
