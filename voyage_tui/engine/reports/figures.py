"""How every format writes a figure: two decimals, a sign on a difference, p to three decimals
(or `<0.001`), an interval in brackets, `—` for a figure that cannot be computed."""

from __future__ import annotations

from voyage_tui.engine.results.model import Comparison, DimensionStat, ResultsReport, Section

ARROWS = {"better": "↑ better", "worse": "↓ worse", "unclear": "· unclear"}
"""Words as well as arrows: the table reads the same without colour or the glyphs."""
MATCH_WORDS = {
    "dual": "a gold finding also counts when a run names its dual_flaggable key",
    "seed": "a gold finding counts only for its own file and rule key",
}
REASON_WORDS = {
    "too-few-fixtures": "on this few shared fixtures no result could reach alpha (the smallest "
    "p possible is 2 in 2^n): rate more fixtures before reading a verdict",
    "no-data": "no fixture where both agents have rated runs",
    "not-significant": "the interval includes 0 or p_holm is not below alpha: the difference "
    "could be chance",
}
"""Why a comparison is `unclear`, in words (the code is shown beside them)."""


def _unsigned_zero(value: float, digits: int) -> float:
    """0.0 for a value that rounds to zero: never `-0.00`."""
    return 0.0 if round(value, digits) == 0 else value


def figure(value: float | None, digits: int = 2) -> str:
    return "—" if value is None else f"{_unsigned_zero(value, digits):.{digits}f}"


def interval(ci: list[float] | tuple[float, float] | None) -> str:
    if ci is None:
        return "—"
    return f"[{figure(ci[0])}, {figure(ci[1])}]"


def signed(value: float | None) -> str:
    """A difference: `+0.50`, `-0.25`, `0.00` (no sign on nothing)."""
    if value is None:
        return "—"
    value = _unsigned_zero(value, 2)
    return "0.00" if value == 0 else f"{value:+.2f}"


def verdict_words(c: Comparison) -> str:
    """`↑ better`, `· unclear (too-few-fixtures)`."""
    words = ARROWS[c.verdict]
    return f"{words} ({c.reason})" if c.reason else words


def ci_of(c: Comparison) -> str:
    return interval(c.ci.as_list() if c.ci else None)


def rule_text(report: ResultsReport, section: Section) -> str:
    """The verdict rule as a reader needs it, with this section's alpha and family size."""
    tested = sum(1 for c in section.comparisons if c.p is not None)
    return (
        f"better or worse only when the 95% interval excludes 0 and p_holm (p adjusted by "
        f"Holm's method over the {tested} comparisons with data) is below alpha "
        f"{report.alpha:g}; mde: the smallest true difference this comparison would detect "
        f"with 80% power"
    )


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
    """`baseline agent: old · alpha 0.05 · by class`."""
    base = (
        f"baseline agent: {report.baseline}" if report.baseline else "no baseline: no comparisons"
    )
    parts = [base]
    if report.baseline:
        parts.append(f"alpha {report.alpha:g}")
    if report.by:
        parts.append(f"by {report.by}")
    return " · ".join(parts)


def match_text(report: ResultsReport) -> str:
    return f"gold matched {report.match}: {MATCH_WORDS[report.match]}"


def plan_heading(detect: float, alpha: float) -> str:
    return (
        f"Plan: shared fixtures needed to detect a true difference of {detect:g} with 80% power "
        f"at alpha {alpha:g} (from the sd of today's paired differences)"
    )


def needed_text(needed: int | None, fixtures: int) -> str:
    if needed is None:
        return "—"
    more = needed - fixtures
    return f"{needed} ({more} more)" if more > 0 else f"{needed} (enough today)"


OUTCOMES_HEADING = "Harness scores (imported runs' metadata.outcome)"


def outcome_rows(report: ResultsReport) -> list[tuple[str, str, int, float, str, str, str]]:
    """(agent, score name, n, mean, 95% interval, its method, pass_all_k) per imported score:
    the same cells for every face."""
    rows = []
    for agent, by_name in report.outcomes.items():
        for name, f in by_name.items():
            share = report.pass_all_k.get(agent, {}).get(name)
            rows.append(
                (
                    agent,
                    name,
                    f.n,
                    f.mean,
                    interval(f.ci.as_list() if f.ci else None),
                    "Wilson" if f.binary else "bootstrap",
                    "—" if share is None else f"{share:.0%}",
                )
            )
    return rows
