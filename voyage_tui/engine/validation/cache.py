"""A cache of validated items between runs, so a big suite is re-checked only where it changed.

The app reuses the items of files unchanged since its last start; `voyage-tui validate` reuses
them too, and stores beside them the rest of its answer (result_cache.py), so an unchanged suite
is answered from the cache file and a stat of each file. One file per workspace serves both.

It lives in the user's cache dir, never in the workspace, and is msgpack: plain data that
cannot run code when read back (the old pickle could). See cache_store.py for how the folder and
the file are checked before a byte is read, and written without following planted links.

An item is reused only when its file and every file it depends on (context files, the README
beside a gold file, a run's gold file) have the same stamp (loading/stamps.py) as when it was
checked, each with the identity of every folder on the way to it from the workspace root
(PathStamper: a folder moved and linked back changes what is found below it, not the files). The whole cache is dropped when anything global changes (cache_key.py): voyage-tui's
code, voyage.toml, journey.md, the rubric, the rule catalogue, the routing table.

The file has two sections, each followed by the CRC-32 of its bytes (its seal), then the
length of each (eight bytes each, big-endian):
- the head, [MAGIC, CACHE_FORMAT, key, summaries, [references, max_bytes], listing]: each
  file's item in two parts (below), the summary here; the reference paths and the size limit
  the key was computed from (so a reader can recompute it without parsing voyage.toml);
  validate's listing (result_cache.py) or None;
- the details: the rest of each file's item, {rel: details}, unpacked only by a reader of
  whole items. validate's replay reads the head alone (and checks the details' seal a piece at
  a time), so an unchanged suite's answer never holds the details in memory.
The file is written without fsync (a cache is rebuilt, never lost), so a crash may leave it torn
or zero-filled: the seals turn any such file into "no cache" before a byte of it is unpacked.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import zlib
from collections.abc import Iterable, Iterator
from pathlib import Path

import msgpack

from voyage_tui.engine.bulk import gc_paused
from voyage_tui.engine.diagnostics import Diagnostic, Severity
from voyage_tui.engine.loading.stamps import PathStamper, Stamp, same_stamp, stamp
from voyage_tui.engine.validation.cache_key import key_of
from voyage_tui.engine.validation.cache_store import (
    cache_root,
    list_private,
    read_private,
    remove_private,
    touch_private,
    write_private,
)

TYPE_CHECKING = False  # typing's, without importing typing: validate's start-up (issue 23)
if TYPE_CHECKING:
    from typing import Any

    from voyage_tui.engine.items import Item
    from voyage_tui.engine.loading.once import ReadOnce
    from voyage_tui.engine.validation.layout_replay import ListingParts
    from voyage_tui.engine.workspace.model import Workspace

__all__ = ["CACHE_FORMAT", "ItemCache", "cache_root", "stamp"]

MAGIC = "voyage-tui item cache"
CACHE_FORMAT = 7
"""4: a stamp ends with the chain of the folders above the file (PathStamper). 5: an item's
per-kind facts are the list of its typed facts' fields (items.FACTS), no longer a dict. 7: the
head and the details are sections of their own, each sealed, their lengths last (issue 23: at
100,000 fixtures the details, packed as a bin inside one list, were copied when it was read)."""
LISTING_FORMAT = 1
"""The format of validate's listing in the file (result_cache.py writes and replays it,
layout_replay.py lists a Layout from it)."""
MAX_CACHE_BYTES = 256 * 1024 * 1024
"""One workspace's cache file at most: a bigger one is neither written (the old one is removed)
nor read. 12,100 files take about 14 MB."""
MAX_TOTAL_BYTES = 1024 * 1024 * 1024
"""All workspaces' cache files together: past it, the least recently written are removed."""
SUFFIX = ".msgpack"
# Paths are str with surrogate escapes where a name is not UTF-8, and a JSON "\ud800" gives a
# lone surrogate too: surrogatepass stores every str exactly.
_TEXT = "surrogatepass"


