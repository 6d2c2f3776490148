"""Shared pieces of the ratings tests: a small workspace with agent runs and its rubric."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from tests.conftest import task_yaml
from voyage_tui.engine.ratings.records import Rating
from voyage_tui.engine.references.rubric import Rubric, parse_rubric
from voyage_tui.engine.workspace.model import Workspace

RUBRIC_MD = """\
# Rubric

## correctness

- 1: wrong
- 2: symptom
- 3: partial
- 4: minor gaps
- 5: correct

## scope

- 1: wrong size
- 3: roughly right
- 5: exactly right
"""


def run_yaml(run_id: str, agent: str) -> str:
    return f"run_id: {run_id}\nagent: {agent}\noutput: |\n  Did the thing ({run_id}).\n"


def workspace_files(runs: dict[str, list[str]] | None = None) -> dict[str, str]:
    """Fixtures with agent runs (fixture id -> run ids), a rubric with two dimensions (scope's
    anchors skip values: 1/3/5) and a voyage.toml keeping the rubric beside the fixtures."""
    runs = runs if runs is not None else {"t1": ["run-a", "run-b"], "t2": ["run-a"]}
    files = {"rubric.md": RUBRIC_MD}
    for fixture_id, run_ids in runs.items():
        files[f"fixtures/bug-diagnosis/{fixture_id}/task.yaml"] = task_yaml(fixture_id)
        for index, run_id in enumerate(run_ids):
            files[f"fixtures/bug-diagnosis/{fixture_id}/runs/{run_id}.yaml"] = run_yaml(
                run_id, f"agent-{index}"
            )
    return files


def rubric() -> Rubric:
    parsed, problems = parse_rubric(RUBRIC_MD, "rubric.md")
    assert not problems
    return parsed


DEFAULT_SCORES = {"correctness": 4, "scope": 3}


def record(
    fixture_id: str = "t1",
    run_id: str = "run-a",
    rater: str = "alice",
    scores: Any = DEFAULT_SCORES,
    **extra: Any,
) -> dict[str, Any]:
    """A record as a dict; `scores=None` makes a retraction."""
    out: dict[str, Any] = {
        "fixture_id": fixture_id,
        "run_id": run_id,
        "rater": rater,
        "scores": dict(scores) if isinstance(scores, dict) else scores,
        "note": "",
        "rated_at": "2026-11-20T14:03:11Z",
        "blind": True,
    }
    out.update(extra)
    return out


def jsonl(*records: dict[str, Any] | str) -> str:
    return "".join((r if isinstance(r, str) else json.dumps(r)) + "\n" for r in records)


def rating(**fields: Any) -> Rating:
    base = record(**fields)
    return Rating(
        fixture_id=base["fixture_id"],
        run_id=base["run_id"],
        rater=base["rater"],
        scores=base["scores"],
        rated_at=base["rated_at"],
        blind=base["blind"],
        note=base["note"],
    )


def load_ws(root: Path) -> Workspace:
    return Workspace.load(root)
