"""`voyage-tui results --format html`: one self-contained file. The charts are inline SVG (a
forest plot of every comparison's difference and interval; each dimension's means with their
intervals), the styles inline: no script, no font, no image, nothing fetched. Every verdict is
written as a word and drawn as a shape as well as a colour, so the page reads in grey. Every
workspace string goes through `e`: `one_line`, then `html.escape`."""

from __future__ import annotations

import html
from dataclasses import dataclass

from voyage_tui.engine.reports.figures import (
    MATCH_WORDS,
    figure,
    headline,
    interval,
    p_value,
    signed,
)
from voyage_tui.engine.reports.model import Report
from voyage_tui.engine.results.model import GoldAgent, ResultsReport, Section
from voyage_tui.engine.safe_text import one_line

_STYLE = """
body{font-family:system-ui,sans-serif;margin:2em;color:#111;max-width:70em}
table{border-collapse:collapse;margin:.5em 0 1.5em}
th,td{border:1px solid #999;padding:.2em .5em;text-align:right}
th:first-child,td:first-child,td.t{text-align:left}
.better{color:#0a6b2b;font-weight:bold}.worse{color:#a4121b;font-weight:bold}
.note{color:#555}svg text{font:12px system-ui,sans-serif}
"""
_SHAPES = {"better": "▲", "worse": "▼", "unclear": "●"}
_COLOURS = {"better": "#0a6b2b", "worse": "#a4121b", "unclear": "#444"}


def e(text: object) -> str:
    """Text (workspace text above all) for HTML text and attributes: `one_line` first, so a
    control character or a bidi control is its visible escape, never a raw byte; then escaped."""
    return html.escape(one_line(str(text)), quote=True)


@dataclass(frozen=True, slots=True)
class Row:
    label: str
    value: float | None
    low: float | None
    high: float | None
    verdict: str = "unclear"
    note: str = ""


def interval_chart(rows: list[Row], title: str, zero: bool) -> str:
    """An SVG of one row per `Row`: the interval as a line, the value as a shape, the figures
    written at the right. `zero` draws the line of no difference."""
    known = [v for r in rows for v in (r.value, r.low, r.high) if v is not None]
    if not known:
        return f"<p class='note'>{e(title)}: nothing to draw.</p>"
    lo, hi = min(known), max(known)
    if zero:
        lo, hi = min(lo, 0.0), max(hi, 0.0)
        bound = max(abs(lo), abs(hi)) or 1.0
        lo, hi = -bound, bound
    if hi - lo < 1e-9:
        lo, hi = lo - 1, hi + 1
    label_w, plot_w, text_w, row_h = 220, 360, 230, 22
    width, height = label_w + plot_w + text_w, row_h * (len(rows) + 2)

    def x(v: float) -> float:
        return label_w + (v - lo) / (hi - lo) * plot_w

    parts = [
        f"<svg xmlns='http://www.w3.org/2000/svg' width='{width}' height='{height}' "
        f"role='img' aria-label='{e(title)}'>",
        f"<title>{e(title)}</title>",
        f"<line x1='{label_w}' y1='{height - row_h}' x2='{label_w + plot_w}' "
        f"y2='{height - row_h}' stroke='#999'/>",
        f"<text x='{label_w}' y='{height - 6}'>{lo:.2f}</text>",
        f"<text x='{label_w + plot_w}' y='{height - 6}' text-anchor='end'>{hi:.2f}</text>",
    ]
    if zero:
        parts.append(
            f"<line x1='{x(0):.1f}' y1='4' x2='{x(0):.1f}' y2='{height - row_h}' "
            "stroke='#777' stroke-dasharray='4 3'/>"
            f"<text x='{x(0):.1f}' y='{height - 6}' text-anchor='middle'>0</text>"
        )
    for i, row in enumerate(rows):
        y = row_h * (i + 1)
        parts.append(f"<text x='4' y='{y + 4}'>{e(row.label)}</text>")
        colour = _COLOURS[row.verdict]
        if row.low is not None and row.high is not None:
            parts.append(
                f"<line x1='{x(row.low):.1f}' y1='{y}' x2='{x(row.high):.1f}' y2='{y}' "
                f"stroke='{colour}' stroke-width='2'/>"
            )
        if row.value is not None:
            parts.append(
                f"<text x='{x(row.value):.1f}' y='{y + 4}' text-anchor='middle' "
                f"fill='{colour}'>{_SHAPES[row.verdict]}</text>"
            )
        parts.append(
            f"<text x='{label_w + plot_w + 8}' y='{y + 4}'>"
            f"{e(row.note or figure(row.value))}</text>"
        )
    parts.append("</svg>")
    return "".join(parts)