def cache_file_name(root_real: str) -> str:
    """The cache file of the workspace whose real path is `root_real`."""
    return hashlib.sha256(os.fsencode(root_real)).hexdigest()[:24] + SUFFIX


# --- one item as a compact list ------------------------------------------------------------------
#
# [stamp, deps, path, kind, id, fixture_class, boundary, visibility, id_position, diagnostics,
#  prompt, ground_truth, canary, final_head_sha, sha_position, parent, facts]
# deps: [[dep, stamp], ...]; path None when it is the entry's key; facts: None or the fields of
# the kind's facts (items.FACTS) as a list; diagnostics:
# [[path or None (the item's), line, column, severity, code, message], ...]
# The first SUMMARY_FIELDS are the summary: what validate needs to replay an answer (the stamps,
# the diagnostics, what the suite-level rules read). The file keeps the rest (the details: the
# texts the app shows) in a section of its own, unpacked only by a reader of whole items.

SUMMARY_FIELDS = 10

_SEVERITY = {s.value: s for s in Severity}
_OPT_INT = (int, type(None))


def as_text(value: object) -> str:
    """`value`, a str from the file; TypeError for anything else (a damaged entry)."""
    if type(value) is not str:
        raise TypeError("not a str")
    return value


def encode_diagnostics(diagnostics: Iterable[Diagnostic], own: str | None = None) -> list[Any]:
    """Diagnostics as stored; a path that is `own` (the file of the entry) is written None."""
    return [
        [None if d.path == own else d.path, d.line, d.column, d.severity.value, d.code, d.message]
        for d in diagnostics
    ]


def decode_diagnostics(path: str | None, raw: list[Any]) -> list[Diagnostic]:
    """Stored diagnostics back; a None path stands for `path`, the file of the entry (None: there
    is none, and a None path is damage). Raises TypeError, ValueError or KeyError on anything
    encode_item or encode_diagnostics did not write."""
    diagnostics = []
    for d_path, line, column, severity, code, message in raw:
        if d_path is None:
            d_path = path
        if (
            type(d_path) is not str
            or type(line) not in _OPT_INT
            or type(column) not in _OPT_INT
            or type(code) is not str
            or type(message) is not str
        ):
            raise TypeError("not a diagnostic of this format")
        diagnostics.append(Diagnostic(d_path, line, column, _SEVERITY[severity], code, message))
    return diagnostics


class CacheFile:
    """What a cache file holds. (A plain class: a NamedTuple would import typing, issue 23.)"""

    __slots__ = ("key", "listing", "max_bytes", "packed_details", "references", "summaries")

    def __init__(
        self,
        key: str,
        summaries: dict[str, list[Any]],
        packed_details: memoryview | None,
        references: list[str],
        max_bytes: int,
        listing: object,
    ) -> None:
        self.key = key
        self.summaries = summaries
        """Each file's entry up to SUMMARY_FIELDS, unchecked."""
        self.packed_details = packed_details
        """The rest of each entry, packed on their own (a view of the file read, not a copy):
        a reader of the summaries alone (validate's replay) never unpacks them, nor reads them
        (None then)."""
        self.references = references
        self.max_bytes = max_bytes
        self.listing = listing
        """validate's listing (result_cache.py) as read, unchecked; None when there is none."""

    def entries(self) -> dict[str, list[Any]] | None:
        """Whole entries: each summary with its details; None when the details are damaged."""
        if self.packed_details is None:
            return None
        # Paused: twice as fast on a big suite's hundred thousand small lists, and the join
        # makes as many again (a collection after the unpack would scan all of them).
        with gc_paused():
            try:
                details = msgpack.unpackb(
                    self.packed_details, raw=False, unicode_errors=_TEXT, strict_map_key=True
                )
            except Exception:  # msgpack reports damage with several exception types
                return None
            if type(details) is not dict:
                return None
            entries = {}
            for rel, summary in self.summaries.items():
                detail = details.get(rel)
                if type(summary) is list and type(detail) is list:
                    entries[rel] = summary + detail
            return entries


