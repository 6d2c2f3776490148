"""The sample gold corpus (fixtures/gold/jwt-auth): every run's figures, pinned.

run-perfect is the regression guard: fed through the coordinator contract it must reproduce the
gold at precision/recall/f1 1.0 and the expected verdict.
"""

from __future__ import annotations

import json

import pytest

from tests.sample import SAMPLE_ROOT
from tests.scoring.common import SAMPLE_GOLD, SAMPLE_RUNS, load
from voyage_tui.cli import main
from voyage_tui.engine.diagnostics import Severity
from voyage_tui.engine.items import GoldFacts
from voyage_tui.engine.scoring.compare import compare_runs
from voyage_tui.engine.scoring.report import score_run
from voyage_tui.engine.validation.suite import Suite

# run: (tp, fp, fn, precision, recall, f1, run_verdict, verdict_match, invalid findings)
PINNED = {
    "run-perfect": (7, 0, 0, 1.0, 1.0, 1.0, "BLOCK", True, 0),
    "run-misses": (5, 0, 2, 1.0, 5 / 7, 10 / 12, "BLOCK", True, 0),
    "run-invents": (7, 3, 0, 0.7, 1.0, 14 / 17, "BLOCK", True, 0),
    "run-dual-flaggable": (7, 0, 0, 1.0, 1.0, 1.0, "BLOCK", True, 0),
    "run-two-reviewers": (7, 0, 0, 1.0, 1.0, 1.0, "BLOCK", True, 0),
    "run-invalid-finding": (6, 0, 1, 1.0, 6 / 7, 12 / 13, "BLOCK", True, 2),
    "run-empty": (0, 0, 7, 0.0, 0.0, 0.0, "ALLOW", False, 0),
    "run-downgraded": (7, 0, 0, 1.0, 1.0, 1.0, "ALLOW", False, 0),
}


def scored(name: str):
    return score_run(load(SAMPLE_RUNS / f"{name}.json"), load(SAMPLE_GOLD))


def test_every_run_in_the_sample_is_pinned():
    assert sorted(p.stem for p in SAMPLE_RUNS.glob("*.json")) == sorted(PINNED)


def test_the_gold_is_what_the_readme_says():
    gold = load(SAMPLE_GOLD)
    assert gold["expected_verdict"] == "BLOCK"
    assert len(gold["findings"]) == 7
    assert sum(1 for f in gold["findings"] if "dual_flaggable" in f) == 3


@pytest.mark.parametrize("name", sorted(PINNED))
def test_pinned_figures_engine(name):
    tp, fp, fn, precision, recall, f1, verdict, verdict_match, invalid = PINNED[name]
    r = scored(name)
    assert (r.tp, r.fp, r.fn) == (tp, fp, fn)
    assert r.precision == pytest.approx(precision, abs=1e-12)
    assert r.recall == pytest.approx(recall, abs=1e-12)
    assert r.f1 == pytest.approx(f1, abs=1e-12)
    assert (r.run_verdict, r.expected_verdict, r.verdict_match) == (verdict, "BLOCK", verdict_match)
    assert len(r.invalid_findings) == invalid


@pytest.mark.parametrize("name", sorted(PINNED))
def test_pinned_figures_command_line(name, capsys):
    tp, fp, fn, precision, recall, f1, verdict, verdict_match, invalid = PINNED[name]
    code = main(
        [
            "score",
            "--gold",
            str(SAMPLE_GOLD),
            "--run",
            str(SAMPLE_RUNS / f"{name}.json"),
            "--format",
            "json",
        ]
    )
    assert code == 0
    data = json.loads(capsys.readouterr().out)
    assert (data["tp"], data["fp"], data["fn"]) == (tp, fp, fn)
    assert data["precision"] == pytest.approx(precision, abs=1e-12)
    assert data["recall"] == pytest.approx(recall, abs=1e-12)
    assert data["f1"] == pytest.approx(f1, abs=1e-12)
    assert (data["run_verdict"], data["expected_verdict"], data["verdict_match"]) == (
        verdict,
        "BLOCK",
        verdict_match,
    )
    assert len(data["invalid_findings"]) == invalid


def test_run_perfect_is_the_regression_guard():
    r = scored("run-perfect")
    assert (r.precision, r.recall, r.f1) == (1.0, 1.0, 1.0)
    assert r.verdict_match and r.run_verdict == load(SAMPLE_GOLD)["expected_verdict"]
    assert all(m.via == "rule_key" and m.differences == () for m in r.matched)


def test_run_misses_details():
    r = scored("run-misses")
    assert [(k.file, k.rule_key) for k in r.missed] == [
        ("src/auth/jwt.ts", "jwt-alg-none"),
        ("src/auth/jwt.ts", "missing-test"),
    ]


