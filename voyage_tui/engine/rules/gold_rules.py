"""Gold corpus records (docs/rules.md, "Gold files"), and prose/JSON drift against a README beside them."""

from __future__ import annotations

from typing import Any

from pydantic import ValidationError

from voyage_tui.engine import diagnostics as dg
from voyage_tui.engine.diagnostics import Diagnostic
from voyage_tui.engine.formats.gold import GoldFinding, GoldRecord
from voyage_tui.engine.formats.schema_errors import translate, unknown_fields
from voyage_tui.engine.formats.vocabulary import (
    GOLD_SCHEMA,
    OWNER_REVIEWERS,
    SEVERITIES,
    VERDICTS,
)
from voyage_tui.engine.loading.positions import Positions
from voyage_tui.engine.references.catalogue import Catalogue
from voyage_tui.engine.references.findings_table import TableRow
from voyage_tui.engine.scoring.verdict import compute_verdict
from voyage_tui.engine.suggest import hint

_VOCABULARIES = {
    "severity": SEVERITIES,
    "owner_reviewer": OWNER_REVIEWERS,
    "expected_verdict": VERDICTS,
    "schema": (GOLD_SCHEMA,),
}


def is_gold(data: Any) -> bool:
    """A JSON file is gold when its `schema` names the gold schema (any version)."""
    return (
        isinstance(data, dict)
        and isinstance(data.get("schema"), str)
        and data["schema"].startswith("voyage-eval-gold/")
    )


def not_gold(rel: str, data: Any, positions: Positions) -> Diagnostic:
    """A JSON file given as a gold file that is not a gold record at all."""
    if isinstance(data, dict):
        pos = positions.value(("schema",)) if "schema" in data else (1, 1)
        found = f"its `schema` is {data['schema']!r}" if "schema" in data else "it has no `schema`"
    else:
        pos, found = (1, 1), "it is not a JSON object"
    return dg.error(
        rel,
        pos,
        "not-gold",
        f'not a gold record: {found}; a gold file is an object with "schema": "{GOLD_SCHEMA}"',
    )


def rule_key_problem(
    rel: str,
    positions: Positions,
    path: tuple[Any, ...],
    key: Any,
    catalogue: Catalogue | None,
    field: str,
) -> Diagnostic | None:
    if catalogue is None or not isinstance(key, str) or key in catalogue:
        return None
    code = "unknown-rule-key" if field == "rule_key" else "unknown-dual-flaggable"
    return dg.error(
        rel,
        positions.value(path),
        code,
        f"{field} {key!r} is not in RULE_CATALOGUE{hint(key, catalogue.keys)}; "
        "an invented rule key is a corpus bug",
    )


