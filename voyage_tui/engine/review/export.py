"""A diff as a Markdown table, for a pull-request comment, and writing it into the workspace.

A run is JSON from anywhere: its strings may hold lone surrogates (`"\\udc00"`), which no encoder
accepts. They are shown as the escape that wrote them, so the table can always be written or
copied and the odd character stays visible.
"""

from __future__ import annotations

import re

from voyage_tui.engine.review.rows import DiffRow
from voyage_tui.engine.scoring.report import RunScore
from voyage_tui.engine.wording import plural
from voyage_tui.engine.workspace.model import Workspace
from voyage_tui.engine.workspace.writes import write_file

_SURROGATE = re.compile("[\ud800-\udfff]")


def encodable(text: str) -> str:
    """`text` with every surrogate code point written as its `\\uXXXX` escape."""
    return _SURROGATE.sub(lambda m: f"\\u{ord(m.group()):04x}", text)


def _cell(value: object) -> str:
    text = "" if value is None else str(value)
    return text.replace("|", "\\|").replace("\n", " ")


def _side(line: int | None, severity: str | None, rule_key: str | None = None) -> str:
    if line is None and severity is None:
        return ""
    parts = []
    if rule_key:
        parts.append(f"`{rule_key}`")
    if severity:
        parts.append(severity)
    if line is not None:
        # Line 0 is a file-scoped finding; the diff screen shows it as `(file)` too.
        parts.append(f"line {line}" if line else "(file)")
    return " ".join(parts)


def markdown_table(gold_name: str, run_name: str, score: RunScore, rows: list[DiffRow]) -> str:
    verdict = "✓ match" if score.verdict_match else "✗ mismatch"
    lines = [
        f"### {run_name} vs {gold_name}",
        "",
        f"tp {score.tp} · fp {score.fp} · fn {score.fn} · precision {score.precision:.3f} · "
        f"recall {score.recall:.3f} · F1 {score.f1:.3f} · verdict {score.run_verdict} "
        f"(expected {score.expected_verdict}: {verdict})",
        "",
        "| | file | rule_key | gold | run | notes |",
        "|---|---|---|---|---|---|",
    ]
    for row in rows:
        gold = _side(row.gold_line, row.gold_severity) if row.has_gold else ""
        run_key = (
            row.run_rule_key if row.run_rule_key and row.run_rule_key != row.rule_key else None
        )
        run = _side(row.run_line, row.run_severity, run_key) if row.has_run else ""
        notes = "; ".join(row.differences)
        if row.reviewers:
            notes = (notes + "; " if notes else "") + "reviewers: " + ", ".join(row.reviewers)
        lines.append(
            f"| {row.symbol} {row.state} | `{_cell(row.file)}` | `{_cell(row.rule_key)}` | "
            f"{_cell(gold)} | {_cell(run)} | {_cell(notes)} |"
        )
    invalid = score.invalid_findings
    if invalid:
        lines += ["", f"{plural(len(invalid), 'invalid finding')} left out of the score:"]
        for finding in invalid:
            where = f"finding {finding.index}" if finding.index is not None else "the whole payload"
            lines.append(f"- {finding.reviewer}, {where}: {'; '.join(finding.problems)}")
    lines.append("")
    lines.append("`=` matched · `~` matched via dual_flaggable · `-` missed · `+` spurious")
    return encodable("\n".join(lines) + "\n")


def write_markdown_file(ws: Workspace, rel: str, text: str) -> str:
    """Write `text` to the workspace-relative `rel`, creating its folders, and return the real
    path written. Raises WriteRefused (an OSError) when `rel` is or leads outside the workspace
    or is not a regular file, and OSError when the write fails."""
    return write_file(ws, rel, encodable(text).encode("utf-8"), make_folders=True, shown=rel)
