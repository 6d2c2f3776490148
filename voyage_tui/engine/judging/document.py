"""What a judge reads on stdin for one item and repeat (SPEC 3.11): the fixture, the run and
the rubric, and nothing that names the agent. The run is read as a blind rater reads it
(`load_pair(..., blind=True)`), so the agent label and the run's metadata never reach it, and
no other run's id is in it."""

from __future__ import annotations

import json
from typing import Any

from voyage_tui.engine.ratings.content import PairContent, TaskView, load_pair
from voyage_tui.engine.ratings.rules import scale_values
from voyage_tui.engine.ratings.runs import AgentRunRef
from voyage_tui.engine.references.rubric import Rubric
from voyage_tui.engine.workspace.model import Workspace


def rubric_document(rubric: Rubric) -> dict[str, Any]:
    return {
        d.name: {
            "scale": scale_values(d),
            "anchors": {str(score): text for score, text in sorted(d.anchors.items())},
        }
        for d in rubric.dimensions
    }


def _context(task: TaskView) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []
    for part in task.context.parts:
        if part.file is None:
            out.append({"text": part.text})
        elif part.problem is None:
            out.append({"file": part.file, "text": part.text})
    return out


def _notes(task: TaskView) -> dict[str, Any]:
    return {
        name: {
            "text": list(notes.text),
            "anchors": {str(k): v for k, v in sorted(notes.anchors.items())},
        }
        for name, notes in task.scoring_notes.items()
    }


def item_document(content: PairContent, rubric_doc: dict[str, Any], repeat: int) -> dict[str, Any]:
    task, run = content.task, content.run
    return {
        "fixture": {
            "id": task.fixture_id,
            "prompt": task.prompt,
            "ground_truth": task.ground_truth,
            "scoring_notes": _notes(task),
            "context": _context(task),
        },
        "run": {"run_id": run.run_id, "output": run.output, "patch": run.patch},
        "rubric": rubric_doc,
        "repeat": repeat,
    }


def document_bytes(
    ws: Workspace, rubric: Rubric, rubric_doc: dict[str, Any], run: AgentRunRef, repeat: int
) -> bytes:
    content = load_pair(ws, rubric, run, blind=True)
    doc = item_document(content, rubric_doc, repeat)
    return json.dumps(doc, ensure_ascii=False).encode("utf-8", "surrogatepass")