def pack(
    key: str,
    entries: dict[str, list[Any]],
    references: list[str] | None = None,
    max_bytes: int = 0,
    listing: object = None,
) -> bytes:
    """The cache file's bytes: pack_chunks joined."""
    return b"".join(pack_chunks(key, entries, references, max_bytes, listing))


_FLUSH_BYTES = 1 << 20
_CRC_BYTES = 4
_LENGTH_BYTES = 8
TRAILER_BYTES = 2 * _LENGTH_BYTES
"""The lengths of the two sections, at the end of the file."""


def pack_chunks(
    key: str,
    entries: dict[str, list[Any]],
    references: list[str] | None = None,
    max_bytes: int = 0,
    listing: object = None,
) -> Iterator[bytes | bytearray]:
    """The cache file in pieces of about a megabyte: the same bytes as `seal` of msgpack.packb
    of the head and of the details, without the whole file, either section, or each entry's
    summary and details as lists of their own in memory at once. At 100,000 fixtures the file
    is over a hundred megabytes, and packing it whole held it three times over (issue 23)."""
    cut = SUMMARY_FIELDS
    packer = msgpack.Packer(unicode_errors=_TEXT)
    pack_one = packer.pack
    lengths = []
    for details in (False, True):
        crc = size = 0
        buffer = bytearray()
        if not details:
            buffer += packer.pack_array_header(6)
            for part in (MAGIC, CACHE_FORMAT, key):
                buffer += pack_one(part)
        buffer += packer.pack_map_header(len(entries))
        for rel, entry in entries.items():
            buffer += pack_one(rel)
            buffer += pack_one(entry[cut:] if details else entry[:cut])
            if len(buffer) >= _FLUSH_BYTES:
                crc = zlib.crc32(buffer, crc)
                size += len(buffer)
                yield buffer
                buffer = bytearray()
        if not details:
            buffer += pack_one([references or [], max_bytes])
            buffer += pack_one(listing)
        crc = zlib.crc32(buffer, crc)
        size += len(buffer)
        lengths.append(size)
        buffer += crc.to_bytes(_CRC_BYTES, "big")
        if details:
            for length in lengths:
                buffer += length.to_bytes(_LENGTH_BYTES, "big")
        yield buffer


def seal(head: bytes | bytearray, details: bytes | bytearray) -> bytes:
    """A cache file of these sections: each followed by its CRC-32 (big-endian), then the
    length of each."""
    return b"".join(
        [
            head,
            zlib.crc32(head).to_bytes(_CRC_BYTES, "big"),
            details,
            zlib.crc32(details).to_bytes(_CRC_BYTES, "big"),
            len(head).to_bytes(_LENGTH_BYTES, "big"),
            len(details).to_bytes(_LENGTH_BYTES, "big"),
        ]
    )


def _lengths(size: int, trailer: bytes | memoryview) -> tuple[int, int] | None:
    """The lengths of the head and the details in a file of `size` bytes ending with
    `trailer`; None when they do not add up to it."""
    head = int.from_bytes(trailer[:_LENGTH_BYTES], "big")
    details = int.from_bytes(trailer[_LENGTH_BYTES:], "big")
    if head + details + 2 * _CRC_BYTES + TRAILER_BYTES != size:
        return None
    return head, details


def _sealed(part: memoryview) -> memoryview | None:
    """`part` without its last four bytes when they are the CRC-32 of the others."""
    body = part[:-_CRC_BYTES]
    if zlib.crc32(body).to_bytes(_CRC_BYTES, "big") != part[-_CRC_BYTES:]:
        return None
    return body


