"""`voyage-tui results` on a workspace built in tmp_path (tests/results/common.py): every figure
of the JSON as SPEC 3.10 defines it, the other formats, the exit codes and `--output`."""

from __future__ import annotations

import csv
import io
import json
import math
from pathlib import Path

import numpy as np
import pytest

from tests.results.common import FIXTURES, NEW, NEW_SECOND_RUN_F1, OLD, build, scipy_stats
from voyage_tui.cli import main

SPEC_TOP = ["baseline", "agents", "comparisons", "gold"]
SPEC_COMPARISON = ["agent", "baseline", "dimension", "fixtures", "diff", "ci", "p", "verdict"]
SPEC_GOLD = [
    "corpora", "tp", "fp", "fn", "precision", "recall", "f1", "macro_f1", "verdict_accuracy"
]  # fmt: skip


@pytest.fixture
def ws(tmp_path: Path) -> Path:
    return build(tmp_path / "ws")


def results(capsys, *args: str) -> tuple[int, str, str]:
    code = main(["results", *args])
    out, err = capsys.readouterr()
    return code, out, err


def as_json(capsys, *args: str) -> tuple[int, dict]:
    code, out, _ = results(capsys, *args, "--format", "json")
    return code, json.loads(out)


def new_values(dimension: str) -> list[float]:
    # f3's bob rating has an error (a 9): alice's alone counts, and she gave the table's score
    return [float(v) for v in NEW[dimension]] + [float(NEW_SECOND_RUN_F1[dimension])]


def paired(dimension: str) -> list[float]:
    diffs = []
    for i in range(len(FIXTURES)):
        new = NEW[dimension][i]
        if i == 0:  # f1: two runs of the new agent, averaged first
            new = (new + NEW_SECOND_RUN_F1[dimension]) / 2
        diffs.append(new - OLD[dimension][i])
    return diffs


def test_json_has_the_spec_keys_and_every_figure(ws, capsys) -> None:
    code, data = as_json(capsys, str(ws), "--baseline", "old")
    assert code == 0
    assert list(data)[:4] == SPEC_TOP
    assert data["baseline"] == "old" and data["match"] == "dual"
    assert list(data["agents"]) == ["old", "new", "(unlabelled)"]
    old, new, anon = (data["agents"][a] for a in ("old", "new", "(unlabelled)"))
    assert (old["items"], old["fixtures"]) == (8, 8)
    assert (new["items"], new["fixtures"]) == (9, 8)
    # the unlabelled run was rated and the rating retracted: an item, never rated
    assert (anon["items"], anon["fixtures"]) == (1, 1)
    assert anon["dimensions"]["correctness"] == {
        "mean": None, "ci": None, "n": 0, "reason": "no rated item"
    }  # fmt: skip
    for dimension in ("correctness", "scope", "evidence"):
        for agent, values in (
            ("old", [float(v) for v in OLD[dimension]]),
            ("new", new_values(dimension)),
        ):
            figures = data["agents"][agent]["dimensions"][dimension]
            assert figures["n"] == len(values)
            assert figures["mean"] == pytest.approx(sum(values) / len(values), abs=1e-12)
            ref = scipy_stats().bootstrap(
                (np.asarray(values),), np.mean, method="percentile",
                random_state=np.random.default_rng(1),
            ).confidence_interval  # fmt: skip
            low, high = figures["ci"]
            assert low <= figures["mean"] <= high
            assert abs(low - ref.low) <= 0.15 and abs(high - ref.high) <= 0.15
    comparisons = {c["dimension"]: c for c in data["comparisons"] if c["agent"] == "new"}
    assert [c["agent"] for c in data["comparisons"]] == ["new"] * 3 + ["(unlabelled)"] * 3
    for dimension, verdict in (
        ("correctness", "better"),
        ("scope", "unclear"),
        ("evidence", "worse"),
    ):
        c = comparisons[dimension]
        assert list(c)[: len(SPEC_COMPARISON)] == SPEC_COMPARISON
        diffs = paired(dimension)
        assert c["fixtures"] == 8
        assert c["diff"] == pytest.approx(math.fsum(diffs) / 8, abs=1e-12)
        exact = (
            scipy_stats()
            .permutation_test(
                (np.asarray(diffs),), np.mean, permutation_type="samples", n_resamples=np.inf
            )
            .pvalue
        )
        assert c["p"] == pytest.approx(exact, abs=1e-12)
        assert c["verdict"] == verdict
        low, high = c["ci"]
        assert low <= c["diff"] <= high
    assert comparisons["correctness"]["ci"][0] > 0 and comparisons["evidence"]["ci"][1] < 0
    worst = comparisons["evidence"]["worst"]
    assert [w["fixture_id"] for w in worst[:2]] == ["f2", "f3"]  # -3, then -3 (by id)
    assert worst[0]["diff"] == -3.0 and worst[0]["baseline_runs"] == ["old-1"]
    assert data["comparisons"][3]["note"] == "no fixture where both agents have rated runs"
    assert data["comparisons"][3]["reason"] == "no-data"
    notices = " ".join(data["notices"])
    assert "1 agent run without an `agent` label" in notices
    assert "1 rating record with errors left out" in notices


