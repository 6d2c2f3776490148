"""What the engine keeps about each validated file: a summary, never the parsed document.

The suite holds one Item per file (11,000 of them on a large suite), so an Item is small: the
fields the browser, the filter, the coverage counts and the git checks need, and the diagnostics.

An Item is frozen: a view already handed to the screen holds Items, and a worker re-validating
on another thread must never change what that view shows. A new result is a new Item
(`dataclasses.replace`), put in the suite's map in place of the old one.
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from typing import Any

from voyage_tui.engine.diagnostics import Diagnostic, Severity
from voyage_tui.engine.kinds import FIXTURE_KINDS, FileKind

# --- per-kind facts --------------------------------------------------------------------------
#
# Small, typed facts an Item of one kind carries beyond the common fields (what the tree shows
# beside a gold file or a run). Each is frozen, and stored in the item cache as the list of its
# fields (`plain`), read back by `from_plain`, which raises TypeError on anything `plain` did not
# write, so a damaged entry is checked again rather than shown.


def _typed(value: object, *types: type) -> Any:
    if type(value) not in types:
        raise TypeError("not a stored fact")
    return value


@dataclass(frozen=True, slots=True)
class TaskFacts:
    has_scoring_notes: bool = False

    def plain(self) -> list[Any]:
        return [self.has_scoring_notes]

    @classmethod
    def from_plain(cls, raw: list[Any]) -> TaskFacts:
        (notes,) = raw
        return cls(_typed(notes, bool))


@dataclass(frozen=True, slots=True)
class AgentRunFacts:
    agent: str
    """The run's `agent`, as written ("" when it names none)."""

    def plain(self) -> list[Any]:
        return [self.agent]

    @classmethod
    def from_plain(cls, raw: list[Any]) -> AgentRunFacts:
        (agent,) = raw
        return cls(_typed(agent, str))


@dataclass(frozen=True, slots=True)
class GoldFacts:
    description: str = ""
    expected_verdict: str = ""
    """As the tree shows it ("" when the record gives none)."""
    findings: int = 0
    readme: str | None = None
    """The README beside the gold file, when it holds a findings table."""

    def plain(self) -> list[Any]:
        return [self.description, self.expected_verdict, self.findings, self.readme]

    @classmethod
    def from_plain(cls, raw: list[Any]) -> GoldFacts:
        description, verdict, findings, readme = raw
        return cls(
            _typed(description, str),
            _typed(verdict, str),
            _typed(findings, int),
            _typed(readme, str, type(None)),
        )


@dataclass(frozen=True, slots=True)
class GoldRunFacts:
    reviewers: int

    def plain(self) -> list[Any]:
        return [self.reviewers]

    @classmethod
    def from_plain(cls, raw: list[Any]) -> GoldRunFacts:
        (reviewers,) = raw
        return cls(_typed(reviewers, int))


@dataclass(frozen=True, slots=True)
class RatingsFacts:
    records: int
    """How many rating records the file holds."""

    def plain(self) -> list[Any]:
        return [self.records]

    @classmethod
    def from_plain(cls, raw: list[Any]) -> RatingsFacts:
        (records,) = raw
        return cls(_typed(records, int))


Facts = TaskFacts | AgentRunFacts | GoldFacts | GoldRunFacts | RatingsFacts

FACTS: dict[FileKind, type[Facts] | None] = {
    FileKind.TASK: TaskFacts,
    FileKind.TRAJECTORY: None,  # everything the tree and the rules need is in the Item's fields
    FileKind.AGENT_RUN: AgentRunFacts,
    FileKind.GOLD: GoldFacts,
    FileKind.GOLD_RUN: GoldRunFacts,
    FileKind.RATING: RatingsFacts,
    FileKind.ADJUDICATION: RatingsFacts,  # its records, counted alike
    FileKind.REFERENCE: None,  # never an item
    FileKind.CONFIG: None,
    FileKind.MISPLACED_TASK: None,
    FileKind.OTHER: None,
}
"""The facts an Item of each kind may carry (None: never any); the item cache reads them back by
this table."""


