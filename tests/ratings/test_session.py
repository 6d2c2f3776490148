"""The rater session: its order (blind per rater, stable), resume, progress, submit with the time
spent, undo and redo as appended records, and what a blind rater is not shown."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.ratings.common import jsonl, record, workspace_files
from voyage_tui.engine.campaign.source import WorkTree
from voyage_tui.engine.ratings.keypad import COMPLETE, REFUSED, SCORED, ScoreDraft
from voyage_tui.engine.ratings.records import Rating
from voyage_tui.engine.ratings.runs import AgentRunRef
from voyage_tui.engine.ratings.session import RaterSession, SessionError, blind_order
from voyage_tui.engine.validation.suite import Suite

ALICE = "ratings/alice.jsonl"
MANY = {f"t{i}": ["run-a", "run-b", "run-c"] for i in range(1, 7)}
GOOD = {"correctness": 4, "scope": 3}


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def open_session(root: Path, rater: str = "alice", *, blind: bool = True, clock=None):
    """A session without its rater's lock: these tests look at one session through another
    (the lock has its tests in tests/security/test_rater_sessions.py)."""
    suite = Suite.open(root, use_git=False)
    session = RaterSession.open(
        suite.ws,
        suite.refs.rubric.value,
        suite.items,
        rater,
        read=WorkTree(suite.ws).rater_store,
        blind=blind,
        use_git=False,
        lock=False,
    )
    if clock is not None:  # the timer starts again on the given clock
        session._clock = clock
        session._show(session._position)
    return session


def records(root: Path, rater: str = "alice") -> list[dict]:
    path = root / "ratings" / f"{rater}.jsonl"
    return [json.loads(line) for line in path.read_text().splitlines()] if path.exists() else []


def pairs(session: RaterSession) -> list[tuple[str, str]]:
    return [run.run_key for run in session.queue]


# --- order ----------------------------------------------------------------------------------------


def test_two_raters_see_different_orders_and_one_rater_the_same_on_every_resume(make_workspace):
    root = make_workspace(workspace_files(MANY))
    alice, bob = open_session(root, "alice"), open_session(root, "bob")
    assert sorted(pairs(alice)) == sorted(pairs(bob))
    assert pairs(alice) != pairs(bob)
    assert pairs(open_session(root, "alice")) == pairs(alice)


def test_the_blind_order_is_a_hash_of_the_rater_not_pythons_hash():
    runs = [AgentRunRef(f"t{i}", "run-a", f"r{i}", f"t{i}/task.yaml") for i in range(8)]
    # Fixed by sha256 alone: the same on every interpreter, whatever PYTHONHASHSEED says.
    assert [r.fixture_id for r in blind_order(runs, "alice")] == [
        r.fixture_id for r in blind_order(list(reversed(runs)), "alice")
    ]
    assert [r.fixture_id for r in blind_order(runs, "alice")] == EXPECTED_ALICE_ORDER


# sorted by sha256("alice\0<fixture_id>\0run-a"): pinned, since a change would reshuffle every
# rater's queue mid-way
EXPECTED_ALICE_ORDER = ["t2", "t6", "t3", "t4", "t7", "t1", "t5", "t0"]


def test_a_run_added_later_does_not_reshuffle_the_others(make_workspace):
    root = make_workspace(workspace_files(MANY))
    before = pairs(open_session(root))
    (root / "fixtures/bug-diagnosis/t1/runs/run-d.yaml").write_text(
        "run_id: run-d\nagent: new\noutput: x\n"
    )
    after = [p for p in pairs(open_session(root)) if p != ("t1", "run-d")]
    assert after == before


def test_not_blind_the_order_is_by_fixture_and_run_and_the_label_shows(make_workspace):
    root = make_workspace(workspace_files())
    session = open_session(root, blind=False)
    assert pairs(session) == [("t1", "run-a"), ("t1", "run-b"), ("t2", "run-a")]
    assert session.current is not None and session.current.agent == "agent-0"
    content = session.content()
    assert content is not None and content.run.agent == "agent-0"
    session.submit(GOOD)
    assert records(root)[0]["blind"] is False


def test_blind_hides_the_agent_label_and_metadata(make_workspace):
    files = workspace_files()
    files["fixtures/bug-diagnosis/t1/runs/run-a.yaml"] += "metadata:\n  model: gpt-x\n"
    root = make_workspace(files)
    session = open_session(root)
    assert all(run.agent is None for run in session.queue)
    content = session.content(next(r for r in session.queue if r.run_key == ("t1", "run-a")))
    assert content is not None
    assert (content.run.agent, content.run.metadata) == (None, None)
    assert content.run.output.startswith("Did the thing")
    assert content.task.prompt.startswith("Fix the off-by-one")
    label = session.label(session.queue[0])
    assert "run-" not in label and " of " in label


# --- resume and progress ------------------------------------------------------------------------


def test_resume_starts_at_the_first_pair_not_rated_and_counts_progress(make_workspace):
    root = make_workspace(workspace_files(MANY))
    order = pairs(open_session(root))
    done = [order[0], order[2]]
    root.joinpath("ratings").mkdir()
    root.joinpath(ALICE).write_text(jsonl(*(record(f, r) for f, r in done)))
    session = open_session(root)
    assert session.current is not None and session.current.run_key == order[1]
    assert str(session.progress()) == f"2/{len(order)} rated"


def test_a_retracted_pair_is_unrated_again(make_workspace):
    root = make_workspace(workspace_files())
    order = pairs(open_session(root))
    root.joinpath("ratings").mkdir()
    root.joinpath(ALICE).write_text(
        jsonl(*(record(*p) for p in order), record(*order[1], scores=None))
    )
    session = open_session(root)
    assert session.current is not None and session.current.run_key == order[1]
    assert session.progress().rated == 2


def test_a_session_after_a_crash_continues_where_the_last_whole_record_left_off(make_workspace):
    root = make_workspace(workspace_files())
    first = open_session(root)
    order = pairs(first)
    first.submit(GOOD)
    # the process dies while writing the second record: half a line is on disk
    half = json.dumps(record(*order[1]))[:40]
    with open(root / ALICE, "a") as handle:
        handle.write(half)
    second = open_session(root)
    assert second.current is not None and second.current.run_key == order[1]
    second.submit({"correctness": 2, "scope": 5})
    lines = (root / ALICE).read_text().split("\n")
    assert lines[1] == half and json.loads(lines[2])["run_id"] == order[1][1]
    assert open_session(root).progress().rated == 2


def test_finished_when_every_pair_is_rated(make_workspace):
    root = make_workspace(workspace_files())
    session = open_session(root)
    for _ in range(3):
        session.submit(GOOD)
    assert session.finished and session.current is None
    assert str(session.progress()) == "3/3 rated"
    with pytest.raises(SessionError):
        session.submit(GOOD)


def test_a_session_refuses_a_ratings_file_it_cannot_read(make_workspace):
    root = make_workspace(
        {
            **workspace_files(),
            "voyage.toml": "[limits]\nmax_file_bytes = 100\n",
            ALICE: jsonl(record(), record(run_id="run-b")),
        }
    )
    with pytest.raises(SessionError, match="cannot be read"):
        open_session(root)


# --- submit -------------------------------------------------------------------------------------


def test_submit_appends_a_record_with_the_seconds_spent_and_moves_on(make_workspace):
    root = make_workspace(workspace_files())
    clock = Clock()
    session = open_session(root, clock=clock)
    order = pairs(session)
    clock.now += 42.25
    stored = session.submit({"Correctness": 5, "scope": 1}, "tidy")
    [written] = records(root)
    assert (written["fixture_id"], written["run_id"]) == order[0]
    assert written["scores"] == {"correctness": 5, "scope": 1}
    assert written["duration_s"] == pytest.approx(42.2, abs=0.051)
    assert written["note"] == "tidy" and written["rater"] == "alice" and written["blind"] is True
    assert written["rated_at"].endswith("Z")
    assert stored.line == 1
    assert session.current is not None and session.current.run_key == order[1]


def test_the_clock_stops_while_paused(make_workspace):
    root = make_workspace(workspace_files())
    clock = Clock()
    session = open_session(root, clock=clock)
    clock.now += 10
    session.pause()
    clock.now += 500
    session.resume()
    clock.now += 5
    session.submit(GOOD)
    assert records(root)[0]["duration_s"] == 15.0


def test_open_times_items_on_the_clock_it_is_given(make_workspace):
    root = make_workspace(workspace_files())
    clock = Clock()
    suite = Suite.open(root, use_git=False)
    session = RaterSession.open(
        suite.ws,
        suite.refs.rubric.value,
        suite.items,
        "alice",
        read=WorkTree(suite.ws).rater_store,
        use_git=False,
        clock=clock,
    )
    clock.now += 7
    assert session.elapsed() == 7.0
    session.submit(GOOD)
    assert records(root)[0]["duration_s"] == 7.0


@pytest.mark.parametrize(
    ("scores", "message"),
    [
        ({"correctness": 4}, "no score for scope"),
        ({"correctness": 4, "scope": 6}, "from 1 to 5"),
        ({"correctness": 0, "scope": 3}, "from 1 to 5"),
        ({"correctness": 4, "scope": 3, "speed": 2}, "'speed' is not a dimension"),
        ({"correctness": True, "scope": 3}, "whole number"),
    ],
)
def test_submit_refuses_scores_off_the_rubric_and_writes_nothing(make_workspace, scores, message):
    root = make_workspace(workspace_files())
    session = open_session(root)
    with pytest.raises(ValueError, match=message):
        session.submit(scores)
    assert records(root) == []


def test_a_score_between_two_anchors_is_on_the_scale(make_workspace):
    root = make_workspace(workspace_files())
    session = open_session(root)
    session.submit({"correctness": 4, "scope": 2})  # scope's anchors are 1, 3 and 5
    assert records(root)[0]["scores"]["scope"] == 2


def test_skip_leaves_the_pair_for_later(make_workspace):
    root = make_workspace(workspace_files())
    session = open_session(root)
    order = pairs(session)
    session.skip()
    assert session.current is not None and session.current.run_key == order[1]
    session.submit(GOOD)
    session.submit(GOOD)
    assert session.current is not None and session.current.run_key == order[0]


# --- undo and redo ------------------------------------------------------------------------------


def test_undo_of_a_first_rating_appends_a_retraction_and_shows_the_pair_again(make_workspace):
    root = make_workspace(workspace_files())
    session = open_session(root)
    order = pairs(session)
    session.submit(GOOD)
    undone = session.undo()
    assert isinstance(undone, Rating) and undone.scores is None
    written = records(root)
    assert len(written) == 2 and written[1]["scores"] is None
    assert (written[1]["fixture_id"], written[1]["run_id"]) == order[0]
    assert session.current is not None and session.current.run_key == order[0]
    assert session.progress().rated == 0
    assert open_session(root).progress().rated == 0, "the retraction is on disk"


def test_undo_of_a_rerating_restores_the_earlier_rating(make_workspace):
    root = make_workspace(workspace_files())
    order = pairs(open_session(root))
    earlier = record(*order[0], scores={"correctness": 2, "scope": 1}, note="first look")
    root.joinpath("ratings").mkdir()
    root.joinpath(ALICE).write_text(jsonl(earlier))
    session = open_session(root)
    session.goto(order[0])
    session.submit({"correctness": 5, "scope": 5})
    session.undo()
    written = records(root)
    assert len(written) == 3
    assert written[2] == earlier, "the earlier record, as it was"
    in_force = open_session(root).rating_of(order[0])
    assert in_force is not None and in_force.scores == {"correctness": 2, "scope": 1}
    assert in_force.note == "first look"


def test_undo_goes_back_through_the_session_and_redo_forward(make_workspace):
    root = make_workspace(workspace_files())
    session = open_session(root)
    order = pairs(session)
    session.submit({"correctness": 1, "scope": 1})
    session.submit({"correctness": 2, "scope": 2})
    session.undo()
    assert session.current is not None and session.current.run_key == order[1]
    session.undo()
    assert session.current is not None and session.current.run_key == order[0]
    assert session.undo() is None and not session.can_undo
    assert session.progress().rated == 0
    redone = session.redo()
    assert redone is not None and redone.scores == {"correctness": 1, "scope": 1}
    assert session.current is not None and session.current.run_key == order[1]
    assert session.progress().rated == 1 and session.can_redo
    session.submit({"correctness": 3, "scope": 3})
    assert not session.can_redo, "a new rating ends the redo history"
    assert [r["scores"] for r in records(root)] == [
        {"correctness": 1, "scope": 1},
        {"correctness": 2, "scope": 2},
        None,
        None,
        {"correctness": 1, "scope": 1},
        {"correctness": 3, "scope": 3},
    ]
    final = open_session(root)
    assert final.rating_of(order[0]) is not None and final.rating_of(order[1]) is not None


def test_the_sessions_draft_is_the_keypad_and_what_it_completes_is_submitted(make_workspace):
    # The one draft model (engine/ratings/keypad.py, tested in test_keypad.py): going back
    # moves the cursor and keeps the scores.
    root = make_workspace(workspace_files())
    session = open_session(root)
    draft = session.draft()
    assert isinstance(draft, ScoreDraft) and draft.current is not None
    assert draft.current.name == "correctness"
    assert draft.digit("4").outcome == SCORED
    assert draft.current.name == "scope"
    assert draft.digit("7").outcome == REFUSED
    assert draft.back() is True and draft.scores == {"correctness": 4}
    assert draft.back() is False
    assert draft.digit("3").outcome == SCORED
    assert draft.digit("5").outcome == COMPLETE and draft.complete
    session.submit(draft.scores)
    assert records(root)[0]["scores"] == {"correctness": 3, "scope": 5}
