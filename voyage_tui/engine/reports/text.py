"""`voyage-tui results` as the terminal's text: per dimension the agents' means, then every
comparison with its fixtures, diff, interval, p, p_holm, mde and verdict (with the reason when
unclear), the fixtures furthest below the baseline, and gold. Every workspace string (agent
names, dimensions, fixture ids, gold paths) goes through `one_line`."""

from __future__ import annotations

import textwrap

from voyage_tui.engine.reports.figures import (
    OUTCOMES_HEADING,
    ci_of,
    figure,
    headline,
    interval,
    match_text,
    needed_text,
    outcome_rows,
    p_value,
    plan_heading,
    rule_text,
    signed,
    stat_ci,
    verdict_words,
)
from voyage_tui.engine.reports.model import Report
from voyage_tui.engine.results.model import GoldAgent, ResultsReport, Section
from voyage_tui.engine.safe_text import one_line

WORST_SHOWN = 3
"""Fixtures per comparison under "Furthest below the baseline" (JSON lists five)."""


def text(report: Report) -> str:
    return "\n".join(text_lines(report)) + "\n"


def text_lines(full: Report) -> list[str]:
    report = full.results
    lines = [one_line(f"{full.title} ({headline(report)})")]
    lines += [one_line(line) for line in full.context_lines()]
    for notice in report.notices:
        lines.append(one_line(f"note: {notice}"))
    lines += _section_text(report.overall, report)
    for name, group in report.groups.items():
        lines += ["", one_line(f"=== {report.by} {name} ===")]
        lines += _section_text(group, report)
    lines += _gold_text(report)
    lines += _outcomes_text(report)
    if full.plan is not None:
        lines += _plan_text(full)
    return lines


def _plan_text(full: Report) -> list[str]:
    plan = full.plan
    assert plan is not None
    lines = ["", plan_heading(plan.detect, plan.alpha)]
    if not plan.rows:
        return [*lines, "  No comparisons: name a baseline."]
    names = [f"{one_line(r.agent)} · {one_line(r.dimension)}" for r in plan.rows]
    width = max(len(n) for n in [*names, "agent · dimension"])
    lines.append(f"  {'agent · dimension'.ljust(width)}  fixtures     sd  needed")
    for name, r in zip(names, plan.rows, strict=True):
        row = (
            f"  {name.ljust(width)}  {r.fixtures:>8}  {figure(r.sd):>5}  "
            f"{needed_text(r.needed, r.fixtures)}"
        )
        if r.reason:
            row += f"  ({r.reason})"
        lines.append(one_line(row))
    return lines


def _section_text(section: Section, report: ResultsReport) -> list[str]:
    if not section.agents:
        return ["", "No agent runs."]
    lines: list[str] = []
    agents = list(section.agents)
    width = max(len(one_line(a)) for a in [*agents, "agent"])
    for dimension in report.dimensions:
        lines += ["", one_line(dimension)]
        lines.append(f"  {'agent'.ljust(width)}      n   mean  95% interval")
        for agent in agents:
            stat = section.agents[agent].dimensions[dimension]
            row = (
                f"  {one_line(agent).ljust(width)}  {stat.n:>5}  {figure(stat.mean):>5}  "
                f"{interval(stat_ci(stat)):<13}"
            )
            if agent == report.baseline:
                row += "  (baseline)"
            if stat.reason:
                row += f"  [{stat.reason}]"
            lines.append(one_line(row).rstrip())
    lines += _comparisons_text(section, report)
    worst = [c for c in section.comparisons if c.worst(1)]
    if worst:
        lines += ["", "Furthest below the baseline (fixture: agent mean vs baseline mean)"]
        for c in worst:
            shown = ", ".join(
                f"{p.fixture_id} {p.agent_mean:.2f} vs {p.baseline_mean:.2f}"
                for p in c.worst(WORST_SHOWN)
            )
            lines.append(one_line(f"  {c.agent} · {c.dimension}: {shown}"))
    return lines


def _comparisons_text(section: Section, report: ResultsReport) -> list[str]:
    if not section.comparisons:
        return []
    names = [f"{one_line(c.agent)} · {one_line(c.dimension)}" for c in section.comparisons]
    width = max(len(n) for n in [*names, "agent · dimension"])
    lines = [
        "",
        one_line(f"Against the baseline agent, {report.baseline}, paired over shared fixtures"),
        *textwrap.wrap(
            f"({rule_text(report, section)})", 96, initial_indent="  ", subsequent_indent="   "
        ),
        f"  {'agent · dimension'.ljust(width)}  fixtures    diff  95% interval        p  "
        "p_holm     mde  verdict",
    ]
    for name, c in zip(names, section.comparisons, strict=True):
        row = (
            f"  {name.ljust(width)}  {c.fixtures:>8}  {signed(c.diff):>6}  {ci_of(c):<14}  "
            f"{p_value(c.p):>6}  {p_value(c.p_holm):>6}  {figure(c.mde):>6}  "
            f"{verdict_words(c)}"
        )
        if c.note:
            row += f"; {c.note}"
        lines.append(one_line(row))
    return lines


def _gold_text(report: ResultsReport) -> list[str]:
    gold: dict[str, GoldAgent] = report.gold
    if not gold:
        return []
    width = max(len(one_line(s)) for s in [*gold, "review agent"])
    lines = [
        "",
        "Gold by review agent (runs grouped by file-name stem across corpora)",
        one_line(f"  ({match_text(report)})"),
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


def _outcomes_text(report: ResultsReport) -> list[str]:
    rows = outcome_rows(report)
    if not rows:
        return []
    names = [f"{one_line(a)} · {one_line(n)}" for a, n, *_ in rows]
    width = max(len(n) for n in [*names, "agent · score"])
    lines = ["", OUTCOMES_HEADING]
    lines.append(f"  {'agent · score'.ljust(width)}      n   mean  95% interval         pass_all_k")
    for name, (_, _, n, mean, ci, method, share) in zip(names, rows, strict=True):
        lines.append(
            one_line(f"  {name.ljust(width)}  {n:>5}  {figure(mean):>5}  {ci} ({method})  {share}")
        )
    return lines
