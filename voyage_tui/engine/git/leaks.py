"""Finding holdout text in tracked files: one read of each tracked file, indexed, not a grep.

Why not `git grep -F -f patterns`: git tests every pattern on every line in turn, so its time
grows with the number of patterns. Measured with 2 threads on an 11 MB tree: 100 patterns 0.08 s,
1,000 patterns 0.7 s, 7,000 patterns 15.6 s; 1,000 canaries over an 81 MB generated workspace
2.6 s. A suite has one canary and several passages per holdout, so this module reads each tracked
file once and looks its words up in hash sets instead, in a time that does not depend on the
number of holdouts:
- canaries: the file's bytes with every character that is not a letter, digit, `_` or `-` turned
  into a space, split into words, intersected with the set of canaries. A canary is found where it
  stands as a whole word, as a GUID always does (`# canary: <GUID>`, `"<GUID>",`); one glued to
  further letters or digits is not. A canary with other characters is searched with `find`.
- passages: every passage has at least 10 words; its words 2 to 7 are whole white-space-separated
  tokens wherever the passage occurs, so a file whose token trigrams miss every passage's key
  cannot hold any passage (the index never misses one); a file that does share a key is searched
  for the passages behind it with `str.find`, exactly.
"""

from __future__ import annotations

import hashlib
import os
import re
import stat
from bisect import bisect_right
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import AnyStr

MAX_SCANNED_BYTES = 16 * 1024 * 1024
"""A tracked file larger than this is not searched (logs, data dumps)."""
BINARY_SNIFF = 8000
"""Like git: a NUL byte in the first 8,000 bytes makes a file binary; binary files are skipped."""

