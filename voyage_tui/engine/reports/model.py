"""The report every format renders: the engine's results (engine/results/model.py) as computed
for one command or one screen, with its title, the campaign around it and, asked for, a plan."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from voyage_tui.engine.reports.context import ReportContext
from voyage_tui.engine.results.model import ResultsReport
from voyage_tui.engine.results.plan import Plan


@dataclass(frozen=True, slots=True)
class Report:
    results: ResultsReport
    title: str = "Results"
    plan: Plan | None = None
    campaign: ReportContext | None = None

    def context_items(self) -> list[tuple[str, str]]:
        """The campaign's context as (what, value) pairs (none without a campaign)."""
        return self.campaign.items_list() if self.campaign is not None else []

    def context_lines(self) -> list[str]:
        """The campaign's context, a line each."""
        return [f"{what}: {value}" for what, value in self.context_items()]

    def to_json(self) -> dict[str, Any]:
        """The results' JSON (SPEC 6's keys first), then `plan` when asked for."""
        out = self.results.to_json()
        if self.campaign is not None:
            out["campaign"] = self.campaign.to_json()
        if self.plan is not None:
            out["plan"] = self.plan.to_json()
        return out
