"""Builders shared by the scoring tests."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from tests.sample import SAMPLE_ROOT

SAMPLE = SAMPLE_ROOT / "fixtures" / "gold" / "jwt-auth"
SAMPLE_GOLD = SAMPLE / "gold.json"
SAMPLE_RUNS = SAMPLE / "runs"


def finding(file: str, line: int, rule_key: str, severity: str, **extra: Any) -> dict[str, Any]:
    return {"file": file, "line": line, "rule_key": rule_key, "severity": severity, **extra}


def gold_finding(
    file: str,
    line: int,
    rule_key: str,
    severity: str,
    owner: str = "correctness",
    **extra: Any,
) -> dict[str, Any]:
    return {**finding(file, line, rule_key, severity), "owner_reviewer": owner, **extra}


def gold_record(
    findings: list[dict[str, Any]], expected: str | None = None, **extra: Any
) -> dict[str, Any]:
    from voyage_tui.engine.scoring.verdict import compute_verdict

    return {
        "schema": "voyage-eval-gold/1",
        "source": "tests",
        "description": "a gold record built by a test",
        "expected_verdict": expected if expected is not None else compute_verdict(findings),
        "findings": findings,
        **extra,
    }


def payload(reviewer: str, *findings: Any) -> dict[str, Any]:
    return {"reviewer": reviewer, "findings": list(findings)}


def dump(data: Any) -> str:
    return json.dumps(data, indent=2) + "\n"


def load(path: Path) -> Any:
    return json.loads(path.read_text(encoding="utf-8"))
