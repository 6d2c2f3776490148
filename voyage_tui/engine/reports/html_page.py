"""`voyage-tui results --format html`: one self-contained page worth pasting. A title and the
campaign's context, the rule in a sentence, a forest plot of every comparison's difference and
interval, a table of every comparison (fixtures, diff, interval, p, p_holm, mde, verdict and
reason), the means of every dimension on one chart on the rubric's own scale, and gold. The
charts are inline SVG that scale to the page, the styles inline: no script, no font, no image,
nothing fetched. Every verdict is a word and a shape as well as a colour, so the page reads in
grey. Every workspace string goes through `e`: `one_line`, then `html.escape`."""

from __future__ import annotations

import html
import math
from dataclasses import dataclass

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
)
from voyage_tui.engine.reports.model import Report
from voyage_tui.engine.results.model import GoldAgent, ResultsReport, Section
from voyage_tui.engine.safe_text import one_line

_STYLE = """
body{font-family:system-ui,-apple-system,'Segoe UI',sans-serif;margin:1.5em auto;color:#111;
max-width:72em;padding:0 1em;line-height:1.4}
h1{margin:.2em 0}h2{margin-top:1.6em;border-bottom:1px solid #ddd;padding-bottom:.2em}
.sub{color:#444;margin:.2em 0 1em}
dl.context{display:grid;grid-template-columns:max-content 1fr;gap:.15em 1em;margin:.5em 0}
dl.context dt{color:#555}dl.context dd{margin:0}
.scroll{overflow-x:auto}
table{border-collapse:collapse;margin:.5em 0 .6em;font-size:.92em}
th,td{border-bottom:1px solid #ccc;padding:.25em .45em;text-align:right;white-space:nowrap}
th:first-child,td:first-child{text-align:left}
th{border-bottom:2px solid #888;font-weight:600}
th.t,td.t{text-align:left}td.wrap{white-space:normal;min-width:12em}
.better{color:#0a6b2b;font-weight:bold}.worse{color:#a4121b;font-weight:bold}
.unclear{color:#444}.note{color:#555}
svg{max-width:100%;height:auto;display:block}svg text{font:12px system-ui,sans-serif}
td small{display:block;font-weight:normal;color:#555}
@media (max-width:900px){body{padding:0 .4em;margin:1em auto}table{font-size:.8em}
th,td{padding:.2em .3em}}
"""
_SHAPES = {"better": "▲", "worse": "▼", "unclear": "●"}
_COLOURS = {"better": "#0a6b2b", "worse": "#a4121b", "unclear": "#555"}


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
    heading: bool = False
    """A dimension's name above its agents' rows: no figures."""


def _ticks(lo: float, hi: float, whole: bool) -> list[float]:
    if whole:
        return [float(v) for v in range(math.ceil(lo), math.floor(hi) + 1)]
    span = hi - lo
    step = 10 ** math.floor(math.log10(span / 4)) if span > 0 else 1.0
    for factor in (1, 2, 5, 10):
        if span / (step * factor) <= 8:
            step *= factor
            break
    first = math.ceil(lo / step) * step
    return [round(first + i * step, 10) for i in range(int((hi - first) / step + 1e-9) + 1)]


def interval_chart(
    rows: list[Row], title: str, lo: float, hi: float, zero: bool, whole: bool
) -> str:
    """An SVG, a row per `Row`: the interval as a line, the value as a shape (a word's shape:
    ▲ ▼ ●), the figures at the right; an axis from `lo` to `hi` with grid lines at its ticks
    (every whole number with `whole`), and the line of no difference with `zero`."""
    label_w, plot_w, text_w, row_h, axis_h = 210, 440, 250, 22, 30
    width, height = label_w + plot_w + text_w, row_h * len(rows) + axis_h + 8
    if hi - lo < 1e-9:
        lo, hi = lo - 1, hi + 1

    def x(v: float) -> float:
        return label_w + (min(max(v, lo), hi) - lo) / (hi - lo) * plot_w

    bottom = row_h * len(rows) + 6
    parts = [
        f"<svg xmlns='http://www.w3.org/2000/svg' viewBox='0 0 {width} {height}' "
        f"width='{width}' role='img' aria-label='{e(title)}'>",
        f"<title>{e(title)}</title>",
    ]
    for tick in _ticks(lo, hi, whole):
        label = f"{tick:g}" if whole else f"{tick:+g}".replace("+0", "0") if zero else f"{tick:g}"
        parts.append(
            f"<line x1='{x(tick):.1f}' y1='4' x2='{x(tick):.1f}' y2='{bottom}' stroke='#e3e3e3'/>"
            f"<text x='{x(tick):.1f}' y='{bottom + 16}' text-anchor='middle' fill='#444'>"
            f"{e(label)}</text>"
        )
    parts.append(
        f"<line x1='{label_w}' y1='{bottom}' x2='{label_w + plot_w}' y2='{bottom}' stroke='#888'/>"
    )
    if zero and lo <= 0 <= hi:
        parts.append(
            f"<line x1='{x(0):.1f}' y1='4' x2='{x(0):.1f}' y2='{bottom}' "
            "stroke='#666' stroke-dasharray='4 3'/>"
        )
    for i, row in enumerate(rows):
        y = row_h * i + row_h // 2 + 4
        if row.heading:
            parts.append(f"<text x='4' y='{y + 4}' font-weight='bold'>{e(row.label)}</text>")
            continue
        parts.append(f"<text x='14' y='{y + 4}'>{e(row.label)}</text>")
        colour = _COLOURS[row.verdict]
        if row.low is not None and row.high is not None:
            parts.append(
                f"<line x1='{x(row.low):.1f}' y1='{y}' x2='{x(row.high):.1f}' y2='{y}' "
                f"stroke='{colour}' stroke-width='2.5'/>"
            )
        if row.value is not None:
            parts.append(
                f"<text x='{x(row.value):.1f}' y='{y + 4}' text-anchor='middle' "
                f"fill='{colour}'>{_SHAPES[row.verdict]}</text>"
            )
        parts.append(
            f"<text x='{label_w + plot_w + 10}' y='{y + 4}' fill='{colour}'>"
            f"{e(row.note or figure(row.value))}</text>"
        )
    parts.append("</svg>")
    return "".join(parts)


