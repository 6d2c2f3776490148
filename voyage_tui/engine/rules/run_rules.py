"""Recorded runs beside a gold file (docs/rules.md, "Recorded runs"): a JSON array of reviewer payloads.

What is valid is decided by the coordinator contract (scoring/contract.py); this module only
places its verdicts in the file, so `validate` and `score` can never disagree about which
findings count:

- a run that is not a list: error `run-not-list` (`score` refuses it with exit 2);
- a payload that is not `{"reviewer": text, "findings": [...]}`: error `invalid-payload`; the
  file is not the recording it claims to be, and the whole payload is left out of the score;
- a finding the contract cannot score (a required field missing or of the wrong type): info
  `invalid-finding`; a rule_key outside RULE_CATALOGUE: info `unknown-rule-key` (it can only
  score as spurious). A run is recorded evidence of what an agent produced: what is wrong
  *inside* a finding is the agent's doing, measured and reported by `score`
  (`invalid_findings`, spurious keys), and the fix is never to edit the recording, so these
  are noted, not warned about.
"""

from __future__ import annotations

from typing import Any

from voyage_tui.engine import diagnostics as dg
from voyage_tui.engine.diagnostics import Diagnostic
from voyage_tui.engine.loading.positions import Positions
from voyage_tui.engine.references.catalogue import Catalogue
from voyage_tui.engine.scoring.contract import (
    InvalidFinding,
    finding_problems,
    payload_problems,
    run_contract,
)
from voyage_tui.engine.suggest import hint

__all__ = ["InvalidFinding", "check_run", "finding_problems", "run_not_list"]


def run_not_list(rel: str, data: Any, positions: Positions) -> Diagnostic:
    shape = "an object" if isinstance(data, dict) else "a single value"
    return dg.error(
        rel,
        positions.value(()) or (1, 1),
        "run-not-list",
        f"the run is {shape}, but a run file is a JSON array of reviewer payloads "
        '`[{"reviewer": ..., "findings": [...]}]`',
    )


def check_run(
    rel: str, data: Any, positions: Positions, catalogue: Catalogue | None
) -> list[Diagnostic]:
    """The contract's verdict on each payload and finding; rule keys against `catalogue` (not
    checked without one)."""
    if not isinstance(data, list):
        return [run_not_list(rel, data, positions)]
    out: list[Diagnostic] = []
    for invalid in run_contract(data).invalid:
        if invalid.index is None:
            out.append(
                dg.error(
                    rel,
                    positions.value(invalid.path),
                    "invalid-payload",
                    f"{invalid.describe()}; fix it, or the whole payload is left out of the score",
                )
            )
        else:
            out.append(
                dg.info(
                    rel,
                    positions.value(invalid.path),
                    "invalid-finding",
                    f"{invalid.describe()}; it is left out of the score (and reported by "
                    "`voyage-tui score`)",
                )
            )
    if catalogue is None:
        return out
    for p_index, payload in enumerate(data):
        if payload_problems(payload):
            continue  # left out whole, reported above
        reviewer = payload.get("reviewer")
        for f_index, finding in enumerate(payload["findings"]):
            if finding_problems(finding):
                continue
            rule_key = finding["rule_key"]
            if rule_key in catalogue:
                continue
            out.append(
                dg.info(
                    rel,
                    positions.value((p_index, "findings", f_index, "rule_key")),
                    "unknown-rule-key",
                    f"finding {f_index} of reviewer {reviewer!r}: rule_key {rule_key!r} is not in "
                    f"RULE_CATALOGUE{hint(rule_key, catalogue.keys)}; it can only score as spurious",
                )
            )
    return out