def check_gold_record(
    rel: str, data: dict[Any, Any], positions: Positions, catalogue: Catalogue | None
) -> list[Diagnostic]:
    """Every gold-file rule (docs/rules.md) on one gold record (the README drift check is separate).

    Errors: the record's shape (schema, required fields and their types, severities,
    owner_reviewer, line >= 0), rule_key or dual_flaggable outside RULE_CATALOGUE (not checked
    without a catalogue: `score` on files no workspace holds), an expected_verdict that
    computeVerdict disagrees with. Warnings: two findings with the same
    (file, rule_key), a dual_flaggable equal to its own rule_key, blank source or description,
    unknown top-level fields. Info: a gold with no findings.
    """
    out: list[Diagnostic] = []
    try:
        GoldRecord.model_validate(data)
    except ValidationError as exc:
        out += translate(
            exc, rel, positions, models=(GoldRecord, GoldFinding), vocabularies=_VOCABULARIES
        )
    out += unknown_fields(data, GoldRecord, rel, positions)
    for name in ("source", "description"):
        value = data.get(name)
        if isinstance(value, str) and not value.strip():
            out.append(
                dg.warning(
                    rel,
                    positions.value((name,)),
                    "empty-field",
                    f"`{name}` is blank; say "
                    + (
                        "where this record was distilled from"
                        if name == "source"
                        else "in one line what it covers"
                    ),
                )
            )

    findings = data.get("findings")
    if not isinstance(findings, list):
        return out
    if not findings:
        out.append(
            dg.info(
                rel,
                positions.value(("findings",)),
                "empty-gold",
                "this gold has no findings: every run scores precision 0 and f1 0 against it "
                "(an empty set has nothing to match)",
            )
        )
    first_at: dict[tuple[str, str], int] = {}
    for index, finding in enumerate(findings):
        if not isinstance(finding, dict):
            continue
        base = ("findings", index)
        for field in ("rule_key", "dual_flaggable"):
            if field in finding:
                problem = rule_key_problem(
                    rel, positions, (*base, field), finding[field], catalogue, field
                )
                if problem:
                    out.append(problem)
        file, rule_key = finding.get("file"), finding.get("rule_key")
        if isinstance(rule_key, str) and finding.get("dual_flaggable") == rule_key:
            out.append(
                dg.warning(
                    rel,
                    positions.value((*base, "dual_flaggable")),
                    "dual-flaggable-same",
                    f"dual_flaggable repeats the finding's own rule_key {rule_key!r}, so it offers "
                    "no alternative; name the second rule_key the same issue could carry, or "
                    "remove it",
                )
            )
        if isinstance(file, str) and isinstance(rule_key, str):
            key = (file, rule_key)
            if key in first_at:
                out.append(
                    dg.warning(
                        rel,
                        positions.value(base),
                        "duplicate-finding-key",
                        f"findings[{first_at[key]}] and findings[{index}] are both ({file}, "
                        f"{rule_key}); the scorer matches at (file, rule_key) and cannot tell them "
                        "apart, so merge them",
                    )
                )
            else:
                first_at[key] = index

    expected = data.get("expected_verdict")
    if expected in VERDICTS:
        valid = [f for f in findings if isinstance(f, dict) and f.get("severity") in SEVERITIES]
        computed = compute_verdict(valid)
        if computed != expected:
            counts = {s: sum(1 for f in valid if f["severity"] == s) for s in ("BLOCKER", "MAJOR")}
            out.append(
                dg.error(
                    rel,
                    positions.value(("expected_verdict",)),
                    "verdict-mismatch",
                    f"expected_verdict is {expected} but the findings compute {computed} "
                    f"({counts['BLOCKER']} BLOCKER, {counts['MAJOR']} MAJOR: any BLOCKER -> BLOCK, "
                    "else any MAJOR -> WARN, else ALLOW)",
                )
            )
    return out


def check_readme_drift(
    gold_rel: str,
    data: dict[Any, Any],
    positions: Positions,
    readme_rel: str,
    rows: list[TableRow],
) -> list[Diagnostic]:
    """Rows in the README table and not in the gold, and the reverse. gold.json wins."""
    findings = data.get("findings")
    if not isinstance(findings, list):
        return []
    gold_keys: dict[tuple[str, str], int] = {}
    for index, finding in enumerate(findings):
        if isinstance(finding, dict):
            file, rule_key = finding.get("file"), finding.get("rule_key")
            if isinstance(file, str) and isinstance(rule_key, str):
                gold_keys.setdefault((file, rule_key), index)
    readme_keys = {(row.file, row.rule_key): row for row in rows}
    out: list[Diagnostic] = []
    for key, row in readme_keys.items():
        if key not in gold_keys:
            out.append(
                dg.warning(
                    readme_rel,
                    (row.line, 1) if row.line else None,
                    "readme-drift",
                    f"the findings table lists ({key[0]}, {key[1]}) but {gold_rel} does not; "
                    "the gold file wins, so fix or remove this row",
                )
            )
    for key, index in gold_keys.items():
        if key not in readme_keys:
            out.append(
                dg.warning(
                    gold_rel,
                    positions.value(("findings", index)),
                    "readme-drift",
                    f"({key[0]}, {key[1]}) is missing from the findings table in {readme_rel}; "
                    "add a row there (the gold file wins)",
                )
            )
    return out
