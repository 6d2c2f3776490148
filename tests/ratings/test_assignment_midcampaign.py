"""SPEC 3.9, amended (issue 36 row 3): once ratings are in, hashing fills only the places still
open. An item's assignees are the team members who have rated it, then the highest-ranked others
until `min(overlap, len(raters))`; a rater who joins mid-campaign is given only needed work."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from tests.budget import examples
from tests.ratings.common import jsonl, rating, record, workspace_files
from voyage_tui.engine.ratings.assignment import Assignment, assigned_raters, digest
from voyage_tui.engine.ratings.status import campaign_status

TEAM = ["ann", "ben", "cat"]
RUNS = {f"t{i}": ["run-a", "run-b", "run-c"] for i in range(1, 5)}
ITEMS = [(fixture, run) for fixture, runs in RUNS.items() for run in runs]


def complete_ratings(team: list[str], overlap: int) -> list[dict[str, object]]:
    """Every item rated by the raters hashing assigned it to: the campaign complete."""
    before = Assignment.of(team, overlap)
    return [record(f, r, who) for f, r in ITEMS for who in before.raters_of((f, r))]


def as_ratings(records: list[dict[str, object]]):  # type: ignore[no-untyped-def]
    return [
        rating(fixture_id=x["fixture_id"], run_id=x["run_id"], rater=x["rater"]) for x in records
    ]


def test_the_issues_scenario_a_fourth_rater_after_a_complete_campaign_gets_nothing() -> None:
    done = as_ratings(complete_ratings(TEAM, 2))
    before = campaign_status(ITEMS, done, Assignment.of(TEAM, 2).with_ratings(done))
    after = campaign_status(ITEMS, done, Assignment.of([*TEAM, "dan"], 2).with_ratings(done))
    assert after.raters["dan"].assigned == 0
    assert after.raters["dan"].left == 0
    for name in TEAM:
        assert after.raters[name].assigned == before.raters[name].assigned
        assert after.raters[name].left == 0
    # hashing alone (the old rule) would have handed dan items nobody needs
    assert Assignment.of([*TEAM, "dan"], 2).by_rater(ITEMS)["dan"]


def test_a_half_done_campaign_gives_the_newcomer_only_open_places() -> None:
    half = [r for r in complete_ratings(TEAM, 2) if r["fixture_id"] in ("t1", "t2")]
    ratings = as_ratings(half)
    team = Assignment.of([*TEAM, "dan"], 2).with_ratings(ratings)
    rated_items = {(r.fixture_id, r.run_id) for r in ratings}
    dans = set(team.by_rater(ITEMS)["dan"])
    assert dans and not dans & rated_items
    # on the open items dan takes what hashing gives him: the old rule there
    hashing = Assignment.of([*TEAM, "dan"], 2)
    assert dans == {p for p in ITEMS if p not in rated_items and hashing.is_assigned("dan", p)}


def test_a_rater_keeps_an_item_they_rated_outside_their_hashed_places() -> None:
    # t2/run-a hashes to cat and ben (tests/ratings/test_assignment.py); ann rated it anyway
    pair = ("t2", "run-a")
    assert assigned_raters(pair, TEAM, 2) == ["cat", "ben"]
    assert assigned_raters(pair, TEAM, 2, ["ann"]) == ["cat", "ann"]
    assert assigned_raters(pair, TEAM, 2, ["ann", "ben", "cat"]) == ["cat", "ben", "ann"]


def test_an_outsider_or_a_retraction_takes_no_place() -> None:
    pair = ("t2", "run-a")
    retracted = rating(fixture_id="t2", run_id="run-a", rater="ann", scores=None)
    zed = rating(fixture_id="t2", run_id="run-a", rater="zed")
    assignment = Assignment.of(TEAM, 2).with_ratings([retracted, zed])
    assert assignment.raters_of(pair) == ["cat", "ben"]


def test_a_members_other_spelling_holds_their_place() -> None:
    ann = rating(fixture_id="t2", run_id="run-a", rater="ANN")
    assert Assignment.of(TEAM, 2).with_ratings([ann]).raters_of(("t2", "run-a")) == ["cat", "ann"]


POOL = ["ann", "ben", "cat", "dan", "eve", "fay"]


@settings(max_examples=examples(300), deadline=None)
@given(
    team=st.lists(st.sampled_from(POOL), min_size=1, max_size=6, unique=True),
    overlap=st.integers(min_value=0, max_value=7),
    rated=st.lists(st.sampled_from([*POOL, "zed"]), max_size=7, unique=True),
    fixture=st.sampled_from(["t1", "t2", "t3"]),
)
def test_assignees_are_the_rated_members_then_the_best_ranked_others(
    team: list[str], overlap: int, rated: list[str], fixture: str
) -> None:
    pair = (fixture, "run-a")
    records = [rating(fixture_id=fixture, run_id="run-a", rater=name) for name in rated]
    got = Assignment.of(team, overlap).with_ratings(records).raters_of(pair)
    places = min(overlap, len(team))
    rated_members = [name for name in rated if name in team]
    # the invariant: every member who rated is an assignee; there are exactly
    # max(min(overlap, team), rated members) of them, all of the team, none twice ...
    assert set(rated_members) <= set(got) <= set(team)
    assert len(got) == len(set(got)) == max(places, len(rated_members))
    # ... so exactly min(overlap, team) while no more members rated than that
    if len(rated_members) <= places:
        assert len(got) == places
    # ... and the open places go to the highest-ranked members who have not rated
    others = sorted(
        (n for n in team if n not in rated_members),
        key=lambda n: digest(n, fixture, "run-a"),
        reverse=True,
    )
    assert set(got) - set(rated_members) == set(others[: max(0, places - len(rated_members))])


@settings(max_examples=examples(200), deadline=None)
@given(
    team=st.lists(st.sampled_from(POOL[:5]), min_size=1, max_size=5, unique=True),
    overlap=st.integers(min_value=1, max_value=3),
    rated=st.lists(st.tuples(st.sampled_from(ITEMS), st.sampled_from(POOL[:5])), max_size=20),
)
def test_a_joiner_takes_only_open_places_and_no_rated_place_moves(
    team: list[str], overlap: int, rated: list[tuple[tuple[str, str], str]]
) -> None:
    joiner = "fay"
    records = [rating(fixture_id=f, run_id=r, rater=name) for (f, r), name in rated]
    before = Assignment.of(team, overlap).with_ratings(records)
    after = Assignment.of([*team, joiner], overlap).with_ratings(records)
    for pair in ITEMS:
        members = {name for (p, name) in rated if p == pair and name in team}
        if len(members) >= min(overlap, len(team) + 1):
            assert joiner not in after.raters_of(pair)  # nothing left to do there
        assert members <= set(after.raters_of(pair)) & set(before.raters_of(pair))


def test_the_mid_campaign_rule_holds_through_the_command_line(make_workspace) -> None:
    files = workspace_files(RUNS)
    files["voyage.toml"] = '[rating]\nraters = ["ann", "ben", "cat", "dan"]\noverlap = 2\n'
    for name in TEAM:
        mine = [r for r in complete_ratings(TEAM, 2) if r["rater"] == name]
        files[f"ratings/{name}.jsonl"] = jsonl(*mine)
    root: Path = make_workspace(files)
    env = {**os.environ, "NO_COLOR": "1"}
    done = subprocess.run(
        [sys.executable, "-m", "voyage_tui", "ratings", "status", str(root), "--format", "json"],
        capture_output=True,
        text=True,
        timeout=120,
        env=env,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    figures = json.loads(done.stdout)
    assert figures["items"] == {"total": 12, "complete": 12}
    assert figures["raters"]["dan"]["assigned"] == 0
    assert sum(r["assigned"] for r in figures["raters"].values()) == 24
    assert all(r["left"] == 0 for r in figures["raters"].values())
