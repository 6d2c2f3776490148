"""Who the rater is: --rater, else git's user.name, else the OS user; and which file is theirs."""

from __future__ import annotations

import subprocess

import pytest

from tests.ratings.common import jsonl, load_ws, record, workspace_files
from voyage_tui.engine.ratings import names
from voyage_tui.engine.ratings.names import (
    RaterNameError,
    clean_rater_name,
    rater_name_problem,
    ratings_file_rel,
    resolve_rater,
)


def git(root, *args: str) -> None:
    subprocess.run(["git", "-C", str(root), *args], check=True, capture_output=True)


@pytest.fixture
def no_global_git(monkeypatch, tmp_path):
    """git without the machine's own settings: no user.name unless the repository sets one."""
    home = tmp_path / "home"
    home.mkdir()
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.setenv("XDG_CONFIG_HOME", str(home / ".config"))
    monkeypatch.setenv("GIT_CONFIG_NOSYSTEM", "1")
    monkeypatch.delenv("GIT_CONFIG_GLOBAL", raising=False)


def test_an_explicit_name_wins(make_workspace, no_global_git):
    root = make_workspace(workspace_files())
    git(root, "init", "-q")
    git(root, "config", "user.name", "Git Person")
    assert resolve_rater(load_ws(root), "carol") == "carol"


def test_git_user_name_comes_next(make_workspace, no_global_git):
    root = make_workspace(workspace_files())
    git(root, "init", "-q")
    git(root, "config", "user.name", "Ada Lovelace")
    assert resolve_rater(load_ws(root)) == "Ada Lovelace"


def test_the_os_user_comes_last(make_workspace, no_global_git, monkeypatch):
    root = make_workspace(workspace_files())  # not a git repository
    monkeypatch.setattr(names.getpass, "getuser", lambda: "osuser")
    assert resolve_rater(load_ws(root)) == "osuser"
    git(root, "init", "-q")  # a repository without user.name: still the OS user
    assert resolve_rater(load_ws(root)) == "osuser"


def test_no_name_at_all_asks_for_rater(make_workspace, no_global_git, monkeypatch):
    root = make_workspace(workspace_files())

    def nobody() -> str:
        raise KeyError("no passwd entry")

    monkeypatch.setattr(names.getpass, "getuser", nobody)
    with pytest.raises(RaterNameError, match="--rater"):
        resolve_rater(load_ws(root))


def test_a_hostile_git_name_is_cleaned_into_a_file_name(make_workspace, no_global_git):
    root = make_workspace(workspace_files())
    git(root, "init", "-q")
    git(root, "config", "user.name", "../../etc/passwd")
    rater = resolve_rater(load_ws(root))
    assert rater_name_problem(rater) is None
    assert "/" not in rater and not rater.startswith(".")
    assert ratings_file_rel(load_ws(root), rater) == f"ratings/{rater}.jsonl"


@pytest.mark.parametrize(
    "name",
    ["", " alice", "a/b", "a\\b", "..", ".hidden", "-rf", "bell\x07", "a:b", "x" * 65, "dot."],
)
def test_an_explicit_name_that_cannot_be_a_file_name_is_refused(make_workspace, name):
    root = make_workspace(workspace_files())
    with pytest.raises(RaterNameError, match="cannot be used"):
        resolve_rater(load_ws(root), name)


@pytest.mark.parametrize("name", ["alice", "Ada Lovelace", "Zoë", "o'brien", "r2-d2"])
def test_ordinary_names_are_fine(name):
    assert rater_name_problem(name) is None
    assert clean_rater_name(name) == name


def test_a_name_differing_only_in_case_joins_the_existing_file(make_workspace):
    root = make_workspace({**workspace_files(), "ratings/Alice.jsonl": ""})
    assert resolve_rater(load_ws(root), "alice") == "Alice"
    root2 = make_workspace({"ratings/alice.jsonl": ""})
    assert resolve_rater(load_ws(root2), "alice") == "alice"


FOUR_BYTES = "\U0001f600"  # 😀: one character, four bytes of UTF-8


def test_a_name_too_long_in_bytes_for_a_file_name_is_refused_up_front(make_workspace):
    """64 characters of four bytes each make `<name>.jsonl` 262 bytes: no file system of
    255-byte names could ever hold it, so it is refused before any rating is made."""
    root = make_workspace(workspace_files())
    name = FOUR_BYTES * 64
    assert len(name) == names.MAX_NAME_CHARS
    with pytest.raises(RaterNameError, match=r"cannot be used: .*\b128 bytes\b"):
        resolve_rater(load_ws(root), name)
    # NFD counts too (a macOS file system may store the name decomposed): 43 x "é" is 86 bytes
    # as typed, 129 decomposed.
    assert rater_name_problem("\u00e9" * 43) is not None
    assert rater_name_problem("\u00e9" * 42) is None


