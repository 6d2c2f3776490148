"""Load the reference files of a workspace, falling back to the defaults shipped in the package.

A workspace's own file replaces the default completely (a phase only the default journey has is
an error in a workspace with its own journey.md). The diagnostics say when a default is in use.
"""

from __future__ import annotations

import os
import threading
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Generic, TypeVar

from voyage_tui.engine import diagnostics as dg
from voyage_tui.engine.diagnostics import Diagnostic
from voyage_tui.engine.loading.once import ReadOnce
from voyage_tui.engine.loading.text import decode
from voyage_tui.engine.workspace.classify import CATALOGUE_NAMES
from voyage_tui.engine.workspace.model import Workspace, normalize_rel

if TYPE_CHECKING:
    from voyage_tui.engine.references.catalogue import Catalogue
    from voyage_tui.engine.references.journey import Journey
    from voyage_tui.engine.references.rubric import Rubric

T = TypeVar("T")


def default_text(name: str) -> str:
    from importlib import resources  # only when a default is read

    return resources.files("voyage_tui.defaults").joinpath(name).read_text(encoding="utf-8")


class Loaded(Generic[T]):
    """A reference file as read: its value, where it is, whether it is the shipped default.

    A default's value is parsed when first asked for: its diagnostics do not depend on it, and
    a suite with no trajectories, ratings or gold files never needs it (an empty workspace's
    `validate` imports neither markdown-it nor PyYAML: issue 23)."""

    __slots__ = ("_make", "_value", "diagnostics", "is_default", "path")

    def __init__(
        self,
        value: T | None,
        path: str,
        is_default: bool,
        diagnostics: list[Diagnostic] | None = None,
        *,
        make: Callable[[], T] | None = None,
    ) -> None:
        self._value = value
        self._make = make
        self.path = path
        """Workspace-relative path of the file read, or the configured path when a default is
        used."""
        self.is_default = is_default
        self.diagnostics: list[Diagnostic] = [] if diagnostics is None else diagnostics

    @property
    def value(self) -> T:
        make = self._make
        if make is not None:
            self._value, self._make = make(), None
        return self._value  # type: ignore[return-value]  # set by the constructor or by make()

    def __repr__(self) -> str:
        return f"Loaded(path={self.path!r}, is_default={self.is_default})"


@dataclass(slots=True)
class References:
    journey: Loaded[Journey]
    rubric: Loaded[Rubric]
    catalogue: Loaded[Catalogue]
    routing_table: Loaded[str]

    @property
    def diagnostics(self) -> list[Diagnostic]:
        return [
            *self.journey.diagnostics,
            *self.rubric.diagnostics,
            *self.catalogue.diagnostics,
            *self.routing_table.diagnostics,
        ]


def _default(
    default_name: str, parse: Callable[[str, str], tuple[T, list[Diagnostic]]]
) -> Callable[[], T]:
    """The shipped default's value, parsed when first asked for (its diagnostics are unused)."""

    def make() -> T:
        return parse(default_text(default_name), f"(default {default_name})")[0]

    return make


def _load(
    ws: Workspace,
    rel: str,
    explicit: bool,
    default_name: str,
    what: str,
    parse: Callable[[str, str], tuple[T, list[Diagnostic]]],
    reads: ReadOnce | None,
) -> Loaded[T]:
    # Through the run's reads when given (the cache's key took its digest from the same bytes),
    # with the rules of Workspace.read_text either way.
    data = (reads or ReadOnce(str(ws.root), ws.root_real)).read(rel, ws.max_file_bytes)
    if data is not None:
        text = data if isinstance(data, Diagnostic) else decode(data, rel)
        if isinstance(text, Diagnostic):
            return Loaded(
                None,
                rel,
                True,
                [text, _default_note(rel, what, default_name, unreadable=True)],
                make=_default(default_name, parse),
            )
        value, diagnostics = parse(text, rel)
        return Loaded(value, rel, False, diagnostics)
    if explicit:
        note = dg.error(
            rel,
            None,
            "reference-missing",
            f"voyage.toml names {rel} as the {what}, but it does not exist; the default shipped "
            "with voyage-tui is used until it does",
        )
    else:
        note = _default_note(rel, what, default_name)
    return Loaded(None, rel, True, [note], make=_default(default_name, parse))


def _default_note(rel: str, what: str, default_name: str, unreadable: bool = False) -> Diagnostic:
    reason = "cannot be read" if unreadable else "is not in this workspace"
    return dg.info(
        rel,
        None,
        "reference-default",
        f"{rel} {reason}; the default {what} shipped with voyage-tui ({default_name}) is used",
    )


