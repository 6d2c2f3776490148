"""A workspace: its root, its configuration, and path helpers every part of the engine shares."""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from voyage_tui.engine import diagnostics as dg
from voyage_tui.engine.diagnostics import Diagnostic
from voyage_tui.engine.loading.line_stream import LineStream, open_lines
from voyage_tui.engine.loading.safe_read import is_within, read_bytes
from voyage_tui.engine.loading.stamps import content_digest
from voyage_tui.engine.loading.text import decode
from voyage_tui.engine.workspace.config import VoyageConfig, parse_config
from voyage_tui.engine.workspace.config_file import CONFIG_NAME, read_config_bytes
from voyage_tui.engine.workspace.discovery import find_workspace

ADJUDICATIONS_NAME = "adjudications.jsonl"

if TYPE_CHECKING:
    from voyage_tui.engine.workspace.classify import Classifier


def normalize_rel(path: str) -> str:
    """A configured path, made workspace-relative, `/`-separated, without `./`."""
    norm = os.path.normpath(path.replace("\\", "/")).replace(os.sep, "/")
    return "" if norm == "." else norm


@dataclass(slots=True)
class Workspace:
    root: Path
    config: VoyageConfig
    config_diagnostics: list[Diagnostic] = field(default_factory=list)
    root_real: str = ""
    fixtures_rel: str = ""
    """Workspace-relative fixtures folder, normalised once (it is asked for every file)."""
    config_digest: str = ""
    """What voyage.toml held when it was read (loading/stamps.py `content_digest`); "" when
    the configuration did not come from the file. The validation caches key on it."""
    _classifier: Classifier | None = field(default=None, init=False, repr=False, compare=False)
    ignore_answers: dict[str, tuple[object, bool]] = field(
        default_factory=dict, init=False, repr=False, compare=False
    )
    """Whether git ignores a file the writer was asked to change, by path, with the state of
    the files that decide it when git was asked (layout.py `git_ignores_file`)."""

    def __post_init__(self) -> None:
        self.root_real = os.path.realpath(self.root)
        self.fixtures_rel = normalize_rel(self.config.paths.fixtures)

    @classmethod
    def load(cls, start: str | os.PathLike[str] | None = None) -> Workspace:
        """Find the workspace from `start` and read its voyage.toml. Raises NoWorkspace."""
        root = find_workspace(start)
        return cls.from_root(root)

    @classmethod
    def from_root(cls, root: Path) -> Workspace:
        data = read_config_bytes(root)
        digest = content_digest(data)
        if data is None:
            return cls(root, VoyageConfig(), config_digest=digest)
        if isinstance(data, Diagnostic):
            return cls(root, VoyageConfig(), [data], config_digest=digest)
        text = decode(data, CONFIG_NAME)
        if isinstance(text, Diagnostic):
            return cls(root, VoyageConfig(), [text], config_digest=digest)
        config, diagnostics = parse_config(text)
        return cls(root, config, diagnostics, config_digest=digest)

    # --- paths ---------------------------------------------------------------------------

    def abs(self, rel: str) -> str:
        return os.path.join(self.root, rel) if rel else str(self.root)

    def rel(self, path: str | os.PathLike[str]) -> str:
        relative = os.path.relpath(os.path.abspath(path), self.root)
        return "" if relative == "." else relative.replace(os.sep, "/")

    @property
    def classifier(self) -> Classifier:
        """What each path of this workspace is (see classify.py), built once."""
        if self._classifier is None:
            from voyage_tui.engine.workspace.classify import Classifier

            self._classifier = Classifier.of(self)
        return self._classifier

    @property
    def gold_roots(self) -> list[str]:
        return [normalize_rel(p) for p in self.config.paths.gold]

    @property
    def ratings_rel(self) -> str:
        return normalize_rel(self.config.paths.ratings)

    @property
    def adjudications_rel(self) -> str:
        """`[paths] adjudications`, else `adjudications.jsonl` beside the ratings folder."""
        configured = self.config.paths.adjudications
        if configured:
            return normalize_rel(configured)
        parent = os.path.dirname(self.ratings_rel)
        return f"{parent}/{ADJUDICATIONS_NAME}" if parent else ADJUDICATIONS_NAME

    @property
    def max_file_bytes(self) -> int:
        return self.config.limits.max_file_bytes

    def open_lines(self, rel: str) -> LineStream | Diagnostic:
        """A JSON-lines file of the workspace (ratings, adjudications) as a stream of bounded
        lines, with the checks of every read (loading/line_stream.py)."""
        return open_lines(
            self.abs(rel), rel, root_real=self.root_real, max_bytes=self.max_file_bytes
        )

    def read_text(self, rel: str) -> str | Diagnostic:
        """A workspace file as text, through the same safety checks as every fixture; a file
        whose folder is a symlink out of the workspace is refused too."""
        if not is_within(self.root_real, os.path.realpath(self.abs(rel))) and not os.path.islink(
            self.abs(rel)
        ):
            return dg.error(
                rel,
                None,
                "symlink-outside-workspace",
                "this file's folder leads outside the workspace through a symlink; it was not read",
            )
        data = read_bytes(
            self.abs(rel), rel, root_real=self.root_real, max_bytes=self.max_file_bytes
        )
        if isinstance(data, Diagnostic):
            return data
        return decode(data, rel)
