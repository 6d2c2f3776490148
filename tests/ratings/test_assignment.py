"""Assignment with overlap (SPEC 3.9): rendezvous hashing over `[rating] raters`, and the
checks of that list in voyage.toml."""

from __future__ import annotations

import hashlib

from hypothesis import given, settings
from hypothesis import strategies as st

from tests.budget import examples
from voyage_tui.engine.ratings.assignment import Assignment, assigned_raters, digest
from voyage_tui.engine.workspace.config import parse_config

TEAM = ["ann", "ben", "cat"]
ITEMS = [("t1", "run-a"), ("t1", "run-b"), ("t2", "run-a"), ("t2", "run-b")]

# Worked by hand with `printf 'ann\0t1\0run-a' | sha256sum` (the first 12 hex digits):
#            ann           ben           cat           dan
# t1 run-a   4a65fa7060f2  8247c0e38678  2745b9d9836b  e9b0f72cd249
# t1 run-b   27e9b21b8d5c  4e68b3dc2de2  25ebc03e0198  149f55543461
# t2 run-a   0849ea265ad4  23f5e3cfee8a  607d1781061f  0a3e5d14c4b9
# t2 run-b   b15c322a3d74  fca4851a535f  e450bfa3f936  1c2302d0b111
BY_HAND = {
    ("t1", "run-a"): ["ben", "ann"],
    ("t1", "run-b"): ["ben", "ann"],
    ("t2", "run-a"): ["cat", "ben"],
    ("t2", "run-b"): ["ben", "cat"],
}
WITH_DAN = {**BY_HAND, ("t1", "run-a"): ["dan", "ben"]}


def test_the_digest_is_the_specs_string() -> None:
    assert digest("ann", "t1", "run-a").startswith("4a65fa7060f2")
    assert digest("ann", "t1", "run-a") == hashlib.sha256(b"ann\x00t1\x00run-a").hexdigest()


def test_a_hand_computed_example_item_by_item() -> None:
    assignment = Assignment.of(TEAM, 2)
    assert {pair: assignment.raters_of(pair) for pair in ITEMS} == BY_HAND
    assert assignment.by_rater(ITEMS) == {
        "ann": [("t1", "run-a"), ("t1", "run-b")],
        "ben": [("t1", "run-a"), ("t1", "run-b"), ("t2", "run-a"), ("t2", "run-b")],
        "cat": [("t2", "run-a"), ("t2", "run-b")],
    }
    assert assignment.items_of("cat", ITEMS) == [("t2", "run-a"), ("t2", "run-b")]
    assert not assignment.is_assigned("ann", ("t2", "run-a"))


def test_dan_joins_and_takes_only_the_item_his_digest_wins() -> None:
    assignment = Assignment.of([*TEAM, "dan"], 2)
    assert {pair: assignment.raters_of(pair) for pair in ITEMS} == WITH_DAN


def test_the_order_of_the_list_does_not_matter() -> None:
    forwards = Assignment.of(TEAM, 2)
    backwards = Assignment.of(list(reversed(TEAM)), 2)
    assert all(forwards.raters_of(p) == backwards.raters_of(p) for p in ITEMS)


def test_overlap_larger_than_the_team_assigns_every_item_to_everyone() -> None:
    assignment = Assignment.of(TEAM, 5)
    for pair in ITEMS:
        assert sorted(assignment.raters_of(pair)) == TEAM
    assert assigned_raters(("t1", "run-a"), TEAM, 5) == ["ben", "ann", "cat"]
    assert assigned_raters(("t1", "run-a"), ["ann"], 2) == ["ann"]


def test_overlap_one_gives_each_item_one_rater() -> None:
    assignment = Assignment.of(TEAM, 1)
    assert [assignment.raters_of(p) for p in ITEMS] == [["ben"], ["ben"], ["cat"], ["ben"]]


