"""A cache of validated items between runs of the app, so reopening a big suite re-checks only
what changed since the last time.

It lives in the user's cache dir, never in the workspace, and is msgpack: plain data that
cannot run code when read back (the old pickle could). See cache_store.py for how the folder and
the file are checked before a byte is read, and written without following planted links.

An item is reused only when its file and every file it depends on (context files, the README
beside a gold file, a run's gold file) have the same stamp as when it was checked. A stamp is
the lstat of the path and, for a symlink, the stat of its target as well, each with mtime, ctime,
size, inode and device: an edit through a symlinked task.yaml changes the target's stamp, and an
edit that puts size and mtime back (`os.utime`) still moves the ctime, which no user call sets.
The whole cache is dropped when anything global changes: voyage-tui's code, voyage.toml,
journey.md, the rubric, the rule catalogue.
"""

from __future__ import annotations

import dataclasses
import hashlib
import os
import stat
import sys
from pathlib import Path
from typing import Any

import msgpack

from voyage_tui import __version__
from voyage_tui.engine.bulk import gc_paused
from voyage_tui.engine.diagnostics import Diagnostic, Severity
from voyage_tui.engine.items import Item
from voyage_tui.engine.references.loaded import References
from voyage_tui.engine.validation.cache_store import (
    cache_root,
    read_private,
    remove_private,
    write_private,
)
from voyage_tui.engine.workspace.config import CONFIG_NAME
from voyage_tui.engine.workspace.model import Workspace

__all__ = ["CACHE_FORMAT", "ItemCache", "cache_root", "decode_item", "encode_item", "stamp"]

MAGIC = "voyage-tui item cache"
CACHE_FORMAT = 2
MAX_CACHE_BYTES = 256 * 1024 * 1024
MAX_EXTRA_DEPTH = 32
# Paths are str with surrogate escapes where a name is not UTF-8, and a JSON "\ud800" gives a
# lone surrogate too: surrogatepass stores every str exactly.
_TEXT = "surrogatepass"

Stamp = tuple[int, ...] | None
"""lstat (mtime_ns, ctime_ns, size, ino, dev), and for a symlink the same five of its target (or
-1 when it dangles); None when the path does not exist."""


def stamp(path: str) -> Stamp:
    try:
        st = os.lstat(path)
    except OSError:
        return None
    own = (st.st_mtime_ns, st.st_ctime_ns, st.st_size, st.st_ino, st.st_dev)
    if not stat.S_ISLNK(st.st_mode):
        return own
    try:
        target = os.stat(path)
    except OSError:
        return (*own, -1)
    return (
        *own,
        target.st_mtime_ns,
        target.st_ctime_ns,
        target.st_size,
        target.st_ino,
        target.st_dev,
    )


def _engine_fingerprint() -> str:
    """Sizes and mtimes of the engine's sources: an edited rule (in a development checkout)
    invalidates the cache even when the version number did not change."""
    root = Path(__file__).resolve().parents[1]
    digest = hashlib.sha256()
    for path in sorted(root.rglob("*.py")):
        st = path.stat()
        line = f"{path.relative_to(root)}:{st.st_size}:{st.st_mtime_ns}\n"
        digest.update(line.encode("utf-8", _TEXT))
    return digest.hexdigest()


def global_key(ws: Workspace, refs: References) -> str:
    """What every item depends on. voyage.toml and the references go in by stamp, not content:
    reading them here would open whatever the workspace put there (a FIFO, /dev/zero)."""
    parts = [
        __version__,
        str(CACHE_FORMAT),
        sys.version,
        _engine_fingerprint(),
        ws.root_real,
        repr(stamp(ws.abs(CONFIG_NAME))),
    ]
    for loaded in (refs.journey, refs.rubric, refs.catalogue):
        parts.append(loaded.path)
        parts.append("default" if loaded.is_default else repr(stamp(ws.abs(loaded.path))))
    return hashlib.sha256("\0".join(parts).encode("utf-8", _TEXT)).hexdigest()


