"""Properties of the scorer (hypothesis): docs/scoring.md stated as laws instead of examples."""

from __future__ import annotations

from typing import Any

from hypothesis import assume, given, settings
from hypothesis import strategies as st

from tests.budget import examples
from voyage_tui.engine.formats.vocabulary import SEVERITIES
from voyage_tui.engine.scoring.contract import run_contract
from voyage_tui.engine.scoring.report import score_run
from voyage_tui.engine.scoring.scorer import score_findings
from voyage_tui.engine.scoring.verdict import compute_verdict

FILES = ["a.py", "b.py", "c.py"]
# Few keys, so that collisions (duplicates, alternatives that are other gold keys, alternatives
# wanted by two gold keys) happen often.
RULES = ["logic-error", "off-by-one", "error-swallowed", "missing-auth-check", "dead-code"]
REVIEWERS = ["correctness", "conformance", "security"]

files = st.sampled_from(FILES)
rules = st.sampled_from(RULES)
lines = st.integers(min_value=0, max_value=40)
severities = st.sampled_from(SEVERITIES)


@st.composite
def gold_findings(draw: Any) -> dict[str, Any]:
    out = {
        "file": draw(files),
        "line": draw(lines),
        "rule_key": draw(rules),
        "severity": draw(severities),
        "owner_reviewer": draw(st.sampled_from(["correctness", "conformance"])),
    }
    if draw(st.booleans()):
        out["dual_flaggable"] = draw(rules)
    return out


run_findings = st.fixed_dictionaries(
    {"file": files, "line": lines, "rule_key": rules, "severity": severities}
)
invalid_findings = st.one_of(
    st.fixed_dictionaries(
        {"file": files, "line": st.just("7"), "rule_key": rules, "severity": severities}
    ),
    st.fixed_dictionaries({"file": files, "rule_key": rules}),
    st.just(None),
)
payloads = st.lists(
    st.fixed_dictionaries(
        {
            "reviewer": st.sampled_from(REVIEWERS),
            "findings": st.lists(
                st.one_of(run_findings, run_findings, invalid_findings), max_size=8
            ),
        }
    ),
    max_size=4,
)
golds = st.lists(gold_findings(), max_size=10)


def record(findings: list[dict[str, Any]]) -> dict[str, Any]:
    return {
        "schema": "voyage-eval-gold/1",
        "source": "hypothesis",
        "description": "generated",
        "expected_verdict": compute_verdict(findings),
        "findings": findings,
    }


def gold_keys(findings: list[dict[str, Any]]) -> set[tuple[str, str]]:
    return {(f["file"], f["rule_key"]) for f in findings}


def run_of(run: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [{"reviewer": "r", "findings": run}]


@given(payloads, golds)
def test_every_figure_is_between_0_and_1(run, gold):
    result = score_run(run, record(gold))
    for value in (result.precision, result.recall, result.f1):
        assert 0.0 <= value <= 1.0


@given(payloads, golds)
def test_tp_plus_fn_is_the_number_of_distinct_gold_keys_and_fp_the_unused_run_keys(run, gold):
    result = score_run(run, record(gold))
    assert result.tp + result.fn == len(gold_keys(gold)) == result.gold_keys
    run_keys = {f.key for f in result.contract.findings}
    assert result.tp + result.fp == len(run_keys)
    assert len({m.run_key for m in result.matched}) == result.tp  # a run key serves one gold key


@given(payloads, golds, st.randoms(use_true_random=False))
def test_results_do_not_depend_on_the_order_of_payloads_findings_or_gold(run, gold, rnd):
    before = score_run(run, record(gold))
    shuffled_run = [dict(p, findings=rnd.sample(p["findings"], len(p["findings"]))) for p in run]
    rnd.shuffle(shuffled_run)
    shuffled_gold = rnd.sample(gold, len(gold))
    after = score_run(shuffled_run, record(shuffled_gold))
    assert after.score.to_json() == before.score.to_json()
    assert after.run_verdict == before.run_verdict
    assert after.contract.findings == before.contract.findings
    assert after.contract.counts == before.contract.counts

    def invalid(result):  # indices point into the file, so only what and whose is compared
        return sorted((i.reviewer, i.problems) for i in result.invalid_findings)

    assert invalid(after) == invalid(before)


@given(golds)
def test_a_run_equal_to_the_gold_scores_1(gold):
    assume(gold)
    run = [
        {"reviewer": owner, "findings": [f for f in gold if f["owner_reviewer"] == owner]}
        for owner in ("correctness", "conformance")
    ]
    result = score_run(run, record(gold))
    assert (result.precision, result.recall, result.f1) == (1.0, 1.0, 1.0)
    assert all(m.via == "rule_key" for m in result.matched)
    assert result.verdict_match


@given(payloads, golds, run_findings)
def test_adding_a_spurious_finding_never_raises_precision(run, gold, extra):
    alternatives = {(f["file"], f["dual_flaggable"]) for f in gold if "dual_flaggable" in f}
    key = (extra["file"], extra["rule_key"])
    assume(key not in gold_keys(gold) and key not in alternatives)
    before = score_run(run, record(gold))
    after = score_run([*run, {"reviewer": "extra", "findings": [extra]}], record(gold))
    assert after.precision <= before.precision
    assert after.tp == before.tp


@given(st.lists(run_findings, max_size=12), golds, st.data())
def test_removing_a_matched_finding_never_raises_recall(run, gold, data):
    before = score_findings(run, gold)
    matched_run_keys = {m.run_key for m in before.matched}
    candidates = [i for i, f in enumerate(run) if (f["file"], f["rule_key"]) in matched_run_keys]
    assume(candidates)
    index = data.draw(st.sampled_from(candidates))
    after = score_findings(run[:index] + run[index + 1 :], gold)
    assert after.recall <= before.recall


@given(st.lists(run_findings, max_size=12), golds, st.data())
@settings(max_examples=examples(200))
def test_removing_every_finding_of_a_matched_key_never_raises_recall(run, gold, data):
    before = score_findings(run, gold)
    assume(before.matched)
    victim = data.draw(st.sampled_from([m.run_key for m in before.matched]))
    after = score_findings([f for f in run if (f["file"], f["rule_key"]) != victim], gold)
    assert after.recall <= before.recall
    assert after.tp <= before.tp


@given(payloads)
def test_contract_verdict_is_compute_verdict_of_its_valid_findings(run):
    out = run_contract(run)
    assert out.verdict == compute_verdict([f.to_json() for f in out.findings])
    assert sum(out.counts.values()) == len(out.findings)
