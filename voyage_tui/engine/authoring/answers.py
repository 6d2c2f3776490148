"""The answers a wizard collects, and their draft form (plain JSON).

Answers are mutable: a screen edits them step by step and asks `Authoring.check` for the
diagnostics after each change. An empty text means "not answered yet": the field is left out of
the document, so the engine reports it as missing, exactly as it would in a file.

The draft form is read back strictly: a draft is workspace content (anyone may have written it),
so every value is checked for its type and a bad one is a `DraftError`, never a crash.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any

from voyage_tui.engine.formats.vocabulary import TRAJECTORY_KIND

TASK_KIND = "task"
KINDS: tuple[str, ...] = (TASK_KIND, TRAJECTORY_KIND)

Note = str | list[str] | dict[int, str]
"""A scoring note: text, a list of text, or score -> text (as in the suite's fixtures)."""


class DraftError(ValueError):
    """A draft's answers are not in the shape this version writes; the message says where."""


@dataclass(slots=True)
class ContextEntry:
    """One `context` item: inline text, or a file reference `{file: ref}` inside the fixture
    folder. A reference with a `source` is a copy: on write, the workspace file or folder at
    `source` is copied to `ref` inside the new fixture folder (which does not exist before)."""

    text: str = ""
    file: str | None = None
    source: str | None = None
    """Workspace-relative path of what is copied to `file`; None for a reference to a file that
    is expected to be there already."""
    named: bool = field(default=False, compare=False)
    """The person named `source` in this session (a `--context-file` flag, or typed in the
    wizard's context step), so it is copied as named. A source read from a draft or from a
    copied fixture is not (drafts never store this): it is copied only when git tracks it."""

    @property
    def is_file(self) -> bool:
        return self.file is not None


@dataclass(slots=True)
class PhaseMark:
    """One journey phase on the checklist: traversed (ticked), or skipped with a reason."""

    number: int
    name: str
    traversed: bool = True
    reason: str = ""


@dataclass(slots=True)
class GateMark:
    """One gate: recorded with a verdict (and a description), or skipped with a reason."""

    number: int
    recorded: bool = True
    description: str = ""
    verdict: str = ""
    reason: str = ""


@dataclass(slots=True)
class RoutingSkip:
    skill: str
    reason: str = ""


@dataclass(slots=True)
class TaskAnswers:
    """A single-task fixture (docs/workspace.md, "Fixture files")."""

    fixture_class: str = ""
    id: str = ""
    prompt: str = ""
    ground_truth: str = ""
    expected_boundary: str = ""
    visibility: str = "public"
    context: list[ContextEntry] = field(default_factory=list)
    adversarial_intent: str = ""
    scoring_notes: dict[str, Note] = field(default_factory=dict)
    harness_constraints: Any = None
    """Carried over from a fixture the answers were copied from; the wizard does not ask it."""
    canary: str = ""
    """The `# canary: <uuid4>` of a holdout, made once and kept (also while public, so switching
    back to holdout shows the same one)."""

    @property
    def kind(self) -> str:
        return TASK_KIND


@dataclass(slots=True)
class TrajectoryAnswers:
    """A trajectory fixture (`kind: trajectory`)."""

    id: str = ""
    path: str = ""
    prompt: str = ""
    phases: list[PhaseMark] = field(default_factory=list)
    gates: list[GateMark] = field(default_factory=list)
    terminal_state: str = ""
    final_head_sha: str = ""
    routing_selected: list[str] = field(default_factory=list)
    routing_skipped: list[RoutingSkip] = field(default_factory=list)
    visibility: str = "public"
    canary: str = ""

    @property
    def kind(self) -> str:
        return TRAJECTORY_KIND


Answers = TaskAnswers | TrajectoryAnswers


def new_answers(kind: str) -> Answers:
    if kind == TASK_KIND:
        return TaskAnswers()
    if kind == TRAJECTORY_KIND:
        return TrajectoryAnswers()
    raise ValueError(f"unknown kind {kind!r}; one of: {', '.join(KINDS)}")


# --- draft form --------------------------------------------------------------------------------


def answers_to_json(answers: Answers) -> dict[str, Any]:
    if isinstance(answers, TaskAnswers):
        return {
            "kind": TASK_KIND,
            "class": answers.fixture_class,
            "id": answers.id,
            "prompt": answers.prompt,
            "ground_truth": answers.ground_truth,
            "expected_boundary": answers.expected_boundary,
            "visibility": answers.visibility,
            "context": [
                {"file": c.file, "source": c.source} if c.is_file else {"text": c.text}
                for c in answers.context
            ],
            "adversarial_intent": answers.adversarial_intent,
            "scoring_notes": {k: _note_to_json(v) for k, v in answers.scoring_notes.items()},
            "harness_constraints": answers.harness_constraints,
            "canary": answers.canary,
        }
    return {
        "kind": TRAJECTORY_KIND,
        "id": answers.id,
        "path": answers.path,
        "prompt": answers.prompt,
        "phases": [
            {"number": p.number, "name": p.name, "traversed": p.traversed, "reason": p.reason}
            for p in answers.phases
        ],
        "gates": [
            {
                "number": g.number,
                "recorded": g.recorded,
                "description": g.description,
                "verdict": g.verdict,
                "reason": g.reason,
            }
            for g in answers.gates
        ],
        "terminal_state": answers.terminal_state,
        "final_head_sha": answers.final_head_sha,
        "routing_selected": list(answers.routing_selected),
        "routing_skipped": [
            {"skill": r.skill, "reason": r.reason} for r in answers.routing_skipped
        ],
        "visibility": answers.visibility,
        "canary": answers.canary,
    }


def _note_to_json(note: Note) -> Any:
    if isinstance(note, dict):
        return {"scores": {str(k): v for k, v in note.items()}}
    return note


def answers_from_json(data: Any) -> Answers:
    """Raises DraftError naming the first value that is not what `answers_to_json` writes."""
    obj = _Obj(data, "answers")
    kind = obj.text("kind")
    if kind == TASK_KIND:
        return TaskAnswers(
            fixture_class=obj.text("class"),
            id=obj.text("id"),
            prompt=obj.text("prompt"),
            ground_truth=obj.text("ground_truth"),
            expected_boundary=obj.text("expected_boundary"),
            visibility=obj.text("visibility"),
            context=[_context_from_json(item) for item in obj.items("context")],
            adversarial_intent=obj.text("adversarial_intent"),
            scoring_notes={
                key: _note_from_json(value, f"scoring_notes.{key}")
                for key, value in obj.mapping("scoring_notes").items()
            },
            harness_constraints=_plain_data(obj.get("harness_constraints"), "harness_constraints"),
            canary=obj.text("canary"),
        )
    if kind == TRAJECTORY_KIND:
        return TrajectoryAnswers(
            id=obj.text("id"),
            path=obj.text("path"),
            prompt=obj.text("prompt"),
            phases=[
                PhaseMark(
                    number=p.number("number"),
                    name=p.text("name"),
                    traversed=p.flag("traversed"),
                    reason=p.text("reason"),
                )
                for p in (_Obj(item, "phases[]") for item in obj.items("phases"))
            ],
            gates=[
                GateMark(
                    number=g.number("number"),
                    recorded=g.flag("recorded"),
                    description=g.text("description"),
                    verdict=g.text("verdict"),
                    reason=g.text("reason"),
                )
                for g in (_Obj(item, "gates[]") for item in obj.items("gates"))
            ],
            terminal_state=obj.text("terminal_state"),
            final_head_sha=obj.text("final_head_sha"),
            routing_selected=[
                _text(s, "routing_selected[]") for s in obj.items("routing_selected")
            ],
            routing_skipped=[
                RoutingSkip(skill=r.text("skill"), reason=r.text("reason"))
                for r in (_Obj(item, "routing_skipped[]") for item in obj.items("routing_skipped"))
            ],
            visibility=obj.text("visibility"),
            canary=obj.text("canary"),
        )
    raise DraftError(f"`kind` is {kind!r}, not one of: {', '.join(KINDS)}")


def _context_from_json(item: Any) -> ContextEntry:
    obj = _Obj(item, "context[]")
    if "file" in obj.data:
        source = obj.get("source")
        return ContextEntry(
            file=obj.text("file"),
            source=None if source is None else _text(source, "context[].source"),
        )
    return ContextEntry(text=obj.text("text"))


def _note_from_json(value: Any, where: str) -> Note:
    if isinstance(value, str):
        return value
    if isinstance(value, list):
        return [_text(v, where) for v in value]
    if isinstance(value, dict) and set(value) == {"scores"} and isinstance(value["scores"], dict):
        out: dict[int, str] = {}
        for key, text in value["scores"].items():
            if not (isinstance(key, str) and key.isascii() and key.isdigit() and len(key) < 10):
                raise DraftError(f"`{where}` has the score {key!r}, not a whole number")
            out[int(key)] = _text(text, where)
        return out
    raise DraftError(f"`{where}` is not text, a list of text, or scores")


def _plain_data(value: Any, where: str, depth: int = 0) -> Any:
    """JSON data as YAML can hold it: no NaN or infinity, bounded depth."""
    if depth > 50:
        raise DraftError(f"`{where}` is nested too deeply")
    if value is None or isinstance(value, (str, bool, int)):
        return value
    if isinstance(value, float):
        if not math.isfinite(value):
            raise DraftError(f"`{where}` holds {value!r}, which YAML data cannot hold")
        return value
    if isinstance(value, list):
        return [_plain_data(v, where, depth + 1) for v in value]
    if isinstance(value, dict):
        return {_text(k, where): _plain_data(v, where, depth + 1) for k, v in value.items()}
    raise DraftError(f"`{where}` holds a {type(value).__name__}")


def _text(value: Any, where: str) -> str:
    if not isinstance(value, str):
        raise DraftError(f"`{where}` is not text")
    return value


class _Obj:
    """A JSON object read field by field; a missing field reads as its empty value."""

    def __init__(self, data: Any, where: str) -> None:
        if not isinstance(data, dict):
            raise DraftError(f"`{where}` is not an object")
        self.data: dict[str, Any] = data
        self.where = where

    def get(self, name: str) -> Any:
        return self.data.get(name)

    def text(self, name: str) -> str:
        value = self.data.get(name, "")
        return _text(value, f"{self.where}.{name}")

    def flag(self, name: str) -> bool:
        value = self.data.get(name, False)
        if not isinstance(value, bool):
            raise DraftError(f"`{self.where}.{name}` is not true or false")
        return value

    def number(self, name: str) -> int:
        value = self.data.get(name)
        if not isinstance(value, int) or isinstance(value, bool) or not 0 <= value < 10**6:
            raise DraftError(f"`{self.where}.{name}` is not a whole number")
        return value

    def items(self, name: str) -> list[Any]:
        value = self.data.get(name, [])
        if not isinstance(value, list):
            raise DraftError(f"`{self.where}.{name}` is not a list")
        return value

    def mapping(self, name: str) -> dict[str, Any]:
        value = self.data.get(name, {})
        if not isinstance(value, dict):
            raise DraftError(f"`{self.where}.{name}` is not an object")
        return value
