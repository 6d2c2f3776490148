"""`voyage-tui results --format md`: a pull-request comment. Workspace text has Markdown's
specials escaped, so a name cannot close the table, open a link or mention someone."""

from __future__ import annotations

import re

from voyage_tui.engine.reports.figures import (
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
    lines = [f"### Results: {md_escape(headline(report))}", ""]
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
    lines += _md_gold(report.gold)
    text = "\n".join(lines)
    if len(text) > MD_LIMIT:
        cut = text.rfind("\n", 0, MD_LIMIT)
        text = text[:cut] + "\n\n*(cut short to fit a comment: `--format json` has everything)*"
    return text + "\n"


def _md_section(section: Section, report: ResultsReport) -> list[str]:
    if not section.agents:
        return ["No agent runs.", ""]
    compared = bool(report.baseline)
    head = "| dimension | agent | n | mean | 95% CI |"
    rule = "|---|---|--:|--:|---|"
    if compared:
        head += " diff | 95% CI | p | verdict |"
        rule += "--:|---|--:|---|"
    lines = [head, rule]
    for dimension in report.dimensions:
        for agent, result in section.agents.items():
            stat = result.dimensions[dimension]
            row = (
                f"| {md_escape(dimension)} | {md_escape(agent)} | {stat.n} | "
                f"{figure(stat.mean)} | {interval(stat_ci(stat))} |"
            )
            if compared:
                c = comparison_of(section, agent, dimension)
                if c is None:
                    row += " *baseline* | | | |"
                else:
                    ci = interval(c.ci.as_list() if c.ci else None)
                    row += f" {signed(c.diff)} | {ci} | {p_value(c.p)} | {MD_EMOJI[c.verdict]} |"
            lines.append(row)
    lines.append("")
    worst = [c for c in section.comparisons if c.verdict == "worse" and c.worst(1)]
    if worst:
        lines += ["<details>", "<summary>Furthest below the baseline</summary>", ""]
        for c in worst:
            shown = ", ".join(f"{md_escape(p.fixture_id)} ({p.diff:+.2f})" for p in c.worst(5))
            lines.append(f"- {md_escape(c.agent)} · {md_escape(c.dimension)}: {shown}")
        lines += ["", "</details>", ""]
    return lines


def _md_gold(gold: dict[str, GoldAgent]) -> list[str]:
    if not gold:
        return []
    lines = [
        "#### Gold by review agent",
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