def html_report(full: Report) -> str:
    report = full.results
    body = [f"<h1>{e(full.title)}</h1>", f"<p class='sub'>{e(headline(report))}</p>"]
    context = full.context_items()
    if context:
        body.append(
            "<dl class='context'>"
            + "".join(f"<dt>{e(k)}</dt><dd>{e(v)}</dd>" for k, v in context)
            + "</dl>"
        )
    if report.baseline:
        body.append(
            "<p>Each agent is compared with the baseline on the fixtures both were rated on. "
            "A difference is called <span class='better'>▲ better</span> or "
            "<span class='worse'>▼ worse</span> only when it is unlikely to be chance: its "
            "95% interval excludes 0 <em>and</em> its p-value, adjusted for the number of "
            f"comparisons made (Holm), is below {report.alpha:g}. Everything else is "
            "<span class='unclear'>● unclear</span>, with the reason. The <em>mde</em> is the "
            "smallest true difference this many fixtures would detect 4 times in 5: an "
            "unclear comparison with a large mde needs more fixtures, not a verdict.</p>"
        )
    if report.notices:
        body.append("<ul>" + "".join(f"<li>{e(n)}</li>" for n in report.notices) + "</ul>")
    body += _section(report.overall, report)
    for name, group in report.groups.items():
        body.append(f"<h2>{e(report.by)}: {e(name)}</h2>")
        body += _section(group, report)
    body += _gold(report)
    body += _outcomes(report)
    body += _plan(full)
    return (
        "<!DOCTYPE html>\n<html lang='en'><head><meta charset='utf-8'>"
        "<meta name='viewport' content='width=device-width'>"
        f"<title>{e(full.title)}</title><style>{_STYLE}</style></head><body>\n"
        + "\n".join(body)
        + "\n</body></html>\n"
    )


def _section(section: Section, report: ResultsReport) -> list[str]:
    if not section.agents:
        return ["<p>No agent runs.</p>"]
    out: list[str] = []
    if section.comparisons:
        out += _comparisons(section, report)
    out += _means(section, report)
    return out