_WORD_BYTES = frozenset(b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_-")
_JOINS = _WORD_BYTES | frozenset(range(128, 256))
"""Bytes that glue onto a word: ASCII word characters and every byte of a non-ASCII character."""
_TO_WORDS = bytes(c if c in _JOINS else 32 for c in range(256))
_WORDY = re.compile(r"^[A-Za-z0-9_-]+$")

CANARY = "canary"
PASSAGE = "passage"


@dataclass(frozen=True, slots=True)
class Hit:
    kind: str
    """CANARY or PASSAGE."""
    path: str
    """Repository-relative."""
    line: int
    text: str
    """The canary or passage found."""


KEY_WORDS = 6
"""Words 2 to 7 of a passage are its key: long enough that unrelated text sharing a key is rare
even in a small vocabulary (a key hit costs a `find` over the file)."""


class PassageIndex:
    def __init__(self, passages: Iterable[str]) -> None:
        self.by_key: dict[tuple[str, ...], list[str]] = {}
        for passage in passages:
            words = passage.split()
            if len(words) < KEY_WORDS + 2:
                continue  # the rule never yields one; the key needs interior words
            self.by_key.setdefault(tuple(words[1 : KEY_WORDS + 1]), []).append(passage)

    def __bool__(self) -> bool:
        return bool(self.by_key)

    def found_in(self, text: str) -> list[tuple[str, int]]:
        """(passage, character offset) of every occurrence in `text`."""
        tokens = text.split()
        keys = self.by_key.keys()
        shifted = [tokens[n:] for n in range(KEY_WORDS)]
        if keys.isdisjoint(zip(*shifted, strict=False)):
            return []
        out: list[tuple[str, int]] = []
        for key in keys & set(zip(*shifted, strict=False)):
            for passage in self.by_key[key]:
                start = text.find(passage)
                while start >= 0:
                    out.append((passage, start))
                    start = text.find(passage, start + len(passage))
        return out


BATCH_BYTES = 2 * 1024 * 1024
"""Files are searched in batches of about this size, joined by a newline: one C-level pass per
batch instead of several Python calls per file, with the memory of the word lists bounded."""


class LeakScanner:
    def __init__(self, passages: Iterable[str], canaries: Iterable[str]) -> None:
        self.passages = PassageIndex(passages)
        self.word_canaries: dict[bytes, str] = {}
        self.other_canaries: dict[bytes, str] = {}
        for canary in canaries:
            target = self.word_canaries if _WORDY.match(canary) else self.other_canaries
            target[canary.encode("utf-8")] = canary

    def __bool__(self) -> bool:
        return bool(self.passages or self.word_canaries or self.other_canaries)

    def scan(
        self,
        toplevel: str,
        tracked: Iterable[str],
        passages_wanted: Callable[[str], bool],
        expected: Callable[[str], str | None] = lambda path: None,
    ) -> list[Hit]:
        """Canaries in every tracked file, passages in those `passages_wanted` accepts; files as
        they are in the work tree. `expected(path)` names the canary that belongs in that file
        (a holdout's own folder): it is not reported there, and not searched for there."""
        hits: list[Hit] = []
        if not self:
            return hits
        canaries = bool(self.word_canaries or self.other_canaries)
        batch: list[tuple[str, bytes, bool]] = []
        size = 0
        for path in tracked:
            if not path:
                continue
            want_passages = bool(self.passages) and passages_wanted(path)
            if not (want_passages or canaries):
                continue
            data = _read(os.path.join(toplevel, path))
            if data is None:
                continue
            own = expected(path) if canaries else None
            if own:
                # Blank the canary where it belongs, keeping every offset: then a canary found
                # in a batch is a leak, and only leaks cost a search of the batch.
                raw = own.encode("utf-8")
                data = data.replace(raw, b" " * len(raw))
            batch.append((path, data, want_passages))
            size += len(data)
            if size >= BATCH_BYTES:
                hits += self._batch(batch, canaries)
                batch, size = [], 0
        if batch:
            hits += self._batch(batch, canaries)
        return hits

    def _batch(self, batch: list[tuple[str, bytes, bool]], canaries: bool) -> list[Hit]:
        hits: list[Hit] = []
        if canaries:
            hits += self._canaries([(path, data) for path, data, _ in batch])
        wanted = [(path, data) for path, data, want in batch if want]
        if wanted:
            hits += self._passages(wanted)
        return hits

    def _canaries(self, files: list[tuple[str, bytes]]) -> list[Hit]:
        blob, starts = _join(files, b"\n")
        found: list[tuple[int, str]] = []
        if self.word_canaries and not self.word_canaries.keys().isdisjoint(
            blob.translate(_TO_WORDS).split()
        ):
            words = self.word_canaries.keys() & set(blob.translate(_TO_WORDS).split())
            for raw in words:
                start = blob.find(raw)
                while start >= 0:
                    end = start + len(raw)
                    if (start == 0 or blob[start - 1] not in _JOINS) and (
                        end == len(blob) or blob[end] not in _JOINS
                    ):
                        found.append((start, self.word_canaries[raw]))
                    start = blob.find(raw, end)
        for raw, canary in self.other_canaries.items():
            start = blob.find(raw)
            while start >= 0:
                found.append((start, canary))
                start = blob.find(raw, start + len(raw))
        return [
            Hit(CANARY, *_place(blob, starts, files, offset, b"\n"), text)
            for offset, text in sorted(found)
        ]

    def _passages(self, files: list[tuple[str, bytes]]) -> list[Hit]:
        decoded = [(path, data.decode("utf-8", "surrogateescape")) for path, data in files]
        text, starts = _join(decoded, "\n")
        return [
            Hit(PASSAGE, *_place(text, starts, decoded, offset, "\n"), passage)
            for passage, offset in sorted(self.passages.found_in(text), key=lambda p: p[1])
        ]


def _join(files: Sequence[tuple[str, AnyStr]], sep: AnyStr) -> tuple[AnyStr, list[int]]:
    starts: list[int] = []
    pos = 0
    for _, data in files:
        starts.append(pos)
        pos += len(data) + 1
    return sep.join(data for _, data in files), starts


def _place(
    blob: AnyStr,
    starts: list[int],
    files: Sequence[tuple[str, AnyStr]],
    offset: int,
    newline: AnyStr,
) -> tuple[str, int]:
    """(path, 1-based line) of an offset into a joined batch."""
    n = bisect_right(starts, offset) - 1
    return files[n][0], blob.count(newline, starts[n], offset) + 1


_OPEN_FLAGS = os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0)


def blob_id(data: bytes, object_format: str = "sha1") -> str:
    """The id git gives these bytes stored as a blob (no filter, no line-end conversion)."""
    digest = hashlib.sha256() if object_format == "sha256" else hashlib.sha1()
    digest.update(b"blob %d\0" % len(data))
    digest.update(data)
    return digest.hexdigest()


def read_scanned(full: str) -> bytes | None:
    """A file's bytes as the scan reads them (None where it reads nothing)."""
    return _read(full)


def _read(full: str) -> bytes | None:
    """A regular file's bytes (os-level calls: a suite has thousands of small files), or None for
    a symlink, a submodule, a FIFO, a huge file, a binary file, or a file gone from the tree."""
    try:
        fd = os.open(full, _OPEN_FLAGS)
    except OSError:
        return None
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode) or info.st_size > MAX_SCANNED_BYTES:
            return None
        data = os.read(fd, info.st_size + 1)
        while len(data) < info.st_size:  # a short read: keep reading
            more = os.read(fd, info.st_size + 1 - len(data))
            if not more:
                break
            data += more
    except OSError:
        return None
    finally:
        os.close(fd)
    if b"\x00" in data[:BINARY_SNIFF]:
        return None
    return data
