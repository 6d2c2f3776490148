"""A run against a baseline run of the same gold: gained, lost, flips, regression."""

from __future__ import annotations

import pytest

from tests.scoring.common import finding, gold_finding, gold_record, payload
from voyage_tui.engine.scoring.compare import compare_runs
from voyage_tui.engine.scoring.report import score_run

GOLD = gold_record(
    [
        gold_finding("a.py", 1, "jwt-alg-none", "BLOCKER"),
        gold_finding("a.py", 5, "jwt-no-expiry", "MAJOR"),
        gold_finding("b.py", 2, "error-swallowed", "MINOR", dual_flaggable="missing-auth-check"),
    ]
)


def scored(*findings):
    return score_run([payload("r", *findings)], GOLD)


def test_lost_key_is_a_regression():
    base = scored(
        finding("a.py", 1, "jwt-alg-none", "BLOCKER"), finding("a.py", 5, "jwt-no-expiry", "MAJOR")
    )
    run = scored(finding("a.py", 1, "jwt-alg-none", "BLOCKER"))
    c = compare_runs(run, base)
    assert c.lost == (("a.py", "jwt-no-expiry"),) and c.gained == ()
    assert c.verdict_flip is None
    assert c.regression and c.reasons == ("lost (a.py, jwt-no-expiry)",)


def test_gained_keys_alone_are_no_regression():
    base = scored(finding("a.py", 1, "jwt-alg-none", "BLOCKER"))
    run = scored(
        finding("a.py", 1, "jwt-alg-none", "BLOCKER"),
        finding("b.py", 2, "error-swallowed", "MINOR"),
    )
    c = compare_runs(run, base)
    assert c.gained == (("b.py", "error-swallowed"),) and c.lost == ()
    assert not c.regression and c.reasons == ()


def test_block_to_allow_flip_is_a_regression_even_with_every_key_kept():
    base = scored(finding("a.py", 1, "jwt-alg-none", "BLOCKER"))
    run = scored(finding("a.py", 1, "jwt-alg-none", "MINOR"))
    c = compare_runs(run, base)
    assert c.lost == () and c.verdict_flip == ("BLOCK", "ALLOW")
    assert c.regression and c.reasons == ("verdict flipped BLOCK -> ALLOW",)


@pytest.mark.parametrize(
    "base_severity, run_severity, flip",
    [
        ("BLOCKER", "MAJOR", ("BLOCK", "WARN")),
        ("MAJOR", "MINOR", ("WARN", "ALLOW")),
        ("MINOR", "BLOCKER", ("ALLOW", "BLOCK")),
    ],
)
def test_other_flips_are_shown_but_are_no_regression(base_severity, run_severity, flip):
    c = compare_runs(
        scored(finding("a.py", 1, "jwt-alg-none", run_severity)),
        scored(finding("a.py", 1, "jwt-alg-none", base_severity)),
    )
    assert c.verdict_flip == flip and not c.regression


def test_a_match_changing_its_via_is_neither_gained_nor_lost():
    base = scored(finding("b.py", 2, "error-swallowed", "MINOR"))
    run = scored(finding("b.py", 2, "missing-auth-check", "MINOR"))
    c = compare_runs(run, base)
    assert c.gained == c.lost == () and not c.regression


def test_spurious_changes_are_listed():
    base = scored(finding("c.py", 1, "ssrf", "MINOR"))
    run = scored(finding("d.py", 1, "ssrf", "MINOR"))
    c = compare_runs(run, base)
    assert c.spurious_added == (("d.py", "ssrf"),)
    assert c.spurious_removed == (("c.py", "ssrf"),)
    assert not c.regression


def test_to_json():
    base = scored(
        finding("a.py", 1, "jwt-alg-none", "BLOCKER"), finding("a.py", 5, "jwt-no-expiry", "MAJOR")
    )
    run = scored(finding("a.py", 5, "jwt-no-expiry", "MINOR"))
    data = compare_runs(run, base).to_json()
    assert data == {
        "gained": [],
        "lost": [{"file": "a.py", "rule_key": "jwt-alg-none"}],
        "spurious_added": [],
        "spurious_removed": [],
        "baseline_verdict": "BLOCK",
        "run_verdict": "ALLOW",
        "verdict_flip": {"from": "BLOCK", "to": "ALLOW"},
        "regression": True,
        "reasons": ["lost (a.py, jwt-alg-none)", "verdict flipped BLOCK -> ALLOW"],
        "baseline_figures": base.figures(),
        "run_figures": run.figures(),
    }
