"""`voyage-tui results --format md`: a pull-request comment holding what the text holds (the
means, every comparison with fixtures, diff, interval, p, p_holm, mde, verdict and reason, the
fixtures furthest below the baseline, gold). Workspace text has Markdown's specials escaped, so
a name cannot close the table, open a link or mention someone."""

from __future__ import annotations

import re

from voyage_tui.engine.reports.figures import (
    MATCH_WORDS,
    REASON_WORDS,
    ci_of,
    figure,
    headline,
    interval,
    needed_text,
    p_value,
    plan_heading,
    rule_text,
    signed,
    stat_ci,
)
from voyage_tui.engine.reports.model import Report
from voyage_tui.engine.reports.text import WORST_SHOWN
from voyage_tui.engine.results.model import Comparison, ResultsReport, Section
from voyage_tui.engine.safe_text import one_line

_MD_SPECIAL = re.compile(r"([\\`*_{}\[\]()#+\-.!|~])")
MD_LIMIT = 60_000
"""GitHub refuses a comment over 65,536 characters: the Markdown stops short of it."""
MD_EMOJI = {"better": "🟢 better ↑", "worse": "🔴 worse ↓", "unclear": "⚪ unclear"}


def md_escape(text: str) -> str:
    """Workspace text inert in a comment: one line, every Markdown special escaped (so a name
    cannot close the table, open a link or mention someone), HTML's < and > too."""
    text = one_line(text).replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
    return _MD_SPECIAL.sub(r"\\\1", text).replace("@", "@\u200b")


def markdown(full: Report) -> str:
    report = full.results
    lines = [f"### {md_escape(full.title)}: {md_escape(headline(report))}", ""]
    context = full.context_items()
    if context:
        lines += [f"- **{md_escape(what)}**: {md_escape(value)}" for what, value in context]
        lines.append("")
    for notice in report.notices:
        lines.append(f"> {md_escape(notice)}")
    if report.notices:
        lines.append("")
    lines += _md_section(report.overall, report)
    if report.groups:
        for name, group in report.groups.items():
            lines += [
                "<details>",
                f"<summary>{md_escape(f'{report.by}: {name}')}</summary>",
                "",
                *_md_section(group, report),
                "</details>",
                "",
            ]
    lines += _md_gold(report)
    lines += _md_outcomes(report)
    lines += _md_plan(full)
    text = "\n".join(lines)
    if len(text) > MD_LIMIT:
        cut = text.rfind("\n", 0, MD_LIMIT)
        text = text[:cut] + "\n\n*(cut short to fit a comment: `--format json` has everything)*"
    return text + "\n"


def _verdict_cell(c: Comparison) -> str:
    return f"{MD_EMOJI[c.verdict]} | {md_escape(c.reason) if c.reason else ''}"


def _md_section(section: Section, report: ResultsReport) -> list[str]:
    if not section.agents:
        return ["No agent runs.", ""]
    lines = [
        "| dimension | agent | n | mean | mean's 95% CI |",
        "|---|---|--:|--:|---|",
    ]
    for dimension in report.dimensions:
        for agent, result in section.agents.items():
            stat = result.dimensions[dimension]
            name = md_escape(agent) + (" *(baseline)*" if agent == report.baseline else "")
            lines.append(
                f"| {md_escape(dimension)} | {name} | {stat.n} | "
                f"{figure(stat.mean)} | {interval(stat_ci(stat))} |"
            )
    lines.append("")
    if section.comparisons:
        lines += [
            f"**Against the baseline agent, {md_escape(report.baseline or '')}**, paired over shared "
            f"fixtures: {md_escape(rule_text(report, section))}.",
            "",
            "| agent | dimension | fixtures | diff | diff's 95% CI | p | p_holm | mde | verdict "
            "| reason |",
            "|---|---|--:|--:|---|--:|--:|--:|---|---|",
        ]
        for c in section.comparisons:
            lines.append(
                f"| {md_escape(c.agent)} | {md_escape(c.dimension)} | {c.fixtures} | "
                f"{signed(c.diff)} | {ci_of(c)} | {p_value(c.p)} | {p_value(c.p_holm)} | "
                f"{figure(c.mde)} | {_verdict_cell(c)} |"
            )
        reasons = sorted({c.reason for c in section.comparisons if c.reason})
        if reasons:
            lines.append("")
            lines += [f"- *{r}*: {md_escape(REASON_WORDS[r])}" for r in reasons]
        lines.append("")
    worst = [c for c in section.comparisons if c.worst(1)]
    if worst:
        lines += [
            "<details>",
            "<summary>Furthest below the baseline (fixture: agent mean vs baseline mean)</summary>",
            "",
        ]
        for c in worst:
            shown = ", ".join(
                f"{md_escape(p.fixture_id)} {p.agent_mean:.2f} vs {p.baseline_mean:.2f}"
                for p in c.worst(WORST_SHOWN)
            )
            lines.append(f"- {md_escape(c.agent)} · {md_escape(c.dimension)}: {shown}")
        lines += ["", "</details>", ""]
    return lines


def _md_gold(report: ResultsReport) -> list[str]:
    gold = report.gold
    if not gold:
        return []
    lines = [
        "#### Gold by review agent",
        "",
        f"Gold matched {report.match}: {md_escape(MATCH_WORDS[report.match])}.",
        "",
        "| review agent | corpora | tp | fp | fn | precision | recall | F1 | macro F1 | "
        "verdicts | BLOCK→ALLOW |",
        "|---|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|",
    ]
    for stem, g in gold.items():
        flips = len(g.block_to_allow)
        lines.append(
            f"| {md_escape(stem)} | {g.corpora} | {g.tp} | {g.fp} | {g.fn} | {g.precision:.3f} | "
            f"{g.recall:.3f} | {g.f1:.3f} | {g.macro_f1:.3f} | {g.verdict_accuracy:.0%} | "
            f"{'🔴 ' if flips else ''}{flips} |"
        )
    lines.append("")
    return lines


def _md_plan(full: Report) -> list[str]:
    plan = full.plan
    if plan is None:
        return []
    lines = [f"#### {md_escape(plan_heading(plan.detect, plan.alpha))}", ""]
    if not plan.rows:
        return [*lines, "No comparisons: name a baseline.", ""]
    lines += ["| agent | dimension | fixtures | sd | needed |", "|---|---|--:|--:|---|"]
    for r in plan.rows:
        needed = needed_text(r.needed, r.fixtures)
        if r.reason:
            needed += f" ({md_escape(r.reason)})"
        lines.append(
            f"| {md_escape(r.agent)} | {md_escape(r.dimension)} | {r.fixtures} | "
            f"{figure(r.sd)} | {needed} |"
        )
    lines.append("")
    return lines


def _md_outcomes(report: ResultsReport) -> list[str]:
    from voyage_tui.engine.reports.figures import OUTCOMES_HEADING, figure, outcome_rows

    rows = outcome_rows(report)
    if not rows:
        return []
    lines = [
        f"#### {md_escape(OUTCOMES_HEADING)}",
        "",
        "| agent | score | n | mean | 95% interval | pass_all_k |",
        "|---|---|--:|--:|---|--:|",
    ]
    for agent, name, n, mean, ci, method, share in rows:
        lines.append(
            f"| {md_escape(agent)} | {md_escape(name)} | {n} | {figure(mean)} | "
            f"{ci} ({method}) | {share} |"
        )
    lines.append("")
    return lines