def html_report(full: Report) -> str:
    report = full.results
    body = [
        f"<h1>Results</h1><p>{e(headline(report))}</p>",
        f"<p class='note'>Scoring of gold runs: match {e(MATCH_WORDS[report.match])}. "
        "Intervals are 95% percentile bootstraps (10,000 resamples, fixed seed); comparisons "
        "pair the agents on shared fixtures; p is a two-sided sign-flip permutation test. "
        "▲ better (interval above 0), ▼ worse (below 0), ● unclear.</p>",
    ]
    if report.notices:
        body.append("<ul>" + "".join(f"<li>{e(n)}</li>" for n in report.notices) + "</ul>")
    body += _section(report.overall, report)
    for name, group in report.groups.items():
        body.append(f"<h2>{e(report.by)}: {e(name)}</h2>")
        body += _section(group, report)
    body += _gold(report.gold)
    return (
        "<!DOCTYPE html>\n<html lang='en'><head><meta charset='utf-8'>"
        "<meta name='viewport' content='width=device-width'>"
        f"<title>voyage-tui results</title><style>{_STYLE}</style></head><body>\n"
        + "\n".join(body)
        + "\n</body></html>\n"
    )


def _section(section: Section, report: ResultsReport) -> list[str]:
    if not section.agents:
        return ["<p>No agent runs.</p>"]
    out: list[str] = []
    if section.comparisons:
        rows = [
            Row(
                f"{c.agent} · {c.dimension}",
                c.diff,
                c.ci.low if c.ci else None,
                c.ci.high if c.ci else None,
                c.verdict,
                f"{signed(c.diff)} {interval(c.ci.as_list() if c.ci else None)} "
                f"p {p_value(c.p)} {c.verdict}",
            )
            for c in section.comparisons
        ]
        out.append("<h2>Against the baseline</h2>")
        out.append(interval_chart(rows, "Forest plot: difference from the baseline", zero=True))
        out.append(
            "<table><tr><th>agent</th><th>dimension</th><th>fixtures</th><th>diff</th>"
            "<th>95% CI</th><th>p</th><th>verdict</th><th>note</th></tr>"
            + "".join(
                f"<tr><td>{e(c.agent)}</td><td class='t'>{e(c.dimension)}</td>"
                f"<td>{c.fixtures}</td><td>{signed(c.diff)}</td>"
                f"<td>{interval(c.ci.as_list() if c.ci else None)}</td><td>{p_value(c.p)}</td>"
                f"<td class='{c.verdict} t'>{_SHAPES[c.verdict]} {c.verdict}</td>"
                f"<td class='t'>{e(c.reason or '')}</td></tr>"
                for c in section.comparisons
            )
            + "</table>"
        )
    out.append("<h2>Means per dimension</h2>")
    for dimension in report.dimensions:
        rows = []
        for agent, result in section.agents.items():
            stat = result.dimensions[dimension]
            rows.append(
                Row(
                    agent,
                    stat.mean,
                    stat.ci.low if stat.ci else None,
                    stat.ci.high if stat.ci else None,
                    note=f"{figure(stat.mean)} {interval(stat.ci.as_list() if stat.ci else None)}"
                    f" n={stat.n}",
                )
            )
        out.append(f"<h3>{e(dimension)}</h3>")
        out.append(interval_chart(rows, f"Means of {dimension}", zero=False))
    return out


def _gold(gold: dict[str, GoldAgent]) -> list[str]:
    if not gold:
        return []
    head = (
        "<tr><th>review agent</th><th>corpora</th><th>tp</th><th>fp</th><th>fn</th>"
        "<th>precision</th><th>recall</th><th>F1</th><th>macro F1</th><th>verdicts</th>"
        "<th>BLOCK→ALLOW</th></tr>"
    )
    rows = "".join(
        f"<tr><td>{e(s)}</td><td>{g.corpora}</td><td>{g.tp}</td><td>{g.fp}</td><td>{g.fn}</td>"
        f"<td>{g.precision:.3f}</td><td>{g.recall:.3f}</td><td>{g.f1:.3f}</td>"
        f"<td>{g.macro_f1:.3f}</td><td>{g.verdict_accuracy:.0%}</td>"
        f"<td class='{'worse' if g.block_to_allow else ''}'>{len(g.block_to_allow)}</td></tr>"
        for s, g in gold.items()
    )
    return ["<h2>Gold by review agent</h2>", f"<table>{head}{rows}</table>"]