@dataclass(frozen=True, slots=True)
class Item:
    path: str
    kind: FileKind
    id: str | None = None
    fixture_class: str | None = None
    """A task's class; for a trajectory, its journey path (lightweight, full, ...)."""
    boundary: str | None = None
    visibility: str | None = None
    prompt: str = ""
    ground_truth: str = ""
    canary: str | None = None
    final_head_sha: str | None = None
    sha_position: tuple[int, int] | None = None
    id_position: tuple[int, int] | None = None
    parent: str | None = None
    """For a gold run, its gold file; for an agent run, its fixture's task.yaml."""
    facts: Facts | None = None
    """Small per-kind facts (a gold file's verdict, an agent run's agent), of the type FACTS
    names for the kind; None when the file could not be read that far."""
    diagnostics: tuple[Diagnostic, ...] = ()
    deps: tuple[str, ...] = ()
    """Other workspace files whose state the diagnostics depend on (context files, the README
    beside a gold file, a run's gold file): a change to one of them re-checks this item."""

    def __post_init__(self) -> None:
        # Callers may hand over a list; the Item keeps a tuple, so nobody appends to it later.
        if type(self.diagnostics) is not tuple:
            object.__setattr__(self, "diagnostics", tuple(self.diagnostics))

    @property
    def folder(self) -> str:
        return self.path.rsplit("/", 1)[0] if "/" in self.path else ""

    @property
    def errors(self) -> int:
        return sum(1 for d in self.diagnostics if d.severity is Severity.ERROR)

    @property
    def warnings(self) -> int:
        return sum(1 for d in self.diagnostics if d.severity is Severity.WARNING)

    @property
    def is_fixture(self) -> bool:
        return self.kind in FIXTURE_KINDS


# --- the item cache's constructor ----------------------------------------------------------------
#
# A frozen dataclass's __init__ sets each of the sixteen fields through object.__setattr__:
# half the time of decoding a warm start's 100,000 cached items (issue 23). stored_item sets the
# slots through their descriptors instead (the same fields, the same values, the Item as frozen
# afterwards). Taken from the fields in order: a field added to Item breaks the unpacking below at
# import, not the cache quietly.

_new = object.__new__
(
    _path,
    _kind,
    _id,
    _fixture_class,
    _boundary,
    _visibility,
    _prompt,
    _ground_truth,
    _canary,
    _final_head_sha,
    _sha_position,
    _id_position,
    _parent,
    _facts,
    _diagnostics,
    _deps,
) = (Item.__dict__[f.name].__set__ for f in fields(Item))


def stored_item(
    path: str,
    kind: FileKind,
    id: str | None,
    fixture_class: str | None,
    boundary: str | None,
    visibility: str | None,
    prompt: str,
    ground_truth: str,
    canary: str | None,
    final_head_sha: str | None,
    sha_position: tuple[int, int] | None,
    id_position: tuple[int, int] | None,
    parent: str | None,
    facts: Facts | None,
    diagnostics: tuple[Diagnostic, ...],
    deps: tuple[str, ...],
) -> Item:
    """Item(...) of these fields, for the item cache's decode (`diagnostics` a tuple already)."""
    item: Item = _new(Item)
    _path(item, path)
    _kind(item, kind)
    _id(item, id)
    _fixture_class(item, fixture_class)
    _boundary(item, boundary)
    _visibility(item, visibility)
    _prompt(item, prompt)
    _ground_truth(item, ground_truth)
    _canary(item, canary)
    _final_head_sha(item, final_head_sha)
    _sha_position(item, sha_position)
    _id_position(item, id_position)
    _parent(item, parent)
    _facts(item, facts)
    _diagnostics(item, diagnostics)
    _deps(item, deps)
    return item
