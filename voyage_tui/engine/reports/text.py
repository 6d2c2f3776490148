"""`voyage-tui results` as the terminal's text. Every workspace string (agent names,
dimensions, fixture ids, gold paths) goes through `one_line`."""

from __future__ import annotations

from voyage_tui.engine.reports.figures import (
    ARROWS,
    MATCH_WORDS,
    comparison_of,
    figure,
    headline,
    interval,
    p_value,
    signed,
    stat_ci,
)
from voyage_tui.engine.reports.model import Report
from voyage_tui.engine.results.model import GoldAgent, ResultsReport, Section
from voyage_tui.engine.safe_text import one_line


def text(report: Report) -> str:
    return "\n".join(text_lines(report.results)) + "\n"


def text_lines(report: ResultsReport) -> list[str]:
    lines = [one_line(f"Results ({headline(report)})"), f"match: {MATCH_WORDS[report.match]}"]
    for notice in report.notices:
        lines.append(one_line(f"note: {notice}"))
    lines += _section_text(report.overall, report)
    for name, group in report.groups.items():
        lines += ["", one_line(f"=== {report.by} {name} ===")]
        lines += _section_text(group, report)
    lines += _gold_text(report.gold)
    return lines


def _section_text(section: Section, report: ResultsReport) -> list[str]:
    if not section.agents:
        return ["", "No agent runs."]
    lines: list[str] = []
    agents = list(section.agents)
    width = max(len(one_line(a)) for a in [*agents, "agent"])
    for dimension in report.dimensions:
        lines += ["", one_line(dimension)]
        header = f"  {'agent'.ljust(width)}      n   mean  95% interval"
        if report.baseline:
            header += "     diff  95% interval       p  verdict"
        lines.append(header)
        for agent in agents:
            stat = section.agents[agent].dimensions[dimension]
            row = (
                f"  {one_line(agent).ljust(width)}  {stat.n:>5}  {figure(stat.mean):>5}  "
                f"{interval(stat_ci(stat)):<13}"
            )
            c = comparison_of(section, agent, dimension)
            if c is not None:
                row += (
                    f"  {signed(c.diff):>7}  {interval(c.ci.as_list() if c.ci else None):<14}  "
                    f"{p_value(c.p):>6}  {ARROWS[c.verdict]}"
                )
                if c.reason:
                    row += f" ({c.reason})"
            elif agent == report.baseline:
                row += "  (baseline)"
            if stat.reason:
                row += f"  [{stat.reason}]"
            lines.append(one_line(row))
    worst = [c for c in section.comparisons if c.worst(1)]
    if worst:
        lines += ["", "Furthest below the baseline (fixture: agent mean vs baseline mean)"]
        for c in worst:
            shown = ", ".join(
                f"{p.fixture_id} {p.agent_mean:.2f} vs {p.baseline_mean:.2f}" for p in c.worst(3)
            )
            lines.append(one_line(f"  {c.agent} · {c.dimension}: {shown}"))
    return lines


def _gold_text(gold: dict[str, GoldAgent]) -> list[str]:
    if not gold:
        return []
    width = max(len(one_line(s)) for s in [*gold, "review agent"])
    lines = [
        "",
        "Gold by review agent (runs grouped by file-name stem across corpora)",
        f"  {'review agent'.ljust(width)}  corpora   tp   fp   fn  precision  recall     f1  "
        "macro f1  verdicts  BLOCK->ALLOW",
    ]
    for stem, g in gold.items():
        lines.append(
            one_line(
                f"  {stem.ljust(width)}  {g.corpora:>7}  {g.tp:>3}  {g.fp:>3}  {g.fn:>3}  "
                f"{g.precision:>9.3f}  {g.recall:>6.3f}  {g.f1:>5.3f}  {g.macro_f1:>8.3f}  "
                f"{g.verdict_accuracy:>8.0%}  {len(g.block_to_allow):>12}"
            )
        )
    return lines
