"""Calibration: each rater against the adjudicated scores (quadratic kappa per dimension), in
the engine, in `voyage-tui agreement` (JSON `calibration`, a text section)."""

from __future__ import annotations

import json

import pytest

from tests.ratings.common import jsonl, rating, record, rubric, workspace_files
from tests.ratings.test_adjudications import adjudication
from voyage_tui.cli import main
from voyage_tui.engine.ratings.agreement import quadratic_kappa
from voyage_tui.engine.ratings.calibration import NO_VARIATION, calibration
from voyage_tui.engine.ratings.rules import scale_values


def test_each_rater_against_the_final_scores_over_the_adjudicated_items() -> None:
    ratings = [
        rating(rater="ann", run_id="run-a", scores={"correctness": 2, "scope": 3}),
        rating(rater="ann", run_id="run-b", scores={"correctness": 5}),
        rating(rater="ann", fixture_id="t2", scores={"correctness": 1}),  # not adjudicated
        rating(rater="bob", run_id="run-a", scores={"correctness": 4}),
        rating(rater="bob", run_id="run-b", scores={"correctness": 4}),
        rating(rater="cat", run_id="run-a", scores=None),  # withdrawn: nothing
    ]
    adjudicated = {
        ("t1", "run-a"): {"correctness": 3},
        ("t1", "run-b"): {"correctness": 5, "scope": 1},
    }
    got = calibration(ratings, adjudicated, rubric())
    assert [(c.rater, c.dimension, c.items) for c in got] == [
        ("ann", "correctness", 2),
        ("bob", "correctness", 2),
    ], "ann's scope is on an item whose adjudication does not settle scope"
    labels = scale_values(rubric().find("correctness"))  # type: ignore[arg-type]
    assert got[0].kappa == quadratic_kappa([2, 5], [3, 5], labels)
    assert got[1].kappa == quadratic_kappa([4, 4], [3, 5], labels)
    assert got[0].to_json() == {
        "rater": "ann",
        "dimension": "correctness",
        "kappa": got[0].kappa,
        "items": 2,
    }


def test_one_score_throughout_is_undefined_with_its_reason() -> None:
    got = calibration(
        [rating(rater="ann", scores={"correctness": 3})],
        {("t1", "run-a"): {"correctness": 3}},
        rubric(),
    )
    assert [(c.kappa, c.items, c.reason) for c in got] == [(None, 1, NO_VARIATION)]
    assert calibration([rating(rater="ann")], {}, rubric()) == []


@pytest.fixture
def adjudicated_workspace(make_workspace):
    return make_workspace(
        {
            **workspace_files(),
            "ratings/ann.jsonl": jsonl(
                record(rater="ann", scores={"correctness": 1}),
                record(rater="ann", run_id="run-b", scores={"correctness": 4}),
            ),
            "ratings/bob.jsonl": jsonl(
                record(rater="bob", scores={"correctness": 5}),
                record(rater="bob", run_id="run-b", scores={"correctness": 4}),
            ),
            "adjudications.jsonl": jsonl(
                adjudication(scores={"correctness": 4}),
                adjudication(run_id="run-b", scores={"correctness": 4}),
            ),
        }
    )


def test_agreement_json_and_text_have_the_calibration(adjudicated_workspace, capsys) -> None:
    assert main(["agreement", str(adjudicated_workspace), "--format", "json"]) == 0
    payload = json.loads(capsys.readouterr().out)
    rows = payload["calibration"]
    assert [(r["rater"], r["dimension"], r["items"]) for r in rows] == [
        ("ann", "correctness", 2),
        ("bob", "correctness", 2),
    ]
    assert all(set(r) == {"rater", "dimension", "kappa", "items"} for r in rows)
    assert main(["agreement", str(adjudicated_workspace)]) == 0
    out = capsys.readouterr().out
    assert "Calibration: each rater against the adjudicated scores" in out
    assert out.count("correctness") >= 3


def test_without_adjudications_the_list_is_empty_and_the_text_says_so(
    make_workspace, capsys
) -> None:
    root = make_workspace({**workspace_files(), "ratings/ann.jsonl": jsonl(record(rater="ann"))})
    assert main(["agreement", str(root), "--format", "json"]) == 0
    assert json.loads(capsys.readouterr().out)["calibration"] == []
    assert main(["agreement", str(root)]) == 0
    assert "no adjudicated item yet" in capsys.readouterr().out
