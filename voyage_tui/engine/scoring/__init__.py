"""The coordinator contract and the gold scorer: pure functions, no I/O.

- verdict.py   computeVerdict (any BLOCKER -> BLOCK, else any MAJOR -> WARN, else ALLOW)
- contract.py  runContract: reviewer payloads -> merged findings, invalid findings, verdict
- scorer.py    scoreFindings / scoreVerdict: (file, rule_key) set matching with dual_flaggable
- report.py    one run against one gold record, as `voyage-tui score` reports it
- compare.py   a run against a baseline run of the same gold (gained, lost, flips, regression)

Loading gold and run files from disk is rules/gold_run_files.py's job.
"""

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
