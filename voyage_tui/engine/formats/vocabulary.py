"""The closed sets of values the formats allow, defined once for models, rules and the app."""

from __future__ import annotations

CLASSES: tuple[str, ...] = (
    "bug-diagnosis",
    "feature-change",
    "refactor",
    "spec-ambiguity",
    "regression-prevention",
    "review-finding",
    "release-verification",
    "no-change-needed",
    "adversarial",
)
BOUNDARIES: tuple[str, ...] = ("unit", "integration", "end-to-end", "production")
VISIBILITIES: tuple[str, ...] = ("public", "holdout")
TRAJECTORY_PATHS: tuple[str, ...] = ("lightweight", "full", "refactor", "high-risk")
TERMINAL_STATES: tuple[str, ...] = ("merged", "closed", "blocked", "released")
GATE_VERDICTS: tuple[str, ...] = ("pass", "conditional", "blocked")
SEVERITIES: tuple[str, ...] = ("BLOCKER", "MAJOR", "MINOR", "SUGGESTION")
OWNER_REVIEWERS: tuple[str, ...] = ("conformance", "correctness")
VERDICTS: tuple[str, ...] = ("BLOCK", "WARN", "ALLOW")
GOLD_SCHEMA = "voyage-eval-gold/1"
TRAJECTORY_KIND = "trajectory"
TRAJECTORIES_FOLDER = "trajectories"
DEFAULT_GATES: tuple[int, ...] = (1, 2, 3, 4, 5)

SEVERITY_RANK = {name: rank for rank, name in enumerate(SEVERITIES)}
"""0 is the most severe."""