def test_the_longest_name_allowed_can_be_saved(make_workspace):
    from tests.ratings.common import rating
    from voyage_tui.engine.ratings.store import append_rating

    root = make_workspace(workspace_files())
    name = FOUR_BYTES * (names.MAX_NAME_BYTES // 4)
    ws = load_ws(root)
    assert resolve_rater(ws, name) == name
    append_rating(ws, rating(rater=name))
    assert (root / ratings_file_rel(ws, name)).read_text().count("\n") == 1


def test_a_long_git_name_is_cut_to_fit_in_bytes(make_workspace, no_global_git):
    root = make_workspace(workspace_files())
    git(root, "init", "-q")
    git(root, "config", "user.name", FOUR_BYTES * 64)
    rater = resolve_rater(load_ws(root))
    assert rater == FOUR_BYTES * (names.MAX_NAME_BYTES // 4)
    assert rater_name_problem(rater) is None
    assert clean_rater_name("a" + FOUR_BYTES * 64) == "a" + FOUR_BYTES * 31


def test_outside_team_names_who_is_not_in_rating_raters(make_workspace) -> None:
    team = make_workspace({"voyage.toml": '[rating]\nraters = ["ann", "Ben"]\n'})
    assert names.outside_team(load_ws(team), ["ann", "ben", "dan", "Ann"]) == ["dan"]
    (team / "voyage.toml").write_text("")
    assert names.outside_team(load_ws(team), ["dan"]) == []  # no team: everyone may rate


# --- the ratings file of a name: a slug (issue 22) ---------------------------------------------


@pytest.mark.parametrize(
    ("name", "slug"),
    [
        ("Firstname Lastname", "firstname-lastname"),
        ("Firstname Lastname-Other", "firstname-lastname-other"),
        ("Zoë O'Brien", "zoe-o-brien"),
        ("José  Núñez_Ruiz", "jose-nunez-ruiz"),
        ("alice", "alice"),
        ("r2-d2", "r2-d2"),
        ("..", ""),
        ("😀😀", ""),
        ("李雷", ""),
        ("A" * 40 + " " + "B" * 40, "a" * 40 + "-" + "b" * 23),
    ],
)
def test_a_name_slugs_to_lower_case_ascii_words_joined_by_dashes(name, slug):
    assert names.rater_slug(name) == slug
    if slug:
        assert rater_name_problem(slug) is None


def test_a_git_name_rates_into_its_slug_and_the_records_keep_the_name(
    make_workspace, no_global_git
):
    from tests.ratings.common import rating, rubric
    from voyage_tui.engine.ratings.rules import check_ratings_file
    from voyage_tui.engine.ratings.store import RatingStore, append_rating

    root = make_workspace(workspace_files())
    git(root, "init", "-q")
    git(root, "config", "user.name", "Firstname Lastname")
    ws = load_ws(root)
    rater = resolve_rater(ws)
    assert rater == "Firstname Lastname"
    assert ratings_file_rel(ws, rater) == "ratings/firstname-lastname.jsonl"
    append_rating(ws, rating(rater=rater))
    assert sorted(p.name for p in (root / "ratings").iterdir()) == ["firstname-lastname.jsonl"]
    checked = check_ratings_file(ws, rubric(), "ratings/firstname-lastname.jsonl")
    assert checked.diagnostics == []
    assert [r.rater for r in checked.ratings] == ["Firstname Lastname"]
    store = RatingStore.load(ws, rubric())
    assert store.raters() == ["Firstname Lastname"]
    assert list(store.of_rater(rater)) == [("t1", "run-a")]
    assert store.file_of(ws, rater) is store.files["ratings/firstname-lastname.jsonl"]


def test_a_name_whose_file_exists_under_the_name_keeps_it(make_workspace, no_global_git):
    from tests.ratings.common import rating
    from voyage_tui.engine.ratings.store import append_rating

    old = jsonl(record(rater="Firstname Lastname"))
    root = make_workspace({**workspace_files(), "ratings/Firstname Lastname.jsonl": old})
    git(root, "init", "-q")
    git(root, "config", "user.name", "firstname lastname")  # the old file's, letter case aside
    ws = load_ws(root)
    rater = resolve_rater(ws)
    assert rater == "Firstname Lastname"
    assert ratings_file_rel(ws, rater) == "ratings/Firstname Lastname.jsonl"
    append_rating(ws, rating(rater=rater, run_id="run-b"))
    assert sorted(p.name for p in (root / "ratings").iterdir()) == ["Firstname Lastname.jsonl"]


def test_a_name_spelt_otherwise_than_its_slug_files_records_takes_theirs(make_workspace):
    """`firstname lastname` and `Firstname Lastname` share `firstname-lastname.jsonl`: the
    second spelling becomes the first (as a name differing only in case joins a file)."""
    mine = jsonl(record(rater="Firstname Lastname"))
    root = make_workspace({**workspace_files(), "ratings/firstname-lastname.jsonl": mine})
    assert resolve_rater(load_ws(root), "firstname lastname") == "Firstname Lastname"
    assert resolve_rater(load_ws(root), "Firstname Lastname") == "Firstname Lastname"


def test_another_person_whose_name_slugs_the_same_is_refused(make_workspace):
    """`Jose` would rate into José's file and supersede his ratings: refused, with what to do."""
    theirs = jsonl(record(rater="José"))
    root = make_workspace({**workspace_files(), "ratings/jose.jsonl": theirs})
    with pytest.raises(RaterNameError, match=r"José.*--rater"):
        resolve_rater(load_ws(root), "Jose")


def test_a_slug_file_holds_one_rater(make_workspace):
    """A record of another rater key in a slug file does not count; one of the file's own key
    (`firstname lastname` beside `Firstname Lastname`) is the same rater and counts as them
    (issue 33: one rater key decides identity)."""
    from tests.ratings.common import rubric
    from voyage_tui.engine.ratings.rules import RATER_MISMATCH, check_ratings_file

    lines = jsonl(
        record(rater="Firstname Lastname"),
        record(rater="firstname lastname", run_id="run-b"),
        record(rater="bob", run_id="run-b"),
    )
    root = make_workspace({**workspace_files(), "ratings/firstname-lastname.jsonl": lines})
    checked = check_ratings_file(load_ws(root), rubric(), "ratings/firstname-lastname.jsonl")
    assert [(d.code, d.line) for d in checked.diagnostics] == [(RATER_MISMATCH, 3)]
    assert "Firstname Lastname's file" in checked.diagnostics[0].message
    assert [r.rater for r in checked.ratings] == ["Firstname Lastname"] * 2
