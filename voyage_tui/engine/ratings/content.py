"""What a rater reads for one (fixture, run) pair: the task beside the run, loaded on demand.

In blind mode the run's agent label and its `metadata` (which may name the model) are withheld
here, in the engine, so no screen can show them by mistake.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from voyage_tui.engine.diagnostics import Diagnostic
from voyage_tui.engine.loading.yaml_doc import load_yaml
from voyage_tui.engine.ratings.runs import AgentRunRef
from voyage_tui.engine.references.rubric import Rubric
from voyage_tui.engine.rules.task_context import TaskContext, task_context
from voyage_tui.engine.workspace.model import Workspace


@dataclass(slots=True)
class DimensionNotes:
    """A fixture's `scoring_notes` for one dimension: free text, anchors by score, or both."""

    text: list[str] = field(default_factory=list)
    anchors: dict[int, str] = field(default_factory=dict)


@dataclass(slots=True)
class TaskView:
    fixture_id: str
    path: str
    prompt: str = ""
    ground_truth: str = ""
    expected_boundary: str = ""
    context: TaskContext = field(default_factory=TaskContext)
    """The fixture's `context`: inline text as written, and the files it names, read bounded."""
    scoring_notes: dict[str, DimensionNotes] = field(default_factory=dict)
    """By the rubric's dimension name (a note under an unknown name keeps its own)."""
    problems: list[Diagnostic] = field(default_factory=list)
    """Why (part of) the task could not be shown: the file is missing, unreadable, not YAML."""


@dataclass(slots=True)
class RunView:
    run_id: str
    path: str
    output: str = ""
    patch: str | None = None
    transcript: str | list[Any] | None = None
    agent: str | None = None
    """None in blind mode."""
    metadata: dict[str, Any] | None = None
    """None in blind mode."""
    problems: list[Diagnostic] = field(default_factory=list)


@dataclass(slots=True)
class PairContent:
    task: TaskView
    run: RunView
    blind: bool


def _load_mapping(ws: Workspace, rel: str, problems: list[Diagnostic]) -> dict[Any, Any]:
    text = ws.read_text(rel)
    if isinstance(text, Diagnostic):
        problems.append(text)
        return {}
    doc = load_yaml(text, rel)
    problems.extend(d for d in doc.diagnostics if d.severity.value == "error")
    return doc.data if doc.ok and isinstance(doc.data, dict) else {}


def _text(data: dict[Any, Any], name: str) -> str:
    value = data.get(name)
    return value if isinstance(value, str) else ""


def _notes(raw: Any, rubric: Rubric) -> dict[str, DimensionNotes]:
    out: dict[str, DimensionNotes] = {}
    if not isinstance(raw, dict):
        return out
    for name, note in raw.items():
        if not isinstance(name, str):
            continue
        dimension = rubric.find(name)
        notes = out.setdefault(dimension.name if dimension else name, DimensionNotes())
        if isinstance(note, str):
            notes.text.append(note.strip())
        elif isinstance(note, list):
            notes.text.extend(str(n).strip() for n in note if isinstance(n, (str, int, float)))
        elif isinstance(note, dict):
            for score, anchor in note.items():
                if isinstance(score, int) and not isinstance(score, bool):
                    notes.anchors[score] = str(anchor).strip()
    return out


def load_pair(ws: Workspace, rubric: Rubric, run: AgentRunRef, *, blind: bool) -> PairContent:
    task_problems: list[Diagnostic] = []
    task_data = _load_mapping(ws, run.task_path, task_problems) if run.task_path else {}
    task = TaskView(
        fixture_id=run.fixture_id,
        path=run.task_path,
        prompt=_text(task_data, "prompt"),
        ground_truth=_text(task_data, "ground_truth"),
        expected_boundary=_text(task_data, "expected_boundary"),
        context=task_context(ws, run.task_path, task_data.get("context")),
        scoring_notes=_notes(task_data.get("scoring_notes"), rubric),
        problems=task_problems,
    )
    run_problems: list[Diagnostic] = []
    run_data = _load_mapping(ws, run.run_path, run_problems)
    patch = run_data.get("patch")
    transcript = run_data.get("transcript")
    agent = run_data.get("agent")
    metadata = run_data.get("metadata")
    view = RunView(
        run_id=run.run_id,
        path=run.run_path,
        output=_text(run_data, "output"),
        patch=patch if isinstance(patch, str) else None,
        transcript=transcript if isinstance(transcript, (str, list)) else None,
        agent=None if blind or not isinstance(agent, str) else agent,
        metadata=None if blind or not isinstance(metadata, dict) else metadata,
        problems=run_problems,
    )
    return PairContent(task, view, blind)