# --- one item as a compact tuple ----------------------------------------------------------------
#
# (stamp, deps, path, kind, id, fixture_class, boundary, visibility, prompt, ground_truth, canary,
#  final_head_sha, sha_position, id_position, parent, extra, diagnostics)
# deps: [[dep, stamp], ...]; path None when it is the entry's key; diagnostics:
# [[path or None (the item's), line, column, severity, code, message], ...]

_SEVERITY = {s.value: s for s in Severity}


def _plain(value: object, depth: int = 0) -> bool:
    """Whether msgpack gives `value` back equal and of the same types: JSON-like data only."""
    kind = type(value)  # exact types: a tuple or an IntEnum would come back as something else
    if value is None or kind is str or kind is bool or kind is float:
        return True
    if kind is int and isinstance(value, int):
        return -(2**63) <= value < 2**64
    if depth >= MAX_EXTRA_DEPTH:
        return False
    if kind is list and isinstance(value, list):
        return all(_plain(v, depth + 1) for v in value)
    if kind is dict and isinstance(value, dict):
        return all(type(k) is str and _plain(v, depth + 1) for k, v in value.items())
    return False


def encode_item(rel: str, own: Stamp, deps: list[list[Any]], item: Item) -> list[Any] | None:
    """The entry for `item`, or None when it cannot be stored exactly (then it is checked again
    next time, which is only slower)."""
    if not _plain(item.extra):
        return None
    path = item.path
    return [
        own,
        deps,
        None if path == rel else path,
        item.kind,
        item.id,
        item.fixture_class,
        item.boundary,
        item.visibility,
        item.prompt,
        item.ground_truth,
        item.canary,
        item.final_head_sha,
        item.sha_position,
        item.id_position,
        item.parent,
        item.extra,
        [
            [
                None if d.path == path else d.path,
                d.line,
                d.column,
                d.severity.value,
                d.code,
                d.message,
            ]
            for d in item.diagnostics
        ],
    ]


def _text(value: object) -> str:
    if type(value) is not str:
        raise TypeError("not a str")
    return value


_OPT_TEXT = (str, type(None))
_OPT_INT = (int, type(None))


def _position(value: Any) -> tuple[int, int] | None:
    if value is None:
        return None
    line, column = value
    if type(line) is not int or type(column) is not int:
        raise TypeError("not a position")
    return (line, column)


def decode_item(rel: str, raw: list[Any]) -> Item:
    """The Item of an entry. Raises TypeError or ValueError (KeyError for a severity) on
    anything encode_item did not write, so a damaged entry is checked again rather than shown.
    Runs once per reused item at every start: checks are inline and the Item positional."""
    (
        _,
        deps,
        path,
        kind,
        id_,
        fixture_class,
        boundary,
        visibility,
        prompt,
        ground_truth,
        canary,
        final_head_sha,
        sha_position,
        id_position,
        parent,
        extra,
        raw_diagnostics,
    ) = raw
    if path is None:
        path = rel
    if (
        type(path) is not str
        or type(kind) is not str
        or type(prompt) is not str
        or type(ground_truth) is not str
        or type(id_) not in _OPT_TEXT
        or type(fixture_class) not in _OPT_TEXT
        or type(boundary) not in _OPT_TEXT
        or type(visibility) not in _OPT_TEXT
        or type(canary) not in _OPT_TEXT
        or type(final_head_sha) not in _OPT_TEXT
        or type(parent) not in _OPT_TEXT
        or type(extra) is not dict
        or (extra and not _plain(extra))
    ):
        raise TypeError("not an entry of this format")
    diagnostics = []
    for d_path, line, column, severity, code, message in raw_diagnostics:
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
    return Item(
        path,
        kind,
        id_,
        fixture_class,
        boundary,
        visibility,
        prompt,
        ground_truth,
        canary,
        final_head_sha,
        _position(sha_position),
        _position(id_position),
        parent,
        extra,
        tuple(diagnostics),
        tuple(_text(dep) for dep, _ in deps) if deps else (),
    )


def _same(recorded: object, current: Stamp) -> bool:
    if recorded is None or current is None:
        return recorded is current
    return type(recorded) is list and tuple(recorded) == current


