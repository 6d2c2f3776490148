"""scoreFindings / scoreVerdict (docs/scoring.md) on small, hand-checked cases."""

from __future__ import annotations

import pytest

from tests.scoring.common import finding, gold_finding, gold_record, payload
from voyage_tui.engine.scoring.report import score_run
from voyage_tui.engine.scoring.scorer import score_findings, score_verdict


def keys(refs):
    return [(r.file, r.rule_key) for r in refs]


def test_match_ignores_line_and_severity_and_reports_them_as_differences():
    gold = [gold_finding("a.py", 41, "logic-error", "MAJOR")]
    run = [finding("a.py", 44, "logic-error", "MINOR")]
    s = score_findings(run, gold)
    assert (s.tp, s.fp, s.fn) == (1, 0, 0)
    (m,) = s.matched
    assert (m.via, m.run_rule_key) == ("rule_key", "logic-error")
    assert (m.gold_line, m.run_line, m.gold_severity, m.run_severity) == (41, 44, "MAJOR", "MINOR")
    assert m.differences == ("severity gold MAJOR, run MINOR", "line 41 vs 44")


def test_exact_match_has_no_differences():
    s = score_findings(
        [finding("a.py", 1, "logic-error", "MAJOR")],
        [gold_finding("a.py", 1, "logic-error", "MAJOR")],
    )
    assert s.matched[0].differences == ()


def test_different_file_is_no_match():
    s = score_findings(
        [finding("b.py", 1, "logic-error", "MAJOR")],
        [gold_finding("a.py", 1, "logic-error", "MAJOR")],
    )
    assert (s.tp, s.fp, s.fn) == (0, 1, 1)
    assert keys(s.missed) == [("a.py", "logic-error")]
    assert keys(s.spurious) == [("b.py", "logic-error")]


def test_dual_flaggable_alternative_matches():
    gold = [
        gold_finding("a.py", 12, "jwt-weak-secret", "BLOCKER", dual_flaggable="hardcoded-secret")
    ]
    s = score_findings([finding("a.py", 13, "hardcoded-secret", "MAJOR")], gold)
    assert (s.tp, s.fp, s.fn, s.f1) == (1, 0, 0, 1.0)
    (m,) = s.matched
    assert (m.rule_key, m.via, m.run_rule_key) == (
        "jwt-weak-secret",
        "dual_flaggable",
        "hardcoded-secret",
    )
    assert m.differences[0] == "run rule_key hardcoded-secret (the gold's dual_flaggable)"


def test_dual_flaggable_only_in_the_same_file():
    gold = [
        gold_finding("a.py", 12, "jwt-weak-secret", "BLOCKER", dual_flaggable="hardcoded-secret")
    ]
    s = score_findings([finding("b.py", 13, "hardcoded-secret", "MAJOR")], gold)
    assert (s.tp, s.fp, s.fn) == (0, 1, 1)


def test_exact_match_wins_and_the_alternative_then_scores_as_spurious():
    gold = [
        gold_finding("a.py", 12, "jwt-weak-secret", "BLOCKER", dual_flaggable="hardcoded-secret")
    ]
    run = [
        finding("a.py", 12, "jwt-weak-secret", "BLOCKER"),
        finding("a.py", 12, "hardcoded-secret", "BLOCKER"),
    ]
    s = score_findings(run, gold)
    assert [m.via for m in s.matched] == ["rule_key"]
    assert keys(s.spurious) == [("a.py", "hardcoded-secret")]
    assert (s.tp, s.fp, s.fn) == (1, 1, 0)


def test_an_alternative_already_used_by_an_exact_match_is_not_reused():
    # Gold A's alternative is gold B's own key: the run key serves B exactly, A stays missed.
    gold = [
        gold_finding("a.py", 1, "error-swallowed", "MAJOR", dual_flaggable="missing-auth-check"),
        gold_finding("a.py", 2, "missing-auth-check", "MAJOR"),
    ]
    s = score_findings([finding("a.py", 2, "missing-auth-check", "MAJOR")], gold)
    assert [(m.rule_key, m.via) for m in s.matched] == [("missing-auth-check", "rule_key")]
    assert keys(s.missed) == [("a.py", "error-swallowed")]
    assert (s.tp, s.fp, s.fn) == (1, 0, 1)


def test_an_alternative_serves_one_gold_key_the_first_in_file_rule_key_order():
    gold = [
        gold_finding("a.py", 5, "unhandled-error", "MAJOR", dual_flaggable="logic-error"),
        gold_finding("a.py", 1, "error-swallowed", "MAJOR", dual_flaggable="logic-error"),
    ]
    s = score_findings([finding("a.py", 3, "logic-error", "MAJOR")], gold)
    assert [(m.rule_key, m.via) for m in s.matched] == [("error-swallowed", "dual_flaggable")]
    assert keys(s.missed) == [("a.py", "unhandled-error")]
    assert (s.tp, s.fp, s.fn) == (1, 0, 1)


def test_duplicate_gold_alternatives_are_tried_in_alphabetical_order():
    gold = [
        gold_finding("a.py", 1, "error-swallowed", "MAJOR", dual_flaggable="unhandled-error"),
        gold_finding("a.py", 2, "error-swallowed", "MINOR", dual_flaggable="logic-error"),
    ]
    run = [
        finding("a.py", 1, "unhandled-error", "MAJOR"),
        finding("a.py", 1, "logic-error", "MAJOR"),
    ]
    s = score_findings(run, gold)
    assert [(m.run_rule_key, m.via) for m in s.matched] == [("logic-error", "dual_flaggable")]
    assert keys(s.spurious) == [("a.py", "unhandled-error")]
    # The gold side shows its most severe finding.
    assert (s.matched[0].gold_line, s.matched[0].gold_severity) == (1, "MAJOR")


