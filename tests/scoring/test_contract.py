"""runContract: merging reviewers, invalid findings, verdict and counts (docs/scoring.md, section 1)."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st
from pydantic import ValidationError

from tests.scoring.common import finding, payload
from voyage_tui.engine.formats.payload import RunFinding
from voyage_tui.engine.scoring.contract import (
    finding_problems,
    payload_problems,
    run_contract,
)
from voyage_tui.engine.scoring.verdict import compute_verdict


def test_same_finding_from_two_reviewers_is_one_with_the_highest_severity_and_both_reviewers():
    out = run_contract(
        [
            payload("correctness", finding("a.py", 3, "off-by-one", "MINOR")),
            payload("conformance", finding("a.py", 3, "off-by-one", "BLOCKER")),
        ]
    )
    assert len(out.findings) == 1
    merged = out.findings[0]
    assert (merged.file, merged.line, merged.rule_key) == ("a.py", 3, "off-by-one")
    assert merged.severity == "BLOCKER"
    assert merged.reviewers == ("conformance", "correctness")
    assert out.verdict == "BLOCK"
    assert out.counts == {"BLOCKER": 1, "MAJOR": 0, "MINOR": 0, "SUGGESTION": 0}


def test_one_reviewer_repeating_a_finding_is_listed_once():
    f = finding("a.py", 3, "off-by-one", "MINOR")
    out = run_contract([payload("correctness", f, dict(f, severity="MAJOR"))])
    assert [(x.severity, x.reviewers) for x in out.findings] == [("MAJOR", ("correctness",))]


def test_a_different_line_is_a_different_finding():
    out = run_contract(
        [
            payload("correctness", finding("a.py", 3, "off-by-one", "MINOR")),
            payload("conformance", finding("a.py", 4, "off-by-one", "MINOR")),
        ]
    )
    assert [(f.line, f.reviewers) for f in out.findings] == [
        (3, ("correctness",)),
        (4, ("conformance",)),
    ]
    assert out.counts["MINOR"] == 2


def test_findings_are_sorted_by_file_line_rule_key():
    out = run_contract(
        [
            payload(
                "r",
                finding("b.py", 1, "dead-code", "MINOR"),
                finding("a.py", 9, "off-by-one", "MINOR"),
                finding("a.py", 2, "off-by-one", "MINOR"),
                finding("a.py", 2, "logic-error", "MINOR"),
            )
        ]
    )
    assert [(f.file, f.line, f.rule_key) for f in out.findings] == [
        ("a.py", 2, "logic-error"),
        ("a.py", 2, "off-by-one"),
        ("a.py", 9, "off-by-one"),
        ("b.py", 1, "dead-code"),
    ]


@pytest.mark.parametrize(
    "severities, verdict",
    [
        ([], "ALLOW"),
        (["SUGGESTION", "MINOR"], "ALLOW"),
        (["MINOR", "MAJOR"], "WARN"),
        (["MAJOR", "BLOCKER", "MINOR"], "BLOCK"),
    ],
)
def test_verdict_is_compute_verdict_of_the_merged_findings(severities, verdict):
    findings = [finding("a.py", i, "logic-error", s) for i, s in enumerate(severities)]
    assert run_contract([payload("r", *findings)]).verdict == verdict
    assert compute_verdict(findings) == verdict


@pytest.mark.parametrize(
    "bad, problem",
    [
        ({"line": 1, "rule_key": "logic-error", "severity": "MAJOR"}, "`file` is missing"),
        ({"file": "a.py", "rule_key": "logic-error", "severity": "MAJOR"}, "`line` is missing"),
        ({"file": "a.py", "line": 1, "severity": "MAJOR"}, "`rule_key` is missing"),
        ({"file": "a.py", "line": 1, "rule_key": "logic-error"}, "`severity` is missing"),
        (
            finding("a.py", "1", "logic-error", "MAJOR"),
            "`line` must be a whole number, not the text '1'",
        ),
        (finding("a.py", True, "logic-error", "MAJOR"), "`line` must be a whole number, not true"),
        (
            finding("a.py", 1.0, "logic-error", "MAJOR"),
            "`line` must be a whole number, not the number 1.0",
        ),
        (finding("a.py", -1, "logic-error", "MAJOR"), "`line` is -1; it must be 0 or more"),
        (finding(None, 1, "logic-error", "MAJOR"), "`file` must be text, not null"),
        (finding("a.py", 1, 7, "MAJOR"), "`rule_key` must be text, not the number 7"),
        (finding("a.py", 1, "", "MAJOR"), "`rule_key` is empty"),
        (finding("a.py", 1, "logic-error", "major"), "did you mean `MAJOR`?"),
        (finding("a.py", 1, "logic-error", ["MAJOR"]), "`severity` must be text, not a list"),
        ("a.py:1 logic-error", "a finding must be an object"),
        (None, "a finding must be an object"),
    ],
)
def test_invalid_finding_is_reported_with_reviewer_and_index_and_left_out(bad, problem):
    good = finding("a.py", 1, "logic-error", "MINOR")
    out = run_contract([payload("correctness", good), payload("conformance", good, bad)])
    assert [f.reviewers for f in out.findings] == [("conformance", "correctness")]
    assert out.verdict == "ALLOW"  # a BLOCKER/MAJOR in the invalid finding never counts
    (invalid,) = out.invalid
    assert (invalid.reviewer, invalid.payload_index, invalid.index) == ("conformance", 1, 1)
    assert any(problem in p for p in invalid.problems), invalid.problems
    assert problem in invalid.describe()
    assert invalid.describe().startswith("findings[1] of reviewer 'conformance'")


def test_an_invalid_finding_points_at_its_first_offending_field():
    out = run_contract([payload("r", finding("a.py", "7", "logic-error", "bad"))])
    assert out.invalid[0].path == (0, "findings", 0, "line")
    out = run_contract([payload("r", {"file": "a.py"})])
    assert out.invalid[0].path == (0, "findings", 0)


@pytest.mark.parametrize(
    "bad, problem",
    [
        ("correctness", "a reviewer payload must be an object"),
        ({"findings": []}, "`reviewer` is missing"),
        ({"reviewer": 3, "findings": []}, "`reviewer` must be text"),
        ({"reviewer": " ", "findings": []}, "`reviewer` is empty"),
        ({"reviewer": "r"}, "`findings` is missing"),
        (
            {"reviewer": "r", "findings": {"file": "a.py"}},
            "`findings` must be a list, not an object",
        ),
    ],
)
def test_an_unusable_payload_is_left_out_whole_and_reported_once(bad, problem):
    out = run_contract([bad, payload("ok", finding("a.py", 1, "logic-error", "MAJOR"))])
    assert len(out.findings) == 1 and out.reviewers == ("ok",)
    (invalid,) = out.invalid
    assert invalid.payload_index == 0 and invalid.index is None
    assert invalid.path == (0,)
    assert any(problem in p for p in invalid.problems)
    assert payload_problems(bad) == invalid.problems


def test_a_payload_without_a_reviewer_keeps_its_findings_out_even_when_they_are_valid():
    out = run_contract([{"findings": [finding("a.py", 1, "logic-error", "BLOCKER")]}])
    assert out.findings == () and out.verdict == "ALLOW"
    assert out.invalid[0].reviewer == "#0"


def test_extension_fields_ride_along_and_are_ignored():
    out = run_contract(
        [payload("r", finding("a.py", 1, "logic-error", "MAJOR", message="x", confidence=0.3))]
    )
    assert out.invalid == () and len(out.findings) == 1


def test_to_json_shape():
    out = run_contract([payload("r", finding("a.py", 1, "logic-error", "MAJOR"), {"file": "b"})])
    data = out.to_json()
    assert list(data) == ["findings", "invalid_findings", "verdict", "counts", "reviewers"]
    assert data["findings"] == [
        {
            "file": "a.py",
            "line": 1,
            "rule_key": "logic-error",
            "severity": "MAJOR",
            "reviewers": ["r"],
        }
    ]
    assert data["invalid_findings"][0]["index"] == 1
    assert set(data["invalid_findings"][0]) == {"reviewer", "payload_index", "index", "problems"}
    assert data["invalid_findings"][0]["problems"][0] == "`line` is missing"


# --- one validity rule: the contract agrees with the published RunFinding model -------------------

_values = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(min_value=-3, max_value=3),
    st.floats(allow_nan=False, allow_infinity=False, min_value=-2, max_value=2),
    st.sampled_from(
        ["", " ", "a.py", "logic-error", "MAJOR", "major", "BLOCKER", "SUGGESTION", "41"]
    ),
    st.lists(st.integers(), max_size=1),
)
_findings = st.one_of(
    st.dictionaries(st.sampled_from(["file", "line", "rule_key", "severity", "note"]), _values),
    _values,
)


@given(_findings)
def test_contract_validity_equals_the_run_finding_model(candidate):
    try:
        RunFinding.model_validate(candidate)
        model_ok = True
    except ValidationError:
        model_ok = False
    assert (finding_problems(candidate) == ()) == model_ok
