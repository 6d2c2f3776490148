"""`voyage-tui results` as text, CSV and Markdown (the JSON is the report's own `to_json`; HTML
is results_html.py). Every workspace string (agent names, dimensions, fixture ids, gold paths)
is escaped for its medium: `one_line` for the terminal, a formula guard for CSV, Markdown's
specials for a pull-request comment."""

from __future__ import annotations

import csv
import io
import re
from collections.abc import Iterable

from voyage_tui.engine.results.model import (
    AgentResult,
    Comparison,
    DimensionStat,
    GoldAgent,
    ResultsReport,
    Section,
)
from voyage_tui.engine.safe_text import one_line

ARROWS = {"better": "↑ better", "worse": "↓ worse", "unclear": "· unclear"}
"""Words as well as arrows: the table reads the same without colour or the glyphs."""
MATCH_WORDS = {
    "dual": "dual (SPEC 3.6: a gold key may be matched via its dual_flaggable)",
    "seed": "seed ((file, rule_key) only, as the seed's scoreFindings)",
}


def figure(value: float | None, digits: int = 2) -> str:
    return "—" if value is None else f"{value:.{digits}f}"


def interval(ci: list[float] | tuple[float, float] | None) -> str:
    if ci is None:
        return "—"
    return f"[{ci[0]:.2f}, {ci[1]:.2f}]"


def signed(value: float | None) -> str:
    return "—" if value is None else f"{value:+.2f}"


def p_value(value: float | None) -> str:
    if value is None:
        return "—"
    return "<0.001" if value < 0.001 else f"{value:.3f}"


def _stat_ci(stat: DimensionStat) -> list[float] | None:
    return stat.ci.as_list() if stat.ci is not None else None


def _comparison_of(section: Section, agent: str, dimension: str) -> Comparison | None:
    for c in section.comparisons:
        if c.agent == agent and c.dimension == dimension:
            return c
    return None


def headline(report: ResultsReport) -> str:
    base = f"baseline {report.baseline}" if report.baseline else "no baseline: no comparisons"
    by = f"; by {report.by}" if report.by else ""
    return f"match {report.match}; {base}{by}"


# --- text -------------------------------------------------------------------------------------


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
                f"{interval(_stat_ci(stat)):<13}"
            )
            c = _comparison_of(section, agent, dimension)
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


# --- CSV --------------------------------------------------------------------------------------

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
    "verdict",
    "comparison_reason",
]


def _cell(value: object) -> object:
    """A spreadsheet runs a cell starting with = + - @ (or a tab or CR) as a formula: a text
    cell from the workspace gets a leading apostrophe. Numbers are written as numbers."""
    if isinstance(value, str) and value[:1] in ("=", "+", "-", "@", "\t", "\r"):
        return "'" + value
    return "" if value is None else value


def csv_text(report: ResultsReport) -> str:
    """One row per (group, agent, dimension); `group` is empty for the whole suite. Gold
    figures are not in the CSV (JSON, text, Markdown and HTML have them)."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(CSV_COLUMNS)
    sections: list[tuple[str, Section]] = [("", report.overall), *report.groups.items()]
    for group, section in sections:
        for agent, result in section.agents.items():
            for row in _csv_rows(group, agent, result, section, report):
                writer.writerow([_cell(v) for v in row])
    return out.getvalue()


def _csv_rows(
    group: str, agent: str, result: AgentResult, section: Section, report: ResultsReport
) -> Iterable[list[object]]:
    for dimension, stat in result.dimensions.items():
        c = _comparison_of(section, agent, dimension)
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
            row += [None] * 7
        else:
            row += [
                c.fixtures,
                c.diff,
                c.ci.low if c.ci else None,
                c.ci.high if c.ci else None,
                c.p,
                c.verdict,
                c.reason,
            ]
        yield row


# --- Markdown ---------------------------------------------------------------------------------

_MD_SPECIAL = re.compile(r"([\\`*_{}\[\]()#+\-.!|~])")
MD_LIMIT = 60_000
"""GitHub refuses a comment over 65,536 characters: the Markdown stops short of it."""
MD_EMOJI = {"better": "🟢 better ↑", "worse": "🔴 worse ↓", "unclear": "⚪ unclear"}


def md_escape(text: str) -> str:
    """Workspace text inert in a comment: one line, every Markdown special escaped (so a name
    cannot close the table, open a link or mention someone), HTML's < and > too."""
    text = one_line(text).replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
    return _MD_SPECIAL.sub(r"\\\1", text).replace("@", "@\u200b")


def markdown(report: ResultsReport) -> str:
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
                f"{figure(stat.mean)} | {interval(_stat_ci(stat))} |"
            )
            if compared:
                c = _comparison_of(section, agent, dimension)
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
