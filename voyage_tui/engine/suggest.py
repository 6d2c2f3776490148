"""Did-you-mean suggestions for near misses (field names, classes, phase names, rule keys)."""

from __future__ import annotations

from collections.abc import Iterable


def closest(word: str, candidates: Iterable[str], cutoff: float = 0.6) -> str | None:
    """The candidate nearest to `word`, or None when nothing is near enough to be a typo."""
    options = list(candidates)
    if not options:
        return None
    folded = {c.casefold(): c for c in options}
    if word.casefold() in folded:
        return folded[word.casefold()]
    import difflib  # only for a near miss: not on every command's start-up (issue 23)

    match = difflib.get_close_matches(word.casefold(), list(folded), n=1, cutoff=cutoff)
    return folded[match[0]] if match else None


def hint(word: str, candidates: Iterable[str], cutoff: float = 0.6) -> str:
    """' (did you mean `x`?)', or '' when there is no near miss."""
    best = closest(word, candidates, cutoff)
    return f"; did you mean `{best}`?" if best is not None and best != word else ""
