"""Reading a gold file and its runs from the workspace for review, through the safe loaders."""

from __future__ import annotations

import os
from dataclasses import dataclass
from typing import Any

from voyage_tui.engine.diagnostics import Diagnostic, Severity
from voyage_tui.engine.loading.json_doc import load_json
from voyage_tui.engine.rules.gold_rules import is_gold
from voyage_tui.engine.scoring.report import RunScore, score_run
from voyage_tui.engine.workspace.model import Workspace


class ReviewError(Exception):
    """A gold or run file that cannot be reviewed; the message says which and why."""


@dataclass(frozen=True, slots=True)
class Scored:
    gold_path: str
    run_path: str
    gold: dict[str, Any]
    payloads: list[Any]
    score: RunScore

    @property
    def run_name(self) -> str:
        return os.path.splitext(self.run_path.rsplit("/", 1)[-1])[0]

    @property
    def gold_name(self) -> str:
        folder = self.gold_path.rsplit("/", 1)[0] if "/" in self.gold_path else ""
        return folder.rsplit("/", 1)[-1] or self.gold_path


def _load(ws: Workspace, rel: str) -> Any:
    text = ws.read_text(rel)
    if isinstance(text, Diagnostic):
        raise ReviewError(f"{rel}: {text.message}")
    doc = load_json(text, rel)
    errors = [d for d in doc.diagnostics if d.severity is Severity.ERROR]
    if not doc.ok or errors:
        first = (errors or doc.diagnostics)[0]
        raise ReviewError(f"{first.location()}: {first.message}")
    return doc.data


def load_gold(ws: Workspace, rel: str) -> dict[str, Any]:
    data = _load(ws, rel)
    if not is_gold(data):
        raise ReviewError(f"{rel} is not a voyage-eval-gold/1 record")
    return data  # type: ignore[no-any-return]


def load_run(ws: Workspace, rel: str) -> list[Any]:
    data = _load(ws, rel)
    if not isinstance(data, list):
        raise ReviewError(f"{rel} is not a run: a run is a JSON array of reviewer payloads")
    return data


def score_pair(
    ws: Workspace, gold_rel: str, run_rel: str, gold: dict[str, Any] | None = None
) -> Scored:
    """Load and score one run against its gold. Raises ReviewError."""
    gold = gold if gold is not None else load_gold(ws, gold_rel)
    payloads = load_run(ws, run_rel)
    return Scored(gold_rel, run_rel, gold, payloads, score_run(payloads, gold))


@dataclass(frozen=True, slots=True)
class RankedRun:
    rank: int
    path: str
    scored: Scored | None
    problem: str | None = None
    """Why the run could not be scored (not JSON, not a list); it ranks last."""

    @property
    def name(self) -> str:
        return os.path.splitext(self.path.rsplit("/", 1)[-1])[0]


def rank_runs(ws: Workspace, gold_rel: str, run_paths: list[str]) -> list[RankedRun]:
    """Every run of a gold: runs whose verdict matches the gold's first, each group best F1 first
    (ties: higher recall, then name); unscorable runs last.

    The verdict comes first because a run that lets a BLOCK through as ALLOW fails the review
    whatever its findings score: it must not sit above (or tie with) a run that got it right."""
    gold = load_gold(ws, gold_rel)
    scored: list[Scored] = []
    broken: list[tuple[str, str]] = []
    for path in run_paths:
        try:
            scored.append(score_pair(ws, gold_rel, path, gold))
        except ReviewError as exc:
            broken.append((path, str(exc)))
    scored.sort(key=lambda s: (not s.score.verdict_match, -s.score.f1, -s.score.recall, s.run_name))
    ranked = [RankedRun(i + 1, s.run_path, s) for i, s in enumerate(scored)]
    ranked += [
        RankedRun(len(ranked) + i + 1, p, None, why) for i, (p, why) in enumerate(sorted(broken))
    ]
    return ranked
