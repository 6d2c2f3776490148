"""`voyage-tui results --format csv`: one row per (group, agent, dimension). A text cell from
the workspace is one line with its control characters escaped, and has a formula guard
(engine/safe_text.spreadsheet_cell)."""

from __future__ import annotations

import csv
import io
from collections.abc import Iterable

from voyage_tui.engine.reports.figures import comparison_of
from voyage_tui.engine.reports.model import Report
from voyage_tui.engine.results.model import AgentResult, ResultsReport, Section
from voyage_tui.engine.safe_text import spreadsheet_cell

CSV_COLUMNS = [
    "group",
    "agent",
    "dimension",
    "items",
    "fixtures",
    "n",
    "mean",
    "ci_low",
    "ci_high",
    "reason",
    "baseline",
    "shared_fixtures",
    "diff",
    "diff_ci_low",
    "diff_ci_high",
    "p",
    "p_holm",
    "mde",
    "mde_reason",
    "alpha",
    "verdict",
    "comparison_reason",
    "comparison_note",
]


def _cell(value: object) -> object:
    """Text through `spreadsheet_cell` (escapes, formula guard); numbers written as numbers."""
    if isinstance(value, str):
        return spreadsheet_cell(value)
    return "" if value is None else value


def csv_text(report: Report) -> str:
    """One row per (group, agent, dimension); `group` is empty for the whole suite. Gold
    figures are not in the CSV (JSON, text, Markdown and HTML have them)."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(CSV_COLUMNS)
    results = report.results
    sections: list[tuple[str, Section]] = [("", results.overall), *results.groups.items()]
    for group, section in sections:
        for agent, result in section.agents.items():
            for row in _csv_rows(group, agent, result, section, results):
                writer.writerow([_cell(v) for v in row])
    for row in _outcome_rows(results):
        writer.writerow([_cell(v) for v in row])
    return out.getvalue()


def _outcome_rows(report: ResultsReport) -> Iterable[list[object]]:
    """The imported runs' harness scores: `dimension` is `outcome:NAME` (the mean of the
    score) and `pass_all_k:NAME` (the share of fixtures where every epoch passed)."""
    blank = [None] * (len(CSV_COLUMNS) - 10)
    for agent, by_name in report.outcomes.items():
        for name, f in by_name.items():
            method = "Wilson interval" if f.binary else "bootstrap interval"
            yield [
                "",
                agent,
                f"outcome:{name}",
                None,
                None,
                f.n,
                f.mean,
                f.ci.low if f.ci else None,
                f.ci.high if f.ci else None,
                method,
                *blank,
            ]
            share = report.pass_all_k.get(agent, {}).get(name)
            if share is not None:
                yield [
                    "",
                    agent,
                    f"pass_all_k:{name}",
                    None,
                    None,
                    None,
                    share,
                    None,
                    None,
                    None,
                    *blank,
                ]


def _csv_rows(
    group: str, agent: str, result: AgentResult, section: Section, report: ResultsReport
) -> Iterable[list[object]]:
    for dimension, stat in result.dimensions.items():
        c = comparison_of(section, agent, dimension)
        ci = stat.ci
        row: list[object] = [
            group,
            agent,
            dimension,
            result.items,
            result.fixtures,
            stat.n,
            stat.mean,
            ci.low if ci else None,
            ci.high if ci else None,
            stat.reason,
            report.baseline,
        ]
        if c is None:
            row += [None] * 12
        else:
            row += [
                c.fixtures,
                c.diff,
                c.ci.low if c.ci else None,
                c.ci.high if c.ci else None,
                c.p,
                c.p_holm,
                c.mde,
                c.mde_reason,
                report.alpha,
                c.verdict,
                c.reason,
                c.note,
            ]
        yield row
