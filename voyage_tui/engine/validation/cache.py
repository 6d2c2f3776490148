"""A cache of validated items between runs of the app, so reopening a big suite re-checks only
what changed since the last time.

It lives in the user's cache dir (never in the workspace: a cloned repository must not be able to
plant a pickle that the app would load). An item is reused only when its file and every file it
depends on (context files, the README beside a gold file, a run's gold file) have the same
mtime, size and inode as when it was checked, and the whole cache is dropped when anything global
changes: voyage-tui's code, voyage.toml, journey.md, the rubric, the rule catalogue.
"""

from __future__ import annotations

import hashlib
import os
import pickle
import sys
from dataclasses import dataclass
from pathlib import Path

from voyage_tui import __version__
from voyage_tui.engine.atomic import atomic_write_bytes
from voyage_tui.engine.references.loaded import References
from voyage_tui.engine.validation.item import Item
from voyage_tui.engine.workspace.config import CONFIG_NAME
from voyage_tui.engine.workspace.model import Workspace

CACHE_FORMAT = 1
MAX_CACHE_BYTES = 512 * 1024 * 1024

Stamp = tuple[int, int, int] | None
"""(mtime_ns, size, inode) from lstat, or None when the path does not exist."""


def cache_root() -> Path:
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "voyage-tui"


def stamp(path: str) -> Stamp:
    try:
        st = os.lstat(path)
    except OSError:
        return None
    return (st.st_mtime_ns, st.st_size, st.st_ino)


def _engine_fingerprint() -> str:
    """Sizes and mtimes of the engine's sources: an edited rule (in a development checkout)
    invalidates the cache even when the version number did not change."""
    root = Path(__file__).resolve().parents[1]
    digest = hashlib.sha256()
    for path in sorted(root.rglob("*.py")):
        st = path.stat()
        digest.update(f"{path.relative_to(root)}:{st.st_size}:{st.st_mtime_ns}\n".encode())
    return digest.hexdigest()


def _file_digest(path: str) -> str:
    try:
        with open(path, "rb") as handle:
            return hashlib.sha256(handle.read()).hexdigest()
    except OSError:
        return "-"


def global_key(ws: Workspace, refs: References) -> str:
    digest = hashlib.sha256()
    parts = [
        __version__,
        str(CACHE_FORMAT),
        sys.version,
        _engine_fingerprint(),
        str(ws.root_real),
        _file_digest(ws.abs(CONFIG_NAME)),
    ]
    for loaded in (refs.journey, refs.rubric, refs.catalogue):
        parts.append(loaded.path)
        parts.append("default" if loaded.is_default else _file_digest(ws.abs(loaded.path)))
    digest.update("\0".join(parts).encode("utf-8", "surrogateescape"))
    return digest.hexdigest()


@dataclass(slots=True)
class Entry:
    stamp: Stamp
    deps: tuple[tuple[str, Stamp], ...]
    item: Item


class ItemCache:
    def __init__(self, ws: Workspace, refs: References, root: Path | None = None) -> None:
        self.ws = ws
        self.key = global_key(ws, refs)
        folder = root or cache_root()
        name = hashlib.sha256(os.fsencode(ws.root_real)).hexdigest()[:24]
        self.path = folder / f"{name}.pickle"
        self.entries: dict[str, Entry] = {}

    def load(self) -> None:
        try:
            size = self.path.stat().st_size
            if size > MAX_CACHE_BYTES:
                return
            with open(self.path, "rb") as handle:
                key, entries = pickle.load(handle)
        except Exception:
            return
        if key == self.key and isinstance(entries, dict):
            self.entries = entries

    def fresh(self, rel: str) -> Item | None:
        """The cached item for `rel` if nothing it depends on changed since it was checked."""
        entry = self.entries.get(rel)
        if entry is None or entry.stamp != stamp(self.ws.abs(rel)):
            return None
        for dep, dep_stamp in entry.deps:
            if stamp(self.ws.abs(dep)) != dep_stamp:
                return None
        return entry.item

    def save(self, items: dict[str, Item]) -> None:
        """Record `items` as checked now. Git diagnostics are left out: they are recomputed."""
        entries: dict[str, Entry] = {}
        abs_ = self.ws.abs
        for rel, item in items.items():
            clean = _without_git(item)
            entries[rel] = Entry(
                stamp(abs_(rel)), tuple((dep, stamp(abs_(dep))) for dep in item.deps), clean
            )
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            atomic_write_bytes(
                self.path, pickle.dumps((self.key, entries), protocol=pickle.HIGHEST_PROTOCOL)
            )
        except OSError:
            pass  # a cache that cannot be written is only slower next time
        self.entries = entries


def _without_git(item: Item) -> Item:
    from voyage_tui.engine.git.checks import GIT_CODES

    if not any(d.code in GIT_CODES for d in item.diagnostics):
        return item
    import dataclasses

    return dataclasses.replace(
        item, diagnostics=[d for d in item.diagnostics if d.code not in GIT_CODES]
    )