def test_a_gold_dual_flaggable_equal_to_its_rule_key_is_no_alternative():
    gold = [gold_finding("a.py", 1, "logic-error", "MAJOR", dual_flaggable="logic-error")]
    s = score_findings([], gold)
    assert (s.tp, s.fn) == (0, 1)


def test_set_semantics_duplicates_count_once_on_both_sides():
    gold = [
        gold_finding("a.py", 1, "logic-error", "MINOR"),
        gold_finding("a.py", 9, "logic-error", "BLOCKER"),
    ]
    run = [
        finding("a.py", 2, "logic-error", "MINOR"),
        finding("a.py", 8, "logic-error", "MAJOR"),
        finding("b.py", 1, "dead-code", "MINOR"),
        finding("b.py", 2, "dead-code", "MINOR"),
    ]
    s = score_findings(run, gold)
    assert (s.tp, s.fp, s.fn) == (1, 1, 0)
    m = s.matched[0]
    # gold: the most severe duplicate; run: highest severity, the line nearest the gold line
    assert (m.gold_line, m.gold_severity, m.run_line, m.run_severity) == (9, "BLOCKER", 8, "MAJOR")
    assert s.spurious[0].line == 1


def test_nearest_run_line_prefers_the_lower_on_a_tie():
    s = score_findings(
        [finding("a.py", 12, "logic-error", "MINOR"), finding("a.py", 8, "logic-error", "MINOR")],
        [gold_finding("a.py", 10, "logic-error", "MINOR")],
    )
    assert s.matched[0].run_line == 8


@pytest.mark.parametrize(
    "run, gold, figures",
    [
        ([], [gold_finding("a.py", 1, "logic-error", "MAJOR")], (0, 0, 1, 0.0, 0.0, 0.0)),
        ([finding("a.py", 1, "logic-error", "MAJOR")], [], (0, 1, 0, 0.0, 0.0, 0.0)),
        ([], [], (0, 0, 0, 0.0, 0.0, 0.0)),
    ],
    ids=["empty-run", "empty-gold", "both-empty"],
)
def test_zero_denominator_conventions(run, gold, figures):
    s = score_findings(run, gold)
    assert (s.tp, s.fp, s.fn, s.precision, s.recall, s.f1) == figures


def test_figures_are_the_spec_formulas():
    gold = [
        gold_finding("a.py", i, k, "MINOR")
        for i, k in enumerate(["logic-error", "off-by-one", "dead-code", "missing-test"])
    ]
    run = [
        finding("a.py", 0, "logic-error", "MINOR"),
        finding("a.py", 0, "off-by-one", "MINOR"),
        finding("a.py", 0, "ssrf", "MINOR"),
    ]
    s = score_findings(run, gold)
    assert (s.tp, s.fp, s.fn) == (2, 1, 2)
    assert s.precision == 2 / 3 and s.recall == 2 / 4
    assert s.f1 == 2 * (2 / 3) * (1 / 2) / (2 / 3 + 1 / 2)


def test_output_order_is_by_file_then_rule_key():
    gold = [
        gold_finding(f, 1, k, "MINOR")
        for f, k in [("b.py", "dead-code"), ("a.py", "off-by-one"), ("a.py", "dead-code")]
    ]
    run = [
        finding(f, 1, k, "MINOR")
        for f, k in [
            ("b.py", "dead-code"),
            ("a.py", "off-by-one"),
            ("c.py", "ssrf"),
            ("a.py", "ssrf"),
        ]
    ]
    s = score_findings(run, gold)
    assert keys(s.matched) == [("a.py", "off-by-one"), ("b.py", "dead-code")]
    assert keys(s.missed) == [("a.py", "dead-code")]
    assert keys(s.spurious) == [("a.py", "ssrf"), ("c.py", "ssrf")]


def test_entries_without_a_text_key_are_skipped():
    s = score_findings(
        [{"file": "a.py"}, {"rule_key": 3, "file": "a.py"}], [{"file": None, "rule_key": "x"}]
    )
    assert (s.tp, s.fp, s.fn) == (0, 0, 0)


def test_score_verdict_is_exact():
    assert score_verdict("BLOCK", "BLOCK")
    assert not score_verdict("WARN", "BLOCK")
    assert not score_verdict("block", "BLOCK")
    assert not score_verdict(None, None)


def test_score_run_json_has_exactly_the_spec_keys_in_order():
    gold = gold_record([gold_finding("a.py", 1, "logic-error", "MAJOR")])
    result = score_run(
        [payload("r", finding("a.py", 1, "logic-error", "MAJOR"), {"file": "x"})], gold
    )
    data = result.to_json()
    assert list(data) == [
        "tp",
        "fp",
        "fn",
        "precision",
        "recall",
        "f1",
        "matched",
        "missed",
        "spurious",
        "run_verdict",
        "expected_verdict",
        "verdict_match",
        "invalid_findings",
    ]
    assert {"file", "rule_key", "via"} <= set(data["matched"][0])
    assert (
        data["run_verdict"] == data["expected_verdict"] == "WARN" and data["verdict_match"] is True
    )
    assert len(data["invalid_findings"]) == 1
    assert result.gold_keys == 1


def test_missed_and_spurious_json_are_exactly_file_and_rule_key():
    s = score_findings(
        [finding("b.py", 3, "ssrf", "MAJOR")], [gold_finding("a.py", 1, "logic-error", "MAJOR")]
    )
    data = s.to_json()
    assert data["missed"] == [{"file": "a.py", "rule_key": "logic-error"}]
    assert data["spurious"] == [{"file": "b.py", "rule_key": "ssrf"}]
