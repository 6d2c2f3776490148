"""A run written while a rater's session is open joins its queue (issue 36 row 13): the count
grows, the pair on screen stays, and a finished session offers the new run."""

from __future__ import annotations

from pathlib import Path

from tests.ratings.common import workspace_files
from tests.ratings.test_session import GOOD, open_session, pairs
from tests.ratings.test_session_assignment import team_workspace
from voyage_tui.engine.ratings.assignment import Assignment
from voyage_tui.engine.ratings.session import touches_runs
from voyage_tui.engine.validation.suite import Suite

NEW_RUN = "fixtures/bug-diagnosis/t1/runs/run-new.yaml"


def add_run(root: Path, rel: str = NEW_RUN, agent: str = "new-agent") -> None:
    path = root / rel
    path.write_text(f"run_id: {path.stem}\nagent: {agent}\noutput: x\n")


def items_of(root: Path):  # type: ignore[no-untyped-def]
    return Suite.open(root, use_git=False).items


def test_a_new_run_joins_the_queue_and_the_pair_on_screen_stays(make_workspace) -> None:
    root = make_workspace(workspace_files())
    session = open_session(root)
    session.submit(GOOD)
    here = session.current
    assert here is not None and str(session.progress()) == "1/3 rated"
    add_run(root)
    assert session.take_new_runs(items_of(root)) == 1
    assert session.current == here
    assert str(session.progress()) == "1/4 rated"
    assert ("t1", "run-new") in pairs(session)
    # blind: the agent's label of the new run is dropped like the others'
    assert all(run.agent is None for run in session.queue)
    assert session.take_new_runs(items_of(root)) == 0  # seen once, added once


def test_a_finished_session_offers_the_new_run(make_workspace) -> None:
    root = make_workspace(workspace_files())
    session = open_session(root)
    for _ in range(3):
        session.submit(GOOD)
    assert session.finished
    add_run(root)
    session.take_new_runs(items_of(root))
    assert session.current is not None and session.current.run_key == ("t1", "run-new")
    assert session.label(session.current).endswith(" of 3")  # t1's runs: a, b and the new one
    session.submit(GOOD)
    assert session.finished and str(session.progress()) == "4/4 rated"


def test_a_new_run_assigned_to_the_rater_counts_among_the_assigned(make_workspace) -> None:
    root = team_workspace(make_workspace)
    session = open_session(root)
    before = session.progress().assigned
    # a run the hash gives alice (overlap 1 of 3 raters: one in three, tried by name)
    team = Assignment.of(["alice", "bob", "carol"], 1)
    name = next(f"run-x{i}" for i in range(100) if team.is_assigned("alice", ("t1", f"run-x{i}")))
    add_run(root, f"fixtures/bug-diagnosis/t1/runs/{name}.yaml")
    session.take_new_runs(items_of(root))
    assert session.progress().assigned == before + 1
    assert session.is_assigned(("t1", name))
    assert pairs(session).index(("t1", name)) < before + 1  # among the assigned, first part


def test_only_a_change_to_a_run_is_news_to_a_session(make_workspace) -> None:
    root = make_workspace(workspace_files())
    items = items_of(root)
    run = next(p for p in items if "/runs/" in p)
    assert touches_runs(items, {run})
    assert not touches_runs(items, {"ratings/alice.jsonl", "fixtures/bug-diagnosis/t1/task.yaml"})
