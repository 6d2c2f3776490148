"""The closed sets of values the formats allow, defined once for models, rules and the app.

Each set is a Literal type (the models' field types, so a type checker sees the values) and the
tuple of its values (for rules, messages and the app)."""

from __future__ import annotations

from typing import Literal, get_args

FixtureClass = Literal[
    "bug-diagnosis",
    "feature-change",
    "refactor",
    "spec-ambiguity",
    "regression-prevention",
    "review-finding",
    "release-verification",
    "no-change-needed",
    "adversarial",
]
Boundary = Literal["unit", "integration", "end-to-end", "production"]
Visibility = Literal["public", "holdout"]
TrajectoryPath = Literal["lightweight", "full", "refactor", "high-risk"]
TerminalState = Literal["merged", "closed", "blocked", "released"]
FindingSeverity = Literal["BLOCKER", "MAJOR", "MINOR", "SUGGESTION"]
OwnerReviewer = Literal["conformance", "correctness"]
Verdict = Literal["BLOCK", "WARN", "ALLOW"]
GoldSchema = Literal["voyage-eval-gold/1"]

CLASSES: tuple[str, ...] = get_args(FixtureClass)
BOUNDARIES: tuple[str, ...] = get_args(Boundary)
VISIBILITIES: tuple[str, ...] = get_args(Visibility)
TRAJECTORY_PATHS: tuple[str, ...] = get_args(TrajectoryPath)
TERMINAL_STATES: tuple[str, ...] = get_args(TerminalState)
GATE_VERDICTS: tuple[str, ...] = ("pass", "conditional", "blocked")
SEVERITIES: tuple[str, ...] = get_args(FindingSeverity)
OWNER_REVIEWERS: tuple[str, ...] = get_args(OwnerReviewer)
VERDICTS: tuple[str, ...] = get_args(Verdict)
GOLD_SCHEMA: str = get_args(GoldSchema)[0]
TRAJECTORY_KIND = "trajectory"
TRAJECTORIES_FOLDER = "trajectories"
DEFAULT_GATES: tuple[int, ...] = (1, 2, 3, 4, 5)

SEVERITY_RANK = {name: rank for rank, name in enumerate(SEVERITIES)}
"""0 is the most severe."""