def test_without_a_team_every_rater_may_rate_every_item() -> None:
    assignment = Assignment.of([], 2)
    assert not assignment.has_team
    assert assignment.raters_of(ITEMS[0]) == []
    assert assignment.is_assigned("anyone", ITEMS[0])
    assert assignment.in_team("anyone")
    assert assignment.by_rater(ITEMS) == {}


def test_an_outsider_is_assigned_nothing_but_is_told_apart() -> None:
    assignment = Assignment.of(TEAM, 2)
    assert not assignment.in_team("zed")
    assert assignment.items_of("zed", ITEMS) == []


def test_equal_digests_fall_back_to_the_name() -> None:
    # Only a name listed twice gives two equal digests: it counts once.
    assert assigned_raters(("t1", "run-a"), ["ann", "ann", "cat"], 2) == ["ann", "cat"]


names = st.text(
    alphabet=st.characters(min_codepoint=0x21, max_codepoint=0x2FF), min_size=1, max_size=8
)
items = st.lists(st.tuples(names, names), min_size=1, max_size=30, unique=True)


@settings(max_examples=examples(200), deadline=None)
@given(
    team=st.lists(names, min_size=1, max_size=8, unique=True),
    newcomer=names,
    overlap=st.integers(min_value=1, max_value=10),
    pairs=items,
)
def test_adding_a_rater_only_moves_items_to_the_new_rater(
    team: list[str], newcomer: str, overlap: int, pairs: list[tuple[str, str]]
) -> None:
    if newcomer in team:
        return
    before = Assignment.of(team, overlap)
    after = Assignment.of([*team, newcomer], overlap)
    for pair in pairs:
        old, new = set(before.raters_of(pair)), set(after.raters_of(pair))
        # Everyone who had the item keeps it, unless the newcomer took it from them...
        assert new - {newcomer} <= old
        # ...and the item lost at most the one rater the newcomer replaced.
        lost = old - new
        assert len(lost) <= 1
        if lost:
            assert newcomer in new
        # The overlap is filled as before (the team grew by one).
        assert len(new) == min(overlap, len(team) + 1)


# --- voyage.toml ------------------------------------------------------------------------------


def test_a_name_that_cannot_be_a_file_name_is_an_error_at_its_line_and_left_out() -> None:
    text = '[rating]\nraters = [\n  "ann",\n  "b/en",\n  ".cat",\n  "dan",\n]\n'
    config, problems = parse_config(text)
    assert config.rating.raters == ["ann", "dan"]
    assert [(p.code, p.line, p.column) for p in problems] == [
        ("config-invalid", 4, 4),
        ("config-invalid", 5, 4),
    ]
    assert "'b/en' cannot be a rater's name" in problems[0].message
    assert "left out of the team" in problems[0].message
    assert "starts with `.`" in problems[1].message


def test_a_name_listed_twice_counts_once_and_the_copy_is_an_error() -> None:
    config, problems = parse_config('[rating]\nraters = ["ann", "ben", "ann", "Ben"]\n')
    assert config.rating.raters == ["ann", "ben"]
    assert [(p.code, p.line, p.column) for p in problems] == [
        ("config-invalid", 2, 26),
        ("config-invalid", 2, 33),
    ]
    assert "'ann' is listed twice" in problems[0].message
    assert "'Ben' is 'ben' again but for letter case" in problems[1].message


def test_a_good_team_has_no_diagnostics() -> None:
    config, problems = parse_config('[rating]\nraters = ["ann", "Ben Smith", "çetin"]\n')
    assert problems == []
    assert config.rating.raters == ["ann", "Ben Smith", "çetin"]


def test_ratings_per_run_is_deprecated_but_still_read() -> None:
    config, problems = parse_config("[triage]\nratings_per_run = 3\n")
    assert [(p.code, p.severity.value, p.line) for p in problems] == [
        ("config-deprecated", "warning", 2)
    ]
    assert "[rating] overlap" in problems[0].message
    assert config.triage.ratings_per_run == 3
    assert config.explicitly_set("triage", "ratings_per_run")
    assert not parse_config("")[0].explicitly_set("triage", "ratings_per_run")