def _comparisons(section: Section, report: ResultsReport) -> list[str]:
    rows = [
        Row(
            f"{c.agent} · {c.dimension}",
            c.diff,
            c.ci.low if c.ci else None,
            c.ci.high if c.ci else None,
            c.verdict,
            f"{signed(c.diff)} {ci_of(c)}  {c.verdict}"
            if c.diff is not None
            else f"no shared fixture · {c.verdict}",
        )
        for c in section.comparisons
    ]
    known = [abs(v) for c in section.comparisons for v in (c.diff, *(c.ci.as_list() if c.ci else ())) if v is not None]  # fmt: skip
    bound = max(max(known, default=1.0) * 1.1, 0.5)
    out = [
        f"<h2>Against the baseline agent, {e(report.baseline)}</h2>",
        f"<p class='note'>Paired over shared fixtures; {e(rule_text(report, section))}.</p>",
        interval_chart(rows, "Difference from the baseline", -bound, bound, zero=True, whole=False),
    ]
    head = "".join(
        f"<th{' class=t' if t else ''}>{name}</th>"
        for name, t in (
            ("agent", True),
            ("dimension", True),
            ("fixtures", False),
            ("diff", False),
            ("95% interval", False),
            ("p", False),
            ("p_holm", False),
            ("mde", False),
            ("verdict", True),
        )
    )
    body = "".join(
        f"<tr><td class='t'>{e(c.agent)}</td><td class='t'>{e(c.dimension)}</td>"
        f"<td>{c.fixtures}</td><td>{signed(c.diff)}</td><td>{ci_of(c)}</td>"
        f"<td>{p_value(c.p)}</td><td>{p_value(c.p_holm)}</td><td>{figure(c.mde)}</td>"
        f"<td class='{c.verdict} t'>{_SHAPES[c.verdict]} {c.verdict}"
        f"{f'<small>{e(c.reason)}</small>' if c.reason else ''}</td></tr>"
        for c in section.comparisons
    )
    out.append(f"<div class='scroll'><table><tr>{head}</tr>{body}</table></div>")
    # What a reason means, and each comparison's note, below the table: a column of long
    # text would take the width the figures need.
    said = [
        f"<li><b>{e(r)}</b>: {e(REASON_WORDS[r])}</li>"
        for r in dict.fromkeys(c.reason for c in section.comparisons if c.reason)
    ]
    said += [
        f"<li>{e(c.agent)} · {e(c.dimension)}: {e(c.note)}</li>"
        for c in section.comparisons
        if c.note
    ]
    if said:
        out.append(f"<ul class='note'>{''.join(said)}</ul>")
    return out


def _means(section: Section, report: ResultsReport) -> list[str]:
    rows: list[Row] = []
    for dimension in report.dimensions:
        rows.append(Row(dimension, None, None, None, heading=True))
        for agent, result in section.agents.items():
            stat = result.dimensions[dimension]
            rows.append(
                Row(
                    agent,
                    stat.mean,
                    stat.ci.low if stat.ci else None,
                    stat.ci.high if stat.ci else None,
                    note=f"{figure(stat.mean)} {interval(stat.ci.as_list() if stat.ci else None)}"
                    f"  n={stat.n}"
                    if stat.mean is not None
                    else "no rated item",
                )
            )
    if report.scale is not None:
        lo, hi = float(report.scale[0]), float(report.scale[1])
    else:
        known = [v for r in rows for v in (r.low, r.high, r.value) if v is not None]
        lo, hi = min(known, default=0.0), max(known, default=1.0)
    scale = f" (the rubric's scale, {lo:g} to {hi:g})" if report.scale is not None else ""
    return [
        "<h2>Means per dimension</h2>",
        f"<p class='note'>Each agent's mean score with its 95% interval{scale}.</p>",
        interval_chart(rows, "Means per dimension", lo, hi, zero=False, whole=True),
    ]


def _gold(report: ResultsReport) -> list[str]:
    gold: dict[str, GoldAgent] = report.gold
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
    return [
        "<h2>Gold by review agent</h2>",
        f"<p class='note'>Gold matched {e(report.match)}: {e(MATCH_WORDS[report.match])}.</p>",
        f"<div class='scroll'><table>{head}{rows}</table></div>",
    ]


def _plan(full: Report) -> list[str]:
    plan = full.plan
    if plan is None:
        return []
    out = [f"<h2>{e(plan_heading(plan.detect, plan.alpha))}</h2>"]
    if not plan.rows:
        return [*out, "<p>No comparisons: name a baseline.</p>"]
    rows = "".join(
        f"<tr><td class='t'>{e(r.agent)}</td><td class='t'>{e(r.dimension)}</td>"
        f"<td>{r.fixtures}</td><td>{figure(r.sd)}</td>"
        f"<td class='t'>{e(needed_text(r.needed, r.fixtures))}</td>"
        f"<td class='t note'>{e(r.reason or '')}</td></tr>"
        for r in plan.rows
    )
    head = (
        "<tr><th class='t'>agent</th><th class='t'>dimension</th><th>fixtures</th><th>sd</th>"
        "<th class='t'>needed</th><th class='t'></th></tr>"
    )
    return [*out, f"<div class='scroll'><table>{head}{rows}</table></div>"]


def _outcomes(report: ResultsReport) -> list[str]:
    from voyage_tui.engine.reports.figures import OUTCOMES_HEADING, figure, outcome_rows

    rows = outcome_rows(report)
    if not rows:
        return []
    head = (
        "<tr><th>agent</th><th>score</th><th>n</th><th>mean</th><th>95% interval</th>"
        "<th>pass_all_k</th></tr>"
    )
    cells = "".join(
        f"<tr><td>{e(a)}</td><td>{e(n)}</td><td>{k}</td><td>{figure(m)}</td>"
        f"<td>{e(ci)} ({method})</td><td>{e(share)}</td></tr>"
        for a, n, k, m, ci, method, share in rows
    )
    return [
        f"<h2>{e(OUTCOMES_HEADING)}</h2>",
        f"<div class='scroll'><table>{head}{cells}</table></div>",
    ]
