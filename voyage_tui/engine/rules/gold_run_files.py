"""Gold and run files, loaded and checked by one loader for every caller.

`validate` (each gold file and run of a workspace), `score` (files named on the command line) and
the review screens (diff, runs, compare) all turn a file's text into a GoldFile or a RunFile here,
so a gold file is refused, or scored, the same way everywhere: `score` refuses exactly the gold
files whose errors `validate` lists and the diff screen shows in its banner.

Which rule catalogue the rule keys are checked against is the caller's choice (the workspace's,
one named with `--catalogue`, or none: then membership is not checked at all); see
`choose_catalogue` for files named on the command line.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from typing import Any

from voyage_tui.engine import diagnostics as dg
from voyage_tui.engine.diagnostics import Diagnostic, Severity
from voyage_tui.engine.loading.json_doc import load_json
from voyage_tui.engine.loading.positions import NoPositions, Positions
from voyage_tui.engine.loading.safe_read import read_bytes
from voyage_tui.engine.loading.text import decode
from voyage_tui.engine.references.catalogue import Catalogue
from voyage_tui.engine.rules.gold_rules import check_gold_record, is_gold, not_gold
from voyage_tui.engine.rules.run_rules import check_run, run_not_list

MAX_NAMED_FILE_BYTES = 256 * 1024 * 1024
"""Files named on the command line are read up to max(this, the workspace's max_file_bytes):
the workspace limit guards the scan of a whole suite, not a file the user asked for by name."""


def _errors(diagnostics: list[Diagnostic]) -> list[Diagnostic]:
    return [d for d in diagnostics if d.severity is Severity.ERROR]


@dataclass(slots=True)
class GoldFile:
    path: str
    data: dict[str, Any] | None
    """The record, when the file is JSON whose `schema` names the gold schema (it may still have
    errors: see `usable`)."""
    positions: Positions
    diagnostics: list[Diagnostic] = field(default_factory=list)
    parsed: bool = False
    """The text is JSON (a gold record or not)."""

    @property
    def errors(self) -> list[Diagnostic]:
        return _errors(self.diagnostics)

    @property
    def usable(self) -> bool:
        """A gold record without errors: one that may be scored against."""
        return self.data is not None and not self.errors


@dataclass(slots=True)
class RunFile:
    path: str
    data: list[Any] | None
    """The reviewer payloads, when the file is a JSON array."""
    positions: Positions
    diagnostics: list[Diagnostic] = field(default_factory=list)
    refusals: list[Diagnostic] = field(default_factory=list)
    """Why the file cannot be scored at all: unreadable, not JSON (or with a duplicate key), not
    an array. What is wrong inside a payload or a finding is scored as the contract says."""

    @property
    def usable(self) -> bool:
        return self.data is not None and not self.refusals


def gold_from_text(path: str, text: str, catalogue: Catalogue | None) -> GoldFile:
    """The gold file at `path` with its diagnostics: JSON loading, then every rule of a gold
    record (docs/rules.md, "Gold files"). Rule keys are checked against `catalogue`, or not at all without one."""
    doc = load_json(text, path)
    diagnostics = list(doc.diagnostics)
    if not doc.ok:
        return GoldFile(path, None, doc.positions, diagnostics)
    if not is_gold(doc.data):
        diagnostics.append(not_gold(path, doc.data, doc.positions))
        return GoldFile(path, None, doc.positions, diagnostics, parsed=True)
    diagnostics += check_gold_record(path, doc.data, doc.positions, catalogue)
    return GoldFile(path, doc.data, doc.positions, diagnostics, parsed=True)


def run_from_text(
    path: str, text: str, catalogue: Catalogue | None, *, check_findings: bool = True
) -> RunFile:
    """The run file at `path`: JSON loading, the array check and (with `check_findings`, as
    `validate` asks) the contract's verdict on each payload and finding (docs/scoring.md, section 1). Scoring does
    without the latter: the scorer reports those itself (`invalid_findings`)."""
    doc = load_json(text, path)
    diagnostics = list(doc.diagnostics)
    if not doc.ok:
        return RunFile(path, None, doc.positions, diagnostics, _errors(diagnostics))
    refusals = _errors(diagnostics)
    if not isinstance(doc.data, list):
        shape = run_not_list(path, doc.data, doc.positions)
        return RunFile(path, None, doc.positions, [*diagnostics, shape], [*refusals, shape])
    if check_findings:
        diagnostics += check_run(path, doc.data, doc.positions, catalogue)
    return RunFile(path, doc.data, doc.positions, diagnostics, refusals)


def unread_gold(path: str, problem: Diagnostic) -> GoldFile:
    return GoldFile(path, None, NoPositions(), [problem])


def unread_run(path: str, problem: Diagnostic) -> RunFile:
    return RunFile(path, None, NoPositions(), [problem], [problem])


# --- files named on the command line --------------------------------------------------------------


def read_named(path: str, limit: int = MAX_NAMED_FILE_BYTES) -> str | Diagnostic:
    """The text of a file the user named (a path as given, inside a workspace or not): a regular
    file of at most `limit` bytes, valid UTF-8. Symlinks are followed: the user chose the file."""
    try:
        os.lstat(path)
    except FileNotFoundError:
        return dg.error(path, None, "file-missing", "no such file")
    except OSError as exc:  # a folder on the way the user may not read: say so, not "missing"
        return dg.error(path, None, "file-unreadable", f"cannot read the file: {exc.strerror}")
    real = os.path.realpath(path)
    data = read_bytes(
        path, path, root_real=os.path.dirname(real), max_bytes=limit, check_symlink=False
    )
    if isinstance(data, Diagnostic):
        return data
    return decode(data, path)


@dataclass(frozen=True, slots=True)
class CatalogueChoice:
    """The rule catalogue that files named on the command line are checked against."""

    catalogue: Catalogue | None
    """None: rule keys are not checked (no workspace holds the gold file, none was named)."""
    description: str
    """What the report says about it, in one line."""
    limit: int = MAX_NAMED_FILE_BYTES
    """How many bytes a named file may have (the workspace's limit, when larger)."""
    problems: tuple[Diagnostic, ...] = ()
    """Why a catalogue named with `--catalogue` cannot be used (then nothing is scored)."""

    @property
    def checked(self) -> bool:
        return self.catalogue is not None


NOT_CHECKED = (
    "none: rule keys were not checked (no workspace holds the gold file; "
    "--catalogue PATH names a catalogue to check them against)"
)


def shown(path: str) -> str:
    """A path as short as it reads: relative to the current folder when inside it."""
    try:
        rel = os.path.relpath(path)
    except ValueError:
        return path
    return path if rel.startswith("..") else rel


def choose_catalogue(gold_path: str, named: str | None = None) -> CatalogueChoice:
    """`named` (a `--catalogue PATH`) when given; else the catalogue of the workspace holding
    the gold file (found by walking up from its folder; the default one shipped with voyage-tui
    when that workspace has none, as `validate` does); else none."""
    from voyage_tui.engine.references.catalogue import parse_catalogue
    from voyage_tui.engine.references.loaded import load_catalogue
    from voyage_tui.engine.workspace.discovery import NoWorkspace
    from voyage_tui.engine.workspace.model import Workspace

    try:
        ws: Workspace | None = Workspace.load(os.path.dirname(os.path.abspath(gold_path)))
    except NoWorkspace:
        ws = None
    limit = max(MAX_NAMED_FILE_BYTES, ws.max_file_bytes if ws is not None else 0)
    if named is not None:
        text = read_named(named, limit)
        if isinstance(text, Diagnostic):
            return CatalogueChoice(None, named, limit, (text,))
        catalogue, diagnostics = parse_catalogue(text, named)
        errors = _errors(diagnostics)
        if errors:
            return CatalogueChoice(None, named, limit, tuple(errors))
        return CatalogueChoice(catalogue, named, limit)
    if ws is None:
        return CatalogueChoice(None, NOT_CHECKED, limit)
    loaded = load_catalogue(ws)
    where = shown(os.path.join(str(ws.root), loaded.path))
    description = f"default ({where} is missing or unreadable)" if loaded.is_default else where
    return CatalogueChoice(loaded.value, description, limit)
