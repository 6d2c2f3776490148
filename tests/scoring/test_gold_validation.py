"""`validate` on gold files (docs/rules.md, "Gold files") and README prose/JSON drift, with lines."""

from __future__ import annotations

import json

import pytest

from tests.helpers import codes, only, validate
from tests.scoring.common import dump, gold_finding, gold_record
from voyage_tui.engine.validation.suite import Suite

GOLD = "corpus/gold.json"
README = "corpus/README.md"


def findings():
    return [
        gold_finding("src/a.py", 3, "jwt-alg-none", "BLOCKER"),
        gold_finding(
            "src/a.py",
            9,
            "jwt-no-expiry",
            "MAJOR",
            owner="conformance",
            dual_flaggable="jwt-weak-secret",
        ),
    ]


def gold_text(record) -> str:
    """One finding per line, so that tests can name lines."""
    head = {k: v for k, v in record.items() if k != "findings"}
    lines = ["{"] + [f"  {json.dumps(k)}: {json.dumps(v)}," for k, v in head.items()]
    if not isinstance(record["findings"], list):
        return "\n".join([*lines, f'  "findings": {json.dumps(record["findings"])}', "}"]) + "\n"
    lines.append('  "findings": [')
    body = [f"    {json.dumps(f)}" for f in record["findings"]]
    lines.append(",\n".join(body))
    lines += ["  ]", "}"]
    return "\n".join(lines) + "\n"


def check(make_workspace, record=None, text=None, extra=None):
    files = {GOLD: text if text is not None else gold_text(record or gold_record(findings()))}
    files.update(extra or {})
    root = make_workspace(files)
    return [d for d in validate(root) if d.path.startswith("corpus/")]


def test_a_valid_gold_is_clean(make_workspace):
    assert check(make_workspace) == []


def test_extension_fields_are_allowed_on_findings(make_workspace):
    record = gold_record([dict(f, note="why", confidence=0.9) for f in findings()])
    assert check(make_workspace, record) == []


@pytest.mark.parametrize(
    "mutate, code, line",
    [
        (lambda r: r.update(schema="voyage-eval-gold/2"), "invalid-schema", 2),
        (lambda r: r.pop("source"), "missing-field", 1),
        (lambda r: r.update(expected_verdict="BLOCKED"), "invalid-verdict", 5),
        (lambda r: r["findings"][1].update(line=-1), "value-out-of-range", 8),
        (lambda r: r["findings"][1].update(line="9"), "wrong-type", 8),
        (lambda r: r["findings"][0].update(file=7), "wrong-type", 7),
        (lambda r: r["findings"][0].update(severity="CRITICAL"), "invalid-severity", 7),
        (lambda r: r["findings"][0].update(owner_reviewer="security"), "invalid-owner-reviewer", 7),
        (lambda r: r["findings"][0].pop("owner_reviewer"), "missing-field", 7),
        (lambda r: r["findings"][0].update(rule_key="jwt-alg-nome"), "unknown-rule-key", 7),
        (lambda r: r["findings"][1].update(dual_flaggable="jwt-weak"), "unknown-dual-flaggable", 8),
        (lambda r: r["findings"][1].update(dual_flaggable=3), "wrong-type", 8),
        (lambda r: r.update(findings={}), "wrong-type", 6),
    ],
)
def test_each_gold_rule_is_an_error_at_its_line(make_workspace, mutate, code, line):
    record = gold_record(findings())
    mutate(record)
    diagnostics = check(make_workspace, record)
    d = only(diagnostics, code)
    assert d.severity.value == "error"
    assert d.path == GOLD and d.line == line, (d.line, d.message)


def test_unknown_rule_key_suggests_the_catalogue_key(make_workspace):
    record = gold_record(findings())
    record["findings"][0]["rule_key"] = "jwt-alg-nome"
    d = only(check(make_workspace, record), "unknown-rule-key")
    assert "did you mean `jwt-alg-none`" in d.message


def test_expected_verdict_must_equal_compute_verdict(make_workspace):
    record = gold_record(findings(), expected="WARN")
    d = only(check(make_workspace, record), "verdict-mismatch")
    assert d.line == 5
    assert (
        "expected_verdict is WARN but the findings compute BLOCK (1 BLOCKER, 1 MAJOR" in d.message
    )


@pytest.mark.parametrize(
    "severities, verdict", [(["MINOR"], "ALLOW"), (["MAJOR", "MINOR"], "WARN"), ([], "ALLOW")]
)
def test_consistent_verdicts_are_clean(make_workspace, severities, verdict):
    fs = [
        gold_finding("a.py", i, "logic-error" if i else "off-by-one", s)
        for i, s in enumerate(severities)
    ]
    diagnostics = check(make_workspace, gold_record(fs, expected=verdict))
    assert [d for d in diagnostics if d.severity.value == "error"] == []


