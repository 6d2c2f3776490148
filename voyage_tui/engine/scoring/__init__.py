"""The coordinator contract and the gold scorer: pure functions, no I/O.

- verdict.py   computeVerdict (any BLOCKER -> BLOCK, else any MAJOR -> WARN, else ALLOW)
- contract.py  runContract: reviewer payloads -> merged findings, invalid findings, verdict
- scorer.py    scoreFindings / scoreVerdict: (file, rule_key) set matching with dual_flaggable
- report.py    one run against one gold record, as `voyage-tui score` reports it
- compare.py   a run against a baseline run of the same gold (gained, lost, flips, regression)

Loading gold and run files from disk is rules/gold_run_files.py's job.
"""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from voyage_tui.engine.scoring.compare import BaselineComparison, compare_runs
    from voyage_tui.engine.scoring.contract import (
        ContractOutput,
        Finding,
        InvalidFinding,
        finding_problems,
        payload_problems,
        run_contract,
    )
    from voyage_tui.engine.scoring.report import RunScore, score_run
    from voyage_tui.engine.scoring.scorer import (
        FindingsScore,
        KeyRef,
        Match,
        score_findings,
        score_verdict,
    )
    from voyage_tui.engine.scoring.verdict import compute_verdict, verdict_of_severities

# Each name is imported from its module when first asked for (PEP 562), so importing one
# module of this package does not import them all (`validate`'s start-up: issue 23).
_EXPORTS: dict[str, str] = {
    "BaselineComparison": "voyage_tui.engine.scoring.compare",
    "compare_runs": "voyage_tui.engine.scoring.compare",
    "ContractOutput": "voyage_tui.engine.scoring.contract",
    "Finding": "voyage_tui.engine.scoring.contract",
    "InvalidFinding": "voyage_tui.engine.scoring.contract",
    "finding_problems": "voyage_tui.engine.scoring.contract",
    "payload_problems": "voyage_tui.engine.scoring.contract",
    "run_contract": "voyage_tui.engine.scoring.contract",
    "RunScore": "voyage_tui.engine.scoring.report",
    "score_run": "voyage_tui.engine.scoring.report",
    "FindingsScore": "voyage_tui.engine.scoring.scorer",
    "KeyRef": "voyage_tui.engine.scoring.scorer",
    "Match": "voyage_tui.engine.scoring.scorer",
    "score_findings": "voyage_tui.engine.scoring.scorer",
    "score_verdict": "voyage_tui.engine.scoring.scorer",
    "compute_verdict": "voyage_tui.engine.scoring.verdict",
    "verdict_of_severities": "voyage_tui.engine.scoring.verdict",
}

__all__ = [
    "BaselineComparison",
    "ContractOutput",
    "Finding",
    "FindingsScore",
    "InvalidFinding",
    "KeyRef",
    "Match",
    "RunScore",
    "compare_runs",
    "compute_verdict",
    "finding_problems",
    "payload_problems",
    "run_contract",
    "score_findings",
    "score_run",
    "score_verdict",
    "verdict_of_severities",
]


def __getattr__(name: str) -> Any:
    module = _EXPORTS.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    return getattr(import_module(module), name)
