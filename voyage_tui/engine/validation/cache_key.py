"""What every cached validation result of a workspace depends on besides its own files.

One key covers it all; when any part changes, nothing cached for the workspace is used:
- the code: voyage-tui's version, the sizes and mtimes of the engine's sources and of the
  default references shipped with it (an edited rule in a development checkout counts), the
  Python version, and where the libraries whose messages reach diagnostics are installed
  (pydantic, PyYAML, markdown-it: an upgrade replaces their files);
- the workspace: its real path, and the content (SHA-256) of voyage.toml and of every reference
  file the configuration names (journey, rubric, rule catalogue, routing table; for an
  unconfigured catalogue, every name it may have).

A reference is read for its digest like any workspace file (loading/safe_read.py): a FIFO, a
device or a symlink out of the workspace is never opened, and the digest records the refusal.
Nothing here imports pydantic or PyYAML: `voyage-tui validate` checks the key of its cache before
it knows whether it needs them.
"""

from __future__ import annotations

import functools
import hashlib
import importlib.util
import os
import sys
from pathlib import Path

from voyage_tui import __version__
from voyage_tui.engine.loading.once import ReadOnce
from voyage_tui.engine.loading.stamps import content_digest, stamp
from voyage_tui.engine.workspace.config_file import CONFIG_NAME, read_config_bytes

TYPE_CHECKING = False  # typing's, without importing typing: validate's start-up (issue 23)
if TYPE_CHECKING:
    from voyage_tui.engine.workspace.model import Workspace

_PACKAGE = Path(__file__).resolve().parents[2]
_SOURCES = (str(_PACKAGE / "engine"), str(_PACKAGE / "defaults"))
_SOURCE_SUFFIXES = (".py", ".md", ".yaml")
_LIBRARIES = ("pydantic", "pydantic_core", "yaml", "markdown_it")
# Paths are str with surrogate escapes where a name is not UTF-8.
_TEXT = "surrogatepass"


@functools.cache
def code_fingerprint() -> str:
    """The code part of the key, computed once per process: the code that runs is the code that
    was there when it started."""
    digest = hashlib.sha256(f"{__version__}\0{sys.version}\0".encode())
    for line in source_stamps(str(_PACKAGE), _SOURCES):
        digest.update(line.encode("utf-8", _TEXT))
    for name in _LIBRARIES:
        try:
            spec = importlib.util.find_spec(name)  # finds the package without importing it
        except (ImportError, ValueError):
            spec = None
        origin = spec.origin if spec is not None else None
        line = f"{name}:{origin}:{stamp(origin) if origin else None!r}\n"
        digest.update(line.encode("utf-8", _TEXT))
    return digest.hexdigest()


def source_stamps(package: str, folders: tuple[str, ...]) -> list[str]:
    """`path:size:mtime_ns` of every source and default reference below `folders` (paths
    relative to `package`), sorted. os.scandir rather than Path.rglob: every `validate` pays
    for this walk at start-up (issue 23), and bytecode caches are not descended into."""
    lines = []
    start = len(package) + 1
    stack = list(folders)
    while stack:
        try:
            entries = list(os.scandir(stack.pop()))
        except OSError:  # a folder that is not there has no sources
            continue
        for entry in entries:
            if entry.is_dir(follow_symlinks=False):
                if entry.name != "__pycache__":
                    stack.append(entry.path)
            elif entry.name.endswith(_SOURCE_SUFFIXES) and entry.is_file():
                try:
                    st = entry.stat()
                except OSError:  # gone since it was listed
                    continue
                lines.append(f"{entry.path[start:]}:{st.st_size}:{st.st_mtime_ns}\n")
    lines.sort()
    return lines


def reference_paths(ws: Workspace) -> list[str]:
    """Every reference file the configuration names, workspace-relative, in a fixed order."""
    from voyage_tui.engine.workspace.classify import CATALOGUE_NAMES
    from voyage_tui.engine.workspace.model import normalize_rel

    paths = ws.config.paths
    rels = [
        normalize_rel(paths.journey),
        normalize_rel(paths.rubric),
        normalize_rel(paths.routing_table),
        normalize_rel(paths.rule_catalogue),
    ]
    if not ws.config.explicitly_set("paths", "rule_catalogue"):
        rels += CATALOGUE_NAMES  # the first one present is used: a new one changes which
    return list(dict.fromkeys(rels))


def reference_digest(reads: ReadOnce, rel: str, max_bytes: int) -> str:
    """The digest of the reference as this run read it: the load that parses it takes the same
    bytes from `reads` (loading/once.py), so it is opened once."""
    return content_digest(reads.read(rel, max_bytes))


def config_digest(root: Path) -> str:
    """The digest of voyage.toml now, as Workspace.from_root records it when it reads it."""
    return content_digest(read_config_bytes(root))


def workspace_key(
    root: str,
    root_real: str,
    config: str,
    references: list[str],
    max_bytes: int,
    reads: ReadOnce | None = None,
) -> str:
    """The key of a workspace at `root` whose voyage.toml has the digest `config` and names
    `references`, read with the limit `max_bytes` ([limits] max_file_bytes), through `reads`
    when the run has them."""
    reads = reads if reads is not None else ReadOnce(root, root_real)
    parts = [code_fingerprint(), root_real, CONFIG_NAME, config, str(max_bytes)]
    for rel in references:
        parts += [rel, reference_digest(reads, rel, max_bytes)]
    return hashlib.sha256("\0".join(parts).encode("utf-8", _TEXT)).hexdigest()


def key_of(ws: Workspace, reads: ReadOnce | None = None) -> tuple[str, list[str]]:
    """The key of `ws` as it was loaded, and the reference paths it covers."""
    references = reference_paths(ws)
    digest = ws.config_digest or config_digest(ws.root)
    root, max_bytes = str(ws.root), ws.max_file_bytes
    key = workspace_key(root, ws.root_real, digest, references, max_bytes, reads)
    return key, references
