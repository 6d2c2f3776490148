"""Whether a string can be a rater's name: also a file name (`<ratings>/<rater>.jsonl`) on every
system the workspace may be checked out on. Here, below the ratings package, because
`voyage.toml`'s `[rating] raters` is checked with it when the configuration is read
(workspace/config.py); ratings/names.py builds the rest of the naming on it.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable

MAX_NAME_CHARS = 64
MAX_NAME_BYTES = 128
"""The name's UTF-8 bytes, as typed and decomposed (NFD, as a macOS file system may store it).
`<name>.jsonl` is then at most 134 bytes, and every file the tool names after a rater (its
ratings file, its session lock `<name>.lock`) fits in the 255 bytes of ext4, APFS or btrfs and the
143 of an eCryptfs home folder; temp files use only a name's first 64 bytes (engine/atomic.py).
Refused, not shortened or hashed: the file's name is the rater's name (`alice.jsonl`), which
people read and git shows, and two long names cut to one would share a file."""
FORBIDDEN_CHARS = frozenset('/\\:*?"<>|')
UNPRINTABLE_CATEGORIES = frozenset(("Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp"))


def rater_name_problem(name: str) -> str | None:
    """Why `name` cannot be a rater's name (and file name), or None when it can."""
    if not name:
        return "the name is empty"
    if name != name.strip():
        return "the name starts or ends with a space"
    if len(name) > MAX_NAME_CHARS:
        return f"the name is longer than {MAX_NAME_CHARS} characters"
    if name_bytes(name) > MAX_NAME_BYTES:
        return (
            f"the name takes {name_bytes(name)} bytes as a file name, over {MAX_NAME_BYTES} bytes "
            "(a character outside ASCII takes 2 to 4); use a shorter name"
        )
    if name in (".", ".."):
        return f"{name!r} names a folder, not a rater"
    if name.startswith((".", "-")):
        return "the name starts with `.` or `-` (a hidden file, or an option)"
    if name.endswith("."):
        return "the name ends with `.` (Windows drops it from file names)"
    for char in name:
        if char in FORBIDDEN_CHARS:
            return f"the name holds {char!r}, which a file name cannot hold on every system"
        if unicodedata.category(char) in UNPRINTABLE_CATEGORIES:
            return f"the name holds the control or unprintable character U+{ord(char):04X}"
    return None


def name_bytes(name: str) -> int:
    """The bytes the name takes as a file name, the larger of as typed and decomposed."""
    # surrogatepass: a lone surrogate is refused by rater_name_problem, not by a crash here.
    typed = len(name.encode("utf-8", "surrogatepass"))
    decomposed = len(unicodedata.normalize("NFD", name).encode("utf-8", "surrogatepass"))
    return max(typed, decomposed)


_NOT_A_SLUG_CHAR = re.compile(r"[^a-z0-9]+")


def rater_slug(name: str) -> str:
    """The ratings file stem of a rater's name: lower-case ASCII letters and digits, each run of
    anything else one `-` (`Firstname Lastname` -> `firstname-lastname`, `Zoë` -> `zoe`: accents
    come off), at most MAX_NAME_CHARS; "" when nothing is left (`李雷`, `😀`), and the name is
    then its own file name, as before slugs (ratings/names.py `rater_file_stem`)."""
    ascii_name = unicodedata.normalize("NFKD", name).encode("ascii", "ignore").decode("ascii")
    slug = _NOT_A_SLUG_CHAR.sub("-", ascii_name.lower()).strip("-")
    slug = slug[:MAX_NAME_CHARS].rstrip("-")
    return slug if slug and rater_name_problem(slug) is None else ""


def rater_key(name: str) -> str:
    """Who a rater's name names: the one key that decides the rater's identity, ratings file,
    session lock, place in the team and served address (issue 33). The name's slug (`José`,
    `Jose` and `JOSE` are `jose`; `Ann Smith` and `ann-smith` are `ann-smith`; `Zoë` composed or
    decomposed is `zoe`), since the slug is the ratings file's name and two names of one slug
    would share that file; for a name with no slug (`李雷`), the name folded (`folded_name`)."""
    return rater_slug(name) or folded_name(name)


def folded_name(name: str) -> str:
    """`name` as compared with letter case and Unicode composition aside (NFKC, case-folded):
    two names equal so read the same to a person."""
    return unicodedata.normalize("NFKC", unicodedata.normalize("NFKC", name).casefold())


def file_owner(raters: Iterable[str], stem: str) -> str | None:
    """Whose ratings file `<stem>.jsonl` is, given the raters its records name in file order:
    the stem itself when a record names it (a file named after its rater, as before slugs),
    else the first name of the stem's key (`rater_key`); None when no record names either. A
    file holds one rater, whose every spelling counts as them; a record of another key does not
    count (ratings/rules.py)."""
    key = rater_key(stem)
    first: str | None = None
    for rater in raters:
        if rater == stem:
            return stem
        if first is None and rater_key(rater) == key:
            first = rater
    return first
