"""One rater key (issue 33, row 5): two spellings of one name (`José` and `Jose`, `Ann Smith` and
`ann-smith`, `Zoë` composed and decomposed) are one rater: one ratings file, one lock, one team
place, one served address. A team naming both is refused, naming both; a record of either
spelling in that rater's file counts, never as `rating-rater-mismatch`."""

from __future__ import annotations

import json
import unicodedata
from pathlib import Path

import pytest

from tests.conftest import MakeWorkspace
from tests.fake_app import record_openings
from tests.ratings.common import jsonl, record, rubric, workspace_files
from voyage_tui.cli import main, serve_web
from voyage_tui.engine.campaign.source import WorkTree
from voyage_tui.engine.ratings.assignment import Assignment
from voyage_tui.engine.ratings.lock import RaterBusy, RaterLock, lock_rel
from voyage_tui.engine.ratings.names import RaterNameError, resolve_rater
from voyage_tui.engine.ratings.rules import RATER_MISMATCH, check_ratings_file
from voyage_tui.engine.ratings.session import RaterSession, SessionError
from voyage_tui.engine.validation.suite import Suite
from voyage_tui.engine.workspace.model import Workspace
from voyage_tui.engine.workspace.rater_name import rater_key

ZOE = unicodedata.normalize("NFC", "Zoë")
ZOE_NFD = unicodedata.normalize("NFD", "Zoë")
HAN = unicodedata.normalize("NFC", "한결")  # no slug: its key is the name, folded
HAN_NFD = unicodedata.normalize("NFD", "한결")

PAIRS = [("José", "Jose"), ("Ann Smith", "ann-smith"), (ZOE, ZOE_NFD), (HAN, HAN_NFD)]
"""The issue's spellings of one name (and a name with no slug, composed and decomposed)."""

SAME_SPELLING = {(ZOE, ZOE_NFD), (HAN, HAN_NFD)}
"""Pairs that read the same (only Unicode composition differs): one is the other's spelling."""

IDS = ["accent", "space-dash", "zoe-nfc-nfd", "hangul-nfc-nfd"]


@pytest.fixture
def served(monkeypatch: pytest.MonkeyPatch) -> list[serve_web.AppServer]:
    """Each server the command would have started, instead of starting it."""
    started: list[serve_web.AppServer] = []

    def record(self: serve_web.AppServer, debug: bool = False) -> None:
        started.append(self)

    monkeypatch.setattr(serve_web.AppServer, "serve", record)
    return started


