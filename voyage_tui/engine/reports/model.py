"""The report every format renders: the engine's results (engine/results/model.py) as computed
for one command or one screen."""

from __future__ import annotations

from dataclasses import dataclass

from voyage_tui.engine.results.model import ResultsReport


@dataclass(frozen=True, slots=True)
class Report:
    results: ResultsReport
    title: str = "Results"
