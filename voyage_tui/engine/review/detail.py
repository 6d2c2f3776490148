"""Everything behind one diff row: both sides' findings in full, and the source around them."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from voyage_tui.engine.review.inputs import Scored
from voyage_tui.engine.review.rows import DiffRow
from voyage_tui.engine.review.source import SourceExcerpt, excerpt
from voyage_tui.engine.scoring.contract import Finding
from voyage_tui.engine.workspace.model import Workspace


@dataclass(frozen=True, slots=True)
class RowDetail:
    row: DiffRow
    gold_findings: tuple[dict[str, Any], ...]
    """Every gold finding with the row's (file, rule_key), all fields (notes and extensions too)."""
    run_findings: tuple[Finding, ...]
    """Every merged run finding with the run key, each with all the reviewers that reported it."""
    source: SourceExcerpt | None


def row_detail(ws: Workspace | None, scored: Scored, row: DiffRow) -> RowDetail:
    """`ws`: where to look for the reviewed sources (none for files outside a workspace)."""
    gold_findings: list[dict[str, Any]] = []
    if row.has_gold:
        findings = scored.gold.get("findings")
        for finding in findings if isinstance(findings, list) else []:
            if (
                isinstance(finding, dict)
                and finding.get("file") == row.file
                and finding.get("rule_key") == row.rule_key
            ):
                gold_findings.append(finding)
    run_findings: tuple[Finding, ...] = ()
    if row.has_run:
        run_key = row.run_rule_key or row.rule_key
        run_findings = tuple(
            f
            for f in scored.score.contract.findings
            if f.file == row.file and f.rule_key == run_key
        )
    line = row.gold_line if row.gold_line is not None else row.run_line
    source = excerpt(ws, scored.gold_path, scored.gold, row.file, line) if ws else None
    return RowDetail(row, tuple(gold_findings), run_findings, source)