def unseal(data: bytes | bytearray) -> tuple[memoryview, memoryview] | None:
    """The head and the details of a whole file (views of `data`, not copies), or None when a
    length or a CRC-32 does not match (torn, zero-filled or otherwise damaged since it was
    written)."""
    if len(data) < TRAILER_BYTES + 2 * _CRC_BYTES:
        return None
    view = memoryview(data)
    lengths = _lengths(len(data), view[-TRAILER_BYTES:])
    if lengths is None:
        return None
    cut = lengths[0] + _CRC_BYTES
    head = _sealed(view[:cut])
    details = _sealed(view[cut : cut + lengths[1] + _CRC_BYTES])
    if head is None or details is None:
        return None
    return head, details


class HeadReader:
    """Reads a cache file's head alone with read_private: `length` says how much of the file
    to read, `rest` checks the seal of the details as they go by, and `head` is the head, once
    both seals are good."""

    def __init__(self) -> None:
        self._details = -1
        self._crc = 0
        self._tail = bytearray()

    def length(self, size: int, trailer: bytes) -> int | None:
        lengths = _lengths(size, trailer)
        if lengths is None:
            return None
        self._details = lengths[1]
        return lengths[0] + _CRC_BYTES

    def rest(self, piece: memoryview) -> None:
        take = max(min(self._details, len(piece)), 0)
        self._crc = zlib.crc32(piece[:take], self._crc)
        self._details -= take
        self._tail += piece[take:]

    def head(self, data: bytearray | None) -> memoryview | None:
        """The head of `data` (what read_private gave), or None when a seal does not match."""
        if data is None or self._details != 0 or len(data) < _CRC_BYTES:
            return None
        if self._tail[:_CRC_BYTES] != self._crc.to_bytes(_CRC_BYTES, "big"):
            return None
        return _sealed(memoryview(data))


def read_head(folder: Path, name: str) -> CacheFile | None:
    """The head of the cache file `folder/name` (read_cache_file's, without the details),
    read without keeping the details in memory; None for anything but a sound file of this
    format."""
    reader = HeadReader()
    data = read_private(
        folder,
        name,
        MAX_CACHE_BYTES,
        head=reader.length,
        trailer=TRAILER_BYTES,
        rest=reader.rest,
    )
    head = reader.head(data)
    return None if head is None else _read_head(head, None)


def read_cache_file(data: bytes | bytearray) -> CacheFile | None:
    """A cache file of this format, the types of its parts checked (of the entries, when they
    are used); None for anything else (another format, a truncated or damaged file, any bytes)."""
    parts = unseal(data)
    return None if parts is None else _read_head(*parts)


def _read_head(head: memoryview, details: memoryview | None) -> CacheFile | None:
    try:
        with gc_paused():
            top = msgpack.unpackb(head, raw=False, unicode_errors=_TEXT, strict_map_key=True)
    except Exception:  # msgpack reports damage with several exception types; all mean "none"
        return None
    if (
        type(top) is not list
        or len(top) != 6
        or top[0] != MAGIC
        or top[1] != CACHE_FORMAT
        or type(top[2]) is not str
        or type(top[3]) is not dict
        or type(top[4]) is not list
        or len(top[4]) != 2
        or type(top[4][0]) is not list
        or not all(type(rel) is str for rel in top[4][0])
        or type(top[4][1]) is not int
    ):
        return None
    return CacheFile(top[2], top[3], details, top[4][0], top[4][1], top[5])


def unpack(data: bytes | bytearray, key: str) -> dict[str, list[Any]] | None:
    """The entries of a cache file written for `key`; None for anything else (another format
    or workspace state, a truncated or damaged file)."""
    read = read_cache_file(data)
    return read.entries() if read is not None and read.key == key else None