def test_run_invents_details():
    r = scored("run-invents")
    assert [(k.file, k.rule_key) for k in r.spurious] == [
        ("README.md", "missing-docs"),
        ("src/auth/jwt.ts", "timing-attack"),
        ("src/routes/login.ts", "sql-injection"),
    ]


def test_run_dual_flaggable_details():
    r = scored("run-dual-flaggable")
    dual = {(m.rule_key, m.run_rule_key) for m in r.matched if m.via == "dual_flaggable"}
    assert dual == {
        ("jwt-weak-secret", "hardcoded-secret"),
        ("missing-test", "verification-below-boundary"),
        ("error-swallowed", "missing-auth-check"),
    }
    by_key = {m.rule_key: m for m in r.matched}
    assert by_key["jwt-weak-secret"].differences == (
        "run rule_key hardcoded-secret (the gold's dual_flaggable)",
        "line 12 vs 13",
    )
    assert "severity gold MAJOR, run BLOCKER" in by_key["error-swallowed"].differences
    assert by_key["jwt-alg-none"].differences == ("line 41 vs 42",)


def test_run_two_reviewers_merges_and_counts_once():
    r = scored("run-two-reviewers")
    merged = {(f.file, f.line, f.rule_key): f for f in r.contract.findings}
    secret = merged[("src/auth/jwt.ts", 12, "jwt-weak-secret")]
    assert (secret.severity, secret.reviewers) == ("BLOCKER", ("conformance", "correctness"))
    log = merged[("src/routes/login.ts", 33, "token-in-log")]
    assert (log.severity, log.reviewers) == ("MAJOR", ("conformance", "correctness"))
    # jwt-no-expiry at lines 27 and 29: two coordinator findings, one (file, rule_key) key
    assert ("src/auth/jwt.ts", 29, "jwt-no-expiry") in merged
    assert len(r.contract.findings) == 8 and r.tp == 7


def test_run_invalid_finding_reports_both_and_leaves_them_out():
    r = scored("run-invalid-finding")
    assert [(i.reviewer, i.payload_index, i.index) for i in r.invalid_findings] == [
        ("correctness", 0, 2),
        ("correctness", 0, 4),
    ]
    assert "`line` must be a whole number" in r.invalid_findings[0].problems[0]
    assert "`severity` is 'critical'" in r.invalid_findings[1].problems[0]
    assert [(k.file, k.rule_key) for k in r.missed] == [("src/auth/jwt.ts", "jwt-alg-none")]
    assert r.spurious == ()  # the invalid sql-injection finding is not spurious: it is left out


@pytest.mark.parametrize(
    "run, baseline, regression, lost, flip",
    [
        ("run-downgraded", "run-perfect", True, [], ("BLOCK", "ALLOW")),
        ("run-misses", "run-perfect", True, ["jwt-alg-none", "missing-test"], None),
        ("run-perfect", "run-misses", False, [], None),
        ("run-dual-flaggable", "run-perfect", False, [], None),
        (
            "run-empty",
            "run-perfect",
            True,
            [
                "dependency-unpinned",
                "jwt-alg-none",
                "jwt-no-expiry",
                "jwt-weak-secret",
                "missing-test",
                "error-swallowed",
                "token-in-log",
            ],
            ("BLOCK", "ALLOW"),
        ),
    ],
)
def test_baseline_pairs(run, baseline, regression, lost, flip, capsys):
    c = compare_runs(scored(run), scored(baseline))
    assert c.regression is regression
    assert [k[1] for k in c.lost] == lost
    assert c.verdict_flip == flip
    code = main(
        [
            "score",
            "--gold",
            str(SAMPLE_GOLD),
            "--run",
            str(SAMPLE_RUNS / f"{run}.json"),
            "--baseline",
            str(SAMPLE_RUNS / f"{baseline}.json"),
            "--format",
            "json",
        ]
    )
    assert code == (1 if regression else 0)
    data = json.loads(capsys.readouterr().out)
    assert data["baseline"]["regression"] is regression


def test_sample_gold_validates_without_errors_or_warnings_and_notes_the_invalid_findings():
    suite = Suite.open(SAMPLE_ROOT, use_git=False)
    ours = [d for d in suite.diagnostics() if d.path.startswith("fixtures/gold/")]
    assert [d for d in ours if d.severity is not Severity.INFO] == []
    assert sorted((d.path.rsplit("/", 1)[-1], d.code, d.line, d.column) for d in ours) == [
        ("run-invalid-finding.json", "invalid-finding", 7, 43),
        ("run-invalid-finding.json", "invalid-finding", 9, 92),
    ]
    gold = suite.items["fixtures/gold/jwt-auth/gold.json"]
    assert gold.kind == "gold" and isinstance(gold.facts, GoldFacts)
    assert gold.facts.readme == "fixtures/gold/jwt-auth/README.md"
    runs = sorted(p for p, i in suite.items.items() if i.kind == "gold-run")
    assert [p.rsplit("/", 1)[-1][:-5] for p in runs] == sorted(PINNED)
