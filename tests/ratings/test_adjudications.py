"""The adjudications file (SPEC 3.9): read with line numbers, latest wins, `scores: null`
retracts, stale against the ratings in force, appended durably, and checked by `validate`
(an item of its own, re-checked live and never replayed from a stale cache)."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import pytest

from tests.ratings.common import jsonl, record, rubric, workspace_files
from voyage_tui.cli import main
from voyage_tui.engine.atomic import WriteRefused
from voyage_tui.engine.kinds import FileKind
from voyage_tui.engine.ratings.adjudications import (
    Adjudication,
    BasedOn,
    append_adjudication,
    load_adjudications,
    parse_adjudications,
)
from voyage_tui.engine.ratings.effective import item_scores
from voyage_tui.engine.ratings.runs import AgentRunRef, RunIndex
from voyage_tui.engine.ratings.store import RatingStore
from voyage_tui.engine.validation.suite import Suite
from voyage_tui.engine.workspace.model import Workspace

ADJ = "adjudications.jsonl"
A = "ratings/alice.jsonl"
B = "ratings/bob.jsonl"
T0 = "2026-11-20T14:03:11Z"
T1 = "2026-11-21T09:00:00Z"


def adjudication(
    fixture_id: str = "t1",
    run_id: str = "run-a",
    scores: Any = None,
    based_on: Any = None,
    **extra: Any,
) -> dict[str, Any]:
    out: dict[str, Any] = {
        "fixture_id": fixture_id,
        "run_id": run_id,
        "adjudicator": "lead",
        "scores": {"correctness": 3} if scores is None else scores,
        "based_on": [{"rater": "alice", "rated_at": T0}, {"rater": "bob", "rated_at": T0}]
        if based_on is None
        else based_on,
        "note": "",
        "rated_at": "2026-11-22T10:00:00Z",
    }
    out.update(extra)
    return out


def runs() -> RunIndex:
    return RunIndex.of(
        AgentRunRef(f, r, f"fixtures/bug-diagnosis/{f}/runs/{r}.yaml", "")
        for f, r in [("t1", "run-a"), ("t1", "run-b"), ("t2", "run-a")]
    )


def parse(*lines: dict[str, Any] | str, in_force: Any = None) -> Any:
    return parse_adjudications(jsonl(*lines).encode(), ADJ, rubric(), runs(), in_force)


def codes(checked: Any) -> list[tuple[str, int | None, int | None]]:
    return [(d.code, d.line, d.column) for d in checked.diagnostics]


# --- reading ---------------------------------------------------------------------------------


def test_the_latest_record_per_item_wins_and_null_scores_retract() -> None:
    checked = parse(
        adjudication(scores={"correctness": 2}),
        adjudication(scores={"correctness": 4, "Scope": 5}),
        adjudication(run_id="run-b", scores={"scope": 1}),
        adjudication(run_id="run-b", scores=None) | {"scores": None},
    )
    assert codes(checked) == []
    # the dimension is kept under the rubric's own name
    assert checked.in_force() == {("t1", "run-a"): {"correctness": 4, "scope": 5}}
    assert [r.line for r in checked.records] == [1, 2, 3, 4]
    assert checked.latest()[("t1", "run-b")].retracted


def test_each_bad_record_is_a_diagnostic_at_its_line_and_the_rest_still_count() -> None:
    good = adjudication(fixture_id="t2")
    checked = parse(
        adjudication(scores={"corectness": 3}),
        adjudication(scores={"scope": 9}),
        adjudication(run_id="run-zz"),
        adjudication(based_on=[{"rater": "alice"}]),
        adjudication(based_on="alice"),
        adjudication(rated_at="yesterday"),
        {"fixture_id": "t1", "run_id": "run-a"},
        good,
        '{"fixture_id": "t1", "run_id": "run-a", "scores": {"correc',
    )
    found = [(code, line) for code, line, _ in codes(checked)]
    assert found == [
        ("adjudication-unknown-dimension", 1),
        ("adjudication-score-out-of-scale", 2),
        ("adjudication-unknown-run", 3),
        ("adjudication-bad-based-on", 4),
        ("adjudication-bad-based-on", 5),
        ("adjudication-invalid-time", 6),
        ("adjudication-missing-field", 7),
        ("adjudication-missing-field", 7),
        ("adjudication-missing-field", 7),
        ("adjudication-torn-line", 9),
    ]
    assert checked.in_force() == {("t2", "run-a"): {"correctness": 3}}
    by_code = {d.code: d for d in checked.diagnostics}
    line = json.dumps(adjudication(scores={"corectness": 3}))
    assert by_code["adjudication-unknown-dimension"].column == line.index('"corectness"') + 1
    assert "did you mean `correctness`" in by_code["adjudication-unknown-dimension"].message
    assert "(its runs: run-a, run-b)" in by_code["adjudication-unknown-run"].message


def test_without_runs_the_items_are_not_checked() -> None:
    checked = parse_adjudications(
        jsonl(adjudication(run_id="run-zz")).encode(), ADJ, rubric(), None
    )
    assert codes(checked) == []
    assert ("t1", "run-zz") in checked.in_force()


def _in_force(*ratings: dict[str, Any]) -> Any:
    from tests.ratings.common import rating

    out = {}
    for fields in ratings:
        r = rating(**fields)
        out[r.key] = r
    return out


def test_an_adjudication_whose_ratings_changed_since_is_stale_a_warning() -> None:
    same = _in_force({"rater": "alice"}, {"rater": "bob"})
    assert codes(parse(adjudication(), in_force=same)) == []
    rerated = _in_force({"rater": "alice"}, {"rater": "bob", "rated_at": T1})
    checked = parse(adjudication(), in_force=rerated)
    assert [(d.code, d.severity.value, d.line) for d in checked.diagnostics] == [
        ("adjudication-stale", "warning", 1)
    ]
    assert "bob" in checked.diagnostics[0].message and T1 in checked.diagnostics[0].message
    assert checked.in_force() == {("t1", "run-a"): {"correctness": 3}}, "it still counts"
    withdrawn = _in_force({"rater": "alice"})
    assert [d.code for d in parse(adjudication(), in_force=withdrawn).diagnostics] == [
        "adjudication-stale"
    ]
    # only the adjudication in force is judged: a superseded or retracted one is history
    retracted = adjudication() | {"scores": None}
    assert codes(parse(adjudication(), retracted, in_force=withdrawn)) == []


def test_the_in_force_map_feeds_the_effective_scores() -> None:
    checked = parse(adjudication(scores={"correctness": 3}))
    ratings = [
        *_in_force({"rater": "alice", "scores": {"correctness": 1, "scope": 3}}).values(),
        *_in_force({"rater": "bob", "scores": {"correctness": 5, "scope": 5}}).values(),
    ]
    item = item_scores(ratings, checked.in_force())[("t1", "run-a")]
    assert item.score("correctness") == 3.0 and item.source("correctness") == "adjudicated"
    assert item.score("scope") == 4.0 and item.source("scope") == "raters"


# --- the file on disk ------------------------------------------------------------------------


def test_load_reads_the_configured_file_and_a_missing_one_is_empty(make_workspace) -> None:
    root = make_workspace(workspace_files())
    ws = Workspace.load(root)
    assert ws.adjudications_rel == ADJ
    empty = load_adjudications(ws, rubric())
    assert empty.in_force() == {} and empty.diagnostics == []
    (root / ADJ).write_text(jsonl(adjudication()))
    assert load_adjudications(ws, rubric()).in_force() == {("t1", "run-a"): {"correctness": 3}}


def test_append_writes_one_line_each_and_ends_a_torn_line_first(make_workspace) -> None:
    root = make_workspace(workspace_files())
    ws = Workspace.load(root)
    first = Adjudication(
        "t1", "run-a", "lead", {"correctness": 3}, T1, (BasedOn("alice", T0),), "close call"
    )
    stored = append_adjudication(ws, first)
    assert (stored.path, stored.line) == (ADJ, 1)
    with open(root / ADJ, "a", encoding="utf-8") as handle:
        handle.write('{"fixture_id": "t1", "run_')  # a crash mid-write
    undo = Adjudication("t1", "run-a", "lead", None, T1)
    assert append_adjudication(ws, undo).line == 3
    lines = (root / ADJ).read_text().splitlines()
    assert json.loads(lines[0]) == first.to_json()
    assert json.loads(lines[2])["scores"] is None
    checked = load_adjudications(ws, rubric())
    assert [d.code for d in checked.diagnostics] == ["adjudication-torn-line"]
    assert checked.in_force() == {}


def test_append_refuses_a_file_that_is_no_adjudications_and_a_symlink_out(
    make_workspace, tmp_path: Path
) -> None:
    root = make_workspace(workspace_files())
    ws = Workspace.load(root)
    record_ = Adjudication("t1", "run-a", "lead", {"correctness": 3}, T1)
    (root / ADJ).write_text("#!/bin/sh\nrm -rf /\n")
    with pytest.raises(WriteRefused, match="not an adjudications file"):
        append_adjudication(ws, record_)
    assert (root / ADJ).read_text() == "#!/bin/sh\nrm -rf /\n"
    (root / ADJ).unlink()
    outside = tmp_path / "outside.jsonl"
    outside.write_text("")
    os.symlink(outside, root / ADJ)
    with pytest.raises(WriteRefused):
        append_adjudication(ws, record_)
    assert outside.read_text() == ""


# --- validate --------------------------------------------------------------------------------


def _workspace(make_workspace, adjudications: str) -> Path:
    return make_workspace(
        {
            **workspace_files(),
            A: jsonl(record(rater="alice")),
            B: jsonl(record(rater="bob")),
            ADJ: adjudications,
        }
    )


def test_validate_checks_the_file_as_an_item_with_line_numbers(make_workspace, capsys) -> None:
    root = _workspace(
        make_workspace,
        jsonl(adjudication(), adjudication(run_id="run-zz"), adjudication(scores={"scope": 9})),
    )
    suite = Suite.open(root, use_git=False)
    item = suite.items[ADJ]
    assert item.kind is FileKind.ADJUDICATION
    assert [(d.code, d.line) for d in suite.diagnostics() if d.path == ADJ] == [
        ("adjudication-unknown-run", 2),
        ("adjudication-score-out-of-scale", 3),
    ]
    assert main(["validate", str(root), "--no-git", "--no-cache", "--format", "github"]) == 1
    out = capsys.readouterr().out
    assert f"::error file={ADJ},line=2," in out
    # a rating made since the adjudication makes it stale: a warning, found live
    (root / B).write_text(jsonl(record(rater="bob"), record(rater="bob", rated_at=T1)))
    assert ADJ in suite.revalidate([B])
    assert ("adjudication-stale", 1) in [(d.code, d.line) for d in suite.diagnostics_for(ADJ)]
    (root / ADJ).write_text(jsonl(adjudication(based_on=[{"rater": "bob", "rated_at": T1}])))
    assert ADJ in suite.revalidate([ADJ])
    assert suite.diagnostics_for(ADJ) == []
    (root / ADJ).unlink()
    suite.revalidate([ADJ])
    assert ADJ not in suite.items


def test_the_validate_cache_is_not_replayed_once_the_file_changes(make_workspace, capsys) -> None:
    root = make_workspace({**workspace_files(), A: jsonl(record(rater="alice"))})

    def validate() -> dict[str, Any]:
        capsys.readouterr()
        main(["validate", str(root), "--no-git", "--format", "json"])
        return json.loads(capsys.readouterr().out)

    def adjudication_codes(payload: dict[str, Any]) -> list[str]:
        return [d["code"] for d in payload["diagnostics"] if d["path"] == ADJ]

    assert adjudication_codes(validate()) == []
    validate()  # replayed from the cache
    (root / ADJ).write_text(jsonl(adjudication(run_id="run-zz")))  # made since
    assert adjudication_codes(validate()) == ["adjudication-unknown-run"]
    (root / ADJ).write_text(jsonl(adjudication(scores={"scope": 9})))
    assert adjudication_codes(validate()) == ["adjudication-score-out-of-scale"]


def test_a_configured_path_inside_the_ratings_folder_is_no_ratings_file(make_workspace) -> None:
    root = make_workspace(
        {
            **workspace_files(),
            "voyage.toml": '[paths]\nrubric = "rubric.md"\nadjudications = "ratings/final.jsonl"\n',
            A: jsonl(record(rater="alice")),
            "ratings/final.jsonl": jsonl(adjudication(based_on=[])),
        }
    )
    suite = Suite.open(root, use_git=False)
    assert suite.items["ratings/final.jsonl"].kind is FileKind.ADJUDICATION
    assert [i.kind for i in suite.items.values()].count(FileKind.RATING) == 1
    assert suite.diagnostics_for("ratings/final.jsonl") == []


def test_the_store_and_the_file_agree_on_in_force(make_workspace) -> None:
    root = _workspace(make_workspace, jsonl(adjudication()))
    ws = Workspace.load(root)
    store = RatingStore.load(ws, rubric())
    checked = load_adjudications(ws, rubric(), None, store.effective())
    assert checked.diagnostics == []


def test_the_editor_buffer_is_checked_as_the_file_is(make_workspace) -> None:
    from voyage_tui.engine.validation.buffer import check_buffer

    root = _workspace(make_workspace, jsonl(adjudication()))
    suite = Suite.open(root, use_git=False)
    text = jsonl(adjudication(), adjudication(run_id="run-zz"))
    live = check_buffer(suite.ws, suite.refs, suite.items, ADJ, text)
    assert [(d.code, d.line) for d in live] == [("adjudication-unknown-run", 2)]
    (root / ADJ).write_text(text)
    suite.revalidate([ADJ])
    assert live == suite.diagnostics_for(ADJ)


def test_a_fifo_or_a_symlink_out_is_reported_unread_and_never_blocks(
    make_workspace, tmp_path: Path
) -> None:
    root = make_workspace(workspace_files())
    os.mkfifo(root / ADJ)
    suite = Suite.open(root, use_git=False)  # would hang on a read of the FIFO
    assert [d.severity.value for d in suite.diagnostics_for(ADJ)] == ["error"]
    with pytest.raises(WriteRefused):
        append_adjudication(Workspace.load(root), Adjudication("t1", "run-a", "x", None, T1))
    (root / ADJ).unlink()
    outside = tmp_path / "secret.jsonl"
    outside.write_text(jsonl(adjudication()))
    os.symlink(outside, root / ADJ)
    suite = Suite.open(root, use_git=False)
    assert [d.code for d in suite.diagnostics_for(ADJ)] == ["symlink-outside-workspace"]
    assert load_adjudications(Workspace.load(root), rubric()).in_force() == {}
