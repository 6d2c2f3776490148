"""The rater session under a team (SPEC 3.9): assigned unrated pairs first, then a flag that
the assigned work is done and the others, still rateable; a rater outside the team rates
everything."""

from __future__ import annotations

from pathlib import Path

from tests.ratings.common import workspace_files
from tests.ratings.test_session import GOOD, open_session, pairs
from voyage_tui.engine.ratings.assignment import Assignment, outside_the_team

MANY = {f"t{i}": ["run-a", "run-b", "run-c"] for i in range(1, 7)}
TEAM = ["alice", "bob", "carol"]


def team_workspace(make_workspace, raters=TEAM, overlap: int = 1) -> Path:
    files = workspace_files(MANY)
    names = ", ".join(f'"{r}"' for r in raters)
    files["voyage.toml"] = f"[rating]\nraters = [{names}]\noverlap = {overlap}\n"
    return make_workspace(files)


def test_the_assigned_pairs_come_first_in_the_raters_own_order(make_workspace):
    root = team_workspace(make_workspace)
    session = open_session(root)
    everything = pairs(open_session(make_workspace(workspace_files(MANY)), "alice"))
    mine = Assignment.of(TEAM, 1).items_of("alice", everything)
    assert 0 < len(mine) < len(everything)
    assert pairs(session)[: len(mine)] == mine  # the blind order kept within each part
    assert pairs(session)[len(mine) :] == [p for p in everything if p not in mine]
    assert session.assigned == frozenset(mine)
    progress = session.progress()
    assert (progress.assigned, progress.assigned_rated, progress.team, progress.in_team) == (
        len(mine),
        0,
        True,
        True,
    )
    assert not progress.assigned_done
    assert str(progress) == f"0/{len(mine)} assigned · 0/18 rated"


def test_once_the_assigned_pairs_are_rated_it_says_so_and_offers_the_others(make_workspace):
    root = team_workspace(make_workspace)
    session = open_session(root)
    mine = len(session.assigned)
    for _ in range(mine):
        assert session.current is not None and session.is_assigned(session.current)
        session.submit(GOOD)
    progress = session.progress()
    assert progress.assigned_done and (progress.assigned_rated, progress.rated) == (mine, mine)
    assert session.current is not None and not session.is_assigned(session.current)
    session.submit(GOOD)  # the others are still rateable
    assert session.progress().rated == mine + 1
    assert str(session.progress()) == f"{mine}/{mine} assigned · {mine + 1}/18 rated"
    # a new session resumes among the others
    again = open_session(root)
    assert again.current is not None and not again.is_assigned(again.current)


def test_a_skipped_assigned_pair_comes_back_before_any_other(make_workspace):
    root = team_workspace(make_workspace)
    session = open_session(root)
    mine = [p for p in pairs(session) if p in session.assigned]
    first = session.current
    assert first is not None and first.run_key == mine[0]
    session.skip()
    for _ in mine[1:]:
        session.submit(GOOD)
    # every other assigned pair is rated: the skipped one is next, not an unassigned one
    assert session.current is not None and session.current.run_key == mine[0]
    session.submit(GOOD)
    assert session.progress().assigned_done


def test_undo_of_the_last_assigned_rating_makes_the_work_undone_again(make_workspace):
    root = team_workspace(make_workspace)
    session = open_session(root)
    for _ in session.assigned:
        session.submit(GOOD)
    assert session.progress().assigned_done
    session.undo()
    assert not session.progress().assigned_done
    assert session.current is not None and session.is_assigned(session.current)


def test_a_rater_outside_the_team_may_rate_everything(make_workspace):
    root = team_workspace(make_workspace)
    session = open_session(root, "zed")
    assert not session.in_team and session.assigned == frozenset()
    assert len(session.queue) == 18 and session.current is not None
    session.submit(GOOD)
    progress = session.progress()
    assert (progress.team, progress.in_team, progress.rated) == (True, False, 1)
    assert str(progress) == "1/18 rated"
    note = outside_the_team(session.assignment, "zed")
    assert note is not None
    assert "zed is not one of [rating] raters (alice, bob, carol)" in note
    assert "every run can still be rated" in note
    assert outside_the_team(session.assignment, "alice") is None


def test_with_a_team_larger_than_the_overlap_asked_each_pair_has_overlap_raters(make_workspace):
    root = team_workspace(make_workspace, overlap=2)
    sessions = [open_session(root, name) for name in TEAM]
    for pair in pairs(sessions[0]):
        assert sum(pair in s.assigned for s in sessions) == 2


def test_without_a_team_every_pair_is_assigned_and_progress_reads_as_before(make_workspace):
    root = make_workspace(workspace_files(MANY))
    session = open_session(root)
    assert session.in_team and session.assigned == frozenset(pairs(session))
    assert str(session.progress()) == "0/18 rated"
    assert outside_the_team(session.assignment, "anyone") is None


def test_a_long_team_is_cut_in_the_message() -> None:
    team = [f"r{i}" for i in range(12)]
    note = outside_the_team(Assignment.of(team, 2), "zed")
    assert note is not None and "r7 and 4 more)" in note and "r8" not in note


def test_given_the_campaigns_assignment_a_joiner_is_asked_only_for_open_places(make_workspace):
    """Issue 36 row 3 in the engine: the session's own store holds its rater's file only, so
    the caller hands it the campaign's assignment (campaign/figures.py `assignment`)."""
    from tests.ratings.common import jsonl, record
    from voyage_tui.engine.campaign import figures
    from voyage_tui.engine.campaign.snapshot import load_campaign
    from voyage_tui.engine.campaign.source import WorkTree
    from voyage_tui.engine.ratings.session import RaterSession
    from voyage_tui.engine.validation.suite import Suite

    files = workspace_files(MANY)
    files["voyage.toml"] = '[rating]\nraters = ["alice", "bob", "carol", "dan"]\noverlap = 1\n'
    before = Assignment.of(TEAM, 1)
    everything = [(f"t{i}", run) for i in range(1, 7) for run in ("run-a", "run-b", "run-c")]
    half = everything[:9]  # the first nine runs rated by whoever hashing gave them
    for name in TEAM:
        mine = [record(f, r, name) for f, r in half if before.is_assigned(name, (f, r))]
        files[f"ratings/{name}.jsonl"] = jsonl(*mine)
    root = make_workspace(files)
    suite = Suite.open(root, use_git=False)
    campaign = load_campaign(WorkTree(suite.ws, suite.items, suite.refs.rubric))
    dan = RaterSession.open(
        suite.ws,
        suite.refs.rubric.value,
        suite.items,
        "dan",
        read=WorkTree(suite.ws).rater_store,
        use_git=False,
        lock=False,
        assignment=figures.assignment(campaign),
    )
    hashing = Assignment.of([*TEAM, "dan"], 1)
    assert hashing.items_of("dan", half)  # hashing alone would ask dan for rated runs
    assert dan.assigned and dan.assigned == {
        p for p in everything[9:] if hashing.is_assigned("dan", p)
    }
    assert not dan.assigned & set(half)
    # without it, hashing alone: the places dan's digest wins, rated or not
    assert open_session(root, "dan").assigned == set(hashing.items_of("dan", everything))