def pack(key: str, entries: dict[str, list[Any]]) -> bytes:
    packed: bytes = msgpack.packb([MAGIC, CACHE_FORMAT, key, entries], unicode_errors=_TEXT)
    return packed


def unpack(data: bytes, key: str) -> dict[str, list[Any]] | None:
    """The entries of a cache file written for `key`; None for anything else (another format
    or workspace state, a truncated or damaged file)."""
    try:
        top = msgpack.unpackb(data, raw=False, unicode_errors=_TEXT, strict_map_key=True)
    except Exception:  # msgpack reports damage with several exception types; all mean "none"
        return None
    if (
        type(top) is not list
        or len(top) != 4
        or top[0] != MAGIC
        or top[1] != CACHE_FORMAT
        or top[2] != key
        or type(top[3]) is not dict
    ):
        return None
    return top[3]


class ItemCache:
    def __init__(self, ws: Workspace, refs: References, root: Path | None = None) -> None:
        self.ws = ws
        self.key = global_key(ws, refs)
        self.folder = root or cache_root()
        name = hashlib.sha256(os.fsencode(ws.root_real)).hexdigest()[:24]
        self.path = self.folder / f"{name}.msgpack"
        self._legacy_name = f"{name}.pickle"
        self.entries: dict[str, list[Any]] = {}
        # Stamps taken by fresh(), before the file was checked: an edit made while it was being
        # checked then shows up as a changed stamp next time instead of being recorded as seen.
        self._stamps: dict[str, Stamp] = {}
        self._dep_stamps: dict[str, dict[str, Stamp]] = {}

    def load(self) -> None:
        data = read_private(self.folder, self.path.name, MAX_CACHE_BYTES)
        with gc_paused():  # twice as fast on a big suite's hundred thousand small lists
            entries = unpack(data, self.key) if data is not None else None
        self.entries = entries or {}

    def fresh(self, rel: str) -> Item | None:
        """The cached item for `rel` if nothing it depends on changed since it was checked."""
        abs_ = self.ws.abs
        current = stamp(abs_(rel))
        self._stamps[rel] = current
        raw = self.entries.get(rel)
        if raw is None or current is None:
            return None
        try:
            if not _same(raw[0], current):
                return None
            deps = raw[1]
            if deps:
                seen: dict[str, Stamp] = {}
                for dep, dep_stamp in deps:
                    now = stamp(abs_(_text(dep)))
                    if not _same(dep_stamp, now):
                        return None
                    seen[dep] = now
                self._dep_stamps[rel] = seen
            return decode_item(rel, raw)
        except (TypeError, ValueError, KeyError, IndexError):
            return None

    def save(self, items: dict[str, Item]) -> None:
        """Record `items` as checked now. Git diagnostics are left out: they are recomputed."""
        entries: dict[str, list[Any]] = {}
        abs_ = self.ws.abs
        for rel, item in items.items():
            own = self._stamps[rel] if rel in self._stamps else stamp(abs_(rel))
            if own is None:
                continue
            # A freshly checked item's deps are stamped now, after its check: an edit to one in
            # between is missed until the next edit to it.
            seen = self._dep_stamps.get(rel, {})
            deps = [[dep, seen[dep] if dep in seen else stamp(abs_(dep))] for dep in item.deps]
            entry = encode_item(rel, own, deps, _without_git(item))
            if entry is not None:
                entries[rel] = entry
        try:
            data = pack(self.key, entries)
        except (TypeError, ValueError, OverflowError):
            return
        if len(data) <= MAX_CACHE_BYTES and write_private(self.folder, self.path.name, data):
            # voyage-tui before msgpack left a pickle (readable by others) beside it.
            remove_private(self.folder, self._legacy_name)
        self.entries = entries


def _without_git(item: Item) -> Item:
    from voyage_tui.engine.git.checks import GIT_CODES

    if not any(d.code in GIT_CODES for d in item.diagnostics):
        return item
    return dataclasses.replace(
        item, diagnostics=tuple(d for d in item.diagnostics if d.code not in GIT_CODES)
    )
