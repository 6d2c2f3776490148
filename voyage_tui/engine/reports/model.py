"""The report every format renders: the engine's results (engine/results/model.py) as computed
for one command or one screen, with its title and the campaign around it."""

from __future__ import annotations

from dataclasses import dataclass

from voyage_tui.engine.results.model import ResultsReport


@dataclass(frozen=True, slots=True)
class Report:
    results: ResultsReport
    title: str = "Results"

    def context_items(self) -> list[tuple[str, str]]:
        """The campaign's context as (what, value) pairs (none yet)."""
        return []

    def context_lines(self) -> list[str]:
        """The campaign's context, a line each."""
        return [f"{what}: {value}" for what, value in self.context_items()]
