"""Sizing a suite (`voyage-tui results --plan --detect D`, SPEC 3.10's mde solved for n): for
each comparison, given the sd of its current paired differences, how many shared fixtures would
detect a true difference of D with 80% power at two-sided alpha. The normal approximation, as
for `mde`: n = ((z(1 - alpha/2) + z(0.8)) * sd / D)^2, rounded up."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from voyage_tui.engine.results.model import ResultsReport
from voyage_tui.engine.results.stats import POWER, fixtures_needed


@dataclass(frozen=True, slots=True)
class PlanRow:
    agent: str
    dimension: str
    fixtures: int
    """The shared fixtures today."""
    sd: float | None
    needed: int | None
    """Shared fixtures that would detect `detect`; None with a reason."""
    reason: str | None = None

    def to_json(self) -> dict[str, Any]:
        return {
            "agent": self.agent,
            "dimension": self.dimension,
            "fixtures": self.fixtures,
            "sd": self.sd,
            "fixtures_needed": self.needed,
            "reason": self.reason,
        }


@dataclass(frozen=True, slots=True)
class Plan:
    detect: float
    alpha: float
    rows: tuple[PlanRow, ...]

    def to_json(self) -> dict[str, Any]:
        return {
            "detect": self.detect,
            "alpha": self.alpha,
            "power": POWER,
            "comparisons": [r.to_json() for r in self.rows],
        }


NO_SD = "fewer than 2 shared fixtures: no sd to plan from"
FLAT = "every fixture differs by the same amount (sd 0): no spread to plan from"


def plan_of(report: ResultsReport, detect: float) -> Plan:
    """The plan for every comparison of the whole suite. Raises ValueError for detect <= 0."""
    if not detect > 0:
        raise ValueError(f"the difference to detect is above 0, not {detect!r}")
    rows = []
    for c in report.comparisons:
        reason = NO_SD if c.sd is None else FLAT if c.sd == 0 else None
        needed = fixtures_needed(c.sd, detect, report.alpha)
        rows.append(PlanRow(c.agent, c.dimension, c.fixtures, c.sd, needed, reason))
    return Plan(detect, report.alpha, tuple(rows))