def test_superseded_rating_does_not_count(ws, capsys) -> None:
    _, data = as_json(capsys, str(ws), "--baseline", "old")
    # bob first gave f2/new-1 a 1 on correctness; his later 5 is the one in force
    (c,) = [
        x for x in data["comparisons"] if x["agent"] == "new" and x["dimension"] == "correctness"
    ]
    assert c["diff"] == pytest.approx(math.fsum(paired("correctness")) / 8)


def test_an_adjudication_sets_the_effective_score_and_a_retraction_undoes_it(ws, capsys) -> None:
    """SPEC 3.9: an item's effective score on a dimension is its adjudicated score there, else
    its raters' mean; results reads the adjudications in force."""

    def new_correctness_mean() -> float:
        _, data = as_json(capsys, str(ws), "--baseline", "old")
        return float(data["agents"]["new"]["dimensions"]["correctness"]["mean"])

    before = new_correctness_mean()
    assert before == pytest.approx(math.fsum(new_values("correctness")) / 9)

    def adjudication(scores: object, when: str) -> str:
        return json.dumps(
            {
                "fixture_id": "f4",
                "run_id": "new-1",
                "adjudicator": "lead",
                "scores": scores,
                "based_on": [],
                "note": "",
                "rated_at": f"2026-11-21T10:{when}:00Z",
            }
        )

    (ws / "adjudications.jsonl").write_text(adjudication({"correctness": 1}, "00") + "\n")
    values = new_values("correctness")
    values[3] = 1.0  # f4's new run, settled at 1 whatever its raters said
    assert new_correctness_mean() == pytest.approx(math.fsum(values) / 9)
    with (ws / "adjudications.jsonl").open("a") as handle:
        handle.write(adjudication(None, "05") + "\n")
    assert new_correctness_mean() == pytest.approx(before)


def test_gold_by_review_agent_in_both_match_modes(ws, capsys) -> None:
    _, dual = as_json(capsys, str(ws))
    assert dual["baseline"] is None and dual["comparisons"] == []
    v1, v2 = dual["gold"]["v1"], dual["gold"]["v2"]
    assert list(v1)[: len(SPEC_GOLD)] == SPEC_GOLD
    assert [v1[k] for k in SPEC_GOLD] == [2, 4, 0, 0, 1.0, 1.0, 1.0, 1.0, 1.0]
    assert v1["block_to_allow"] == 0
    assert [v2[k] for k in SPEC_GOLD[:6]] == [2, 1, 0, 3, 1.0, 0.25]
    assert v2["f1"] == pytest.approx(0.4)
    assert v2["macro_f1"] == pytest.approx((2 / 3 + 0) / 2)
    assert v2["verdict_accuracy"] == 0.0
    assert v2["block_to_allow"] == 1 and v2["block_to_allow_corpora"] == ["gold/c1/gold.json"]
    _, seed = as_json(capsys, str(ws), "--match", "seed")
    assert seed["match"] == "seed"
    s1 = seed["gold"]["v1"]
    # on c2, v1 named b.py's dual_flaggable key: seed matching counts it spurious and missed
    assert (s1["tp"], s1["fp"], s1["fn"]) == (3, 1, 1)
    assert s1["f1"] == pytest.approx(0.75) and s1["macro_f1"] == pytest.approx(0.75)
    assert seed["gold"]["v2"] == dual["gold"]["v2"]


def test_baseline_from_voyage_toml_and_unknown_baseline(tmp_path, capsys) -> None:
    root = build(tmp_path / "ws", baseline="old")
    _, data = as_json(capsys, str(root))
    assert data["baseline"] == "old" and len(data["comparisons"]) == 6
    code, out, err = results(capsys, str(root), "--baseline", "nobody")
    assert code == 2 and out == ""
    assert "--baseline: no agent is named 'nobody'" in err
    assert "the agents are: new, old, (unlabelled)" in err


def test_fail_if_worse_is_a_ci_gate(ws, capsys) -> None:
    code, _, err = results(capsys, str(ws), "--baseline", "old", "--fail-if-worse")
    assert code == 1 and "new on evidence" in err
    assert results(capsys, str(ws), "--baseline", "old")[0] == 0
    # against `new`, `old` is worse on correctness: a failure too; no baseline, no gate
    assert results(capsys, str(ws), "--baseline", "new", "--fail-if-worse")[0] == 1
    assert results(capsys, str(ws), "--fail-if-worse")[0] == 0