def cli(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    """The command line in this process: its exit code, stdout and stderr. (Not imported from
    tests/test_serve_raters.py: that module is an app test's, which an engine-only run must not
    import.)"""
    try:
        code = main(argv)
    except SystemExit as exc:
        code = exc.code if isinstance(exc.code, int) else 2
    out, err = capsys.readouterr()
    return code, out, err


def toml_team(*names: str) -> str:
    return "[rating]\nraters = [" + ", ".join(json.dumps(n) for n in names) + "]\n"


def open_session(root: Path, rater: str) -> RaterSession:
    suite = Suite.open(root, use_git=False)
    return RaterSession.open(
        suite.ws,
        suite.refs.rubric.value,
        suite.items,
        rater,
        blind=True,
        use_git=False,
        read=WorkTree(suite.ws).rater_store,
    )


@pytest.mark.parametrize(("first", "second"), PAIRS, ids=IDS)
def test_two_spellings_have_one_key(first: str, second: str) -> None:
    assert first != second
    assert rater_key(first) == rater_key(second)
    assert rater_key("ann") != rater_key("ben")


@pytest.mark.parametrize(("first", "second"), PAIRS, ids=IDS)
def test_two_spellings_take_one_lock(make_workspace: MakeWorkspace, first, second) -> None:
    ws = Workspace.load(make_workspace())
    assert lock_rel(first) == lock_rel(second)
    held = RaterLock.take(ws, first)
    try:
        with pytest.raises(RaterBusy):
            RaterLock.take(ws, second)
    finally:
        held.release()


@pytest.mark.parametrize(("first", "second"), PAIRS, ids=IDS)
def test_two_live_sessions_of_one_key_are_refused(
    make_workspace: MakeWorkspace, first: str, second: str
) -> None:
    root = make_workspace(workspace_files())
    session = open_session(root, first)
    try:
        with pytest.raises(SessionError):
            open_session(root, second)
    finally:
        session.close()


@pytest.mark.parametrize(("first", "second"), PAIRS, ids=IDS)
def test_a_name_of_a_rater_s_key_after_their_first_rating(
    make_workspace: MakeWorkspace, first: str, second: str
) -> None:
    """Once `first` has rated, `second` is `first` when the two read the same (only letter case
    or Unicode composition differs), and is refused, naming `first`, when they do not: never a
    second rater in `first`'s file."""
    root = make_workspace(workspace_files())
    with open_session(root, first) as session:
        session.submit({"correctness": 4, "scope": 3})
    ws = Workspace.load(root)
    if (first, second) in SAME_SPELLING:
        assert resolve_rater(ws, second) == first
    else:
        with pytest.raises(RaterNameError, match=repr(first)):
            resolve_rater(ws, second)


def test_a_lower_case_slug_is_not_a_second_rater_in_the_file_of_its_slug(
    make_workspace: MakeWorkspace,
) -> None:
    """`jose` is the file name of José's ratings: `--rater jose` does not append to it as a
    rater of its own (and then as `rating-rater-mismatch` lines)."""
    root = make_workspace(workspace_files())
    with open_session(root, "José") as session:
        session.submit({"correctness": 4, "scope": 3})
    with pytest.raises(RaterNameError, match="'José'"):
        resolve_rater(Workspace.load(root), "jose")


@pytest.mark.parametrize(("first", "second"), PAIRS, ids=IDS)
def test_a_file_with_both_spellings_counts_every_line(
    make_workspace: MakeWorkspace, first: str, second: str
) -> None:
    """A file written before this rule (or by hand) holding both spellings: one rater's, every
    record counts, under one spelling; a record of another key is still a mismatch."""
    stem = rater_key(first) if rater_key(first).isascii() else first
    rel = f"ratings/{stem}.jsonl"
    files = workspace_files()
    files[rel] = jsonl(
        record("t1", "run-a", rater=first),
        record("t1", "run-b", rater=second),
        record("t2", "run-a", rater="ben"),
    )
    root = make_workspace(files)
    checked = check_ratings_file(Workspace.load(root), rubric(), rel)
    mismatches = [d for d in checked.diagnostics if d.code == RATER_MISMATCH]
    assert [d.line for d in mismatches] == [3]
    # One rater: the file's (its stem when a record names it, as `ann-smith` here; else the
    # first name of its key).
    owner = second if second == stem else first
    assert [(r.run_id, r.rater) for r in checked.ratings] == [("run-a", owner), ("run-b", owner)]


@pytest.mark.parametrize(("first", "second"), PAIRS, ids=IDS)
def test_a_team_with_two_names_of_one_key_is_a_diagnostic(
    make_workspace: MakeWorkspace, first: str, second: str
) -> None:
    root = make_workspace({"voyage.toml": toml_team("ann", first, second)})
    ws = Workspace.load(root)
    assert ws.config.rating.raters == ["ann", first]
    [problem] = [d for d in ws.config_diagnostics if d.code == "config-invalid"]
    assert repr(first) in problem.message and repr(second) in problem.message
    assert "counts once" in problem.message


@pytest.mark.parametrize(("first", "second"), PAIRS, ids=IDS)
def test_team_membership_is_by_key(first: str, second: str) -> None:
    team = Assignment.of([first, "ben"], overlap=2)
    assert team.member(second) == first
    assert team.in_team(second)
    assert team.items_of(second, [("t1", "run-a")]) == [("t1", "run-a")]


@pytest.mark.parametrize(("first", "second"), PAIRS, ids=IDS)
def test_serve_refuses_two_raters_of_one_key(
    make_workspace: MakeWorkspace, served, capsys, first: str, second: str
) -> None:
    root = make_workspace()
    code, out, err = cli(
        ["serve", str(root), "--rate", "--raters", f"ann,{first},{second}", "--no-git"], capsys
    )
    assert code == 2 and out == ""
    assert first in err and second in err and "one rater" in err
    assert served == []


@pytest.mark.parametrize(("first", "second"), PAIRS, ids=IDS)
def test_rate_as_a_team_member_s_other_spelling(
    make_workspace: MakeWorkspace, monkeypatch, capsys, first: str, second: str
) -> None:
    """`rate --rater SECOND` with FIRST in the team: FIRST's session when the two read the same;
    refused, naming FIRST, when they do not (exit 2, no session)."""
    files = workspace_files()
    files["voyage.toml"] = toml_team(first, "ben")
    root = make_workspace(files)
    opened = record_openings(monkeypatch)
    code, _, err = cli(["rate", str(root), "--rater", second, "--no-git"], capsys)
    if (first, second) in SAME_SPELLING:
        assert code == 0, err
        assert opened[0]["initial_rate"] == (first, True)
    else:
        assert code == 2 and opened == []
        assert first in err and second in err


@pytest.mark.parametrize(("first", "second"), PAIRS, ids=IDS)
def test_rate_while_the_other_spelling_rates_is_refused(
    make_workspace: MakeWorkspace, monkeypatch, capsys, first: str, second: str
) -> None:
    root = make_workspace(workspace_files())
    opened = record_openings(monkeypatch)
    held = RaterLock.take(Workspace.load(root), first)
    try:
        code, _, err = cli(["rate", str(root), "--rater", second, "--no-git"], capsys)
    finally:
        held.release()
    assert code == 2 and opened == []
    assert "session" in err


def test_a_key_that_is_no_file_name_still_locks_inside_the_locks_folder(
    make_workspace: MakeWorkspace,
) -> None:
    """A name with no slug is its own key, folded: NFKC makes `/` of U+FF0F, so the lock is
    named by the key's digest, never a path with a folder in it."""
    name = "李\uff0f雷"
    assert "/" in rater_key(name)
    rel = lock_rel(name)
    assert rel.count("/") == 2 and rel.startswith(".voyage/locks/key-")
    ws = Workspace.load(make_workspace())
    held = RaterLock.take(ws, name)
    try:
        with pytest.raises(RaterBusy):
            RaterLock.take(ws, name)
    finally:
        held.release()
    assert (ws.root / rel).is_file()


@pytest.mark.parametrize(("first", "second"), PAIRS, ids=IDS)
def test_serve_gives_a_rater_in_use_one_address_under_their_spelling(
    make_workspace: MakeWorkspace, served, capsys, first: str, second: str
) -> None:
    """Once `first` has rated, `--raters ann,SECOND` serves `first` (the same spelling but for
    Unicode composition) or exits 2 naming both; never a second rater of `first`'s file."""
    root = make_workspace(workspace_files())
    with open_session(root, first) as session:
        session.submit({"correctness": 4, "scope": 3})
    code, out, err = cli(
        ["serve", str(root), "--rate", "--raters", f"ann,{second}", "--no-git"], capsys
    )
    if (first, second) in SAME_SPELLING:
        assert (code, err) == (0, "")
        assert list(served[0].links) == ["ann", first]
    else:
        assert code == 2 and out == "" and served == []
        assert repr(first) in err and repr(second) in err
        assert "--raters: " not in err