# The parsers are imported when a file is parsed (markdown-it, PyYAML): a default that is never
# asked for costs nothing.

_Parse = Callable[[str, str], tuple[Any, list[Diagnostic]]]
_PARSED: dict[tuple[str, str, str], tuple[Any, tuple[Diagnostic, ...]]] = {}
"""(kind, workspace-relative path, text) -> what parsing gave. A re-check opens the same
rubric.md and journey.md again (the app after each change, a `serve` session per rater, every
copy of a workspace): the same text at the same place is parsed once. The values are read-only
once parsed (nothing assigns to a Journey, Rubric or Catalogue after its parser returns), and
each caller gets its own list of the (immutable) diagnostics."""
_PARSED_LOCK = threading.Lock()
_PARSED_KEPT = 16
"""Texts remembered; the oldest is forgotten first (a workspace has three reference files, the
shipped defaults three more)."""


def _memo(kind: str, parse: _Parse, text: str, rel: str) -> tuple[Any, list[Diagnostic]]:
    key = (kind, rel, text)
    found = _PARSED.get(key)
    if found is None:
        value, diagnostics = parse(text, rel)
        found = (value, tuple(diagnostics))
        with _PARSED_LOCK:  # the app checks on worker threads
            while len(_PARSED) >= _PARSED_KEPT:
                del _PARSED[next(iter(_PARSED))]
            _PARSED[key] = found
    return found[0], list(found[1])


def forget_parsed() -> None:
    """Forget every text parsed (for a test that counts parses)."""
    _PARSED.clear()


def parse_journey(text: str, rel: str) -> tuple[Journey, list[Diagnostic]]:
    from voyage_tui.engine.references import journey

    return _memo("journey", journey.parse_journey, text, rel)


def parse_rubric(text: str, rel: str) -> tuple[Rubric, list[Diagnostic]]:
    from voyage_tui.engine.references import rubric

    return _memo("rubric", rubric.parse_rubric, text, rel)


def parse_catalogue(text: str, rel: str) -> tuple[Catalogue, list[Diagnostic]]:
    from voyage_tui.engine.references import catalogue

    return _memo("catalogue", catalogue.parse_catalogue, text, rel)


def load_journey(ws: Workspace, reads: ReadOnce | None = None) -> Loaded[Journey]:
    rel = normalize_rel(ws.config.paths.journey)
    return _load(
        ws,
        rel,
        ws.config.explicitly_set("paths", "journey"),
        "journey.md",
        "journey",
        parse_journey,
        reads,
    )


def load_rubric(ws: Workspace, reads: ReadOnce | None = None) -> Loaded[Rubric]:
    rel = normalize_rel(ws.config.paths.rubric)
    explicit = ws.config.explicitly_set("paths", "rubric")
    return _load(ws, rel, explicit, "rubric.md", "rubric", parse_rubric, reads)


def load_catalogue(ws: Workspace, reads: ReadOnce | None = None) -> Loaded[Catalogue]:
    rel = normalize_rel(ws.config.paths.rule_catalogue)
    explicit = ws.config.explicitly_set("paths", "rule_catalogue")
    if not explicit and not os.path.lexists(ws.abs(rel)):
        # The catalogue may be YAML, JSON or JS; take whichever the workspace has.
        for alternative in CATALOGUE_NAMES:
            if os.path.lexists(ws.abs(alternative)):
                rel = alternative
                break
    return _load(ws, rel, explicit, "rule-catalogue.yaml", "rule catalogue", parse_catalogue, reads)


def _parse_routing(text: str, rel: str) -> tuple[str, list[Diagnostic]]:
    return text, []  # shown beside trajectories, never validated


def load_routing_table(ws: Workspace, reads: ReadOnce | None = None) -> Loaded[str]:
    rel = normalize_rel(ws.config.paths.routing_table)
    loaded = _load(
        ws,
        rel,
        ws.config.explicitly_set("paths", "routing_table"),
        "routing-table.md",
        "routing table",
        _parse_routing,
        reads,
    )
    return loaded


def load_references(ws: Workspace, reads: ReadOnce | None = None) -> References:
    """Every reference of `ws`; with `reads`, the bytes this run read already (the cache's key)
    are parsed rather than read again."""
    return References(
        journey=load_journey(ws, reads),
        rubric=load_rubric(ws, reads),
        catalogue=load_catalogue(ws, reads),
        routing_table=load_routing_table(ws, reads),
    )
