"""Recorded runs beside a gold file (SPEC 3.5): a JSON array of reviewer payloads.

A finding that misses a required field or has the wrong type is reported with its reviewer and
index; the scorer leaves it out (never silently).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from pydantic import ValidationError

from voyage_tui.engine import diagnostics as dg
from voyage_tui.engine.diagnostics import Diagnostic
from voyage_tui.engine.formats.payload import ReviewerPayload, RunFinding
from voyage_tui.engine.formats.vocabulary import SEVERITIES
from voyage_tui.engine.loading.positions import Positions
from voyage_tui.engine.references.catalogue import Catalogue
from voyage_tui.engine.rules.gold_rules import rule_key_problem
from voyage_tui.engine.rules.schema_errors import translate


@dataclass(frozen=True, slots=True)
class InvalidFinding:
    reviewer: str
    index: int
    """Index of the finding within its reviewer's `findings`."""
    payload_index: int
    problems: tuple[str, ...]


def finding_problems(finding: Any) -> list[str]:
    """Why a run finding cannot be scored; empty when it can."""
    if not isinstance(finding, dict):
        return ["a finding must be an object"]
    try:
        RunFinding.model_validate(finding)
    except ValidationError as exc:
        problems = []
        for err in exc.errors(include_url=False):
            field = ".".join(str(p) for p in err["loc"]) or "finding"
            if err["type"] == "missing":
                problems.append(f"`{field}` is missing")
            elif err["type"] == "literal_error":
                problems.append(f"`{field}` is {err.get('input')!r}, not one of {', '.join(SEVERITIES)}")
            else:
                problems.append(f"`{field}`: {err['msg'].lower()}")
        return problems
    return []


def check_run(
    rel: str, data: Any, positions: Positions, catalogue: Catalogue
) -> list[Diagnostic]:
    if not isinstance(data, list):
        return [
            dg.error(
                rel,
                (1, 1),
                "run-not-list",
                "a run file is a JSON array of reviewer payloads `[{\"reviewer\": ..., "
                "\"findings\": [...]}]`",
            )
        ]
    out: list[Diagnostic] = []
    for p_index, payload in enumerate(data):
        base = (p_index,)
        if not isinstance(payload, dict):
            out.append(
                dg.error(
                    rel,
                    positions.value(base),
                    "invalid-payload",
                    f"payload {p_index} must be an object `{{\"reviewer\": ..., \"findings\": [...]}}`",
                )
            )
            continue
        try:
            ReviewerPayload.model_validate(payload)
        except ValidationError as exc:
            for d in translate(exc, rel, positions, models=(ReviewerPayload,), base=base):
                out.append(dg.error(d.path, (d.line, d.column) if d.line else None, "invalid-payload", d.message))
        reviewer = payload.get("reviewer") if isinstance(payload.get("reviewer"), str) else f"#{p_index}"
        findings = payload.get("findings")
        if not isinstance(findings, list):
            continue
        for f_index, finding in enumerate(findings):
            path = base + ("findings", f_index)
            problems = finding_problems(finding)
            if problems:
                out.append(
                    dg.error(
                        rel,
                        positions.value(path),
                        "invalid-finding",
                        f"finding {f_index} of reviewer {reviewer!r}: {'; '.join(problems)}; "
                        "it is left out of the score",
                    )
                )
                continue
            problem = rule_key_problem(
                rel, positions, path + ("rule_key",), finding["rule_key"], catalogue, "rule_key"
            )
            if problem:
                # A run may invent a key: it scores as spurious, so this is a warning here.
                out.append(
                    dg.warning(
                        problem.path, (problem.line, problem.column) if problem.line else None,
                        problem.code,
                        f"finding {f_index} of reviewer {reviewer!r}: "
                        + problem.message.replace("; an invented rule key is a corpus bug", "; it can only score as spurious"),
                    )
                )
    return out