def test_duplicate_file_rule_key_is_a_warning(make_workspace):
    fs = [*findings(), gold_finding("src/a.py", 30, "jwt-alg-none", "MINOR")]
    d = only(check(make_workspace, gold_record(fs)), "duplicate-finding-key")
    assert d.severity.value == "warning" and d.line == 9
    assert "findings[0] and findings[2]" in d.message


def test_dual_flaggable_equal_to_rule_key_is_a_warning(make_workspace):
    record = gold_record(findings())
    record["findings"][0]["dual_flaggable"] = "jwt-alg-none"
    d = only(check(make_workspace, record), "dual-flaggable-same")
    assert d.severity.value == "warning" and d.line == 7


def test_blank_description_is_a_warning(make_workspace):
    d = only(check(make_workspace, gold_record(findings(), description="  ")), "empty-field")
    assert d.severity.value == "warning" and d.line == 4


def test_empty_gold_is_an_info(make_workspace):
    d = only(check(make_workspace, gold_record([])), "empty-gold")
    assert d.severity.value == "info"


def test_unknown_top_level_field_is_a_warning_with_a_suggestion(make_workspace):
    record = gold_record(findings())
    record["descripton"] = "typo"
    d = only(check(make_workspace, record), "unknown-field")
    assert d.severity.value == "warning" and "did you mean `description`" in d.message


def test_workspace_catalogue_decides_membership(make_workspace):
    record = gold_record([gold_finding("a.py", 1, "house-rule", "MAJOR")])
    extra = {"references/rule-catalogue.yaml": "RULE_CATALOGUE:\n  - house-rule\n"}
    assert check(make_workspace, record, extra=extra) == []


# --- README drift -----------------------------------------------------------------------------------

TABLE = """\
# Corpus

Some prose.

| # | file | line | rule_key | severity |
|---|------|------|----------|----------|
| 1 | `src/a.py` | 3 | `jwt-alg-none` | BLOCKER |
| 2 | `src/a.py` | 9 | `jwt-no-expiry` | MAJOR |
"""


def test_readme_that_matches_is_clean(make_workspace):
    assert check(make_workspace, extra={README: TABLE}) == []


def test_readme_row_missing_from_gold_warns_at_the_readme_row(make_workspace):
    text = TABLE + "| 3 | `src/b.py` | 1 | `ssrf` | MINOR |\n"
    d = only(check(make_workspace, extra={README: text}), "readme-drift")
    assert (d.path, d.line, d.severity.value) == (README, 9, "warning")
    assert "(src/b.py, ssrf)" in d.message and "gold file wins" in d.message


def test_gold_finding_missing_from_readme_warns_at_the_gold_finding(make_workspace):
    text = "\n".join(TABLE.splitlines()[:-1]) + "\n"
    d = only(check(make_workspace, extra={README: text}), "readme-drift")
    assert (d.path, d.line, d.severity.value) == (GOLD, 8, "warning")
    assert (
        "(src/a.py, jwt-no-expiry) is missing from the findings table in corpus/README.md"
        in d.message
    )


def test_readme_drift_names_rows_on_each_side(make_workspace):
    text = TABLE.replace("`jwt-no-expiry`", "`jwt-weak-secret`")
    diagnostics = [
        d for d in check(make_workspace, extra={README: text}) if d.code == "readme-drift"
    ]
    assert sorted((d.path, d.line) for d in diagnostics) == [(README, 8), (GOLD, 8)]


def test_readme_without_a_findings_table_is_not_compared(make_workspace):
    text = "# Corpus\n\n| run | f1 |\n|-----|----|\n| a | 1.0 |\n"
    assert check(make_workspace, extra={README: text}) == []


@pytest.mark.parametrize(
    "file_header, rule_header", [("File", "Rule key"), ("path", "rule"), ("File path", "rule-key")]
)
def test_table_header_variants(make_workspace, file_header, rule_header):
    text = TABLE.replace("| file |", f"| {file_header} |").replace(
        "| rule_key |", f"| {rule_header} |"
    )
    text += "| 3 | `src/b.py` | 1 | `ssrf` | MINOR |\n"
    assert codes(check(make_workspace, extra={README: text})) == ["readme-drift"]


def test_readme_edit_revalidates_the_gold(make_workspace):
    root = make_workspace({GOLD: gold_text(gold_record(findings())), README: TABLE})
    suite = Suite.open(root, use_git=False)
    assert codes(suite.diagnostics(), README) == []
    (root / README).write_text(
        TABLE + "| 3 | `src/b.py` | 1 | `ssrf` | MINOR |\n", encoding="utf-8"
    )
    touched = suite.revalidate([README])
    assert GOLD in touched
    assert codes(suite.diagnostics(), README) == ["readme-drift"]


def test_the_gold_text_helper_puts_findings_on_known_lines():
    text = gold_text(gold_record(findings()))
    assert text.splitlines()[6].lstrip().startswith('{"file": "src/a.py", "line": 3')
    assert json.loads(text) == json.loads(dump(gold_record(findings())))
