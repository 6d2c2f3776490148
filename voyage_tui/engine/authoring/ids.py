"""Fixture ids: plain slugs, proposed from the prompt's first words, unique across the suite."""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Container

from voyage_tui.engine.wording import plural

SLUG = re.compile(r"^[a-z0-9]+(?:-[a-z0-9]+)*$")
MAX_ID_LENGTH = 80
"""Long enough for any sample id, short enough to stay a folder name on every file system."""

_PROPOSAL_WORDS = 6
_PROPOSAL_LENGTH = 48

# Words that carry nothing in an id ("fix-the-bug-in-the-parser" -> "fix-bug-parser").
_FILLER = frozenset(
    {
        *("a", "an", "the", "and", "or", "of", "in", "on", "at", "to", "for", "from"),
        *("with", "into", "is", "are", "be", "it", "its", "this", "that", "these", "those"),
        *("our", "your", "their", "please", "we", "you"),
    }
)


def slug_problem(value: str) -> str | None:
    """Why `value` is not a plain slug, in words a person can act on; None when it is one."""
    if not value:
        return None  # not answered yet: the missing field says so
    if len(value) > MAX_ID_LENGTH:
        return f"The id has {plural(len(value), 'character')}; keep it to {MAX_ID_LENGTH}."
    if SLUG.match(value):
        return None
    suggestion = slugify(value)
    hint = f", for example `{suggestion}`" if suggestion and suggestion != value else ""
    return (
        f"The id {value!r} is not a plain slug: use lowercase letters a-z, digits and single "
        f"hyphens between them (it names the fixture's folder){hint}."
    )


def slugify(text: str, max_words: int | None = None, max_length: int = MAX_ID_LENGTH) -> str:
    """Lowercase ASCII words of `text` joined by hyphens (accents dropped: é -> e)."""
    ascii_text = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode("ascii")
    words = re.findall(r"[a-z0-9]+", ascii_text.lower())
    if max_words is not None:
        meaningful = [w for w in words if w not in _FILLER]
        words = (meaningful or words)[:max_words]
    slug = ""
    for word in words:
        candidate = f"{slug}-{word}" if slug else word
        if len(candidate) > max_length:
            break
        slug = candidate
    if not slug and words:
        slug = words[0][:max_length]
    return slug


def propose_id(prompt: str, taken: Container[str]) -> str:
    """A slug from the prompt's first words that no fixture uses yet ("" for an empty prompt);
    `-2`, `-3`, ... is added when the plain proposal is taken."""
    base = slugify(prompt, max_words=_PROPOSAL_WORDS, max_length=_PROPOSAL_LENGTH)
    if not base:
        return ""
    if base not in taken:
        return base
    n = 2
    while f"{base}-{n}" in taken:
        n += 1
    return f"{base}-{n}"