class ItemCache:
    def __init__(
        self,
        ws: Workspace,
        *,
        root: Path | None = None,
        listing: bool = False,
        reuse: bool = True,
        reads: ReadOnce | None = None,
    ) -> None:
        """The cache of `ws` in `root` (the user's cache dir by default). The key is computed
        here, from the references as `reads` (the run's, loading/once.py) holds them: the
        check parses those same bytes, so the key is that of what was checked (without
        `reads`, they are read now, before the check reads them: a reference edited in between
        then changes the key of the next run instead of being recorded as seen). `listing`:
        the walk that follows stamps the folders it lists, for validate's listing. `reuse=False`
        (`validate --no-cache`): nothing is read, every file is checked, and what was found is
        written, so the next run with the cache starts from it."""
        # The items' codec, imported here: validate's replay reads the cache file without
        # making an Item, and so without importing items.py (its start-up, issue 23).
        from voyage_tui.engine.validation.item_entry import decode_item, encode_item

        self._decode = decode_item
        self._encode = encode_item
        self.ws = ws
        self.reuse = reuse
        self.stamper = PathStamper(str(ws.root))
        self.key, self.references = key_of(ws, reads)
        self.max_bytes = ws.max_file_bytes
        self.listing = listing
        self.folder = root or cache_root()
        self.path = self.folder / cache_file_name(ws.root_real)
        self._legacy_name = self.path.with_suffix(".pickle").name
        self.entries: dict[str, list[Any]] = {}
        # Stamps taken by fresh(), before the file was checked: an edit made while it was being
        # checked then shows up as a changed stamp next time instead of being recorded as seen.
        self._stamps: dict[str, Stamp] = {}
        self._dep_stamps: dict[str, dict[str, Stamp]] = {}
        self.read_stamps: dict[str, bytes] = {}
        """A file with no entry is not stamped by fresh(): its check keeps the fstat of its
        read here (Suite.prepare, safe_read.recording_stats), taken before its bytes were read,
        and record() makes its stamp of it (with the chain of the folders above it)."""
        self.recorded_listing: object = None
        """validate's listing (result_cache.py) in the file `load()` read, unchecked; None when
        it held none (layout_replay.py replays it)."""

    def load(self) -> None:
        """Read the file: its entries, and validate's listing (`recorded_listing`)."""
        self.recorded_listing = None
        if not self.reuse:
            self.entries = {}
            return
        data = read_private(self.folder, self.path.name, MAX_CACHE_BYTES)
        read = read_cache_file(data) if data is not None else None
        if read is None or read.key != self.key:
            self.entries = {}
            return
        self.entries = read.entries() or {}
        # A listing goes with the entries it was written with (its files' stamps are theirs).
        self.recorded_listing = read.listing if self.entries or not read.summaries else None

    def fresh(self, rel: str) -> Item | None:
        """The cached item for `rel` if nothing it depends on changed since it was checked."""
        raw = self._unchanged_entry(rel, remember=True)
        if raw is None:
            return None
        try:
            return self._decode(rel, raw)
        except (TypeError, ValueError, KeyError, IndexError):
            return None

    def unchanged(self, rel: str) -> bool:
        """Whether `rel` and every file it depends on have the stamps recorded for it (the
        stamps taken before it was checked): fresh() without decoding the item."""
        return self._unchanged_entry(rel, remember=False) is not None

    def _unchanged_entry(self, rel: str, *, remember: bool) -> list[Any] | None:
        raw = self.entries.get(rel)
        if raw is None:
            # Nothing to compare with (a first run): the stamp comes from the check's read
            # (read_stamps), or is taken when recorded.
            return None
        stamp_of = self.stamper.stamp
        current = stamp_of(rel)
        if remember:
            self._stamps[rel] = current
        if current is None:
            return None
        try:
            if not same_stamp(raw[0], current):
                return None
            deps = raw[1]
            if deps:
                seen: dict[str, Stamp] = {}
                for dep, dep_stamp in deps:
                    now = stamp_of(as_text(dep))
                    if not same_stamp(dep_stamp, now):
                        return None
                    seen[dep] = now
                if remember:
                    self._dep_stamps[rel] = seen
        except (TypeError, ValueError, KeyError, IndexError):
            return None
        return raw

    def stamps_of(self, rel: str, deps: Iterable[str]) -> tuple[Stamp, list[list[Any]]]:
        """The stamp of `rel` taken before it was checked (or now, if fresh() never saw it), and
        its `deps` as [dep, stamp] pairs. A freshly checked item's deps are stamped now, after
        its check: an edit to one in between is missed until the next edit to it."""
        stamp_of = self.stamper.stamp
        own = self._stamps[rel] if rel in self._stamps else stamp_of(rel)
        seen = self._dep_stamps.get(rel, {})
        return own, [[dep, seen[dep] if dep in seen else stamp_of(dep)] for dep in deps]

    def add_read_stamps(self, more: object) -> None:
        """Stamps of reads made elsewhere (the forked child's share: ForkedMap.from_child),
        taken as read_stamps; anything else (nothing came back) is ignored."""
        if type(more) is dict:
            for rel, packed in more.items():
                if type(rel) is str and type(packed) is bytes:
                    self.read_stamps.setdefault(rel, packed)

    def _stamp_reads(self) -> None:
        """Stamps of the files read_stamps holds, with the chains of this run's stamper (the
        walk's folders): before record() starts a new run."""
        chain, stamps = self.stamper.chain, self._stamps
        for rel, packed in self.read_stamps.items():
            if rel not in stamps:
                above = chain(rel.rpartition("/")[0])
                if above is not None:
                    stamps[rel] = packed + above
        self.read_stamps = {}

    def new_run(self) -> None:
        """Look at every folder again: for stamps taken later than the load (the app's record
        at quit, its check of what changed since the load), not with what they were then."""
        self.stamper = PathStamper(str(self.ws.root))

    def record(self, items: dict[str, Item]) -> None:
        """Make `items` the entries to save, as checked now. Git diagnostics are left out: they
        are recomputed."""
        from voyage_tui.engine.validation.item_entry import without_git

        entries: dict[str, list[Any]] = {}
        self._stamp_reads()
        self.new_run()
        for rel, item in items.items():
            own, deps = self.stamps_of(rel, item.deps)
            if own is None:
                continue
            entry = self._encode(rel, own, deps, without_git(item))
            if entry is not None:
                entries[rel] = entry
        self.entries = entries

    def touch(self) -> None:
        """The file was used but not rewritten: mark it recent for the size bound's pruning."""
        touch_private(self.folder, self.path.name)

    def save(self, items: dict[str, Item], listing: ListingParts | None = None) -> None:
        """Record `items` and write them (the app), with the listing `listing` makes of them
        (layout_replay.py) for the next start to replay."""
        self.record(items)
        self.write(None if listing is None else listing.finish(self))

    def write(self, listing: object = None) -> None:
        """Write the recorded entries, with validate's `listing` (result_cache.py) or none."""
        chunks = pack_chunks(self.key, self.entries, self.references, self.max_bytes, listing)
        # Not fsync'd: a crash leaves at worst a file the CRC refuses, and the next run checks
        # the files again; the fsync cost a quarter of a first run (issue 23). Written as it is
        # packed; one that grows past the bound is not written (and the old one goes: outdated
        # now, and never used again), nor one that cannot be packed.
        written = write_private(
            self.folder,
            self.path.name,
            chunks,
            durable=False,
            limit=MAX_CACHE_BYTES,
            failures=(TypeError, ValueError, OverflowError),
        )
        if written is None:
            remove_private(self.folder, self.path.name)
        elif written:
            self.recorded_listing = listing  # what the file holds now (Suite.changed_since_load)
            # voyage-tui before msgpack left a pickle (readable by others) beside it.
            remove_private(self.folder, self._legacy_name)
            prune(self.folder, keep=self.path.name)


def prune(folder: Path, keep: str, limit: int = MAX_TOTAL_BYTES) -> None:
    """Remove the least recently written cache files until all of them take at most `limit`
    bytes (one per workspace ever opened would otherwise pile up); `keep` stays."""
    files = list_private(folder, SUFFIX)
    total = sum(size for _, size, _ in files)
    for name, size, _ in sorted(files, key=lambda f: f[2]):
        if total <= limit:
            return
        if name != keep:
            with contextlib.suppress(OSError):
                remove_private(folder, name)
            total -= size