def test_text_names_the_mode_and_marks_verdicts(ws, capsys) -> None:
    code, out, _ = results(capsys, str(ws), "--baseline", "old", "--by", "class")
    assert code == 0
    assert out.startswith("Results (baseline agent: old · alpha 0.05 · by class)")
    assert "gold matched dual" in out and "SPEC" not in out
    assert "↑ better" in out and "↓ worse" in out and "· unclear" in out
    assert "=== class adversarial ===" in out and "=== class bug-diagnosis ===" in out
    assert "Gold by review agent" in out
    assert "nan" not in out.lower()


def test_breakdown_by_boundary_in_json(ws, capsys) -> None:
    _, data = as_json(capsys, str(ws), "--baseline", "old", "--by", "boundary")
    assert data["by"] == "boundary"
    assert list(data["groups"]) == ["integration", "unit"]
    unit = data["groups"]["unit"]
    assert unit["agents"]["old"]["items"] == 5
    (c,) = [x for x in unit["comparisons"] if x["dimension"] == "correctness"]
    assert c["fixtures"] == 5 and c["diff"] == pytest.approx(sum(paired("correctness")[3:]) / 5)


def test_csv(ws, capsys) -> None:
    code, out, _ = results(capsys, str(ws), "--baseline", "old", "--format", "csv")
    assert code == 0
    rows = list(csv.DictReader(io.StringIO(out)))
    assert len(rows) == 3 * 3
    row = next(r for r in rows if r["agent"] == "new" and r["dimension"] == "evidence")
    assert row["verdict"] == "worse" and row["shared_fixtures"] == "8"
    assert float(row["mean"]) == pytest.approx(sum(new_values("evidence")) / 9)


def test_markdown_fits_a_comment(ws, capsys) -> None:
    code, out, _ = results(capsys, str(ws), "--baseline", "old", "--format", "md")
    assert code == 0
    assert out.startswith("### Results: baseline agent: old")
    assert "| correctness | new | 9 |" in out
    assert "🔴 worse ↓" in out and "🟢 better ↑" in out
    assert "#### Gold by review agent" in out
    assert "\\(unlabelled\\)" in out  # Markdown specials escaped
    assert len(out) < 65_536


def test_html_is_one_self_contained_file(ws, capsys) -> None:
    code, out, _ = results(capsys, str(ws), "--baseline", "old", "--format", "html")
    assert code == 0
    assert out.startswith("<!DOCTYPE html>")
    assert out.count("<svg") == 1 + 1  # the forest plot, then every dimension's means on one axis
    for fetched in ("<script", "src=", "href=", "url(", "@import", "<link"):
        assert fetched not in out
    assert "▼ worse" in out and "▲ better" in out  # a shape and a word, not only a colour


def test_workspace_strings_are_escaped_in_every_format(tmp_path, capsys) -> None:
    root = build(tmp_path / "ws")
    run = root / "fixtures/bug-diagnosis/f1/runs/new-1.yaml"
    run.write_text(run.read_text().replace("agent: new", 'agent: "<img src=x>|=cmd\\e[31m"'))
    _, html_out, _ = results(capsys, str(root), "--format", "html")
    assert "<img src=x>" not in html_out and "&lt;img src=x&gt;" in html_out
    _, md, _ = results(capsys, str(root), "--format", "md")
    assert "<img" not in md and "\\|" in md
    _, text, _ = results(capsys, str(root))
    assert "\x1b" not in text and "\\x1b" in text


def test_output_is_written_where_the_user_says(ws, tmp_path, capsys) -> None:
    code, out, err = results(
        capsys, str(ws), "--format", "html", "--output", str(ws / "report.html")
    )
    assert code == 0 and out == "" and "wrote" in err
    assert (ws / "report.html").read_text().startswith("<!DOCTYPE html>")
    # Outside the workspace: the user's decision (SPEC 3.10; tests/security/test_report_output.py)
    outside = tmp_path / "out" / "r.json"
    outside.parent.mkdir()
    code, _, err = results(capsys, str(ws), "--format", "json", "--output", str(outside))
    assert code == 0, err
    assert json.loads(outside.read_text())["baseline"] is None
    link = ws / "link.md"
    link.symlink_to(tmp_path / "elsewhere.md")
    code, _, err = results(capsys, str(ws), "--format", "md", "--output", str(link), "--force")
    assert code == 2 and not (tmp_path / "elsewhere.md").exists()


def test_no_workspace_is_exit_2(tmp_path, capsys) -> None:
    assert results(capsys, str(tmp_path / "nowhere"))[0] == 2
