"""People and programs are kept apart (SPEC 3.11): a judge's records (`"rater_kind":
"program"`) never change a figure that counts people. Every face is asked twice, before and
after a judge's file lands beside the people's, and must say the same."""

from __future__ import annotations

import json
from datetime import date
from pathlib import Path

import pytest

from tests.ratings.common import jsonl, record, workspace_files
from voyage_tui.cli import main
from voyage_tui.engine.campaign.counting import ItemKey, Raters
from voyage_tui.engine.campaign.figures import export
from voyage_tui.engine.campaign.snapshot import load_campaign
from voyage_tui.engine.campaign.source import WorkTree
from voyage_tui.engine.results.inputs import gather_inputs
from voyage_tui.engine.triage.queue import build_queue
from voyage_tui.engine.triage.state import TriageState
from voyage_tui.engine.validation.suite import Suite
from voyage_tui.engine.validation.view import view_of
from voyage_tui.engine.workspace.model import Workspace

JUDGE_FILE = "ratings/judge-x.jsonl"


def people() -> dict[str, str]:
    files = workspace_files({"t1": ["run-a", "run-b"], "t2": ["run-a", "run-b"]})
    files["ratings/alice.jsonl"] = jsonl(
        record("t1", "run-a", "alice", {"correctness": 2, "scope": 3}),
        record("t1", "run-b", "alice", {"correctness": 4, "scope": 3}),
        record("t2", "run-a", "alice", {"correctness": 3, "scope": 3}),
    )
    files["ratings/bob.jsonl"] = jsonl(
        record("t1", "run-a", "bob", {"correctness": 5, "scope": 3}),  # disputed with alice
        record("t2", "run-b", "bob", {"correctness": 4, "scope": 5}, duration_s=30.0),
    )
    return files


def judge(**extra: object) -> str:
    """A judge that scores everything at the ends of the scales, where no person does."""
    repeat = {"rater_kind": "program", "judge": {"command_sha256": "ab" * 32, "repeat": 1}}
    return jsonl(
        *(
            record(fixture_id, run_id, "judge-x", {"correctness": score, "scope": 1}, **repeat)
            for fixture_id, run_id, score in [
                ("t1", "run-a", 1),
                ("t1", "run-b", 5),
                ("t2", "run-a", 5),
                ("t2", "run-b", 1),
            ]
        )
    )


FACES = [
    ["agreement", "--format", "json"],
    ["ratings", "status", "--format", "json"],
    ["adjudicate", "--list", "--format", "json"],
    ["ratings", "export", "--format", "jsonl"],
    ["results", "--format", "json"],
]


def said(root: Path, argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str]:
    code = main([*argv[:-2], str(root), *argv[-2:]])
    return code, capsys.readouterr().out


def test_a_judges_records_change_no_figure_of_people_on_any_face(make_workspace, capsys):
    root = make_workspace(people())
    before = {" ".join(argv): said(root, argv, capsys) for argv in FACES}
    assert before["adjudicate --list --format json"][1].count("fixture_id") == 1  # t1/run-a
    assert '"judge-x"' not in "".join(out for _, out in before.values())

    (root / JUDGE_FILE).write_text(judge())
    after = {" ".join(argv): said(root, argv, capsys) for argv in FACES}
    assert after == before


def test_the_engine_keeps_the_judge_apart_and_gives_it_when_asked(make_workspace):
    root = make_workspace({**people(), JUDGE_FILE: judge()})
    suite = Suite.open(root, use_git=False)
    campaign = suite.campaign()
    assert campaign.raters() == ["alice", "bob"]
    assert campaign.raters(Raters.PROGRAMS) == ["judge-x"]
    assert campaign.raters(Raters.ALL) == ["alice", "bob", "judge-x"]
    people_scores = campaign.item_scores()
    assert people_scores[("t1", "run-b")].scores() == {"correctness": 4.0, "scope": 3.0}
    everyone = campaign.item_scores(Raters.ALL)
    assert everyone[("t1", "run-b")].scores() == {"correctness": 4.5, "scope": 2.0}
    assert {row.rater for row in export(campaign)} == {"alice", "bob"}
    assert "judge-x" in {row.rater for row in export(campaign, Raters.ALL)}
    # results: people's effective scores unless asked otherwise
    inputs = gather_inputs(campaign, suite.items)
    assert inputs.items[("t1", "run-b")].scores() == {"correctness": 4.0, "scope": 3.0}
    programs = gather_inputs(campaign, suite.items, raters=Raters.PROGRAMS)
    assert programs.items[("t1", "run-b")].scores() == {"correctness": 5.0, "scope": 1.0}


def test_triage_asks_people_for_ratings_a_judge_has_given(make_workspace):
    # overlap 2: every run wants two people; the judge rated all four, which fills none
    root = make_workspace({**people(), JUDGE_FILE: judge()})
    suite = Suite.open(root, use_git=False)
    queue = build_queue(view_of(suite), TriageState(), date(2026, 12, 1))
    unrated = [i for i in queue.items if i.kind == "unrated"]
    assert len(unrated) == 3  # t1/run-a has alice and bob; the other three one person or none
    assert all("judge-x" not in i.title + i.detail for i in unrated)


def test_a_records_rater_kind_survives_the_store(make_workspace):
    root = make_workspace({**people(), JUDGE_FILE: judge()})
    campaign = load_campaign(WorkTree(Workspace.load(root)))
    kinds = {r.rater: r.rater_kind for r in campaign.records(Raters.ALL)}
    assert kinds == {"alice": "person", "bob": "person", "judge-x": "program"}
    assert json.loads(next(iter(campaign.records(Raters.PROGRAMS))).to_line())["judge"] == {
        "command_sha256": "ab" * 32,
        "repeat": 1,
    }


def test_ratings_come_by_item_key_one_run_today(make_workspace):
    root = make_workspace({**people(), JUDGE_FILE: judge()})
    campaign = load_campaign(WorkTree(Workspace.load(root)))
    by_item = campaign.by_item()
    item = ItemKey.of_run("t1", "run-a")
    assert item.run_key == ("t1", "run-a")
    assert sorted(r.rater for r in by_item[item]) == ["alice", "bob"]
    assert sorted(r.rater for r in campaign.by_item(Raters.PROGRAMS)[item]) == ["judge-x"]
    assert ItemKey("t1", ("run-a", "run-b")).run_key is None  # a pair of runs, later


def test_an_adjudication_based_on_a_judges_rating_alone_is_stale(make_workspace):
    # what an adjudication rests on is people's ratings: a judge's is none of them
    based_on = [{"rater": "judge-x", "rated_at": "2026-11-20T14:03:11Z"}]
    adjudication = {
        "fixture_id": "t1",
        "run_id": "run-a",
        "adjudicator": "dana",
        "scores": {"correctness": 3},
        "based_on": based_on,
        "note": "",
        "rated_at": "2026-11-21T10:00:00Z",
    }
    root = make_workspace(
        {**people(), JUDGE_FILE: judge(), "adjudications.jsonl": jsonl(adjudication)}
    )
    suite = Suite.open(root, use_git=False)
    rel = suite.ws.adjudications_rel
    assert [d.code for d in suite.items[rel].diagnostics] == ["adjudication-stale"]
    stale = [d.code for d in suite.campaign().adjudications.diagnostics]
    fresh = load_campaign(WorkTree(suite.ws)).adjudications.diagnostics
    assert stale == [d.code for d in fresh] == ["adjudication-stale"]
