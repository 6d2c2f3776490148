"""How every format writes a figure: two decimals, a sign on a difference, p to three decimals
(or `<0.001`), an interval in brackets, `—` for a figure that cannot be computed."""

from __future__ import annotations

from voyage_tui.engine.results.model import Comparison, DimensionStat, ResultsReport, Section

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


def stat_ci(stat: DimensionStat) -> list[float] | None:
    return stat.ci.as_list() if stat.ci is not None else None


def comparison_of(section: Section, agent: str, dimension: str) -> Comparison | None:
    for c in section.comparisons:
        if c.agent == agent and c.dimension == dimension:
            return c
    return None


def headline(report: ResultsReport) -> str:
    base = f"baseline {report.baseline}" if report.baseline else "no baseline: no comparisons"
    by = f"; by {report.by}" if report.by else ""
    return f"match {report.match}; {base}{by}"
