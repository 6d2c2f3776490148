"""Which passages of a holdout's text count as distinctive enough to search for (content-leak).

The rule (documented in the README):
- the prompt and the ground truth are cut into sentences, at `.`, `!` or `?` followed by white
  space; this is done twice: on the text with its line breaks and runs of white space folded into
  single spaces (so a sentence copied onto one line is found), and on each line as written (so a
  verbatim copy of the file's wrapped lines is found by its pieces);
- a passage is such a sentence of at least MIN_WORDS words and MIN_CHARS characters: everyday
  phrases ("Make sure the tests pass.") are far shorter;
- a sentence that is also a sentence of another fixture's prompt or ground truth (public or
  holdout) is boilerplate, not distinctive, and is dropped with its pieces.
A passage is searched as an exact, case-sensitive string within one line of a tracked file.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable

MIN_WORDS = 10
MIN_CHARS = 60

_SENTENCE_END = re.compile(r"(?<=[.!?])\s+")


def _folded_sentences(text: str) -> list[str]:
    """Sentences of `text` with all white space folded to single spaces. (On folded text a
    sentence end is `. `, `! ` or `? `: three replaces split megabytes faster than a regex.)"""
    folded = " ".join(text.split())
    return folded.replace(". ", ".\n").replace("! ", "!\n").replace("? ", "?\n").split("\n")


def _line_sentences(text: str) -> set[str]:
    """Sentences of each line as written (a sentence wrapped over lines gives its pieces)."""
    found: set[str] = set()
    for line in text.splitlines():
        for sentence in _SENTENCE_END.split(line.strip()):
            found.add(sentence.strip())
    return found


def _long_enough(sentence: str) -> bool:
    return len(sentence) >= MIN_CHARS and len(sentence.split()) >= MIN_WORDS


def candidate_passages(*texts: str) -> set[str]:
    return {
        s
        for text in texts
        if text
        for s in (*_folded_sentences(text), *_line_sentences(text))
        if _long_enough(s)
    }


def _sentences_of_all(texts: Iterable[str], batch: int = 2000) -> set[str]:
    """The folded sentences of many texts, worked out a batch of texts at a time with C-level
    string operations (a NUL keeps the texts apart while their white space is folded)."""
    found: set[str] = set()
    chunk: list[str] = []
    for text in texts:
        chunk.append(text)
        if len(chunk) >= batch:
            found |= _fold_split("\x00".join(chunk))
            chunk = []
    if chunk:
        found |= _fold_split("\x00".join(chunk))
    return found


def _fold_split(joined: str) -> set[str]:
    folded = " ".join(joined.split())
    marked = folded.replace(". ", ".\n").replace("! ", "!\n").replace("? ", "?\n")
    return {piece.strip() for piece in marked.replace("\x00", "\n").split("\n")}


def distinctive_passages(
    holdouts: dict[str, tuple[str, str]], others: Iterable[tuple[str, str]]
) -> dict[str, set[str]]:
    """Passages per holdout key. `holdouts` maps a key to (prompt, ground truth); `others` yields
    (prompt, ground truth) of the suite's other fixtures. A passage two holdouts share, or a
    sentence another fixture's text holds (and the pieces of such a sentence), is dropped."""
    sentences: dict[str, set[str]] = {}
    pieces: dict[str, set[str]] = {}
    for key, texts in holdouts.items():
        folded = {s for t in texts if t for s in _folded_sentences(t) if _long_enough(s)}
        sentences[key] = folded
        pieces[key] = {
            s for t in texts if t for s in _line_sentences(t) if _long_enough(s)
        } - folded
    shared = Counter(p for key in holdouts for p in sentences[key] | pieces[key])
    common = {p for p, n in shared.items() if n > 1}
    wanted = {p for key in holdouts for p in sentences[key]} - common
    if wanted:
        common |= wanted & _sentences_of_all(t for pair in others for t in pair if t)
    out: dict[str, set[str]] = {}
    for key in holdouts:
        dropped = sentences[key] & common
        kept = {p for p in pieces[key] - common if not any(p in sentence for sentence in dropped)}
        out[key] = (sentences[key] - common) | kept
    return out
